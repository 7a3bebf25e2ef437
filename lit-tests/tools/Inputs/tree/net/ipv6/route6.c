// SPDX-License-Identifier: GPL-2.0
long route6_metric(long base, long scale)
{
	return base * scale;
}

long route6_ratio(long a, long b)
{
	return a / b;
}
