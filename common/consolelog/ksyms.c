/* System.map: the text symbols of a kernel, to name the raw Call Trace
 * addresses ("0xffffffff8125d4b6") of a kernel built without KALLSYMS. */
#define _GNU_SOURCE
#include "consolelog.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ksym {
	unsigned long long addr;
	char *name;
};

struct cl_ksyms {
	struct ksym *s;
	size_t n;
};

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

struct cl_ksyms *cl_ksyms_load(const char *path)
{
	char *text = cl_read_file(path, NULL);
	struct cl_ksyms *k;
	size_t cap = 0;

	if (!text)
		return NULL;
	k = calloc(1, sizeof(*k));
	if (!k)
		goto nomem;
	for (char *cur = text, *l; (l = cl_next_line(&cur));) {
		unsigned long long a;
		char type, name[256];
		if (sscanf(l, "%llx %c %255s", &a, &type, name) != 3)
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		if (k->n == cap) {
			size_t c = cap ? 2 * cap : 4096;
			struct ksym *s = realloc(k->s, c * sizeof(*k->s));
			if (!s)
				goto nomem;
			k->s = s;
			cap = c;
		}
		k->s[k->n].addr = a;
		if (!(k->s[k->n].name = strdup(name)))
			goto nomem;
		k->n++;
	}
	free(text);
	qsort(k->s, k->n, sizeof(*k->s), ksym_cmp);
	return k;
nomem:
	free(text);
	cl_ksyms_free(k);
	errno = ENOMEM;
	return NULL;
}

void cl_ksyms_free(struct cl_ksyms *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < k->n; i++)
		free(k->s[i].name);
	free(k->s);
	free(k);
}

size_t cl_ksyms_count(const struct cl_ksyms *k)
{
	return k ? k->n : 0;
}

/* The symbol at or below addr; none below the first or more than 1 MiB
 * past the last. */
const char *cl_ksyms_lookup(const struct cl_ksyms *k, unsigned long long addr)
{
	size_t lo = 0, hi;

	if (!k || !k->n || addr < k->s[0].addr)
		return NULL;
	hi = k->n;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (k->s[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	if (lo == k->n - 1 && addr - k->s[lo].addr > (1ULL << 20))
		return NULL;
	return k->s[lo].name;
}
