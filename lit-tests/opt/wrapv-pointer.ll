; -wrap-idiom-wrapv-pointer: a file built with -fno-wrapv-pointer (so that
; clang emits pointer-overflow checks) gets -fwrapv-pointer's semantics back
; at pipeline start: every GEP instruction and GEP constant expression loses
; inbounds/nusw/nuw, before any pass can fold on them.
;
; Without the mode, O2 folds on inbounds: `p + n < p` to false, the loop
; that runs until `q` wraps to unreachable, the loop's entry test
; `p + n > p` to `n != 0`. With it, the program's own tests stay.
; RUN: %opt -passes='default<O2>' -S %s | FileCheck --check-prefix=FOLD %s
; (LLVM 19 does not turn the loop into an endless one yet.)
; RUN: %if llvm22 %{ %opt -passes='default<O2>' -S %s | FileCheck --check-prefix=FOLD22 %s %}
; RUN: %opt -wrap-idiom-wrapv-pointer -passes='default<O2>' -S %s | FileCheck --check-prefix=KEEP %s
; RUN: %opt -wrap-idiom-wrapv-pointer -passes='default<O0>' -S %s | FileCheck --check-prefix=STRIP %s
; The pass alone, in opt's pipeline syntax, and its name when printed:
; RUN: %opt -passes=wrap-idiom-wrapv-pointer -S %s | FileCheck --check-prefix=STRIP %s
; RUN: %opt -passes=wrap-idiom-wrapv-pointer -print-pipeline-passes -disable-output %s \
; RUN:   | FileCheck --check-prefix=PIPE %s
; PIPE: wrap-idiom-wrapv-pointer
; In clang's pipelines it comes ahead of wrap-idiom, at -O0 too:
; RUN: %clang_plugin -O0 -mllvm -wrap-idiom-wrapv-pointer -mllvm -print-pipeline-passes \
; RUN:   -c -x ir %s -o /dev/null 2>/dev/null | FileCheck --check-prefix=PIPE-CLANG %s
; RUN: %clang_plugin -O2 -mllvm -wrap-idiom-wrapv-pointer -mllvm -print-pipeline-passes \
; RUN:   -c -x ir %s -o /dev/null 2>/dev/null | FileCheck --check-prefix=PIPE-CLANG %s
; PIPE-CLANG: wrap-idiom-wrapv-pointer,wrap-idiom-module<remove;no-signed-wrap;no-pointer-wrap;wrapv-pointer;no-conversion-facts;budget=4096;disable=>,function(wrap-idiom<remove;no-signed-wrap;no-pointer-wrap;wrapv-pointer;no-conversion-facts;budget=4096;disable=>)
; RUN: %clang_plugin -O2 -mllvm -print-pipeline-passes -c -x ir %s -o /dev/null 2>/dev/null \
; RUN:   | FileCheck --check-prefix=PIPE-OFF %s
; PIPE-OFF-NOT: wrap-idiom-wrapv-pointer
; The remark, and the statistics (Debian's opt prints none: through clang's
; -save-stats, at pipeline start of clang's -O0 pipeline):
; RUN: %opt -passes=wrap-idiom-wrapv-pointer -pass-remarks-analysis=wrap-idiom \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=REMARK %s
; (@arr[3] is one constant, used twice)
; REMARK: remark: {{.*}}wrapv-pointer: dropped the no-wrap flags of 6 GEP instructions and 5 GEP constant expressions
; RUN: rm -rf %t && mkdir %t && cd %t
; RUN: %clang_plugin -O0 -mllvm -wrap-idiom-wrapv-pointer -save-stats=obj -c -x ir %s -o %t/s.o
; RUN: FileCheck --check-prefix=STATS %s < %t/wrapv-pointer.stats
; STATS-DAG: "wrap-idiom.NumWrapvPointerConsts": 5
; STATS-DAG: "wrap-idiom.NumWrapvPointerInsts": 6
; STATS-NOT: NumWrapvPointerNothing

%struct.s = type { i32, [4 x i32] }

@arr = global [10 x i32] zeroinitializer
@tab = external global [8 x %struct.s]
; STRIP: @gp = global ptr getelementptr ([10 x i32], ptr @arr, i64 0, i64 3)
@gp = global ptr getelementptr inbounds ([10 x i32], ptr @arr, i64 0, i64 3)
; Nested, in an aggregate, under a cast:
; STRIP: @agg = global { ptr, i64 } { ptr getelementptr (%struct.s, ptr getelementptr ([8 x %struct.s], ptr @tab, i64 0, i64 2), i32 0, i32 1), i64 ptrtoint (ptr getelementptr (i8, ptr @arr, i64 4) to i64) }
@agg = global { ptr, i64 } { ptr getelementptr inbounds nuw (%struct.s, ptr getelementptr inbounds ([8 x %struct.s], ptr @tab, i64 0, i64 2), i32 0, i32 1), i64 ptrtoint (ptr getelementptr nusw (i8, ptr @arr, i64 4) to i64) }
; STRIP: @alias = alias i32, getelementptr ([10 x i32], ptr @arr, i64 0, i64 5)
@alias = alias i32, getelementptr inbounds ([10 x i32], ptr @arr, i64 0, i64 5)
; STRIP-NOT: inbounds
; STRIP-NOT: nuw
; STRIP-NOT: nusw

; int wraps(char *p, unsigned long n) { return p + n < p; }
; FOLD-LABEL: define {{.*}} @wraps(
; FOLD-NOT: getelementptr
; FOLD: ret i1
; KEEP-LABEL: define {{.*}} @wraps(
; KEEP-NEXT: [[Q:%.*]] = getelementptr i8, ptr %p, i64 %n
; KEEP-NEXT: [[C:%.*]] = icmp ult ptr [[Q]], %p
; KEEP-NEXT: ret i1 [[C]]
define i1 @wraps(ptr %p, i64 %n) {
  %q = getelementptr inbounds nuw i8, ptr %p, i64 %n
  %c = icmp ult ptr %q, %p
  ret i1 %c
}

; for (q = p; q >= p; q++) k++; -- ends when q wraps past the top.
; FOLD22-LABEL: define {{.*}} @to_top(
; FOLD22: loop:
; FOLD22-NEXT: br label %loop
; FOLD22-NEXT: }
; KEEP-LABEL: define {{.*}} @to_top(
; KEEP: icmp ult ptr
; KEEP: ret i64
define i64 @to_top(ptr %p) {
entry:
  br label %loop
loop:
  %q = phi ptr [ %p, %entry ], [ %q.next, %loop ]
  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
  %k.next = add i64 %k, 1
  %q.next = getelementptr inbounds i8, ptr %q, i64 1
  %more = icmp uge ptr %q.next, %p
  br i1 %more, label %loop, label %exit
exit:
  ret i64 %k.next
}

; for (q = p + n; q > p; q--) s += q[-1]; -- the entry test is p + n > p.
; FOLD-LABEL: define {{.*}} @loop_bound(
; FOLD-NEXT: entry:
; FOLD-NEXT: icmp sgt i64 %n, 0
; KEEP-LABEL: define {{.*}} @loop_bound(
; KEEP: [[END:%.*]] = getelementptr i32, ptr %p, i64 %n
; KEEP-NEXT: icmp ugt ptr [[END]], %p
define i32 @loop_bound(ptr %p, i64 %n) {
entry:
  %end = getelementptr inbounds i32, ptr %p, i64 %n
  br label %cond
cond:
  %q = phi ptr [ %end, %entry ], [ %q.prev, %body ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %body ]
  %more = icmp ugt ptr %q, %p
  br i1 %more, label %body, label %exit
body:
  %q.prev = getelementptr inbounds i32, ptr %q, i64 -1
  %v = load i32, ptr %q.prev
  %s.next = add i32 %s, %v
  br label %cond
exit:
  ret i32 %s
}

; Constants in instructions, and member access:
; STRIP-LABEL: define i32 @consts(
; STRIP: load i32, ptr getelementptr ([10 x i32], ptr @arr, i64 0, i64 3)
; STRIP: getelementptr %struct.s, ptr %p, i64 0, i32 1
; STRIP: getelementptr i8, ptr %p, i64 8
define i32 @consts(ptr %p) {
  %a = load i32, ptr getelementptr inbounds ([10 x i32], ptr @arr, i64 0, i64 3)
  %f = getelementptr inbounds nuw %struct.s, ptr %p, i64 0, i32 1
  %b = load i32, ptr %f
  %s = add i32 %a, %b
  %e = getelementptr nusw nuw i8, ptr %p, i64 8
  ; An array decaying to a pointer keeps its flags (clang emits them under
  ; -fwrapv-pointer too).
  ; STRIP: getelementptr inbounds [4 x i32], ptr %f, i64 0, i64 0
  %z = getelementptr inbounds [4 x i32], ptr %f, i64 0, i64 0
  %zl = load i32, ptr %z
  %c = load i32, ptr %e
  %t = add i32 %s, %c
  ret i32 %t
}
