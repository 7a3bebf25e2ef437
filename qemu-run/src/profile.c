/* qemu-run profiles: qemu-run/configs/profiles/<name> says how a kernel of
 * that profile is configured (base config targets, fragments) and booted
 * (expectations, workload, timeout). The C code names no fragment. */
#define _GNU_SOURCE
#include "qemu_run.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int valid_name(const char *s, const char *extra)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(extra, *s))
			return 0;
	return 1;
}

/* "a b c" of the profiles that exist, for the error message. */
static char *list_profiles(const char *dir)
{
	struct sbuf b = {0};
	struct strv names = {0};
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.' && valid_name(de->d_name, "_-"))
			sv_add(&names, de->d_name);
	if (d)
		closedir(d);
	/* sorted, so the message is the same on every machine */
	for (size_t i = 0; i < names.n; i++)
		for (size_t j = i + 1; j < names.n; j++)
			if (strcmp(names.v[j], names.v[i]) < 0) {
				char *t = names.v[i];
				names.v[i] = names.v[j];
				names.v[j] = t;
			}
	for (size_t i = 0; i < names.n; i++)
		sb_addf(&b, "%s%s", i ? " " : "", names.v[i]);
	sv_free(&names);
	return b.s ? b.s : xstrdup("none");
}

static void need_file(const char *path, const char *pf, int line, const char *what)
{
	if (!file_exists(path))
		qr_die(QR_EXIT_USAGE, "%s:%d: %s %s does not exist", pf, line, what, path);
}

/*
 * Lines (# comments, blank lines ignored):
 *   base TARGET            make TARGET (tinyconfig, x86_64_defconfig, kvm_guest.config);
 *                          repeatable, run in order before the fragments are merged
 *   fragment FILE          a fragment of <configs>/, every variant
 *   plugin-fragment FILE   a fragment of <configs>/, plugin variant only
 *   expect FILE            default expectations, <src>/qemu-run/expect/FILE
 *   workload FILE          /init runs <src>/qemu-run/init/FILE with BusyBox on an ext4 disk
 *   timeout SECONDS        default boot timeout
 *   append WORD            a word of the kernel command line; repeatable
 */
struct qr_profile *profile_get(struct qr_opts *o)
{
	char *dir = xasprintf("%s/profiles", o->configs_dir);
	char *pf = xasprintf("%s/%s", dir, o->profile);
	struct qr_profile *p = xcalloc(1, sizeof(*p));
	char *text;
	int lineno = 0;

	if (o->prof) {
		free(dir);
		free(pf);
		free(p);
		return o->prof;
	}
	if (!valid_name(o->profile, "_-") || !file_exists(pf)) {
		char *have = list_profiles(dir);
		qr_die(QR_EXIT_USAGE, "unknown profile '%s': no file %s (profiles: %s)", o->profile,
		       pf, have);
	}
	text = read_file(pf, NULL);
	if (!text)
		qr_die(QR_EXIT_USAGE, "cannot read profile %s: %s", pf, strerror(errno));
	p->name = xstrdup(o->profile);
	p->path = pf;
	for (char *cur = text, *l; (l = next_line(&cur));) {
		char *s = trim(l), *arg;
		lineno++;
		if (!*s || *s == '#')
			continue;
		arg = s + strcspn(s, " \t");
		if (*arg)
			*arg++ = 0;
		arg = trim(arg);
		if (!*arg || strpbrk(arg, " \t"))
			qr_die(QR_EXIT_USAGE, "%s:%d: '%s' wants exactly one argument", pf, lineno, s);
		if (!strcmp(s, "base")) {
			if (!valid_name(arg, "_.-") || !ends_with(arg, "config"))
				qr_die(QR_EXIT_USAGE, "%s:%d: base '%s' is not a config make target "
				       "(e.g. tinyconfig, x86_64_defconfig, kvm_guest.config)", pf,
				       lineno, arg);
			sv_add(&p->base, arg);
		} else if (!strcmp(s, "fragment") || !strcmp(s, "plugin-fragment")) {
			int plugin_only = s[0] == 'p';
			char *f = xasprintf("%s/%s", o->configs_dir, arg);
			if (strstr(arg, ".."))
				qr_die(QR_EXIT_USAGE, "%s:%d: fragment %s leaves %s", pf, lineno, arg,
				       o->configs_dir);
			need_file(f, pf, lineno, "fragment");
			p->plugin_only = xrealloc(p->plugin_only, p->fragments.n + 1);
			p->plugin_only[p->fragments.n] = (char)plugin_only;
			sv_add(&p->fragments, f);
			free(f);
		} else if (!strcmp(s, "expect")) {
			free(p->expect);
			p->expect = xasprintf("%s/qemu-run/expect/%s", o->src_root, arg);
			need_file(p->expect, pf, lineno, "expectations file");
		} else if (!strcmp(s, "workload")) {
			free(p->workload);
			p->workload = xasprintf("%s/qemu-run/init/%s", o->src_root, arg);
			need_file(p->workload, pf, lineno, "workload script");
		} else if (!strcmp(s, "append")) {
			sv_add(&p->append, arg);
		} else if (!strcmp(s, "timeout")) {
			char *end;
			double v = strtod(arg, &end);
			if (*end || v <= 0)
				qr_die(QR_EXIT_USAGE, "%s:%d: timeout wants seconds, not '%s'", pf,
				       lineno, arg);
			p->timeout = v;
		} else {
			qr_die(QR_EXIT_USAGE, "%s:%d: unknown line '%s' (base, fragment, "
			       "plugin-fragment, expect, workload, timeout, append)", pf, lineno, s);
		}
	}
	free(text);
	free(dir);
	if (!p->base.n)
		qr_die(QR_EXIT_USAGE, "%s: no 'base' line (e.g. base tinyconfig)", pf);
	if (!o->timeout_set && p->timeout > 0)
		o->timeout = p->timeout;
	o->prof = p;
	return p;
}

/* tiny keeps the names it always had; other profiles add theirs. */
const char *profile_suffix(const struct qr_opts *o)
{
	return strcmp(o->profile, QR_DEFAULT_PROFILE) ? o->profile : NULL;
}
