/* Peer cases: the shapes clang's own tests of its pattern exclusion
 * (clang/test/CodeGen/ignore-overflow-pattern.c and
 * ignore-overflow-pattern-false-pos.c) check, written anew as runtime cases
 * on inputs that really wrap. Where the plugin and clang decide
 * differently, README.md's table says why. Built like int.c. */
#include "cases.h"

#define noinline __attribute__((noinline))

struct inner { unsigned foo, bar; };
struct outer { unsigned base, offset; struct inner in; };
struct outer peer_global = { 0, 0, { 0, 0 } };
unsigned peer_b;

/* Two loads through pointers, nothing stored in between. */
noinline int peer_deref(void)
{
	unsigned x = u32_max, y = (unsigned)two;
	unsigned *p1 = &x, *p2 = &y;
	return *p1 + *p2 < *p1;
}
/* Fields of a nested global struct. */
noinline int peer_nested_struct(void)
{
	peer_global.in.foo = u32_max;
	peer_global.in.bar = (unsigned)two;
	return peer_global.in.foo + peer_global.in.bar < peer_global.in.foo;
}
/* Constant operands (the locals become constants once promoted). */
noinline int peer_constants(void)
{
	unsigned base = 4294967295u, offset = 1;
	return base + offset < base;
}
/* A difference compared with its minuend, `<` form. */
noinline int peer_sub_lt(void)
{
	unsigned a = (unsigned)one, b = (unsigned)two;
	return a - b < a;
}
/* An addend added to itself. */
noinline int peer_doubled(void)
{
	unsigned a = u32_max;
	return a + a < a;
}
/* A helper that writes nothing, called in the sum. */
static unsigned peer_pure(void) { return 4000000000u; }
noinline int peer_call_pure(void)
{
	peer_b = 1000000000u;
	return peer_b + peer_pure() < peer_b;
}
/* The call writes the addend it is compared with: b + some() wraps, and
 * `< b` compares with the new b (0), so the test misses the wrap. */
noinline unsigned peer_writes_b(void) { peer_b = 0; return 4000000000u; }
noinline int keep_peer_call_writes(void)
{
	peer_b = 1000000000u;
	if (peer_b + peer_writes_b() < peer_b)
		return 1;
	return 0;
}
/* a + b + 1 < a: 1 + UINT_MAX wraps to 0, + 1 is 1, not below 1. */
noinline int keep_peer_three_terms(void)
{
	unsigned a = (unsigned)one, b = u32_max;
	return a + b + 1 < a;
}
/* Equality is no wrap test. */
noinline int keep_peer_equal(void)
{
	unsigned a = u32_max, b = (unsigned)two;
	return a + b == a;
}
/* Two calls of a function that returns another value each time. */
static unsigned peer_counter;
noinline unsigned peer_next(void) { return peer_counter += 0x80000000u; }
noinline int keep_peer_two_calls(void)
{
	peer_counter = 0;
	unsigned b = u32_max;
	return peer_next() + b < peer_next();
}
