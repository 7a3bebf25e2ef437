/* qemu-run parse: a console log against the expectations: the verdict.
 * The log's lines, UBSan reports and sites come from consolelog.h (the one
 * reader of console logs, shared with wrap-ignorelist triage), KTAP from
 * ktap.c. */
#define _GNU_SOURCE
#include "parse.h"
#include "logparse.h"
#include "qemu_run.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

/* ---- UBSan sites ---- */

const char *site_func(const struct cl_site *s)
{
	return s->rep.func ? s->rep.func : "?";
}

/* The reports of consolelog.h, one site per kind and file:line:col. */
static void collect_sites(struct result *r, const struct cl_reports *rep)
{
	/* a report without a file (a trap's) is a site per function */
	cl_sites_init(&r->sites, CL_SITE_BY_FRAME);
	for (size_t i = 0; i < rep->n; i++) {
		const struct cl_report *c = &rep->r[i];
		int is_new;
		if (c->trap && !r->traps++) {
			r->trap_line = c->log_line;
			/* "integer addition overflow at foo+0x1c/0x40", or at a raw
			 * address: named by the System.map, or not at all */
			int raw = !strstr(c->detail, "+0x");
			r->trap_msg = xasprintf("%s%s%s%s", c->detail,
						raw && c->func ? " (" : raw ? " (no symbol)" : "",
						raw && c->func ? c->func : "",
						raw && c->func ? ", System.map)" : "");
		}
		int k = cl_sites_add(&r->sites, c, c->file ? c->file : "?", &is_new);
		if (k < 0)
			qr_die(QR_EXIT_FAIL, "out of memory");
		/* division-overflow: one site, a wrap report (INT_MIN / -1) or not
		 * (division by zero); a wrap site is described by its first wrap
		 * report, as triage does */
		struct cl_site *s = &r->sites.s[k];
		if (!s->rep.sanitizer && c->sanitizer && cl_site_describe(s, c) < 0)
			qr_die(QR_EXIT_FAIL, "out of memory");
		r->reports++;
	}
	r->site_rule = xcalloc(r->sites.n, sizeof(int));
	for (size_t k = 0; k < r->sites.n; k++)
		r->site_rule[k] = -1;
}

/* ---- expectations ---- */

static int glob_ok(const char *pat, const char *s)
{
	return !pat || fnmatch(pat, s, 0) == 0;
}

static int rule_matches(const struct erule *e, const struct cl_site *s)
{
	return glob_ok(e->name, s->rep.kind) && glob_ok(e->file, s->file) &&
	       glob_ok(e->func, site_func(s)) && (!e->after || strstr(s->rep.context, e->after)) &&
	       (!e->detail || strstr(s->rep.detail, e->detail));
}

static void add_kind(struct result *r, const struct cl_site *s)
{
	size_t i;
	for (i = 0; i < r->nkinds; i++)
		if (strcmp(r->kinds[i].kind, s->rep.kind) == 0)
			break;
	if (i == r->nkinds) {
		r->kinds = xrealloc(r->kinds, (r->nkinds + 1) * sizeof(*r->kinds));
		r->kinds[i].kind = xstrdup(s->rep.kind);
		r->kinds[i].distinct = r->kinds[i].total = 0;
		r->nkinds++;
	}
	r->kinds[i].distinct++;
	r->kinds[i].total += s->count;
}

struct ktest *find_suite(const struct result *r, const char *name)
{
	for (size_t i = 0; i < r->nsuites; i++)
		if (strcmp(r->suites[i]->name, name) == 0)
			return r->suites[i];
	return NULL;
}

static void judge(struct result *r, struct expect *e, int strict)
{
	/* UBSan sites against must/allow rules */
	r->rule_hits = xcalloc(e->n + 1, sizeof(int));
	r->rule_site = xcalloc(e->n + 1, sizeof(int));
	for (size_t i = 0; i < e->n; i++)
		r->rule_site[i] = -1;
	for (size_t k = 0; k < r->sites.n; k++) {
		const struct cl_site *s = &r->sites.s[k];
		int *rule = &r->site_rule[k];
		for (size_t i = 0; i < e->n; i++) {
			struct erule *ru = &e->r[i];
			if ((ru->kind != 'm' && ru->kind != 'a') || !rule_matches(ru, s))
				continue;
			if (*rule < 0 || (e->r[*rule].kind == 'a' && ru->kind == 'm'))
				*rule = (int)i;
			r->rule_hits[i] += s->count;
			if (r->rule_site[i] < 0)
				r->rule_site[i] = (int)k;
		}
		if (*rule < 0) {
			r->unexplained_distinct++;
			r->unexplained_total += s->count;
			add_kind(r, s);
		}
	}
	for (size_t i = 0; i < e->n; i++) {
		struct erule *ru = &e->r[i];
		if (ru->kind == 'm') {
			r->must_rules++;
			if (r->rule_hits[i])
				r->must_found++;
			else
				sv_addf(&r->reasons, "expected UBSan report missing: %s (%s:%d)", ru->text,
					e->path, ru->line);
		} else if (ru->kind == 's') {
			struct ktest *t = find_suite(r, ru->name);
			r->req_suites++;
			if (!t)
				sv_addf(&r->reasons, "KUnit suite %s did not run (%s:%d)", ru->name,
					e->path, ru->line);
			else if (t->status != KT_SUCCESS)
				sv_addf(&r->reasons, "KUnit suite %s: %s", ru->name,
					kt_status_str(t->status));
			else
				r->req_suites_ok++;
		}
	}
	for (size_t i = 0; i < r->nsuites; i++) {
		const struct ktest *t = r->suites[i];
		int required = 0;
		for (size_t k = 0; k < e->n; k++)
			required |= e->r[k].kind == 's' && strcmp(e->r[k].name, t->name) == 0;
		if (!required && t->status == KT_FAILURE)
			sv_addf(&r->reasons, "KUnit suite %s: FAIL (not required, but a failure)",
				t->name);
		switch (t->status) {
		case KT_SUCCESS: r->suites_pass++; break;
		case KT_FAILURE: r->suites_fail++; break;
		case KT_SKIPPED: case KT_NO_TESTS: r->suites_skip++; break;
		case KT_CRASHED: r->suites_crash++; break;
		}
	}
	if (r->ktap_errors)
		sv_addf(&r->reasons, "%d KTAP error(s)", r->ktap_errors);
	/* CONFIG_UBSAN_TRAP: a check that fires is a failure, whatever the
	 * expectations allow (x86_64 follows it with an Oops, named below) */
	if (r->traps)
		sv_addf(&r->reasons, "%s:%d: UBSan trap: %s (%d trap(s) in the log)", r->log,
			r->trap_line, r->trap_msg, r->traps);
	if (r->faults)
		sv_addf(&r->reasons, "%s:%d: kernel fault: %s%s%s (%d in the log)", r->log,
			r->fault_line, r->fault_msg, r->fault_site ? " at " : "",
			r->fault_site ? r->fault_site : "", r->faults);
	if (strict && r->unexplained_distinct)
		sv_addf(&r->reasons, "--strict: %d unexplained UBSan site(s), %d report(s)",
			r->unexplained_distinct, r->unexplained_total);

	enum verdict v = V_PASS;
	if (r->reasons.n)
		v = V_FAIL;
	if (r->suites_crash) {
		v = V_CRASH;
		sv_addf(&r->reasons, "%d KUnit suite(s) crashed (missing KTAP results)",
			r->suites_crash);
	}
	if (!r->done_line && !r->panic_line && !r->timeout_line) {
		v = V_CRASH;
		sv_add(&r->reasons, "the log ends before /init finished (no \"" "qemu-run-init: done"
		       "\" or reboot line): truncated, or the guest died");
	}
	if (r->panic_line) {
		v = V_PANIC;
		sv_addf(&r->reasons, "%s:%d: %s", r->log, r->panic_line, r->panic_msg);
	}
	if (r->timeout_line) {
		v = V_TIMEOUT;
		sv_addf(&r->reasons, "%s:%d: QEMU was killed by the timeout (%.0f s) after this line",
			r->log, r->timeout_line, r->timeout);
	}
	r->verdict = v;
}

/* The first line of a kernel fault short of a panic, as lib/bug.c,
 * kernel/panic.c's __warn() and the architectures' fault handlers print it
 * (a KUnit case that expects one runs without CONFIG_BUG here). */
static int is_kernel_fault(const char *s)
{
	static const char *const starts[] = {
		"WARNING: CPU: ", "BUG: ", "kernel BUG at ", "Oops: ", "Internal error: ",
		"Unable to handle kernel ", "general protection fault",
	};
	for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
		if (starts_with(s, starts[i]))
			return 1;
	return 0;
}

/* Where the fault at line i happened: its register dump's program counter,
 * "RIP: 0010:foo+0x1c/0x40" (x86_64) or "pc : foo+0x1c/0x40" (arm64), as
 * "foo+0x1c/0x40"; a raw address (no kallsyms) is named through the
 * System.map, "foo (0xffffffff81234567, System.map)". NULL: no such line
 * before the next fault or within 40 lines. */
static char *fault_site(const struct lines *L, size_t i, const struct cl_ksyms *map)
{
	for (size_t j = i + 1; j < L->n && j <= i + 40; j++) {
		const char *s = L->s[j], *pc = NULL;
		if (is_kernel_fault(s))
			break;
		if (starts_with(s, "RIP: ") && strchr(s, ':') != strrchr(s, ':'))
			pc = strchr(s + 5, ':') + 1;
		else if (starts_with(s, "pc : "))
			pc = s + 5;
		if (!pc)
			continue;
		size_t n = strcspn(pc, " ");
		char *text = xasprintf("%.*s", (int)n, pc);
		char *fn = cl_frame_function(text, map);
		if (fn && !strstr(text, "+0x")) {
			char *named = xasprintf("%s (%s, System.map)", fn, text);
			free(text);
			text = named;
		}
		free(fn);
		return text;
	}
	return NULL;
}

void boot_facts_read(const char *log, struct boot_facts *f)
{
	char *p = xasprintf("%s.meta", log);
	char *t = cl_read_file(p, NULL);

	memset(f, 0, sizeof(*f));
	f->build_seconds = f->boot_seconds = -1;
	for (char *cur = t, *l; t && (l = cl_next_line(&cur));) {
		if (starts_with(l, "build_seconds="))
			f->build_seconds = atof(l + 14);
		else if (starts_with(l, "boot_seconds="))
			f->boot_seconds = atof(l + 13);
		else if (starts_with(l, "timeout="))
			f->timeout = atof(l + 8);
		else if (starts_with(l, "timed_out="))
			f->timed_out = atoi(l + 10) != 0;
		else if (starts_with(l, "system_map=") && l[11]) {
			free(f->system_map);
			f->system_map = xstrdup(l + 11);
		} else if (starts_with(l, "accel=")) {
			free(f->accel);
			f->accel = xstrdup(l + 6);
		}
	}
	free(t);
	free(p);
}

void boot_facts_free(struct boot_facts *f)
{
	free(f->accel);
	free(f->system_map);
	memset(f, 0, sizeof(*f));
}

struct result *parse_log(const char *path, struct expect *e, int strict, const char *system_map,
			 const struct boot_facts *facts)
{
	size_t len;
	char *text = cl_read_file(path, &len);

	if (!text) {
		qr_err("cannot read log %s: %s", path, cl_read_error());
		return NULL;
	}
	return parse_text(path, text, len, e, strict, system_map, facts);
}

struct result *parse_text(const char *path, char *text, size_t len, struct expect *e, int strict,
			  const char *system_map, const struct boot_facts *facts)
{
	struct boot_facts meta;
	struct result *r;
	struct lines L = {0};
	int banner = 0;
	size_t fault_i = 0;

	if (len == 0) {
		qr_err("%s: empty log (QEMU printed nothing?)", path);
		free(text);
		return NULL;
	}
	{
		const char *nul = memchr(text, 0, len);
		if (nul) {
			int line = 1;
			for (const char *p = text; p < nul; p++)
				line += *p == '\n';
			qr_err("%s:%d: NUL byte: binary data, not a console log", path, line);
			free(text);
			return NULL;
		}
	}
	r = xcalloc(1, sizeof(*r));
	r->log = xstrdup(path);
	if (cl_lines(text, &L) < 0)
		qr_die(QR_EXIT_FAIL, "out of memory");
	for (size_t i = 0; i < L.n; i++) {
		const char *s = L.s[i];
		int no = L.no[i];
		if (strstr(s, "Linux version ") || strstr(s, "KTAP version ") ||
		    strstr(s, "TAP version ") || starts_with(s, "UBSAN: "))
			banner = 1;
		if (is_kernel_fault(s)) {
			if (!r->fault_line) {
				fault_i = i;
				r->fault_line = no;
				r->fault_msg = xstrdup(s);
			}
			r->faults++;
		}
		if (!r->panic_line && strstr(s, "Kernel panic - not syncing")) {
			r->panic_line = no;
			r->panic_msg = xstrdup(strstr(s, "Kernel panic"));
		}
		if (!r->done_line && (strstr(s, "qemu-run-init: done") ||
				      strstr(s, "reboot: Restarting system") ||
				      strstr(s, "reboot: System halted") || strstr(s, "reboot: Power down")))
			r->done_line = no;
	}
	if (!facts) {
		boot_facts_read(path, &meta);
		facts = &meta;
	}
	/* the timeout is the boot's fact: the guest's log is left as QEMU wrote
	 * it, and the kill happened after its last line */
	if (facts->timed_out)
		r->timeout_line = L.n ? L.no[L.n - 1] : 1;
	r->timeout = facts->timeout;
	r->build_seconds = facts->build_seconds;
	r->boot_seconds = facts->boot_seconds;
	r->accel = facts->accel ? xstrdup(facts->accel) : NULL;
	if (!system_map && facts->system_map && file_exists(facts->system_map))
		system_map = facts->system_map;
	if (!banner && !r->timeout_line) {
		qr_err("%s: not a Linux console log: no \"Linux version\" banner, no (K)TAP, no UBSAN "
		       "report (%zu lines)", path, L.n);
		cl_lines_free(&L);
		result_free(r);
		if (facts == &meta)
			boot_facts_free(&meta);
		return NULL;
	}
	/* never name frames from another log's kernel: no map, no names */
	struct cl_ksyms *map = NULL;
	if (system_map && !(map = cl_ksyms_load(system_map)))
		qr_warn("cannot read System.map %s: %s (frames stay unnamed)", system_map,
			cl_read_error());
	if (r->fault_line)
		r->fault_site = fault_site(&L, fault_i, map);
	struct cl_reports rep;
	if (cl_ubsan_reports(&L, map, &rep) < 0)
		qr_die(QR_EXIT_FAIL, "out of memory");
	parse_ktap(r, &L);
	collect_sites(r, &rep);
	judge(r, e, strict);
	cl_reports_free(&rep);
	cl_ksyms_free(map);
	if (facts == &meta)
		boot_facts_free(&meta);
	/* the result keeps copies only; the text can go */
	cl_lines_free(&L);
	return r;
}

static void ktest_free(struct ktest *t)
{
	for (size_t i = 0; i < t->nsub; i++)
		ktest_free(t->sub[i]);
	free(t->sub);
	free(t->name);
	free(t);
}

void result_free(struct result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nsuites; i++)
		ktest_free(r->suites[i]);
	free(r->suites);
	cl_sites_free(&r->sites);
	free(r->site_rule);
	for (size_t i = 0; i < r->nkinds; i++)
		free(r->kinds[i].kind);
	free(r->kinds);
	sv_free(&r->reasons);
	sv_free(&r->ktap_msgs);
	free(r->log);
	free(r->panic_msg);
	free(r->fault_msg);
	free(r->fault_site);
	free(r->trap_msg);
	free(r->accel);
	free(r->rule_hits);
	free(r->rule_site);
	free(r);
}
