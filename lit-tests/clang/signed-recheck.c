// Re-checks through clang (llvm-pass/SignedRecheck.h): the plain unsigned
// check of an add/sub that only encodes a signed quantity is replaced by
// the check of that meaning, identically at -O0 and -O2, in every handler
// form; the handler call stays. lit-tests/opt/signed-recheck.ll has the
// exact IR; lit-tests/runtime the runs.
//
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -S -emit-llvm %s -o - \
// RUN:   | FileCheck --check-prefixes=CHECK,O0 %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -S -emit-llvm %s -o - \
// RUN:   | FileCheck --check-prefixes=CHECK,O2 %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -fsanitize-trap=all -S -emit-llvm %s -o - \
// RUN:   | FileCheck --check-prefixes=CHECK,O2 %s
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -fsanitize-minimal-runtime -S -emit-llvm %s -o - \
// RUN:   | FileCheck --check-prefixes=CHECK,O0 %s
// The same remarks at -O0 and -O2:
// RUN: %clang_plugin -O0 -fsanitize=signed-integer-overflow,unsigned-integer-overflow -Rpass=wrap-idiom \
// RUN:   -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK %s
// RUN: %clang_plugin -O2 -fsanitize=signed-integer-overflow,unsigned-integer-overflow -Rpass=wrap-idiom \
// RUN:   -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK %s
// Statistics:
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -save-stats=obj -c %s -o %t/recheck.o
// RUN: FileCheck --check-prefix=STATS %s < %t/signed-recheck.stats
// STATS-DAG: "wrap-idiom.NumChecksRechecked": 10,
// STATS-DAG: "wrap-idiom.NumRecheckSignedOffset": 7,
// STATS-DAG: "wrap-idiom.NumRecheckSignedDifference": 3,
// STATS-DAG: "wrap-idiom.NumIdiomSerialCompare": 1,
// STATS-DAG: "wrap-idiom.NumIdiomDeadValue": 1,

typedef unsigned long size_t;
extern void sink(unsigned long);

// CHECK-LABEL: define {{.*}} @add_off(
// CHECK: [[R:%[0-9]+]] = {{(tail )?}}call { i64, i1 } @llvm.uadd.with.overflow.i64({{.*}}), {{.*}}!wrap.idiom ![[OFF:[0-9]+]]
// O0-NEXT: [[OV:%[0-9]+]] = extractvalue { i64, i1 } [[R]], 1, !nosanitize
// O0-NEXT: [[NEG:%[0-9]+]] = icmp slt i64 %{{[0-9]+}}, 0, !nosanitize
// O0-NEXT: xor i1 [[OV]], [[NEG]], !nosanitize
// O2: icmp sgt i32 %{{[0-9]+}}, -1
// CHECK: {{__ubsan_handle_add_overflow|llvm.ubsantrap}}
// REMARK: signed-recheck.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on add: signed-offset (the other operand is a narrower signed value
size_t add_off(size_t x, int off) { return x + off; }

// `x += delta`, stored: the stored value is the true result whenever the
// re-check is silent.
// CHECK-LABEL: define {{.*}} @move(
// CHECK: !wrap.idiom ![[OFF]]
// REMARK: signed-recheck.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on sub: signed-offset
void move(size_t *pos, signed char delta) { *pos -= delta; }

// Through a local as wide as x that holds the sign-extended value: the
// decision sees the sext on the promoted function; at -O0 the condition
// tests the sign of the loaded operand, the same value.
// CHECK-LABEL: define {{.*}} @via_local(
// CHECK: [[R:%[0-9]+]] = {{(tail )?}}call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 [[X:%[0-9]+]], i64 [[O:%[0-9]+]]), {{.*}}!wrap.idiom ![[OFF]]
// O0-NEXT: [[OV:%[0-9]+]] = extractvalue { i64, i1 } [[R]], 1, !nosanitize
// O0-NEXT: [[NEG:%[0-9]+]] = icmp slt i64 [[O]], 0, !nosanitize
// REMARK: signed-recheck.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on add: signed-offset
size_t via_local(size_t x, int off) { long o = off; return x + o; }

// CHECK-LABEL: define {{.*}} @back(
// CHECK: !wrap.idiom ![[OFF]]
// REMARK: signed-recheck.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on add: signed-offset
size_t back(size_t x, short off) { return off + x; }

// Two sign extensions, one of a value known non-negative (`!flag` is 0 or
// 1): that one is an unsigned value, the other the signed offset
// (kernel/rcu/srcutree.c, try_check_zero(): `(--trycount + curdelay) <= 0`
// with `curdelay = !srcu_get_delay(ssp)`, an unsigned long).
// CHECK-LABEL: define {{.*}} @count_down(
// CHECK: !wrap.idiom ![[OFF]]
// REMARK: signed-recheck.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on add: signed-offset
int count_down(int n, int flag) { size_t c = !flag; return (n + c) <= 0; }
// CHECK-LABEL: define {{.*}} @masked_first(
// CHECK: !wrap.idiom ![[OFF]]
// REMARK: signed-recheck.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on sub: signed-offset
size_t masked_first(int v, int off) { return (size_t)(v & 0xffff) - off; }

// CHECK-LABEL: define {{.*}} @later(
// CHECK: [[R:%[0-9]+]] = {{(tail )?}}call { i64, i1 } @llvm.usub.with.overflow.i64({{.*}}), {{.*}}!wrap.idiom ![[DIFF:[0-9]+]]
// O0: [[D:%[0-9]+]] = extractvalue { i64, i1 } [[R]], 0, !nosanitize
// O0-NEXT: [[NEG:%[0-9]+]] = icmp slt i64 [[D]], 0, !nosanitize
// O0-NEXT: xor i1 %{{[0-9]+}}, [[NEG]], !nosanitize
// CHECK: {{__ubsan_handle_sub_overflow|llvm.ubsantrap}}
// REMARK: signed-recheck.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on sub: signed-difference (every use reads the difference as signed
int later(size_t a, size_t b, long lim) { long d = a - b; return d < lim; }

// max_t(long, d, lim) compared: through the select.
// CHECK-LABEL: define {{.*}} @clamp(
// CHECK: !wrap.idiom ![[DIFF]]
// REMARK: signed-recheck.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on sub: signed-difference
int clamp(size_t a, size_t b, long lim) { long d = a - b; long m = d > lim ? d : lim; return m > 100; }

// Removal has priority: only the sign is tested (serial-compare), the sum
// is never read (dead-value).
// CHECK-LABEL: define {{.*}} @after(
// CHECK-NOT: !wrap.idiom ![[DIFF]]
// CHECK: ret
// REMARK: signed-recheck.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on sub: serial-compare
int after(size_t a, size_t b) { return (long)(a - b) < 0; }
// REMARK: signed-recheck.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: dead-value
void unused(size_t x, int off) { size_t s = x + off; (void)s; }

// Must keep: the difference also stored or returned, an unsigned
// operand, an operand of unknown sign of the same width.
// CHECK-LABEL: define {{.*}} @stored(
// CHECK-NOT: !wrap.idiom
// CHECK: ret
// REMARK: signed-recheck.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub
int stored(size_t a, size_t b) { long d = a - b; sink(d); return d < 0; }
// CHECK-LABEL: define {{.*}} @returned(
// CHECK-NOT: !wrap.idiom
// CHECK: ret
// REMARK: signed-recheck.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub
long returned(size_t a, size_t b) { return a - b; }
// An arithmetic shift right is the sign extension of a narrower value:
// PHYS_PFN(adj_start) of a long, cast to unsigned long by the macro
// (mm/vma.c's commit_merge()). A logical shift is no such thing.
// REMARK: signed-recheck.c:[[@LINE+2]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on add: signed-offset
#define PHYS_PFN(x) ((unsigned long)((x) >> 12))
void pfn_adjust(size_t *pgoff, long adj_start) { *pgoff += PHYS_PFN(adj_start); }
// REMARK: signed-recheck.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
size_t lshr_adjust(size_t x, size_t b) { return x + (b >> 12); }

// CHECK-LABEL: define {{.*}} @add_zext(
// CHECK-NOT: !wrap.idiom
// CHECK: ret
// REMARK: signed-recheck.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
size_t add_zext(size_t x, unsigned off) { return x + off; }
// CHECK-LABEL: define {{.*}} @add_long(
// CHECK-NOT: !wrap.idiom
// CHECK: ret
// REMARK: signed-recheck.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
size_t add_long(size_t x, long off) { return x + off; }
// Two sign extensions of values of unknown sign: -1 + -1 leaves the range
// and ov ^ neg cannot say so.
// CHECK-LABEL: define {{.*}} @two_signed(
// CHECK-NOT: !wrap.idiom
// CHECK: ret
// REMARK: signed-recheck.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
size_t two_signed(int a, int b) { return (size_t)a + b; }
// The minuend a sign extension of unknown sign: kept.
// CHECK-LABEL: define {{.*}} @signed_minuend(
// CHECK-NOT: !wrap.idiom
// CHECK: ret
// REMARK: signed-recheck.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub
size_t signed_minuend(int v, int off) { return (size_t)v - off; }
// Only tested for equality: no signed reading. The kernel's `regs->ip -
// INT3_INSN_SIZE != selftest` (arch/x86/kernel/alternative.c) with an
// address whose top bit is set has no borrow but a set sign bit: as a
// signed difference it would be reported, wrongly (seen in a boot).
// CHECK-LABEL: define {{.*}} @eq_only(
// CHECK-NOT: !wrap.idiom
// CHECK: ret
// REMARK: signed-recheck.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub
int eq_only(size_t ip, size_t sel) { return ip - 1 != sel; }
// ... but beside a signed read it is fine: re-checked.
// CHECK-LABEL: define {{.*}} @eq_and_sign(
// CHECK: !wrap.idiom ![[DIFF]]
// REMARK: signed-recheck.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on sub: signed-difference
int eq_and_sign(size_t a, size_t b) { long d = a - b; if (!d) return 1; return d < 7; }
// A constant is no signed offset (clang folds `x + (-64)` to the
// constant `0xffffffffffffffc0UL` would give):
// CHECK-LABEL: define {{.*}} @add_minus(
// CHECK-NOT: !wrap.idiom
// CHECK: ret
// REMARK: signed-recheck.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
size_t add_minus(size_t x) { return x + (-64); }
// Signed arithmetic keeps clang's own signed check:
// REMARK: signed-recheck.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept signed-integer-overflow check on add
long sadd(long x, int off) { return x + off; }

// CHECK-DAG: ![[OFF]] = !{!"signed-offset"}
// CHECK-DAG: ![[DIFF]] = !{!"signed-difference"}
