; The pass on IR that is already in SSA form (promoted by mem2reg, as a
; frontend other than clang or an earlier pass might leave it): the same
; decisions as on clang's alloca form. Generated from C (comments) with
; clang -O0 -Xclang -disable-O0-optnone -fsanitize=unsigned-integer-overflow
; | opt -passes=mem2reg.
;
; RUN: %opt -passes=wrap-idiom -S %s | FileCheck %s
; RUN: %opt -passes=wrap-idiom -disable-output -pass-remarks=wrap-idiom \
; RUN:   -pass-remarks-missed=wrap-idiom %s 2>&1 | FileCheck --check-prefix=REMARK %s
;
; int guarded(size_t a, size_t b) { size_t s = a + b; if (s < a) return -22; use(s); return 0; }
; CHECK-LABEL: define {{.*}} @guarded(
; CHECK: !wrap.idiom ![[GUARDED:[0-9]+]]
; CHECK: br i1 true, label %cont, label %handler.add_overflow
; REMARK: removed unsigned-integer-overflow check on add: guarded-use {{.*}}[ssa.c:4:
;
; size_t returned_on_wrap(size_t a, size_t b) { size_t s = a + b; if (s < a) return s; return 0; }
; CHECK-LABEL: define {{.*}} @returned_on_wrap(
; CHECK-NOT: !wrap.idiom
; CHECK: br i1 %{{[0-9]+}}, label %cont, label %handler.add_overflow
; REMARK: kept unsigned-integer-overflow check on add: the sum is used by 'phi' on the wrap path [ssa.c:5:
;
; void loop_while(size_t n) { while (n--) use(n); }
; CHECK-LABEL: define {{.*}} @loop_while(
; CHECK: !wrap.idiom ![[LOOP:[0-9]+]]
; CHECK: br i1 true, label %cont, label %handler.sub_overflow
; REMARK: removed unsigned-integer-overflow check on sub: loop-counter {{.*}}[ssa.c:6:
;
; size_t loop_escapes(size_t n) { while (n--) use(n); return n; }
; CHECK-LABEL: define {{.*}} @loop_escapes(
; CHECK: br i1 %{{[0-9]+}}, label %cont, label %handler.sub_overflow
; REMARK: kept unsigned-integer-overflow check on sub: the difference wraps only on the exit path its wrap decides, and 'ret' uses it there [ssa.c:7:
;
; int mul_div(size_t a, size_t b) { size_t p = a * b; if (a && p / a != b) return -75; use(p); return 0; }
; CHECK-LABEL: define {{.*}} @mul_div(
; CHECK: !wrap.idiom ![[MULDIV:[0-9]+]]
; CHECK: br i1 true, label %cont, label %handler.mul_overflow
; REMARK: removed unsigned-integer-overflow check on mul: mul-div {{.*}}[ssa.c:8:
;
; size_t bitmap_offset(unsigned nbits) { return -(nbits) & 63; }
; CHECK-LABEL: define {{.*}} @bitmap_offset(
; CHECK: !wrap.idiom ![[MODULAR:[0-9]+]]
; CHECK: br i1 true, label %cont, label %handler.negate_overflow
; REMARK: removed unsigned-integer-overflow check on negate: modular {{.*}}[ssa.c:9:
;
; int bounds_and_wrap(size_t off, size_t size, size_t lim) {
;   if (off + size > lim || off + size < size) { report(); return -22; } return 0; }
; CHECK-LABEL: define {{.*}} @bounds_and_wrap(
; CHECK: !wrap.idiom ![[BOUNDS:[0-9]+]]
; CHECK: br i1 true, label %cont, label %handler.add_overflow
; CHECK: !wrap.idiom ![[ADD:[0-9]+]]
; CHECK: br i1 true, label %cont{{[0-9]*}}, label %handler.add_overflow
; REMARK: removed unsigned-integer-overflow check on add: bounds-and-wrap {{.*}}[ssa.c:10:
; REMARK: removed unsigned-integer-overflow check on add: add-compare {{.*}}[ssa.c:10:
;
; CHECK-DAG: ![[GUARDED]] = !{!"guarded-use"}
; CHECK-DAG: ![[LOOP]] = !{!"loop-counter"}
; CHECK-DAG: ![[MULDIV]] = !{!"mul-div"}
; CHECK-DAG: ![[MODULAR]] = !{!"modular"}
; CHECK-DAG: ![[BOUNDS]] = !{!"bounds-and-wrap"}
; CHECK-DAG: ![[ADD]] = !{!"add-compare"}

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@.src = private unnamed_addr constant [6 x i8] c"ssa.c\00", align 1
@0 = private unnamed_addr constant { i16, i16, [31 x i8] } { i16 0, i16 12, [31 x i8] c"'size_t' (aka 'unsigned long')\00" }
@1 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 4, i32 48 }, ptr @0 }
@2 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 5, i32 60 }, ptr @0 }
@3 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 6, i32 37 }, ptr @0 }
@4 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 7, i32 41 }, ptr @0 }
@5 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 8, i32 48 }, ptr @0 }
@6 = private unnamed_addr constant { i16, i16, [15 x i8] } { i16 0, i16 10, [15 x i8] c"'unsigned int'\00" }
@7 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 9, i32 47 }, ptr @6 }
@8 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 10, i32 68 }, ptr @0 }
@9 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 10, i32 88 }, ptr @0 }

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @guarded(i64 noundef %a, i64 noundef %b) {
entry:
  %0 = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %a, i64 %b), !nosanitize !6
  %1 = extractvalue { i64, i1 } %0, 0, !nosanitize !6
  %2 = extractvalue { i64, i1 } %0, 1, !nosanitize !6
  %3 = xor i1 %2, true, !nosanitize !6
  br i1 %3, label %cont, label %handler.add_overflow, !prof !7, !nosanitize !6

handler.add_overflow:                             ; preds = %entry
  call void @__ubsan_handle_add_overflow(ptr @1, i64 %a, i64 %b), !nosanitize !6
  br label %cont, !nosanitize !6

cont:                                             ; preds = %handler.add_overflow, %entry
  %cmp = icmp ult i64 %1, %a
  br i1 %cmp, label %if.then, label %if.end

if.then:                                          ; preds = %cont
  br label %return

if.end:                                           ; preds = %cont
  call void @use(i64 noundef %1)
  br label %return

return:                                           ; preds = %if.end, %if.then
  %retval.0 = phi i32 [ -22, %if.then ], [ 0, %if.end ]
  ret i32 %retval.0
}

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare { i64, i1 } @llvm.uadd.with.overflow.i64(i64, i64)

; Function Attrs: uwtable
declare void @__ubsan_handle_add_overflow(ptr, i64, i64)

declare void @use(i64 noundef)

; Function Attrs: noinline nounwind uwtable
define dso_local i64 @returned_on_wrap(i64 noundef %a, i64 noundef %b) {
entry:
  %0 = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %a, i64 %b), !nosanitize !6
  %1 = extractvalue { i64, i1 } %0, 0, !nosanitize !6
  %2 = extractvalue { i64, i1 } %0, 1, !nosanitize !6
  %3 = xor i1 %2, true, !nosanitize !6
  br i1 %3, label %cont, label %handler.add_overflow, !prof !7, !nosanitize !6

handler.add_overflow:                             ; preds = %entry
  call void @__ubsan_handle_add_overflow(ptr @2, i64 %a, i64 %b), !nosanitize !6
  br label %cont, !nosanitize !6

cont:                                             ; preds = %handler.add_overflow, %entry
  %cmp = icmp ult i64 %1, %a
  br i1 %cmp, label %if.then, label %if.end

if.then:                                          ; preds = %cont
  br label %return

if.end:                                           ; preds = %cont
  br label %return

return:                                           ; preds = %if.end, %if.then
  %retval.0 = phi i64 [ %1, %if.then ], [ 0, %if.end ]
  ret i64 %retval.0
}

; Function Attrs: noinline nounwind uwtable
define dso_local void @loop_while(i64 noundef %n) {
entry:
  br label %while.cond

while.cond:                                       ; preds = %while.body, %entry
  %n.addr.0 = phi i64 [ %n, %entry ], [ %1, %while.body ]
  %0 = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %n.addr.0, i64 1), !nosanitize !6
  %1 = extractvalue { i64, i1 } %0, 0, !nosanitize !6
  %2 = extractvalue { i64, i1 } %0, 1, !nosanitize !6
  %3 = xor i1 %2, true, !nosanitize !6
  br i1 %3, label %cont, label %handler.sub_overflow, !prof !7, !nosanitize !6

handler.sub_overflow:                             ; preds = %while.cond
  call void @__ubsan_handle_sub_overflow(ptr @3, i64 %n.addr.0, i64 1), !nosanitize !6
  br label %cont, !nosanitize !6

cont:                                             ; preds = %handler.sub_overflow, %while.cond
  %tobool = icmp ne i64 %n.addr.0, 0
  br i1 %tobool, label %while.body, label %while.end

while.body:                                       ; preds = %cont
  call void @use(i64 noundef %1)
  br label %while.cond, !llvm.loop !8

while.end:                                        ; preds = %cont
  ret void
}

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare { i64, i1 } @llvm.usub.with.overflow.i64(i64, i64)

; Function Attrs: uwtable
declare void @__ubsan_handle_sub_overflow(ptr, i64, i64)

; Function Attrs: noinline nounwind uwtable
define dso_local i64 @loop_escapes(i64 noundef %n) {
entry:
  br label %while.cond

while.cond:                                       ; preds = %while.body, %entry
  %n.addr.0 = phi i64 [ %n, %entry ], [ %1, %while.body ]
  %0 = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %n.addr.0, i64 1), !nosanitize !6
  %1 = extractvalue { i64, i1 } %0, 0, !nosanitize !6
  %2 = extractvalue { i64, i1 } %0, 1, !nosanitize !6
  %3 = xor i1 %2, true, !nosanitize !6
  br i1 %3, label %cont, label %handler.sub_overflow, !prof !7, !nosanitize !6

handler.sub_overflow:                             ; preds = %while.cond
  call void @__ubsan_handle_sub_overflow(ptr @4, i64 %n.addr.0, i64 1), !nosanitize !6
  br label %cont, !nosanitize !6

cont:                                             ; preds = %handler.sub_overflow, %while.cond
  %tobool = icmp ne i64 %n.addr.0, 0
  br i1 %tobool, label %while.body, label %while.end

while.body:                                       ; preds = %cont
  call void @use(i64 noundef %1)
  br label %while.cond, !llvm.loop !10

while.end:                                        ; preds = %cont
  ret i64 %1
}

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @mul_div(i64 noundef %a, i64 noundef %b) {
entry:
  %0 = call { i64, i1 } @llvm.umul.with.overflow.i64(i64 %a, i64 %b), !nosanitize !6
  %1 = extractvalue { i64, i1 } %0, 0, !nosanitize !6
  %2 = extractvalue { i64, i1 } %0, 1, !nosanitize !6
  %3 = xor i1 %2, true, !nosanitize !6
  br i1 %3, label %cont, label %handler.mul_overflow, !prof !7, !nosanitize !6

handler.mul_overflow:                             ; preds = %entry
  call void @__ubsan_handle_mul_overflow(ptr @5, i64 %a, i64 %b), !nosanitize !6
  br label %cont, !nosanitize !6

cont:                                             ; preds = %handler.mul_overflow, %entry
  %tobool = icmp ne i64 %a, 0
  br i1 %tobool, label %land.lhs.true, label %if.end

land.lhs.true:                                    ; preds = %cont
  %div = udiv i64 %1, %a
  %cmp = icmp ne i64 %div, %b
  br i1 %cmp, label %if.then, label %if.end

if.then:                                          ; preds = %land.lhs.true
  br label %return

if.end:                                           ; preds = %land.lhs.true, %cont
  call void @use(i64 noundef %1)
  br label %return

return:                                           ; preds = %if.end, %if.then
  %retval.0 = phi i32 [ -75, %if.then ], [ 0, %if.end ]
  ret i32 %retval.0
}

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare { i64, i1 } @llvm.umul.with.overflow.i64(i64, i64)

; Function Attrs: uwtable
declare void @__ubsan_handle_mul_overflow(ptr, i64, i64)

; Function Attrs: noinline nounwind uwtable
define dso_local i64 @bitmap_offset(i32 noundef %nbits) {
entry:
  %0 = call { i32, i1 } @llvm.usub.with.overflow.i32(i32 0, i32 %nbits), !nosanitize !6
  %1 = extractvalue { i32, i1 } %0, 0, !nosanitize !6
  %2 = extractvalue { i32, i1 } %0, 1, !nosanitize !6
  %3 = xor i1 %2, true, !nosanitize !6
  br i1 %3, label %cont, label %handler.negate_overflow, !prof !7, !nosanitize !6

handler.negate_overflow:                          ; preds = %entry
  %4 = zext i32 %nbits to i64, !nosanitize !6
  call void @__ubsan_handle_negate_overflow(ptr @7, i64 %4), !nosanitize !6
  br label %cont, !nosanitize !6

cont:                                             ; preds = %handler.negate_overflow, %entry
  %and = and i32 %1, 63
  %conv = zext i32 %and to i64
  ret i64 %conv
}

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare { i32, i1 } @llvm.usub.with.overflow.i32(i32, i32)

; Function Attrs: uwtable
declare void @__ubsan_handle_negate_overflow(ptr, i64)

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @bounds_and_wrap(i64 noundef %off, i64 noundef %size, i64 noundef %lim) {
entry:
  %0 = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %off, i64 %size), !nosanitize !6
  %1 = extractvalue { i64, i1 } %0, 0, !nosanitize !6
  %2 = extractvalue { i64, i1 } %0, 1, !nosanitize !6
  %3 = xor i1 %2, true, !nosanitize !6
  br i1 %3, label %cont, label %handler.add_overflow, !prof !7, !nosanitize !6

handler.add_overflow:                             ; preds = %entry
  call void @__ubsan_handle_add_overflow(ptr @8, i64 %off, i64 %size), !nosanitize !6
  br label %cont, !nosanitize !6

cont:                                             ; preds = %handler.add_overflow, %entry
  %cmp = icmp ugt i64 %1, %lim
  br i1 %cmp, label %if.then, label %lor.lhs.false

lor.lhs.false:                                    ; preds = %cont
  %4 = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %off, i64 %size), !nosanitize !6
  %5 = extractvalue { i64, i1 } %4, 0, !nosanitize !6
  %6 = extractvalue { i64, i1 } %4, 1, !nosanitize !6
  %7 = xor i1 %6, true, !nosanitize !6
  br i1 %7, label %cont2, label %handler.add_overflow1, !prof !7, !nosanitize !6

handler.add_overflow1:                            ; preds = %lor.lhs.false
  call void @__ubsan_handle_add_overflow(ptr @9, i64 %off, i64 %size), !nosanitize !6
  br label %cont2, !nosanitize !6

cont2:                                            ; preds = %handler.add_overflow1, %lor.lhs.false
  %cmp3 = icmp ult i64 %5, %size
  br i1 %cmp3, label %if.then, label %if.end

if.then:                                          ; preds = %cont2, %cont
  %call = call i32 @report()
  br label %return

if.end:                                           ; preds = %cont2
  br label %return

return:                                           ; preds = %if.end, %if.then
  %retval.0 = phi i32 [ -22, %if.then ], [ 0, %if.end ]
  ret i32 %retval.0
}

declare i32 @report()


!6 = !{}
!7 = !{!"branch_weights", i32 1048575, i32 1}
!8 = distinct !{!8, !9}
!9 = !{!"llvm.loop.mustprogress"}
!10 = distinct !{!10, !9}
