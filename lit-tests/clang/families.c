// Two operations, one test (llvm-pass/SumIdioms.h): end-inclusive and
// end-around-carry, each next to the counterexamples that must keep their
// checks. Same decisions at -O0 and -O2.
//
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK --implicit-check-not=remark: %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK --implicit-check-not=remark: %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -S -emit-llvm %s -o - | FileCheck --check-prefix=IR %s
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -mllvm -wrap-idiom-disable=final-result,end-inclusive,end-around-carry,rotate-fold,align-zero,signed-test \
// RUN:   -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=DISABLED %s

typedef unsigned long long u64;
typedef unsigned int u32;
void use(u64);

// block/ioctl.c's shape, with the length known non-zero: end is
// start + (len - 1), and `end < start` its exact wrap test.
// IR-LABEL: define {{.*}} @end_inclusive(
// IR-NOT: __ubsan_handle
// IR: ret
int end_inclusive(u64 start, u64 len)
{
	u64 end;
	if (!len)
		return -22;
	end = start + len - 1; // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: end-inclusive
	// REMARK: families.c:[[@LINE-1]]:{{.*}} removed unsigned-integer-overflow check on sub: end-inclusive
	if (end < start)
		return -22;
	use(end);
	return 0;
}
// DISABLED: kept unsigned-integer-overflow check on add: idiom end-inclusive is disabled by -wrap-idiom-disable

// Any constant the length is known to reach.
int end_minus_four(u64 start, u64 len)
{
	if (len < 4)
		return -22;
	return start + len - 4 < start; // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: end-inclusive
	// REMARK: families.c:[[@LINE-1]]:{{.*}} removed unsigned-integer-overflow check on sub: end-inclusive
}

// Must report: len may be 0 (start = 0, len = 0 wraps end to ~0, above
// start). Not end-inclusive; the two steps are one expression whose true
// result, -1 there, the sub's re-check reports (final-result).
int end_len_unknown(u64 start, u64 len)
{
	u64 end = start + len - 1; // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: final-result
	// REMARK: families.c:[[@LINE-1]]:{{.*}} re-checked unsigned-integer-overflow check on sub: final-result
	if (end < start)
		return -22;
	use(end);
	return 0;
}

// Must report: len >= 1 is not len >= 2 (not end-inclusive). The two
// steps are one expression: the sub's re-check reports the true result,
// start - 1 for len 1 and start 0 (final-result).
int end_minus_two(u64 start, u64 len)
{
	if (!len)
		return -22;
	return start + len - 2 < start; // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: final-result
	// REMARK: families.c:[[@LINE-1]]:{{.*}} re-checked unsigned-integer-overflow check on sub: final-result
}

// Must keep: the sum is used on its own too.
int end_sum_used(u64 start, u64 len)
{
	if (!len)
		return -22;
	u64 next = start + len; // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
	use(next);
	return next - 1 < start; // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on sub:
}

// include/net/checksum.h csum_add(): one's complement addition, the carry
// out added back in.
// IR-LABEL: define {{.*}} @csum_add(
// IR-NOT: __ubsan_handle
// IR: ret
u32 csum_add(u32 csum, u32 addend)
{
	u32 res = csum;
	res += addend; // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: end-around-carry
	return res + (res < addend); // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: end-around-carry
}
// DISABLED: kept unsigned-integer-overflow check on add: idiom end-around-carry is disabled by -wrap-idiom-disable

// The same in 64 bits, with the other addend compared.
u64 csum64(u64 a, u64 b)
{
	u64 s = a + b; // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: end-around-carry
	return s + (s < a); // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: end-around-carry
}

// Must keep: the test added back is not the wrap test (s > b).
u32 carry_wrong_test(u32 a, u32 b)
{
	u32 s = a + b; // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
	return s + (s > b); // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
}

// Must keep: the wrapped sum is also used on its own.
u32 carry_sum_used(u32 a, u32 b)
{
	u32 s = a + b; // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
	use(s);
	return s + (s < b); // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: end-around-carry
}

// lib/checksum.c csum_partial(): the branch form, the carry added back
// on the wrap side of the sum's exact wrap test.
// IR-LABEL: define {{.*}} @csum_branch(
// IR-NOT: __ubsan_handle
// IR: ret
u32 csum_branch(u32 result, u32 sum)
{
	result += sum; // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: end-around-carry
	if (sum > result)
		result += 1; // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: end-around-carry
	return result;
}

// The same, the test the other way round.
u32 csum_branch_ge(u32 result, u32 sum)
{
	result += sum; // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: end-around-carry
	if (result >= sum)
		return result;
	return result + 1; // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: end-around-carry
}

// Must keep: 1 added on the no-wrap side.
u32 carry_branch_wrong_side(u32 result, u32 sum)
{
	result += sum; // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
	if (sum <= result)
		result += 1; // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
	return result;
}

// Must keep: 2 added back, not the carry.
u32 carry_branch_two(u32 result, u32 sum)
{
	result += sum; // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
	if (sum > result)
		result += 2; // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
	return result;
}

// Must keep: the sum used before its test.
u32 carry_branch_used_first(u32 result, u32 sum)
{
	result += sum; // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
	use(result);
	if (sum > result) // result < sum: result + 1 cannot wrap
		result += 1; // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: cannot-wrap
	return result;
}

// arm64 csum_fold() (arch/arm64/include/asm/checksum.h): the sum of the
// word and its half turn holds hi +' lo, the one's complement sum, in its
// high half; the carry out of the top is the end-around carry already in.
// IR-LABEL: define {{.*}} @fold32(
// IR-NOT: __ubsan_handle
// IR: ret
unsigned short fold32(u32 sum)
{
	sum += (sum >> 16) | (sum << 16); // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: rotate-fold
	return ~(unsigned short)(sum >> 16);
}
// DISABLED: kept unsigned-integer-overflow check on add: idiom rotate-fold is disabled by -wrap-idiom-disable

// ip_fast_csum(): the other rotation order, the high half passed on.
void use32(u32);
void fold64(u64 sum)
{
	sum += (sum << 32) | (sum >> 32); // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: rotate-fold
	use32(sum >> 32);
}

// do_csum()'s 128-bit loop: folds feed folds through the high half only.
typedef unsigned __int128 u128;
u64 fold128(u128 a, u128 b)
{
	a += (a >> 64) | (a << 64); // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: rotate-fold
	a = ((a >> 64) << 64) | (b >> 64);
	a += (a >> 64) | (a << 64); // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: rotate-fold
	return a >> 64;
}

// Must keep: the sum is returned whole.
u32 fold_whole(u32 sum)
{
	sum += (sum >> 16) | (sum << 16); // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
	return sum;
}

// Must keep: bit 15, of the low half, is read.
u32 fold_reads_low(u32 sum)
{
	sum += (sum >> 16) | (sum << 16); // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
	return sum >> 15;
}

// Must keep: a quarter turn is no fold of halves.
u32 fold_quarter(u32 sum)
{
	sum += (sum >> 8) | (sum << 24); // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
	return sum >> 16;
}

// Must keep: the half turn of another word.
u32 fold_other(u32 a, u32 b)
{
	a += (b >> 16) | (b << 16); // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
	return a >> 16;
}

// mm/mmap.c do_mmap(): `len = PAGE_ALIGN(len); if (!len) return -ENOMEM;`.
// A wrapped len + 4095 is below 4095, so the mask makes it 0: every
// wrapped run takes the `!len` side, which leaves.
#define PAGE_ALIGN(x) (((x) + 4095) & ~4095ULL)
// IR-LABEL: define {{.*}} @align_zero(
// IR-NOT: __ubsan_handle
// IR: ret
int align_zero(u64 len)
{
	len = PAGE_ALIGN(len); // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: align-zero
	if (!len)
		return -12;
	use(len);
	return 0;
}
// DISABLED: kept unsigned-integer-overflow check on add: idiom align-zero is disabled by -wrap-idiom-disable

// A shift that keeps no bit of a wrapped (x + 7) either.
int round_bytes(u64 bits)
{
	u64 bytes = (bits + 7) >> 3; // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: align-zero
	if (bytes == 0)
		return -22;
	use(bytes);
	return 0;
}

// Must keep: no test of the aligned value.
int align_untested(u64 len)
{
	len = PAGE_ALIGN(len); // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum, masked or shifted, is used by 'call' before any wrap test
	use(len);
	return 0;
}

// Must keep: the test does not separate the wrapped value (0) from the
// rest; wrapped runs go on to use it.
int align_wrong_test(u64 len)
{
	len = PAGE_ALIGN(len); // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum, masked or shifted, is used by 'call' on the wrap path
	if (len == 4096)
		return -12;
	use(len);
	return 0;
}

// Must keep: the addend exceeds the alignment, so a wrapped sum can keep
// a bit the mask leaves (len + 8191 wraps to at most 8190; & ~4095 gives
// 0 or 4096), and `!v` misses the second.
int align_short_mask(u64 len)
{
	u64 v = (len + 8191) & ~4095ULL; // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
	if (!v)
		return -12;
	use(v);
	return 0;
}

// Must keep: one more than the alignment mask. The largest wrapped sum,
// ~0 + 4097, is exactly 4096, which the mask keeps.
int align_one_over(u64 len)
{
	u64 v = (len + 4097) & ~4095ULL; // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
	if (!v)
		return -12;
	use(v);
	return 0;
}

// mm/fadvise.c: the sum saturates on its wrap side instead of leaving; the
// wrapped value is dead there, which guarded-use already proves.
typedef long long loff_t;
int fadvise_end(loff_t offset, loff_t len)
{
	u64 endbyte = (u64)offset + (u64)len; // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: guarded-use
	if (!len || endbyte < len)
		endbyte = 0x7fffffffffffffffLL;
	else
		endbyte--; // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on sub:
	use(endbyte);
	return 0;
}

// include/linux/jiffies.h: time_after(jiffies, start + timeout) is
// (long)((start + timeout) - jiffies) < 0; the sum wraps with the counter,
// and the sign of the modular difference does not see it.
extern volatile u64 jiffies;
#define time_after(a, b) ((long)((b) - (a)) < 0)
int expired(u64 start)
{
	return time_after(jiffies, start + 250); // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: serial-compare
	// REMARK: families.c:[[@LINE-1]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
}

// net/ipv4/tcp_input.c's after(seq, rcv_nxt + window), written out.
int in_window(u32 seq, u32 rcv_nxt, u32 window)
{
	return (int)((rcv_nxt + window) - seq) < 0; // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: serial-compare
	// REMARK: families.c:[[@LINE-1]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
}

// The same through TCP's before() helper: after(seq, rcv_nxt + window) is
// before(rcv_nxt + window, seq), whose parameter only meets a serial
// difference.
static inline int before(u32 seq1, u32 seq2) { return (int)(seq1 - seq2) < 0; }
#define after(seq2, seq1) before(seq1, seq2)
int beyond_window(u32 seq, u32 rcv_nxt, u32 window)
{
	return after(seq, rcv_nxt + window); // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: serial-compare
}
// (clang emits before() after its first caller.)
// REMARK: families.c:[[@LINE-7]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare

// Must keep: the helper also uses its parameter whole.
static inline int before_logged(u32 seq1, u32 seq2) { use(seq1); return (int)(seq1 - seq2) < 0; }
int beyond_window_logged(u32 seq, u32 rcv_nxt, u32 window)
{
	return before_logged(rcv_nxt + window, seq); // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
}
// REMARK: families.c:[[@LINE-5]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare

// Must keep: the sum is also used whole.
int expired_used(u64 start)
{
	u64 end = start + 250; // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
	use(end);
	return time_after(jiffies, end); // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
}

// Must keep: the difference is compared with 5, not its sign (read only as
// signed: re-checked, signed-difference).
int expired_by_five(u64 start)
{
	return (long)((start + 250) - jiffies) < 5; // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
	// REMARK: families.c:[[@LINE-1]]:{{.*}} re-checked unsigned-integer-overflow check on sub: signed-difference
}

// kernel/rcu/rcu.h: the grace-period sequence helpers feed ULONG_CMP_LT()
// values computed from a counter. A wrap of s - 1 or old + 3 changes them
// by 2^64, which the mask, and then the 64-bit difference, carry on
// unseen: `& ~3`, like + - * | ^ and << of the value, is exact modulo
// 2^64, and so is the value of another checked operation.
#define ULONG_MAX (~0UL)
#define ULONG_CMP_GE(a, b) (ULONG_MAX / 2 >= (a) - (b))
#define ULONG_CMP_LT(a, b) (ULONG_MAX / 2 < (a) - (b))
#define RCU_SEQ_STATE_MASK 3
// rcu_seq_started()
int seq_started(u64 cur, u64 s)
{
	// REMARK: families.c:[[@LINE+2]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
	// REMARK: families.c:[[@LINE+1]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
	return ULONG_CMP_LT((s - 1) & ~RCU_SEQ_STATE_MASK, cur);
}

// rcu_seq_new_gp()
int seq_new_gp(u64 old, u64 new)
{
	// REMARK: families.c:[[@LINE+2]]:{{.*}} removed unsigned-integer-overflow check on add: serial-compare
	// REMARK: families.c:[[@LINE+1]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
	return ULONG_CMP_LT((old + RCU_SEQ_STATE_MASK) & ~RCU_SEQ_STATE_MASK, new);
}

// rcu_seq_done_exact(): s - 13, a subtrahend of a serial difference.
int seq_done_exact(u64 cur_s, u64 s)
{
	// REMARK: families.c:[[@LINE+3]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
	// REMARK: families.c:[[@LINE+2]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
	// REMARK: families.c:[[@LINE+1]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
	return ULONG_CMP_GE(cur_s, s) || ULONG_CMP_LT(cur_s, s - (3 * RCU_SEQ_STATE_MASK + 1));
}

// Longer paths: through a checked product, xor, or and a left shift; and
// into a helper whose parameter reaches a serial difference through a
// mask (the snapshot computed by the caller, tested by rcu_seq_started()).
int seq_mixed(u64 cur, u64 s, u64 k)
{
	// REMARK: families.c:[[@LINE+3]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
	// REMARK: families.c:[[@LINE+2]]:{{.*}} removed unsigned-integer-overflow check on mul: serial-compare
	// REMARK: families.c:[[@LINE+1]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
	return (long)(((((s - 1) * 5) ^ k) << 2 | 1) - cur) < 0;
}

// Must keep: a division reads the bits the product's wrap changed.
int seq_scaled_divided(u64 cur, u64 s)
{
	// REMARK: families.c:[[@LINE+2]]:{{.*}} kept unsigned-integer-overflow check on mul:
	// REMARK: families.c:[[@LINE+1]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
	return ULONG_CMP_LT(s * 5 / 3, cur);
}

static inline int started(u64 cur, u64 s) { return ULONG_CMP_LT((s - 1) & ~RCU_SEQ_STATE_MASK, cur); }
int snap_started(u64 cur, u64 base)
{
	return started(cur, base + 8); // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: serial-compare
}
// (clang emits started() after its first caller.)
// REMARK: families.c:[[@LINE-6]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
// REMARK: families.c:[[@LINE-7]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare

// Must keep: a shift right reads the high bits (a wrap moves (s - 1) >> 2
// by 2^62); the masked value also stored, or returned; a sum also compared
// unsigned with a bound.
int seq_shifted(u64 cur, u64 s)
{
	// REMARK: families.c:[[@LINE+2]]:{{.*}} kept unsigned-integer-overflow check on sub: the difference, masked or shifted, is used by 'call'
	// REMARK: families.c:[[@LINE+1]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
	return ULONG_CMP_LT((s - 1) >> 2, cur);
}

int seq_masked_stored(u64 cur, u64 s, u64 *snap)
{
	u64 m = (s - 1) & ~RCU_SEQ_STATE_MASK; // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on sub:
	*snap = m;
	return ULONG_CMP_LT(m, cur); // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
}

u64 seq_masked_returned(u64 cur, u64 s)
{
	u64 m = (s - 1) & ~RCU_SEQ_STATE_MASK; // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on sub:
	if (ULONG_CMP_LT(m, cur)) // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
		return 0;
	return m;
}

int seq_sum_bounded(u64 cur, u64 s, u64 lim)
{
	u64 e = s + 4; // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
	return ULONG_CMP_LT(e, cur) && e < lim; // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
}

// kernel/bpf/verifier.c signed_add_overflows(): the sum is done in u64,
// where wrap is defined, and only tested as s64 for signed overflow, the
// test chosen by the sign of b. The unsigned wrap (any negative b) is not
// what the program means; the signed one is tested exactly.
typedef long long s64;
int signed_add_overflows(s64 a, s64 b)
{
	s64 res = (s64)((u64)a + (u64)b); // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: signed-test
	if (b < 0)
		return res > a;
	return res < a;
}
// DISABLED: kept unsigned-integer-overflow check on add: idiom signed-test is disabled by -wrap-idiom-disable

int signed_sub_overflows(s64 a, s64 b)
{
	s64 res = (s64)((u64)a - (u64)b); // REMARK: families.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on sub: signed-test
	if (b < 0)
		return res < a;
	return res > a;
}

// Must keep: the sign of b is not known, so `res < a` is no exact test.
int signed_test_any(s64 a, s64 b)
{
	s64 res = (s64)((u64)a + (u64)b); // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
	return res < a;
}

// Must keep: the sum is also used.
int signed_test_used(s64 a, s64 b)
{
	s64 res = (s64)((u64)a + (u64)b); // REMARK: families.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
	use(res);
	if (b < 0)
		return res > a;
	return res < a;
}
