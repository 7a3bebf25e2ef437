/* The UBSan reports of a console log (consolelog.h): the frames of a
 * call trace and the reports, as lib/ubsan.c and CONFIG_UBSAN_TRAP print
 * them. Nothing here exits or prints: what cannot be read is a diagnostic
 * with its log line, and running out of memory is an error return. */
#define _GNU_SOURCE
#include "consolelog.h"
#include "clpriv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- frames ---- */

static const char *skip_ws(const char *l)
{
	while (*l == ' ' || *l == '\t')
		l++;
	return l;
}

static int sym_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '$';
}

static int hex_run(const char **p)
{
	const char *s = *p;
	while ((**p >= '0' && **p <= '9') || (**p >= 'a' && **p <= 'f') || (**p >= 'A' && **p <= 'F'))
		(*p)++;
	return *p > s;
}

/* A raw "0xffffffff8125d4b6" address; its value in *addr. */
static int raw_address(const char *l, unsigned long long *addr)
{
	const char *p = l + 2;
	if (!cl_starts_with(l, "0x") || !hex_run(&p) || (*p && *p != ' '))
		return 0;
	*addr = strtoull(l, NULL, 16);
	return 1;
}

/* "foo+0x1c/0x40 [mod]", "? foo+0x1c/0x40" or a raw address: the symbol
 * (named through map for an address), NULL if not a frame or unnamed.
 * *unreliable: the guess unwinder's "? " mark. *frame: it is a frame line. */
static char *frame_symbol(const char *l, const struct cl_ksyms *map, int *unreliable, int *frame)
{
	unsigned long long addr;
	const char *plus, *p;

	l = skip_ws(l);
	*unreliable = cl_starts_with(l, "? ");
	if (*unreliable)
		l += 2;
	*frame = 0;
	if (raw_address(l, &addr)) {
		const char *n = cl_ksyms_lookup(map, addr);
		*frame = 1;
		return n ? cl_strdup(n) : NULL;
	}
	plus = strstr(l, "+0x");
	if (!plus || plus == l)
		return NULL;
	for (p = l; p < plus; p++)
		if (!sym_char(*p))
			return NULL;
	p = plus + 3;
	if (!hex_run(&p) || !cl_starts_with(p, "/0x"))
		return NULL;
	*frame = 1;
	return cl_strndup(l, (size_t)(plus - l));
}

/* Frames of the report machinery, above the function that overflowed. */
static int machinery_frame(const char *f)
{
	static const char *const pfx[] = { "dump_stack", "__dump_stack", "show_stack",
					   "dump_backtrace", "ubsan_", "__ubsan_", "report_ubsan",
					   "handle_overflow", "handle_null_ptr_deref",
					   "handle_misaligned_access",
					   "handle_object_size_mismatch" };
	for (size_t i = 0; i < sizeof(pfx) / sizeof(pfx[0]); i++)
		if (cl_starts_with(f, pfx[i]))
			return 1;
	return 0;
}

/* Leftovers of the printk that usually precedes a report (test_ubsan's
 * UBSAN_TEST line) that the guess unwinder finds: not the site's function. */
static int stale_guess(const char *f)
{
	return cl_starts_with(f, "_printk") || cl_starts_with(f, "vprintk") || cl_starts_with(f, "printk") ||
	       cl_starts_with(f, "__pfx_") || cl_starts_with(f, "console_");
}

/* A line of a call trace that is not a frame: the unwinder's marks. */
static int trace_mark(const char *l)
{
	l = skip_ws(l);
	return cl_starts_with(l, "? ") || cl_starts_with(l, "<TASK>") || cl_starts_with(l, "</TASK>") ||
	       cl_starts_with(l, "<IRQ>") || cl_starts_with(l, "</IRQ>") || cl_starts_with(l, "<NMI>") ||
	       cl_starts_with(l, "</NMI>");
}

char *cl_frame_function(const char *text, const struct cl_ksyms *map)
{
	int unreliable, frame;

	return frame_symbol(text, map, &unreliable, &frame);
}

/* ---- reports ---- */

static const char *const integer_group = "{signed-integer-overflow,unsigned-integer-overflow}";

/* CONFIG_UBSAN_TRAP messages: text, op, kind, sanitizer (the integer traps
 * do not say whether the type was signed). */
static const char *const trap_kinds[][4] = {
	{ "integer addition overflow", "+", "trap:add-overflow", NULL },
	{ "integer subtraction overflow", "-", "trap:sub-overflow", NULL },
	{ "integer multiplication overflow", "*", "trap:mul-overflow", NULL },
	{ "integer negation overflow", "negation", "trap:negation-overflow", NULL },
	{ "pointer overflow", "pointer", "trap:pointer-overflow", "pointer-overflow" },
};

static void diag(struct cl_reports *out, int line, int error, char *msg)
{
	if (cl_grow(&out->d, &out->cap_d, out->nd, sizeof(*out->d), 16) < 0) {
		cl_free(msg);
		return;
	}
	out->d[out->nd++] = (struct cl_diag){ line, error, msg };
}

/* "kind in file:line:col" */
static int warning_line(const char *t, struct cl_report *r)
{
	const char *in = strstr(t, " in "), *loc, *c1, *c2, *p;
	char *end;

	if (!in || in == t)
		return 0;
	for (p = t; p < in; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-'))
			return 0;
	loc = skip_ws(in + 4);
	c2 = strrchr(loc, ':');
	c1 = c2 ? memrchr(loc, ':', (size_t)(c2 - loc)) : NULL;
	if (!c1 || c1 == loc || memchr(loc, ' ', (size_t)(c1 - loc)) || !cl_digits(c1 + 1, c2) ||
	    c2[1] < '0' || c2[1] > '9')
		return 0;
	long line = strtol(c1 + 1, NULL, 10), col = strtol(c2 + 1, &end, 10);
	if (end == c2 + 1 || (*end && *end != ' ') || line > 1000000000L || col > 1000000000L)
		return 0;
	r->kind = cl_strndup(t, (size_t)(in - t));
	r->file = cl_strndup(loc, (size_t)(c1 - loc));
	r->line = (int)line;
	r->col = (int)col;
	return 1;
}

/* The detail line of an overflow report: op, values, type. */
static int value_line(const char *t, struct cl_report *r)
{
	static const char marker[] = " cannot be represented in type ";
	const char *m = strstr(t, marker);

	if (m) {
		size_t n = (size_t)(m - t);
		const char *type = m + sizeof(marker) - 1;
		size_t tl = strlen(type);
		if (tl && type[tl - 1] == ':')
			tl--;
		if (cl_starts_with(t, "negation of ")) {
			r->op = cl_strdup("negation");
			r->values = cl_strndup(t + 12, n - 12);
		} else if (cl_starts_with(t, "division of ")) {
			if (n < 18 || strncmp(t + n - 6, " by -1", 6) != 0)
				return 0;
			r->op = cl_strdup("division");
			r->values = cl_asprintf("%.*s / -1", (int)(n - 18), t + 12);
		} else {
			const char *sp = memchr(t, ' ', n);
			if (!sp || sp + 3 > t + n || !strchr("+-*", sp[1]) || !sp[1] || sp[2] != ' ')
				return 0;
			r->op = cl_strndup(sp + 1, 1);
			r->values = cl_strndup(t, n);
		}
		r->type = cl_strndup(type, tl);
		r->value_line = cl_strdup(t);
		return 1;
	}
	/* pointer overflow: the kernel's wording, compiler-rt's, and the NULL
	 * pointer cases */
	if (strstr(t, " wrapped around to ") || strstr(t, " overflowed to ") ||
	    (cl_starts_with(t, "applying ") && strstr(t, " offset ") && strstr(t, "pointer"))) {
		r->op = cl_strdup("pointer");
		r->values = cl_strdup(t);
		r->value_line = cl_strdup(t);
		return 1;
	}
	return 0;
}

static void begin(struct cl_report *r, const char *rest, const struct cl_ksyms *map,
		  struct cl_reports *out, int no)
{
	if (warning_line(rest, r)) {
		const char *k = r->kind;
		if (!strcmp(k, "signed-integer-overflow") || !strcmp(k, "unsigned-integer-overflow") ||
		    !strcmp(k, "pointer-overflow"))
			r->sanitizer = strcmp(k, "signed-integer-overflow") == 0 ? "signed-integer-overflow"
				     : strcmp(k, "pointer-overflow") == 0   ? "pointer-overflow"
									    : "unsigned-integer-overflow";
		r->parsed = 1;
		return;
	}
	/* CONFIG_UBSAN_TRAP: "UBSAN: <what> at <sym>+0x../0x.." (x86_64: the
	 * ud1 handler's pr_crit, before the Oops the trap is) */
	static const char *const other_traps[] = {
		"array index out of bounds", "shift out of bounds", "divide/remainder overflow",
		"unreachable code", "loading invalid value", "alignment assumption",
		"type mismatch", "unrecognized failure code" };
	const char *at = strstr(rest, " at ");
	const char *const *wrap = NULL;
	int known = 0;
	r->kind = at ? cl_strndup(rest, (size_t)(at - rest)) : cl_strdup(rest);
	for (size_t i = 0; at && i < sizeof(trap_kinds) / sizeof(trap_kinds[0]); i++)
		if (strcmp(r->kind, trap_kinds[i][0]) == 0)
			wrap = trap_kinds[i];
	for (size_t i = 0; at && i < sizeof(other_traps) / sizeof(other_traps[0]); i++)
		known |= strcmp(r->kind, other_traps[i]) == 0;
	if (wrap || known) {
		int u, frame;
		unsigned long long addr;
		char *sym = frame_symbol(at + 4, map, &u, &frame);
		const char *a = skip_ws(at + 4);
		if (!frame) {
			diag(out, no, 1, cl_asprintf("cannot parse UBSAN trap report 'UBSAN: %s': expected "
						   "'at <function>+0x<offset>/0x<size>'", rest));
			return;
		}
		if (wrap) {
			cl_free(r->kind);
			r->kind = cl_strdup(wrap[2]);
			r->sanitizer = wrap[3] ? wrap[3] : integer_group;
			r->op = cl_strdup(wrap[1]);
		}
		r->detail = cl_strdup(rest);
		r->trap = 1;
		r->parsed = 1;
		if (sym) {
			r->func = sym;
		} else if (raw_address(a, &addr)) {
			r->address = cl_strndup(a, strcspn(a, " "));
			diag(out, no, 0, cl_asprintf("trap report at %s has no symbol (kernel without "
						   "kallsyms, and no System.map names it)", r->address));
		}
		return;
	}
	cl_free(r->kind);
	r->kind = cl_strdup(rest);
	diag(out, no, 1, cl_asprintf("cannot parse UBSAN report 'UBSAN: %s': expected "
				   "'UBSAN: <kind> in <file>:<line>:<column>'", rest));
}

/* The wrap kinds whose sanitizer the values decide. */
static void finish(struct cl_report *r, struct cl_reports *out)
{
	if (!strcmp(r->kind, "negation-overflow"))
		r->sanitizer = r->values && r->values[0] == '-' ? "signed-integer-overflow"
							      : "unsigned-integer-overflow";
	/* division-overflow also reports division by zero: only INT_MIN / -1
	 * is a signed-integer-overflow check */
	if (!strcmp(r->kind, "division-overflow") && r->op && !strcmp(r->op, "division"))
		r->sanitizer = "signed-integer-overflow";
	if (!r->sanitizer || !r->parsed)
		return;
	int no_detail = !r->op && !cl_starts_with(r->kind, "trap:");
	int no_frame = !r->func && !r->address;
	if (no_detail || no_frame) {
		char *where = r->file ? cl_asprintf("report for %s:%d:%d", r->file, r->line, r->col)
				      : cl_strdup("report");
		diag(out, r->log_line, 0,
		     cl_asprintf("%s %s: %s%s%s", where, r->truncated ? "is cut short" : "is incomplete",
			       no_detail ? "no detail line" : "", no_detail && no_frame ? ", " : "",
			       no_frame ? "no call trace frame outside UBSan" : ""));
		cl_free(where);
	}
}

static void report_free(struct cl_report *r)
{
	cl_free(r->kind);
	cl_free(r->file);
	cl_free(r->op);
	cl_free(r->values);
	cl_free(r->type);
	cl_free(r->value_line);
	cl_free(r->detail);
	cl_free(r->func);
	cl_free(r->address);
	cl_free(r->context);
}

/* "UBSAN: ...", or x86_64's trap message, which arch/x86/kernel/traps.c
 * prints with its pr_fmt: "traps: UBSAN: integer subtraction overflow at
 * foo+0x22a/0x240". The text after "UBSAN: ", or NULL. */
static const char *ubsan_line(const char *l)
{
	if (cl_starts_with(l, "traps: UBSAN: "))
		return l + 14;
	return cl_starts_with(l, "UBSAN: ") ? l + 7 : NULL;
}

static int report_end(const char *l)
{
	return ubsan_line(l) || cl_starts_with(l, "---[ end trace") ||
	       strstr(l, "------------[ cut here ]------------");
}

int cl_ubsan_reports(const struct lines *L, const struct cl_ksyms *map, struct cl_reports *out)
{
	/* The console line before the report: before its "cut here" line
	 * when it has one, which the reporting task prints right after its
	 * own last line; other CPUs' lines ("Unpacking initramfs...") may
	 * come between that and "UBSAN:" (seen on an arm64 boot). */
	const char *context = "", *opened = NULL;

	memset(out, 0, sizeof(*out));
	cl_oom = 0;
	for (size_t i = 0; i < L->n; i++) {
		const char *l = L->s[i], *text = ubsan_line(l);
		if (!text) {
			if (strstr(l, "[ cut here ]"))
				opened = context;
			else if (cl_starts_with(l, "---[ end trace"))
				opened = NULL;
			else if (*l)
				context = l;
			continue;
		}
		struct cl_report r = { 0 };
		r.log_line = L->no[i];
		r.context = cl_strdup(opened ? opened : context);
		opened = NULL;
		begin(&r, skip_ws(text), map, out, L->no[i]);

		/* detail lines up to CPU:/Call Trace:, then the first frame
		 * outside UBSan */
		char *detail = NULL;   /* the detail lines joined, up to 400 bytes */
		size_t detail_len = 0;
		char *guess = NULL;
		size_t j = i + 1;
		int ended = 0;
		for (; j < L->n && !report_end(L->s[j]); j++) {
			const char *d = L->s[j], *t = skip_ws(d);
			if (cl_starts_with(d, "CPU: ") || cl_starts_with(d, "Hardware name:") ||
			    cl_starts_with(d, "Call Trace:") || cl_starts_with(d, "Call trace:"))
				break;
			/* KUnit's "# case: lib/ubsan.c:226: ..." interleaves here */
			if (!*t || cl_starts_with(t, "# "))
				continue;
			if (!r.op && !cl_starts_with(r.kind, "trap:"))
				value_line(t, &r);
			if (detail_len < 400) {
				char *joined = cl_asprintf("%s%s%s", detail ? detail : "",
							   detail ? " | " : "", d);
				cl_free(detail);
				detail = joined;
				detail_len = strlen(detail);
			}
		}
		for (; j < L->n && !report_end(L->s[j]); j++) {
			if (!cl_starts_with(L->s[j], "Call Trace:") && !cl_starts_with(L->s[j], "Call trace:"))
				continue;
			/* each trace line read once: the trace ends at the
			 * first line that is neither a frame nor a mark, once
			 * it has named the function; before that such a line
			 * is another CPU's (an SMP console: "input: ..."
			 * between ubsan_epilogue and the function), and the
			 * frames go on up to the report's end */
			for (j++; j < L->n && !report_end(L->s[j]); j++) {
				int u, frame;
				char *f = frame_symbol(L->s[j], map, &u, &frame);
				if (!frame && !trace_mark(L->s[j])) {
					cl_free(f);
					if (r.func)
						break;
					continue;
				}
				if (f && !u && !r.func && !machinery_frame(f))
					r.func = f;
				else if (f && u && !guess && !machinery_frame(f) && !stale_guess(f))
					guess = f;
				else
					cl_free(f);
			}
			break;
		}
		while (j < L->n && !report_end(L->s[j]))
			j++;
		ended = j < L->n && cl_starts_with(L->s[j], "---[ end trace");
		r.truncated = !ended;
		if (!r.func) {
			r.func = guess;   /* only unreliable frames: better than nothing */
			guess = NULL;
		}
		cl_free(guess);
		if (!r.detail)
			r.detail = detail ? detail : cl_strdup("");
		else
			cl_free(detail);
		finish(&r, out);
		if (cl_grow(&out->r, &out->cap_r, out->n, sizeof(*out->r), 64) < 0)
			report_free(&r);
		else
			out->r[out->n++] = r;
		context = "";
		opened = NULL;
		/* resume at the report's end: its trace is no console context */
		i = ended ? j : j - 1;
	}
	if (cl_oom) {
		cl_reports_free(out);
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void cl_reports_free(struct cl_reports *out)
{
	for (size_t i = 0; i < out->n; i++)
		report_free(&out->r[i]);
	for (size_t i = 0; i < out->nd; i++)
		cl_free(out->d[i].msg);
	free(out->r);
	free(out->d);
	memset(out, 0, sizeof(*out));
}
