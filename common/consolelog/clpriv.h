/* The console-log library's own helpers (not its interface): allocation
 * that never exits the process. A helper that cannot allocate sets cl_oom
 * and returns cl_nomem (an empty string cl_free() leaves alone) or -1, so
 * the reader runs on with empty strings; the public call that began the
 * work then frees what it made and returns -1 with errno ENOMEM. */
#ifndef WRAPIDIOM_CONSOLELOG_PRIV_H
#define WRAPIDIOM_CONSOLELOG_PRIV_H

#include <stddef.h>

extern _Thread_local int cl_oom;
extern char cl_nomem[1];

char *cl_strdup(const char *s);
char *cl_strndup(const char *s, size_t n);
char *cl_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cl_free(void *p);
/* Room for n + 1 elements of size in *arr (capacity *cap, first: the first
 * capacity); 0, or -1 with *arr left as it was. */
int cl_grow(void *arr, size_t *cap, size_t n, size_t size, size_t first);
int cl_starts_with(const char *s, const char *prefix);
/* 1 if [p, end) is a non-empty run of decimal digits. */
int cl_digits(const char *p, const char *end);

#endif
