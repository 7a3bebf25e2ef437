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
