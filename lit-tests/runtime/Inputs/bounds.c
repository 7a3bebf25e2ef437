/* Checks that cannot fire (cannot-wrap, llvm-pass/idioms/CannotWrap.cpp):
 * the plugin removes a check only where what is known of the operands
 * where it runs leaves no values that wrap. A removed check of that kind
 * never fires, so these are the counterexamples, each a real wrap that a
 * range proof must not take for a bound one: they must stay reported.
 * Built like int.c. */
#include "cases.h"

#define noinline __attribute__((noinline))

/* The bound does not dominate the sum: i < n holds on one path only. */
noinline int keep_cannot_bound_elsewhere(void)
{
	unsigned i = u32_max, n = (unsigned)two;
	if (i < n)
		sink(i);
	sink(i + 1);
	return 0;
}

/* A trip count that lets the counter wrap: i <= n reaches UINT_MAX, and
 * i++ wraps there (k ends the loop). */
noinline int keep_cannot_loop_le(void)
{
	unsigned n = u32_max, k = 0;
	for (unsigned i = n - 1; i <= n && k < 3; i++, k++)
		sink(i);
	return 0;
}

struct counter {
	unsigned v;
};

static noinline void counter_reset(struct counter *c)
{
	c->v = u32_max;
}

/* A range through memory that changes: the field is tested, a call
 * writes it, and it is read again for the sum. */
noinline int keep_cannot_reread(void)
{
	struct counter c = { (unsigned)two };
	if (c.v < 10) {
		counter_reset(&c);
		sink(c.v + 1);
	}
	return 0;
}

/* A bound of the result by a constant that every wrapped run takes to
 * leave (guarded-use, mm/mempolicy.c get_nodes()): maxnode 0 wraps to
 * SIZE_MAX, passes `== 0` as the true -1 would, and is turned away by the
 * bound; the use is on the other side. */
noinline int bound_to_leave(void)
{
	size_t maxnode = zero;
	--maxnode;
	if (maxnode == 0)
		return 0;
	if (maxnode > 32768)
		return 1;
	sink(maxnode);
	return 0;
}

/* Its counterexamples: the leaving side uses the value; the bound is all
 * the value is for (n == 0 answered "too large"); a lower bound lets the
 * wrapped value through to its use. */
noinline int keep_bound_used_leaving(void)
{
	size_t d = zero;
	d = d - 1;
	if (d > 100) {
		sink(d);
		return 1;
	}
	sink(d);
	return 0;
}

noinline int keep_bound_decides(void)
{
	size_t d = zero;
	d = d - 1;
	return d > 100 ? 1 : 0;
}

noinline int keep_bound_lets_through(void)
{
	size_t d = zero;
	d = d - 16;
	if (d < 56)
		return 1;
	sink(d);
	return 0;
}
