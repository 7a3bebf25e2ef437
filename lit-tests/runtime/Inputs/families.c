/* Two operations, one test (llvm-pass/SumIdioms.h). Built like int.c. */
#include "cases.h"

#define noinline __attribute__((noinline))

/* end = start + len - 1 with len != 0: start + 3 - 1 wraps past the top,
 * and `end < start` says so. */
noinline int end_inclusive(void)
{
	size_t start = big, len = two + 1, end;
	if (!len)
		return 0;
	end = start + len - 1;
	if (end < start)
		return 1;
	sink(end);
	return 0;
}
/* len may be 0: start = 0, len = 0 wraps end to SIZE_MAX, above start. */
noinline int keep_end_len_unknown(void)
{
	size_t start = zero, len = zero, end;
	end = start + len - 1;
	if (end < start)
		return 1;
	sink(end);
	return 0;
}
/* include/net/checksum.h csum_add(): the carry out added back in. */
noinline int end_around_carry(void)
{
	unsigned res = u32_max, addend = (unsigned)two;
	res += addend;
	sink(res + (res < addend));
	return 0;
}
/* Not the wrap test: the wrapped sum is used as it is. */
noinline int keep_carry_wrong_test(void)
{
	unsigned res = u32_max, addend = (unsigned)two;
	res += addend;
	sink(res + (res > addend));
	return 0;
}
/* mm/mmap.c do_mmap(): PAGE_ALIGN(SIZE_MAX - 1) wraps to 0, and the zero
 * test leaves. */
noinline int align_zero(void)
{
	size_t len = big;
	len = (len + 4095) & ~4095UL;
	if (!len)
		return 1;
	sink(len);
	return 0;
}
/* The addend is larger than the alignment: PAGE_ALIGN(x + 4096) wraps to
 * 4096 here, which the zero test lets through. */
noinline int keep_align_short_mask(void)
{
	size_t len = big;
	size_t v = (len + 8191) & ~4095UL;
	if (!v)
		return 1;
	sink(v);
	return 0;
}
/* ~0 + 4097 wraps to exactly 4096: the zero test lets it through. */
noinline int keep_align_one_over(void)
{
	size_t len = big + 1;
	size_t v = (len + 4097) & ~4095UL;
	if (!v)
		return 1;
	sink(v);
	return 0;
}
/* A wrapped value nobody reads. */
size_t dead_counter;
noinline int dead_unused(void)
{
	size_t x = big + two;
	(void)x;
	return 0;
}
/* A counter reset right after it wrapped. */
noinline int dead_reset(void)
{
	dead_counter = big;
	dead_counter += two;
	dead_counter = 0;
	return 0;
}
/* Read before the reset: the wrapped value is seen. */
noinline int keep_dead_read_between(void)
{
	dead_counter = big;
	dead_counter += two;
	sink(dead_counter);
	dead_counter = 0;
	return 0;
}
/* A statistic updated on an object that is freed right after (issue 24,
 * `obj->stat += n; kfree(obj);`): nobody may read it again. */
void *malloc(size_t);
void free(void *);
struct counted { size_t refs, stat; };
noinline void counted_put(struct counted *o, size_t n)
{
	o->stat += n;
	free(o);
}
noinline void counted_put_logged(struct counted *o, size_t n)
{
	o->stat += n;
	sink(o->stat);
	free(o);
}
noinline int dead_freed(void)
{
	struct counted *o = malloc(sizeof(*o));
	if (!o)
		return 1;
	o->refs = 1;
	o->stat = big;
	counted_put(o, two);
	return 0;
}
/* Read before the free: the wrapped statistic is seen. */
noinline int keep_dead_freed_read(void)
{
	struct counted *o = malloc(sizeof(*o));
	if (!o)
		return 1;
	o->refs = 1;
	o->stat = big;
	counted_put_logged(o, two);
	return 0;
}
/* time_after(now, start + 4) across the counter's wrap: start + 4 wraps
 * to 2, now is 3, and the timeout has passed. */
noinline int serial_sum(void)
{
	size_t start = big, now = two + 1;
	return (long)((start + 4) - now) < 0;
}
/* The wrapped end is also used as a value. */
noinline int keep_serial_sum_used(void)
{
	size_t start = big, now = two + 1;
	size_t end = start + 4;
	sink(end);
	return (long)(end - now) < 0;
}
/* TCP's after(seq, rcv_nxt + window) through its before() helper: the
 * window's end wraps past 2^32, seq lies beyond it. */
static inline int seq_before(unsigned seq1, unsigned seq2) { return (int)(seq1 - seq2) < 0; }
noinline int serial_sum_helper(void)
{
	unsigned rcv_nxt = u32_max - 1, window = (unsigned)two * 2, seq = 5;
	return seq_before(rcv_nxt + window, seq);
}
/* The helper also uses the wrapped end as a value. */
static inline int seq_before_logged(unsigned seq1, unsigned seq2) { sink(seq1); return (int)(seq1 - seq2) < 0; }
noinline int keep_serial_helper_used(void)
{
	unsigned rcv_nxt = u32_max - 1, window = (unsigned)two * 2, seq = 5;
	return seq_before_logged(rcv_nxt + window, seq);
}
/* kernel/rcu/rcu.h: values computed from a grace-period counter, then
 * compared with ULONG_CMP_LT(). rcu_seq_started() on the snapshot 0:
 * s - 1 wraps, the mask and the difference carry it on. */
#define ULONG_CMP_GE(a, b) (~0UL / 2 >= (a) - (b))
#define ULONG_CMP_LT(a, b) (~0UL / 2 < (a) - (b))
noinline int serial_seq_started(void)
{
	size_t s = zero, cur = two;
	return ULONG_CMP_LT((s - 1) & ~3UL, cur);
}
/* rcu_seq_new_gp() with old near the top: old + 3 wraps. */
noinline int serial_seq_new_gp(void)
{
	size_t old = big, new = two;
	return ULONG_CMP_LT((old + 3) & ~3UL, new);
}
/* rcu_seq_done_exact() early in the counter: s - 13 wraps. */
noinline int serial_seq_done_exact(void)
{
	size_t cur_s = two, s = two + 2;
	return ULONG_CMP_GE(cur_s, s) || ULONG_CMP_LT(cur_s, s - 13);
}
/* (s - 1) >> 2: the shift reads the bits the wrap changed. */
noinline int keep_serial_shifted(void)
{
	size_t s = zero, cur = two;
	return ULONG_CMP_LT((s - 1) >> 2, cur);
}
/* The masked value is also used whole. */
noinline int keep_serial_masked_used(void)
{
	size_t s = zero, cur = two;
	size_t m = (s - 1) & ~3UL;
	sink(m);
	return ULONG_CMP_LT(m, cur);
}
/* kernel/bpf/verifier.c signed_add_overflows(5, -1): the u64 sum wraps,
 * the s64 one does not, and the signed test says so. */
static inline int add_overflows(long long a, long long b)
{
	long long res = (long long)((unsigned long long)a + (unsigned long long)b);
	if (b < 0)
		return res > a;
	return res < a;
}
noinline int signed_test(void) { return add_overflows(5, -(long long)one); }
/* b's sign unknown: `res < a` says 5 + -1 overflowed. */
noinline int keep_signed_test_any(void)
{
	long long a = 5, b = -(long long)one;
	long long res = (long long)((unsigned long long)a + (unsigned long long)b);
	return res < a;
}
/* include/linux/pgtable.h pmd_addr_end(), as the page-table walkers use it
 * (mm/pagewalk.c walk_pmd_range()): in the last 2 MiB of the address space
 * addr + PMD_SIZE wraps, the boundary is 0, `__boundary - 1` wraps to
 * ULONG_MAX, and the walker gets end. */
#define AE_SIZE (1UL << 21)
#define AE_MASK (~(AE_SIZE - 1))
#define ae_pmd_addr_end(addr, end)					\
({	unsigned long __boundary = ((addr) + AE_SIZE) & AE_MASK;	\
	(__boundary - 1 < (end) - 1)? __boundary: (end);		\
})
noinline int addr_end(void)
{
	unsigned long end = big - 4094, addr = end - 8192, next;
	do {
		next = ae_pmd_addr_end(addr, end);
		sink(addr);
	} while (addr = next, addr != end);
	return 0;
}
/* pgd_addr_end() with x86_64's run-time pgdir_shift: a power of two the
 * compiler does not know. */
unsigned int ae_pgdir_shift = 39;
#define AE_PGDIR_SIZE (1UL << ae_pgdir_shift)
#define AE_PGDIR_MASK (~(AE_PGDIR_SIZE - 1))
noinline int addr_end_pgd(void)
{
	unsigned long end = big - 4094, addr = end - 8192, next;
	do {
		unsigned long b = (addr + AE_PGDIR_SIZE) & AE_PGDIR_MASK;
		next = (b - 1 < end - 1) ? b : end;
		sink(addr);
	} while (addr = next, addr != end);
	return 0;
}
/* The wrapped boundary (0) is also used. */
noinline int keep_addr_end_used(void)
{
	unsigned long end = big - 4094, addr = end - 8192;
	unsigned long b = (addr + AE_SIZE) & AE_MASK;
	sink(b);
	sink((b - 1 < end - 1) ? b : end);
	return 0;
}
/* Operands swapped: the wrap side picks the wrapped boundary. */
noinline int keep_addr_end_picks_boundary(void)
{
	unsigned long end = big - 4094, addr = end - 8192;
	unsigned long b = (addr + AE_SIZE) & AE_MASK;
	sink((b - 1 < end - 1) ? end : b);
	return 0;
}
/* A mask of half the size keeps a bit of the wrapped sum: the boundary
 * wraps to 1 MiB here, and the walker gets it. */
noinline int keep_addr_end_half_mask(void)
{
	unsigned long end = big - 4094, addr = end - 8192;
	unsigned long b = (addr + AE_SIZE) & ~(AE_SIZE / 2 - 1);
	sink((b - 1 < end - 1) ? b : end);
	return 0;
}
/* An addend twice the alignment: the wrapped boundary is 2 MiB here. */
noinline int keep_addr_end_double(void)
{
	unsigned long end = big - 4094, addr = end - 8192;
	unsigned long b = (addr + 2 * AE_SIZE) & AE_MASK;
	sink((b - 1 < end - 1) ? b : end);
	return 0;
}
/* `<=`: ULONG_MAX <= end - 1 holds for end == 0, so wrapped runs do not all
 * answer it alike. */
noinline int keep_addr_end_le(void)
{
	unsigned long end = big - 4094, addr = end - 8192;
	unsigned long b = (addr + AE_SIZE) & AE_MASK;
	sink((b - 1 <= end - 1) ? b : end);
	return 0;
}
/* Signed: the sum overflows LONG_MAX. */
noinline int keep_addr_end_signed(void)
{
	long end = ll_max - 4095, addr = end - 8192;
	long b = (addr + (1L << 21)) & ~((1L << 21) - 1);
	sink((b - 1 < end - 1) ? b : end);
	return 0;
}
/* Every wrapped PAGE_ALIGN() is 0, below any limit, so every wrapped run
 * passes the bound; the unbounded value would not. */
noinline int keep_align_bound(void)
{
	size_t len = big, lim = two << 20;
	size_t v = (len + 4095) & ~4095UL;
	if (v > lim)
		return 1;
	return 0;
}
/* A length's lower bound after its header is taken off: every wrapped
 * difference is huge, so a message shorter than the header passes the
 * bound as if it were long (netlink's nlmsg_len(nlh) < sizeof(*req)). */
noinline int keep_bound_lower(void)
{
	unsigned int len = (unsigned int)two * 4;
	unsigned int d = len - 16;
	if (d < sizeof(long[7]))
		return 1;
	sink(0);
	return 0;
}
/* A signed difference with only the subtrahend's sign known wraps down,
 * to a non-negative value: the sign test lets it through as a valid
 * difference (the true one is negative). */
noinline int keep_sign_wrap_down(void)
{
	long long a = -ll_max - 1, b = (long long)two * 2048;
	if (b < 0)
		return 2;
	long long d = a - b;
	if (d < 0)
		return 1;
	return 0;
}
/* One sign known, the sum wraps up to a negative value: a test whose
 * outcome is all the sum is for decides on the wrap (nothing it guards). */
noinline int keep_sign_no_use(void)
{
	long long a = ll_max, b = (long long)two;
	if (b < 0)
		return 2;
	long long s = a + b;
	if (-1 >= s)
		sink(7);
	return 0;
}
/* The same with a select of two constants: nothing it guards. */
noinline int keep_sign_select_no_use(void)
{
	long long a = ll_max, b = (long long)two;
	if (b < 0)
		return 2;
	long long s = a + b;
	sink(s < 0 ? 27 : 0);
	return 0;
}
/* arm64 csum_fold(): 0xffffffff + its half turn wraps, and only the high
 * half, the one's complement sum of the halves, is read. */
noinline int rotate_fold(void)
{
	unsigned s = u32_max;
	s += (s >> 16) | (s << 16);
	sink(s >> 16);
	return 0;
}
/* The same sum used whole: its low half and the lost carry matter. */
noinline int keep_rotate_fold_whole(void)
{
	unsigned s = u32_max;
	s += (s >> 16) | (s << 16);
	sink(s);
	return 0;
}
/* lib/checksum.c csum_partial(): the carry added back by a branch. */
noinline int end_around_carry_branch(void)
{
	unsigned result = u32_max, sum = (unsigned)two;
	result += sum;
	if (sum > result)
		result += 1;
	sink(result);
	return 0;
}
/* 1 added on the side where the sum did not wrap. */
noinline int keep_carry_branch_wrong_side(void)
{
	unsigned result = u32_max, sum = (unsigned)two;
	result += sum;
	if (sum <= result)
		result += 1;
	sink(result);
	return 0;
}
/* mm/filemap.c read-around: max_t(long, 0, pgoff - ra_pages / 2), with
 * pgoff 1 and ra_pages 32: the difference wraps, is negative, 0 is picked. */
noinline int sign_guard(void)
{
	size_t pgoff = one;
	unsigned ra_pages = (unsigned)two << 4;
	long d = pgoff - ra_pages / 2;
	sink(d > 0 ? d : 0);
	return 0;
}
/* A subtrahend up to 2^63 + 1: 0 - (2^63 + 1) is 2^63 - 1, positive. */
noinline int keep_sign_guard_over_half(void)
{
	size_t now = zero, back = (big | one) & ((1UL << 63) | 1);
	long d = now - back;
	if (d < 0)
		return 1;
	sink(d);
	return 0;
}

/* fs/sync.c sync_file_range(): the operands' signs tested after the sum,
 * then the sum's sign. offset >= 0, so a wrap lands negative and takes
 * the first exit. */
typedef long long loff_t;
noinline int sign_test_file_range(void)
{
	loff_t offset = ll_max, nbytes = (loff_t)two, endbyte;
	endbyte = offset + nbytes;
	if (offset < 0)
		return 0;
	if (endbyte < 0)
		return 1;
	if (endbyte < offset)
		return 2;
	sink((size_t)endbyte);
	return 0;
}
/* Both addends known non-negative: only a wrapped sum is negative. */
noinline int sign_test_both(void)
{
	loff_t offset = ll_max, len = (loff_t)two;
	if (offset < 0 || len < 0)
		return 0;
	return offset + len < 0;
}
/* Only one sign known: `offset + len < 0` also holds for a negative len,
 * so it is no test of the wrap alone, and its outcome is the result. */
noinline int keep_sign_test_one_known(void)
{
	loff_t offset = ll_max, len = (loff_t)two;
	if (offset < 0)
		return 0;
	return offset + len < 0;
}
/* The side that leaves is the one wrapped runs do not take. */
noinline int keep_sign_test_wrong_side(void)
{
	loff_t offset = ll_max, len = (loff_t)two, end;
	if (offset < 0)
		return 0;
	end = offset + len;
	if (end >= 0)
		return 0;
	sink((size_t)end);
	return 1;
}

/* A range kept in a local struct, another field stored between the sum
 * and its test: the same value at -O0 as at -O2. */
struct wrap_range {
	size_t start, end, flags;
};
noinline int local_struct_range(void)
{
	struct wrap_range r;
	r.start = big;
	r.end = r.start + two;
	r.flags = 1;
	if (r.end < r.start)
		return 1;
	sink(r.end + r.flags);
	return 0;
}
/* The struct escapes before the test: the callee may change the fields. */
noinline void range_fill(struct wrap_range *r)
{
	sink(r->flags);
}
noinline int keep_local_struct_escaped(void)
{
	struct wrap_range r;
	r.start = big;
	r.end = r.start + two;
	r.flags = 1;
	range_fill(&r);
	if (r.end < r.start)
		return 1;
	sink(r.end);
	return 0;
}
/* Stored to the caller's struct: the wrapped end outlives the test. */
noinline int range_out(struct wrap_range *r, size_t start, size_t len)
{
	r->start = start;
	r->end = start + len;
	r->flags = 0;
	if (r->end < r->start)
		return -22;
	return 0;
}
noinline int keep_out_param_range(void)
{
	struct wrap_range r;
	return range_out(&r, big, two) ? (int)(r.end & 1) : 0;
}

/* do_mmap()'s shape with a limit tested between PAGE_ALIGN() and the zero
 * test: the wrapped 0 passes the limit, then the zero test leaves. */
volatile size_t align_limit = 1UL << 47;
volatile size_t align_count;
noinline int align_bound_between(void)
{
	size_t len = big;
	len = (len + 4095) & ~4095UL;
	if (len > align_limit)
		return 2;
	if (!len)
		return 1;
	sink(len);
	return 0;
}
/* Something done on the wrong decision before the zero test. */
noinline int keep_align_effect_between(void)
{
	size_t len = big;
	len = (len + 4095) & ~4095UL;
	if (len > align_limit)
		return 2;
	align_count++;
	if (!len)
		return 1;
	sink(len);
	return 0;
}

/* Signed file ranges: both signs known, the sum tested against the
 * length (`s < b`), and the old fallocate() checks, a bound then the
 * sign, by ||: every wrapped run leaves. */
noinline int file_range_both(void)
{
	loff_t offset = ll_max, len = (loff_t)two, end;
	if (offset < 0 || len < 0)
		return 0;
	end = offset + len;
	if (end < len)
		return 1;
	sink((size_t)end);
	return 0;
}
volatile loff_t file_maxbytes = 1LL << 40;
noinline int file_range_fallocate(void)
{
	loff_t offset = ll_max, len = (loff_t)two;
	if (offset < 0 || len <= 0)
		return 0;
	if (((offset + len) > file_maxbytes) || ((offset + len) < 0))
		return 1;
	sink((size_t)len);
	return 0;
}
/* mm/fadvise.c: the sum done in u64 and read back as loff_t. With
 * len >= 0 it wraps only for a negative offset (-2 + 5), where the signed
 * reading is below len: the whole range is taken instead. */
noinline int fadvise_range(void)
{
	loff_t offset = -(loff_t)two, len = (loff_t)(two + two + one), endbyte;
	if (len < 0)
		return 0;
	endbyte = (unsigned long long)offset + (unsigned long long)len;
	if (!len || endbyte < len)
		endbyte = ll_max;
	else
		endbyte--;
	sink((size_t)endbyte);
	return 0;
}
/* Both signs known, but the sum is passed on before its test. */
noinline int keep_file_range_used_first(void)
{
	loff_t offset = ll_max, len = (loff_t)two, end;
	if (offset < 0 || len < 0)
		return 0;
	end = offset + len;
	sink((size_t)end);
	if (end < 0)
		return 1;
	return 0;
}
/* len's sign tested on one path only, offset's not at all:
 * -LLONG_MAX + -4 wraps down to LLONG_MAX - 2, neither negative nor
 * below offset. */
volatile int file_strict = 0;
noinline int keep_file_range_len_one_path(void)
{
	loff_t offset = -ll_max, len = -(loff_t)(two + two), end;
	if (file_strict && len < 0)
		return 0;
	end = offset + len;
	if (end < 0 || end < offset)
		return 1;
	sink((size_t)end);
	return 0;
}
/* x86's __access_ok(): a sign test of the sum, then its wrap test, in one
 * &&: every wrapped run gets false from the wrap test, whatever the sign
 * test said (a pointer near the top: the sum wraps to 0, "valid"). */
static noinline int range_and_wrap_ok(size_t ptr, size_t size)
{
	size_t sum = size + ptr;
	return (long)sum >= 0 && sum >= ptr;
}
noinline int range_and_wrap(void)
{
	if (!range_and_wrap_ok(big, two + two))
		return 1;
	sink(big);
	return 0;
}
/* ||: on wrapped runs the sign test of the wrapped sum decides. */
noinline int keep_range_or_wrap(void)
{
	size_t ptr = big, size = two + two;
	size_t sum = size + ptr;
	return (long)sum >= 0 || sum >= ptr;
}
/* The && decides, then the wrapped sum is used whatever it said. */
noinline int keep_range_and_then_use(void)
{
	size_t ptr = big, size = two + two;
	size_t sum = size + ptr;
	int ok = (long)sum >= 0 && sum >= ptr;
	sink(sum);
	return ok;
}
