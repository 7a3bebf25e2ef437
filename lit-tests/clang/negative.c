// Wraps the plugin must keep reporting: nothing here proves that the program
// tests this very operation and that no wrapped value escapes the test.
// Every check stays, at -O0 and -O2, in every runtime form.
//
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -fsanitize-trap=all -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -fsanitize-minimal-runtime -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK --implicit-check-not="remark: removed" %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK --implicit-check-not="remark: removed" %s

typedef unsigned long size_t;
typedef unsigned int u32;
void use(size_t);
size_t global;

// CHECK-LABEL: define {{.*}} @ret_sum(
// CHECK: {{call.*(__ubsan_handle_add_overflow|llvm.ubsantrap)}}
// REMARK: negative.c:[[@LINE+1]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is used by 'ret' before any wrap test
size_t ret_sum(size_t a, size_t b) { return a + b; }

// A bounds test alone: the sum is compared with a limit, not an addend.
// CHECK-LABEL: define {{.*}} @bounds_only(
// CHECK: {{call.*(__ubsan_handle_add_overflow|llvm.ubsantrap)}}
// REMARK: negative.c:[[@LINE+1]]:{{.*}} kept {{.*}}: the sum is compared with a value that is not an addend
int bounds_only(size_t off, size_t len, size_t lim) { return off + len > lim; }

// CHECK-LABEL: define {{.*}} @other_value(
// CHECK: {{call.*(__ubsan_handle_add_overflow|llvm.ubsantrap)}}
// REMARK: negative.c:[[@LINE+1]]:{{.*}} kept {{.*}}: the sum is compared with a value that is not an addend
int other_value(size_t a, size_t b, size_t c) { return a + b < c; }

// Two sums compared with each other: neither is compared with its addend.
// (At -O2 with traps both checks branch to one merged trap block, so the IR
// shows one call; the remarks below show both checks kept.)
// CHECK-LABEL: define {{.*}} @two_sums(
// CHECK: {{call.*(__ubsan_handle_add_overflow|llvm.ubsantrap)}}
// REMARK: negative.c:[[@LINE+2]]:{{.*}} kept {{.*}}: the sum is compared with a value that is not an addend
// REMARK: negative.c:[[@LINE+1]]:{{.*}} kept {{.*}}: the sum is compared with a value that is not an addend
int two_sums(size_t a, size_t b, size_t c) { return a + b < a + c; }

// CHECK-LABEL: define {{.*}} @array_bytes(
// CHECK: {{call.*(__ubsan_handle_mul_overflow|llvm.ubsantrap)}}
// REMARK: negative.c:[[@LINE+1]]:{{.*}} kept unsigned-integer-overflow check on mul: the product is used by 'ret' before any wrap test
size_t array_bytes(size_t n) { return n * sizeof(long); }

// CHECK-LABEL: define {{.*}} @payload(
// CHECK: {{call.*(__ubsan_handle_sub_overflow|llvm.ubsantrap)}}
// REMARK: negative.c:[[@LINE+1]]:{{.*}} kept unsigned-integer-overflow check on sub: the difference is used by 'ret' before any wrap test
size_t payload(size_t len, size_t hdr) { return len - hdr; }

// CHECK-LABEL: define {{.*}} @negate(
// CHECK: {{call.*(__ubsan_handle_negate_overflow|llvm.ubsantrap)}}
// REMARK: negative.c:[[@LINE+1]]:{{.*}} kept unsigned-integer-overflow check on negate: the negation is used by 'ret' before any wrap test
size_t negate(size_t len) { return -len; }

// The wrapped sum escapes before the test.
// CHECK-LABEL: define {{.*}} @used_before_test(
// CHECK: {{call.*(__ubsan_handle_add_overflow|llvm.ubsantrap)}}
int used_before_test(size_t a, size_t b) {
  size_t s = a + b; // REMARK: negative.c:[[@LINE]]:{{.*}} kept {{.*}}: the sum is used by 'call' before any wrap test
  use(s);
  if (s < a)
    return -22;
  return 0;
}

// The wrapped sum is returned on the wrap path.
// CHECK-LABEL: define {{.*}} @returned_on_wrap(
// CHECK: {{call.*(__ubsan_handle_add_overflow|llvm.ubsantrap)}}
size_t returned_on_wrap(size_t a, size_t b) {
  size_t s = a + b; // REMARK: negative.c:[[@LINE]]:{{.*}} kept {{.*}}: the sum is used by 'phi' on the wrap path
  if (s < a)
    return s;
  return 0;
}

// The sum is published before anyone tests it.
// CHECK-LABEL: define {{.*}} @stored_to_global(
// CHECK: {{call.*(__ubsan_handle_add_overflow|llvm.ubsantrap)}}
int stored_to_global(size_t a, size_t b) {
  global = a + b; // REMARK: negative.c:[[@LINE]]:{{.*}} kept {{.*}}: the sum is used by 'store' before any wrap test
  return global < a;
}

// Equality is not a wrap test.
// CHECK-LABEL: define {{.*}} @equality(
// CHECK: {{call.*(__ubsan_handle_add_overflow|llvm.ubsantrap)}}
// REMARK: negative.c:[[@LINE+1]]:{{.*}} kept {{.*}}: the sum is tested for equality, which is not a wrap test
int equality(size_t a, size_t b) { return a + b == a; }

// A difference compared with its subtrahend is not a wrap test.
// CHECK-LABEL: define {{.*}} @sub_vs_subtrahend(
// CHECK: {{call.*(__ubsan_handle_sub_overflow|llvm.ubsantrap)}}
// REMARK: negative.c:[[@LINE+1]]:{{.*}} kept {{.*}}: the difference is compared with a value that is not its minuend
int sub_vs_subtrahend(size_t a, size_t b) { return a - b < b; }

// Shifting right looks at the high bits, which is where the wrap shows.
// CHECK-LABEL: define {{.*}} @high_bits(
// CHECK: {{call.*(__ubsan_handle_add_overflow|llvm.ubsantrap)}}
// REMARK: negative.c:[[@LINE+1]]:{{.*}} kept {{.*}}: the sum is used by 'lshr' before any wrap test
u32 high_bits(u32 a, u32 b) { return (a + b) >> 4; }

// mm/util.c: `offset + PAGE_ALIGN(len) < offset`. The outer sum is tested,
// but PAGE_ALIGN's own `len + PAGE_SIZE - 1` wraps for a huge len and its
// result is masked and added, never tested: that check stays.
// CHECK-LABEL: define {{.*}} @page_align(
// CHECK: {{call.*(__ubsan_handle_add_overflow|llvm.ubsantrap)}}
// REMARK-DAG: negative.c:[[@LINE+2]]:{{.*}} removed {{.*}} add-compare
// REMARK-DAG: negative.c:[[@LINE+1]]:{{.*}} kept {{.*}}: the sum, masked or shifted, is used by 'call' before any wrap test
int page_align(size_t offset, size_t len) { return offset + ((len + 4095) & ~4095UL) < offset; }
