// SPDX-License-Identifier: GPL-2.0
static int topo_lock;

__printf(1, 2) int topo_log(const char *fmt, ...)
{
	return 0;
}

static int
topo_weight(int cpus, int factor)
__must_hold(&topo_lock)
{
	return cpus * factor;
}
