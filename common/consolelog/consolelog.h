/* The kernel console log as data: lines, System.map symbols, UBSan
 * reports and the sites they are about. The one reader of console logs in
 * wrapidiom: the harness's verdict (qemu-run/src/parse.c, ktap.c) and
 * `wrap-ignorelist triage` (tools/wrap-ignorelist/ConsoleLog.cpp,
 * Triage.cpp) both take their reports and sites from here, so they always
 * see the same sites. Pure: nothing is printed and nothing exits; what
 * cannot be read is returned as diagnostics with its log line, and a call
 * that fails (a file it cannot read, memory it cannot get) returns -1 or
 * NULL with errno set.
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

/* ---- files ---- */

/* cl_read_file() reads only a regular file of at most CL_READ_FILE_MAX
 * bytes, NUL-terminated; it returns NULL and sets errno on failure, and
 * cl_read_error() then says why ("not a regular file (a FIFO)", "too large
 * (...)", or strerror(errno)). */
#define CL_READ_FILE_MAX (512 << 20)
char *cl_read_file(const char *path, size_t *len);
const char *cl_read_error(void);
/* Splits a buffer in place: the next line (without '\n', '\r'), NULL at
 * the end. */
char *cl_next_line(char **cursor);

/* ---- lines ---- */

/* The log's lines with log level, timestamp and caller id cut. */
struct lines {
	char **s;
	int *no;         /* 1-based log line */
	double *time;    /* its printk time in seconds, -1: none */
	size_t n;
	char *buf;       /* owns the text */
};

/* Split text (which the call takes over) into lines; -1 (text freed) when
 * out of memory. */
int cl_lines(char *text, struct lines *L);
void cl_lines_free(struct lines *L);
/* The message of one console line: "<6>[ 1.2] [ T1] msg" -> "msg". */
const char *cl_message(const char *line);

/* ---- System.map ---- */

/* Names the raw addresses of a kernel without CONFIG_KALLSYMS. */
struct cl_ksyms;
/* NULL with errno set when path cannot be read (cl_read_error() says why). */
struct cl_ksyms *cl_ksyms_load(const char *path);
void cl_ksyms_free(struct cl_ksyms *k);
size_t cl_ksyms_count(const struct cl_ksyms *k);
/* The text symbol holding addr, NULL if none. */
const char *cl_ksyms_lookup(const struct cl_ksyms *k, unsigned long long addr);

/* ---- reports ---- */

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
	char *context;      /* the console line printed before the report
			     * (before its "cut here" line when it has one) */
	int log_line;       /* of the "UBSAN:" line */
	int parsed;         /* 0: the UBSAN: line had no known form */
	int trap;           /* a CONFIG_UBSAN_TRAP report ("UBSAN: <what> at
			     * <function>+0x../0x.."): the check trapped */
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

/* Every UBSan report of L, in log order; map may be NULL. -1 (nothing in
 * out) when out of memory. */
/* The function a frame text names: "foo+0x1c/0x40", "? foo+0x1c/0x40", or
 * a raw address "0xffffffff81234567" through map. NULL: not a frame, or
 * an address map does not name. */
char *cl_frame_function(const char *text, const struct cl_ksyms *map);

int cl_ubsan_reports(const struct lines *L, const struct cl_ksyms *map, struct cl_reports *out);
void cl_reports_free(struct cl_reports *out);
/* The length of the function name in a frame's symbol: "foo.constprop.0",
 * "foo.isra.0", "foo.cold" -> 3 ("foo"). */
size_t cl_symbol_name_len(const char *sym);

/* ---- sites ---- */

/* A site is one check that reports name: its kind and file:line:col, the
 * file spelled as the caller keys it. The flags say what else tells two
 * sites apart. qemu-run's verdict keys every report by those four alone
 * (the file as printed, "?" for none), so the reports of one trap kind
 * without a file are one site; triage keys the wrap reports with both
 * flags, the file as a path of the kernel tree. */
enum {
	CL_SITE_BY_SANITIZER = 1,  /* the sanitizer (an ignorelist section) */
	CL_SITE_BY_FRAME = 2,      /* a report without a file: its function
				    * (cl_symbol_name_len()), else its raw address */
};

/* The one record of a site. */
struct cl_site {
	char *file;                 /* as keyed */
	const char *key_sanitizer;  /* with CL_SITE_BY_SANITIZER, else NULL */
	char *frame;                /* with CL_SITE_BY_FRAME and no file, else "" */
	/* A copy of its first report (kind, line, col, context, log_line of
	 * the first); cl_site_describe() may take the description from a later
	 * one. */
	struct cl_report rep;
	int count;                  /* reports at this site */
};

struct cl_sites {
	struct cl_site *s;          /* in the order of their first reports */
	size_t n;
	unsigned flags;
	size_t cap_s, cap_slot;     /* private: allocated, the hash table */
	int *slot;
};

void cl_sites_init(struct cl_sites *t, unsigned flags);
/* Counts r at its site, file being r->file as the caller keys it (NULL:
 * none); the site is added if new (*is_new). Its index, -1 when out of
 * memory. */
int cl_sites_add(struct cl_sites *t, const struct cl_report *r, const char *file, int *is_new);
/* The index of the site of t with the key of s (a site of another table
 * with the same flags), -1 if none. */
int cl_sites_find(const struct cl_sites *t, const struct cl_site *s);
/* Describe s by r (a report of it) from now on: sanitizer, op, values,
 * type, value_line, detail, func and address are r's. -1 when out of
 * memory (s unchanged). */
int cl_site_describe(struct cl_site *s, const struct cl_report *r);
void cl_sites_free(struct cl_sites *t);

#ifdef __cplusplus
}
#endif

#endif
