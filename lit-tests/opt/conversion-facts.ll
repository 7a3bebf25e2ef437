; Facts from clang's implicit-conversion (sign-change) checks
; (llvm-pass/analysis/ConversionFacts.h) and the signed-meaning re-check
; they allow (llvm-pass/idioms/SignedMeaning.h), on clang's -O0 IR in trap
; form (llvm.ubsantrap(7): no type data, the direction is the side of the
; `false`). With conversion-facts the conversion checks go, a shared trap
; block once its last check is gone; without, they are read and stay.
;
; RUN: %opt -passes='wrap-idiom<conversion-facts>' -pass-remarks=wrap-idiom -S %s -o - 2> %t.remarks | FileCheck %s --check-prefixes=CHECK,GONE
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: %opt -passes='wrap-idiom' -pass-remarks=wrap-idiom -S %s -o - 2> %t.kept | FileCheck %s --check-prefixes=CHECK,STAY
; RUN: FileCheck %s --check-prefix=REMARK < %t.kept
; The option is the parameter's default:
; RUN: %opt -passes=wrap-idiom -wrap-idiom-conversion-facts -S %s -o - | FileCheck %s --check-prefixes=CHECK,GONE
; Without the facts (the conversion checks stripped by hand): no re-check.
; RUN: sed 's/call void @llvm.ubsantrap(i8 7)/call void @llvm.ubsantrap(i8 99)/' %s \
; RUN:   | %opt -passes=wrap-idiom -pass-remarks=wrap-idiom -disable-output 2>&1 | FileCheck %s --check-prefix=NOFACTS --allow-empty
; NOFACTS-NOT: signed-meaning

; unsigned long + long: operand 1 is signed.
; REMARK: remark: <unknown>:0:0: re-checked unsigned-integer-overflow check on add: signed-meaning
; CHECK-LABEL: define i64 @add_long(
; GONE-NOT: llvm.ubsantrap(i8 7)
; STAY: call void @llvm.ubsantrap(i8 7)
; CHECK: [[R:%.*]] = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 [[X:%.*]], i64 [[D:%.*]]), !nosanitize !{{[0-9]+}}, !wrap.idiom
; CHECK-NEXT: extractvalue { i64, i1 } [[R]], 1
; CHECK-NEXT: [[SB:%.*]] = icmp slt i64 [[D]], 0
; CHECK-NEXT: [[NS:%.*]] = xor i1 [[SB]], true
; CHECK-NEXT: and i1 {{.*}}, [[NS]]
; CHECK-NOT: i128
; GONE-NOT: llvm.ubsantrap(i8 7)
; CHECK: ret i64
define i64 @add_long(i64 %x, i64 %d) {
  %xs = alloca i64, align 8
  %ds = alloca i64, align 8
  store i64 %x, ptr %xs, align 8
  store i64 %d, ptr %ds, align 8
  %a = load i64, ptr %xs, align 8
  %b = load i64, ptr %ds, align 8
  %neg = icmp slt i64 %b, 0, !nosanitize !0
  %ok = icmp eq i1 %neg, false, !nosanitize !0
  br i1 %ok, label %cont, label %trap, !nosanitize !0

trap:
  call void @llvm.ubsantrap(i8 7), !nosanitize !0
  unreachable, !nosanitize !0

cont:
  %r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %s = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %ov = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %nov = xor i1 %ov, true, !nosanitize !0
  br i1 %nov, label %done, label %handler, !nosanitize !0

handler:
  call void @llvm.ubsantrap(i8 0), !nosanitize !0
  unreachable, !nosanitize !0

done:
  ret i64 %s
}

; `*ov += n` with a long *ov: only the conversion back is checked; the left
; side is the load from where the signed result is stored.
; REMARK: remark: <unknown>:0:0: re-checked unsigned-integer-overflow check on add: signed-meaning
; CHECK-LABEL: define void @compound(
; CHECK: [[R:%.*]] = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 [[L:%.*]], i64 [[N:%.*]]), !nosanitize !{{[0-9]+}}, !wrap.idiom
; CHECK-NEXT: extractvalue { i64, i1 } [[R]], 1
; CHECK-NEXT: icmp slt i64 [[L]], 0
; CHECK-NEXT: [[S:%.*]] = extractvalue { i64, i1 } [[R]], 0
; CHECK-NEXT: icmp slt i64 [[S]], 0
define void @compound(ptr %p, i64 %n) {
  %l = load i64, ptr %p, align 8
  %r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %l, i64 %n), !nosanitize !0
  %s = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %ov = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %nov = xor i1 %ov, true, !nosanitize !0
  br i1 %nov, label %conv, label %handler, !nosanitize !0

handler:
  call void @llvm.ubsantrap(i8 0), !nosanitize !0
  unreachable, !nosanitize !0

conv:
  %neg = icmp slt i64 %s, 0, !nosanitize !0
  %ok = icmp eq i1 false, %neg, !nosanitize !0
  br i1 %ok, label %cont, label %trap, !nosanitize !0

trap:
  call void @llvm.ubsantrap(i8 7), !nosanitize !0
  unreachable, !nosanitize !0

cont:
  store i64 %s, ptr %p, align 8
  ret void
}

; -nr passed as a long, and a second conversion (of the same -nr, again)
; sharing the trap block; a third conversion clang folded (`br i1 true`).
; REMARK: remark: <unknown>:0:0: re-checked unsigned-integer-overflow check on negate: signed-meaning
; CHECK-LABEL: define void @neg(
; CHECK: call { i64, i1 } @llvm.usub.with.overflow.i64(i64 0, i64 {{.*}}), !nosanitize !{{[0-9]+}}, !wrap.idiom
; CHECK: icmp slt i64 %nr, 0
; GONE-NOT: llvm.ubsantrap(i8 7)
; GONE-NOT: br i1 true
; STAY: br i1 true
; CHECK: ret void
define void @neg(i64 %nr) {
  %r = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 0, i64 %nr), !nosanitize !0
  %s = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %ov = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %nov = xor i1 %ov, true, !nosanitize !0
  br i1 %nov, label %conv, label %handler, !nosanitize !0

handler:
  call void @llvm.ubsantrap(i8 13), !nosanitize !0
  unreachable, !nosanitize !0

conv:
  %neg = icmp slt i64 %s, 0, !nosanitize !0
  %ok = icmp eq i1 false, %neg, !nosanitize !0
  br i1 %ok, label %call, label %trap, !nosanitize !0

call:
  call void @take(i64 %s)
  %neg2 = icmp slt i64 %nr, 0, !nosanitize !0
  %ok2 = icmp eq i1 %neg2, false, !nosanitize !0
  br i1 %ok2, label %folded, label %trap, !nosanitize !0

folded:
  br i1 true, label %done, label %trap2, !nosanitize !0

trap:
  call void @llvm.ubsantrap(i8 7), !nosanitize !0
  unreachable, !nosanitize !0

trap2:
  call void @llvm.ubsantrap(i8 7), !nosanitize !0
  unreachable, !nosanitize !0

done:
  ret void
}

declare void @take(i64)
declare void @llvm.ubsantrap(i8 immarg)
declare { i64, i1 } @llvm.uadd.with.overflow.i64(i64, i64)
declare { i64, i1 } @llvm.usub.with.overflow.i64(i64, i64)

!0 = !{}
