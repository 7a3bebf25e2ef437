/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_BARHASH_H
#define _LINUX_BARHASH_H

/* Multiplicative hashing: the product wraps by design. */
static inline unsigned int bar_hash(unsigned int x, unsigned int seed)
{
	return x * 2654435761u + seed;
}

#endif
