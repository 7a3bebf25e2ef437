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
noinline int signed_add(void) { int a = int_max, b = (int)two; return a + b < a; }
noinline int signed_loff(void) { loff_t pos = ll_max, len = (loff_t)two; if (pos + len < pos) return 1; return 0; }
noinline int signed_sub(void) { long a = -ll_max, b = (long)two * 2; return a - b > a; }

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
