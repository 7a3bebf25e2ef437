// circular-difference through clang (llvm-pass/idioms/CircularDifference.cpp): the
// circular-buffer distance of fs/jbd2 and its kin. The difference's check
// goes, the correcting addition's is re-checked (reported when it does not
// carry), identically at -O0 and -O2, in every handler form; the handler
// call stays. lit-tests/opt/circular-difference.ll has the exact IR and the
// select form; lit-tests/runtime the runs.
//
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -S -emit-llvm %s -o - \
// RUN:   | FileCheck --check-prefixes=CHECK,O0 %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -S -emit-llvm %s -o - \
// RUN:   | FileCheck --check-prefixes=CHECK,O2 %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -fsanitize-trap=all -S -emit-llvm %s -o - \
// RUN:   | FileCheck --check-prefix=TRAP %s
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -fsanitize-minimal-runtime -S -emit-llvm %s -o - \
// RUN:   | FileCheck --check-prefix=MIN %s
// The same remarks at -O0 and -O2:
// RUN: %clang_plugin -O0 -fsanitize=signed-integer-overflow,unsigned-integer-overflow -Rpass=wrap-idiom \
// RUN:   -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK %s
// RUN: %clang_plugin -O2 -fsanitize=signed-integer-overflow,unsigned-integer-overflow -Rpass=wrap-idiom \
// RUN:   -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK %s
// Statistics, at both levels:
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -save-stats=obj -c %s -o %t/circular-difference.o
// RUN: FileCheck --check-prefix=STATS %s < %t/circular-difference.stats
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -save-stats=obj -c %s -o %t/circular-difference.o
// RUN: FileCheck --check-prefix=STATS %s < %t/circular-difference.stats
// STATS-DAG: "wrap-idiom.NumIdiomCircularDifference": 6,
// STATS-DAG: "wrap-idiom.NumRecheckCircularDifference": 6,
// STATS-DAG: "wrap-idiom.NumChecksRechecked": 6,

#define unlikely(x) __builtin_expect(!!(x), 0)
extern void sink(unsigned long);

struct journal {
	unsigned long j_tail, j_first, j_last, j_free;
	unsigned long j_max_transaction_buffers;
};

// fs/jbd2/journal.c __jbd2_update_log_tail(): `journal->j_tail` read twice,
// one value (nothing writes it in between). j_last - j_first and
// j_free += freed keep their plain checks.
// At -O0 the sub's branch always passes and the add's reads the new
// condition; at -O2 the optimiser folds both: no sub check left, and the
// add's handler runs when the overflow bit is *clear*.
// CHECK-LABEL: define {{.*}} @update_log_tail(
// O0: call { i64, i1 } @llvm.usub.with.overflow.i64({{.*}}), {{.*}}!wrap.idiom ![[CIRC:[0-9]+]]
// O0: br i1 true
// O2-NOT: @llvm.usub.with.overflow.i64(i64 %1,
// CHECK: [[ADD:%[0-9]+]] = {{(tail )?}}call { i64, i1 } @llvm.uadd.with.overflow.i64({{.*}}), {{.*}}!wrap.idiom ![[CIRC:[0-9]+]]
// O0-NEXT: [[OV:%[0-9]+]] = extractvalue { i64, i1 } [[ADD]], 1, !nosanitize
// O0-NEXT: {{%[0-9]+}} = xor i1 [[OV]], true, !nosanitize
// O2-NEXT: [[OV:%[0-9]+]] = extractvalue { i64, i1 } [[ADD]], 1, !nosanitize
// O2: br i1 [[OV]], label %{{[0-9]+}}, label %[[HANDLER:[0-9]+]]
// O2: [[HANDLER]]:
// CHECK: call void @__ubsan_handle_add_overflow(
// TRAP-LABEL: define {{.*}} @update_log_tail(
// TRAP: [[ADD:%[0-9]+]] = {{(tail )?}}call { i64, i1 } @llvm.uadd.with.overflow.i64({{.*}}), {{.*}}!wrap.idiom
// TRAP-NEXT: [[OV:%[0-9]+]] = extractvalue { i64, i1 } [[ADD]], 1, !nosanitize
// TRAP: br i1 [[OV]], label %{{[0-9]+}}, label %[[TRAP:[0-9]+]]
// TRAP: [[TRAP]]:
// TRAP-NEXT: call void @llvm.ubsantrap(i8 0)
// MIN-LABEL: define {{.*}} @update_log_tail(
// MIN: [[ADD:%[0-9]+]] = call { i64, i1 } @llvm.uadd.with.overflow.i64({{.*}}), {{.*}}!wrap.idiom
// MIN-NEXT: [[OV:%[0-9]+]] = extractvalue { i64, i1 } [[ADD]], 1, !nosanitize
// MIN-NEXT: {{%[0-9]+}} = xor i1 [[OV]], true, !nosanitize
// MIN: call void @__ubsan_handle_add_overflow_minimal(
// REMARK: circular-difference.c:[[@LINE+6]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on sub: circular-difference (the difference wraps exactly when the program's own a < b test says so
// REMARK: circular-difference.c:[[@LINE+7]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub
// REMARK: circular-difference.c:[[@LINE+6]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on add: circular-difference (the program adds the size back exactly when a < b
// REMARK: circular-difference.c:[[@LINE+6]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
void update_log_tail(struct journal *journal, unsigned long block)
{
	unsigned long freed = block - journal->j_tail;
	if (block < journal->j_tail)
		freed += journal->j_last - journal->j_first;
	journal->j_free += freed;
	journal->j_tail = block;
}

// fs/jbd2/commit.c: the distance kept in a long, compared signed after.
// CHECK-LABEL: define {{.*}} @commit_freed(
// CHECK: !wrap.idiom ![[CIRC]]
// O0: [[ADD:%[0-9]+]] = call { i{{32|64}}, i1 } @llvm.uadd.with.overflow.i{{32|64}}({{.*}}), {{.*}}!wrap.idiom ![[CIRC]]
// O0-NEXT: [[OV:%[0-9]+]] = extractvalue { i{{32|64}}, i1 } [[ADD]], 1, !nosanitize
// O0-NEXT: {{%[0-9]+}} = xor i1 [[OV]], true, !nosanitize
// REMARK: circular-difference.c:[[@LINE+4]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on sub: circular-difference
// REMARK: circular-difference.c:[[@LINE+5]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on add: circular-difference
int commit_freed(struct journal *journal, unsigned long first_block)
{
	long freed = first_block - journal->j_tail;
	if (first_block < journal->j_tail)
		freed += journal->j_last - journal->j_first;
	return freed < (long)journal->j_max_transaction_buffers;
}

// Under unlikely(), the test written `b > a`.
// CHECK-LABEL: define {{.*}} @ring_used(
// O0: [[ADD:%[0-9]+]] = call { i{{32|64}}, i1 } @llvm.uadd.with.overflow.i{{32|64}}({{.*}}), {{.*}}!wrap.idiom ![[CIRC]]
// O0-NEXT: [[OV:%[0-9]+]] = extractvalue { i{{32|64}}, i1 } [[ADD]], 1, !nosanitize
// O0-NEXT: {{%[0-9]+}} = xor i1 [[OV]], true, !nosanitize
// REMARK: circular-difference.c:[[@LINE+4]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on sub: circular-difference
// REMARK: circular-difference.c:[[@LINE+5]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on add: circular-difference
unsigned long ring_used(unsigned long head, unsigned long tail, unsigned long size)
{
	unsigned long d = head - tail;
	if (unlikely(tail > head))
		d += size;
	return d;
}

// `a >= b`, the size added in the else branch, on the left.
// CHECK-LABEL: define {{.*}} @ge_else(
// O0: [[ADD:%[0-9]+]] = call { i{{32|64}}, i1 } @llvm.uadd.with.overflow.i{{32|64}}({{.*}}), {{.*}}!wrap.idiom ![[CIRC]]
// O0-NEXT: [[OV:%[0-9]+]] = extractvalue { i{{32|64}}, i1 } [[ADD]], 1, !nosanitize
// O0-NEXT: {{%[0-9]+}} = xor i1 [[OV]], true, !nosanitize
// REMARK: circular-difference.c:[[@LINE+4]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on sub: circular-difference
// REMARK: circular-difference.c:[[@LINE+6]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on add: circular-difference
unsigned long ge_else(unsigned long a, unsigned long b, unsigned long size)
{
	unsigned long d = a - b;
	if (a >= b)
		return d;
	return size + d;
}

// `?:` (clang emits branches and a phi at -O0 and -O2), 32 bits.
// CHECK-LABEL: define {{.*}} @ternary32(
// O0: call { i32, i1 } @llvm.usub.with.overflow.i32({{.*}}), {{.*}}!wrap.idiom ![[CIRC]]
// O0: [[ADD:%[0-9]+]] = call { i{{32|64}}, i1 } @llvm.uadd.with.overflow.i{{32|64}}({{.*}}), {{.*}}!wrap.idiom ![[CIRC]]
// O0-NEXT: [[OV:%[0-9]+]] = extractvalue { i{{32|64}}, i1 } [[ADD]], 1, !nosanitize
// O0-NEXT: {{%[0-9]+}} = xor i1 [[OV]], true, !nosanitize
// REMARK: circular-difference.c:[[@LINE+4]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on sub: circular-difference
// REMARK: circular-difference.c:[[@LINE+4]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on add: circular-difference
unsigned ternary32(unsigned a, unsigned b, unsigned size)
{
	unsigned d = a - b;
	return a < b ? d + size : d;
}

// A constant size (a ring of 4096 entries).
// CHECK-LABEL: define {{.*}} @ring_const(
// O0: [[ADD:%[0-9]+]] = call { i{{32|64}}, i1 } @llvm.uadd.with.overflow.i{{32|64}}({{.*}}), {{.*}}!wrap.idiom ![[CIRC]]
// O0-NEXT: [[OV:%[0-9]+]] = extractvalue { i{{32|64}}, i1 } [[ADD]], 1, !nosanitize
// O0-NEXT: {{%[0-9]+}} = xor i1 [[OV]], true, !nosanitize
// REMARK: circular-difference.c:[[@LINE+4]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on sub: circular-difference
// REMARK: circular-difference.c:[[@LINE+5]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on add: circular-difference
unsigned long ring_const(unsigned long head, unsigned long tail)
{
	unsigned long d = head - tail;
	if (head < tail)
		d += 4096;
	return d;
}

// Must keep, both plain: the difference also passed on the wrap side; a
// test of another value; `a <= b` (a == b takes that side unwrapped); the
// size added where nothing wrapped; the difference stored before the
// test; the difference read after the sides join.
// CHECK-LABEL: define {{.*}} @used_before_add(
// CHECK-NOT: circular
// CHECK: ret
// REMARK: circular-difference.c:[[@LINE+4]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub: {{.*}}circular-difference: the wrapped difference also reaches 'call' besides its correction
// REMARK: circular-difference.c:[[@LINE+6]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
unsigned long used_before_add(unsigned long a, unsigned long b, unsigned long size)
{
	unsigned long d = a - b;
	if (a < b) {
		sink(d);
		d += size;
	}
	return d;
}
// CHECK-LABEL: define {{.*}} @other_test(
// CHECK-NOT: circular
// CHECK: ret
// REMARK: circular-difference.c:[[@LINE+4]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub
// REMARK: circular-difference.c:[[@LINE+5]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
unsigned long other_test(unsigned long a, unsigned long b, unsigned long c, unsigned long size)
{
	unsigned long d = a - b;
	if (a < c)
		d += size;
	return d;
}
// CHECK-LABEL: define {{.*}} @le_test(
// CHECK-NOT: circular
// CHECK: ret
// REMARK: circular-difference.c:[[@LINE+4]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub
// REMARK: circular-difference.c:[[@LINE+5]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
unsigned long le_test(unsigned long a, unsigned long b, unsigned long size)
{
	unsigned long d = a - b;
	if (a <= b)
		d += size;
	return d;
}
// CHECK-LABEL: define {{.*}} @wrong_side(
// CHECK-NOT: circular
// CHECK: ret
// REMARK: circular-difference.c:[[@LINE+4]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub
// REMARK: circular-difference.c:[[@LINE+5]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
unsigned long wrong_side(unsigned long a, unsigned long b, unsigned long size)
{
	unsigned long d = a - b;
	if (a >= b)
		d += size;
	return d;
}
// CHECK-LABEL: define {{.*}} @stored_first(
// CHECK-NOT: circular
// CHECK: ret
// REMARK: circular-difference.c:[[@LINE+4]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub: {{.*}}circular-difference: the difference reaches 'store' where the program has not tested a < b
// REMARK: circular-difference.c:[[@LINE+6]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
unsigned long stored_first(unsigned long *last, unsigned long a, unsigned long b, unsigned long size)
{
	unsigned long d = a - b;
	*last = d;
	if (a < b)
		d += size;
	return d;
}
// CHECK-LABEL: define {{.*}} @read_after_join(
// CHECK-NOT: circular
// CHECK: ret
// REMARK: circular-difference.c:[[@LINE+4]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub: {{.*}}circular-difference: the difference reaches 'call' where the program has not tested a < b
// REMARK: circular-difference.c:[[@LINE+6]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
unsigned long read_after_join(unsigned long a, unsigned long b, unsigned long size)
{
	unsigned long d = a - b;
	unsigned long r = d;
	if (a < b)
		r = d + size;
	sink(d);
	return r;
}

// CHECK: ![[CIRC]] = !{!"circular-difference"}
