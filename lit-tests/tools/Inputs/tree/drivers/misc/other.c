// SPDX-License-Identifier: GPL-2.0
static int
other_add(int a, int b)
{
	return a + b;
}
