/* The console-log library's own helpers (clpriv.h): no exit(). */
#define _GNU_SOURCE
#include "clpriv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Thread_local int cl_oom;
char cl_nomem[1];

static char *nomem(void)
{
	cl_oom = 1;
	return cl_nomem;
}

char *cl_strdup(const char *s)
{
	char *p = strdup(s ? s : "");
	return p ? p : nomem();
}

char *cl_strndup(const char *s, size_t n)
{
	char *p = strndup(s, n);
	return p ? p : nomem();
}

char *cl_asprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;
	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	return n < 0 ? nomem() : p;
}

void cl_free(void *p)
{
	if (p != cl_nomem)
		free(p);
}

int cl_grow(void *arr, size_t *cap, size_t n, size_t size, size_t first)
{
	void **a = arr;
	if (n < *cap)
		return 0;
	size_t c = *cap ? 2 * *cap : first;
	void *p = realloc(*a, c * size);
	if (!p) {
		cl_oom = 1;
		return -1;
	}
	*a = p;
	*cap = c;
	return 0;
}

int cl_starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

int cl_digits(const char *p, const char *end)
{
	if (p == end)
		return 0;
	for (; p < end; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}
