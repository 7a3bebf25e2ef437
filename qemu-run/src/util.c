/* qemu-run: small helpers shared by every stage. */
#define _GNU_SOURCE
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const char *qr_prog = "qemu-run";
int qr_verbose;

static void vmsg(FILE *f, const char *tag, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(f, "%s: %s", qr_prog, tag);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
	fflush(f);
}

void qr_msg(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(stdout, "", fmt, ap);
	va_end(ap);
}

void qr_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(stderr, "warning: ", fmt, ap);
	va_end(ap);
}

void qr_err(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(stderr, "error: ", fmt, ap);
	va_end(ap);
}

void qr_die(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(stderr, "error: ", fmt, ap);
	va_end(ap);
	exit(code);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		qr_die(QR_EXIT_FAIL, "out of memory");
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		qr_die(QR_EXIT_FAIL, "out of memory");
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		qr_die(QR_EXIT_FAIL, "out of memory");
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");
	if (!p)
		qr_die(QR_EXIT_FAIL, "out of memory");
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);
	if (!p)
		qr_die(QR_EXIT_FAIL, "out of memory");
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		qr_die(QR_EXIT_FAIL, "out of memory");
	va_end(ap);
	return p;
}

void sb_addn(struct sbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

void sb_add(struct sbuf *b, const char *s)
{
	sb_addn(b, s, strlen(s));
}

void sb_addf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;
	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (n < 0)
		qr_die(QR_EXIT_FAIL, "out of memory");
	sb_addn(b, p, (size_t)n);
	free(p);
}

void sb_free(struct sbuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

void sv_add(struct strv *l, const char *s)
{
	if (l->n + 2 > l->cap) {
		l->cap = (l->n + 2) * 2;
		l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->n++] = xstrdup(s);
	l->v[l->n] = NULL;
}

void sv_addf(struct strv *l, const char *fmt, ...)
{
	va_list ap;
	char *p;
	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		qr_die(QR_EXIT_FAIL, "out of memory");
	va_end(ap);
	sv_add(l, p);
	free(p);
}

void sv_free(struct strv *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

int starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

char *trim(char *s)
{
	char *e;
	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
		*--e = 0;
	return s;
}

int write_file(const char *path, const char *data, size_t len)
{
	char *tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	size_t off = 0;

	if (fd < 0) {
		free(tmp);
		return -1;
	}
	while (off < len) {
		ssize_t n = write(fd, data + off, len - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			close(fd);
			unlink(tmp);
			free(tmp);
			return -1;
		}
		off += (size_t)n;
	}
	if (close(fd) < 0 || rename(tmp, path) < 0) {
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

int file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int dir_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int mkdir_p(const char *path)
{
	char *p = xstrdup(path);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(p, 0755) < 0 && errno != EEXIST) {
			free(p);
			return -1;
		}
		*s = '/';
	}
	if (mkdir(p, 0755) < 0 && errno != EEXIST) {
		free(p);
		return -1;
	}
	free(p);
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path);
	return unlink(path);
}

int rm_rf(const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	return nftw(path, rm_one, 64, FTW_DEPTH | FTW_PHYS);
}

char *abs_path(const char *path)
{
	char buf[PATH_MAX];
	if (realpath(path, buf))
		return xstrdup(buf);
	if (path[0] == '/')
		return xstrdup(path);
	if (!getcwd(buf, sizeof(buf)))
		return xstrdup(path);
	return xasprintf("%s/%s", buf, path);
}

char *path_dirname(const char *path)
{
	const char *s = strrchr(path, '/');
	if (!s)
		return xstrdup(".");
	if (s == path)
		return xstrdup("/");
	return strndup(path, (size_t)(s - path));
}

uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

char *timestamp_str(void)
{
	time_t t = time(NULL);
	struct tm tm;
	char buf[32];
	localtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y%m%d-%H%M%S", &tm);
	return xstrdup(buf);
}

int on_path(const char *prog)
{
	const char *path = getenv("PATH");
	char *dirs, *save = NULL;
	int found = 0;

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	dirs = xstrdup(path && *path ? path : "/usr/bin:/bin");
	for (char *d = strtok_r(dirs, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *f = xasprintf("%s/%s", *d ? d : ".", prog);
		found = access(f, X_OK) == 0;
		free(f);
	}
	free(dirs);
	return found;
}
