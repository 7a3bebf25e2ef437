/* qemu-run's KTAP reader: a port of tools/testing/kunit/kunit_parser.py
 * (6.12): lines between a "KTAP version" line and the end markers, recursive
 * parse_test(), a plan that promises more results than arrive counts the
 * missing ones as crashed, a parent without subtests ran no tests. Unlike
 * kunit.py every top-level KTAP block is read (built-in suites at boot, then
 * one block per KUnit module /init loads), and hostile input is bounded
 * (nesting, plan size, lines it cannot place). */
#define _GNU_SOURCE
#include "logparse.h"
#include "qemu_run.h"

#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- KTAP ---- */

static regex_t re_ktap, re_tap, re_header, re_plan, re_result, re_skip, re_directive, re_end,
	re_exec_err;
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
		/* a result's SKIP directive on a line of its own: the result's
		 * description ended in a newline (fs/ext4/mballoc-test.c's
		 * parameter descriptions do), so printk printed the rest of the
		 * record as the next line */
		{ &re_directive, "^[[:space:]]*# SKIP( .*)?$" },
		{ &re_end, "(List of all partitions:|Kernel panic - not syncing|reboot: System halted|"
			   "reboot: Restarting system|reboot: Power down)" },
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
	return xstrndup(s + m[g].rm_so, (size_t)(m[g].rm_eo - m[g].rm_so));
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

static double peek_time(struct stream *s)
{
	return s->i < s->end ? s->l->time[s->i] : -1;
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
	t->t_begin = t->t_end = -1;
	return t;
}

static int counts_total(const struct kt_counts *c)
{
	return c->passed + c->failed + c->crashed + c->skipped;
}

const char *kt_status_str(enum kt_status s)
{
	static const char *const n[] = { "PASS", "FAIL", "SKIP", "CRASH", "NO TESTS" };
	return n[s];
}

enum kt_status kt_counts_status(const struct kt_counts *c)
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

/* The line k of s's block as peek() gives it. */
static const char *line_at(const struct stream *s, size_t k)
{
	struct stream at = *s;
	at.i = k;
	return peek(&at);
}

static size_t indent_of(const char *l)
{
	return strspn(l, " \t");
}

/*
 * An SMP console: other CPUs' and drivers' messages come between any two
 * KTAP lines ("input: ImExPS/2 ..." between a case's "KTAP version 1" and
 * its "# Subtest:" line). kunit_parser.py takes a diagnostic after a
 * version line for the end of the header, reads the "# Subtest:" line as a
 * child and every later result of the block as that nameless test's, so
 * the suite crashes and the rest of the block is never read. After a
 * version line at indentation `indent`, lines that are not KTAP are passed
 * over to a "# Subtest:" line of the same indentation: KUnit prints the two
 * back to back, so they belong together. No such line: nothing is passed.
 */
static void skip_to_own_header(struct stream *s, size_t indent)
{
	size_t k = s->i;
	const char *l;

	while ((l = line_at(s, k)) && !is_non_diagnostic(l))
		k++;
	if (k > s->i && l && rmatch(&re_header, l, NULL, 0) && indent_of(l) == indent)
		s->i = k;
}

/*
 * A result line without a directive whose "# SKIP ..." is the next line
 * (the description ended in a newline: printk prints the rest of the one
 * record as a line of its own, at any nesting), past lines of other CPUs
 * (not KTAP, not a "#" line of the tests). The directive line stays in the
 * stream, a diagnostic to the parser.
 */
static int split_skip_follows(const struct stream *s)
{
	const char *l;

	for (size_t k = s->i; (l = line_at(s, k)); k++) {
		if (rmatch(&re_directive, l, NULL, 0))
			return 1;
		if (is_non_diagnostic(l) || l[indent_of(l)] == '#')
			return 0;
	}
	return 0;
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
	int has_directive = m[5].rm_so >= 0;
	char *ok = group(l, m, 1), *num = group(l, m, 2);
	free(t->name);
	t->name = result_name(l);
	t->line = peek_line(s);
	t->t_end = peek_time(s);
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
	if (!has_directive && split_skip_follows(s))
		t->status = KT_SKIPPED;
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
	else if (kt_counts_status(&t->counts) == KT_CRASHED)
		t->status = KT_CRASHED;
}

static void add_sub(struct ktest *t, struct ktest *sub)
{
	t->sub = xrealloc(t->sub, (t->nsub + 1) * sizeof(*t->sub));
	t->sub[t->nsub++] = sub;
}

/* Results test_num.. of t's plan never came: one placeholder and one error
 * for them all, a crash (and an error) each as kunit_parser.py counts them,
 * or nested 1..65536 plans cost 65536 per level. */
static void add_missing(struct stream *s, struct ktest *t, int test_num)
{
	int left = t->expected_count - test_num + 1;
	struct ktest *sub = kt_new();
	char buf[64];

	free(sub->name);
	if (left == 1) {
		snprintf(buf, sizeof(buf), "%d of %d", test_num, t->expected_count);
		sub->name = xasprintf("<missing result %d>", test_num);
	} else {
		snprintf(buf, sizeof(buf), "%d-%d of %d", test_num, t->expected_count,
			 t->expected_count);
		sub->name = xasprintf("<missing results %d-%d>", test_num, t->expected_count);
	}
	kt_error(s, t, "missing expected subtest %s", buf);
	t->counts.errors += left - 1;
	t->counts.crashed += left;
	sub->missing = 1;
	sub->line = peek_line(s);
	add_sub(t, sub);
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
	t->t_begin = peek_time(s);
	if (!is_subtest) {
		free(t->name);
		t->name = xstrdup("main");
		parse_ktap_header(s, t);
		parse_diagnostic(s);
		parse_test_plan(s, t);
		parent = 1;
	} else {
		const char *v = peek(s);
		size_t indent = v ? indent_of(v) : 0;
		int k = parse_ktap_header(s, t);
		if (k)
			skip_to_own_header(s, indent);
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
			if (t->expected_count > 0 && test_num <= t->expected_count)
				add_missing(s, t, test_num);
			break;
		}
		size_t at = s->i;
		sub = parse_test(s, test_num, 1, depth + 1);
		if (s->i == at) {
			/* nothing it could read: a line out of place, e.g. a plan
			 * after results; skip it, or this never ends */
			kt_error(s, t, "unexpected line: %.80s", peek(s));
			s->i++;
			free(sub->name);
			free(sub->sub);
			free(sub);
			continue;
		}
		add_sub(t, sub);
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

void parse_ktap(struct result *r, struct lines *L)
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
		r->ktap_counts.passed += main_t->counts.passed;
		r->ktap_counts.failed += main_t->counts.failed;
		r->ktap_counts.crashed += main_t->counts.crashed;
		r->ktap_counts.skipped += main_t->counts.skipped;
		r->ktap_counts.errors += main_t->counts.errors;
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

