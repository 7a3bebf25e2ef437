/* The kernel console log as data: lines, System.map symbols and UBSan
 * reports. The one reader of console logs in wrapidiom: the harness's
 * verdict (parse.c, ktap.c) and `wrap-ignorelist triage` (through
 * tools/wrap-ignorelist/ConsoleLog.cpp) both take their reports from here,
 * so they always see the same sites. Pure: nothing is printed; what cannot
 * be read is returned as diagnostics with its log line.
 *
 * A report of the kernel's lib/ubsan.c (6.12) reads
 *
 *   ------------[ cut here ]------------
 *   UBSAN: signed-integer-overflow in lib/foo.c:12:9
 *   2147483647 + 2 cannot be represented in type 'int'
 *   CPU: 0 UID: 0 PID: 1 Comm: swapper/0 Not tainted 6.12.0 #1
 *   Call Trace:              (arm64: "Call trace:")
 *    <TASK>
 *    dump_stack_lvl+0x5d/0x80
 *    __ubsan_handle_add_overflow+0x9a/0xb0
 *    foo_hash+0x1a/0x30     (without CONFIG_KALLSYMS: "0xffffffff8125d4b6")
 *   ---[ end trace ]---
 *
 * and, from a CONFIG_UBSAN_TRAP kernel, "UBSAN: integer addition overflow
 * at foo_hash+0x1a/0x30". Each line may carry a "<N>" log level, a
 * "[    1.234567]" timestamp and a "[    T1]" caller id. */
#ifndef WRAPIDIOM_CONSOLELOG_H
#define WRAPIDIOM_CONSOLELOG_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The log's lines with log level, timestamp and caller id cut. */
struct lines {
	char **s;
	int *no;         /* 1-based log line */
	double *time;    /* its printk time in seconds, -1: none */
	size_t n;
	char *buf;       /* owns the text */
};

/* Split text (which the call takes over) into lines. */
void cl_lines(char *text, struct lines *L);
void cl_lines_free(struct lines *L);
/* The message of one console line: "<6>[ 1.2] [ T1] msg" -> "msg". */
const char *cl_message(const char *line);

/* System.map: names the raw addresses of a kernel without CONFIG_KALLSYMS. */
struct cl_ksyms;
/* NULL with errno set when path cannot be read. */
struct cl_ksyms *cl_ksyms_load(const char *path);
void cl_ksyms_free(struct cl_ksyms *k);
size_t cl_ksyms_count(const struct cl_ksyms *k);
/* The text symbol holding addr, NULL if none. */
const char *cl_ksyms_lookup(const struct cl_ksyms *k, unsigned long long addr);

struct cl_report {
	char *kind;         /* as printed; a trap's "trap:add-overflow"; never NULL */
	/* The sanitizer (ignorelist section) of a wrap report: signed-,
	 * unsigned-integer-overflow, pointer-overflow, or for an integer trap
	 * the group "{signed-integer-overflow,unsigned-integer-overflow}".
	 * NULL: a report of another kind (shift-out-of-bounds, ...). */
	const char *sanitizer;
	char *file;         /* as printed ("./include/..." kept); NULL: none */
	int line, col;
	char *op;           /* + - * negation division pointer; NULL: unknown */
	char *values;       /* "2147483647 + 2", the pointer line, ... */
	char *type;         /* "'u32' (aka 'unsigned int')"; NULL: none */
	char *value_line;   /* the detail line op/values/type come from */
	char *detail;       /* every detail line, joined by " | " */
	char *func;         /* first trace frame outside UBSan, as printed
			     * ("foo.constprop.0"); a guess-unwinder frame only
			     * when no reliable one; NULL: none */
	char *address;      /* a trap's raw address that no symbol names */
	char *context;      /* the console line printed before the report */
	int log_line;       /* of the "UBSAN:" line */
	int parsed;         /* 0: the UBSAN: line had no known form */
	int truncated;      /* the log or a new report cut it short */
};

struct cl_diag {
	int line;
	int error;          /* 1: error, 0: warning */
	char *msg;
};

struct cl_reports {
	struct cl_report *r;
	size_t n;
	struct cl_diag *d;
	size_t nd;
	size_t cap_r, cap_d;   /* allocated */
};

/* Every UBSan report of L, in log order; map may be NULL. */
void cl_ubsan_reports(const struct lines *L, const struct cl_ksyms *map, struct cl_reports *out);
void cl_reports_free(struct cl_reports *out);

#ifdef __cplusplus
}
#endif

#endif
