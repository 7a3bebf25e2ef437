// signed-meaning (llvm-pass/idioms/SignedMeaning.h): with
// -fsanitize=implicit-integer-sign-change, clang checks each sign-changing
// conversion on the value converted; the plugin reads those checks as
// facts about the C signedness of operands and results
// (analysis/ConversionFacts.h), re-checks the overflow check on the true
// result, and with -wrap-idiom-conversion-facts removes the conversion
// checks. Identical at -O0 and -O2 and in every handler form.
//
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow,implicit-integer-sign-change \
// RUN:   -mllvm -wrap-idiom-conversion-facts -S -emit-llvm %s -o - | FileCheck --check-prefixes=CHECK,O0 %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow,implicit-integer-sign-change \
// RUN:   -mllvm -wrap-idiom-conversion-facts -S -emit-llvm %s -o - | FileCheck --check-prefixes=CHECK,GONE %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow,implicit-integer-sign-change -fsanitize-trap=all \
// RUN:   -mllvm -wrap-idiom-conversion-facts -S -emit-llvm %s -o - | FileCheck --check-prefixes=TRAP %s
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow,implicit-integer-sign-change -fsanitize-minimal-runtime \
// RUN:   -mllvm -wrap-idiom-conversion-facts -S -emit-llvm %s -o - | FileCheck --check-prefixes=GONE %s
// The same remarks at -O0 and -O2, in every form:
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow,implicit-integer-sign-change -mllvm -wrap-idiom-conversion-facts \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow,implicit-integer-sign-change -mllvm -wrap-idiom-conversion-facts \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow,implicit-integer-sign-change -fsanitize-trap=all \
// RUN:   -mllvm -wrap-idiom-conversion-facts -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck --check-prefix=REMARK %s
// Without the conversion checks there are no facts: the plain checks stay.
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=NOFACTS %s
// Without -wrap-idiom-conversion-facts the user asked for the conversion
// checks: they are read, and they stay.
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow,implicit-integer-sign-change -S -emit-llvm %s -o - \
// RUN:   | FileCheck --check-prefix=KEPT %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow,implicit-integer-sign-change -Rpass=wrap-idiom \
// RUN:   -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK %s
// Statistics:
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow,implicit-integer-sign-change -mllvm -wrap-idiom-conversion-facts \
// RUN:   -save-stats=obj -c %s -o %t/meaning.o
// RUN: FileCheck --check-prefix=STATS %s < %t/signed-meaning.stats
// STATS: "wrap-idiom.NumChecksRechecked": 13,
// STATS: "wrap-idiom.NumIdiomFinalResult": 1,
// STATS: "wrap-idiom.NumRecheckFinalResult": 1,
// STATS: "wrap-idiom.NumRecheckSignedMeaning": 12,
//
// GONE-NOT: call void @__ubsan_handle_implicit_conversion
// TRAP-NOT: call void @llvm.ubsantrap(i8 7)
// KEPT: call void @__ubsan_handle_implicit_conversion
// NOFACTS-NOT: check on {{[a-z]+}}: signed-meaning
// NOFACTS: signed-meaning.c:{{[0-9]+}}:{{[0-9]+}}: remark: kept

typedef unsigned long size_t;
extern void sink(unsigned long);
extern void take_delta(long);

// unsigned long + long: the addend is a signed C value. The condition is
// clang's overflow bit and the true sum out of [0, 2^64), which, where the
// unsigned add carries, is the addend not being negative (no 128-bit
// arithmetic: SignedMeaning.cpp): the plugin excuses the wraps the C types
// make exact, it adds no report clang's check would not make.
// CHECK-LABEL: define {{.*}} @add_long(
// O0: [[R:%[0-9]+]] = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 [[X:%[0-9]+]], i64 [[D:%[0-9]+]]), !nosanitize {{.*}}, !wrap.idiom ![[M:[0-9]+]]
// O0-NEXT: [[OV:%.*]] = extractvalue { i64, i1 } [[R]], 1, !nosanitize
// O0-NEXT: [[SB:%.*]] = icmp slt i64 [[D]], 0, !nosanitize
// O0-NEXT: [[OUT:%.*]] = xor i1 [[SB]], true, !nosanitize
// O0-NEXT: and i1 [[OV]], [[OUT]], !nosanitize
// CHECK: __ubsan_handle_add_overflow
// REMARK: signed-meaning.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on add: signed-meaning
size_t add_long(size_t x, long d) { return x + d; }

// -nr passed to a long parameter (mm/vmscan.c's -nr_taken): the negation's
// result is read as signed: where 0 - nr borrows, the true -nr is a long
// exactly when the result is negative.
// CHECK-LABEL: define {{.*}} @neg_arg(
// O0: [[R:%.*]] = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 0, i64 {{.*}}), !nosanitize {{.*}}, !wrap.idiom ![[M]]
// O0-NEXT: [[OV:%.*]] = extractvalue { i64, i1 } [[R]], 1, !nosanitize
// O0-NEXT: [[V:%.*]] = extractvalue { i64, i1 } [[R]], 0, !nosanitize
// O0-NEXT: [[RS:%.*]] = icmp slt i64 [[V]], 0, !nosanitize
// O0-NEXT: [[OUT:%.*]] = xor i1 [[RS]], true, !nosanitize
// O0-NEXT: and i1 [[OV]], [[OUT]], !nosanitize
// REMARK: signed-meaning.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on negate: signed-meaning
void neg_arg(size_t nr) { take_delta(-nr); }

// long d = a - b: the difference is read as a long.
// CHECK-LABEL: define {{.*}} @diff_long(
// O0: !wrap.idiom ![[M]]
// REMARK: signed-meaning.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on sub: signed-meaning
long diff_long(size_t a, size_t b) { long d = a - b; return d; }

// it_overrun += hrtimer_forward(): clang checks only the conversion back to
// the long; the left side is loaded from where the long result goes.
// CHECK-LABEL: define {{.*}} @compound_long(
// O0: [[R:%[0-9]+]] = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 [[L:%[0-9]+]], i64 [[U:%[0-9]+]]), !nosanitize {{.*}}, !wrap.idiom ![[M]]
// O0-NEXT: extractvalue { i64, i1 } [[R]], 1, !nosanitize
// O0-NEXT: icmp slt i64 [[L]], 0, !nosanitize
// O0-NOT: i128
// REMARK: signed-meaning.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on add: signed-meaning
void compound_long(long *overrun, size_t n) { *overrun += n; }

// delta -= icsk_rto with an int delta (tcp_cwnd_restart()).
// REMARK: signed-meaning.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on sub: signed-meaning
void compound_int(int *delta, unsigned rto) { *delta -= rto; }

// A u32 difference returned as an int (skb_checksum_start_offset()).
// REMARK: signed-meaning.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on sub: signed-meaning
int diff_int(unsigned a, unsigned b) { return a - b; }

// pos += delta with a long field, the sum stored unsigned.
struct cursor { size_t pos; long delta; };
// REMARK: signed-meaning.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on add: signed-meaning
void offset_assign(struct cursor *c) { c->pos += c->delta; }

// An assignment's value used twice, by its store and by the test around
// it, both after the conversion (tcp_cwnd_restart(), fs/buffer.c).
// REMARK: signed-meaning.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on sub: signed-meaning
int restart(int delta, unsigned rto, int c) { while ((delta -= rto) > 0 && c) c >>= 1; return c; }
// REMARK: signed-meaning.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on sub: signed-meaning
long grow(size_t size) { long offset = 4096; int n = 0; while ((offset -= size) >= 0) n++; return n; }

// An explicit cast leaves no conversion check on the result
// (post_init_entity_util_avg(): `(long)(cpu_scale - util_avg) / 2`): with a
// signed operand and every use reading the result as signed (the sdiv),
// the true difference must fit a long.
// CHECK-LABEL: define {{.*}} @cast_signed(
// O0: [[R:%.*]] = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 [[S:%.*]], i64 {{.*}}), !nosanitize {{.*}}, !wrap.idiom ![[M]]
// O0-NEXT: [[OV:%.*]] = extractvalue { i64, i1 } [[R]], 1, !nosanitize
// O0-NEXT: [[SA:%.*]] = icmp slt i64 [[S]], 0, !nosanitize
// O0-NEXT: [[NA:%.*]] = xor i1 [[SA]], true, !nosanitize
// O0-NEXT: [[V:%.*]] = extractvalue { i64, i1 } [[R]], 0, !nosanitize
// O0-NEXT: [[RS:%.*]] = icmp slt i64 [[V]], 0, !nosanitize
// O0-NEXT: [[FITS:%.*]] = and i1 [[NA]], [[RS]], !nosanitize
// O0-NEXT: [[OUT:%.*]] = xor i1 [[FITS]], true, !nosanitize
// O0-NEXT: and i1 [[OV]], [[OUT]], !nosanitize
// REMARK: signed-meaning.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on sub: signed-meaning
long cast_signed(long scale, size_t util) { return (long)(scale - util) / 2; }
// The same cast read unsigned too (stored as a size_t): the result is
// re-checked as unsigned, a negative true difference reported.
// CHECK-LABEL: define {{.*}} @cast_unsigned(
// O0: [[R:%.*]] = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 {{.*}}), !nosanitize {{.*}}, !wrap.idiom ![[M]]
// O0-NEXT: [[OV:%.*]] = extractvalue { i64, i1 } [[R]], 1, !nosanitize
// O0-NEXT: [[E:%.*]] = extractvalue { i64, i1 } [[R]], 0, !nosanitize
// O0-NEXT: xor i1 [[OV]], true, !nosanitize
// REMARK: signed-meaning.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on sub: signed-meaning
long cast_unsigned(long scale, size_t util, size_t *out) { size_t d = scale - util; *out = d; return (long)d / 2; }

// A signed factor of an unsigned product (sched/fair.c's avg_vruntime():
// runtime += entity_key(cfs_rq, curr) * w, w an unsigned long): the
// product of a signed and an unsigned N-bit value fits 2N signed bits;
// alone it is re-checked, added to the long it is one expression with the
// sum (final-result), whose true result the sum's check tests.
// REMARK: signed-meaning.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on mul: signed-meaning
long key_times(long key, size_t w) { return key * w; }
// REMARK: signed-meaning.c:[[@LINE+2]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on mul: final-result
// REMARK: signed-meaning.c:[[@LINE+1]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on add: final-result
long key_weight(long runtime, long key, size_t w) { runtime += key * w; return runtime; }
// Two unsigned factors read as a long: 2N + 1 bits, no re-check.
// REMARK: signed-meaning.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on mul
long product_long(size_t a, size_t b) { long r = a * b; return r; }

// Must keep: both unsigned and read unsigned (no fact); the difference
// kept in an unsigned local, used unsigned, then converted (the conversion
// reads the local, not the operation's one consumer); picked by a
// conditional before the conversion (the conversion is the select's).
// CHECK-LABEL: define {{.*}} @plain(
// CHECK-NOT: !wrap.idiom
// CHECK: ret
// REMARK: signed-meaning.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub
size_t plain(size_t a, size_t b) { return a - b; }
// REMARK: signed-meaning.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub
size_t two_uses(size_t a, size_t b) { size_t d = a - b; sink(d); long s = d; take_delta(s); return d; }
// REMARK: signed-meaning.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub
long picked(size_t a, size_t b, int c) { long s = c ? a - b : 0; return s; }

// O0: ![[M]] = !{!"signed-meaning"}
