/* Cases decided by facts of the source: see facts.h. */
#include "cases.h"
#include "facts.h"

#define noinline __attribute__((noinline))

extern void take_delta(long delta);
volatile long delta_sunk;
noinline void take_delta(long delta) { delta_sunk = delta; }

/* 5 + (long)-1: the unsigned add wraps; the true sum is 4. */
noinline int meaning_add_long(void)
{
	size_t x = two + 3;
	long d = -(long)one;
	sink(x + d);
	return 0;
}
/* 5 - (long)-2: the unsigned sub borrows; the true result is 7. */
noinline int meaning_sub_long(void)
{
	size_t x = two + 3;
	long d = -(long)two;
	sink(x - d);
	return 0;
}
/* -nr passed as a long delta (mm/vmscan.c's -nr_taken): -2 is in range. */
noinline int meaning_neg_arg(void)
{
	size_t nr = two;
	take_delta(-nr);
	return 0;
}
/* long d = a - b with a < b: -1, read as a long. */
noinline int meaning_diff_stored(void)
{
	size_t a = one, b = two;
	long d = a - b;
	delta_sunk = d;
	return 0;
}
/* it_overrun += hrtimer_forward(): a negative long plus an unsigned
 * count, -5 + 7 = 2 (the unsigned add of 2^64 - 5 and 7 wraps). */
noinline int meaning_compound_long(void)
{
	long overrun = -(long)(two + 3);
	overrun += (unsigned long)(two + 5);
	delta_sunk = overrun;
	return 0;
}
/* delta -= icsk_rto with an int delta: 1 - 2 = -1 as an int. */
noinline int meaning_compound_int(void)
{
	int delta = (int)one;
	delta -= (unsigned)two;
	delta_sunk = delta;
	return 0;
}
/* return a - b as an int (skb_checksum_start_offset()): 1 - 2 = -1. */
noinline static int diff_to_int(unsigned a, unsigned b) { return a - b; }
noinline int meaning_diff_to_int(void)
{
	delta_sunk = diff_to_int((unsigned)one, (unsigned)two);
	return 0;
}
/* pos += delta, delta a long field: stored unsigned, true result 3. */
struct cursor { size_t pos; long delta; };
noinline int meaning_offset_assign(void)
{
	struct cursor c = { two + 3, -(long)two };
	c.pos += c.delta;
	sink(c.pos);
	return 0;
}
/* 0 + (long)-1: no unsigned wrap (0 + 2^64 - 1), but the true sum is
 * negative: out of range for the unsigned result. */
noinline int out_meaning_add_below(void)
{
	size_t x = zero;
	long d = -(long)one;
	sink(x + d);
	return 0;
}
/* -(2^63 + 1) passed as a long: the negation borrows and the true
 * result does not fit either. */
noinline int keep_meaning_neg_too_big(void)
{
	size_t nr = (size_t)ll_max + 2;
	take_delta(-nr);
	return 0;
}
/* a - b read as a long with a - b = 2^63 + 1: no borrow, does not fit. */
noinline int out_meaning_diff_far(void)
{
	size_t a = (size_t)ll_max + 2, b = one;
	long d = a - b;
	delta_sunk = d;
	return 0;
}
/* LONG_MAX += 1 through unsigned arithmetic: no wrap as unsigned, but the
 * long it is stored back to cannot hold it. */
noinline int out_meaning_compound_above(void)
{
	long v = (long)ll_max;
	v += (unsigned long)one;
	delta_sunk = v;
	return 0;
}
/* (2^63 - 1) + 1 read as a long: no unsigned wrap, out of range signed. */
noinline int out_meaning_sum_read_signed(void)
{
	size_t a = (size_t)ll_max, b = one;
	long s = a + b;
	delta_sunk = s;
	return 0;
}
/*
 * An explicit cast read as signed (post_init_entity_util_avg()): the
 * unsigned difference wraps, the true one, -160, is a long.
 */
noinline int meaning_cast_read_signed(void)
{
	long scale = (long)two * 512;
	size_t util = two * 592;
	delta_sunk = (long)(scale - util) / 2;
	return 0;
}
/* The same, the true difference below LONG_MIN: reported. */
noinline int keep_meaning_cast_far(void)
{
	long scale = (long)zero;
	size_t util = (size_t)ll_max + 2;
	delta_sunk = (long)(scale - util) / 2;
	return 0;
}
/* Both unsigned, stored unsigned: no fact, the plain check stays. */
noinline int keep_meaning_unsigned(void)
{
	size_t a = one, b = two;
	sink(a - b);
	return 0;
}
/* x + d with d a long, stored unsigned: (2^64 - 2) + 5 is above the
 * range both as unsigned arithmetic and as the true sum. */
noinline int keep_meaning_stored_unsigned(void)
{
	size_t x = big, r;
	long d = (long)two + 3;
	r = x + d;
	sink(r);
	return 0;
}
/* a - b far apart both ways: 0 - (2^63 + 1) is below LONG_MIN. */
noinline int keep_meaning_both_unsigned_diff(void)
{
	size_t a = zero, b = (size_t)ll_max + 2;
	long d = a - b;
	delta_sunk = d;
	return 0;
}

#define __wraps __attribute__((annotate("wrap-idiom:wrap")))

struct conn {
	unsigned __wraps snd_una;
	unsigned __wraps rcv_nxt;
	unsigned snd_wnd;
	unsigned len;
};

/* A sequence number near 2^32 plus a window (tcp_wnd_end()). */
noinline int declared_field_sum(void)
{
	struct conn c = { (unsigned)u32_max - 1, 0, (unsigned)two + 8, 0 };
	sink(c.snd_una + c.snd_wnd);
	return 0;
}
/* seq + len - 1 with seq + len wrapping past 2^32. */
noinline int declared_end(void)
{
	struct conn c = { 0, (unsigned)u32_max, 0, (unsigned)two + 3 };
	sink(c.rcv_nxt + c.len - 1);
	return 0;
}
/* A parameter declared to wrap: 3 - 10 as a sequence distance. */
noinline static unsigned seq_dist(unsigned __wraps to, unsigned from)
{
	return to - from;
}
noinline int declared_param(void)
{
	sink(seq_dist((unsigned)two + 1, (unsigned)two + 8));
	return 0;
}
/* A window plus a length: nothing declared. */
noinline int keep_declared_not_operand(void)
{
	struct conn c = { 0, 0, (unsigned)u32_max, (unsigned)two };
	sink(c.snd_wnd + c.len);
	return 0;
}
/* A sum stored into a wrapping field: its own operands are not declared. */
noinline int keep_declared_stored_only(void)
{
	struct conn c = { 0, 0, (unsigned)u32_max, (unsigned)two };
	c.rcv_nxt = c.snd_wnd + c.len;
	sink(c.rcv_nxt);
	return 0;
}

/* runtime += key * w with a negative long key and an unsigned long w
 * (sched/fair.c): -3 * 2 = -6; the unsigned product wraps. */
noinline int meaning_mul_signed(void)
{
	long runtime = (long)two + 10, key = -(long)(two + 1);
	size_t w = two;
	runtime += key * w;
	delta_sunk = runtime;
	return 0;
}
/* key * w passed on unsigned, key = -1, w = 1: the unsigned product
 * (2^64 - 1) does not wrap, the true product, -1, is out of range for
 * the unsigned result. */
noinline int out_meaning_mul_below(void)
{
	long key = -(long)one;
	size_t w = one;
	sink(key * w);
	return 0;
}
