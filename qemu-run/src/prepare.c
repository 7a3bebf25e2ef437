/* qemu-run prepare: unpack Debian's linux-source tarball into a build tree and
 * apply kernel/patches/series. A stamp (hash of the series, the patches, the
 * options and the Debian version) marks a tree as complete; a tree whose stamp
 * is missing or differs is unpacked afresh, never reused half prepared. */
#define _GNU_SOURCE
#include "qemu_run.h"

#include <dirent.h>
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STAMP_FILE ".qemu-run-prepared"
#define TREE_MARK ".qemu-run-tree"

struct patch_ent {
	char *name;      /* as written in series */
	char *path;      /* absolute */
	int optional;    /* after '# optional:' */
	int fix;         /* between '# fixes:' and the next section marker */
	int line;        /* line in series */
};

static char *installed_version(void)
{
	char *argv[] = { "dpkg-query", "-W", "-f=${Version}", QR_DEB_PACKAGE, NULL };
	struct sbuf out = {0};
	int rc = run_cmd(argv, NULL, &out);
	if (rc != 0 || !out.s || !*out.s) {
		sb_free(&out);
		return NULL;
	}
	char *v = xstrdup(trim(out.s));
	sb_free(&out);
	return v;
}

/* The first Debian version of linux-source-6.12 in kernel/README.md
 * ("6.12.118-1~deb12u1") names the version the series was tested on. */
static char *tested_version(const struct qr_opts *o, char **where)
{
	char *readme = xasprintf("%s/kernel/README.md", o->src_root);
	char *text = cl_read_file(readme, NULL);
	char *res = NULL;
	regex_t re;
	regmatch_t m[1];

	if (text && regcomp(&re, "6\\.12\\.[0-9]+-[0-9][0-9A-Za-z.+~]*", REG_EXTENDED) == 0) {
		if (regexec(&re, text, 1, m, 0) == 0) {
			res = xstrndup(text + m[0].rm_so, (size_t)(m[0].rm_eo - m[0].rm_so));
			while (*res && strchr(".", res[strlen(res) - 1]))
				res[strlen(res) - 1] = 0;
			*where = readme;
			readme = NULL;
		}
		regfree(&re);
	}
	free(text);
	free(readme);
	if (!res) {
		res = xstrdup(QR_TESTED_DEBIAN_VERSION);
		*where = xstrdup("qemu-run's built-in constant");
	}
	return res;
}

/* A section marker of series: a comment whose first word is a lowercase
 * name and a colon ("# fixes: ...", "# annotations: ...", "# optional: ..."). */
static int section_marker(const char *c, const char *name)
{
	size_t n = strspn(c, "abcdefghijklmnopqrstuvwxyz-");
	if (n == 0 || c[n] != ':')
		return 0;
	return !name || (strlen(name) == n && strncmp(c, name, n) == 0);
}

/* Parses series; returns the number of entries (0 when there is no series). */
static size_t read_series(const struct qr_opts *o, struct patch_ent **out, char **series_text)
{
	char *path = xasprintf("%s/series", o->patches_dir);
	char *text = cl_read_file(path, NULL);
	struct patch_ent *v = NULL;
	size_t n = 0;
	int optional = 0, fix = 0, lineno = 0;

	*series_text = text ? xstrdup(text) : xstrdup("");
	if (!text) {
		if (errno != ENOENT)
			qr_die(QR_EXIT_USAGE, "cannot read %s: %s", path, strerror(errno));
		free(path);
		*out = NULL;
		return 0;
	}
	for (char *cur = text, *l; (l = cl_next_line(&cur));) {
		lineno++;
		char *s = trim(l);
		if (!*s)
			continue;
		if (*s == '#') {
			char *c = trim(s + 1);
			if (starts_with(c, "optional:"))
				optional = 1;
			if (section_marker(c, NULL))
				fix = section_marker(c, "fixes");
			continue;
		}
		s[strcspn(s, " \t")] = 0;   /* quilt allows "-p1" etc. after the name */
		if (starts_with(s, "0000-"))
			qr_die(QR_EXIT_USAGE, "%s:%d: %s is a cover letter: it must not be in series "
			       "(quilt would apply it)", path, lineno, s);
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n].name = xstrdup(s);
		v[n].path = xasprintf("%s/%s", o->patches_dir, s);
		v[n].optional = optional;
		v[n].fix = fix;
		v[n].line = lineno;
		n++;
	}
	free(text);
	free(path);
	*out = v;
	return n;
}

/* In patch file `pf`, the header of hunk #n of the diff for `file`. */
static char *hunk_header(const char *pf, const char *file, int n)
{
	char *text = cl_read_file(pf, NULL);
	char *res = NULL;
	int in = 0, count = 0;

	if (!text)
		return NULL;
	for (char *cur = text, *l; (l = cl_next_line(&cur));) {
		if (starts_with(l, "+++ ")) {
			char *p = l + 4;
			p[strcspn(p, "\t")] = 0;
			char *slash = strchr(p, '/');   /* -p1 */
			in = slash && strcmp(slash + 1, file) == 0;
			count = 0;
		} else if (in && starts_with(l, "@@ ")) {
			if (++count == n) {
				res = xstrdup(l);
				break;
			}
		}
	}
	free(text);
	return res;
}

/* Turns patch(1)'s output into "file: hunk #N FAILED at line L" lines. */
static void explain_failure(const char *patchfile, const char *out)
{
	char *copy = xstrdup(out);
	char *cur = NULL, *cant = NULL;
	int any = 0;

	for (char *c = copy, *l; (l = cl_next_line(&c));) {
		int h, at;
		if (starts_with(l, "checking file ") || starts_with(l, "patching file ")) {
			free(cur);
			cur = xstrdup(l + 14);
		} else if (cant && (starts_with(l, "|+++ ") || starts_with(l, "|--- "))) {
			/* patch names the file only after "can't find file" */
			char *name = l + 5;
			name[strcspn(name, "\t")] = 0;
			char *slash = strchr(name, '/');
			fprintf(stderr, "  %s: file not found in the tree (%s)\n",
				slash ? slash + 1 : name, cant);
			free(cant);
			cant = NULL;
		} else if (sscanf(l, "Hunk #%d FAILED at %d", &h, &at) == 2) {
			char *hdr = hunk_header(patchfile, cur ? cur : "", h);
			fprintf(stderr, "  %s: hunk #%d FAILED at line %d%s%s\n", cur ? cur : "?", h, at,
				hdr ? "  " : "", hdr ? hdr : "");
			free(hdr);
			any = 1;
		} else if (starts_with(l, "can't find file to patch")) {
			free(cant);
			cant = xstrdup(l);
			any = 1;
		} else if (strstr(l, "Reversed (or previously applied) patch detected")) {
			fprintf(stderr, "  %s: already applied or reversed (%s)\n", cur ? cur : "?", l);
			any = 1;
		} else if (strstr(l, "malformed patch") || strstr(l, "Only garbage")) {
			fprintf(stderr, "  %s\n", l);
			any = 1;
		}
	}
	if (cant)
		fprintf(stderr, "  ?: file not found in the tree (%s)\n", cant);
	if (!any)
		fprintf(stderr, "  (patch said:)\n%s", out);
	free(cur);
	free(cant);
	free(copy);
}

static uint64_t hash_str(uint64_t h, const char *s)
{
	return fnv1a(h, s, strlen(s) + 1);
}

int stage_prepare(const struct qr_opts *o, const struct variant *v)
{
	const char *tree = v->tree;
	struct patch_ent *pv;
	char *series_text, *where = NULL;
	size_t np = read_series(o, &pv, &series_text);
	char *inst = installed_version();
	char *tested = tested_version(o, &where);
	char *stamp_path = xasprintf("%s/" STAMP_FILE, tree);
	char *mark_path = xasprintf("%s/" TREE_MARK, tree);
	uint64_t h = FNV1A_INIT;
	int rc = 0;

	qr_msg("prepare: %s installed: %s; series tested on: %s (%s)", QR_DEB_PACKAGE,
	       inst ? inst : "NOT INSTALLED", tested, where);
	if (!inst)
		qr_die(QR_EXIT_FAIL, "%s is not installed (scripts/deps.sh kernel installs it)",
		       QR_DEB_PACKAGE);
	if (strcmp(inst, tested) != 0)
		qr_warn("installed %s %s differs from the tested %s: patches may not apply",
			QR_DEB_PACKAGE, inst, tested);
	if (!file_exists(o->tarball))
		qr_die(QR_EXIT_FAIL, "%s not found (package %s)", o->tarball, QR_DEB_PACKAGE);
	if (np == 0)
		qr_warn("no patches in %s/series: the tree is the pristine Debian source",
			o->patches_dir);

	/* The stamp covers everything that determines the tree's content. */
	h = hash_str(h, "qemu-run-prepare-v1");
	h = hash_str(h, o->tarball);
	h = hash_str(h, inst);
	h = hash_str(h, series_text);
	h = hash_str(h, o->without_refactors ? "without-refactors" : "with-refactors");
	if (v->without_fixes)
		h = hash_str(h, "without-fixes");
	for (size_t i = 0; i < np; i++) {
		size_t len;
		char *body = cl_read_file(pv[i].path, &len);
		if (!body)
			qr_die(QR_EXIT_FAIL, "%s/series:%d: cannot read patch %s: %s", o->patches_dir,
			       pv[i].line, pv[i].path, strerror(errno));
		h = hash_str(h, pv[i].name);
		h = fnv1a(h, body, len);
		free(body);
	}
	char *stamp = xasprintf("stamp %016llx", (unsigned long long)h);

	char *old = cl_read_file(stamp_path, NULL);
	if (old && starts_with(old, stamp) && old[strlen(stamp)] == '\n') {
		qr_msg("prepare: %s is up to date (%s)", tree, stamp);
		free(old);
		goto out;
	}
	if (dir_exists(tree)) {
		if (!file_exists(mark_path))
			qr_die(QR_EXIT_FAIL, "%s exists but was not made by qemu-run (no %s); "
			       "remove it or choose another --tree", tree, TREE_MARK);
		qr_msg("prepare: %s: %s; unpacking afresh", tree,
		       old ? "series, patches or options changed" : "previous prepare did not finish");
		if (rm_rf(tree) < 0)
			qr_die(QR_EXIT_FAIL, "cannot remove %s: %s", tree, strerror(errno));
	}
	free(old);

	/* Unpack into a temporary dir next to the tree, then rename. */
	{
		char *parent = path_dirname(tree);
		char *tmp = xasprintf("%s.unpack-tmp", tree);
		char *argv[] = { "tar", "-xf", (char *)o->tarball, "-C", tmp, NULL };
		DIR *d;
		struct dirent *de;
		char *top = NULL;
		double t0 = now_seconds();

		mkdir_p(parent);
		rm_rf(tmp);
		if (mkdir_p(tmp) < 0)
			qr_die(QR_EXIT_FAIL, "cannot create %s: %s", tmp, strerror(errno));
		qr_msg("prepare: unpacking %s into %s", o->tarball, tree);
		if (run_cmd(argv, NULL, NULL) != 0)
			qr_die(QR_EXIT_FAIL, "tar failed to unpack %s", o->tarball);
		d = opendir(tmp);
		while (d && (de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			free(top);
			top = xasprintf("%s/%s", tmp, de->d_name);
		}
		if (d)
			closedir(d);
		if (!top || rename(top, tree) < 0)
			qr_die(QR_EXIT_FAIL, "cannot move the unpacked tree to %s: %s", tree,
			       strerror(errno));
		rm_rf(tmp);
		write_file(mark_path, "made by qemu-run prepare\n", 25);
		qr_msg("prepare: unpacked in %.1f s", now_seconds() - t0);
		free(top);
		free(tmp);
		free(parent);
	}

	struct sbuf applied = {0};
	for (size_t i = 0; i < np; i++) {
		struct sbuf out = {0};
		char *argv[] = { "patch", "-p1", "--forward", "--batch", "--dry-run", "-i",
				 pv[i].path, NULL };
		if (pv[i].fix && v->without_fixes) {
			qr_msg("prepare: skipping fix %s (--without-fixes)", pv[i].name);
			sb_addf(&applied, "skipped %s\n", pv[i].name);
			continue;
		}
		if (pv[i].optional && o->without_refactors) {
			qr_msg("prepare: skipping optional %s (--without-refactors)", pv[i].name);
			sb_addf(&applied, "skipped %s\n", pv[i].name);
			continue;
		}
		int prc = run_cmd(argv, tree, &out);
		if (prc == 0) {
			sb_free(&out);
			argv[4] = "-i";   /* drop --dry-run */
			argv[5] = pv[i].path;
			argv[6] = NULL;
			prc = run_cmd(argv, tree, &out);
		}
		if (prc != 0) {
			qr_err("patch %s (%s/series:%d, %d of %zu) does not apply to %s %s:",
			       pv[i].path, o->patches_dir, pv[i].line, (int)i + 1, np,
			       QR_DEB_PACKAGE, inst);
			explain_failure(pv[i].path, out.s ? out.s : "");
			fprintf(stderr, "%s: the series was tested on %s %s (%s); the tree %s is left "
				"unstamped and will be unpacked afresh by the next prepare\n",
				qr_prog, QR_DEB_PACKAGE, tested, where, tree);
			sb_free(&out);
			rc = QR_EXIT_FAIL;
			goto out;
		}
		if (qr_verbose)
			fputs(out.s ? out.s : "", stdout);
		qr_msg("prepare: applied %s%s", pv[i].name, pv[i].optional ? " (optional)" : "");
		sb_addf(&applied, "applied %s\n", pv[i].name);
		sb_free(&out);
	}

	{
		struct sbuf s = {0};
		sb_addf(&s, "%s\ndebian-version %s\ntested-version %s\nwithout-refactors %d\n"
			"without-fixes %d\n%s", stamp, inst, tested, o->without_refactors,
			v->without_fixes, applied.s ? applied.s : "");
		if (write_file(stamp_path, s.s, s.len) < 0)
			qr_die(QR_EXIT_FAIL, "cannot write %s: %s", stamp_path, strerror(errno));
		sb_free(&s);
	}
	qr_msg("prepare: %s ready (%zu patches in series)", tree, np);
	sb_free(&applied);
out:
	free(stamp);
	for (size_t i = 0; i < np; i++) {
		free(pv[i].name);
		free(pv[i].path);
	}
	free(pv);
	free(series_text);
	free(inst);
	free(tested);
	free(where);
	free(stamp_path);
	free(mark_path);
	return rc;
}

/* Used by config/build: refuse trees that prepare did not finish. */
int tree_is_prepared(const char *tree)
{
	char *p = xasprintf("%s/" STAMP_FILE, tree);
	int ok = file_exists(p);
	free(p);
	return ok;
}
