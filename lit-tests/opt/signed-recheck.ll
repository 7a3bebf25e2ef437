; Re-checks (llvm-pass/SignedRecheck.h): an unsigned add/sub that only
; encodes a signed quantity keeps its check, with the overflow bit in the
; condition replaced by the test of the signed meaning, and its handler
; call as it was. signed-offset: ov xor (off < 0); signed-difference:
; ov xor (d < 0), only when every use reads d as signed. The first two
; functions are clang's -O0 IR (optnone: decided on a promoted clone, the
; new condition lands on the function itself), from
;   clang -O0 -fsanitize=unsigned-integer-overflow -Xclang -disable-llvm-passes
;   size_t add_off(size_t x, int off) { return x + off; }
;   int diff_lt(size_t a, size_t b, long lim) { long d = a - b; return d < lim; }
; the rest hand-written SSA.
;
; RUN: %opt -passes=wrap-idiom -S %s | FileCheck %s
; RUN: %opt -passes=wrap-idiom -pass-remarks=wrap-idiom -pass-remarks-missed=wrap-idiom \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=REMARK %s
; -wrap-idiom-disable names a re-check like any idiom:
; RUN: %opt -passes=wrap-idiom -wrap-idiom-disable=signed-offset -S %s | FileCheck --check-prefix=DISABLE %s
; RUN: %opt -passes=wrap-idiom -wrap-idiom-disable=signed-offset -pass-remarks-missed=wrap-idiom \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=DISABLE-REMARK %s
; -wrap-idiom-mode=report tags, says so, and keeps the plain condition:
; RUN: %opt -passes=wrap-idiom -wrap-idiom-mode=report -S %s | FileCheck --check-prefix=REPORT %s
; RUN: %opt -passes=wrap-idiom -wrap-idiom-mode=report -pass-remarks-analysis=wrap-idiom \
; RUN:   -disable-output %s 2>&1 | FileCheck --check-prefix=REPORT-REMARK %s

@.src = private unnamed_addr constant [5 x i8] c"rc.c\00", align 1
@t = private unnamed_addr constant { i16, i16, [31 x i8] } { i16 0, i16 12, [31 x i8] c"'size_t' (aka 'unsigned long')\00" }
@h1 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 2, i32 46 }, ptr @t }
@h2 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 5, i32 56 }, ptr @t }
@h = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 9, i32 9 }, ptr @t }

; CHECK-LABEL: define i64 @add_off(
; CHECK: %conv = sext i32 %1 to i64
; CHECK-NEXT: %2 = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %0, i64 %conv), !nosanitize ![[NOSAN:[0-9]+]], !wrap.idiom ![[OFF:[0-9]+]]
; CHECK-NEXT: %recheck.ov = extractvalue { i64, i1 } %2, 1, !nosanitize ![[NOSAN]]
; CHECK-NEXT: %recheck.neg = icmp slt i64 %conv, 0, !nosanitize ![[NOSAN]]
; CHECK-NEXT: %recheck.out = xor i1 %recheck.ov, %recheck.neg, !nosanitize ![[NOSAN]]
; CHECK-NEXT: %3 = extractvalue { i64, i1 } %2, 0
; CHECK-NEXT: %4 = xor i1 %recheck.out, true, !nosanitize ![[NOSAN]]
; CHECK-NEXT: br i1 %4, label %cont, label %handler.add_overflow
; CHECK: call void @__ubsan_handle_add_overflow(ptr @h1, i64 %0, i64 %conv)
; DISABLE-LABEL: define i64 @add_off(
; DISABLE-NOT: recheck
; DISABLE: br i1 %5, label %cont, label %handler.add_overflow
; REPORT-LABEL: define i64 @add_off(
; REPORT: @llvm.uadd.with.overflow.i64(i64 %0, i64 %conv), !nosanitize !{{[0-9]+}}, !wrap.idiom
; REPORT-NOT: recheck
; REPORT: br i1 %5, label %cont, label %handler.add_overflow
; REMARK: remark: <unknown>:0:0: re-checked unsigned-integer-overflow check on add: signed-offset (the other operand is a narrower signed value: the check reports the true x + off (x - off) leaving [0, 2^N), i.e. the overflow bit xor off < 0) [rc.c:2:46]
; DISABLE-REMARK: remark: <unknown>:0:0: kept unsigned-integer-overflow check on add: the sum is used by 'ret' before any wrap test; re-check signed-offset is disabled by -wrap-idiom-disable [rc.c:2:46]
; REPORT-REMARK: remark: <unknown>:0:0: recognised unsigned-integer-overflow check on add: signed-offset ({{.*}}); kept by -wrap-idiom-mode=report [rc.c:2:46]
define i64 @add_off(i64 noundef %x, i32 noundef %off) #0 {
entry:
  %x.addr = alloca i64, align 8
  %off.addr = alloca i32, align 4
  store i64 %x, ptr %x.addr, align 8
  store i32 %off, ptr %off.addr, align 4
  %0 = load i64, ptr %x.addr, align 8
  %1 = load i32, ptr %off.addr, align 4
  %conv = sext i32 %1 to i64
  %2 = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %0, i64 %conv), !nosanitize !0
  %3 = extractvalue { i64, i1 } %2, 0, !nosanitize !0
  %4 = extractvalue { i64, i1 } %2, 1, !nosanitize !0
  %5 = xor i1 %4, true, !nosanitize !0
  br i1 %5, label %cont, label %handler.add_overflow, !nosanitize !0

handler.add_overflow:
  call void @__ubsan_handle_add_overflow(ptr @h1, i64 %0, i64 %conv), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  ret i64 %3
}

; The difference is only compared signed (after promotion: the store and
; load of `d` are gone in the clone the decision is made on).
; CHECK-LABEL: define i32 @diff_lt(
; CHECK: %2 = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %0, i64 %1), !nosanitize ![[NOSAN]], !wrap.idiom ![[DIFF:[0-9]+]]
; CHECK-NEXT: %recheck.ov = extractvalue { i64, i1 } %2, 1, !nosanitize ![[NOSAN]]
; CHECK-NEXT: %recheck.diff = extractvalue { i64, i1 } %2, 0, !nosanitize ![[NOSAN]]
; CHECK-NEXT: %recheck.neg = icmp slt i64 %recheck.diff, 0, !nosanitize ![[NOSAN]]
; CHECK-NEXT: %recheck.out = xor i1 %recheck.ov, %recheck.neg, !nosanitize ![[NOSAN]]
; CHECK: br i1 %{{[0-9]+}}, label %cont, label %handler.sub_overflow
; CHECK: call void @__ubsan_handle_sub_overflow(ptr @h2, i64 %0, i64 %1)
; CHECK: store i64 %3, ptr %d
; DISABLE-LABEL: define i32 @diff_lt(
; DISABLE: %recheck.neg = icmp slt i64 %recheck.diff, 0
; REMARK: remark: <unknown>:0:0: re-checked unsigned-integer-overflow check on sub: signed-difference (every use reads the difference as signed: the check reports the true a - b not fitting the signed type, i.e. the sign bit xor the borrow) [rc.c:5:56]
define i32 @diff_lt(i64 noundef %a, i64 noundef %b, i64 noundef %lim) #0 {
entry:
  %a.addr = alloca i64, align 8
  %b.addr = alloca i64, align 8
  %lim.addr = alloca i64, align 8
  %d = alloca i64, align 8
  store i64 %a, ptr %a.addr, align 8
  store i64 %b, ptr %b.addr, align 8
  store i64 %lim, ptr %lim.addr, align 8
  %0 = load i64, ptr %a.addr, align 8
  %1 = load i64, ptr %b.addr, align 8
  %2 = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %0, i64 %1), !nosanitize !0
  %3 = extractvalue { i64, i1 } %2, 0, !nosanitize !0
  %4 = extractvalue { i64, i1 } %2, 1, !nosanitize !0
  %5 = xor i1 %4, true, !nosanitize !0
  br i1 %5, label %cont, label %handler.sub_overflow, !nosanitize !0

handler.sub_overflow:
  call void @__ubsan_handle_sub_overflow(ptr @h2, i64 %0, i64 %1), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  store i64 %3, ptr %d, align 8
  %6 = load i64, ptr %d, align 8
  %7 = load i64, ptr %lim.addr, align 8
  %cmp = icmp slt i64 %6, %7
  %conv = zext i1 %cmp to i32
  ret i32 %conv
}

; The sext'd operand on the left of an add (C's `off + x`, a short):
; CHECK-LABEL: define i64 @off_add(
; CHECK: %recheck.neg = icmp slt i64 %s, 0
; CHECK: br i1 %ok, label %cont, label %handler
define i64 @off_add(i64 %x, i16 %off) {
entry:
  %s = sext i16 %off to i64
  %r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %s, i64 %x), !nosanitize !0
  %v = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %ov = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %ov, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0

handler:
  call void @__ubsan_handle_add_overflow(ptr @h, i64 %s, i64 %x), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  ret i64 %v
}

; x - sext(off): the same formula.
; CHECK-LABEL: define i64 @sub_off(
; CHECK: %recheck.ov = extractvalue { i64, i1 } %r, 1
; CHECK-NEXT: %recheck.neg = icmp slt i64 %s, 0
; CHECK-NEXT: %recheck.out = xor i1 %recheck.ov, %recheck.neg
; CHECK: %ok = xor i1 %recheck.out, true
define i64 @sub_off(i64 %x, i32 %off) {
entry:
  %s = sext i32 %off to i64
  %r = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %x, i64 %s), !nosanitize !0
  %v = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %ov = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %ov, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0

handler:
  call void @__ubsan_handle_sub_overflow(ptr @h, i64 %x, i64 %s), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  ret i64 %v
}

; Through a select (max_t(long, d, 0)) whose own use is a signed compare:
; CHECK-LABEL: define i1 @diff_select(
; CHECK: !wrap.idiom ![[DIFF]]
; CHECK: %recheck.neg = icmp slt i64 %recheck.diff, 0
define i1 @diff_select(i64 %a, i64 %b, i64 %lim) {
entry:
  %r = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %v = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %ov = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %ov, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0

handler:
  call void @__ubsan_handle_sub_overflow(ptr @h, i64 %a, i64 %b), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  %pos = icmp sgt i64 %v, 0
  %m = select i1 %pos, i64 %v, i64 0
  %c = icmp slt i64 %m, %lim
  ret i1 %c
}

; Through phi, freeze and trunc to sdiv:
; CHECK-LABEL: define i64 @diff_phi(
; CHECK: !wrap.idiom ![[DIFF]]
; CHECK: %recheck.neg = icmp slt i64 %recheck.diff, 0
define i64 @diff_phi(i64 %a, i64 %b, i1 %p) {
entry:
  %r = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %v = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %ov = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %ov, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0

handler:
  call void @__ubsan_handle_sub_overflow(ptr @h, i64 %a, i64 %b), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  br i1 %p, label %then, label %join
then:
  br label %join
join:
  %d = phi i64 [ %v, %cont ], [ 7, %then ]
  %f = freeze i64 %d
  %t = trunc i64 %f to i32
  %q = sdiv i32 %t, 3
  %w = sext i32 %q to i64
  ret i64 %w
}

; Must keep: the select's value is returned (read unsigned by the caller).
; CHECK-LABEL: define i64 @diff_select_ret(
; CHECK-NOT: recheck
; CHECK: br i1 %ok, label %cont, label %handler
; REMARK: kept unsigned-integer-overflow check on sub
define i64 @diff_select_ret(i64 %a, i64 %b) {
entry:
  %r = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %v = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %ov = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %ov, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0

handler:
  call void @__ubsan_handle_sub_overflow(ptr @h, i64 %a, i64 %b), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  %pos = icmp sgt i64 %v, 0
  %m = select i1 %pos, i64 %v, i64 0
  ret i64 %m
}

; Must keep: also stored.
; CHECK-LABEL: define i1 @diff_stored(
; CHECK-NOT: recheck
; CHECK: br i1 %ok, label %cont, label %handler
define i1 @diff_stored(i64 %a, i64 %b, i64 %lim, ptr %p) {
entry:
  %r = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %v = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %ov = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %ov, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0

handler:
  call void @__ubsan_handle_sub_overflow(ptr @h, i64 %a, i64 %b), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  store i64 %v, ptr %p
  %c = icmp slt i64 %v, %lim
  ret i1 %c
}

; Must keep: an unsigned compare.
; CHECK-LABEL: define i1 @diff_ucmp(
; CHECK-NOT: recheck
; CHECK: br i1 %ok, label %cont, label %handler
define i1 @diff_ucmp(i64 %a, i64 %b, i64 %lim) {
entry:
  %r = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %v = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %ov = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %ov, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0

handler:
  call void @__ubsan_handle_sub_overflow(ptr @h, i64 %a, i64 %b), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  %c = icmp ult i64 %v, %lim
  ret i1 %c
}

; Must keep: a logical shift reads the bits of the wrapped difference.
; CHECK-LABEL: define i1 @diff_lshr(
; CHECK-NOT: recheck
; CHECK: br i1 %ok, label %cont, label %handler
define i1 @diff_lshr(i64 %a, i64 %b) {
entry:
  %r = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %v = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %ov = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %ov, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0

handler:
  call void @__ubsan_handle_sub_overflow(ptr @h, i64 %a, i64 %b), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  %s = lshr i64 %v, 3
  %c = icmp slt i64 %s, 100
  ret i1 %c
}

; Must keep: sext(y) - x is neither shape (a negative y is always out of
; range, whatever the borrow says).
; CHECK-LABEL: define i1 @diff_sext_operand(
; CHECK-NOT: recheck
; CHECK: br i1 %ok, label %cont, label %handler
define i1 @diff_sext_operand(i64 %x, i32 %y, i64 %lim) {
entry:
  %s = sext i32 %y to i64
  %r = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %s, i64 %x), !nosanitize !0
  %v = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %ov = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %ov, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0

handler:
  call void @__ubsan_handle_sub_overflow(ptr @h, i64 %s, i64 %x), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  %c = icmp slt i64 %v, %lim
  ret i1 %c
}

; Must keep: a zero-extended (unsigned) operand.
; CHECK-LABEL: define i64 @add_zext(
; CHECK-NOT: recheck
; CHECK: br i1 %ok, label %cont, label %handler
define i64 @add_zext(i64 %x, i32 %off) {
entry:
  %z = zext i32 %off to i64
  %r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %x, i64 %z), !nosanitize !0
  %v = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %ov = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %ov, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0

handler:
  call void @__ubsan_handle_add_overflow(ptr @h, i64 %x, i64 %z), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  ret i64 %v
}

; Must keep: an operand of unknown sign of the same width (C: `x + off`,
; long off, converted to unsigned long).
; CHECK-LABEL: define i64 @add_long(
; CHECK-NOT: recheck
; CHECK: br i1 %ok, label %cont, label %handler
define i64 @add_long(i64 %x, i64 %off) {
entry:
  %r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %x, i64 %off), !nosanitize !0
  %v = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %ov = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %ov, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0

handler:
  call void @__ubsan_handle_add_overflow(ptr @h, i64 %x, i64 %off), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  ret i64 %v
}

; Must keep: both addends sign-extended (-1 + -1 is out of range, and
; ov xor neg would say it is not).
; Two sexts, one of a value known non-negative (a zext, a mask): that one
; is unsigned, the other the signed offset, whichever side it is on
; (srcutree.c's `--trycount + curdelay`, `curdelay = !delay`).
; CHECK-LABEL: define i64 @add_sext_nonneg(
; CHECK: %recheck.neg = icmp slt i64 %sa, 0
; CHECK: br i1 %ok, label %cont, label %handler
define i64 @add_sext_nonneg(i32 %a, i1 %f) {
entry:
  %sa = sext i32 %a to i64
  %z = zext i1 %f to i32
  %sb = sext i32 %z to i64
  %r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %sa, i64 %sb), !nosanitize !0
  %v = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %ov = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %ov, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0

handler:
  call void @__ubsan_handle_add_overflow(ptr @h, i64 %sa, i64 %sb), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  ret i64 %v
}

; CHECK-LABEL: define i64 @sub_masked_minuend(
; CHECK: %recheck.neg = icmp slt i64 %sb, 0
; CHECK: br i1 %ok, label %cont, label %handler
define i64 @sub_masked_minuend(i32 %a, i32 %b) {
entry:
  %m = and i32 %a, 65535
  %sa = sext i32 %m to i64
  %sb = sext i32 %b to i64
  %r = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %sa, i64 %sb), !nosanitize !0
  %v = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %ov = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %ov, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0

handler:
  call void @__ubsan_handle_sub_overflow(ptr @h, i64 %sa, i64 %sb), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  ret i64 %v
}

; Both known non-negative: neither is a signed offset, no re-check (and
; the sum of two values in [0, 1] cannot wrap: cannot-wrap removes it).
; CHECK-LABEL: define i64 @add_two_nonneg(
; CHECK-NOT: recheck
; CHECK: !wrap.idiom ![[CANNOT:[0-9]+]]
; CHECK-NOT: recheck
; CHECK: br i1 true, label %cont, label %handler
define i64 @add_two_nonneg(i1 %e, i1 %f) {
entry:
  %y = zext i1 %e to i32
  %sa = sext i32 %y to i64
  %z = zext i1 %f to i32
  %sb = sext i32 %z to i64
  %r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %sa, i64 %sb), !nosanitize !0
  %v = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %ov = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %ov, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0

handler:
  call void @__ubsan_handle_add_overflow(ptr @h, i64 %sa, i64 %sb), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  ret i64 %v
}

; CHECK-LABEL: define i64 @add_two_sext(
; CHECK-NOT: recheck
; CHECK: br i1 %ok, label %cont, label %handler
define i64 @add_two_sext(i32 %a, i32 %b) {
entry:
  %sa = sext i32 %a to i64
  %sb = sext i32 %b to i64
  %r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %sa, i64 %sb), !nosanitize !0
  %v = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %ov = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %ov, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0

handler:
  call void @__ubsan_handle_add_overflow(ptr @h, i64 %sa, i64 %sb), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  ret i64 %v
}

; Must keep: sext(off) - x.
; CHECK-LABEL: define i64 @off_sub(
; CHECK-NOT: recheck
; CHECK: br i1 %ok, label %cont, label %handler
define i64 @off_sub(i64 %x, i32 %off) {
entry:
  %s = sext i32 %off to i64
  %r = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %s, i64 %x), !nosanitize !0
  %v = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %ov = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %ov, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0

handler:
  call void @__ubsan_handle_sub_overflow(ptr @h, i64 %s, i64 %x), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  ret i64 %v
}

; Must keep: a constant with its top bit set is no signed offset (clang
; folds `x + (-64)` and `x + 0xffffffffffffffc0UL` alike).
; CHECK-LABEL: define i64 @add_negconst(
; CHECK-NOT: recheck
; CHECK: br i1 %ok, label %cont, label %handler
define i64 @add_negconst(i64 %x) {
entry:
  %r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %x, i64 -64), !nosanitize !0
  %v = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %ov = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %ov, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0

handler:
  call void @__ubsan_handle_add_overflow(ptr @h, i64 %x, i64 -64), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  ret i64 %v
}

; Removal has priority: `x + off < x` is an exact unsigned wrap test.
; CHECK-LABEL: define i1 @add_compare(
; CHECK-NOT: recheck
; CHECK: br i1 true, label %cont, label %handler
; REMARK: removed unsigned-integer-overflow check on add: add-compare
; CHECK-LABEL: declare
define i1 @add_compare(i64 %x, i32 %off) {
entry:
  %s = sext i32 %off to i64
  %r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %x, i64 %s), !nosanitize !0
  %v = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %ov = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %ov, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0

handler:
  call void @__ubsan_handle_add_overflow(ptr @h, i64 %x, i64 %s), !nosanitize !0
  br label %cont, !nosanitize !0

cont:
  %c = icmp ult i64 %v, %x
  ret i1 %c
}

declare { i64, i1 } @llvm.uadd.with.overflow.i64(i64, i64)
declare { i64, i1 } @llvm.usub.with.overflow.i64(i64, i64)
declare void @__ubsan_handle_add_overflow(ptr, i64, i64)
declare void @__ubsan_handle_sub_overflow(ptr, i64, i64)

attributes #0 = { noinline nounwind optnone }

; CHECK-DAG: ![[OFF]] = !{!"signed-offset"}
; CHECK-DAG: ![[DIFF]] = !{!"signed-difference"}
; CHECK-DAG: ![[CANNOT]] = !{!"cannot-wrap"}
!0 = !{}
