// caller-handled (issue 24): a static helper returns a sum, difference or
// product, and its callers test it. At pipeline start the helper is a call
// at -O0 and -O2 alike; the check in the helper goes only when every call's
// result is handled in its caller as the operation's own would be, and
// stays when one caller does not, when callers cannot all be read, or when
// the helper itself uses the value. Decisions are the same at -O0 and -O2.
//
// RUN: %clang_plugin -O0 -fno-strict-overflow -mllvm -wrap-idiom-signed-wrap \
// RUN:   -fsanitize=signed-integer-overflow,unsigned-integer-overflow \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang_plugin -O2 -fno-strict-overflow -mllvm -wrap-idiom-signed-wrap \
// RUN:   -fsanitize=signed-integer-overflow,unsigned-integer-overflow \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck %s
// Disabled, the rule decides nothing: the handled helpers keep their check.
// RUN: %clang_plugin -O2 -fno-strict-overflow -mllvm -wrap-idiom-signed-wrap \
// RUN:   -mllvm -wrap-idiom-disable=caller-handled \
// RUN:   -fsanitize=signed-integer-overflow,unsigned-integer-overflow \
// RUN:   -Rpass=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=OFF --allow-empty %s
// OFF-NOT: caller-handled

typedef unsigned long u64;
typedef long s64;
extern void use(u64);
extern void use_s(s64);
extern int log_end(u64);
extern u64 limit_of(void);
extern u64 g_base;

// The range end, tested by its caller before any use (guarded-use there).
// CHECK: caller-handled.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: caller-handled
static u64 range_end(u64 start, u64 len) { return start + len; }

int map_range(u64 start, u64 len)
{
	u64 end = range_end(start, len);
	if (end < start)
		return -22;
	use(end);
	return 0;
}

// Two callers: one leaves on the wrap test (guarded-use there), one a
// bound and the wrap test to the same handling (bounds-and-wrap there).
// CHECK: caller-handled.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: caller-handled
static u64 span(u64 a, u64 b) { return a + b; }

int span_wraps(u64 a, u64 b)
{
	if (span(a, b) < a)
		return -75;
	return 0;
}

int span_fits(u64 off, u64 n, u64 lim)
{
	u64 e = span(off, n);
	if (e > lim || e < off)
		return -22;
	use(e);
	return 0;
}

// A constant operand; the argument order of the call differs from the
// helper's parameters.
// CHECK: caller-handled.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: caller-handled
static u64 page_after(u64 pad, u64 x) { (void)pad; return x + 4096; }

int next_page(u64 x)
{
	u64 n = page_after(0, x);
	if (n < x)
		return -75;
	use(n);
	return 0;
}

// A difference tested against its minuend.
// CHECK: caller-handled.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on sub: caller-handled
static u64 room(u64 cap, u64 used) { return cap - used; }

int reserve(u64 cap, u64 used)
{
	u64 r = room(cap, used);
	if (r > cap)
		return -28;
	use(r);
	return 0;
}

// Signed, with the addend's sign known in the caller.
// CHECK: caller-handled.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed signed-integer-overflow check on add: caller-handled
static s64 pos_end(s64 pos, s64 len) { return pos + len; }

int seek_end(s64 pos, s64 len)
{
	if (len < 0)
		return -22;
	s64 e = pos_end(pos, len);
	if (e < pos)
		return -27;
	use_s(e);
	return 0;
}

// Must keep: one caller handles it, the other uses the value unchecked.
// CHECK: caller-handled.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add: the sum is returned, and in use_unchecked(): the sum is used by 'call' before any wrap test
static u64 half_handled(u64 a, u64 b) { return a + b; }

int use_checked(u64 a, u64 b)
{
	u64 e = half_handled(a, b);
	if (e < a)
		return -22;
	use(e);
	return 0;
}

void use_unchecked(u64 a, u64 b) { use(half_handled(a, b)); }

// Must keep: the caller returns the comparison. In a caller only the path
// walk decides, not add-compare's "only compared with an addend", which
// takes any such comparison for the wrap test: `if (e > lim)` with lim the
// addend is as often a bound the wrapped end evades (the wrap oracle's
// helper family found such callers). The walk reads such a test as the
// in-function proofs do: its wrap side may leave without using the value.
// CHECK: caller-handled.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add: the sum is returned, and in returns_test(): a comparison of the sum steers control
static u64 test_sum(u64 a, u64 b) { return a + b; }

int returns_test(u64 a, u64 b) { return test_sum(a, b) < a; }

// Must keep: the caller tests the wrong operand, or the wrong way, or uses
// the value before its test, or ignores it.
// CHECK: caller-handled.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add: the sum is returned, and in wrong_operand():
static u64 wrong_sum(u64 a, u64 b) { return a + b; }

int wrong_operand(u64 a, u64 b, u64 c)
{
	u64 e = wrong_sum(a, b);
	if (e < c)
		return -22;
	use(e);
	return 0;
}

// CHECK: caller-handled.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add: the sum is returned, and in wrong_way():
static u64 way_sum(u64 a, u64 b) { return a + b; }

int wrong_way(u64 a, u64 b)
{
	u64 e = way_sum(a, b);
	if (e > a)
		return -22;
	use(e);
	return 0;
}

// CHECK: caller-handled.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add: the sum is returned, and in used_first():
static u64 early_sum(u64 a, u64 b) { return a + b; }

int used_first(u64 a, u64 b)
{
	u64 e = early_sum(a, b);
	log_end(e);
	if (e < a)
		return -22;
	use(e);
	return 0;
}

// CHECK: caller-handled.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add: the sum is returned, and in ignored():
static u64 dropped_sum(u64 a, u64 b) { return a + b; }

void ignored(u64 a, u64 b) { dropped_sum(a, b); }

// Must keep: not static (a caller in another file may use it unchecked);
// the reason is the data-flow proof's, as for any function.
// CHECK: caller-handled.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add: the sum is used by 'ret' before any wrap test
u64 global_end(u64 a, u64 b) { return a + b; }

int global_caller(u64 a, u64 b)
{
	u64 e = global_end(a, b);
	if (e < a)
		return -22;
	use(e);
	return 0;
}

// Must keep: the helper's address is taken.
// CHECK: caller-handled.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add: the sum is returned, and its helper's address is taken
static u64 taken_end(u64 a, u64 b) { return a + b; }
u64 (*end_fn)(u64, u64) = taken_end;

int taken_caller(u64 a, u64 b)
{
	u64 e = taken_end(a, b);
	if (e < a)
		return -22;
	use(e);
	return 0;
}

// Must keep: the helper also uses the value.
// CHECK: caller-handled.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add: the sum is used by 'call' before any wrap test
static u64 logged_end(u64 a, u64 b) { u64 e = a + b; log_end(e); return e; }

int logged_caller(u64 a, u64 b)
{
	u64 e = logged_end(a, b);
	if (e < a)
		return -22;
	use(e);
	return 0;
}

// An operand read from memory by a helper that writes nothing: a global,
// read again in the caller after the call (here the test is against the
// parameter, which needs no second read).
// CHECK: caller-handled.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: caller-handled
static u64 from_base(u64 off) { return g_base + off; }

int base_caller(u64 off)
{
	u64 e = from_base(off);
	if (e < off)
		return -22;
	use(e);
	return 0;
}

// Fields read through a pointer parameter: the caller's test reads the
// same field of the same object, before or after the call, and nothing
// writes it in between.
struct range { u64 start, len; unsigned hits; unsigned short pages; };
// CHECK: caller-handled.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: caller-handled
static u64 field_end(const struct range *r) { return r->start + r->len; }

int field_after(struct range *r)
{
	u64 e = field_end(r);
	if (e < r->start)
		return -22;
	use(e);
	return 0;
}

int field_before(struct range *r)
{
	u64 s = r->start;
	u64 e = field_end(r);
	if (e < s)
		return -22;
	use(e);
	return 0;
}

// A field widened (`(u64)r->pages`), the other operand a parameter.
// CHECK: caller-handled.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: caller-handled
static u64 pages_end(const struct range *r, u64 base) { return base + r->pages; }

int pages_caller(struct range *r, u64 base)
{
	u64 e = pages_end(r, base);
	if (e < (u64)r->pages)
		return -22;
	use(e);
	return 0;
}

// Must keep: the caller writes the field between the call and its test
// (the test reads another value than the helper added).
// CHECK: caller-handled.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add: the sum is returned, and in field_moved():
static u64 field_end2(const struct range *r) { return r->start + r->len; }

int field_moved(struct range *r)
{
	u64 e = field_end2(r);
	r->start = 0;
	if (e < r->start)
		return -22;
	use(e);
	return 0;
}

// Must keep: the test reads another object's field.
// CHECK: caller-handled.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add: the sum is returned, and in other_object():
static u64 field_end3(const struct range *r) { return r->start + r->len; }

int other_object(struct range *r, struct range *q)
{
	u64 e = field_end3(r);
	if (e < q->start)
		return -22;
	use(e);
	return 0;
}

// Must keep: the helper writes memory, so what it read may not be what
// the caller reads again.
// CHECK: caller-handled.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add: the sum is returned, and its helper writes memory: the fields it reads cannot be read again in the caller
static u64 counted_end(struct range *r) { r->hits = 1; return r->start + r->len; }

int counted_caller(struct range *r)
{
	u64 e = counted_end(r);
	if (e < r->start)
		return -22;
	use(e);
	return 0;
}

// Must keep: a field read at an index the caller cannot name, and a
// volatile read.
struct table { u64 v[4]; };
// CHECK: caller-handled.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add: the sum is returned, and an operand is neither a parameter, a constant nor a field read through a parameter
static u64 slot_end(const struct table *t, int i, u64 n) { return t->v[i] + n; }

int slot_caller(struct table *t, int i, u64 n)
{
	u64 e = slot_end(t, i, n);
	if (e < t->v[i])
		return -22;
	use(e);
	return 0;
}

// CHECK: caller-handled.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add: the sum is returned, and an operand is neither a parameter, a constant nor a field read through a parameter
static u64 vol_end(volatile struct range *r, u64 n) { return r->start + n; }

int vol_caller(volatile struct range *r, u64 n)
{
	u64 e = vol_end(r, n);
	if (e < n)
		return -22;
	use(e);
	return 0;
}

// Must keep: signed, with the addend's sign unknown in the caller.
// CHECK: caller-handled.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept signed-integer-overflow check on add: the sum is returned, and in seek_any():
static s64 any_end(s64 pos, s64 len) { return pos + len; }

int seek_any(s64 pos, s64 len)
{
	s64 e = any_end(pos, len);
	if (e < pos)
		return -27;
	use_s(e);
	return 0;
}

// Must keep: recursive.
// CHECK: caller-handled.c:[[@LINE+5]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add: the sum is returned, and its helper calls itself
static u64 rec_end(u64 a, u64 b)
{
	if (limit_of())
		rec_end(b, a);
	return a + b;
}

int rec_caller(u64 a, u64 b)
{
	u64 e = rec_end(a, b);
	if (e < a)
		return -22;
	use(e);
	return 0;
}

// Must keep: more calls than are read (MaxCallSites, 8).
// CHECK: caller-handled.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add: the sum is returned, and its helper has more than 8 calls to read
static u64 busy_end(u64 a, u64 b) { return a + b; }

#define TEST_ONE(i) if (busy_end(a, b + i) < a) return -i;
int busy_caller(u64 a, u64 b)
{
	TEST_ONE(1) TEST_ONE(2) TEST_ONE(3) TEST_ONE(4) TEST_ONE(5)
	TEST_ONE(6) TEST_ONE(7) TEST_ONE(8) TEST_ONE(9)
	return 0;
}
