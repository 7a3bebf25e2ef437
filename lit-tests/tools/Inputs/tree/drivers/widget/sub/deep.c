// SPDX-License-Identifier: GPL-2.0
unsigned long deep_remaining(unsigned long total, unsigned long used)
{
	return total - used;
}
