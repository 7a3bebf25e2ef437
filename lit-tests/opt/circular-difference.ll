; circular-difference (llvm-pass/idioms/CircularDifference.cpp): d = a - b, and the
; size added back exactly where the program's own a < b says d wrapped.
; The subtraction's check goes; the addition's is re-checked: its overflow
; bit `ov` becomes `!ov` (the correction did not carry: b - a > size), or
; `(a <u b) & !ov` when the sum is computed on both sides and a select on
; the test takes it only on the wrap side. The first function is clang's
; -O0 IR (optnone: decided on a promoted clone, the loads of `journal->j_tail`
; equal by the memory facts; the new condition lands on the function
; itself), from fs/jbd2/journal.c's __jbd2_update_log_tail():
;   clang -O0 -fsanitize=unsigned-integer-overflow -Xclang -disable-llvm-passes
;   void update_tail(struct journal *journal, unsigned long block) {
;     unsigned long freed = block - journal->j_tail;
;     if (block < journal->j_tail)
;       freed += journal->j_last - journal->j_first;
;     journal->j_free += freed;
;   }
; the rest hand-written SSA (the handler data's line numbers name them in
; the remarks).
;
; RUN: %opt -passes=wrap-idiom -S %s | FileCheck %s
; RUN: %opt -passes=wrap-idiom -pass-remarks=wrap-idiom -pass-remarks-missed=wrap-idiom \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=REMARK %s
; RUN: %opt -passes=wrap-idiom -wrap-idiom-disable=circular-difference,final-result -S %s \
; RUN:   | FileCheck --check-prefix=DISABLE %s
; RUN: %opt -passes=wrap-idiom -wrap-idiom-disable=circular-difference,final-result -pass-remarks-missed=wrap-idiom \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=DISABLE-REMARK %s
; RUN: %opt -passes=wrap-idiom -wrap-idiom-mode=report -S %s | FileCheck --check-prefix=REPORT %s
; RUN: %opt -passes=wrap-idiom -wrap-idiom-mode=report -pass-remarks-analysis=wrap-idiom \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=REPORT-REMARK %s

%struct.journal = type { i64, i64, i64, i64 }

@.src = private unnamed_addr constant [5 x i8] c"cd.c\00", align 1
@t = private unnamed_addr constant { i16, i16, [16 x i8] } { i16 0, i16 12, [16 x i8] c"'unsigned long'\00" }
@g = global i64 0
@j1 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 101, i32 30 }, ptr @t }
@j2 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 103, i32 28 }, ptr @t }
@j3 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 103, i32 9 }, ptr @t }
@j4 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 104, i32 18 }, ptr @t }
@d1 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 1, i32 9 }, ptr @t }
@d2 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 2, i32 9 }, ptr @t }
@d5 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 5, i32 9 }, ptr @t }
@d6 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 6, i32 9 }, ptr @t }
@d7 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 7, i32 9 }, ptr @t }
@d8 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 8, i32 9 }, ptr @t }
@d9 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 9, i32 9 }, ptr @t }
@d10 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 10, i32 9 }, ptr @t }
@d11 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 11, i32 9 }, ptr @t }
@d12 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 12, i32 9 }, ptr @t }
@d13 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 13, i32 9 }, ptr @t }
@d14 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 14, i32 9 }, ptr @t }
@d19 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 19, i32 9 }, ptr @t }
@d20 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 20, i32 9 }, ptr @t }
@d21 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 21, i32 9 }, ptr @t }
@d22 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 22, i32 9 }, ptr @t }
@d23 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 23, i32 9 }, ptr @t }
@d24 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 24, i32 9 }, ptr @t }

; The sub's check goes (its branch always passes), the add's condition is
; the correction's failure; j_last - j_first and j_free += freed stay plain.
; CHECK-LABEL: define dso_local void @update_tail(
; CHECK: %10 = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %6, i64 %9), !nosanitize ![[NOSAN:[0-9]+]], !wrap.idiom ![[CIRC:[0-9]+]]
; CHECK: br i1 true, label %15, label %14
; CHECK: call void @__ubsan_handle_sub_overflow(ptr @j1, i64 %6, i64 %9)
; CHECK: br i1 %31, label %33, label %32
; CHECK: %35 = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %34, i64 %29), !nosanitize ![[NOSAN]], !wrap.idiom ![[CIRC]]
; CHECK-NEXT: %recheck.ov = extractvalue { i64, i1 } %35, 1, !nosanitize ![[NOSAN]]
; CHECK-NEXT: %circular.short = xor i1 %recheck.ov, true, !nosanitize ![[NOSAN]]
; CHECK-NEXT: %36 = extractvalue { i64, i1 } %35, 0
; CHECK-NEXT: %37 = xor i1 %circular.short, true, !nosanitize ![[NOSAN]]
; CHECK-NEXT: br i1 %37, label %39, label %38
; CHECK: call void @__ubsan_handle_add_overflow(ptr @j3, i64 %34, i64 %29)
; CHECK: br i1 %48, label %50, label %49
; DISABLE-LABEL: define dso_local void @update_tail(
; DISABLE-NOT: circular
; DISABLE: br i1 %13, label %15, label %14
; DISABLE-NOT: circular
; DISABLE: br i1 %38, label %40, label %39
; REPORT-LABEL: define dso_local void @update_tail(
; REPORT: @llvm.usub.with.overflow.i64(i64 %6, i64 %9), !nosanitize !{{[0-9]+}}, !wrap.idiom
; REPORT-NOT: circular
; REPORT: br i1 %13, label %15, label %14
; REPORT: @llvm.uadd.with.overflow.i64(i64 %34, i64 %29), !nosanitize !{{[0-9]+}}, !wrap.idiom
; REPORT-NOT: circular
; REPORT: br i1 %38, label %40, label %39
; REMARK: remark: <unknown>:0:0: removed unsigned-integer-overflow check on sub: circular-difference (the difference wraps exactly when the program's own a < b test says so, and there it only reaches the correction d + size, whose check is re-checked to report a correction that does not carry) [cd.c:101:30]
; REMARK: remark: <unknown>:0:0: kept unsigned-integer-overflow check on sub: {{.*}} [cd.c:103:28]
; REMARK: remark: <unknown>:0:0: re-checked unsigned-integer-overflow check on add: circular-difference (the program adds the size back exactly when a < b, i.e. when the difference wrapped: the check reports the correction not carrying, i.e. b - a > size, a corrupted circular distance) [cd.c:103:9]
; REMARK: remark: <unknown>:0:0: kept unsigned-integer-overflow check on add: {{.*}} [cd.c:104:18]
; DISABLE-REMARK: remark: <unknown>:0:0: kept unsigned-integer-overflow check on sub: {{.*}}; re-check circular-difference is disabled by -wrap-idiom-disable [cd.c:101:30]
; DISABLE-REMARK: remark: <unknown>:0:0: kept unsigned-integer-overflow check on add: {{.*}}; re-check circular-difference is disabled by -wrap-idiom-disable; re-check final-result is disabled by -wrap-idiom-disable [cd.c:103:9]
; REPORT-REMARK: remark: <unknown>:0:0: recognised unsigned-integer-overflow check on sub: circular-difference (the difference wraps exactly {{.*}}); kept by -wrap-idiom-mode=report [cd.c:101:30]
; REPORT-REMARK: remark: <unknown>:0:0: recognised unsigned-integer-overflow check on add: circular-difference (the program adds the size back {{.*}}); kept by -wrap-idiom-mode=report [cd.c:103:9]
define dso_local void @update_tail(ptr noundef %0, i64 noundef %1) #0 {
  %3 = alloca ptr, align 8
  %4 = alloca i64, align 8
  %5 = alloca i64, align 8
  store ptr %0, ptr %3, align 8
  store i64 %1, ptr %4, align 8
  %6 = load i64, ptr %4, align 8
  %7 = load ptr, ptr %3, align 8
  %8 = getelementptr inbounds %struct.journal, ptr %7, i32 0, i32 0
  %9 = load i64, ptr %8, align 8
  %10 = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %6, i64 %9), !nosanitize !0
  %11 = extractvalue { i64, i1 } %10, 0, !nosanitize !0
  %12 = extractvalue { i64, i1 } %10, 1, !nosanitize !0
  %13 = xor i1 %12, true, !nosanitize !0
  br i1 %13, label %15, label %14, !nosanitize !0

14:                                               ; preds = %2
  call void @__ubsan_handle_sub_overflow(ptr @j1, i64 %6, i64 %9), !nosanitize !0
  br label %15, !nosanitize !0

15:                                               ; preds = %14, %2
  store i64 %11, ptr %5, align 8
  %16 = load i64, ptr %4, align 8
  %17 = load ptr, ptr %3, align 8
  %18 = getelementptr inbounds %struct.journal, ptr %17, i32 0, i32 0
  %19 = load i64, ptr %18, align 8
  %20 = icmp ult i64 %16, %19
  br i1 %20, label %21, label %41

21:                                               ; preds = %15
  %22 = load ptr, ptr %3, align 8
  %23 = getelementptr inbounds %struct.journal, ptr %22, i32 0, i32 2
  %24 = load i64, ptr %23, align 8
  %25 = load ptr, ptr %3, align 8
  %26 = getelementptr inbounds %struct.journal, ptr %25, i32 0, i32 1
  %27 = load i64, ptr %26, align 8
  %28 = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %24, i64 %27), !nosanitize !0
  %29 = extractvalue { i64, i1 } %28, 0, !nosanitize !0
  %30 = extractvalue { i64, i1 } %28, 1, !nosanitize !0
  %31 = xor i1 %30, true, !nosanitize !0
  br i1 %31, label %33, label %32, !nosanitize !0

32:                                               ; preds = %21
  call void @__ubsan_handle_sub_overflow(ptr @j2, i64 %24, i64 %27), !nosanitize !0
  br label %33, !nosanitize !0

33:                                               ; preds = %32, %21
  %34 = load i64, ptr %5, align 8
  %35 = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %34, i64 %29), !nosanitize !0
  %36 = extractvalue { i64, i1 } %35, 0, !nosanitize !0
  %37 = extractvalue { i64, i1 } %35, 1, !nosanitize !0
  %38 = xor i1 %37, true, !nosanitize !0
  br i1 %38, label %40, label %39, !nosanitize !0

39:                                               ; preds = %33
  call void @__ubsan_handle_add_overflow(ptr @j3, i64 %34, i64 %29), !nosanitize !0
  br label %40, !nosanitize !0

40:                                               ; preds = %39, %33
  store i64 %36, ptr %5, align 8
  br label %41

41:                                               ; preds = %40, %15
  %42 = load i64, ptr %5, align 8
  %43 = load ptr, ptr %3, align 8
  %44 = getelementptr inbounds %struct.journal, ptr %43, i32 0, i32 3
  %45 = load i64, ptr %44, align 8
  %46 = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %45, i64 %42), !nosanitize !0
  %47 = extractvalue { i64, i1 } %46, 0, !nosanitize !0
  %48 = extractvalue { i64, i1 } %46, 1, !nosanitize !0
  %49 = xor i1 %48, true, !nosanitize !0
  br i1 %49, label %51, label %50, !nosanitize !0

50:                                               ; preds = %41
  call void @__ubsan_handle_add_overflow(ptr @j4, i64 %45, i64 %42), !nosanitize !0
  br label %51, !nosanitize !0

51:                                               ; preds = %50, %41
  store i64 %47, ptr %44, align 8
  ret void
}

; `if (a >= b) ... else freed = size + d`: the add on the false side, the
; size on the left.
; CHECK-LABEL: define i64 @ge_false_side(
; CHECK: br i1 true, label %cont, label %d.handler
; CHECK: %sum.r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %s, i64 %d), {{.*}}!wrap.idiom ![[CIRC]]
; CHECK-NEXT: %recheck.ov = extractvalue { i64, i1 } %sum.r, 1
; CHECK-NEXT: %circular.short = xor i1 %recheck.ov, true
; CHECK: %sum.ok = xor i1 %circular.short, true
; REMARK: removed unsigned-integer-overflow check on sub: circular-difference {{.*}} [cd.c:1:9]
; REMARK: re-checked unsigned-integer-overflow check on add: circular-difference {{.*}} [cd.c:2:9]
define i64 @ge_false_side(i64 %a, i64 %b, i64 %s) {
entry:
  %d.r = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %d = extractvalue { i64, i1 } %d.r, 0, !nosanitize !0
  %d.ov = extractvalue { i64, i1 } %d.r, 1, !nosanitize !0
  %d.ok = xor i1 %d.ov, true, !nosanitize !0
  br i1 %d.ok, label %cont, label %d.handler, !nosanitize !0

d.handler:
  call void @__ubsan_handle_sub_overflow(ptr @d1, i64 %a, i64 %b), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  %t = icmp uge i64 %a, %b
  br i1 %t, label %join, label %fix

fix:
  %sum.r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %s, i64 %d), !nosanitize !0
  %sum = extractvalue { i64, i1 } %sum.r, 0, !nosanitize !0
  %sum.ov = extractvalue { i64, i1 } %sum.r, 1, !nosanitize !0
  %sum.ok = xor i1 %sum.ov, true, !nosanitize !0
  br i1 %sum.ok, label %fixed, label %sum.handler, !nosanitize !0

sum.handler:
  call void @__ubsan_handle_add_overflow(ptr @d2, i64 %s, i64 %d), !nosanitize !0
  br label %fixed, !nosanitize !0

fixed:
  br label %join

join:
  %freed = phi i64 [ %d, %cont ], [ %sum, %fixed ]
  ret i64 %freed
}

; `(a < b) ? d + s : d` as a select: the sum is computed on both sides and
; used only on the wrap side, so the re-check also asks a < b.
; CHECK-LABEL: define i64 @sel(
; CHECK: br i1 true, label %cont, label %d.handler
; CHECK: %sum.r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %d, i64 %s), {{.*}}!wrap.idiom ![[CIRC]]
; CHECK-NEXT: %recheck.ov = extractvalue { i64, i1 } %sum.r, 1, !nosanitize ![[NOSAN]]
; CHECK-NEXT: %circular.short = xor i1 %recheck.ov, true, !nosanitize ![[NOSAN]]
; CHECK-NEXT: %circular.wrapped = icmp ult i64 %a, %b, !nosanitize ![[NOSAN]]
; CHECK-NEXT: %circular.out = and i1 %circular.wrapped, %circular.short, !nosanitize ![[NOSAN]]
; CHECK: %sum.ok = xor i1 %circular.out, true
; REMARK: removed unsigned-integer-overflow check on sub: circular-difference {{.*}} [cd.c:5:9]
; REMARK: re-checked unsigned-integer-overflow check on add: circular-difference {{.*}} [cd.c:6:9]
define i64 @sel(i64 %a, i64 %b, i64 %s) {
entry:
  %d.r = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %d = extractvalue { i64, i1 } %d.r, 0, !nosanitize !0
  %d.ov = extractvalue { i64, i1 } %d.r, 1, !nosanitize !0
  %d.ok = xor i1 %d.ov, true, !nosanitize !0
  br i1 %d.ok, label %cont, label %d.handler, !nosanitize !0

d.handler:
  call void @__ubsan_handle_sub_overflow(ptr @d5, i64 %a, i64 %b), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  %sum.r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %d, i64 %s), !nosanitize !0
  %sum = extractvalue { i64, i1 } %sum.r, 0, !nosanitize !0
  %sum.ov = extractvalue { i64, i1 } %sum.r, 1, !nosanitize !0
  %sum.ok = xor i1 %sum.ov, true, !nosanitize !0
  br i1 %sum.ok, label %cont2, label %sum.handler, !nosanitize !0

sum.handler:
  call void @__ubsan_handle_add_overflow(ptr @d6, i64 %d, i64 %s), !nosanitize !0
  br label %cont2, !nosanitize !0

cont2:
  %t = icmp ult i64 %a, %b
  %freed = select i1 %t, i64 %sum, i64 %d
  ret i64 %freed
}

; `(b <= a) ? d : d + s`.
; CHECK-LABEL: define i64 @sel_ule(
; CHECK: br i1 true, label %cont, label %d.handler
; CHECK: %circular.wrapped = icmp ult i64 %a, %b
; REMARK: removed unsigned-integer-overflow check on sub: circular-difference {{.*}} [cd.c:7:9]
; REMARK: re-checked unsigned-integer-overflow check on add: circular-difference {{.*}} [cd.c:8:9]
define i64 @sel_ule(i64 %a, i64 %b, i64 %s) {
entry:
  %d.r = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %d = extractvalue { i64, i1 } %d.r, 0, !nosanitize !0
  %d.ov = extractvalue { i64, i1 } %d.r, 1, !nosanitize !0
  %d.ok = xor i1 %d.ov, true, !nosanitize !0
  br i1 %d.ok, label %cont, label %d.handler, !nosanitize !0

d.handler:
  call void @__ubsan_handle_sub_overflow(ptr @d7, i64 %a, i64 %b), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  %sum.r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %d, i64 %s), !nosanitize !0
  %sum = extractvalue { i64, i1 } %sum.r, 0, !nosanitize !0
  %sum.ov = extractvalue { i64, i1 } %sum.r, 1, !nosanitize !0
  %sum.ok = xor i1 %sum.ov, true, !nosanitize !0
  br i1 %sum.ok, label %cont2, label %sum.handler, !nosanitize !0

sum.handler:
  call void @__ubsan_handle_add_overflow(ptr @d8, i64 %d, i64 %s), !nosanitize !0
  br label %cont2, !nosanitize !0

cont2:
  %t = icmp ule i64 %b, %a
  %freed = select i1 %t, i64 %d, i64 %sum
  ret i64 %freed
}

; Must keep, both plain: the select takes the sum where d did not wrap
; (and the wrapped d as it is); d also passed on the wrap side; a test of
; another value; d stored before the test; d used after the two sides
; join; d + d. (`a <= b` and the size added on the no-wrap side:
; lit-tests/clang/circular-difference.c.)
; CHECK-LABEL: define i64 @sel_wrong_arm(
; CHECK-NOT: circular
; CHECK-NOT: wrap.idiom
; CHECK: ret i64
; REMARK: kept unsigned-integer-overflow check on sub: {{.*}} [cd.c:9:9]
; REMARK: kept unsigned-integer-overflow check on add: {{.*}} [cd.c:10:9]
define i64 @sel_wrong_arm(i64 %a, i64 %b, i64 %s) {
entry:
  %d.r = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %d = extractvalue { i64, i1 } %d.r, 0, !nosanitize !0
  %d.ov = extractvalue { i64, i1 } %d.r, 1, !nosanitize !0
  %d.ok = xor i1 %d.ov, true, !nosanitize !0
  br i1 %d.ok, label %cont, label %d.handler, !nosanitize !0

d.handler:
  call void @__ubsan_handle_sub_overflow(ptr @d9, i64 %a, i64 %b), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  %sum.r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %d, i64 %s), !nosanitize !0
  %sum = extractvalue { i64, i1 } %sum.r, 0, !nosanitize !0
  %sum.ov = extractvalue { i64, i1 } %sum.r, 1, !nosanitize !0
  %sum.ok = xor i1 %sum.ov, true, !nosanitize !0
  br i1 %sum.ok, label %cont2, label %sum.handler, !nosanitize !0

sum.handler:
  call void @__ubsan_handle_add_overflow(ptr @d10, i64 %d, i64 %s), !nosanitize !0
  br label %cont2, !nosanitize !0

cont2:
  %t = icmp ult i64 %a, %b
  %freed = select i1 %t, i64 %d, i64 %sum
  ret i64 %freed
}

; CHECK-LABEL: define i64 @used_on_wrap_side(
; CHECK-NOT: circular
; CHECK-NOT: wrap.idiom
; CHECK: ret i64
; REMARK: kept unsigned-integer-overflow check on sub: {{.*}}; circular-difference: the wrapped difference also reaches 'call' besides its correction [cd.c:11:9]
; REMARK: kept unsigned-integer-overflow check on add: {{.*}} [cd.c:12:9]
define i64 @used_on_wrap_side(i64 %a, i64 %b, i64 %s) {
entry:
  %d.r = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %d = extractvalue { i64, i1 } %d.r, 0, !nosanitize !0
  %d.ov = extractvalue { i64, i1 } %d.r, 1, !nosanitize !0
  %d.ok = xor i1 %d.ov, true, !nosanitize !0
  br i1 %d.ok, label %cont, label %d.handler, !nosanitize !0

d.handler:
  call void @__ubsan_handle_sub_overflow(ptr @d11, i64 %a, i64 %b), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  %t = icmp ult i64 %a, %b
  br i1 %t, label %fix, label %join

fix:
  call void @use(i64 %d)
  %sum.r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %d, i64 %s), !nosanitize !0
  %sum = extractvalue { i64, i1 } %sum.r, 0, !nosanitize !0
  %sum.ov = extractvalue { i64, i1 } %sum.r, 1, !nosanitize !0
  %sum.ok = xor i1 %sum.ov, true, !nosanitize !0
  br i1 %sum.ok, label %fixed, label %sum.handler, !nosanitize !0

sum.handler:
  call void @__ubsan_handle_add_overflow(ptr @d12, i64 %d, i64 %s), !nosanitize !0
  br label %fixed, !nosanitize !0

fixed:
  br label %join

join:
  %freed = phi i64 [ %d, %cont ], [ %sum, %fixed ]
  ret i64 %freed
}

; CHECK-LABEL: define i64 @other_operand(
; CHECK-NOT: circular
; CHECK-NOT: wrap.idiom
; CHECK: ret i64
; REMARK: kept unsigned-integer-overflow check on sub: {{.*}} [cd.c:13:9]
; REMARK: kept unsigned-integer-overflow check on add: {{.*}} [cd.c:14:9]
define i64 @other_operand(i64 %a, i64 %b, i64 %c, i64 %s) {
entry:
  %d.r = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %d = extractvalue { i64, i1 } %d.r, 0, !nosanitize !0
  %d.ov = extractvalue { i64, i1 } %d.r, 1, !nosanitize !0
  %d.ok = xor i1 %d.ov, true, !nosanitize !0
  br i1 %d.ok, label %cont, label %d.handler, !nosanitize !0

d.handler:
  call void @__ubsan_handle_sub_overflow(ptr @d13, i64 %a, i64 %b), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  %t = icmp ult i64 %a, %c
  br i1 %t, label %fix, label %join

fix:
  %sum.r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %d, i64 %s), !nosanitize !0
  %sum = extractvalue { i64, i1 } %sum.r, 0, !nosanitize !0
  %sum.ov = extractvalue { i64, i1 } %sum.r, 1, !nosanitize !0
  %sum.ok = xor i1 %sum.ov, true, !nosanitize !0
  br i1 %sum.ok, label %fixed, label %sum.handler, !nosanitize !0

sum.handler:
  call void @__ubsan_handle_add_overflow(ptr @d14, i64 %d, i64 %s), !nosanitize !0
  br label %fixed, !nosanitize !0

fixed:
  br label %join

join:
  %freed = phi i64 [ %d, %cont ], [ %sum, %fixed ]
  ret i64 %freed
}

; CHECK-LABEL: define i64 @stored_before(
; CHECK-NOT: circular
; CHECK-NOT: wrap.idiom
; CHECK: ret i64
; REMARK: kept unsigned-integer-overflow check on sub: {{.*}}; circular-difference: the difference reaches 'store' where the program has not tested a < b [cd.c:19:9]
; REMARK: kept unsigned-integer-overflow check on add: {{.*}} [cd.c:20:9]
define i64 @stored_before(i64 %a, i64 %b, i64 %s) {
entry:
  %d.r = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %d = extractvalue { i64, i1 } %d.r, 0, !nosanitize !0
  %d.ov = extractvalue { i64, i1 } %d.r, 1, !nosanitize !0
  %d.ok = xor i1 %d.ov, true, !nosanitize !0
  br i1 %d.ok, label %cont, label %d.handler, !nosanitize !0

d.handler:
  call void @__ubsan_handle_sub_overflow(ptr @d19, i64 %a, i64 %b), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  store i64 %d, ptr @g
  %t = icmp ult i64 %a, %b
  br i1 %t, label %fix, label %join

fix:
  %sum.r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %d, i64 %s), !nosanitize !0
  %sum = extractvalue { i64, i1 } %sum.r, 0, !nosanitize !0
  %sum.ov = extractvalue { i64, i1 } %sum.r, 1, !nosanitize !0
  %sum.ok = xor i1 %sum.ov, true, !nosanitize !0
  br i1 %sum.ok, label %fixed, label %sum.handler, !nosanitize !0

sum.handler:
  call void @__ubsan_handle_add_overflow(ptr @d20, i64 %d, i64 %s), !nosanitize !0
  br label %fixed, !nosanitize !0

fixed:
  br label %join

join:
  %freed = phi i64 [ %d, %cont ], [ %sum, %fixed ]
  ret i64 %freed
}

; CHECK-LABEL: define i64 @after_join(
; CHECK-NOT: circular
; CHECK-NOT: wrap.idiom
; CHECK: ret i64
; REMARK: kept unsigned-integer-overflow check on sub: {{.*}}; circular-difference: the difference reaches 'call' where the program has not tested a < b [cd.c:21:9]
; REMARK: kept unsigned-integer-overflow check on add: {{.*}} [cd.c:22:9]
define i64 @after_join(i64 %a, i64 %b, i64 %s) {
entry:
  %d.r = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %d = extractvalue { i64, i1 } %d.r, 0, !nosanitize !0
  %d.ov = extractvalue { i64, i1 } %d.r, 1, !nosanitize !0
  %d.ok = xor i1 %d.ov, true, !nosanitize !0
  br i1 %d.ok, label %cont, label %d.handler, !nosanitize !0

d.handler:
  call void @__ubsan_handle_sub_overflow(ptr @d21, i64 %a, i64 %b), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  %t = icmp ult i64 %a, %b
  br i1 %t, label %fix, label %join

fix:
  %sum.r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %d, i64 %s), !nosanitize !0
  %sum = extractvalue { i64, i1 } %sum.r, 0, !nosanitize !0
  %sum.ov = extractvalue { i64, i1 } %sum.r, 1, !nosanitize !0
  %sum.ok = xor i1 %sum.ov, true, !nosanitize !0
  br i1 %sum.ok, label %fixed, label %sum.handler, !nosanitize !0

sum.handler:
  call void @__ubsan_handle_add_overflow(ptr @d22, i64 %d, i64 %s), !nosanitize !0
  br label %fixed, !nosanitize !0

fixed:
  br label %join

join:
  %freed = phi i64 [ %d, %cont ], [ %sum, %fixed ]
  call void @use(i64 %d)
  ret i64 %freed
}

; CHECK-LABEL: define i64 @twice(
; CHECK-NOT: circular
; CHECK-NOT: wrap.idiom
; CHECK: ret i64
; REMARK: kept unsigned-integer-overflow check on sub: {{.*}} [cd.c:23:9]
; REMARK: kept unsigned-integer-overflow check on add: {{.*}} [cd.c:24:9]
define i64 @twice(i64 %a, i64 %b, i64 %s) {
entry:
  %d.r = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %d = extractvalue { i64, i1 } %d.r, 0, !nosanitize !0
  %d.ov = extractvalue { i64, i1 } %d.r, 1, !nosanitize !0
  %d.ok = xor i1 %d.ov, true, !nosanitize !0
  br i1 %d.ok, label %cont, label %d.handler, !nosanitize !0

d.handler:
  call void @__ubsan_handle_sub_overflow(ptr @d23, i64 %a, i64 %b), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  %t = icmp ult i64 %a, %b
  br i1 %t, label %fix, label %join

fix:
  %sum.r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %d, i64 %d), !nosanitize !0
  %sum = extractvalue { i64, i1 } %sum.r, 0, !nosanitize !0
  %sum.ov = extractvalue { i64, i1 } %sum.r, 1, !nosanitize !0
  %sum.ok = xor i1 %sum.ov, true, !nosanitize !0
  br i1 %sum.ok, label %fixed, label %sum.handler, !nosanitize !0

sum.handler:
  call void @__ubsan_handle_add_overflow(ptr @d24, i64 %d, i64 %d), !nosanitize !0
  br label %fixed, !nosanitize !0

fixed:
  br label %join

join:
  %freed = phi i64 [ %d, %cont ], [ %sum, %fixed ]
  ret i64 %freed
}

; CHECK-DAG: ![[CIRC]] = !{!"circular-difference"}

declare { i64, i1 } @llvm.usub.with.overflow.i64(i64, i64)
declare { i64, i1 } @llvm.uadd.with.overflow.i64(i64, i64)
declare void @__ubsan_handle_sub_overflow(ptr, i64, i64)
declare void @__ubsan_handle_add_overflow(ptr, i64, i64)
declare void @use(i64)

attributes #0 = { noinline nounwind optnone uwtable }

!0 = !{}
