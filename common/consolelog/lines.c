/* The console log as lines (consolelog.h): the file, its lines, and each
 * line's message and printk time. */
#define _GNU_SOURCE
#include "consolelog.h"
#include "clpriv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- files ---- */

char *cl_next_line(char **cursor)
{
	char *s = *cursor, *e;
	if (!s || !*s)
		return NULL;
	e = strchr(s, '\n');
	if (e) {
		*e = 0;
		*cursor = e + 1;
	} else {
		*cursor = s + strlen(s);
	}
	if (e && e > s && e[-1] == '\r')
		e[-1] = 0;
	return s;
}

/* Why the last cl_read_file() failed, when errno alone would not say it. */
static _Thread_local char read_why[96];

const char *cl_read_error(void)
{
	return read_why[0] ? read_why : strerror(errno);
}

static const char *file_kind(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device"
	     : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a file";
}

/* Appends n bytes to *b (length *len, capacity *cap); -1 when out of memory. */
static int append(char **b, size_t *len, size_t *cap, const char *s, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t c = (*len + n + 1) * 2;
		char *p = realloc(*b, c);
		if (!p)
			return -1;
		*b = p;
		*cap = c;
	}
	memcpy(*b + *len, s, n);
	*len += n;
	(*b)[*len] = 0;
	return 0;
}

char *cl_read_file(const char *path, size_t *lenp)
{
	/* O_NONBLOCK: opening a FIFO does not wait for a writer; the file is
	 * refused below unless it is a regular one (a FIFO, /dev/zero or a
	 * terminal could block or never end) */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	char *b = NULL;
	size_t len = 0, cap = 0;
	struct stat st;
	char buf[65536];
	ssize_t n;

	read_why[0] = 0;
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > CL_READ_FILE_MAX) {
		int e = errno;
		if (!S_ISREG(st.st_mode))
			snprintf(read_why, sizeof(read_why), "not a regular file (%s)",
				 file_kind(st.st_mode));
		else if (st.st_size > CL_READ_FILE_MAX)
			snprintf(read_why, sizeof(read_why), "too large (%lld bytes; the limit is %d MiB)",
				 (long long)st.st_size, CL_READ_FILE_MAX >> 20);
		close(fd);
		errno = read_why[0] ? EINVAL : e;
		return NULL;
	}
	if (append(&b, &len, &cap, "", 0) < 0)
		goto nomem;
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			int e = errno;
			if (e == EINTR)
				continue;
			close(fd);
			free(b);
			errno = e;
			return NULL;
		}
		if (len + (size_t)n > CL_READ_FILE_MAX) {   /* it grew while read */
			snprintf(read_why, sizeof(read_why), "too large (over %d MiB)",
				 CL_READ_FILE_MAX >> 20);
			close(fd);
			free(b);
			errno = EINVAL;
			return NULL;
		}
		if (append(&b, &len, &cap, buf, (size_t)n) < 0)
			goto nomem;
	}
	close(fd);
	if (lenp)
		*lenp = len;
	return b;
nomem:
	close(fd);
	free(b);
	errno = ENOMEM;
	return NULL;
}

/* ---- lines ---- */

/* "[    1.234567]" (k == 0) or "[    T1]" / "[    C0]" (both k) */
static const char *bracket(const char *l, int k)
{
	const char *p = l + 1, *close;

	if (*l != '[' || !(close = strchr(p, ']')))
		return NULL;
	while (*p == ' ')
		p++;
	if ((*p == 'T' || *p == 'C') && cl_digits(p + 1, close))
		return close + 1;
	if (k == 0) {
		const char *dot = memchr(p, '.', (size_t)(close - p));
		if (dot ? cl_digits(p, dot) && cl_digits(dot + 1, close) : cl_digits(p, close))
			return close + 1;
	}
	return NULL;
}

/* The "<N>" log level cut. */
static const char *after_level(const char *l)
{
	if (l[0] == '<') {
		const char *c = strchr(l, '>');
		if (c && c - l > 1 && c - l <= 4 && cl_digits(l + 1, c))
			l = c + 1;
	}
	return l;
}

const char *cl_message(const char *l)
{
	l = after_level(l);
	for (int k = 0; k < 2; k++) {
		const char *p = bracket(l, k);
		if (!p)
			break;
		l = p;
	}
	if (*l == ' ')
		l++;
	return l;
}

/* The "[    1.234567]" printk time of a console line, -1 if it has none. */
static double line_time(const char *l)
{
	l = after_level(l);
	if (*l != '[' || !bracket(l, 0))
		return -1;
	/* bracket() accepted digits[.digits] or a caller id */
	while (*++l == ' ')
		;
	if (*l < '0' || *l > '9')
		return -1;
	return strtod(l, NULL);
}

int cl_lines(char *text, struct lines *L)
{
	size_t cap = 0, cap_no = 0, cap_time = 0;
	int no = 0;

	memset(L, 0, sizeof(*L));
	L->buf = text;
	for (char *cur = text, *l; (l = cl_next_line(&cur));) {
		no++;
		if (cl_grow(&L->s, &cap, L->n, sizeof(*L->s), 1024) < 0 ||
		    cl_grow(&L->no, &cap_no, L->n, sizeof(*L->no), 1024) < 0 ||
		    cl_grow(&L->time, &cap_time, L->n, sizeof(*L->time), 1024) < 0) {
			cl_lines_free(L);
			errno = ENOMEM;
			return -1;
		}
		L->s[L->n] = (char *)cl_message(l);
		L->no[L->n] = no;
		L->time[L->n] = line_time(l);
		L->n++;
	}
	return 0;
}

void cl_lines_free(struct lines *L)
{
	free(L->s);
	free(L->no);
	free(L->time);
	free(L->buf);
	memset(L, 0, sizeof(*L));
}
