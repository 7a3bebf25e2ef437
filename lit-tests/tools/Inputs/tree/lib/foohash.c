// SPDX-License-Identifier: GPL-2.0
/* Fixture: a hash library with an intentional wrap and a real overflow. */
#include <linux/barhash.h>
#include "foohash.h"

static int foo_scale = 3;

int foo_mix(int a, int b)
{
	int s;

	s = a + b;
	return s * foo_scale;
}

unsigned int foo_hash(unsigned int h, unsigned int k)
{
	if (h + k < h) /* wrapped: the caller folds the carry back in */
		return k;
	return bar_hash(h, k);
}

unsigned int foo_room(unsigned int size, unsigned int used)
{
	if (size - used > size) /* used > size: no room */
		return 0;
	return size - used;
}
