// Signed wrap tests. Clang >= 19 instruments signed overflow even under
// -fwrapv / -fno-strict-overflow (the kernel's flags). The IR does not say
// whether the build defines signed wrap, so the plugin accepts signed wrap
// tests only when told so with -wrap-idiom-signed-wrap; otherwise the test
// relies on undefined behaviour, which is what the sanitizer is for.
//
// RUN: %clang_plugin -O0 -fwrapv -mllvm -wrap-idiom-signed-wrap -fsanitize=signed-integer-overflow \
// RUN:   -S -emit-llvm %s -o - | FileCheck --check-prefixes=CHECK,O0 %s
// RUN: %clang_plugin -O2 -fwrapv -mllvm -wrap-idiom-signed-wrap -fsanitize=signed-integer-overflow \
// RUN:   -S -emit-llvm %s -o - | FileCheck --check-prefixes=CHECK,O2 %s
// RUN: %clang_plugin -O2 -fno-strict-overflow -mllvm -wrap-idiom-signed-wrap -fsanitize=signed-integer-overflow \
// RUN:   -fsanitize-trap=all -S -emit-llvm %s -o - | FileCheck --check-prefixes=CHECK,O2 %s
// RUN: %clang_plugin -O2 -fno-strict-overflow -mllvm -wrap-idiom-signed-wrap -fsanitize=signed-integer-overflow \
// RUN:   -fsanitize-minimal-runtime -S -emit-llvm %s -o - | FileCheck --check-prefixes=CHECK,O2 %s
// RUN: %clang_plugin -O2 -fwrapv -mllvm -wrap-idiom-signed-wrap -fsanitize=signed-integer-overflow \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK %s
// Without the option every signed check stays, and the remark says why:
// RUN: %clang_plugin -O2 -fwrapv -fsanitize=signed-integer-overflow \
// RUN:   -S -emit-llvm %s -o - | FileCheck --check-prefix=KEEP %s
// RUN: %clang_plugin -O2 -fwrapv -fsanitize=signed-integer-overflow \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck --check-prefix=NOOPT --implicit-check-not="remark: removed" %s

typedef long long loff_t;

// A signed test is exact only when the other operand's sign is known: for
// b >= 0 a wrap lands below a, for b < 0 above it. Here b >= 0 is proven
// by a dominating test.
// CHECK-LABEL: define {{.*}} @int_add(
// O0: br i1 true
// O2-NOT: {{__ubsan_handle|ubsantrap}}
// CHECK: ret
// KEEP-LABEL: define {{.*}} @int_add(
// KEEP: {{call.*(__ubsan_handle_add_overflow|llvm.ubsantrap)}}
// REMARK: signed.c:[[@LINE+2]]:{{.*}} removed signed-integer-overflow check on add: add-compare
// NOOPT: signed.c:[[@LINE+1]]:{{.*}} kept signed-integer-overflow check on add: recognised add-compare, but signed overflow is undefined unless the file is built with -fwrapv or -fno-strict-overflow (then pass -wrap-idiom-signed-wrap)
int int_add(int a, int b) { if (b < 0) return 0; return a + b < a; }

// neg-const is unsigned only: the signed 0L - LONG_MIN overflows, a real
// wrap, even with -wrap-idiom-signed-wrap.
#pragma clang diagnostic ignored "-Winteger-overflow"
// CHECK-LABEL: define {{.*}} @neg_sub_long_min(
// CHECK: {{call.*(__ubsan_handle_sub_overflow|llvm.ubsantrap)}}
// REMARK: signed.c:[[@LINE+1]]:{{.*}} kept signed-integer-overflow check on sub
long neg_sub_long_min(void) { return 0L - (-9223372036854775807L - 1); }

// loff_t plus an unsigned 32-bit length (fs/read_write.c style): widened,
// so non-negative.
// CHECK-LABEL: define {{.*}} @loff_add(
// O0: br i1 true
// O2-NOT: {{__ubsan_handle|ubsantrap}}
// CHECK: ret
// REMARK: signed.c:[[@LINE+2]]:{{.*}} removed signed-integer-overflow check on add: add-compare
// NOOPT: signed.c:[[@LINE+1]]:{{.*}} kept {{.*}}recognised add-compare
int loff_add(loff_t pos, unsigned len) { if (pos + len < pos) return -22; return 0; }

// CHECK-LABEL: define {{.*}} @long_sub(
// O0: br i1 true
// O2-NOT: {{__ubsan_handle|ubsantrap}}
// CHECK: ret
// REMARK: signed.c:[[@LINE+2]]:{{.*}} removed signed-integer-overflow check on sub: sub-compare
// NOOPT: signed.c:[[@LINE+1]]:{{.*}} kept {{.*}}recognised sub-compare
int long_sub(long a, long b) { if (b < 0) return -22; return a - b > a; }

// A negative constant: the sum can only wrap downwards, above a.
// CHECK-LABEL: define {{.*}} @add_negative(
// O0: br i1 true
// O2-NOT: {{__ubsan_handle|ubsantrap}}
// CHECK: ret
// REMARK: signed.c:[[@LINE+2]]:{{.*}} removed signed-integer-overflow check on add: add-compare
// NOOPT: signed.c:[[@LINE+1]]:{{.*}} kept {{.*}}recognised add-compare
int add_negative(int a) { return a + -16 > a; }

// Nothing says len >= 0: pos + len may wrap downwards and pass the test
// (pos = -LLONG_MAX, len = -4 gives a large positive sum), so the check
// stays.
// CHECK-LABEL: define {{.*}} @loff_add_any(
// CHECK: {{call.*(__ubsan_handle_add_overflow|llvm.ubsantrap)}}
// REMARK: signed.c:[[@LINE+2]]:{{.*}} kept signed-integer-overflow check on add: the signed wrap test is inexact: the other operand may be negative
// NOOPT: signed.c:[[@LINE+1]]:{{.*}} kept signed-integer-overflow check on add
int loff_add_any(loff_t pos, loff_t len) { if (pos + len < pos) return -22; return 0; }

// CHECK-LABEL: define {{.*}} @long_sub_any(
// CHECK: {{call.*(__ubsan_handle_sub_overflow|llvm.ubsantrap)}}
// REMARK: signed.c:[[@LINE+2]]:{{.*}} kept signed-integer-overflow check on sub: the signed wrap test is inexact: the other operand may be negative
// NOOPT: signed.c:[[@LINE+1]]:{{.*}} kept signed-integer-overflow check on sub
int long_sub_any(long a, long b) { return a - b > a; }

// b < 0 is known: the sum can only wrap downwards, landing above a, so
// `a + b < a` is false on every wrapped run and still an exact test.
// CHECK-LABEL: define {{.*}} @int_add_negative_known(
// O0: br i1 true
// O2-NOT: {{__ubsan_handle|ubsantrap}}
// CHECK: ret
// REMARK: signed.c:[[@LINE+2]]:{{.*}} removed signed-integer-overflow check on add: add-compare
// NOOPT: signed.c:[[@LINE+1]]:{{.*}} kept {{.*}}recognised add-compare
int int_add_negative_known(int a, int b) { if (b >= 0) return 0; return a + b < a; }

// A signed sum compared unsigned tests the carry, not signed overflow.
// CHECK-LABEL: define {{.*}} @signed_sum_unsigned_compare(
// CHECK: {{call.*(__ubsan_handle_add_overflow|llvm.ubsantrap)}}
// REMARK: signed.c:[[@LINE+2]]:{{.*}} kept signed-integer-overflow check on add: the sum is compared unsigned, the operation is signed
// NOOPT: signed.c:[[@LINE+1]]:{{.*}} kept {{.*}}compared unsigned
int signed_sum_unsigned_compare(int a, int b) { return (unsigned)(a + b) < (unsigned)a; }

// CHECK-LABEL: define {{.*}} @signed_ret(
// CHECK: {{call.*(__ubsan_handle_add_overflow|llvm.ubsantrap)}}
// REMARK: signed.c:[[@LINE+2]]:{{.*}} kept signed-integer-overflow check on add: the sum is used by 'ret' before any wrap test
// NOOPT: signed.c:[[@LINE+1]]:{{.*}} kept {{.*}}used by 'ret'
int signed_ret(int a, int b) { return a + b; }
