// The unsigned wrap tests the plugin recognises, through the real clang with
// the plugin, at -O0 and -O2, in every runtime form. At -O0 the folded check
// is still in the IR (nothing cleans up at -O0) but its branch is constant;
// at -O2 the handler is gone.
//
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -S -emit-llvm %s -o - \
// RUN:   | FileCheck --check-prefixes=CHECK,O0 %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -S -emit-llvm %s -o - \
// RUN:   | FileCheck --check-prefixes=CHECK,O2 %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -fsanitize-trap=all -S -emit-llvm %s -o - \
// RUN:   | FileCheck --check-prefixes=CHECK,O2 %s
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -fsanitize-trap=all -S -emit-llvm %s -o - \
// RUN:   | FileCheck --check-prefixes=CHECK,O0 %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -fsanitize-minimal-runtime -S -emit-llvm %s -o - \
// RUN:   | FileCheck --check-prefixes=CHECK,O2 %s
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -fsanitize-minimal-runtime -S -emit-llvm %s -o - \
// RUN:   | FileCheck --check-prefixes=CHECK,O0 %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -fno-sanitize-recover=all -S -emit-llvm %s -o - \
// RUN:   | FileCheck --check-prefixes=CHECK,O2 %s
// And what the plugin says about each, with the idiom it proved:
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK --implicit-check-not=remark: %s
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK --implicit-check-not=remark: %s

#define unlikely(x) __builtin_expect(!!(x), 0)
#define WRAPS(a, b) ((a) + (b) < (a))
typedef unsigned long size_t;
typedef unsigned int u32;
typedef unsigned long long u64;

// CHECK-LABEL: define {{.*}} @add_lt(
// O0: br i1 true
// O2-NOT: {{__ubsan_handle|ubsantrap}}
// CHECK: ret
// REMARK: idioms.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: add-compare
int add_lt(size_t a, size_t b) { return a + b < a; }

// CHECK-LABEL: define {{.*}} @add_le(
// O0: br i1 true
// O2-NOT: {{__ubsan_handle|ubsantrap}}
// CHECK: ret
// REMARK: idioms.c:[[@LINE+1]]:{{.*}} removed {{.*}} add-compare
int add_le(size_t a, size_t b) { return a + b <= a; }

// CHECK-LABEL: define {{.*}} @add_gt_reversed(
// O0: br i1 true
// O2-NOT: {{__ubsan_handle|ubsantrap}}
// CHECK: ret
// REMARK: idioms.c:[[@LINE+1]]:{{.*}} removed {{.*}} add-compare
int add_gt_reversed(size_t a, size_t b) { return a > a + b; }

// CHECK-LABEL: define {{.*}} @add_ge_reversed(
// O0: br i1 true
// O2-NOT: {{__ubsan_handle|ubsantrap}}
// CHECK: ret
// REMARK: idioms.c:[[@LINE+1]]:{{.*}} removed {{.*}} add-compare
int add_ge_reversed(size_t a, size_t b) { return a >= a + b; }

// Compared with the other addend (mm/nommu.c: `(unsigned long)addr + count < count`).
// CHECK-LABEL: define {{.*}} @add_other_addend(
// O0: br i1 true
// O2-NOT: {{__ubsan_handle|ubsantrap}}
// CHECK: ret
// REMARK: idioms.c:[[@LINE+1]]:{{.*}} removed {{.*}} add-compare
int add_other_addend(const char *addr, size_t count) { return (unsigned long)addr + count < count; }

// The "does it wrap" test in the not-wrapped direction.
// CHECK-LABEL: define {{.*}} @add_gt(
// O0: br i1 true
// O2-NOT: {{__ubsan_handle|ubsantrap}}
// CHECK: ret
// REMARK: idioms.c:[[@LINE+1]]:{{.*}} removed {{.*}} add-compare
int add_gt(size_t a, size_t b) { return a + b > a; }

// Through a macro, parentheses and unlikely() (mm/mmap.c's shape; mm/util.c's
// `offset + PAGE_ALIGN(len) < offset` is the same, but PAGE_ALIGN's own
// `len + PAGE_SIZE - 1` is a real wrap the plugin keeps: see negative.c).
// CHECK-LABEL: define {{.*}} @add_macro_unlikely(
// O0: br i1 true
// O2-NOT: {{__ubsan_handle|ubsantrap}}
// CHECK: ret
// REMARK: idioms.c:[[@LINE+1]]:{{.*}} removed {{.*}} add-compare
int add_macro_unlikely(size_t pgoff, size_t size) { if (unlikely(WRAPS(pgoff, (size >> 12)))) return -22; return 0; }

// Through casts: a u32 sum widened on both sides of the compare.
// CHECK-LABEL: define {{.*}} @add_widened(
// O0: br i1 true
// O2-NOT: {{__ubsan_handle|ubsantrap}}
// CHECK: ret
// REMARK: idioms.c:[[@LINE+1]]:{{.*}} removed {{.*}} add-compare
int add_widened(u32 a, u32 b) { return (u64)(a + b) < (u64)a; }

// Two tests in one condition (fs/remap_range.c), a signed loff_t plus a u64
// count: the usual conversions make both additions unsigned.
// CHECK-LABEL: define {{.*}} @two_tests(
// O0: br i1 true
// O0: br i1 true
// O2-NOT: {{__ubsan_handle|ubsantrap}}
// CHECK: ret
// REMARK: idioms.c:[[@LINE+3]]:{{.*}} removed {{.*}} add-compare
// REMARK: idioms.c:[[@LINE+2]]:{{.*}} removed {{.*}} add-compare
int two_tests(long long pos_in, long long pos_out, u64 count) {
  if (pos_in + count < pos_in || pos_out + count < pos_out)
    return -22;
  return 0;
}

// Struct fields loaded twice: the same value, nothing writes in between.
struct vma { unsigned long vm_start, vm_pgoff; };
// CHECK-LABEL: define {{.*}} @fields(
// O0: br i1 true
// O2-NOT: {{__ubsan_handle|ubsantrap}}
// CHECK: ret
// REMARK: idioms.c:[[@LINE+1]]:{{.*}} removed {{.*}} add-compare
int fields(struct vma *v, unsigned long pages) { return v->vm_pgoff + pages < v->vm_pgoff; }

// The sum kept in a local that is only tested (promoted: one SSA value).
// CHECK-LABEL: define {{.*}} @local_only_tested(
// O0: br i1 true
// O2-NOT: {{__ubsan_handle|ubsantrap}}
// CHECK: ret
int local_only_tested(size_t a, size_t b) {
  size_t end = a + b; // REMARK: idioms.c:[[@LINE]]:{{.*}} removed {{.*}} add-compare
  return end < a;
}

// Subtraction tested against its minuend.
// CHECK-LABEL: define {{.*}} @sub_gt(
// O0: br i1 true
// O2-NOT: {{__ubsan_handle|ubsantrap}}
// CHECK: ret
// REMARK: idioms.c:[[@LINE+1]]:{{.*}} removed unsigned-integer-overflow check on sub: sub-compare
int sub_gt(u32 a, u32 b) { return a - b > a; }

// CHECK-LABEL: define {{.*}} @sub_lt_reversed(
// O0: br i1 true
// O2-NOT: {{__ubsan_handle|ubsantrap}}
// CHECK: ret
// REMARK: idioms.c:[[@LINE+1]]:{{.*}} removed {{.*}} sub-compare
int sub_lt_reversed(u32 a, u32 b) { return a < a - b; }

// CHECK-LABEL: define {{.*}} @sub_ge(
// O0: br i1 true
// O2-NOT: {{__ubsan_handle|ubsantrap}}
// CHECK: ret
// REMARK: idioms.c:[[@LINE+1]]:{{.*}} removed {{.*}} sub-compare
int sub_ge(size_t a, size_t b) { return a - b >= a; }
