/* The oracle build's runtime: an event log on stdout (judge.py reads it)
 * and the ideal value of a conversion. Built with -O0 -fwrapv and no
 * sanitizer: the machine values are what the program computes. */
#include <stdio.h>

typedef unsigned long long u64;

volatile unsigned long g_store;
static unsigned long sunk;
void sink(unsigned long v) { sunk += v; }
void sink_long(long v) { sunk += (unsigned long)v; }
void warn(void) { }

static void ev_F(int f, int call) { printf("F %d %d\n", f, call); }
/* Operation k gave v (its machine result), wrapped or not; its operands
 * depend on the operations in d (judge.py: a leaf's wrap reported). */
static void ev_W(int k, int w, u64 v, u64 d)
{
	printf("W %d %d %llx %llx\n", k, w, v, d);
}
/* An unsigned add, sub or negation (recheck.py): is its true result,
 * operands read with their own C types, out of the result type's range
 * (the signed-offset meaning), is the difference of its operands converted
 * to the result type out of the signed type's range (the signed-difference
 * meaning), did it wrap as unsigned arithmetic (what clang's plain check
 * tests), is its ideal result, from its operands' ideal values, out of the
 * result type's range (the circular-difference meaning: d + size with d the
 * true a - b, negative where the program corrects it), and are the true
 * result (sgn) and the ideal one (isgn) out of the range of the signed type
 * of the result's width (the same, for a result read as signed)? */
static void ev_R(int k, int off, int diff, int uw, int ideal, int sgn,
		 int isgn)
{
	printf("R %d %d %d %d %d %d %d\n", k, off, diff, uw, ideal, sgn, isgn);
}
/* A counterfactual run (run.py, judge.py) gives some comparisons, each at
 * its n-th evaluation in the call, their ideal outcome instead: every
 * decision the wrapped value took differently from ideal arithmetic. */
#define MAX_FORCE 16
static int nforce, force_c[MAX_FORCE], force_n[MAX_FORCE], seen_n[MAX_FORCE];

/* Comparison c decided m (id in ideal arithmetic) on values that depend on
 * the operations in d, of which those in w still show their wrap (a value
 * equal to its ideal value shows none: a truncation, a mask or a second
 * wrap absorbed it). */
static int ev_C(int c, char ctx, int m, int id, u64 d, u64 w)
{
	int r;

	m = m != 0;
	r = m;
	printf("C %d %c %d %d %llx %llx\n", c, ctx, m, id != 0, d, w);
	for (int i = 0; i < nforce; i++)
		if (c == force_c[i] && ++seen_n[i] == force_n[i])
			r = id != 0;
	return r;
}
/* An effect of value v, which differs from its ideal value (mismatch),
 * depends on the operations in d and comparisons in c, and shows the wraps
 * of the operations in w. */
static void ev_E(const char *kind, unsigned long v, int mismatch, u64 d, u64 c,
		 u64 w)
{
	printf("E %s %d %llx %llx %lx %llx\n", kind, mismatch, d, c, v, w);
}

static __int128 wrapv(__int128 v, int bits, int sgn)
{
	unsigned __int128 u = (unsigned __int128)v & (((unsigned __int128)1 << bits) - 1);
	if (sgn && (u >> (bits - 1)) & 1)
		return (__int128)u - ((__int128)1 << bits);
	return (__int128)u;
}

/* A conversion to a type no wider than the source reinterprets the bits,
 * in ideal arithmetic too (serial numbers, truncations are modular by
 * intent). A widening one of an unsigned value is the identity on numbers:
 * a difference that wrapped stays negative (`(size_t)(len - 16) < 56` with
 * len < 16 is true in ideal arithmetic); of a signed value it keeps the
 * ideal value where the type holds it, and converts as C does otherwise. */
static __int128 icast(__int128 v, int bits, int sgn, int srcbits, int srcsgn)
{
	if (bits <= srcbits)
		return wrapv(v, bits, sgn);
	if (!srcsgn || wrapv(v, bits, sgn) == v)
		return v;
	return wrapv(v, bits, sgn);
}
