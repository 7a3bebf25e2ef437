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

/* Small helpers computing the repeated operand (the kernel sites of issue
 * 12: arch/x86/kvm/x86.c, fs/ext4/resize.c). */
static inline size_t to_gfn(size_t gpa) { return gpa >> 12; }
struct sb { size_t blocks; struct range *info; };
static inline size_t blocks_count(const struct sb *s) { return s->blocks; }
static inline struct range *sb_info(const struct sb *s) { return s->info; }
static inline void set_blocks(struct sb *s, size_t v) { s->blocks = v; }
static inline size_t take(struct sb *s) { return s->blocks++; }
static struct sb the_sb = { 0, &shared };

noinline int helper_pure(void)
{
	size_t gpa = big, npages = big;
	return to_gfn(gpa) + npages <= to_gfn(gpa);
}
noinline int helper_reads(void)
{
	size_t n = two; /* a volatile read between the calls would count as a write */
	the_sb.blocks = big;
	return blocks_count(&the_sb) + n < blocks_count(&the_sb);
}
/* A helper call between the two loads of one field. */
noinline int helper_between_loads(void)
{
	the_sb.blocks = big;
	shared.len = two;
	return the_sb.blocks + sb_info(&the_sb)->len < the_sb.blocks;
}
/* The helper writes: each call is another value. */
noinline int keep_helper_writes(void)
{
	the_sb.blocks = big;
	return take(&the_sb) + two < take(&the_sb);
}
/* A helper that writes the field runs between the sum and its test. */
noinline int keep_helper_writes_between(void)
{
	the_sb.blocks = big;
	size_t s = blocks_count(&the_sb) + two;
	set_blocks(&the_sb, 0);
	return s < blocks_count(&the_sb);
}
/* caller-handled: a static helper returns the sum, its one caller tests it
 * (idioms/CallerHandled.h). */
static noinline size_t range_end(size_t start, size_t len)
{
	return start + len;
}
noinline int caller_handled(void)
{
	size_t start = big, end = range_end(start, two);
	if (end < start)
		return 1;
	sink(end);
	return 0;
}
/* Two callers: the first tests the result, the second uses it unchecked,
 * and the wrap reaches it there. */
static noinline size_t span_end(size_t start, size_t len)
{
	return start + len;
}
noinline int span_checked(size_t start, size_t len)
{
	size_t end = span_end(start, len);
	if (end < start)
		return 1;
	sink(end);
	return 0;
}
noinline int keep_caller_unchecked(void)
{
	sink(span_end(big, two));
	return span_checked(one, two);
}
/* caller-handled with fields: the helper adds two fields read through its
 * parameter and writes nothing; the caller tests against the same field. */
struct ext { size_t start, len; };
static struct ext the_ext;
static noinline size_t ext_end(const struct ext *e)
{
	return e->start + e->len;
}
noinline int caller_handled_field(void)
{
	the_ext.start = big;
	the_ext.len = two;
	size_t end = ext_end(&the_ext);
	if (end < the_ext.start)
		return 1;
	sink(end);
	return 0;
}
/* The caller moves the start between the call and its test: the test
 * compares with another value, and the wrapped end is used. */
static noinline size_t ext_end2(const struct ext *e)
{
	return e->start + e->len;
}
noinline int keep_caller_field_moved(void)
{
	the_ext.start = big;
	the_ext.len = two;
	size_t end = ext_end2(&the_ext);
	the_ext.start = zero;
	if (end < the_ext.start)
		return 1;
	sink(end);
	return 0;
}
