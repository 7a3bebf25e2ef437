/* Cases whose repeated operand is read from memory twice, or computed by
 * a helper twice (llvm-pass/MemoryFacts.h). Built like int.c. */
#include "cases.h"

#define noinline __attribute__((noinline))

struct range { size_t start, len, flags; };
static struct range shared;

/* A store to another field between the sum and its test. */
noinline int mem_unrelated_field(void)
{
	struct range *r = &shared;
	r->start = big;
	size_t s = r->start + two;
	r->flags = 1;
	return s < r->start;
}
/* A store through a pointer that may be the field itself (it is). */
noinline int keep_mem_may_alias(void)
{
	struct range *r = &shared;
	size_t *volatile alias = &shared.start;
	size_t *q = alias;
	r->start = big;
	size_t s = r->start + two;
	*q = 0;
	return s < r->start; /* compares with 0: the wrap goes unnoticed */
}
