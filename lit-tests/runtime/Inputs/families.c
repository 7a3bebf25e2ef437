/* Two operations, one test (llvm-pass/SumIdioms.h). Built like int.c. */
#include "cases.h"

#define noinline __attribute__((noinline))

/* end = start + len - 1 with len != 0: start + 3 - 1 wraps past the top,
 * and `end < start` says so. */
noinline int end_inclusive(void)
{
	size_t start = big, len = two + 1, end;
	if (!len)
		return 0;
	end = start + len - 1;
	if (end < start)
		return 1;
	sink(end);
	return 0;
}
/* len may be 0: start = 0, len = 0 wraps end to SIZE_MAX, above start. */
noinline int keep_end_len_unknown(void)
{
	size_t start = zero, len = zero, end;
	end = start + len - 1;
	if (end < start)
		return 1;
	sink(end);
	return 0;
}
/* include/net/checksum.h csum_add(): the carry out added back in. */
noinline int end_around_carry(void)
{
	unsigned res = u32_max, addend = (unsigned)two;
	res += addend;
	sink(res + (res < addend));
	return 0;
}
/* Not the wrap test: the wrapped sum is used as it is. */
noinline int keep_carry_wrong_test(void)
{
	unsigned res = u32_max, addend = (unsigned)two;
	res += addend;
	sink(res + (res > addend));
	return 0;
}
