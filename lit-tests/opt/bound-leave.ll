; guarded-use's bound to leave by on IR in SSA form: `d = n - 1` is
; ULONG_MAX when it wraps, passes `d == 0` as the true -1 would, and takes
; `d > 100` to leave; the use is on the other side, which unwrapped runs
; reach (mm/mempolicy.c get_nodes()). Must keep: a bound that is all the
; value is for (n == 0 answered "too large"). Generated from C (comments)
; with clang -O0 -Xclang -disable-O0-optnone -fsanitize=unsigned-integer-overflow
; -gline-tables-only | opt -passes=mem2reg.
;
; RUN: %opt -passes=wrap-idiom -S %s | FileCheck %s
; RUN: %opt -passes=wrap-idiom -disable-output -pass-remarks=wrap-idiom \
; RUN:   -pass-remarks-missed=wrap-idiom %s 2>&1 | FileCheck --check-prefix=REMARK %s
;
; int leave(size_t n) { size_t d = n - 1; if (d == 0) return 0; if (d > 100) return -22; use(d); return 0; }
; CHECK-LABEL: define {{.*}} @leave(
; CHECK: !wrap.idiom
; CHECK: br i1 true,
; REMARK: bl.c:3:36: removed unsigned-integer-overflow check on sub: guarded-use
;
; int keep_decides(size_t n) { size_t d = n - 1; if (d > 100) return -1; return 0; }
; CHECK-LABEL: define {{.*}} @keep_decides(
; CHECK-NOT: !wrap.idiom
; CHECK: br i1 %{{[0-9]+}},
; REMARK: bl.c:4:43: kept unsigned-integer-overflow check on sub: the difference is compared with a value that is not its minuend, and that decision reaches 'ret'


target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@.src = private unnamed_addr constant [5 x i8] c"bl.c\00", align 1
@0 = private unnamed_addr constant { i16, i16, [31 x i8] } { i16 0, i16 12, [31 x i8] c"'size_t' (aka 'unsigned long')\00" }
@1 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 3, i32 36 }, ptr @0 }
@2 = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 4, i32 43 }, ptr @0 }

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @leave(i64 noundef %0) #0 !dbg !10 {
  %2 = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %0, i64 1), !dbg !13, !nosanitize !12
  %3 = extractvalue { i64, i1 } %2, 0, !dbg !13, !nosanitize !12
  %4 = extractvalue { i64, i1 } %2, 1, !dbg !13, !nosanitize !12
  %5 = xor i1 %4, true, !dbg !13, !nosanitize !12
  br i1 %5, label %7, label %6, !dbg !13, !prof !14, !nosanitize !12

6:                                                ; preds = %1
  call void @__ubsan_handle_sub_overflow(ptr @1, i64 %0, i64 1) #4, !dbg !13, !nosanitize !12
  br label %7, !dbg !13, !nosanitize !12

7:                                                ; preds = %6, %1
  %8 = icmp eq i64 %3, 0, !dbg !15
  br i1 %8, label %9, label %10, !dbg !15

9:                                                ; preds = %7
  br label %14, !dbg !16

10:                                               ; preds = %7
  %11 = icmp ugt i64 %3, 100, !dbg !17
  br i1 %11, label %12, label %13, !dbg !17

12:                                               ; preds = %10
  br label %14, !dbg !18

13:                                               ; preds = %10
  call void @use(i64 noundef %3), !dbg !19
  br label %14, !dbg !20

14:                                               ; preds = %13, %12, %9
  %.0 = phi i32 [ 0, %9 ], [ -22, %12 ], [ 0, %13 ], !dbg !21
  ret i32 %.0, !dbg !22
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare { i64, i1 } @llvm.usub.with.overflow.i64(i64, i64) #1

; Function Attrs: uwtable
declare void @__ubsan_handle_sub_overflow(ptr, i64, i64) #2

declare void @use(i64 noundef) #3

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @keep_decides(i64 noundef %0) #0 !dbg !23 {
  %2 = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %0, i64 1), !dbg !24, !nosanitize !12
  %3 = extractvalue { i64, i1 } %2, 0, !dbg !24, !nosanitize !12
  %4 = extractvalue { i64, i1 } %2, 1, !dbg !24, !nosanitize !12
  %5 = xor i1 %4, true, !dbg !24, !nosanitize !12
  br i1 %5, label %7, label %6, !dbg !24, !prof !14, !nosanitize !12

6:                                                ; preds = %1
  call void @__ubsan_handle_sub_overflow(ptr @2, i64 %0, i64 1) #4, !dbg !24, !nosanitize !12
  br label %7, !dbg !24, !nosanitize !12

7:                                                ; preds = %6, %1
  %8 = icmp ugt i64 %3, 100, !dbg !25
  br i1 %8, label %9, label %10, !dbg !25

9:                                                ; preds = %7
  br label %11, !dbg !26

10:                                               ; preds = %7
  br label %11, !dbg !27

11:                                               ; preds = %10, %9
  %.0 = phi i32 [ -1, %9 ], [ 0, %10 ], !dbg !28
  ret i32 %.0, !dbg !29
}

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { uwtable }
attributes #3 = { "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { nomerge nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7, !8}
!llvm.ident = !{!9}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: LineTablesOnly, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "bl.c", directory: "/tmp", checksumkind: CSK_MD5, checksum: "10c285425bc8dff9721617829df7f6a3")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 8, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 2}
!8 = !{i32 7, !"frame-pointer", i32 2}
!9 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!10 = distinct !DISubprogram(name: "leave", scope: !1, file: !1, line: 3, type: !11, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0)
!11 = !DISubroutineType(types: !12)
!12 = !{}
!13 = !DILocation(line: 3, column: 36, scope: !10)
!14 = !{!"branch_weights", i32 1048575, i32 1}
!15 = !DILocation(line: 3, column: 47, scope: !10)
!16 = !DILocation(line: 3, column: 53, scope: !10)
!17 = !DILocation(line: 3, column: 69, scope: !10)
!18 = !DILocation(line: 3, column: 76, scope: !10)
!19 = !DILocation(line: 3, column: 88, scope: !10)
!20 = !DILocation(line: 3, column: 96, scope: !10)
!21 = !DILocation(line: 3, scope: !10)
!22 = !DILocation(line: 3, column: 106, scope: !10)
!23 = distinct !DISubprogram(name: "keep_decides", scope: !1, file: !1, line: 4, type: !11, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0)
!24 = !DILocation(line: 4, column: 43, scope: !23)
!25 = !DILocation(line: 4, column: 54, scope: !23)
!26 = !DILocation(line: 4, column: 61, scope: !23)
!27 = !DILocation(line: 4, column: 72, scope: !23)
!28 = !DILocation(line: 4, scope: !23)
!29 = !DILocation(line: 4, column: 82, scope: !23)
