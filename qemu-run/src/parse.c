/* qemu-run parse: reads a console log.
 *
 * KTAP: a port of tools/testing/kunit/kunit_parser.py (6.12): lines between a
 * "KTAP version" line and the end markers, recursive parse_test(), a plan that
 * promises more results than arrive counts the missing ones as crashed.
 * Unlike kunit.py every top-level KTAP block is read (built-in suites at boot,
 * then one block per KUnit module /init loads).
 *
 * UBSan: every "UBSAN: <kind> in <file>:<line>:<col>" (lib/ubsan.c), its
 * detail line(s) and the first Call Trace frame outside dump_stack/ubsan. */
#define _GNU_SOURCE
#include "parse.h"
#include "qemu_run.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

/* ---- lines ---- */

struct lines {
	char **s;        /* timestamp-stripped text */
	int *no;         /* 1-based log line */
	size_t n;
};

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

/* ---- KTAP ---- */

static regex_t re_ktap, re_tap, re_header, re_plan, re_result, re_skip, re_end, re_exec_err;
static int re_ready;

static void re_init(void)
{
	struct { regex_t *r; const char *s; } t[] = {
		{ &re_ktap, "^[[:space:]]*KTAP version ([0-9]+)$" },
		{ &re_tap, "^[[:space:]]*TAP version ([0-9]+)$" },
		{ &re_header, "^[[:space:]]*# Subtest: (.*)$" },
		{ &re_plan, "^[[:space:]]*1\\.\\.(-?[0-9]+)" },
		{ &re_result, "^[[:space:]]*(ok|not ok) ([0-9]+) (- )?([^#]*)( # .*)?$" },
		{ &re_skip, "^[[:space:]]*(ok|not ok) ([0-9]+) (- )?(.*) # SKIP(.*)$" },
		{ &re_end, "(List of all partitions:|Kernel panic - not syncing|reboot: System halted|"
			   "reboot: Restarting system|reboot: Power down|qemu-run: TIMEOUT)" },
		{ &re_exec_err, "^[[:space:]]*kunit executor: (.*)$" },
	};
	if (re_ready)
		return;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (regcomp(t[i].r, t[i].s, REG_EXTENDED) != 0)
			qr_die(QR_EXIT_FAIL, "internal: bad regex %s", t[i].s);
	re_ready = 1;
}

static int rmatch(regex_t *re, const char *s, regmatch_t *m, size_t nm)
{
	return regexec(re, s, nm, m, 0) == 0;
}

static char *group(const char *s, regmatch_t *m, int g)
{
	if (m[g].rm_so < 0)
		return xstrdup("");
	return strndup(s + m[g].rm_so, (size_t)(m[g].rm_eo - m[g].rm_so));
}

struct stream {
	struct lines *l;
	size_t i, end;
	size_t prefix;	/* the block's indentation, skipped by peek() */
	struct result *res;
};

/* Limits that keep a hostile log linear and bounded (kunit.py has none). */
#define KTAP_MAX_DEPTH 64
#define KTAP_MAX_PLAN 65536

static const char *peek(struct stream *s)
{
	const char *l;

	if (s->i >= s->end)
		return NULL;
	l = s->l->s[s->i];
	for (size_t ws = 0; ws < s->prefix && (*l == ' ' || *l == '\t'); ws++)
		l++;
	return l;
}

/* A decimal number of a plan or result line, or -1 if out of [0, max]. */
static long ktap_number(const char *v, long max)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || *end || n < 0 || n > max)
		return -1;
	return n;
}

static int peek_line(struct stream *s)
{
	return s->i < s->end ? s->l->no[s->i] : (s->end ? s->l->no[s->end - 1] : 0);
}

static void kt_error(struct stream *s, struct ktest *t, const char *fmt, const char *arg)
{
	char *m = xasprintf(fmt, arg);
	t->counts.errors++;
	sv_addf(&s->res->ktap_msgs, "%s:%d: KTAP: test \"%s\": %s", s->res->log, peek_line(s),
		t->name ? t->name : "", m);
	free(m);
}

static struct ktest *kt_new(void)
{
	struct ktest *t = xcalloc(1, sizeof(*t));
	t->name = xstrdup("");
	t->status = KT_CRASHED;
	t->expected_count = -1;
	return t;
}

static int counts_total(const struct kt_counts *c)
{
	return c->passed + c->failed + c->crashed + c->skipped;
}

static enum kt_status counts_status(const struct kt_counts *c)
{
	if (counts_total(c) == 0)
		return KT_NO_TESTS;
	if (c->crashed)
		return KT_CRASHED;
	if (c->failed)
		return KT_FAILURE;
	if (c->passed)
		return KT_SUCCESS;
	return KT_SKIPPED;
}

static void counts_add_status(struct kt_counts *c, enum kt_status st)
{
	if (st == KT_SUCCESS)
		c->passed++;
	else if (st == KT_FAILURE)
		c->failed++;
	else if (st == KT_SKIPPED)
		c->skipped++;
	else if (st != KT_NO_TESTS)
		c->crashed++;
}

static int is_non_diagnostic(const char *l)
{
	return rmatch(&re_result, l, NULL, 0) || rmatch(&re_header, l, NULL, 0) ||
	       rmatch(&re_ktap, l, NULL, 0) || rmatch(&re_tap, l, NULL, 0) ||
	       rmatch(&re_plan, l, NULL, 0);
}

static void parse_diagnostic(struct stream *s)
{
	while (peek(s) && !is_non_diagnostic(peek(s)))
		s->i++;
}

static int parse_ktap_header(struct stream *s, struct ktest *t)
{
	regmatch_t m[2];
	const char *l = peek(s);
	if (!l)
		return 0;
	if (rmatch(&re_ktap, l, m, 2)) {
		char *v = group(l, m, 1);
		if (atoi(v) != 1)
			kt_error(s, t, "unsupported KTAP version %s (1 is)", v);
		free(v);
	} else if (rmatch(&re_tap, l, m, 2)) {
		char *v = group(l, m, 1);
		if (atoi(v) != 13 && atoi(v) != 14)
			kt_error(s, t, "unsupported TAP version %s (13, 14 are)", v);
		free(v);
	} else {
		return 0;
	}
	t->line = peek_line(s);
	s->i++;
	return 1;
}

static int parse_test_header(struct stream *s, struct ktest *t)
{
	regmatch_t m[2];
	const char *l = peek(s);
	if (!l || !rmatch(&re_header, l, m, 2))
		return 0;
	free(t->name);
	t->name = group(l, m, 1);
	char *tn = trim(t->name);
	memmove(t->name, tn, strlen(tn) + 1);
	t->line = peek_line(s);
	s->i++;
	return 1;
}

static void parse_test_plan(struct stream *s, struct ktest *t)
{
	regmatch_t m[2];
	const char *l = peek(s);
	t->expected_count = -1;
	if (!l || !rmatch(&re_plan, l, m, 2))
		return;
	char *v = group(l, m, 1);
	long n = ktap_number(v, KTAP_MAX_PLAN);
	if (n < 0)
		kt_error(s, t, "plan 1..%s is not a count of 0 to 65536 tests", v);
	t->expected_count = (int)n;
	free(v);
	s->i++;
}

static char *result_name(const char *l)
{
	regmatch_t m[6];
	char *n;
	if (rmatch(&re_skip, l, m, 6))
		n = group(l, m, 4);
	else if (rmatch(&re_result, l, m, 6))
		n = group(l, m, 4);
	else
		return NULL;
	char *t = trim(n);
	memmove(n, t, strlen(t) + 1);
	return n;
}

static int peek_test_name_match(struct stream *s, struct ktest *t)
{
	const char *l = peek(s);
	char *n;
	int r;
	if (!l || !(n = result_name(l)))
		return 0;
	r = strcmp(n, t->name) == 0;
	free(n);
	return r;
}

static int parse_test_result(struct stream *s, struct ktest *t, int expected_num)
{
	regmatch_t m[6];
	const char *l = peek(s);
	if (!l || !rmatch(&re_result, l, m, 6))
		return 0;
	int skip = rmatch(&re_skip, l, NULL, 0);
	char *ok = group(l, m, 1), *num = group(l, m, 2);
	free(t->name);
	t->name = result_name(l);
	t->line = peek_line(s);
	long n = ktap_number(num, INT_MAX);
	if (n != expected_num) {
		char buf[96];
		snprintf(buf, sizeof(buf), "%d but found %.40s", expected_num, num);
		kt_error(s, t, "expected test number %s", buf);
	}
	if (skip)
		t->status = KT_SKIPPED;
	else if (strcmp(ok, "ok") == 0)
		t->status = KT_SUCCESS;
	else
		t->status = KT_FAILURE;
	free(ok);
	free(num);
	s->i++;
	return 1;
}

static void bubble_up(struct ktest *t)
{
	for (size_t i = 0; i < t->nsub; i++) {
		struct kt_counts *c = &t->sub[i]->counts;
		t->counts.passed += c->passed;
		t->counts.failed += c->failed;
		t->counts.crashed += c->crashed;
		t->counts.skipped += c->skipped;
		t->counts.errors += c->errors;
	}
	if (counts_total(&t->counts) == 0)
		counts_add_status(&t->counts, t->status);
	else if (counts_status(&t->counts) == KT_CRASHED)
		t->status = KT_CRASHED;
}

static struct ktest *parse_test(struct stream *s, int expected_num, int is_subtest,
			       int depth)
{
	struct ktest *t = kt_new();
	int parent;

	if (depth > KTAP_MAX_DEPTH) {
		kt_error(s, t, "tests nested deeper than %s levels: the rest of the block is not read",
			 "64");
		s->i = s->end;
		return t;
	}

	parse_diagnostic(s);
	if (!is_subtest) {
		free(t->name);
		t->name = xstrdup("main");
		parse_ktap_header(s, t);
		parse_diagnostic(s);
		parse_test_plan(s, t);
		parent = 1;
	} else {
		int k = parse_ktap_header(s, t);
		int h = parse_test_header(s, t);
		parent = k || h;
		if (parent) {
			parse_diagnostic(s);
			parse_test_plan(s, t);
		}
	}
	int test_num = 1;
	while (parent && (t->expected_count < 0 || test_num <= t->expected_count)) {
		struct ktest *sub;
		parse_diagnostic(s);
		if (!peek(s) || (is_subtest && peek_test_name_match(s, t))) {
			if (t->expected_count > 0 && test_num <= t->expected_count) {
				char buf[64];
				snprintf(buf, sizeof(buf), "%d of %d", test_num, t->expected_count);
				kt_error(s, t, "missing expected subtest %s", buf);
				t->counts.errors--;   /* counted as crashed, not as an error */
				counts_add_status(&t->counts, KT_CRASHED);
				sub = kt_new();
				free(sub->name);
				sub->name = xasprintf("<missing result %d>", test_num);
				sub->missing = 1;
				sub->line = peek_line(s);
			} else {
				break;
			}
		} else {
			size_t at = s->i;
			sub = parse_test(s, test_num, 1, depth + 1);
			if (s->i == at) {
				/* nothing it could read: a line out of place, e.g. a
				 * plan after results; skip it, or this never ends */
				kt_error(s, t, "unexpected line: %.80s", peek(s));
				s->i++;
				free(sub->name);
				free(sub->sub);
				free(sub);
				continue;
			}
		}
		t->sub = xrealloc(t->sub, (t->nsub + 1) * sizeof(*t->sub));
		t->sub[t->nsub++] = sub;
		test_num++;
	}
	if (is_subtest) {
		parse_diagnostic(s);
		if (t->name[0] && !peek_test_name_match(s, t))
			kt_error(s, t, "missing subtest result line%s", "");
		else if (!peek(s)) {
			t->status = KT_NO_TESTS;
			kt_error(s, t, "no more test results%s", "");
		} else {
			parse_test_result(s, t, expected_num);
		}
	}
	/* kunit_parser.py: a parent with no subtests ran nothing, whatever its
	 * own result line says (an empty "1..0" suite must not satisfy a
	 * required one). */
	if (parent && t->nsub == 0 &&
	    (t->status == KT_CRASHED || t->status == KT_SUCCESS)) {
		t->status = KT_NO_TESTS;
		kt_error(s, t, "0 tests run!%s", "");
	}
	bubble_up(t);
	return t;
}

static void parse_ktap(struct result *r, struct lines *L)
{
	size_t i = 0;
	/* next_end[k]: the first end marker at or after line k (L->n: none),
	 * so finding each block's end costs nothing */
	size_t *next_end = xmalloc((L->n + 1) * sizeof(*next_end));

	re_init();
	next_end[L->n] = L->n;
	for (size_t k = L->n; k-- > 0;)
		next_end[k] = rmatch(&re_end, L->s[k], NULL, 0) ? k : next_end[k + 1];
	while (i < L->n) {
		/* find the next top-level KTAP/TAP header */
		size_t start = i;
		while (start < L->n && !rmatch(&re_ktap, L->s[start], NULL, 0) &&
		       !rmatch(&re_tap, L->s[start], NULL, 0)) {
			regmatch_t m[2];
			if (rmatch(&re_exec_err, L->s[start], m, 2)) {
				sv_addf(&r->ktap_msgs, "%s:%d: %s", r->log, L->no[start], L->s[start]);
				r->ktap_errors++;
			}
			start++;
		}
		if (start >= L->n)
			break;
		/* the indentation of the header, which peek() strips from the
		 * block's lines */
		const char *h = L->s[start];
		size_t prefix = strstr(h, "TAP version") - h;
		if (prefix && h[prefix - 1] == 'K')
			prefix--;
		size_t end = next_end[start + 1];
		struct stream s = { L, start, end, prefix, r };
		struct ktest *main_t = parse_test(&s, 0, 0, 0);
		r->ktap_blocks++;
		r->ktap_errors += main_t->counts.errors;
		for (size_t k = 0; k < main_t->nsub; k++) {
			r->suites = xrealloc(r->suites, (r->nsuites + 1) * sizeof(*r->suites));
			r->suites[r->nsuites++] = main_t->sub[k];
		}
		free(main_t->sub);
		free(main_t->name);
		free(main_t);
		i = s.i > start ? s.i : start + 1;
	}
	free(next_end);
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
