// Signed file ranges (loff_t): a signed sum or difference wraps across the
// sign, so with one operand's sign known (a dominating test, before or
// after the sum) every wrapped run answers a sign test of the result the
// same way: `endbyte < 0` is a test to leave by (guarded-use,
// bounds-and-wrap). With both signs known only wrapped runs answer it so,
// and it may stand for the check (add-compare). Decisions are the same at
// -O0 and -O2.
//
// RUN: %clang_plugin -O0 -fno-strict-overflow -mllvm -wrap-idiom-signed-wrap -fsanitize=signed-integer-overflow \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang_plugin -O2 -fno-strict-overflow -mllvm -wrap-idiom-signed-wrap -fsanitize=signed-integer-overflow \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang_plugin -O2 -fno-strict-overflow -mllvm -wrap-idiom-signed-wrap -fsanitize=signed-integer-overflow \
// RUN:   -S -emit-llvm %s -o - | FileCheck --check-prefix=IR %s

typedef long long loff_t;
extern int do_range(loff_t a, loff_t b);
extern void sink(loff_t);

// fs/sync.c sync_file_range(): the operands tested after the sum.
// IR-LABEL: define {{.*}} @sync_range(
// IR-NOT: __ubsan_handle_add_overflow
// IR: ret i32
int sync_range(loff_t offset, loff_t nbytes)
{
	loff_t endbyte;
	int ret = -22;
	// CHECK: sign-test.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed signed-integer-overflow check on add: guarded-use
	endbyte = offset + nbytes;
	if (offset < 0)
		goto out;
	if (endbyte < 0)
		goto out;
	if (endbyte < offset)
		goto out;
	ret = do_range(offset, endbyte);
out:
	return ret;
}

// The old loff_t checks of fallocate(): a bound, then the sign, by ||.
int falloc(loff_t max, loff_t offset, loff_t len)
{
	if (offset < 0 || len <= 0)
		return -22;
	// CHECK: sign-test.c:[[@LINE+2]]:{{[0-9]+}}: remark: removed signed-integer-overflow check on add: bounds-and-wrap
	// CHECK: sign-test.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed signed-integer-overflow check on add: add-compare
	if (((offset + len) > max) || ((offset + len) < 0))
		return -27;
	return do_range(offset, len);
}

// A difference: a >= 0 and b < 0 make `a - b` wrap only up.
int diff_both(loff_t a, loff_t b)
{
	if (a < 0 || b >= 0)
		return -22;
	// CHECK: sign-test.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed signed-integer-overflow check on sub: sub-compare
	return a - b < 0;
}

// Must keep: one sign known, and the sign test is all the sum meets (its
// outcome is the result: a negative len takes it too).
int keep_one_known(loff_t offset, loff_t len)
{
	if (offset < 0)
		return -22;
	// CHECK: sign-test.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept signed-integer-overflow check on add
	return offset + len < 0;
}

// Must keep: no sign known.
int keep_unknown(loff_t offset, loff_t len)
{
	// CHECK: sign-test.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept signed-integer-overflow check on add
	loff_t end = offset + len;
	if (end < 0)
		return -22;
	sink(end);
	return 0;
}

// Must keep: the side that leaves is the one wrapped runs do not take.
int keep_wrong_side(loff_t offset, loff_t len)
{
	if (offset < 0)
		return -22;
	// CHECK: sign-test.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept signed-integer-overflow check on add
	loff_t end = offset + len;
	if (end >= 0)
		return -22;
	sink(end);
	return 0;
}

// Must keep: `end < 1` is no sign test (0 is not negative).
int keep_not_sign(loff_t offset, loff_t len)
{
	if (offset < 0 || len < 0)
		return -22;
	// CHECK: sign-test.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept signed-integer-overflow check on add
	loff_t end = offset + len;
	if (end < 1)
		return -22;
	sink(end);
	return 0;
}

// Must keep: a wrap down lands with the non-negative differences, the ones
// the sign test lets through: a = LLONG_MIN, b = 4096 returns 0 where the
// true difference is negative.
int keep_wrap_down(loff_t a, loff_t b)
{
	if (b < 0)
		return -22;
	// CHECK: sign-test.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept signed-integer-overflow check on sub
	loff_t d = a - b;
	if (d < 0)
		return 1;
	return 0;
}

// Must keep: the same for a sum with a negative addend, tested the other
// way round.
int keep_wrap_down_add(loff_t a, loff_t b)
{
	if (b >= 0)
		return -22;
	// CHECK: sign-test.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept signed-integer-overflow check on add
	loff_t s = a + b;
	if (s >= 0)
		return 0;
	return 1;
}

// One sign known, the sum wraps up to the negative results: the test
// handles the wrap when it keeps the sum from the use it guards...
int one_known_guards(loff_t a, loff_t b)
{
	if (b < 0)
		return -22;
	// CHECK: sign-test.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed signed-integer-overflow check on add: guarded-use
	loff_t s = a + b;
	if (s < 0) {
		sink(7);
		return -27;
	}
	return do_range(a, s);
}

// Must keep: ...not when its outcome is all the sum is for (a warning on
// a negative sum also warns on a wrapped one, a decision on the wrap).
int keep_one_known_no_use(loff_t a, loff_t b)
{
	if (b < 0)
		return -22;
	// CHECK: sign-test.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept signed-integer-overflow check on add: {{.*}}its other side reaches no use of the sum
	loff_t s = a + b;
	if (-1 >= s)
		sink(7);
	return 0;
}

// The same as a select: it handles the wrap when it picks the sum on the
// other side...
loff_t one_known_picks(loff_t a, loff_t b)
{
	if (b < 0)
		return -22;
	// CHECK: sign-test.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed signed-integer-overflow check on add: guarded-use
	loff_t s = a + b;
	return s < 0 ? -27 : s;
}

// Must keep: ...not when it picks two constants (its outcome is all the
// sum is for).
int keep_one_known_select_no_use(loff_t a, loff_t b)
{
	if (b < 0)
		return -22;
	// CHECK: sign-test.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept signed-integer-overflow check on add
	loff_t s = a + b;
	return s < 0 ? -27 : 0;
}
