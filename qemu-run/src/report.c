/* qemu-run: the verdict, the detail listing and the summary table. */
#define _GNU_SOURCE
#include "parse.h"
#include "qemu_run.h"

#include <stdlib.h>
#include <string.h>

const char *verdict_str(enum verdict v)
{
	static const char *const s[] = { "PASS", "FAIL", "CRASH", "PANIC", "TIMEOUT" };
	return s[v];
}

int verdict_exit(enum verdict v)
{
	static const int c[] = { QR_EXIT_PASS, QR_EXIT_FAIL, QR_EXIT_CRASH, QR_EXIT_PANIC,
				 QR_EXIT_TIMEOUT };
	return c[v];
}

static void print_failed_cases(const struct ktest *t, int depth)
{
	for (size_t i = 0; i < t->nsub; i++) {
		const struct ktest *c = t->sub[i];
		if (c->status == KT_SUCCESS || c->status == KT_SKIPPED)
			continue;
		printf("%*s%s %s (log line %d)\n", 6 + 2 * depth, "", kt_status_str(c->status),
		       c->name, c->line);
		if (depth < 3)
			print_failed_cases(c, depth + 1);
	}
}

void print_sites(const struct result *r)
{
	for (size_t i = 0; i < r->sites.n; i++) {
		const struct cl_site *s = &r->sites.s[i];
		printf("%s\t%s\t%s:%d:%d\t%s\t%d\n", s->rep.sanitizer ? s->rep.sanitizer : "-",
		       s->rep.kind, s->file, s->rep.line, s->rep.col, site_func(s), s->count);
	}
}

void print_ktap_counts(const struct result *r)
{
	struct kt_counts c = r->ktap_counts;
	const char *sep = "";

	/* kunit.py: no KTAP at all is an error ("Could not find any KTAP
	 * output"), and so is each kunit executor error line */
	c.errors += r->ktap_errors - r->ktap_counts.errors;
	if (!r->ktap_blocks)
		c.errors++;
	printf("Ran %d tests:", c.passed + c.failed + c.crashed + c.skipped);
	struct { const char *name; int n; } f[] = {
		{ "passed", c.passed }, { "failed", c.failed }, { "crashed", c.crashed },
		{ "skipped", c.skipped }, { "errors", c.errors },
	};
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (f[i].n) {
			printf("%s %s: %d", sep, f[i].name, f[i].n);
			sep = ",";
		}
	printf("\n");
	/* the root's status, named as kunit_parser.py's TestStatus */
	static const char *const kunit_name[] = {
		[KT_SUCCESS] = "SUCCESS", [KT_FAILURE] = "FAILURE", [KT_SKIPPED] = "SKIPPED",
		[KT_CRASHED] = "TEST_CRASHED", [KT_NO_TESTS] = "NO_TESTS",
	};
	printf("status: %s\n", r->ktap_blocks ? kunit_name[kt_counts_status(&r->ktap_counts)]
					    : "FAILURE_TO_PARSE_TESTS");
}

void print_details(const struct result *r, const struct expect *e)
{
	printf("== %s ==\n", r->log);
	printf("KUnit: %zu suite(s) in %d KTAP block(s)\n", r->nsuites, r->ktap_blocks);
	for (size_t i = 0; i < r->nsuites; i++) {
		const struct ktest *t = r->suites[i];
		printf("  [%s] %s: %d passed, %d failed, %d skipped, %d crashed\n",
		       kt_status_str(t->status), t->name, t->counts.passed, t->counts.failed,
		       t->counts.skipped, t->counts.crashed);
		print_failed_cases(t, 0);
	}
	for (size_t i = 0; i < r->ktap_msgs.n; i++)
		printf("  %s\n", r->ktap_msgs.v[i]);

	printf("UBSan: %d report(s) at %zu distinct site(s)\n", r->reports, r->sites.n);
	for (size_t i = 0; e && i < e->n; i++) {
		const struct erule *ru = &e->r[i];
		if (ru->kind != 'm')
			continue;
		if (r->rule_hits[i]) {
			const struct cl_site *s = &r->sites.s[r->rule_site[i]];
			printf("  [found]   %s  <- %s in %s:%d:%d (%s), log line %d\n", ru->text,
			       s->rep.kind, s->file, s->rep.line, s->rep.col, site_func(s),
			       s->rep.log_line);
		} else {
			printf("  [MISSING] %s  (%s:%d)\n", ru->text, e->path, ru->line);
		}
	}
	for (size_t i = 0; i < r->sites.n; i++) {
		const struct cl_site *s = &r->sites.s[i];
		int rule = r->site_rule[i];
		if (rule >= 0 && e->r[rule].kind == 'a')
			printf("  [allowed] %s in %s:%d:%d (%s) x%d  <- %s:%d\n", s->rep.kind, s->file,
			       s->rep.line, s->rep.col, site_func(s), s->count, e->path, e->r[rule].line);
	}
	if (r->unexplained_distinct)
		printf("Unexplained UBSan sites: %d distinct, %d report(s)\n", r->unexplained_distinct,
		       r->unexplained_total);
	for (size_t i = 0; i < r->sites.n; i++) {
		const struct cl_site *s = &r->sites.s[i];
		if (r->site_rule[i] >= 0)
			continue;
		printf("  UNEXPLAINED %s in %s:%d:%d (%s) x%d, log line %d: %s\n", s->rep.kind,
		       s->file, s->rep.line, s->rep.col, site_func(s), s->count, s->rep.log_line,
		       s->rep.detail);
	}
	printf("Verdict: %s\n", verdict_str(r->verdict));
	for (size_t i = 0; i < r->reasons.n; i++)
		printf("  - %s\n", r->reasons.v[i]);
}

static void row(const char *label, struct strv *cells)
{
	printf("  %-38s", label);
	for (size_t i = 0; i < cells->n; i++)
		printf(" %-18s", cells->v[i]);
	printf("\n");
	sv_free(cells);
}

static void secs(struct strv *c, double s, const char *accel)
{
	if (s < 0)
		sv_add(c, "-");
	else if (accel)
		sv_addf(c, "%.1f s (%s)", s, accel);
	else
		sv_addf(c, "%.1f s", s);
}

struct named {
	const char *name;
	size_t idx;
};

static int named_cmp(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

static int idx_cmp(const void *a, const void *b)
{
	const struct named *x = a, *y = b;

	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* The first suite of r named name, through its sorted index. */
static struct ktest *lookup(const struct result *r, const struct named *by, const char *name)
{
	size_t lo = 0, hi = r->nsuites;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(by[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < r->nsuites && strcmp(by[lo].name, name) == 0)
		return r->suites[by[lo].idx];
	return NULL;
}

void print_summary(struct result *const *r, const char *const *names, size_t n)
{
	struct strv c = {0}, seen = {0};

	printf("== qemu-run summary ==\n");
	for (size_t i = 0; i < n; i++)
		sv_add(&c, names[i]);
	row("", &c);
	for (size_t i = 0; i < n; i++)
		sv_add(&c, verdict_str(r[i]->verdict));
	row("verdict", &c);
	for (size_t i = 0; i < n; i++)
		sv_addf(&c, "%d/%d/%d/%d", r[i]->suites_pass, r[i]->suites_fail, r[i]->suites_crash,
			r[i]->suites_skip);
	row("KUnit suites pass/fail/crash/skip", &c);
	/* One row per suite name, in order of first appearance; each log's
	 * suites sorted by name once, so the table is O(S log S). */
	struct named *all = NULL, **by = xmalloc((n ? n : 1) * sizeof(*by));
	size_t nall = 0;
	for (size_t i = 0; i < n; i++) {
		by[i] = xmalloc((r[i]->nsuites + 1) * sizeof(**by));
		for (size_t k = 0; k < r[i]->nsuites; k++) {
			by[i][k] = (struct named){ r[i]->suites[k]->name, k };
			all = xrealloc(all, (nall + 1) * sizeof(*all));
			all[nall] = (struct named){ r[i]->suites[k]->name, nall };
			nall++;
		}
		qsort(by[i], r[i]->nsuites, sizeof(**by), named_cmp);
	}
	qsort(all, nall, sizeof(*all), named_cmp);
	/* keep the first of each name, then back to order of appearance */
	size_t nuniq = 0;
	for (size_t k = 0; k < nall; k++)
		if (!nuniq || strcmp(all[nuniq - 1].name, all[k].name) != 0)
			all[nuniq++] = all[k];
	qsort(all, nuniq, sizeof(*all), idx_cmp);
	for (size_t u = 0; u < nuniq; u++) {
		const char *name = all[u].name;
		for (size_t j = 0; j < n; j++) {
			struct ktest *t = lookup(r[j], by[j], name);
			if (!t)
				sv_add(&c, "-");
			else if (t->t_begin >= 0 && t->t_end >= t->t_begin)
				/* the guest's own clock, header to result */
				sv_addf(&c, "%s %d/%d %.1fs", kt_status_str(t->status), t->counts.passed,
					t->counts.passed + t->counts.failed + t->counts.crashed + t->counts.skipped,
					t->t_end - t->t_begin);
			else
				sv_addf(&c, "%s %d/%d", kt_status_str(t->status), t->counts.passed,
					t->counts.passed + t->counts.failed + t->counts.crashed + t->counts.skipped);
		}
		char *l = xasprintf("  %s (cases passed/total, guest time)", name);
		row(l, &c);
		free(l);
	}
	for (size_t i = 0; i < n; i++)
		free(by[i]);
	free(by);
	free(all);
	for (size_t i = 0; i < n; i++)
		sv_addf(&c, "%d/%d", r[i]->req_suites_ok, r[i]->req_suites);
	row("required suites passing/required", &c);
	for (size_t i = 0; i < n; i++)
		sv_addf(&c, "%d/%d", r[i]->must_found, r[i]->must_rules - r[i]->must_found);
	row("expected reports found/missing", &c);
	for (size_t i = 0; i < n; i++)
		sv_addf(&c, "%d/%d", r[i]->unexplained_distinct, r[i]->unexplained_total);
	row("unexplained sites distinct/reports", &c);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < r[i]->nkinds; k++) {
			const char *kind = r[i]->kinds[k].kind;
			int dup = 0;
			for (size_t j = 0; j < seen.n; j++)
				dup |= strcmp(seen.v[j], kind) == 0;
			if (dup)
				continue;
			sv_add(&seen, kind);
			for (size_t j = 0; j < n; j++) {
				int d = 0, t = 0;
				for (size_t q = 0; q < r[j]->nkinds; q++)
					if (strcmp(r[j]->kinds[q].kind, kind) == 0) {
						d = r[j]->kinds[q].distinct;
						t = r[j]->kinds[q].total;
					}
				sv_addf(&c, "%d/%d", d, t);
			}
			char *l = xasprintf("  %s", kind);
			row(l, &c);
			free(l);
		}
	sv_free(&seen);
	for (size_t i = 0; i < n; i++)
		sv_addf(&c, "%d/%zu", r[i]->reports, r[i]->sites.n);
	row("all UBSan reports/sites", &c);
	for (size_t i = 0; i < n; i++)
		secs(&c, r[i]->build_seconds, NULL);
	row("build time (last make)", &c);
	for (size_t i = 0; i < n; i++)
		secs(&c, r[i]->boot_seconds, r[i]->accel);
	row("boot time", &c);
}
