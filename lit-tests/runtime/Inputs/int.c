/* Integer cases; built with -fwrapv (like the kernel's
 * -fno-strict-overflow), so the signed wrap tests are defined. */
#include "cases.h"

#define unlikely(x) __builtin_expect(!!(x), 0)
#define WRAPS(a, b) ((a) + (b) < (a))
#define noinline __attribute__((noinline))

typedef long long loff_t;
struct vma { size_t vm_start, vm_pgoff; };

noinline int add_lt(void) { size_t a = big, b = two; return a + b < a; }
noinline int add_le(void) { size_t a = big, b = two; return a + b <= a; }
noinline int add_gt_reversed(void) { size_t a = big, b = two; return a > a + b; }
noinline int add_ge_reversed(void) { size_t a = big, b = two; return a >= a + b; }
noinline int add_other_addend(void) { size_t addr = big, count = two; return addr + count < count; }
noinline int add_gt(void) { size_t a = big, b = two; return a + b > a; }
noinline int add_macro_unlikely(void)
{
	size_t pgoff = big, size = two << 12;
	if (unlikely(WRAPS(pgoff, (size >> 12))))
		return 1;
	return 0;
}
noinline int add_widened(void) { unsigned a = u32_max, b = two; return (unsigned long long)(a + b) < (unsigned long long)a; }
noinline int add_two_tests(void)
{
	loff_t pos_in = 0, pos_out = (loff_t)big;
	unsigned long long count = two;
	/* pos_in + count does not wrap, pos_out + count does: both run. */
	if (pos_in + count < pos_in || pos_out + count < pos_out)
		return 1;
	return 0;
}
noinline int add_fields(void) { struct vma v = { 0, big }; struct vma *p = &v; size_t pages = two; return p->vm_pgoff + pages < p->vm_pgoff; }
noinline int add_local_only_tested(void) { size_t a = big, b = two; size_t end = a + b; return end < a; }
noinline int sub_gt(void) { size_t a = one, b = two; return a - b > a; }
noinline int sub_lt_reversed(void) { size_t a = one, b = two; return a < a - b; }
/* Signed tests are exact only when the other operand's sign is known. */
noinline int signed_add(void) { int a = int_max, b = (int)two; if (b < 0) return 0; return a + b < a; }
noinline int signed_loff(void) { loff_t pos = ll_max; unsigned len = (unsigned)two; if (pos + len < pos) return 1; return 0; }
noinline int signed_sub(void) { long a = -ll_max, b = (long)two * 2; if (b < 0) return 0; return a - b > a; }
noinline int signed_add_negative(void) { int a = -int_max, b = -(int)two * 2; if (b >= 0) return 0; return a + b > a; }
/* ...and with nothing known of the sign, the test misses the wrap:
 * -LLONG_MAX + -4 wraps to a large positive sum, not below pos. */
noinline int keep_signed_loff_any(void) { loff_t pos = -ll_max, len = -(loff_t)two * 2; if (pos + len < pos) return 1; return 0; }
noinline int keep_signed_sub_any(void) { long a = ll_max, b = -(long)two; return a - b > a; }

noinline int keep_return(void) { size_t a = big, b = two; sink(a + b); return 0; }
noinline int keep_bounds_only(void) { size_t off = big, len = two, lim = 100; return off + len > lim; }
noinline int keep_other_value(void) { size_t a = big, b = two, c = 5; return a + b < c; }
noinline int keep_two_sums(void) { size_t a = big, b = two, c = one; return a + b < a + c; }
noinline int keep_array_bytes(void) { size_t n = big; sink(n * sizeof(long)); return 0; }
noinline int keep_payload(void) { size_t len = one, hdr = two; sink(len - hdr); return 0; }
noinline int keep_negate(void) { size_t len = two; sink(-len); return 0; }
noinline int keep_used_before_test(void)
{
	size_t a = big, b = two;
	size_t s = a + b;
	sink(s);
	if (s < a)
		return 1;
	return 0;
}
noinline int keep_returned_on_wrap(void)
{
	size_t a = big, b = two;
	size_t s = a + b;
	if (s < a)
		return (int)s;
	return 0;
}
noinline int keep_page_align(void) { size_t offset = zero, len = big; return offset + ((len + 4095) & ~4095UL) < offset; }
noinline int keep_signed_return(void) { int a = int_max, b = (int)two; sink((size_t)(a + b)); return 0; }
noinline int keep_while_escapes(void)
{
	size_t n = two;
	while (n--)
		sink(n);
	/* n wrapped to SIZE_MAX on the last test, and is used here. */
	return (int)(n != 0);
}

/* Data-flow idioms: the value is used, but only where the program's own
 * test says it did not wrap, or never after the wrap. */
noinline int guarded_use(void)
{
	size_t a = big, b = two;
	size_t s = a + b;
	if (s < a)
		return 1;
	sink(s);
	return 0;
}
noinline int guarded_unlikely(void)
{
	size_t a = big, b = two;
	size_t end = a + b;
	if (unlikely(end < a))
		return 1;
	sink(end);
	return 0;
}
/* Tested, then computed again where the test says it cannot wrap. */
noinline int pretested(void)
{
	size_t a = big, b = zero;
	if (a + b < a)
		return 1;
	sink(a + b); /* cannot wrap: b == 0 here, but the check runs */
	b = two;
	if (a + b < a)
		return 1;
	sink(a + b);
	return 0;
}
/* drivers/remoteproc: a bound and a wrap test on the same sum. */
noinline int bounds_and_wrap(void)
{
	size_t offset = big, size = two, limit = 4096;
	if (offset + size > limit || offset + size < size) {
		sink(0);
		return 1;
	}
	sink(offset + size);
	return 0;
}
noinline int mul_div(void)
{
	size_t a = big, b = two;
	size_t p = a * b;
	if (a && p / a != b)
		return 1;
	sink(p);
	return 0;
}
noinline int mul_div_other(void)
{
	size_t a = big, b = two;
	size_t p = a * b;
	if (b != 0 && p / b != a)
		return 1;
	sink(p);
	return 0;
}
/* The counter wraps on the test that ends the loop; it is dead after. */
noinline int loop_while(void) { size_t n = two; while (n--) sink(n); return 0; }
noinline int loop_for(void) { size_t n = two; int k = 0; for (; n--; ) k++; return k != 2; }
noinline int loop_do(void) { size_t n = one; do { sink(n); } while (n--); return 0; }
noinline int loop_gt(void) { unsigned n = (unsigned)two; while (n-- > 0) sink(n); return 0; }
/* A wrap test on each element of an array. */
noinline int loop_each_element(void)
{
	size_t off[3] = { 1, 2, big }, len[3] = { 1, 1, two };
	for (int i = 0; i < 3; i++)
		if (off[i] + len[i] < off[i])
			return 1;
	return 0;
}
/* Only the low bits are used: include/linux/bitmap.h, hashing. */
#define BITS_PER_LONG 64
noinline int modular_bitmap(void) { unsigned nbits = (unsigned)two; sink(-(nbits) & (BITS_PER_LONG - 1)); return 0; }
noinline int modular_trunc(void) { unsigned h = u32_max, k = (unsigned)two; sink((unsigned char)(h * 0x9e3779b1u + k)); return 0; }
noinline int modular_urem(void) { size_t h = big; sink((h * 2654435761UL) % 1024); return 0; }
/* A ring index stepped back: the selected correction undoes the wrap
 * exactly (16 >= 5 on the wrap side, 0 <= 5 on the other). */
noinline int carry_select(void)
{
	size_t head = two, y = head - 5;
	size_t idx = y + ((y > head) ? 16 : 0);
	sink(idx);
	return idx != 13;
}
/* Corrections that do not make the result exact. */
noinline int keep_carry_wide(void) { unsigned x = (unsigned)two * 50, y = x - 5; sink(y + ((x > y) ? 0xfffffff0u : 5u)); return 0; }
noinline int keep_carry_short(void) { unsigned x = (unsigned)two, y = x - 5; sink(y + ((x > y) ? 0u : 1u)); return 0; }
noinline int neg_const(void) { sink(-1UL); return 0; }
noinline int neg_const_mask(void) { size_t x = big; sink(x & -4096UL); return 0; }
/* include/linux/srcutree.h SRCU_GP_SEQ_INITIAL_VAL: the negation written
 * as a subtraction from 0. */
noinline int neg_const_sub(void) { sink((0UL - 100UL) << 2); return 0; }

/* ...and what must stay reported. */
noinline int keep_pre_decrement(void)
{
	size_t n = zero;
	int k = 0;
	while (--n) /* wraps to SIZE_MAX and keeps looping */
		if (++k == 3)
			break;
	return 0;
}
noinline int keep_bounds_then_effect(void)
{
	size_t off = big, len = two, lim = 4096;
	if (off + len > lim) /* wrapped: passes the bound */
		return 1;
	sink(off); /* acts on it before the wrap test below */
	if (off + len < off)
		return 1;
	return 0;
}
noinline int keep_mul_untested(void) { size_t n = big; size_t bytes = n * 8; sink(bytes); return 0; }
noinline int keep_neg_var(void) { size_t one_ = one; sink(-one_); return 0; }
/* 0 - x of a local that promotion makes a constant, and a constant
 * minuend other than 0: no negation of a constant as written. */
noinline int keep_neg_sub_local(void) { size_t x = 100; sink(0UL - x); return 0; }
noinline int keep_sub_const_nonzero(void) { sink(5UL - 100UL); return 0; }
/* include/linux/jiffies.h time_after() across the wrap of the counter. */
noinline int serial_compare(void) { size_t now = (size_t)two, then = big; return (long)(now - then) > 0; }
/* include/linux/rcupdate.h: rcu_seq_done()'s ULONG_CMP_GE(cur, snap), the
 * counter past the wrap; a u32 one spelled UINT_MAX / 2 < a - b. */
#define ULONG_CMP_GE(a, b) (~0UL / 2 >= (a) - (b))
noinline int serial_ulong_cmp(void) { size_t cur = two, snap = big; return ULONG_CMP_GE(cur, snap); }
noinline int serial_uint_cmp(void) { unsigned a = (unsigned)two, b = u32_max; return ~0U / 2 < a - b; }
/* A quarter of the range is a guard band, not a sign test. */
noinline int keep_serial_quarter(void) { size_t cur = two, snap = big; return ~0UL / 4 >= cur - snap; }
/* The sign is tested, but the wrapped difference is then used as a length. */
noinline int keep_serial_used(void) { size_t now = (size_t)two, then = big; long d = now - then; if (d < 0) return 1; sink(d); return 0; }
/* include/linux/align.h ALIGN_DOWN(5, 1024): wraps, then wraps back. */
noinline int add_back(void) { size_t x = (size_t)two; sink(((x - 1023) + 1023) & ~1023UL); return 0; }
/* The wrapped difference itself is used. */
noinline int keep_sub_used_added_back(void) { size_t x = (size_t)two, d = x - 1023; sink(d); sink(d + 1023); return 0; }
noinline int keep_high_bits(void) { unsigned a = u32_max, b = (unsigned)two; sink((a + b) >> 4); return 0; }
/* Signed: `a + b < a` misses a wrap when b < 0, so a guarded use of the
 * sum is not proven safe when b may be negative. */
noinline int keep_guarded_signed_inexact(void)
{
	int a = -int_max, b = -(int)two * 2;
	int s = a + b; /* wraps to a large positive value */
	if (s < a)
		return 1;
	sink((size_t)s);
	return 0;
}
/* The wrap side of the test falls through (a WARN_ON() that does not
 * return): the wrapped end passes the bound. */
noinline int keep_guard_falls_through(void)
{
	size_t off = big, len = two, size = 4096;
	size_t end = off + len;
	if (end < off)
		sink(1);
	if (end > size)
		return 1;
	return 0;
}
/* The wrap side skips a store, then decides on the wrapped sum. */
noinline int keep_wrap_side_decides(void)
{
	size_t a = big, b = two;
	size_t s = a + b;
	if (s >= a)
		sink(1);
	return s < 100;
}
/* The product divided back by the wrong factor: no wrap test. */
noinline int keep_mul_div_wrong_factor(void)
{
	unsigned a = 0x10000, b = (unsigned)two * 0x8000 + 1;
	unsigned p = a * b; /* wraps to 0x10000, and p / a == 1 != a */
	if (a && p / a != a)
		sink(1);
	return 0;
}
