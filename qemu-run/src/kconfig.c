/* qemu-run config: the profile's base config (tinyconfig, ...) + its fragments, then a
 * check (like kunit_config.py) that the final .config holds every value the
 * fragments ask for. */
#define _GNU_SOURCE
#include "qemu_run.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

struct kent {
	char *name;     /* CONFIG_FOO */
	char *value;    /* y, m, n, "str", 123 */
	char *file;
	int line;
};

struct kset {
	struct kent *v;
	size_t n;
};

static struct kent *kset_find(struct kset *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i].name, name) == 0)
			return &s->v[i];
	return NULL;
}

static void kset_put(struct kset *s, const char *name, const char *value, const char *file,
		     int line)
{
	struct kent *e = kset_find(s, name);
	if (!e) {
		s->v = xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
		e = &s->v[s->n++];
		e->name = xstrdup(name);
	} else {
		if (strcmp(e->value, value) != 0 && file)
			qr_warn("%s:%d: %s=%s overrides %s=%s from %s:%d", file, line, name, value,
				name, e->value, e->file, e->line);
		free(e->value);
		free(e->file);
	}
	e->value = xstrdup(value);
	e->file = xstrdup(file ? file : "");
	e->line = line;
}

static void kset_free(struct kset *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].name);
		free(s->v[i].value);
		free(s->v[i].file);
	}
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

/* Parses a .config or a fragment. strict: reject lines that are neither an
 * assignment nor a comment (fragments); returns -1 on such a line. */
static int kset_parse(struct kset *s, const char *path, int strict)
{
	char *text = cl_read_file(path, NULL);
	int lineno = 0, bad = 0;

	if (!text) {
		qr_err("cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	for (char *cur = text, *l; (l = cl_next_line(&cur));) {
		char *s0 = trim(l), *eq;
		static const char unset[] = " is not set";
		size_t len = strlen(s0), sl = sizeof(unset) - 1;
		lineno++;
		if (!*s0)
			continue;
		/* "# CONFIG_X is not set", X of any length (no fixed buffer) */
		if (starts_with(s0, "# CONFIG_") && len > 9 + sl &&
		    strcmp(s0 + len - sl, unset) == 0) {
			char *name = s0 + 2;
			size_t n = len - 2 - sl, k = 7;

			while (k < n && (isalnum((unsigned char)name[k]) || name[k] == '_'))
				k++;
			if (k == n) {
				name[n] = 0;
				kset_put(s, name, "n", strict ? path : NULL, lineno);
				continue;
			}
		}
		if (*s0 == '#')
			continue;
		eq = strchr(s0, '=');
		if (!starts_with(s0, "CONFIG_") || !eq || eq == s0 + 7) {
			if (strict) {
				qr_err("%s:%d: not a Kconfig assignment: %s", path, lineno, s0);
				bad = 1;
			}
			continue;
		}
		*eq = 0;
		kset_put(s, trim(s0), trim(eq + 1), strict ? path : NULL, lineno);
	}
	free(text);
	return bad ? -1 : 0;
}

int kconfig_value(const char *config_path, const char *sym, char **value)
{
	struct kset s = {0};
	struct kent *e;
	if (kset_parse(&s, config_path, 0) < 0)
		return -1;
	e = kset_find(&s, sym);
	*value = xstrdup(e ? e->value : "n");
	kset_free(&s);
	return 0;
}

void make_argv(const struct qr_opts *o, const struct variant *v, struct strv *a)
{
	sv_add(a, "make");
	sv_add(a, "-C");
	sv_add(a, v->tree);
	/* always given: an ARCH from the caller's environment or MAKEFLAGS
	 * (make boot ARCH=arm64) must never reach the wrong tree */
	sv_addf(a, "ARCH=%s", v->arch->karch);
	sv_addf(a, "LLVM=%s", o->llvm);
	if (o->cc_wrapper) {
		/* the clang that LLVM= names, as Kbuild spells it */
		size_t n = strlen(o->llvm);
		if (n && o->llvm[n - 1] == '/')
			sv_addf(a, "CC=%s %sclang", o->cc_wrapper, o->llvm);
		else if (o->llvm[0] == '-')
			sv_addf(a, "CC=%s clang%s", o->cc_wrapper, o->llvm);
		else
			sv_addf(a, "CC=%s clang", o->cc_wrapper);
	}
	if (v->use_plugin) {
		/* the plugin's decisions, one optimization record beside every
		 * object: `wrap-ignorelist lint --remarks TREE` counts what each
		 * ignorelist entry removes, triage reads them too */
		sv_addf(a, "KCFLAGS=%s%s%s", o->kcflags ? o->kcflags : "", o->kcflags ? " " : "",
			WRAP_IDIOM_RECORD_FLAGS);
	} else if (o->kcflags) {
		sv_addf(a, "KCFLAGS=%s", o->kcflags);
	}
	if (v->use_plugin) {
		struct sbuf b = {0};
		sv_addf(a, "WRAP_IDIOM_PLUGIN=%s", o->plugin);
		for (size_t i = 0; i < o->ignorelists.n; i++)
			sb_addf(&b, "%s%s", i ? " " : "", o->ignorelists.v[i]);
		sv_addf(a, "WRAP_IDIOM_IGNORELISTS=%s", b.s ? b.s : "");
		sb_free(&b);
	}
}

static void print_tail(const char *path, int lines)
{
	size_t len;
	char *t = cl_read_file(path, &len);
	if (!t)
		return;
	size_t i = len;
	int n = 0;
	while (i > 0 && n <= lines) {
		i--;
		if (t[i] == '\n')
			n++;
	}
	fprintf(stderr, "----- last lines of %s -----\n%s\n-----\n", path, t + (i ? i + 1 : 0));
	free(t);
}

static int run_make(const struct qr_opts *o, const struct variant *v, const char *target,
		    const char *log)
{
	struct strv a = {0};
	int rc;
	make_argv(o, v, &a);
	sv_add(&a, target);
	print_cmd(a.v, NULL);
	rc = run_cmd_log(a.v, NULL, log, qr_verbose);
	if (rc != 0) {
		qr_err("make %s failed (exit %d); full log: %s", target, rc, log);
		print_tail(log, 30);
	}
	sv_free(&a);
	return rc;
}

/* The fragments of a variant, in merge order, as the profile lists them. */
static void fragments(const struct variant *v, struct strv *out)
{
	const struct qr_profile *p = variant_profile(v);
	for (size_t i = 0; i < p->fragments.n; i++)
		if (v->use_plugin || !p->plugin_only[i])
			sv_add(out, p->fragments.v[i]);
}

int stage_config(const struct qr_opts *o, const struct variant *v)
{
	const char *tree = v->tree;
	char *config = xasprintf("%s/.config", tree);
	char *log = xasprintf("%s/.qemu-run-config.log", tree);
	struct strv frags = {0};
	struct kset want = {0}, got = {0};
	int rc = QR_EXIT_FAIL, bad = 0;

	if (!tree_is_prepared(tree))
		qr_die(QR_EXIT_FAIL, "%s is not a prepared tree: run `qemu-run prepare%s` first", tree,
		       v->use_plugin ? "" : " --no-plugin");
	fragments(v, &frags);
	for (size_t i = 0; i < frags.n; i++)
		if (kset_parse(&want, frags.v[i], 1) < 0)
			goto out;
	unlink(log);
	for (size_t i = 0; i < v->prof->base.n; i++)
		if (run_make(o, v, v->prof->base.v[i], log) != 0)
			goto out;

	/* Append the fragments; olddefconfig resolves them (the last assignment wins). */
	{
		size_t len;
		char *base = cl_read_file(config, &len);
		struct sbuf b = {0};
		if (!base) {
			qr_err("cannot read %s: %s", config, cl_read_error());
			goto out;
		}
		sb_addn(&b, base, len);
		free(base);
		for (size_t i = 0; i < frags.n; i++) {
			char *f = cl_read_file(frags.v[i], NULL);
			sb_addf(&b, "\n# qemu-run: fragment %s\n%s\n", frags.v[i], f ? f : "");
			free(f);
		}
		if (write_file(config, b.s, b.len) < 0) {
			qr_err("cannot write %s: %s", config, strerror(errno));
			sb_free(&b);
			goto out;
		}
		sb_free(&b);
	}
	if (run_make(o, v, "olddefconfig", log) != 0)
		goto out;

	if (kset_parse(&got, config, 0) < 0)
		goto out;
	for (size_t i = 0; i < want.n; i++) {
		struct kent *w = &want.v[i], *g = kset_find(&got, w->name);
		const char *gv = g ? g->value : "n";
		if (strcmp(w->value, gv) == 0)
			continue;
		if (!bad)
			qr_err("the final %s does not hold what the fragments ask for:", config);
		bad++;
		fprintf(stderr, "  %s:%d: %s: requested %s, got %s\n", w->file, w->line, w->name,
			w->value, g ? (strcmp(gv, "n") ? gv : "n (is not set)") :
			"n (absent: unknown symbol or unmet dependency)");
	}
	if (bad) {
		fprintf(stderr, "%s: %d symbol(s) differ; see `make menuconfig` in %s for their "
			"dependencies\n", qr_prog, bad, tree);
		goto out;
	}
	qr_msg("config: %s: %zu requested symbols verified (profile %s: %zu fragments, variant "
	       "%s)", config, want.n, v->prof->name, frags.n, v->name);
	rc = 0;
out:
	kset_free(&want);
	kset_free(&got);
	sv_free(&frags);
	free(config);
	free(log);
	return rc;
}

/* ---- build ---- */

/* One kernel build at a time per lock file (default: per build directory). */
static int take_lock(const char *path)
{
	char *dir = path_dirname(path);
	double t0 = now_seconds();
	int fd;

	if (mkdir_p(dir) < 0)
		qr_die(QR_EXIT_FAIL, "cannot create the directory %s of the build lock %s: %s", dir,
		       path, strerror(errno));
	free(dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0)
		qr_die(QR_EXIT_FAIL, "cannot open the build lock %s: %s", path, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		qr_msg("build: waiting for %s (another kernel build is running)", path);
		while (flock(fd, LOCK_EX) < 0)
			if (errno != EINTR)
				qr_die(QR_EXIT_FAIL, "flock %s: %s", path, strerror(errno));
		qr_msg("build: got %s after %.0f s", path, now_seconds() - t0);
	}
	return fd;
}

int stage_build(const struct qr_opts *o, const struct variant *v, double *seconds)
{
	const char *tree = v->tree;
	char *config = xasprintf("%s/.config", tree);
	char *log = xasprintf("%s/.qemu-run-build.log", tree);
	char *meta = xasprintf("%s/.qemu-run-build.meta", tree);
	char *modules = NULL;
	struct strv a = {0};
	int rc, fd;
	double t0, dt;

	if (!tree_is_prepared(tree) || !file_exists(config))
		qr_die(QR_EXIT_FAIL, "%s has no prepared tree with a .config: run prepare and config "
		       "first", tree);
	if (v->use_plugin && !file_exists(o->plugin))
		qr_die(QR_EXIT_FAIL, "plugin %s not found (make plugin builds it)", o->plugin);
	kconfig_value(config, "CONFIG_MODULES", &modules);

	make_argv(o, v, &a);
	sv_addf(&a, "-j%d", o->jobs);
	sv_add(&a, v->arch->image_target);
	if (strcmp(modules, "y") == 0)
		sv_add(&a, "modules");
	unlink(log);
	/* the last build's step count, for "N of ~M" */
	struct progress prog = { isatty(2), 0, 0, 0, 0 };
	char *old_meta = cl_read_file(meta, NULL), *st;
	if (old_meta && (st = strstr(old_meta, "steps=")))
		prog.expected = strtol(st + 6, NULL, 10);
	free(old_meta);
	fd = take_lock(o->lock_file);
	t0 = now_seconds();
	print_cmd(a.v, NULL);
	rc = run_cmd_log_progress(a.v, NULL, log, qr_verbose, &prog);
	dt = now_seconds() - t0;
	close(fd);   /* releases the lock */
	if (rc != 0) {
		qr_err("kernel build failed (exit %d) after %.1f s; full log: %s", rc, dt, log);
		print_tail(log, 40);
		rc = QR_EXIT_FAIL;
	} else {
		char *m = xasprintf("build_seconds=%.1f\nvariant=%s\nsteps=%ld\n", dt,
				    v->name, prog.steps);
		write_file(meta, m, strlen(m));
		free(m);
		qr_msg("build: %s/%s built in %.1f s (log %s)", tree, v->arch->image, dt, log);
		if (v->use_plugin && o->cc_wrapper) {
			struct records_count c;
			records_after_cache(tree, &c);
			if (c.missing)
				qr_msg("build: %d of %d objects came from the compiler cache "
				       "without their optimization record (ccache keeps no "
				       "-fsave-optimization-record files); %d stale record(s) "
				       "removed: a build without --cc-wrapper, or the object "
				       "compiled with -Rpass-missed=wrap-idiom, gives them",
				       c.missing, c.objects, c.stale);
		}
	}
	if (seconds)
		*seconds = dt;
	sv_free(&a);
	free(modules);
	free(config);
	free(log);
	free(meta);
	return rc;
}
