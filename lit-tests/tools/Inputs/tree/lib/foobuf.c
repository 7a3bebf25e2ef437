// SPDX-License-Identifier: GPL-2.0
#include "foohash.h"

char *foo_buf_end(char *buf, unsigned long len)
{
	return buf + len;
}
