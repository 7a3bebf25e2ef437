; declared-wrap (llvm-pass/analysis/DeclaredWrap.h) on clang's -O0 IR: an
; operand loaded through a field address annotated "wrap-idiom:wrap"
; (llvm.ptr.annotation), or stored into / loaded from a parameter slot so
; annotated (llvm.var.annotation), makes the check's arithmetic modular by
; declaration. Our annotation calls are removed, others are left alone.
;
; RUN: %opt -passes=wrap-idiom -pass-remarks=wrap-idiom -pass-remarks-missed=wrap-idiom -S %s -o - 2> %t.remarks | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: %opt -passes='wrap-idiom<disable=declared-wrap>' -pass-remarks-missed=wrap-idiom -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=DISABLED
; Disabled, the row decides nothing and the checks go on down the rows:
; stored_only's first difference, never read, is dead-value's.
; DISABLED-COUNT-4: remark: <unknown>:0:0: kept unsigned-integer-overflow check
; DISABLED-NOT: remark

@ours = private unnamed_addr constant [16 x i8] c"wrap-idiom:wrap\00", section "llvm.metadata"
@theirs = private unnamed_addr constant [6 x i8] c"other\00", section "llvm.metadata"
@file = private unnamed_addr constant [5 x i8] c"t.c\00\00", section "llvm.metadata"

%struct.conn = type { i32, i32 }

; REMARK: remark: <unknown>:0:0: removed unsigned-integer-overflow check on add: declared-wrap
; CHECK-LABEL: define i32 @field(
; CHECK-NOT: llvm.ptr.annotation
; CHECK: ret i32
define i32 @field(ptr %c) {
  %f = getelementptr inbounds %struct.conn, ptr %c, i32 0, i32 0
  %a = call ptr @llvm.ptr.annotation.p0.p0(ptr %f, ptr @ours, ptr @file, i32 4, ptr null)
  %seq = load i32, ptr %a, align 4
  %g = getelementptr inbounds %struct.conn, ptr %c, i32 0, i32 1
  %wnd = load i32, ptr %g, align 4
  %r = call { i32, i1 } @llvm.uadd.with.overflow.i32(i32 %seq, i32 %wnd), !nosanitize !0
  %s = extractvalue { i32, i1 } %r, 0, !nosanitize !0
  %ov = extractvalue { i32, i1 } %r, 1, !nosanitize !0
  br i1 %ov, label %h, label %done, !nosanitize !0
h:
  call void @__ubsan_handle_add_overflow(ptr null, i64 0, i64 0), !nosanitize !0
  br label %done, !nosanitize !0
done:
  ret i32 %s
}

; A parameter slot annotated: the stored argument is the declared value.
; REMARK: remark: <unknown>:0:0: removed unsigned-integer-overflow check on sub: declared-wrap
; CHECK-LABEL: define i32 @param(
; CHECK-NOT: llvm.var.annotation
; CHECK: ret i32
define i32 @param(i32 %to, i32 %from) {
  %slot = alloca i32, align 4
  %slot2 = alloca i32, align 4
  call void @llvm.var.annotation.p0.p0(ptr %slot, ptr @ours, ptr @file, i32 5, ptr null)
  store i32 %to, ptr %slot, align 4
  store i32 %from, ptr %slot2, align 4
  %t = load i32, ptr %slot, align 4
  %f = load i32, ptr %slot2, align 4
  %r = call { i32, i1 } @llvm.usub.with.overflow.i32(i32 %t, i32 %f), !nosanitize !0
  %s = extractvalue { i32, i1 } %r, 0, !nosanitize !0
  %ov = extractvalue { i32, i1 } %r, 1, !nosanitize !0
  br i1 %ov, label %h, label %done, !nosanitize !0
h:
  call void @__ubsan_handle_sub_overflow(ptr null, i64 0, i64 0), !nosanitize !0
  br label %done, !nosanitize !0
done:
  ret i32 %s
}

; The slot is declared, not the value stored into it: the argument also
; used directly keeps its check, the value read back from the slot does
; not (promotion makes them one value: the read is marked first, and the
; marks are gone after the pass).
; REMARK: remark: <unknown>:0:0: removed unsigned-integer-overflow check on sub: declared-wrap
; REMARK: remark: <unknown>:0:0: kept unsigned-integer-overflow check on sub
; CHECK-LABEL: define i32 @stored_only(
; CHECK-NOT: llvm.ssa.copy
; CHECK: ret i32
define i32 @stored_only(i32 %to, i32 %from) {
  %slot = alloca i32, align 4
  call void @llvm.var.annotation.p0.p0(ptr %slot, ptr @ours, ptr @file, i32 5, ptr null)
  store i32 %to, ptr %slot, align 4
  %t = load i32, ptr %slot, align 4
  %r = call { i32, i1 } @llvm.usub.with.overflow.i32(i32 %t, i32 %from), !nosanitize !0
  %s = extractvalue { i32, i1 } %r, 0, !nosanitize !0
  %ov = extractvalue { i32, i1 } %r, 1, !nosanitize !0
  br i1 %ov, label %h, label %next, !nosanitize !0
h:
  call void @__ubsan_handle_sub_overflow(ptr null, i64 0, i64 0), !nosanitize !0
  br label %next, !nosanitize !0
next:
  %r2 = call { i32, i1 } @llvm.usub.with.overflow.i32(i32 %to, i32 %from), !nosanitize !0
  %s2 = extractvalue { i32, i1 } %r2, 0, !nosanitize !0
  %ov2 = extractvalue { i32, i1 } %r2, 1, !nosanitize !0
  br i1 %ov2, label %h2, label %done, !nosanitize !0
h2:
  call void @__ubsan_handle_sub_overflow(ptr null, i64 0, i64 0), !nosanitize !0
  br label %done, !nosanitize !0
done:
  ret i32 %s2
}

; Somebody else's annotation: kept, no decision from it.
; REMARK: remark: <unknown>:0:0: kept unsigned-integer-overflow check on add
; CHECK-LABEL: define i32 @other(
; CHECK: call ptr @llvm.ptr.annotation.p0.p0(ptr %f, ptr @theirs
define i32 @other(ptr %c) {
  %f = getelementptr inbounds %struct.conn, ptr %c, i32 0, i32 0
  %a = call ptr @llvm.ptr.annotation.p0.p0(ptr %f, ptr @theirs, ptr @file, i32 4, ptr null)
  %seq = load i32, ptr %a, align 4
  %r = call { i32, i1 } @llvm.uadd.with.overflow.i32(i32 %seq, i32 7), !nosanitize !0
  %s = extractvalue { i32, i1 } %r, 0, !nosanitize !0
  %ov = extractvalue { i32, i1 } %r, 1, !nosanitize !0
  br i1 %ov, label %h, label %done, !nosanitize !0
h:
  call void @__ubsan_handle_add_overflow(ptr null, i64 0, i64 0), !nosanitize !0
  br label %done, !nosanitize !0
done:
  ret i32 %s
}

declare ptr @llvm.ptr.annotation.p0.p0(ptr, ptr, ptr, i32, ptr)
declare void @llvm.var.annotation.p0.p0(ptr, ptr, ptr, i32, ptr)
declare { i32, i1 } @llvm.uadd.with.overflow.i32(i32, i32)
declare { i32, i1 } @llvm.usub.with.overflow.i32(i32, i32)
declare void @__ubsan_handle_add_overflow(ptr, i64, i64)
declare void @__ubsan_handle_sub_overflow(ptr, i64, i64)

!0 = !{}
