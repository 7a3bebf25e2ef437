// SPDX-License-Identifier: GPL-2.0
int sched_ticks(int ticks, int delta)
{
	return ticks - delta;
}
