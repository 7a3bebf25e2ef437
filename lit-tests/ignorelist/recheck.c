// Ignorelist entries and re-checks (llvm-pass/SignedRecheck.h): an entry
// removes a check that would otherwise be re-checked (removal has
// priority); a `=sanitize` entry keeps clang's plain check, not re-checked.
//
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -mllvm -wrap-idiom-ignorelist=%S/Inputs/recheck.scl \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK %s
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -mllvm -wrap-idiom-ignorelist=%S/Inputs/recheck.scl \
// RUN:   -S -emit-llvm %s -o - | FileCheck %s

typedef unsigned long size_t;

// REMARK: recheck.c:[[@LINE+4]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: ignorelist (`fun:ignored_off` ({{.*}}recheck.scl:3))
// CHECK-LABEL: define {{.*}} @ignored_off(
// CHECK: br i1 true
// CHECK-NOT: icmp slt
size_t ignored_off(size_t x, int off) { return x + off; }

// REMARK: recheck.c:[[@LINE+5]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add: kept by `fun:sanitized_off=sanitize` ({{.*}}recheck.scl:5)
// CHECK-LABEL: define {{.*}} @sanitized_off(
// CHECK-NOT: icmp slt
// CHECK-NOT: !wrap.idiom
// CHECK: call void @__ubsan_handle_add_overflow
size_t sanitized_off(size_t x, int off) { return x + off; }

// Not named: re-checked.
// REMARK: recheck.c:[[@LINE+4]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on add: signed-offset
// CHECK-LABEL: define {{.*}} @named_by_none(
// CHECK: icmp slt i64 %{{[0-9]+}}, 0, !nosanitize
// CHECK: call void @__ubsan_handle_add_overflow
size_t named_by_none(size_t x, int off) { return x + off; }

// circular-difference (CircularDifference.cpp): the difference's check goes
// only with its correction re-checked. An entry that removes the
// correction's check, or keeps it as emitted, keeps the difference's.
typedef unsigned long ring_off_t;
typedef unsigned long ring_kept_t;
// REMARK: recheck.c:[[@LINE+6]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub: {{.*}}circular-difference: its correction's check is not re-checked
// REMARK: recheck.c:[[@LINE+7]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: ignorelist (`type:ring_off_t` ({{.*}}recheck.scl:{{[0-9]+}}))
// CHECK-LABEL: define {{.*}} @circ_removed(
// CHECK: call void @__ubsan_handle_sub_overflow
ring_off_t circ_removed(unsigned long a, unsigned long b, ring_off_t size)
{
	ring_off_t d = a - b;
	if (a < b)
		d += size;
	return d;
}
// REMARK: recheck.c:[[@LINE+8]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub: {{.*}}circular-difference: its correction's check is not re-checked
// REMARK: recheck.c:[[@LINE+9]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add: kept by `type:ring_kept_t=sanitize` ({{.*}}recheck.scl:{{[0-9]+}})
// CHECK-LABEL: define {{.*}} @circ_sanitized(
// CHECK-NOT: !wrap.idiom
// CHECK: call void @__ubsan_handle_sub_overflow
// CHECK: call void @__ubsan_handle_add_overflow
ring_kept_t circ_sanitized(unsigned long a, unsigned long b, ring_kept_t size)
{
	ring_kept_t d = a - b;
	if (a < b)
		d += size;
	return d;
}
