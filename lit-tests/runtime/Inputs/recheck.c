/* Re-check cases (llvm-pass/SignedRecheck.h). The plugin keeps these
 * checks but replaces their condition with the one of the signed quantity
 * the unsigned arithmetic encodes. RECHECK cases run an input whose
 * unsigned operation wraps while the true (signed) result is in range:
 * clang's plain check reports them, the re-check must not. OUT cases run
 * inputs whose true result is out of range although the unsigned operation
 * does not wrap: clang's plain check misses them, the re-check must report
 * them. KEEP cases are out of range both ways (reported either way), or
 * shapes that are not re-checked (the plain check stays). */
#include "cases.h"

#define noinline __attribute__((noinline))

struct cursor { size_t pos; };

/* 5 + (-1): the unsigned add of 5 and 2^64 - 1 wraps; the true sum is 4. */
noinline int recheck_offset_add(void)
{
	size_t x = two + 3;
	int off = -(int)one;
	sink(x + off);
	return 0;
}
/* 5 - (-1): the unsigned sub of 2^64 - 1 borrows; the true result is 6. */
noinline int recheck_offset_sub(void)
{
	size_t x = two + 3;
	int off = -(int)one;
	sink(x - off);
	return 0;
}
/* c->pos += delta with a negative signed char delta, stored. */
noinline int recheck_offset_assign(void)
{
	struct cursor c = { two + 3 };
	signed char delta = (signed char)-(int)two;
	c.pos += delta;
	sink(c.pos);
	return 0;
}
/* Through a long local holding the sign-extended int: decided on the
 * promoted function at -O0 too. */
noinline int recheck_offset_local(void)
{
	size_t x = two + 3;
	int off = -(int)two;
	long o = off;
	sink(x + o);
	return 0;
}
/* 1 - 2 read as long: -1, in range. */
noinline int recheck_difference(void)
{
	size_t a = one, b = two;
	long lim = (long)zero;
	long d = a - b;
	if (d < lim)
		return 1;
	return 0;
}

/* 0 + (-1): 0 + (2^64 - 1) does not wrap, the true sum -1 is out of
 * range. */
noinline int out_offset_below(void)
{
	size_t x = zero;
	int off = -(int)one;
	sink(x + off);
	return 0;
}
/* (SIZE_MAX - 1) + 2: wraps, and out of range above. */
noinline int keep_recheck_offset_above(void)
{
	size_t x = big;
	int off = (int)two;
	sink(x + off);
	return 0;
}
/* (SIZE_MAX - 1) - (-2) = 2^64: the unsigned sub of 2^64 - 2 does not
 * borrow. */
noinline int out_offset_sub_above(void)
{
	size_t x = big;
	int off = -(int)two;
	sink(x - off);
	return 0;
}
/* 2^63 - 0 read as long does not fit: no borrow, but out of range. */
noinline int out_difference_far(void)
{
	size_t a = (big >> 1) + one, b = zero;
	long lim = (long)zero;
	long d = a - b;
	if (d < lim)
		return 1;
	return 0;
}
/* 0 - (2^63 + 1) read as long does not fit either: it borrows too. */
noinline int keep_recheck_difference_far_below(void)
{
	size_t a = zero, b = (big >> 1) + two;
	long lim = (long)zero;
	long d = a - b;
	if (d < lim)
		return 1;
	return 0;
}
/* The difference is also passed on: not re-checked, the plain check
 * reports 1 - 2. */
noinline int keep_recheck_difference_used(void)
{
	size_t a = one, b = two;
	long lim = (long)zero;
	long d = a - b;
	sink(d);
	return d < lim;
}
/* A long offset of unknown sign, as wide as x: not re-checked. */
noinline int keep_recheck_same_width(void)
{
	size_t x = two + 3;
	long off = -(long)one;
	sink(x + off);
	return 0;
}

/* kernel/rcu/srcutree.c try_check_zero(): `(--trycount + curdelay) <= 0`
 * with `unsigned long curdelay = !delay`: two sign extensions, one of a
 * value known to be 0 or 1. -1 + 1 wraps as unsigned; the true sum is 0. */
noinline int recheck_offset_two_sext(void)
{
	int trycount = (int)zero, flag = (int)zero;
	size_t curdelay = !flag;

	return (--trycount + curdelay) <= 0;
}
/* -2 + 1: no unsigned wrap, the true sum -1 is out of range. */
noinline int out_offset_two_sext(void)
{
	int trycount = -(int)one, flag = (int)zero;
	size_t curdelay = !flag;

	return (--trycount + curdelay) <= 0;
}
/* Both sign extensions of unknown sign: not re-checked, the plain check
 * reports (-1) + (-1). */
noinline int keep_recheck_two_signed(void)
{
	int a = -(int)one, b = -(int)one;

	sink((size_t)a + b);
	return 0;
}

/* circular-difference (CircularDifference.cpp). The difference wraps and
 * the size added where a < b carries it back: clang's plain checks report
 * both, the plugin removes the sub's check and re-checks the add, silent
 * while the correction carries. */
struct journal { size_t tail, first, last, free; };

/* fs/jbd2/journal.c __jbd2_update_log_tail(): tail 100, block 20, in a
 * log [10, 110): freed 20 - 100 + 100 = 20. */
noinline int recheck_circular(void)
{
	struct journal j = { two * 50, two * 5, two * 55, zero };
	size_t block = two * 10;
	size_t freed = block - j.tail;
	if (block < j.tail)
		freed += j.last - j.first;
	j.free += freed;
	sink(j.free);
	return 0;
}
/* fs/jbd2/commit.c: the distance in a long, compared signed. */
noinline int recheck_circular_long(void)
{
	struct journal j = { two * 50, two * 5, two * 55, zero };
	size_t first_block = two * 10;
	long freed = first_block - j.tail;
	if (first_block < j.tail)
		freed += j.last - j.first;
	return freed < (long)(two * 8);
}
/* `?:` on 32-bit ring indices: head 1, tail 2, size 16: 15 used. */
noinline int recheck_circular_ternary(void)
{
	unsigned head = (unsigned)one, tail = (unsigned)two, size = 16;
	unsigned d = head - tail;
	sink(tail > head ? d + size : d);
	return 0;
}
/* The indices are corrupt: tail - block = 80 exceeds the log's size 40.
 * The correction does not carry; the re-check reports it (clang's plain
 * check reports the sub instead). */
noinline int keep_circular_overrun(void)
{
	struct journal j = { two * 50, two * 5, two * 25, zero };
	size_t block = two * 10;
	size_t freed = block - j.tail;
	if (block < j.tail)
		freed += j.last - j.first;
	sink(freed);
	return 0;
}
/* The wrapped difference is also passed on before the correction: the
 * sub's check stays and reports 20 - 100. */
noinline int keep_circular_used(void)
{
	struct journal j = { two * 50, two * 5, two * 55, zero };
	size_t block = two * 10;
	size_t freed = block - j.tail;
	if (block < j.tail) {
		sink(freed);
		freed += j.last - j.first;
	}
	sink(freed);
	return 0;
}

/* pgoff += PHYS_PFN(adj_start) with a negative long adj_start
 * (mm/vma.c): the macro casts the arithmetic shift to unsigned long,
 * 10 + (-2): the unsigned add wraps, the true result is 8. */
#define PHYS_PFN(x) ((unsigned long)((x) >> 12))
noinline int recheck_offset_ashr(void)
{
	size_t pgoff = two + 8;
	long adj_start = -(long)(two << 12);
	pgoff += PHYS_PFN(adj_start);
	sink(pgoff);
	return 0;
}

/* final-result (FinalResult.h): the steps of one expression wrap and wrap
 * back. resource_size() of an empty resource at 5: end = 4, 4 - 5 + 1. */
struct resource { size_t start, end; };
noinline int recheck_final_empty_resource(void)
{
	struct resource r = { two + 3, two + 2 };
	sink(r.end - r.start + 1);
	return 0;
}
/* round_up(0, 8): ((0 - 1) | 7) + 1 = 0. */
#define round_up(x, y) ((((x)-1) | ((__typeof__(x))((y)-1)))+1)
noinline int recheck_final_round_up(void)
{
	size_t x = zero;
	sink(round_up(x, (size_t)8));
	return 0;
}
/* A free area ending at ULONG_MAX: min + gap = 2^64, - 1 = ULONG_MAX. */
noinline int recheck_final_gap_top(void)
{
	size_t min = big, gap = two;
	sink(min + gap - 1);
	return 0;
}
/* xarray's top node: (64 << 58) - 1 = ULONG_MAX. */
noinline int recheck_final_node_max(void)
{
	unsigned char shift = (unsigned char)(two * 29);
	sink((64UL << shift) - 1);
	return 0;
}
/* The end of an empty resource at 0: 0 + 0 - 1 does not come back. */
noinline int keep_final_empty_end(void)
{
	size_t base = zero, size = zero;
	sink(base + size - 1);
	return 0;
}
/* round_down(0 - 1, 8) + 4: the negative mask ends the expression, and
 * 0 - 1 keeps its own check. */
noinline int keep_final_round_down(void)
{
	size_t x = zero;
	sink(((x - 1) & ~(size_t)7) + 4);
	return 0;
}

/* An aligned step to the top (free_pgd_range()): addr is the last PMD,
 * + PMD_SIZE wraps to exactly 0, which the program tests and leaves on. */
#define PMD_SIZE (1UL << 21)
#define PMD_MASK (~(PMD_SIZE - 1))
noinline int aligned_step_top(void)
{
	size_t addr = big & PMD_MASK;

	addr += PMD_SIZE;
	if (!addr)
		return 0;
	sink(addr);
	return 0;
}
/* Not aligned: + PMD_SIZE wraps past 0 to a non-zero address. */
noinline int keep_unaligned_step(void)
{
	size_t addr = big - PMD_SIZE / 2;

	addr += PMD_SIZE;
	if (!addr)
		return 0;
	sink(addr);
	return 0;
}
