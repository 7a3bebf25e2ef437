// sign-guard (llvm-pass/WrappedRange.h): x - y with y known to be at most
// 2^(N-1) wraps into [2^N - y, 2^N - 1], which is negative as signed, so a
// sign test sends every wrapped run one way; when that side never uses the
// difference, the check goes. Beside each, the counterexamples that must
// keep it. Same decisions at -O0 and -O2.
//
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK --implicit-check-not=remark: %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK --implicit-check-not=remark: %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -S -emit-llvm %s -o - | FileCheck --check-prefix=IR %s
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -mllvm -wrap-idiom-disable=sign-guard \
// RUN:   -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=DISABLED %s

typedef unsigned long pgoff_t;
typedef unsigned long u64;
void use(long);
void warn(void);

#define max_t(type, x, y) ({ type __x = (x); type __y = (y); __x > __y ? __x : __y; })

// mm/filemap.c do_sync_mmap_readahead(): read-around starts half a window
// before the fault, or at 0. ra_pages is an unsigned int, so its half is
// below 2^31: a wrapped difference is negative and max_t() picks 0.
struct file_ra_state { pgoff_t start; unsigned int ra_pages; };
// IR-LABEL: define {{.*}} @read_around(
// IR-NOT: __ubsan_handle
// IR: ret
void read_around(struct file_ra_state *ra, pgoff_t pgoff)
{
	ra->start = max_t(long, 0, pgoff - ra->ra_pages / 2); // REMARK: sign-guard.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on sub: sign-guard
}
// DISABLED: kept unsigned-integer-overflow check on sub: idiom sign-guard is disabled by -wrap-idiom-disable

// A signed lag behind a 32-bit count: negative means "not yet".
int lag(u64 now, unsigned int back)
{
	long d = now - back; // REMARK: sign-guard.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on sub: sign-guard
	if (d < 0)
		return 0;
	use(d);
	return 1;
}

// The bound from a dominating test of the subtrahend.
int lag_checked(u64 now, u64 back)
{
	long d;
	if (back > 4096)
		return -22;
	d = now - back; // REMARK: sign-guard.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on sub: sign-guard
	if (d <= 0)
		return 0;
	use(d);
	return 1;
}

// Exactly half the range: every wrapped difference is still negative.
int half(u64 now, u64 back)
{
	long d = now - (back & (1UL << 63)); // REMARK: sign-guard.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on sub: sign-guard
	if (d < 0)
		return 0;
	use(d);
	return 1;
}

// Must keep: update_rq_clock()'s shape, a subtrahend of any value (0 - 2^63
// - 1 wraps to 2^63 - 1, positive).
int lag_any(u64 now, u64 back)
{
	long d = now - back; // REMARK: sign-guard.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on sub: the difference is sign-tested as in serial-number arithmetic, but also used: a wrap by 2^63 or more passes the test and reaches that use
	if (d < 0)
		return 0;
	use(d);
	return 1;
}

// Must keep: one more than half (0 - (2^63 + 1) is 2^63 - 1).
int over_half(u64 now, u64 back)
{
	long d = now - (back & ((1UL << 63) | 1)); // REMARK: sign-guard.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on sub:
	if (d < 0)
		return 0;
	use(d);
	return 1;
}

// Must keep: the difference used on the negative side.
int wrong_side(u64 now, unsigned int back)
{
	long d = now - back; // REMARK: sign-guard.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on sub: the difference is used by 'call' on the wrap path
	if (d < 0)
		use(d);
	return 0;
}

// Must keep: the negative side only warns and falls through to the use.
int warns(u64 now, unsigned int back)
{
	long d = now - back; // REMARK: sign-guard.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on sub:
	if (d < 0)
		warn();
	use(d);
	return 0;
}

// Must keep: min_t() picks the difference where it is negative.
#define min_t(type, x, y) ({ type __x = (x); type __y = (y); __x < __y ? __x : __y; })
void read_around_min(struct file_ra_state *ra, pgoff_t pgoff)
{
	ra->start = min_t(long, 0, pgoff - ra->ra_pages / 2); // REMARK: sign-guard.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on sub:
}
