// SPDX-License-Identifier: GPL-2.0
int widget_helper(int w);

int widget_area(int w, int h)
{
	return widget_helper(w) * h;
}

unsigned int widget_flip(unsigned int v)
{
	return -v;
}
