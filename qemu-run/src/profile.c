/* qemu-run profiles: qemu-run/configs/profiles/<name> says how a kernel of
 * that profile is configured (base config targets, fragments) and booted
 * (expectations, workload, timeout). The C code names no fragment. */
#define _GNU_SOURCE
#include "qemu_run.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
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

/* What is wrong with a profile: *err, and NULL to return. */
static struct qr_profile *fail(char **err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static struct qr_profile *fail(char **err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(err, fmt, ap) < 0)
		qr_die(QR_EXIT_FAIL, "out of memory");
	va_end(ap);
	return NULL;
}

static int need_file(const char *path, const char *pf, int line, const char *what, char **err)
{
	if (!file_exists(path)) {
		fail(err, "%s:%d: %s %s does not exist", pf, line, what, path);
		return 0;
	}
	return 1;
}

/*
 * Lines (# comments, blank lines ignored):
 *   base TARGET            make TARGET (tinyconfig, defconfig, kvm_guest.config);
 *                          repeatable, run in order before the fragments are merged
 *   fragment FILE          a fragment of <configs>/, every variant
 *   plugin-fragment FILE   a fragment of <configs>/, plugin variant only
 *   kernel PROFILE         boot PROFILE's kernel: its base and fragments, its
 *                          tree (no base or fragment lines of its own)
 *   expect FILE            default expectations, <src>/qemu-run/expect/FILE
 *   workload FILE          /init runs <src>/qemu-run/init/FILE with BusyBox on an ext4 disk
 *   timeout SECONDS        default boot timeout
 *   append WORD            a word of the kernel command line; repeatable
 *   smp N                  guest CPUs (default 1)
 *   memory MB              guest memory (--memory overrides; default 512)
 *   guest-tools PACKAGE    a Debian program staged with its libraries into the
 *                          initramfs (scripts/guest-tools.sh); repeatable
 *   count-insns kernel     boot with -icount shift=0,sleep=off and the kinsn TCG
 *                          plugin: kernel-mode instructions between the
 *                          guest's marks, in LOG.insns (TCG only)
 *   arch NAME              an architecture the profile is for; repeatable
 *                          (none: every one qemu-run knows)
 * Every key but arch may carry @ARCH (fragment@arm64 arm64.config): the line
 * counts only for that architecture. Every line is checked whatever the
 * architecture, so a mistake in another architecture's line is found too.
 */
static struct qr_profile *parse_profile(const struct qr_opts *o, const char *name, char **err)
{
	char *dir = xasprintf("%s/profiles", o->configs_dir);
	char *pf = xasprintf("%s/%s", dir, name);
	struct qr_profile *p = xcalloc(1, sizeof(*p));
	char *text;
	int lineno = 0;

	if (!valid_name(name, "_-") || !file_exists(pf)) {
		char *have = list_profiles(dir);
		return fail(err, "unknown profile '%s': no file %s (profiles: %s)", name,
		       pf, have);
	}
	text = cl_read_file(pf, NULL);
	if (!text)
		return fail(err, "cannot read profile %s: %s", pf, strerror(errno));
	p->name = xstrdup(name);
	p->path = pf;
	for (char *cur = text, *l; (l = cl_next_line(&cur));) {
		char *s = trim(l), *arg, *at;
		int here = 1;   /* the line counts for o->arch */
		lineno++;
		if (!*s || *s == '#')
			continue;
		arg = s + strcspn(s, " \t");
		if (*arg)
			*arg++ = 0;
		arg = trim(arg);
		if (!*arg || strpbrk(arg, " \t"))
			return fail(err, "%s:%d: '%s' wants exactly one argument", pf, lineno, s);
		if ((at = strchr(s, '@'))) {
			*at++ = 0;
			if (!strcmp(s, "arch"))
				return fail(err, "%s:%d: 'arch' takes no @ARCH", pf, lineno);
			if (!arch_known(at))
				return fail(err, "%s:%d: unknown architecture '%s' in '%s@%s' "
				       "(known: %s)", pf, lineno, at, s, at, arch_names());
			here = !strcmp(at, o->arch->name);
		}
		if (!strcmp(s, "base")) {
			if (!valid_name(arg, "_.-") || !ends_with(arg, "config"))
				return fail(err, "%s:%d: base '%s' is not a config make target "
				       "(e.g. tinyconfig, defconfig, kvm_guest.config)", pf,
				       lineno, arg);
			if (here)
				sv_add(&p->base, arg);
		} else if (!strcmp(s, "fragment") || !strcmp(s, "plugin-fragment")) {
			int plugin_only = s[0] == 'p';
			char *f = xasprintf("%s/%s", o->configs_dir, arg);
			if (strstr(arg, ".."))
				return fail(err, "%s:%d: fragment %s leaves %s", pf, lineno, arg,
				       o->configs_dir);
			if (!need_file(f, pf, lineno, "fragment", err))
				return NULL;
			if (here) {
				p->plugin_only = xrealloc(p->plugin_only, p->fragments.n + 1);
				p->plugin_only[p->fragments.n] = (char)plugin_only;
				sv_add(&p->fragments, f);
			}
			free(f);
		} else if (!strcmp(s, "expect")) {
			char *e = xasprintf("%s/qemu-run/expect/%s", o->src_root, arg);
			if (!need_file(e, pf, lineno, "expectations file", err))
				return NULL;
			if (here) {
				free(p->expect);
				p->expect = e;
			} else {
				free(e);
			}
		} else if (!strcmp(s, "workload")) {
			char *w = xasprintf("%s/qemu-run/init/%s", o->src_root, arg);
			if (!need_file(w, pf, lineno, "workload script", err))
				return NULL;
			if (here) {
				free(p->workload);
				p->workload = w;
			} else {
				free(w);
			}
		} else if (!strcmp(s, "append")) {
			if (here)
				sv_add(&p->append, arg);
		} else if (!strcmp(s, "timeout")) {
			char *end;
			double v = strtod(arg, &end);
			if (*end || v <= 0)
				return fail(err, "%s:%d: timeout wants seconds, not '%s'", pf,
				       lineno, arg);
			if (here)
				p->timeout = v;
		} else if (!strcmp(s, "smp") || !strcmp(s, "memory")) {
			int is_smp = s[0] == 's';
			long lo = is_smp ? 1 : 64, hi = is_smp ? 64 : 16384;
			char *end;
			long v = strtol(arg, &end, 10);
			if (*end || v < lo || v > hi)
				return fail(err, "%s:%d: %s wants %s from %ld to %ld, not '%s'", pf,
				       lineno, s, is_smp ? "a CPU count" : "megabytes", lo, hi, arg);
			if (here && is_smp)
				p->smp = (int)v;
			else if (here)
				p->memory_mb = (int)v;
		} else if (!strcmp(s, "count-insns")) {
			if (strcmp(arg, "kernel") != 0)
				return fail(err, "%s:%d: count-insns counts 'kernel' (mode) "
				       "instructions, not '%s'", pf, lineno, arg);
			if (here)
				p->count_insns = 1;
		} else if (!strcmp(s, "guest-tools")) {
			if (!valid_name(arg, "_.+-"))
				return fail(err, "%s:%d: guest-tools '%s' is not a Debian package name",
				       pf, lineno, arg);
			if (here)
				sv_add(&p->guest_tools, arg);
		} else if (!strcmp(s, "kernel")) {
			if (at)
				return fail(err, "%s:%d: 'kernel' takes no @ARCH", pf, lineno);
			if (!valid_name(arg, "_-") || !strcmp(arg, name))
				return fail(err, "%s:%d: kernel '%s' is not another profile's name",
				       pf, lineno, arg);
			free(p->kernel);
			p->kernel = xstrdup(arg);
			p->kernel_line = lineno;
		} else if (!strcmp(s, "arch")) {
			if (!arch_known(arg))
				return fail(err, "%s:%d: unknown architecture '%s' (known: %s)", pf,
				       lineno, arg, arch_names());
			sv_add(&p->arches, arg);
		} else {
			return fail(err, "%s:%d: unknown line '%s' (base, fragment, "
			       "plugin-fragment, kernel, expect, workload, timeout, append, smp, "
			       "memory, guest-tools, count-insns, arch; KEY@ARCH for one architecture)", pf, lineno,
			       s);
		}
	}
	free(text);
	free(dir);
	if (p->kernel) {
		/* the other profile's kernel: its base and fragments, its tree */
		struct qr_profile *k;
		if (p->base.n || p->fragments.n)
			return fail(err, "%s:%d: a profile with 'kernel %s' takes its base and "
			       "fragments from that profile: no base or fragment lines", pf,
			       p->kernel_line, p->kernel);
		if (!(k = parse_profile(o, p->kernel, err)))
			return NULL;
		if (k->kernel)
			return fail(err, "%s:%d: profile %s boots the kernel of %s itself: "
			       "name that one", pf, p->kernel_line, p->kernel, k->kernel);
		p->base = k->base;
		p->fragments = k->fragments;
		p->plugin_only = k->plugin_only;
	}
	if (p->arches.n) {
		int ok = 0;
		struct sbuf b = {0};
		for (size_t i = 0; i < p->arches.n; i++) {
			ok |= !strcmp(p->arches.v[i], o->arch->name);
			sb_addf(&b, "%s%s", i ? " " : "", p->arches.v[i]);
		}
		if (!ok)
			return fail(err, "profile %s is not made for %s (%s: arch %s)", p->name,
			       o->arch->name, pf, b.s);
		sb_free(&b);
	}
	if (!p->base.n)
		return fail(err, "%s: no 'base' line for %s (e.g. base tinyconfig)", pf,
		       o->arch->name);
	if (p->guest_tools.n && !p->workload)
		return fail(err, "%s: guest-tools without a workload line: nothing would run "
		       "them", pf);
	return p;
}

const struct qr_profile *profile_read(const struct qr_opts *o, const char *name, char **err)
{
	*err = NULL;
	return parse_profile(o, name, err);
}

const struct qr_profile *profile_load(const struct qr_opts *o, const char *name)
{
	char *err;
	const struct qr_profile *p = profile_read(o, name, &err);
	if (!p)
		qr_die(QR_EXIT_USAGE, "%s", err);
	return p;
}
