// `p + n < p`. Clang emits pointer-overflow checks only without
// -fwrapv-pointer (which -fno-strict-overflow implies; clang 19 also drops
// them under -fwrapv). Pointer wrap is undefined in C and the inbounds GEP
// lets InstCombine fold the test to false, so the plugin accepts the test
// only with -wrap-idiom-pointer-wrap, and then also drops the GEP's
// inbounds: the program's own test decides, not the optimiser. The test
// answers only for the address wrapping past its base: the check's other
// parts (the offset computation overflowing, a null base given a non-zero
// offset) stay, so only its address comparison folds.
//
// RUN: %clang_plugin -O0 -mllvm -wrap-idiom-pointer-wrap -fsanitize=pointer-overflow \
// RUN:   -S -emit-llvm %s -o - | FileCheck --check-prefixes=CHECK,O0 %s
// RUN: %clang_plugin -O2 -mllvm -wrap-idiom-pointer-wrap -fsanitize=pointer-overflow \
// RUN:   -S -emit-llvm %s -o - | FileCheck --check-prefixes=CHECK,O2 %s
// RUN: %clang_plugin -O2 -mllvm -wrap-idiom-pointer-wrap -fsanitize=pointer-overflow -fsanitize-trap=all \
// RUN:   -S -emit-llvm %s -o - | FileCheck --check-prefixes=CHECK,O2 %s
// RUN: %clang_plugin -O2 -mllvm -wrap-idiom-pointer-wrap -fsanitize=pointer-overflow \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK %s
// RUN: %clang_plugin -O2 -fsanitize=pointer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=NOOPT --implicit-check-not="remark: removed" %s
// And under -fno-strict-overflow there is no check at all:
// RUN: %clang_plugin -O2 -fno-strict-overflow -fsanitize=pointer-overflow -S -emit-llvm %s -o - \
// RUN:   | FileCheck --check-prefix=NOCHECK %s
// NOCHECK-NOT: __ubsan_handle_pointer_overflow

struct item { int a; char b; };

// CHECK-LABEL: define {{.*}} @char_ptr(
// CHECK-NOT: icmp uge i64 {{.*}}nosanitize
// The null-pointer part stays:
// CHECK: icmp ne ptr {{.*}}, null, !nosanitize
// O0: and i1 true,
// CHECK: {{call.*(__ubsan_handle_pointer_overflow|llvm.ubsantrap)}}
// The comparison survives: the GEP no longer claims inbounds.
// O2: icmp ult ptr
// CHECK: ret
// REMARK: pointer.c:[[@LINE+2]]:{{.*}} removed pointer-overflow check on pointer: ptr-compare (the pointer sum is only compared with its base); its offset-overflow and null-pointer parts stay
// NOOPT: pointer.c:[[@LINE+1]]:{{.*}} kept pointer-overflow check on pointer: recognised ptr-compare, but pointer overflow is undefined and the optimiser may fold the test away (pass -wrap-idiom-pointer-wrap to accept it)
int char_ptr(const char *p, unsigned long n) { return p + n < p; }

// CHECK-LABEL: define {{.*}} @struct_ptr(
// CHECK-NOT: icmp uge i64 {{.*}}nosanitize
// CHECK: {{call.*(__ubsan_handle_pointer_overflow|llvm.ubsantrap)}}
// CHECK: ret
// REMARK: pointer.c:[[@LINE+1]]:{{.*}} removed pointer-overflow check on pointer: ptr-compare
int struct_ptr(struct item *p, unsigned long n) { if (p + n < p) return -22; return 0; }

// A signed offset of unknown sign: a wrap may land on either side of p, so
// `p + off < p` is no wrap test and the whole check stays.
// CHECK-LABEL: define {{.*}} @signed_offset(
// CHECK: icmp uge i64 {{.*}}nosanitize
// CHECK: {{call.*(__ubsan_handle_pointer_overflow|llvm.ubsantrap)}}
// REMARK: pointer.c:[[@LINE+1]]:{{.*}} kept pointer-overflow check on pointer: the pointer test is inexact: the offset may be negative
int signed_offset(const char *p, long off) { return p + off < p; }

// A non-negative signed offset is exact.
// CHECK-LABEL: define {{.*}} @signed_offset_nonneg(
// CHECK-NOT: icmp uge i64 {{.*}}nosanitize
// CHECK: ret
// REMARK: pointer.c:[[@LINE+1]]:{{.*}} removed pointer-overflow check on pointer: ptr-compare
int signed_offset_nonneg(const char *p, long off) { if (off < 0) return 0; return p + off < p; }

// The pointer sum is used: the check stays.
// CHECK-LABEL: define {{.*}} @ptr_used(
// CHECK: {{call.*(__ubsan_handle_pointer_overflow|llvm.ubsantrap)}}
// REMARK: pointer.c:[[@LINE+1]]:{{.*}} kept pointer-overflow check on pointer: the pointer is also used by 'load'
char ptr_used(const char *p, unsigned long n) { return *(p + n); }
