// The data-flow idioms (llvm-pass/IDIOMS.md): the wrapped value is used, but
// only where the program's own test says it did not wrap, or never after a
// branch the wrap itself decides. Each next to the counterexample that must
// keep its check. Same decisions at -O0 and -O2, since the pass sees clang's
// IR before any optimisation.
//
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK --implicit-check-not=remark: %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK --implicit-check-not=remark: %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -S -emit-llvm %s -o - | FileCheck --check-prefix=IR %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -fsanitize-trap=all -S -emit-llvm %s -o - \
// RUN:   | FileCheck --check-prefix=IR %s
// RUN: %clang_plugin -O0 -fsanitize=signed-integer-overflow,unsigned-integer-overflow -S -emit-llvm %s -o - \
// RUN:   | FileCheck --check-prefix=U16 %s

typedef unsigned long size_t;
typedef unsigned int u32;
void use(size_t);
int report(void);
#define unlikely(x) __builtin_expect(!!(x), 0)

// IR-LABEL: define {{.*}} @guarded(
// IR-NOT: {{__ubsan_handle|ubsantrap}}
// IR: ret
int guarded(size_t a, size_t b)
{
	size_t s = a + b; // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: guarded-use
	if (unlikely(s < a))
		return -22;
	use(s);
	return 0;
}

// The wrap side must leave: a warning that falls through lets the wrapped
// range reach the bound test, which it passes (off + len wrapped to 0).
void warn(void);
// IR-LABEL: define {{.*}} @warn_falls_through(
// IR: {{__ubsan_handle_add_overflow|ubsantrap}}
int warn_falls_through(size_t off, size_t len, size_t size)
{
	size_t end = off + len; // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept {{.*}}: the wrap side of the test falls through, and a decision on the wrapped sum reaches 'ret'
	if (end < off)
		warn();
	if (end > size)
		return -22;
	return 0;
}

// The wrap side skips a store and goes on to decide on the wrapped sum.
extern int flag;
// IR-LABEL: define {{.*}} @wrap_side_decides(
// IR: {{__ubsan_handle_add_overflow|ubsantrap}}
int wrap_side_decides(size_t a, size_t b)
{
	size_t s = a + b; // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept {{.*}}: the wrap side of the test falls through, and a decision on the wrapped sum reaches 'ret'
	if (s >= a)
		flag = 1;
	return s < 100;
}

// The same with the wrap side leaving: the bound sees only unwrapped ends.
// IR-LABEL: define {{.*}} @warn_and_leave(
// IR-NOT: {{__ubsan_handle|ubsantrap}}
// IR: ret
int warn_and_leave(size_t off, size_t len, size_t size)
{
	size_t end = off + len; // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: guarded-use
	if (end < off) {
		warn();
		return -75;
	}
	if (end > size)
		return -22;
	return 0;
}

// IR-LABEL: define {{.*}} @used_first(
// IR: {{__ubsan_handle_add_overflow|ubsantrap}}
int used_first(size_t a, size_t b)
{
	size_t s = a + b; // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept {{.*}}: the sum is used by 'call' before any wrap test
	use(s);
	if (s < a)
		return -22;
	return 0;
}

// IR-LABEL: define {{.*}} @returned_on_wrap(
// IR: {{__ubsan_handle_add_overflow|ubsantrap}}
size_t returned_on_wrap(size_t a, size_t b)
{
	size_t s = a + b; // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept {{.*}}: the sum is used by 'phi' on the wrap path
	if (s < a)
		return s;
	return 0;
}

// Computed again where the earlier test says it cannot wrap.
// IR-LABEL: define {{.*}} @recomputed(
// IR-NOT: {{__ubsan_handle|ubsantrap}}
// IR: ret
int recomputed(size_t start, size_t len)
{
	if (start + len < start) // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed {{.*}}: add-compare
		return -22;
	use(start + len); // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed {{.*}}: guarded-use
	return 0;
}

// drivers/remoteproc: the bound's sum wraps under the bound, but the wrap
// test on the same sum sends it to the same error block.
// IR-LABEL: define {{.*}} @bounds_and_wrap(
// IR-NOT: {{__ubsan_handle|ubsantrap}}
// IR: ret
int bounds_and_wrap(size_t offset, size_t size, size_t limit)
{
	// REMARK: dataflow.c:[[@LINE+2]]:{{[0-9]+}}: remark: removed {{.*}}: bounds-and-wrap
	// REMARK: dataflow.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed {{.*}}: add-compare
	if (offset + size > limit || offset + size < size) {
		report();
		return -22;
	}
	return 0;
}

// x86's __access_ok(): a sign test of the sum and its wrap test in one &&.
// Every wrapped run gets false from `sum >= ptr`, whatever the sign test
// said: the && is a wrap test (a branch and a phi as clang emits it).
// IR-LABEL: define {{.*}} @range_and_wrap(
// IR-NOT: {{__ubsan_handle|ubsantrap}}
// IR: ret
int range_and_wrap(size_t ptr, size_t size)
{
	size_t sum = size + ptr; // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed {{.*}}: bounds-and-wrap
	return (long)sum >= 0 && sum >= ptr;
}

// Its callers branch on it: the wrapped runs take the error side.
int range_and_wrap_branch(size_t ptr, size_t size)
{
	size_t sum = size + ptr; // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed {{.*}}: bounds-and-wrap
	if (!((long)sum >= 0 && sum >= ptr))
		return -14;
	use(ptr);
	return 0;
}

// With ||, the sign test of the wrapped sum decides on wrapped runs.
// IR-LABEL: define {{.*}} @keep_range_or_wrap(
// IR: {{__ubsan_handle_add_overflow|ubsantrap}}
int keep_range_or_wrap(size_t ptr, size_t size)
{
	size_t sum = size + ptr; // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept {{.*}}: the sum is compared signed, the operation is unsigned, and that decision reaches 'ret' before any wrap test
	return (long)sum >= 0 || sum >= ptr;
}

// A side of the && acts: no pure join.
// IR-LABEL: define {{.*}} @keep_range_and_report(
// IR: {{__ubsan_handle_add_overflow|ubsantrap}}
int keep_range_and_report(size_t ptr, size_t size)
{
	size_t sum = size + ptr; // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept {{.*}}: the sum is compared signed, the operation is unsigned, and that decision reaches '{{call|ret}}' before any wrap test
	return (long)sum >= 0 && report() && sum >= ptr;
}

// The && decides, then the wrapped sum is used whatever it said.
// IR-LABEL: define {{.*}} @keep_range_and_then_use(
// IR: {{__ubsan_handle_add_overflow|ubsantrap}}
int keep_range_and_then_use(size_t ptr, size_t size)
{
	size_t sum = size + ptr; // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept {{.*}}: the sum is used by 'call' before any wrap test
	int ok = (long)sum >= 0 && sum >= ptr;
	use(sum);
	return ok;
}

// A decision on the wrapped sum acts before the wrap test: real bug.
// IR-LABEL: define {{.*}} @acts_before_test(
// IR: {{__ubsan_handle_add_overflow|ubsantrap}}
int acts_before_test(size_t off, size_t len, size_t lim)
{
	if (off + len > lim) // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept {{.*}}: the sum is compared with a value that is not an addend, and that decision reaches 'call' before any wrap test
		return -22;
	use(off);
	if (off + len < off) // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed {{.*}}: add-compare
		return -22;
	return 0;
}

// IR-LABEL: define {{.*}} @mul_div(
// IR-NOT: {{__ubsan_handle|ubsantrap}}
// IR: ret
int mul_div(size_t a, size_t b)
{
	size_t p = a * b; // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on mul: mul-div
	if (a && p / a != b)
		return -75;
	use(p);
	return 0;
}

// In a scope with locals, -O1 and up give clang's exits of the scope one
// cleanup block that switches on which exit was taken (lifetime markers);
// the wrap path `goto out` must not be followed into the `return p` exit.
// Same decision at -O0 (no cleanup block) and -O2.
// IR-LABEL: define {{.*}} @mul_div_scoped(
// IR-NOT: {{__ubsan_handle|ubsantrap}}
// IR: ret
unsigned mul_div_scoped(unsigned x0, unsigned x1)
{
	{
		unsigned p = x1 * 3U; // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on mul: mul-div
		if (x1 && p / x1 != 3U) {
			flag = 1;
			goto out;
		}
		if (x0 == 3)
			return p;
	}
out:
	return 0;
}

// Divided back by the wrong factor: `p / a != a` is no wrap test (a = b =
// 0xfffffffe wraps to p = 4, and 4 / a == 0 != a says "wrapped" only by
// chance; a = 0x10000, b = 0x10001 wraps with p / a == 1). Found by the
// wrap oracle (fuzz/wrap-oracle), which the plugin took for loop-counter.
// IR-LABEL: define {{.*}} @mul_div_wrong_factor(
// IR: {{__ubsan_handle_mul_overflow|ubsantrap}}
int mul_div_wrong_factor(unsigned a, unsigned b)
{
	unsigned p = a * b; // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on mul
	if (a && p / a != a)
		flag = 1;
	return 0;
}

// IR-LABEL: define {{.*}} @mul_untested(
// IR: {{__ubsan_handle_mul_overflow|ubsantrap}}
size_t mul_untested(size_t n)
{
	return n * sizeof(long); // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept {{.*}} mul: the product is used by 'ret' before any wrap test
}

// IR-LABEL: define {{.*}} @loop_while(
// IR-NOT: {{__ubsan_handle|ubsantrap}}
// IR: ret
void loop_while(size_t n)
{
	while (n--) // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on sub: loop-counter
		use(n);
}

// IR-LABEL: define {{.*}} @loop_do(
// IR-NOT: {{__ubsan_handle|ubsantrap}}
// IR: ret
void loop_do(size_t n)
{
	do
		use(n);
	while (n--); // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed {{.*}}: loop-counter
}

// IR-LABEL: define {{.*}} @loop_for(
// IR-NOT: {{__ubsan_handle|ubsantrap}}
// IR: ret
void loop_for(size_t n)
{
	for (; n--;) // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed {{.*}}: loop-counter
		use(0);
}

// The counter escapes the loop: clang's own ignore-overflow-pattern hides
// this one; the plugin keeps it.
// IR-LABEL: define {{.*}} @loop_escapes(
// IR: {{__ubsan_handle_sub_overflow|ubsantrap}}
size_t loop_escapes(size_t n)
{
	while (n--) // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept {{.*}}: the difference wraps only on the exit path its wrap decides, and 'ret' uses it there
		use(n);
	return n;
}

// Pre-decrement tests the wrapped value itself, for equality with 0: the
// wrapped and the true value (ULONG_MAX, -1) answer alike, so the loop goes
// on as the true value would, and uses it.
// IR-LABEL: define {{.*}} @pre_decrement(
// IR: {{__ubsan_handle_sub_overflow|ubsantrap}}
void pre_decrement(size_t n)
{
	while (--n) // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept {{.*}}: the difference is used by 'call' before any wrap test
		use(n);
}

// A wrap test on each element.
// IR-LABEL: define {{.*}} @each_element(
// IR-NOT: {{__ubsan_handle_add_overflow}}
// IR: ret
int each_element(const size_t *off, const size_t *len, u32 n)
{
	// i < n: i++ cannot wrap
	// REMARK-DAG: dataflow.c:[[@LINE+2]]:{{[0-9]+}}: remark: removed {{.*}}: cannot-wrap
	// REMARK-DAG: dataflow.c:[[@LINE+2]]:{{[0-9]+}}: remark: removed {{.*}}: add-compare
	for (u32 i = 0; i < n; i++)
		if (off[i] + len[i] < off[i])
			return -22;
	return 0;
}

// include/linux/bitmap.h: only the low bits of the negation are used.
// IR-LABEL: define {{.*}} @bitmap_offset(
// IR-NOT: {{__ubsan_handle|ubsantrap}}
// IR: ret
size_t bitmap_offset(u32 nbits)
{
	return -(nbits) & (64 - 1); // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on negate: modular
}

// IR-LABEL: define {{.*}} @hash8(
// IR-NOT: {{__ubsan_handle|ubsantrap}}
// IR: ret
unsigned char hash8(u32 h, u32 k)
{
	// REMARK-DAG: dataflow.c:[[@LINE+2]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on mul: modular
	// REMARK-DAG: dataflow.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: modular
	return (unsigned char)(h * 0x9e3779b1u + k);
}

// -var used whole stays checked.
// IR-LABEL: define {{.*}} @negate_whole(
// IR: {{__ubsan_handle_negate_overflow|ubsantrap}}
size_t negate_whole(size_t len)
{
	return -len; // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept {{.*}} negate: the negation is used by 'ret' before any wrap test
}

// IR-LABEL: define {{.*}} @neg_const(
// IR-NOT: {{__ubsan_handle|ubsantrap}}
// IR: ret
size_t neg_const(size_t x)
{
	return x & -4096UL; // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on negate: neg-const
}

// include/linux/srcutree.h's SRCU_GP_SEQ_INITIAL_VAL, ((0UL - 100UL) <<
// RCU_SEQ_CTR_SHIFT): the same negation of a constant, written as a
// subtraction from 0. clang checks it as a subtraction.
// IR-LABEL: define {{.*}} @neg_const_sub(
// IR-NOT: {{__ubsan_handle|ubsantrap}}
// IR: ret
size_t neg_const_sub(void)
{
	return (0UL - 100UL) << 2; // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on sub: neg-const
}

// Must keep: a variable subtracted from 0, even one that promotion makes a
// constant (as `one = 1; -one`), and a constant minuend other than 0.
// IR-LABEL: define {{.*}} @neg_sub_local(
// IR: {{__ubsan_handle_sub_overflow|ubsantrap}}
size_t neg_sub_local(void)
{
	size_t x = 100;
	return 0UL - x; // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on sub
}

// IR-LABEL: define {{.*}} @neg_sub_var(
// IR: {{__ubsan_handle_sub_overflow|ubsantrap}}
size_t neg_sub_var(size_t x)
{
	return 0UL - x; // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on sub
}

// IR-LABEL: define {{.*}} @sub_const_nonzero(
// IR: {{__ubsan_handle_sub_overflow|ubsantrap}}
size_t sub_const_nonzero(void)
{
	return 5UL - 100UL; // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on sub
}

// A ring index stepped back: head - 5 wraps iff head < 5, and then the
// selected 16 (>= 5) wraps it back; on the other side 0 (<= 5) cannot wrap.
// IR-LABEL: define {{.*}} @ring_back(
// IR-NOT: {{__ubsan_handle|ubsantrap}}
// IR: ret
unsigned long ring_back(unsigned long head)
{
	unsigned long y = head - 5; // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on sub: carry-select
	// REMARK: dataflow.c:[[@LINE+1]]:{{.*}} removed unsigned-integer-overflow check on add: carry-select
	return y + ((y > head) ? 16 : 0);
}

// The corrections must make the result exact on both sides. Too large on
// the no-wrap side: x = 100 gives 95 + 0xfffffff0, which wraps.
// IR-LABEL: define {{.*}} @carry_wide(
// IR: {{__ubsan_handle_add_overflow|ubsantrap}}
unsigned carry_wide(unsigned x)
{
	unsigned y = x - 5; // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on sub
	// REMARK: dataflow.c:[[@LINE+1]]:{{.*}} kept unsigned-integer-overflow check on add
	return y + ((x > y) ? 0xfffffff0u : 5u);
}

// Too small on the wrap side: x = 2 gives 0xfffffffd + 1, still wrapped.
// IR-LABEL: define {{.*}} @carry_short(
// IR: {{__ubsan_handle_sub_overflow|ubsantrap}}
unsigned carry_short(unsigned x)
{
	unsigned y = x - 5; // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on sub
	// REMARK: dataflow.c:[[@LINE+1]]:{{.*}} kept unsigned-integer-overflow check on add
	return y + ((x > y) ? 0u : 1u);
}

// arch/x86/include/asm/page_64.h: __phys_addr_nodebug(). Exact only for x
// in the kernel map or the direct map, which the IR does not say: the
// checks stay, and the x86 ignorelist names the header.
extern unsigned long phys_base;
// IR-LABEL: define {{.*}} @phys_addr(
// IR: {{__ubsan_handle_sub_overflow|ubsantrap}}
unsigned long phys_addr(unsigned long x)
{
	unsigned long y = x - 0xffffffff80000000UL; // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on sub
	// REMARK: dataflow.c:[[@LINE+1]]:{{.*}} kept unsigned-integer-overflow check on add
	x = y + ((x > y) ? phys_base : (0xffffffff80000000UL - 0xffff888000000000UL));
	return x;
}

// The same subtraction with the difference used without the selection.
// IR-LABEL: define {{.*}} @phys_addr_unselected(
// IR: {{__ubsan_handle_sub_overflow|ubsantrap}}
unsigned long phys_addr_unselected(unsigned long x)
{
	unsigned long y = x - 0xffffffff80000000UL; // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept {{.*}}: the difference is used by 'call' on the wrap path
	// REMARK: dataflow.c:[[@LINE+1]]:{{.*}} kept {{.*}}: the sum is used by 'ret' before any wrap test
	x = y + ((x > y) ? phys_base : 0);
	use(y);
	return x;
}

// include/linux/jiffies.h: time_after() compares two wrapping counters by
// the sign of their difference (serial-number arithmetic).
#define time_after(a, b) ((long)((b) - (a)) < 0)
#define time_after_eq(a, b) ((long)((a) - (b)) >= 0)
// IR-LABEL: define {{.*}} @jiffies_after(
// IR-NOT: {{__ubsan_handle|ubsantrap}}
// IR: ret
int jiffies_after(size_t now, size_t timeout)
{
	return time_after(now, timeout); // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
}

// kernel/sched/fair.c: the signed difference kept in a variable, then tested.
// IR-LABEL: define {{.*}} @vruntime_later(
// IR-NOT: {{__ubsan_handle|ubsantrap}}
// IR: ret
int vruntime_later(unsigned long long v, unsigned long long min)
{
	long long delta = (long long)(v - min); // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
	if (delta > 0)
		return 1;
	return time_after_eq(v, min); // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
}

// kernel/time/timer.c __mod_timer(): the difference tested for zero, then
// by its sign. Zero is exact under the wrap (equal counters), the sign test
// is serial-number arithmetic.
// IR-LABEL: define {{.*}} @timer_diff(
// IR-NOT: {{__ubsan_handle|ubsantrap}}
// IR: ret
int timer_diff(size_t expires, size_t new_expires, int reduce)
{
	long diff = expires - new_expires; // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
	if (!diff)
		return 1;
	if (reduce && diff <= 0)
		return 1;
	return 0;
}

// Counterexamples: compared with something other than zero, only tested
// for zero (no sign test: not a serial comparison), or the difference
// used as a value after its sign test. The third reads the difference only
// as signed: its check stays, re-checked (signed-difference); a test for
// zero alone reads no sign, so the first two stay plain checks.
// IR-LABEL: define {{.*}} @serial_only_zero(
// IR: {{__ubsan_handle_sub_overflow|ubsantrap}}
int serial_only_zero(size_t a, size_t b)
{
	long d = a - b; // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on sub
	return !d;
}

// IR-LABEL: define {{.*}} @serial_zero_and_five(
// IR: {{__ubsan_handle_sub_overflow|ubsantrap}}
int serial_zero_and_five(size_t a, size_t b)
{
	long d = a - b; // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on sub
	if (!d)
		return 1;
	return d == 5;
}

// IR-LABEL: define {{.*}} @serial_not_zero(
// IR: {{__ubsan_handle_sub_overflow|ubsantrap}}
int serial_not_zero(size_t a, size_t b)
{
	return (long)(a - b) < 5; // REMARK: dataflow.c:[[@LINE]]:{{.*}} re-checked unsigned-integer-overflow check on sub: signed-difference
}

// IR-LABEL: define {{.*}} @serial_used(
// IR: {{__ubsan_handle_sub_overflow|ubsantrap}}
int serial_used(size_t a, size_t b)
{
	long d = a - b; // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on sub: the difference is sign-tested as in serial-number arithmetic, but also used: a wrap by 2^63 or more passes the test and reaches that use
	if (d < 0)
		return 0;
	use(d);
	return 1;
}

// include/linux/rcupdate.h spells the same sign test unsigned: ULONG_MAX /
// 2 >= d holds exactly for the d whose top bit is clear, d >= 0 read as
// signed. Any predicate and constant whose exact region is one of the four
// sign halves (d >= 0, d < 0, d > 0, d <= 0) is such a test, at any width.
#define ULONG_MAX (~0UL)
#define UINT_MAX (~0U)
#define ULONG_CMP_GE(a, b) (ULONG_MAX / 2 >= (a) - (b))
#define ULONG_CMP_LT(a, b) (ULONG_MAX / 2 < (a) - (b))
// IR-LABEL: define {{.*}} @ulong_cmp_ge(
// IR-NOT: {{__ubsan_handle|ubsantrap}}
// IR: ret
int ulong_cmp_ge(size_t cur, size_t s)
{
	return ULONG_CMP_GE(cur, s); // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
}

// IR-LABEL: define {{.*}} @ulong_cmp_lt(
// IR-NOT: {{__ubsan_handle|ubsantrap}}
// IR: ret
int ulong_cmp_lt(size_t a, size_t b)
{
	return ULONG_CMP_LT(a, b); // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
}

// The constant on the right, 2^63 itself: d < 2^63 is d >= 0, d >= 2^63
// is d < 0.
// IR-LABEL: define {{.*}} @top_bit_clear(
// IR-NOT: {{__ubsan_handle|ubsantrap}}
// IR: ret
int top_bit_clear(size_t a, size_t b)
{
	if (a - b >= 1UL << 63) // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
		return -1;
	return a - b < 1UL << 63; // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
}

// The sets are compared, not the spellings: (long)d > -1 is d >= 0.
// IR-LABEL: define {{.*}} @above_minus_one(
// IR-NOT: {{__ubsan_handle|ubsantrap}}
// IR: ret
int above_minus_one(size_t a, size_t b)
{
	return (long)(a - b) > -1; // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
}

// u32 counters: UINT_MAX / 2 is the half of their width. A u32 difference
// sign-extended to 64 bits keeps its sign: the 64-bit half tests it.
// IR-LABEL: define {{.*}} @uint_cmp_lt(
// IR-NOT: {{__ubsan_handle|ubsantrap}}
// IR: ret
int uint_cmp_lt(u32 a, u32 b)
{
	return UINT_MAX / 2 < a - b; // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
}

// IR-LABEL: define {{.*}} @uint_sign_widened(
// IR-NOT: {{__ubsan_handle|ubsantrap}}
// IR: ret
int uint_sign_widened(u32 a, u32 b)
{
	return ULONG_MAX / 2 >= (size_t)(int)(a - b); // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on sub: serial-compare
}

// u16 counters: C subtracts them in int, on zero-extended operands, which
// cannot overflow: clang emits no check, even with
// -fsanitize=signed-integer-overflow (U16), so there is nothing to decide.
// The test in int, 0x7fff >= a - b, is no u16 sign test anyway (it holds
// for every negative int); the exact one is on (u16)(a - b).
// U16-LABEL: define {{.*}} @ushort_cmp_ge(
// U16-NOT: {{__ubsan_handle|ubsantrap}}
// U16: ret
int ushort_cmp_ge(unsigned short a, unsigned short b)
{
	return 0x7fff >= (unsigned short)(a - b) && 0x7fff >= a - b;
}

// Must keep: a quarter is a guard band, not a sign (ULONG_MAX / 4 >= d),
// one past the half (d > 2^63: 2^63 itself is below the half), a small
// bound, an unsigned comparison with a variable, and ULONG_CMP_GE() on u32
// counters, where the difference is zero-extended and the test always
// holds.
// IR-LABEL: define {{.*}} @serial_quarter(
// IR: {{__ubsan_handle_sub_overflow|ubsantrap}}
int serial_quarter(size_t a, size_t b)
{
	return ULONG_MAX / 4 >= a - b; // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on sub
}

// IR-LABEL: define {{.*}} @serial_past_half(
// IR: {{__ubsan_handle_sub_overflow|ubsantrap}}
int serial_past_half(size_t a, size_t b)
{
	return a - b > ULONG_MAX / 2 + 1; // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on sub
}

// IR-LABEL: define {{.*}} @serial_at_most_five(
// IR: {{__ubsan_handle_sub_overflow|ubsantrap}}
int serial_at_most_five(size_t a, size_t b)
{
	return a - b <= 5; // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on sub
}

// IR-LABEL: define {{.*}} @serial_below_var(
// IR: {{__ubsan_handle_sub_overflow|ubsantrap}}
int serial_below_var(size_t a, size_t b, size_t half)
{
	return half >= a - b; // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on sub
}

// IR-LABEL: define {{.*}} @uint_ulong_cmp_ge(
// IR: {{__ubsan_handle_sub_overflow|ubsantrap}}
int uint_ulong_cmp_ge(u32 a, u32 b)
{
	return ULONG_CMP_GE(a, b); // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on sub
}

// include/linux/align.h: ALIGN_DOWN(x, a) is ((x - (a - 1)) + (a - 1)) & ~(a - 1).
// For x < a - 1 the difference wraps and the addition wraps it back: the sum
// is x exactly.
#define __ALIGN_KERNEL(x, a) __ALIGN_KERNEL_MASK(x, (__typeof__(x))(a) - 1)
#define __ALIGN_KERNEL_MASK(x, mask) (((x) + (mask)) & ~(mask))
#define ALIGN_DOWN(x, a) __ALIGN_KERNEL((x) - ((a) - 1), (a))
// IR-LABEL: define {{.*}} @pageblock_start(
// IR-NOT: {{__ubsan_handle|ubsantrap}}
// IR: ret
size_t pageblock_start(size_t pfn)
{
	// REMARK-DAG: dataflow.c:[[@LINE+2]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on sub: add-back
	// REMARK-DAG: dataflow.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: add-back
	return ALIGN_DOWN(pfn, 1024);
}

// The difference used on its own keeps its check; the addition that
// restores the minuend needs none.
// IR-LABEL: define {{.*}} @sub_used_then_added(
// IR: {{__ubsan_handle_sub_overflow|ubsantrap}}
size_t sub_used_then_added(size_t x, size_t m)
{
	size_t d = x - m; // REMARK: dataflow.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on sub
	use(d);
	return d + m; // REMARK: dataflow.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: add-back
}

// Something else added back: no add-back. The three steps are one
// expression, though, whose final result (x + 1) is re-checked: the inner
// steps go (final-result, FinalResult.h).
size_t sub_other_added(size_t x, size_t m)
{
	// REMARK-DAG: dataflow.c:[[@LINE+2]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on sub: final-result
	// REMARK-DAG: dataflow.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: final-result
	return (x - m) + (m + 1); // REMARK-DAG: dataflow.c:[[@LINE]]:{{[0-9]+}}: remark: re-checked unsigned-integer-overflow check on add: final-result
}
