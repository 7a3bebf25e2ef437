// SPDX-License-Identifier: GPL-2.0
#include <linux/barhash.h>

unsigned int flow_hash(unsigned int a)
{
	return bar_hash(a, 7);
}

int flow_negate(int v)
{
	return -v;
}
