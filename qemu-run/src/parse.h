/* qemu-run parse: console log -> KTAP results, UBSan reports, verdict. */
#ifndef QEMU_RUN_PARSE_H
#define QEMU_RUN_PARSE_H

#include "consolelog.h"
#include "util.h"

enum kt_status { KT_SUCCESS, KT_FAILURE, KT_SKIPPED, KT_CRASHED, KT_NO_TESTS };

struct kt_counts {
	int passed, failed, crashed, skipped, errors;
};

/* One KTAP test (after kunit_parser.py's Test). */
struct ktest {
	char *name;
	enum kt_status status;
	int expected_count;         /* -1: no plan */
	struct ktest **sub;
	size_t nsub;
	struct kt_counts counts;
	int line;                   /* log line of its header or result */
	double t_begin, t_end;      /* printk times of its first and result lines, -1: none */
	int missing;                /* a planned result that never came */
};

enum verdict { V_PASS, V_FAIL, V_CRASH, V_PANIC, V_TIMEOUT };

struct erule {
	int kind;                   /* 's'uite, 'm'ust, 'a'llow, 'l'oad */
	char *text;                 /* the rule as written */
	int line;                   /* in the expect file */
	char *name;                 /* suite name, kind glob, module */
	char *file, *func, *after, *detail;
};

struct expect {
	char *path;
	struct erule *r;
	size_t n;
};

struct kind_count {
	char *kind;
	int distinct, total;
};

struct result {
	char *log;
	enum verdict verdict;
	struct strv reasons;
	/* KTAP */
	struct ktest **suites;      /* top-level suites of every KTAP block */
	size_t nsuites;
	int ktap_blocks, ktap_errors;
	struct kt_counts ktap_counts;  /* of every block, as kunit.py counts them */
	struct strv ktap_msgs;
	int suites_pass, suites_fail, suites_crash, suites_skip;
	int req_suites, req_suites_ok;
	/* UBSan: every report, one site per kind and file:line:col (the file
	 * as printed, "?" for none), described by its first wrap report */
	struct cl_sites sites;
	int *site_rule;             /* per site: its first must/allow rule, -1: unexplained */
	int reports;
	int must_rules, must_found;
	int unexplained_distinct, unexplained_total;
	struct kind_count *kinds;   /* unexplained, by kind */
	size_t nkinds;
	/* boot */
	int panic_line, timeout_line, done_line;
	char *panic_msg;
	/* kernel faults short of a panic: WARNING, BUG, Oops (first line, count) */
	int fault_line, faults;
	char *fault_msg;
	char *fault_site;           /* its RIP/pc, "foo+0x1c/0x40"; NULL: none */
	/* CONFIG_UBSAN_TRAP reports: count, the first one's line and text */
	int traps, trap_line;
	char *trap_msg;
	/* from the boot (or LOG.meta) */
	double build_seconds, boot_seconds;   /* < 0: unknown */
	double timeout;
	char *accel;
	/* per rule of the expectations: reports matched, first matching site */
	int *rule_hits, *rule_site;
};

/* What the boot stage knows that the guest's console log cannot tell:
 * stage_boot() returns it, and keeps it in LOG.meta for a later parse. */
struct boot_facts {
	int timed_out;              /* QEMU was killed by the timeout */
	double timeout;             /* that timeout, seconds */
	double build_seconds, boot_seconds;   /* < 0: unknown */
	char *accel;                /* NULL: unknown */
	char *system_map;           /* of the booted kernel; NULL: none */
};
/* LOG.meta's facts (all unknown if it cannot be read). */
void boot_facts_read(const char *log, struct boot_facts *f);
void boot_facts_free(struct boot_facts *f);

/* Returns NULL (after printing the reason) when the log cannot be read or is
 * not a console log. facts: the boot's, NULL to read LOG.meta's. */
/* system_map: System.map to name raw frame addresses (NULL: LOG.meta's). */
struct result *parse_log(const char *path, struct expect *e, int strict, const char *system_map,
			 const struct boot_facts *facts);
/* The same for a log already read: text (len bytes, which the call takes
 * over) named path in messages. */
struct result *parse_text(const char *path, char *text, size_t len, struct expect *e, int strict,
			  const char *system_map, const struct boot_facts *facts);
void result_free(struct result *r);
/* The function of a site as the verdict names it: its first frame outside
 * UBSan, "?" for none. */
const char *site_func(const struct cl_site *s);
void print_details(const struct result *r, const struct expect *e);
/* The sites as data: sanitizer ("-": not a wrap kind), kind, file:line:col,
 * function, reports; tab-separated, in log order. */
void print_sites(const struct result *r);
/* kunit.py parse's last line for r ("Ran N tests: passed: P, ...") and the
 * root's status as kunit_parser.py names it ("status: SUCCESS"). */
void print_ktap_counts(const struct result *r);
void print_summary(struct result *const *r, const char *const *names, size_t n);
int verdict_exit(enum verdict v);
const char *verdict_str(enum verdict v);
struct ktest *find_suite(const struct result *r, const char *name);
const char *kt_status_str(enum kt_status s);
/* kunit_parser.py's TestCounts.get_status(). */
enum kt_status kt_counts_status(const struct kt_counts *c);

#endif
