// SPDX-License-Identifier: GPL-2.0
/* Fixture for tests/cocci-test.sh: add_would_overflow.cocci. */

struct page;

int idiom_lt(unsigned long a, unsigned long b)
{
	if (add_would_overflow(a, b))
		return -1;
	return 0;
}

int idiom_lt_second(unsigned long a, unsigned long b)
{
	if (add_would_overflow(b, a))
		return -1;
	return 0;
}

int idiom_gt_reversed(unsigned long a, unsigned long b)
{
	if (add_would_overflow(a, b))
		return -1;
	return 0;
}

int idiom_ge_no_wrap(unsigned long a, unsigned long b)
{
	if (!add_would_overflow(a, b))
		return 0;
	return -1;
}

int idiom_le_reversed_no_wrap(unsigned long a, unsigned long b)
{
	return !add_would_overflow(a, b);
}

int idiom_cast(const void *addr, unsigned long count)
{
	if (add_would_overflow(count, (unsigned long)addr))
		return -1;
	return 0;
}

int idiom_unlikely_macro(unsigned long offset, unsigned long len)
{
	if (unlikely(add_would_overflow(offset, PAGE_ALIGN(len))))
		return -1;
	return 0;
}

int idiom_two_ored(long long pos_in, long long pos_out, unsigned long count)
{
	if (add_would_overflow(pos_in, count) || add_would_overflow(pos_out, count))
		return -1;
	return 0;
}

int idiom_pointer(struct page *p, unsigned long n)
{
	if (add_would_overflow(p, n))
		return -1;
	return 0;
}

int idiom_shift(unsigned long pgoff, unsigned long size)
{
	if (add_would_overflow(pgoff, (size >> PAGE_SHIFT)))
		return -1;
	return 0;
}

int non_strict_le(unsigned long a, unsigned long b)
{
	if (a + b <= a)
		return -1;
	return 0;
}

int non_idiom_other_bound(unsigned long a, unsigned long b, unsigned long c)
{
	if (a + b < c)
		return -1;
	return 0;
}

int non_idiom_sub(unsigned long a, unsigned long b)
{
	if (a - b < a)
		return -1;
	return 0;
}

int non_idiom_mul(unsigned long a, unsigned long b)
{
	if (a * b < a)
		return -1;
	return 0;
}

int non_idiom_different(unsigned long a, unsigned long b, unsigned long c)
{
	if (a + b < a + c)
		return -1;
	return 0;
}
