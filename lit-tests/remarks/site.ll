; Without debug locations (a kernel built without -g, remarks read by the
; triage tool) a remark names the site clang recorded in the handler's
; static data instead.
;
; RUN: %opt -passes=wrap-idiom -pass-remarks=wrap-idiom -pass-remarks-missed=wrap-idiom \
; RUN:   -disable-output %s 2>&1 | FileCheck %s
; RUN: %opt -passes=wrap-idiom -pass-remarks-output=%t.yaml -disable-output %s
; RUN: FileCheck --check-prefix=YAML %s < %t.yaml

@.src = private unnamed_addr constant [10 x i8] c"mm/mmap.c\00", align 1
@ty = private unnamed_addr constant { i16, i16, [16 x i8] } { i16 0, i16 12, [16 x i8] c"'unsigned long'\00" }
@data = private unnamed_addr global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @.src, i32 3026, i32 12 }, ptr @ty }

declare { i64, i1 } @llvm.uadd.with.overflow.i64(i64, i64)
declare void @__ubsan_handle_add_overflow(ptr, i64, i64)

; CHECK: remark: <unknown>:0:0: removed unsigned-integer-overflow check on add: add-compare (the sum is only compared with an addend) [mm/mmap.c:3026:12]
; YAML: Name: CheckRemoved
; YAML: Function: remap_file_pages
; YAML: - Site: 'mm/mmap.c:3026:12'
define i1 @remap_file_pages(i64 %pgoff, i64 %pages) {
entry:
  %r = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %pgoff, i64 %pages), !nosanitize !0
  %s = extractvalue { i64, i1 } %r, 0, !nosanitize !0
  %o = extractvalue { i64, i1 } %r, 1, !nosanitize !0
  %ok = xor i1 %o, true, !nosanitize !0
  br i1 %ok, label %cont, label %handler, !nosanitize !0
handler:
  call void @__ubsan_handle_add_overflow(ptr @data, i64 %pgoff, i64 %pages), !nosanitize !0
  br label %cont, !nosanitize !0
cont:
  %t = icmp ult i64 %s, %pgoff
  ret i1 %t
}

!0 = !{}
