; A module built with -fwrapv-pointer already has no GEP no-wrap flag:
; -wrap-idiom-wrapv-pointer leaves it as it is and says so.
; RUN: %opt -passes=wrap-idiom-wrapv-pointer -pass-remarks-analysis=wrap-idiom \
; RUN:   -S %s -o %t.ll 2>&1 | FileCheck --check-prefix=SAY %s
; SAY: remark: {{.*}}wrapv-pointer: nothing to strip (no GEP has a no-wrap flag; built with -fwrapv-pointer?)
; RUN: %opt -S %s | diff - %t.ll
; RUN: rm -rf %t.d && mkdir %t.d && cd %t.d
; RUN: %clang_plugin -O0 -mllvm -wrap-idiom-wrapv-pointer -save-stats=obj -c -x ir %s -o %t.d/s.o
; RUN: FileCheck --check-prefix=STATS %s < %t.d/wrapv-pointer-nothing.stats
; STATS: "wrap-idiom.NumWrapvPointerNothing": 1
; STATS-NOT: NumWrapvPointerInsts
; STATS-NOT: NumWrapvPointerConsts
; A module without functions is no error either:
; RUN: echo '@x = global i32 0' > %t.d/empty.ll
; RUN: %clang_plugin -O2 -mllvm -wrap-idiom-wrapv-pointer -save-stats=obj -c -x ir %t.d/empty.ll -o %t.d/empty.o
; RUN: FileCheck --check-prefix=STATS %s < %t.d/empty.stats

@arr = global [10 x i32] zeroinitializer
@gp = global ptr getelementptr ([10 x i32], ptr @arr, i64 0, i64 3)

define i1 @wraps(ptr %p, i64 %n) {
  %q = getelementptr i8, ptr %p, i64 %n
  %c = icmp ult ptr %q, %p
  ret i1 %c
}
