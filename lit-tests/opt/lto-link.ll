; In an LTO link clang's checks are already optimised, so the plugin has
; nothing to do there: given only to the link, it warns once, and changes
; nothing. A module that went through the pass when it was compiled carries
; the module flag "wrap-idiom" and draws no warning.
;
; RUN: %opt -passes='lto<O2>' -disable-output %s 2>&1 | FileCheck --check-prefix=WARN %s
; RUN: %opt -passes='lto<O0>' -disable-output %s 2>&1 | FileCheck --check-prefix=WARN %s
; RUN: %if thinlto-phase %{ %opt -passes='thinlto<O2>' -disable-output %s 2>&1 | FileCheck --check-prefix=WARN %s %}
; WARN: warning: wrap-idiom: loaded into an LTO link, where clang's overflow checks are already optimised: it does nothing here; load it when compiling (-fpass-plugin= with -flto)
; WARN-NOT: warning
;
; RUN: %opt -passes=wrap-idiom -S %s -o %t.ll
; RUN: FileCheck --check-prefix=FLAG %s < %t.ll
; FLAG: !{i32 7, !"wrap-idiom", i32 1}
; RUN: %opt -passes='lto<O2>' -disable-output %t.ll 2>&1 | count 0
; RUN: %if thinlto-phase %{ %opt -passes='thinlto<O2>' -disable-output %t.ll 2>&1 | count 0 %}

define i32 @f(i32 %a, i32 %b) {
  %s = add i32 %a, %b
  ret i32 %s
}
