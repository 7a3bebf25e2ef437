/* qemu-run parse: reads a console log (KTAP in ktap.c).
 *
 * UBSan: every "UBSAN: <kind> in <file>:<line>:<col>" (lib/ubsan.c), its
 * detail line(s) and the first Call Trace frame outside dump_stack/ubsan. */
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

/* ---- lines ---- */


/* Drops "[    1.234567] " and a "[    T1] " caller id after it. */
static char *strip_timestamp(char *l)
{
	for (int k = 0; k < 2; k++) {
		char *p = l;
		if (*p != '[')
			break;
		p++;
		while (*p == ' ')
			p++;
		if (k == 1 && (*p == 'T' || *p == 'C'))
			p++;
		char *d = p;
		while ((*p >= '0' && *p <= '9') || *p == '.')
			p++;
		if (p == d || *p != ']')
			break;
		p++;
		if (*p == ' ')
			p++;
		l = p;
	}
	return l;
}

/* ---- UBSan ---- */

/* System.map of the kernel, to name the raw addresses of a kernel built
 * without CONFIG_KALLSYMS ("? 0xffffffff8125d4b6" frames). */
struct ksym {
	unsigned long long addr;
	char *name;
};
static struct ksym *ksyms;
static size_t nksyms;
static char *ksyms_path;

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void unload_system_map(void)
{
	for (size_t i = 0; i < nksyms; i++)
		free(ksyms[i].name);
	nksyms = 0;
	free(ksyms_path);
	ksyms_path = NULL;
}

static void load_system_map(const char *path)
{
	char *text;
	if (!path || !*path || (ksyms_path && strcmp(ksyms_path, path) == 0))
		return;
	text = read_file(path, NULL);
	if (!text) {
		qr_warn("cannot read System.map %s: %s (frames stay unnamed)", path, strerror(errno));
		return;
	}
	unload_system_map();
	ksyms_path = xstrdup(path);
	for (char *cur = text, *l; (l = next_line(&cur));) {
		unsigned long long a;
		char type, name[256];
		if (sscanf(l, "%llx %c %255s", &a, &type, name) != 3)
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		ksyms = xrealloc(ksyms, (nksyms + 1) * sizeof(*ksyms));
		ksyms[nksyms].addr = a;
		ksyms[nksyms].name = xstrdup(name);
		nksyms++;
	}
	free(text);
	qsort(ksyms, nksyms, sizeof(*ksyms), ksym_cmp);
}

/* The text symbol holding addr, NULL if none (or past the last by > 1 MiB). */
static const char *ksym_lookup(unsigned long long addr)
{
	size_t lo = 0, hi = nksyms;
	if (!nksyms || addr < ksyms[0].addr)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (ksyms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	if (lo == nksyms - 1 && addr - ksyms[lo].addr > (1ULL << 20))
		return NULL;
	return ksyms[lo].name;
}

static int is_ubsan_frame(const char *fn)
{
	static const char *const pfx[] = { "dump_stack", "ubsan_", "__ubsan_", "handle_overflow",
					   "show_stack", "__dump_stack", "ubsan_epilogue",
					   "ubsan_prologue", "report_ubsan" };
	for (size_t i = 0; i < sizeof(pfx) / sizeof(pfx[0]); i++)
		if (starts_with(fn, pfx[i]))
			return 1;
	return 0;
}

/* Frames the guess unwinder finds as leftovers of the printk that usually
 * precedes a report (test_ubsan's UBSAN_TEST line): not the site's function. */
static int is_stale_guess(const char *fn)
{
	return starts_with(fn, "_printk") || starts_with(fn, "vprintk") ||
	       starts_with(fn, "printk") || starts_with(fn, "__pfx_") ||
	       starts_with(fn, "console_");
}

/* " foo+0x1c/0x40 [mod]" -> "foo"; NULL if not a frame. *unreliable is set
 * for "? foo+0x..." (all frames of the guess unwinder look like that). */
static char *frame_func_u(const char *l, int *unreliable)
{
	while (*l == ' ' || *l == '\t')
		l++;
	*unreliable = 0;
	if (starts_with(l, "? ")) {
		*unreliable = 1;
		l += 2;
	}
	if (starts_with(l, "0x")) {   /* no KALLSYMS: name it from System.map */
		const char *n = ksym_lookup(strtoull(l, NULL, 16));
		return n ? xstrdup(n) : NULL;
	}
	const char *plus = strstr(l, "+0x");
	if (!plus || plus == l)
		return NULL;
	for (const char *p = l; p < plus; p++)
		if (*p == ' ')
			return NULL;
	return strndup(l, (size_t)(plus - l));
}

static char *frame_func(const char *l)
{
	int u;
	return frame_func_u(l, &u);
}

static int is_frame_line(const char *l)
{
	char *f = frame_func(l);
	const char *t = l;
	while (*t == ' ' || *t == '\t')
		t++;
	if (f) {
		free(f);
		return 1;
	}
	return starts_with(t, "? ") || starts_with(t, "<TASK>") || starts_with(t, "</TASK>") ||
	       starts_with(t, "<IRQ>") || starts_with(t, "</IRQ>") || starts_with(t, "0x");
}

static int site_index(struct result *r, const char *kind, const char *file, int line, int col)
{
	for (size_t i = 0; i < r->nsites; i++) {
		struct usite *s = &r->sites[i];
		if (s->line == line && s->col == col && strcmp(s->kind, kind) == 0 &&
		    strcmp(s->file, file) == 0)
			return (int)i;
	}
	return -1;
}

static void parse_ubsan(struct result *r, struct lines *L)
{
	const char *context = "";
	for (size_t i = 0; i < L->n; i++) {
		const char *l = L->s[i];
		if (!starts_with(l, "UBSAN: ")) {
			if (*l && !strstr(l, "[ cut here ]") && !starts_with(l, "---[ end trace"))
				context = l;
			continue;
		}
		/* "UBSAN: <kind> in <file>:<line>:<col>" */
		char *kind, *file;
		int line = 0, col = 0;
		const char *in = strstr(l, " in ");
		const char *rest = l + 7;
		if (in) {
			const char *loc = in + 4;
			const char *c2 = strrchr(loc, ':');
			const char *c1 = c2 ? memrchr(loc, ':', (size_t)(c2 - loc)) : NULL;
			if (c1 && sscanf(c1, ":%d:%d", &line, &col) == 2) {
				kind = strndup(rest, (size_t)(in - rest));
				file = strndup(loc, (size_t)(c1 - loc));
			} else {
				in = NULL;
			}
		}
		if (!in) {   /* UBSAN_TRAP: "UBSAN: integer addition overflow" */
			kind = xstrdup(rest);
			file = xstrdup("?");
		}
		/* detail lines up to CPU:/Call Trace:, then the first non-UBSan frame */
		struct sbuf detail = {0};
		char *func = NULL, *guess = NULL;
		int traced = 0;
		size_t j = i + 1;
		for (; j < L->n; j++) {
			const char *d = L->s[j];
			if (starts_with(d, "CPU: ") || starts_with(d, "Call Trace:") ||
			    starts_with(d, "UBSAN: ") || starts_with(d, "---[ end trace") ||
			    starts_with(d, "Hardware name:") || detail.len > 400)
				break;
			const char *t = d;
			while (*t == ' ' || *t == '\t')
				t++;
			/* KUnit's "# case: lib/ubsan.c:226: ..." interleaves here */
			if (*t && !starts_with(t, "# "))
				sb_addf(&detail, "%s%s", detail.len ? " | " : "", d);
		}
		for (; j < L->n && j < i + 200; j++) {
			const char *d = L->s[j];
			if (starts_with(d, "UBSAN: ") || starts_with(d, "---[ end trace"))
				break;
			if (starts_with(d, "Call Trace:")) {
				traced = 1;
				for (j++; j < L->n && is_frame_line(L->s[j]); j++) {
					int u;
					char *f = frame_func_u(L->s[j], &u);
					if (f && !u && !func && !is_ubsan_frame(f))
						func = f;
					else if (f && u && !guess && !is_ubsan_frame(f) &&
						 !is_stale_guess(f))
						guess = f;
					else
						free(f);
				}
				break;
			}
		}
		if (!func) {
			func = guess;   /* only unreliable frames: better than nothing */
			guess = NULL;
		}
		free(guess);
		int k = site_index(r, kind, file, line, col);
		if (k < 0) {
			r->sites = xrealloc(r->sites, (r->nsites + 1) * sizeof(*r->sites));
			struct usite *s = &r->sites[r->nsites];
			memset(s, 0, sizeof(*s));
			s->kind = kind;
			s->file = file;
			s->line = line;
			s->col = col;
			s->func = func ? func : xstrdup("?");
			s->detail = detail.s ? detail.s : xstrdup("");
			s->context = xstrdup(context);
			s->first_log_line = L->no[i];
			s->rule = -1;
			k = (int)r->nsites++;
		} else {
			free(kind);
			free(file);
			free(func);
			sb_free(&detail);
		}
		r->sites[k].count++;
		r->reports++;
		context = "";
		/* resume after the report: its trace is no console context */
		if (traced && j < L->n && starts_with(L->s[j], "---[ end trace"))
			i = j;
		else if (traced)
			i = j - 1;
	}
}

/* ---- expectations ---- */

static int glob_ok(const char *pat, const char *s)
{
	return !pat || fnmatch(pat, s, 0) == 0;
}

static int rule_matches(const struct erule *e, const struct usite *s)
{
	return glob_ok(e->name, s->kind) && glob_ok(e->file, s->file) && glob_ok(e->func, s->func) &&
	       (!e->after || strstr(s->context, e->after)) &&
	       (!e->detail || strstr(s->detail, e->detail));
}

static void add_kind(struct result *r, const struct usite *s)
{
	size_t i;
	for (i = 0; i < r->nkinds; i++)
		if (strcmp(r->kinds[i].kind, s->kind) == 0)
			break;
	if (i == r->nkinds) {
		r->kinds = xrealloc(r->kinds, (r->nkinds + 1) * sizeof(*r->kinds));
		r->kinds[i].kind = xstrdup(s->kind);
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
	for (size_t k = 0; k < r->nsites; k++) {
		struct usite *s = &r->sites[k];
		for (size_t i = 0; i < e->n; i++) {
			struct erule *ru = &e->r[i];
			if ((ru->kind != 'm' && ru->kind != 'a') || !rule_matches(ru, s))
				continue;
			if (s->rule < 0 || (e->r[s->rule].kind == 'a' && ru->kind == 'm'))
				s->rule = (int)i;
			r->rule_hits[i] += s->count;
			if (r->rule_site[i] < 0)
				r->rule_site[i] = (int)k;
		}
		if (s->rule < 0) {
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
		sv_addf(&r->reasons, "%s:%d: QEMU was killed by the timeout", r->log, r->timeout_line);
	}
	r->verdict = v;
}

static void read_meta(struct result *r)
{
	char *p = xasprintf("%s.meta", r->log);
	char *t = read_file(p, NULL);
	r->build_seconds = r->boot_seconds = -1;
	if (t) {
		for (char *cur = t, *l; (l = next_line(&cur));) {
			if (starts_with(l, "build_seconds="))
				r->build_seconds = atof(l + 14);
			else if (starts_with(l, "boot_seconds="))
				r->boot_seconds = atof(l + 13);
			else if (starts_with(l, "system_map=")) {
				free(r->system_map);
				r->system_map = xstrdup(l + 11);
			} else if (starts_with(l, "accel=")) {
				free(r->accel);
				r->accel = xstrdup(l + 6);
			}
		}
	}
	free(t);
	free(p);
}

struct result *parse_log(const char *path, struct expect *e, int strict, const char *system_map)
{
	size_t len;
	char *text = read_file(path, &len);
	struct result *r;
	struct lines L = {0};
	int banner = 0;

	if (!text) {
		qr_err("cannot read log %s: %s", path, strerror(errno));
		return NULL;
	}
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
	int no = 0;
	for (char *cur = text, *l; (l = next_line(&cur));) {
		no++;
		char *s = strip_timestamp(l);
		L.s = xrealloc(L.s, (L.n + 1) * sizeof(*L.s));
		L.no = xrealloc(L.no, (L.n + 1) * sizeof(*L.no));
		L.s[L.n] = s;
		L.no[L.n] = no;
		L.n++;
		if (strstr(s, "Linux version ") || starts_with(s, "KTAP version") ||
		    starts_with(s, "UBSAN: "))
			banner = 1;
		if (!r->panic_line && strstr(s, "Kernel panic - not syncing")) {
			r->panic_line = no;
			r->panic_msg = xstrdup(strstr(s, "Kernel panic"));
		}
		if (!r->timeout_line && starts_with(s, "qemu-run: TIMEOUT"))
			r->timeout_line = no;
		if (!r->done_line && (strstr(s, "qemu-run-init: done") ||
				      strstr(s, "reboot: Restarting system") ||
				      strstr(s, "reboot: System halted") || strstr(s, "reboot: Power down")))
			r->done_line = no;
	}
	if (!banner && !r->timeout_line) {
		qr_err("%s: not a Linux console log: no \"Linux version\" banner, no KTAP, no UBSAN "
		       "report (%d lines)", path, no);
		free(L.s);
		free(L.no);
		free(text);
		free(r->log);
		free(r);
		return NULL;
	}
	read_meta(r);
	if (!system_map && r->system_map && file_exists(r->system_map))
		system_map = r->system_map;
	if (system_map)
		load_system_map(system_map);
	else
		unload_system_map();   /* never name frames from another log's kernel */
	parse_ktap(r, &L);
	parse_ubsan(r, &L);
	judge(r, e, strict);
	free(L.s);
	free(L.no);
	/* the result keeps copies only; text can go */
	free(text);
	return r;
}
