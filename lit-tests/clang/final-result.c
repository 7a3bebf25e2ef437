// final-result (llvm-pass/idioms/FinalResult.h): the steps of one
// expression may wrap and wrap back; the final step's check tests the
// expression's true result, computed in 2N bits, and the inner steps'
// checks go. Identical at -O0 and -O2.
//
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -fsanitize-trap=all -Rpass=wrap-idiom \
// RUN:   -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK %s
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -S -emit-llvm %s -o - | FileCheck --check-prefix=IR %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -mllvm -wrap-idiom-disable=final-result \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=DISABLED %s
// DISABLED-NOT: final-result (
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -save-stats=obj -c %s -o %t/final.o
// RUN: FileCheck --check-prefix=STATS %s < %t/final-result.stats
// STATS-DAG: "wrap-idiom.NumIdiomFinalResult": 7,
// STATS-DAG: "wrap-idiom.NumRecheckFinalResult": 8,

typedef unsigned long u64;
struct resource { u64 start, end; };

// resource_size() of an empty resource (end = start - 1): the sub wraps,
// the + 1 wraps back to 0. The re-check computes the whole in 128 bits,
// and reports where a step's own check would (the add's or the sub's
// overflow bit) and the whole does not fit.
// IR-LABEL: define {{.*}} @resource_size(
// IR: [[SUB:%[0-9]+]] = call { i64, i1 } @llvm.usub.with.overflow.i64({{.*}}), !nosanitize {{.*}}, !wrap.idiom ![[F:[0-9]+]]
// IR: [[R:%[0-9]+]] = call { i64, i1 } @llvm.uadd.with.overflow.i64({{.*}}), !nosanitize {{.*}}, !wrap.idiom ![[F]]
// IR-NEXT: [[OV:%.*]] = extractvalue { i64, i1 } [[R]], 1, !nosanitize
// IR-NEXT: [[E:%.*]] = zext i64 {{.*}} to i128, !nosanitize
// IR-NEXT: [[S:%.*]] = zext i64 {{.*}} to i128, !nosanitize
// IR-NEXT: [[D:%.*]] = sub i128 [[E]], [[S]], !nosanitize
// IR-NEXT: [[T:%.*]] = add i128 [[D]], 1, !nosanitize
// IR-NEXT: [[H:%.*]] = lshr i128 [[T]], 64, !nosanitize
// IR-NEXT: [[OUT:%.*]] = icmp ne i128 [[H]], 0, !nosanitize
// IR-NEXT: [[SOV:%.*]] = extractvalue { i64, i1 } [[SUB]], 1, !nosanitize
// IR-NEXT: [[ANY:%.*]] = or i1 [[OV]], [[SOV]], !nosanitize
// IR-NEXT: and i1 [[ANY]], [[OUT]], !nosanitize
// REMARK: final-result.c:[[@LINE+2]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on sub: final-result (its value reaches nothing but the next step
// REMARK: final-result.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on add: final-result
u64 resource_size(const struct resource *r) { return r->end - r->start + 1; }

// round_up(0, 8): (0 - 1) | 7 is all ones, + 1 is 0 again.
#define round_up(x, y) ((((x)-1) | ((__typeof__(x))((y)-1)))+1)
// REMARK: final-result.c:[[@LINE+2]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on sub: final-result
// REMARK: final-result.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on add: final-result
u64 up8(u64 x) { return round_up(x, 8UL); }

// The maple tree's free area: min + gap - 1 with min + gap = 2^64 (an area
// ending at ULONG_MAX), max - size + 1 with max - size below 0.
// REMARK: final-result.c:[[@LINE+2]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: final-result
// REMARK: final-result.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on sub: final-result
u64 gap_max(u64 min, u64 gap) { return min + gap - 1; }
// REMARK: final-result.c:[[@LINE+2]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on sub: final-result
// REMARK: final-result.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on add: final-result
u64 area_index(u64 max, u64 size) { return max - size + 1; }

// xarray's top node: 64 << 58 is 2^64, which the shift loses; - 1 brings
// the last index back, ULONG_MAX.
// REMARK: final-result.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on sub: final-result
u64 node_max(unsigned char shift) { return (64UL << shift) - 1; }

// Three steps, through a local: a - b + c - d.
// REMARK: final-result.c:[[@LINE+4]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on sub: final-result
// REMARK: final-result.c:[[@LINE+3]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: final-result
// REMARK: final-result.c:[[@LINE+3]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on sub: final-result
u64 steps(u64 a, u64 b, u64 c, u64 d) {
	u64 t = a - b + c;
	return t - d;
}

// Still reported where it does not come back: the end of an empty
// resource at 0 (0 + 0 - 1). Must keep plain: a negative mask ends the
// tree (round_down(0 - 1, 8): -8 or 2^64 - 8 by reading; `0 - 1` keeps its
// check), an inner value also used elsewhere (d is returned beside
// d + 1), a product of two full unsigned values (2^128 does not fit the
// signed 128 bits: the ranges of the steps, ConstantRange). A shift by a
// variable of a full value fits (below 2^127) and is a step.
// REMARK: final-result.c:[[@LINE+2]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: final-result
// REMARK: final-result.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on sub: final-result
u64 end_of(u64 base, u64 size) { return base + size - 1; }
// REMARK: final-result.c:[[@LINE+2]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub
// REMARK: final-result.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
u64 down_then(u64 x) { return ((x - 1) & ~7UL) + 8; }
// REMARK: final-result.c:[[@LINE+2]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub
// REMARK: final-result.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
u64 used_twice(u64 a, u64 b, u64 *out) { u64 d = a - b; *out = d; return d + 1; }
// REMARK: final-result.c:[[@LINE+2]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on mul
// REMARK: final-result.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub
u64 wide_product(u64 a, u64 b) { return a * b - 1; }
// REMARK: final-result.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on sub: final-result
u64 wide_shift(u64 x, unsigned char s) { return (x << s) - 1; }

// IR: ![[F]] = !{!"final-result"}
