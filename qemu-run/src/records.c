/* The optimization records of a build through a compiler cache. ccache
 * keeps an object, its dependency file and the compiler's output, but not
 * the FOO.opt.yaml that -fsave-optimization-record writes beside FOO.o
 * (ccache 4.7): an object the cache serves comes without its record, and
 * a record left from an earlier compile of that object (another plugin,
 * other lists) stays beside it, stale. After such a build every record
 * older than its object is removed, so nothing reads a stale one, and the
 * objects without a record are counted. An object is one built with the
 * records when its Kbuild command (.FOO.o.cmd) asks for them. */
#define _GNU_SOURCE
#include "qemu_run.h"

#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A record written by the compile that made its object is at most this
 * much older than it (ccache stores the object after the compiler wrote
 * both: tens of milliseconds here); an earlier build's is minutes older. */
#define RECORD_SLACK_SECONDS 10.0

static struct records_count *counting;

static double mtime_of(const struct stat *st)
{
	return (double)st->st_mtim.tv_sec + st->st_mtim.tv_nsec / 1e9;
}

static int check_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	const char *base = path + f->base;
	size_t n = strlen(base);
	struct stat ost, yst;

	(void)st;
	if (flag != FTW_F || base[0] != '.' || n < 7 || strcmp(base + n - 6, ".o.cmd"))
		return 0;
	char *cmd = cl_read_file(path, NULL);
	if (!cmd || !strstr(cmd, "-fsave-optimization-record")) {
		free(cmd);
		return 0;
	}
	free(cmd);
	/* .FOO.o.cmd -> FOO.o, FOO.opt.yaml */
	char *dir = xstrndup(path, (size_t)f->base);
	char *stem = xstrndup(base + 1, n - 7);
	char *obj = xasprintf("%s%s.o", dir, stem);
	char *rec = xasprintf("%s%s.opt.yaml", dir, stem);
	if (stat(obj, &ost) == 0) {
		counting->objects++;
		if (stat(rec, &yst) != 0) {
			counting->missing++;
		} else if (mtime_of(&yst) < mtime_of(&ost) - RECORD_SLACK_SECONDS) {
			counting->missing++;
			counting->stale++;
			if (unlink(rec) < 0)
				qr_err("cannot remove the stale record %s", rec);
		}
	}
	free(dir);
	free(stem);
	free(obj);
	free(rec);
	return 0;
}

void records_after_cache(const char *tree, struct records_count *c)
{
	memset(c, 0, sizeof(*c));
	counting = c;
	nftw(tree, check_one, 64, FTW_PHYS);
	counting = NULL;
}
