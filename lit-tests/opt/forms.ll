; Every form clang emits for an overflow check is found by its structure:
; the !nosanitize branch on the *.with.overflow bit, and a handler block of
; !nosanitize instructions calling the UBSan runtime or llvm.ubsantrap.
; Block names are irrelevant (release clang drops them).
;
; RUN: %opt -passes=wrap-idiom -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

@data = private global { { ptr, i32, i32 }, ptr } zeroinitializer

declare { i64, i1 } @llvm.uadd.with.overflow.i64(i64, i64)
declare { i64, i1 } @llvm.usub.with.overflow.i64(i64, i64)
declare { i32, i1 } @llvm.sadd.with.overflow.i32(i32, i32)
declare i1 @llvm.allow.ubsan.check(i8)
declare void @llvm.ubsantrap(i8)
declare void @__ubsan_handle_add_overflow(ptr, i64, i64)
declare void @__ubsan_handle_add_overflow_abort(ptr, i64, i64)
declare void @__ubsan_handle_add_overflow_minimal()
declare void @__ubsan_handle_add_overflow_minimal_abort()
declare preserve_allcc void @__ubsan_handle_add_overflow_minimal_preserve()
declare void @__ubsan_handle_sub_overflow(ptr, i64, i64)
declare void @report(i64)

; CHECK-LABEL: @recover(
; CHECK: br i1 true, label %cont, label %handler
define i1 @recover(i64 %a, i64 %b) {
  %r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %s = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %o = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %o, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0
handler:
  call void @__ubsan_handle_add_overflow(ptr @data, i64 %a, i64 %b), !nosanitize !0
  br label %cont, !nosanitize !0
cont:
  %t = icmp ult i64 %s, %a
  ret i1 %t
}

; The handler may come first: the folded branch must take the other side.
; CHECK-LABEL: @handler_on_true(
; CHECK: br i1 false, label %handler, label %cont
define i1 @handler_on_true(i64 %a, i64 %b) {
  %r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %s = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %o = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  br i1 %o, label %handler, label %cont, !nosanitize !0
handler:
  call void @__ubsan_handle_add_overflow(ptr @data, i64 %a, i64 %b), !nosanitize !0
  br label %cont, !nosanitize !0
cont:
  %t = icmp ult i64 %s, %a
  ret i1 %t
}

; CHECK-LABEL: @abort(
; CHECK: br i1 true, label %cont, label %handler
define i1 @abort(i64 %a, i64 %b) {
  %r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %s = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %o = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %o, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0
handler:
  call void @__ubsan_handle_add_overflow_abort(ptr @data, i64 %a, i64 %b), !nosanitize !0
  unreachable, !nosanitize !0
cont:
  %t = icmp ult i64 %s, %a
  ret i1 %t
}

; CHECK-LABEL: @minimal(
; CHECK: br i1 true, label %cont, label %handler
define i1 @minimal(i64 %a, i64 %b) {
  %r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %s = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %o = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %o, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0
handler:
  call void @__ubsan_handle_add_overflow_minimal(), !nosanitize !0
  br label %cont, !nosanitize !0
cont:
  %t = icmp ult i64 %s, %a
  ret i1 %t
}

; CHECK-LABEL: @minimal_abort(
; CHECK: br i1 true, label %cont, label %handler
define i1 @minimal_abort(i64 %a, i64 %b) {
  %r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %s = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %o = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %o, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0
handler:
  call void @__ubsan_handle_add_overflow_minimal_abort(), !nosanitize !0
  unreachable, !nosanitize !0
cont:
  %t = icmp ult i64 %s, %a
  ret i1 %t
}

; -fsanitize-handler-preserve-all-regs (clang 22).
; CHECK-LABEL: @minimal_preserve(
; CHECK: br i1 true, label %cont, label %handler
define i1 @minimal_preserve(i64 %a, i64 %b) {
  %r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %s = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %o = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %o, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0
handler:
  call preserve_allcc void @__ubsan_handle_add_overflow_minimal_preserve(), !nosanitize !0
  br label %cont, !nosanitize !0
cont:
  %t = icmp ult i64 %s, %a
  ret i1 %t
}

; -fsanitize-trap: the kind operand says which check (0 = add).
; CHECK-LABEL: @trap(
; CHECK: br i1 true, label %cont, label %handler
define i1 @trap(i64 %a, i64 %b) {
  %r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %s = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %o = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %o, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0
handler:
  call void @llvm.ubsantrap(i8 0), !nosanitize !0
  unreachable, !nosanitize !0
cont:
  %t = icmp ult i64 %s, %a
  ret i1 %t
}

; A trap kind that is not an overflow check (18 = out of bounds): not ours.
; CHECK-LABEL: @trap_other_kind(
; CHECK: br i1 %ok, label %cont, label %handler
define i1 @trap_other_kind(i64 %a, i64 %b) {
  %r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %s = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %o = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %o, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0
handler:
  call void @llvm.ubsantrap(i8 18), !nosanitize !0
  unreachable, !nosanitize !0
cont:
  %t = icmp ult i64 %s, %a
  ret i1 %t
}

; -fsanitize-skip-hot-cutoff / -ubsan-guard-checks guard the check with
; llvm.allow.ubsan.check: still one operation's check.
; CHECK-LABEL: @guarded(
; CHECK: br i1 true, label %cont, label %handler
define i1 @guarded(i64 %a, i64 %b) {
  %r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %s = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %o = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %o, true, !nosanitize !0
  %allow = call i1 @llvm.allow.ubsan.check(i8 41), !nosanitize !0
  %skip = xor i1 %allow, true, !nosanitize !0
  %c = or i1 %ok, %skip, !nosanitize !0
  br i1 %c, label %cont, label %handler, !nosanitize !0
handler:
  call void @__ubsan_handle_add_overflow(ptr @data, i64 %a, i64 %b), !nosanitize !0
  br label %cont, !nosanitize !0
cont:
  %t = icmp ult i64 %s, %a
  ret i1 %t
}

; One branch testing two operations' bits: folding it would drop the other
; operation's check, so it stays.
; CHECK-LABEL: @combined(
; CHECK: br i1 %c, label %cont, label %handler
define i1 @combined(i64 %a, i64 %b) {
  %r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %s = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %o = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %r2 = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %s, i64 %b), !nosanitize !0
  %o2 = extractvalue { i64, i1 } %r2, 1, !nosanitize !0
  %any = or i1 %o, %o2, !nosanitize !0
  %c = xor i1 %any, true, !nosanitize !0
  br i1 %c, label %cont, label %handler, !nosanitize !0
handler:
  call void @__ubsan_handle_add_overflow(ptr @data, i64 %a, i64 %b), !nosanitize !0
  br label %cont, !nosanitize !0
cont:
  %t = icmp ult i64 %s, %a
  ret i1 %t
}

; The handler reports a sub, the bit comes from an add: not attributable.
; CHECK-LABEL: @mismatched_handler(
; CHECK: br i1 %ok, label %cont, label %handler
define i1 @mismatched_handler(i64 %a, i64 %b) {
  %r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %s = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %o = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %o, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0
handler:
  call void @__ubsan_handle_sub_overflow(ptr @data, i64 %a, i64 %b), !nosanitize !0
  br label %cont, !nosanitize !0
cont:
  %t = icmp ult i64 %s, %a
  ret i1 %t
}

; Not a check: the branch is not !nosanitize (user code calling a function
; that happens to carry a handler's name is not instrumentation).
; CHECK-LABEL: @not_nosanitize(
; CHECK: br i1 %ok, label %cont, label %handler
define i1 @not_nosanitize(i64 %a, i64 %b) {
  %r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %a, i64 %b)
  %s = extractvalue { i64, i1 } %r, 0
  %o = extractvalue { i64, i1 } %r, 1
  %ok = xor i1 %o, true
  br i1 %ok, label %cont, label %handler
handler:
  call void @__ubsan_handle_add_overflow(ptr @data, i64 %a, i64 %b)
  br label %cont
cont:
  %t = icmp ult i64 %s, %a
  ret i1 %t
}

; Not a check: the "handler" block also runs user code.
; CHECK-LABEL: @handler_with_user_code(
; CHECK: br i1 %ok, label %cont, label %handler
define i1 @handler_with_user_code(i64 %a, i64 %b) {
  %r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %a, i64 %b), !nosanitize !0
  %s = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %o = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %o, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0
handler:
  call void @report(i64 %s)
  call void @__ubsan_handle_add_overflow(ptr @data, i64 %a, i64 %b), !nosanitize !0
  br label %cont, !nosanitize !0
cont:
  %t = icmp ult i64 %s, %a
  ret i1 %t
}

!0 = !{}
