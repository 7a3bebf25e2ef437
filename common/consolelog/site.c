/* UBSan sites (consolelog.h): the reports of one check, keyed as the
 * caller's flags say, in an open-addressing table so a log with many
 * distinct sites stays linear. */
#define _GNU_SOURCE
#include "consolelog.h"
#include "clpriv.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t cl_symbol_name_len(const char *sym)
{
	return sym ? strcspn(sym, ".") : 0;
}

/* The key of a site: kind, file, line, col and what the flags add. */
struct key {
	const char *kind, *file;
	int line, col;
	const char *sanitizer, *frame;
};

static uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static uint64_t key_hash(const struct key *k)
{
	uint64_t h = fnv1a(0xcbf29ce484222325ULL, k->kind, strlen(k->kind) + 1);
	h = fnv1a(h, k->file, strlen(k->file) + 1);
	h = fnv1a(h, &k->line, sizeof(k->line));
	h = fnv1a(h, &k->col, sizeof(k->col));
	if (k->sanitizer)
		h = fnv1a(h, k->sanitizer, strlen(k->sanitizer) + 1);
	return fnv1a(h, k->frame, strlen(k->frame) + 1);
}

static int str_same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int key_same(const struct cl_site *s, const struct key *k)
{
	return s->rep.line == k->line && s->rep.col == k->col && !strcmp(s->rep.kind, k->kind) &&
	       !strcmp(s->file, k->file) && str_same(s->key_sanitizer, k->sanitizer) &&
	       !strcmp(s->frame, k->frame);
}

static struct key site_key(const struct cl_site *s)
{
	return (struct key){ s->rep.kind, s->file, s->rep.line, s->rep.col, s->key_sanitizer,
			     s->frame };
}

/* The slot of k: its site's, or the empty one where it would go. */
static size_t slot_of(const struct cl_sites *t, const struct key *k)
{
	size_t i = (size_t)key_hash(k) & (t->cap_slot - 1);
	while (t->slot[i] && !key_same(&t->s[t->slot[i] - 1], k))
		i = (i + 1) & (t->cap_slot - 1);
	return i;
}

/* Twice as many slots as sites at least. */
static int rehash(struct cl_sites *t)
{
	size_t cap = t->cap_slot ? t->cap_slot : 64;
	while (cap < 2 * (t->n + 1))
		cap *= 2;
	if (cap == t->cap_slot)
		return 0;
	int *slot = calloc(cap, sizeof(*slot));
	if (!slot)
		return -1;
	free(t->slot);
	t->slot = slot;
	t->cap_slot = cap;
	for (size_t k = 0; k < t->n; k++) {
		struct key key = site_key(&t->s[k]);
		t->slot[slot_of(t, &key)] = (int)k + 1;
	}
	return 0;
}

void cl_sites_init(struct cl_sites *t, unsigned flags)
{
	memset(t, 0, sizeof(*t));
	t->flags = flags;
}

int cl_sites_find(const struct cl_sites *t, const struct cl_site *s)
{
	struct key k = site_key(s);
	if (!t->n)
		return -1;
	size_t i = slot_of(t, &k);
	return t->slot[i] ? t->slot[i] - 1 : -1;
}

static void report_copy(struct cl_report *d, const struct cl_report *r)
{
	*d = *r;
	d->kind = cl_strdup(r->kind);
	d->context = cl_strdup(r->context);
	d->file = r->file ? cl_strdup(r->file) : NULL;
}

static void describe(struct cl_report *d, const struct cl_report *r)
{
	d->sanitizer = r->sanitizer;
#define COPY(f) d->f = r->f ? cl_strdup(r->f) : NULL
	COPY(op);
	COPY(values);
	COPY(type);
	COPY(value_line);
	COPY(detail);
	COPY(func);
	COPY(address);
#undef COPY
}

static void description_free(struct cl_report *d)
{
	cl_free(d->op);
	cl_free(d->values);
	cl_free(d->type);
	cl_free(d->value_line);
	cl_free(d->detail);
	cl_free(d->func);
	cl_free(d->address);
}

static void site_free(struct cl_site *s)
{
	description_free(&s->rep);
	cl_free(s->rep.kind);
	cl_free(s->rep.file);
	cl_free(s->rep.context);
	cl_free(s->file);
	cl_free(s->frame);
}

int cl_site_describe(struct cl_site *s, const struct cl_report *r)
{
	struct cl_report d = s->rep;
	cl_oom = 0;
	describe(&d, r);
	if (cl_oom) {
		description_free(&d);
		errno = ENOMEM;
		return -1;
	}
	description_free(&s->rep);
	s->rep = d;
	return 0;
}

int cl_sites_add(struct cl_sites *t, const struct cl_report *r, const char *file, int *is_new)
{
	struct key k = { r->kind, file ? file : "", r->line, r->col, NULL, "" };
	char *frame = NULL;

	*is_new = 0;
	if (t->flags & CL_SITE_BY_SANITIZER)
		k.sanitizer = r->sanitizer;
	if ((t->flags & CL_SITE_BY_FRAME) && !(r->file && *r->file)) {
		size_t n = cl_symbol_name_len(r->func);
		frame = n ? strndup(r->func, n) : strdup(r->address ? r->address : "");
		if (!frame)
			goto nomem;
		k.frame = frame;
	}
	if (t->n) {
		size_t i = slot_of(t, &k);
		if (t->slot[i]) {
			free(frame);
			t->s[t->slot[i] - 1].count++;
			return t->slot[i] - 1;
		}
	}
	if (cl_grow(&t->s, &t->cap_s, t->n, sizeof(*t->s), 16) < 0)
		goto nomem;
	struct cl_site *s = &t->s[t->n];
	memset(s, 0, sizeof(*s));
	cl_oom = 0;
	s->file = cl_strdup(k.file);
	s->key_sanitizer = k.sanitizer;
	s->frame = frame ? frame : cl_strdup("");
	report_copy(&s->rep, r);
	describe(&s->rep, r);
	s->count = 1;
	if (cl_oom) {
		site_free(s);
		errno = ENOMEM;
		return -1;
	}
	t->n++;
	if (rehash(t) < 0) {
		t->n--;
		site_free(&t->s[t->n]);
		errno = ENOMEM;
		return -1;
	}
	if (t->slot[slot_of(t, &k)] == 0)
		t->slot[slot_of(t, &k)] = (int)t->n;
	*is_new = 1;
	return (int)t->n - 1;
nomem:
	free(frame);
	errno = ENOMEM;
	return -1;
}

void cl_sites_free(struct cl_sites *t)
{
	for (size_t i = 0; i < t->n; i++)
		site_free(&t->s[i]);
	free(t->s);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}
