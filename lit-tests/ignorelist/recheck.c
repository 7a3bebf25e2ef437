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
