/* The one console-log reader: lines and UBSan reports (consolelog.h);
 * System.map in ksyms.c. */
#define _GNU_SOURCE
#include "consolelog.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* ---- lines ---- */

static int digits(const char *p, const char *end)
{
	if (p == end)
		return 0;
	for (; p < end; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

/* "[    1.234567]" (k == 0) or "[    T1]" / "[    C0]" (both k) */
static const char *bracket(const char *l, int k)
{
	const char *p = l + 1, *close;

	if (*l != '[' || !(close = strchr(p, ']')))
		return NULL;
	while (*p == ' ')
		p++;
	if ((*p == 'T' || *p == 'C') && digits(p + 1, close))
		return close + 1;
	if (k == 0) {
		const char *dot = memchr(p, '.', (size_t)(close - p));
		if (dot ? digits(p, dot) && digits(dot + 1, close) : digits(p, close))
			return close + 1;
	}
	return NULL;
}

const char *cl_message(const char *l)
{
	if (l[0] == '<') {
		const char *c = strchr(l, '>');
		if (c && c - l > 1 && c - l <= 4 && digits(l + 1, c))
			l = c + 1;
	}
	for (int k = 0; k < 2; k++) {
		const char *p = bracket(l, k);
		if (!p)
			break;
		l = p;
	}
	if (*l == ' ')
		l++;
	return l;
}

/* The "[    1.234567]" printk time of a console line, -1 if it has none. */
static double line_time(const char *l)
{
	if (l[0] == '<') {
		const char *c = strchr(l, '>');
		if (c && c - l > 1 && c - l <= 4 && digits(l + 1, c))
			l = c + 1;
	}
	if (*l != '[' || !bracket(l, 0))
		return -1;
	/* bracket() accepted digits[.digits] or a caller id */
	while (*++l == ' ')
		;
	if (*l < '0' || *l > '9')
		return -1;
	return strtod(l, NULL);
}

void cl_lines(char *text, struct lines *L)
{
	size_t cap = 0;
	int no = 0;

	memset(L, 0, sizeof(*L));
	L->buf = text;
	for (char *cur = text, *l; (l = next_line(&cur));) {
		no++;
		if (L->n == cap) {
			cap = cap ? 2 * cap : 1024;
			L->s = xrealloc(L->s, cap * sizeof(*L->s));
			L->no = xrealloc(L->no, cap * sizeof(*L->no));
			L->time = xrealloc(L->time, cap * sizeof(*L->time));
		}
		L->s[L->n] = (char *)cl_message(l);
		L->no[L->n] = no;
		L->time[L->n] = line_time(l);
		L->n++;
	}
}

void cl_lines_free(struct lines *L)
{
	free(L->s);
	free(L->no);
	free(L->time);
	free(L->buf);
	memset(L, 0, sizeof(*L));
}

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
	if (!starts_with(l, "0x") || !hex_run(&p) || (*p && *p != ' '))
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
	*unreliable = starts_with(l, "? ");
	if (*unreliable)
		l += 2;
	*frame = 0;
	if (raw_address(l, &addr)) {
		const char *n = cl_ksyms_lookup(map, addr);
		*frame = 1;
		return n ? xstrdup(n) : NULL;
	}
	plus = strstr(l, "+0x");
	if (!plus || plus == l)
		return NULL;
	for (p = l; p < plus; p++)
		if (!sym_char(*p))
			return NULL;
	p = plus + 3;
	if (!hex_run(&p) || !starts_with(p, "/0x"))
		return NULL;
	*frame = 1;
	return xstrndup(l, (size_t)(plus - l));
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
		if (starts_with(f, pfx[i]))
			return 1;
	return 0;
}

/* Leftovers of the printk that usually precedes a report (test_ubsan's
 * UBSAN_TEST line) that the guess unwinder finds: not the site's function. */
static int stale_guess(const char *f)
{
	return starts_with(f, "_printk") || starts_with(f, "vprintk") || starts_with(f, "printk") ||
	       starts_with(f, "__pfx_") || starts_with(f, "console_");
}

/* A line of a call trace that is not a frame: the unwinder's marks. */
static int trace_mark(const char *l)
{
	l = skip_ws(l);
	return starts_with(l, "? ") || starts_with(l, "<TASK>") || starts_with(l, "</TASK>") ||
	       starts_with(l, "<IRQ>") || starts_with(l, "</IRQ>") || starts_with(l, "<NMI>") ||
	       starts_with(l, "</NMI>");
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
	if (out->nd == out->cap_d) {
		out->cap_d = out->cap_d ? 2 * out->cap_d : 16;
		out->d = xrealloc(out->d, out->cap_d * sizeof(*out->d));
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
	if (!c1 || c1 == loc || memchr(loc, ' ', (size_t)(c1 - loc)) || !digits(c1 + 1, c2) ||
	    c2[1] < '0' || c2[1] > '9')
		return 0;
	long line = strtol(c1 + 1, NULL, 10), col = strtol(c2 + 1, &end, 10);
	if (end == c2 + 1 || (*end && *end != ' ') || line > 1000000000L || col > 1000000000L)
		return 0;
	r->kind = xstrndup(t, (size_t)(in - t));
	r->file = xstrndup(loc, (size_t)(c1 - loc));
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
		if (starts_with(t, "negation of ")) {
			r->op = xstrdup("negation");
			r->values = xstrndup(t + 12, n - 12);
		} else if (starts_with(t, "division of ")) {
			if (n < 18 || strncmp(t + n - 6, " by -1", 6) != 0)
				return 0;
			r->op = xstrdup("division");
			r->values = xasprintf("%.*s / -1", (int)(n - 18), t + 12);
		} else {
			const char *sp = memchr(t, ' ', n);
			if (!sp || sp + 3 > t + n || !strchr("+-*", sp[1]) || !sp[1] || sp[2] != ' ')
				return 0;
			r->op = xstrndup(sp + 1, 1);
			r->values = xstrndup(t, n);
		}
		r->type = xstrndup(type, tl);
		r->value_line = xstrdup(t);
		return 1;
	}
	/* pointer overflow: the kernel's wording, compiler-rt's, and the NULL
	 * pointer cases */
	if (strstr(t, " wrapped around to ") || strstr(t, " overflowed to ") ||
	    (starts_with(t, "applying ") && strstr(t, " offset ") && strstr(t, "pointer"))) {
		r->op = xstrdup("pointer");
		r->values = xstrdup(t);
		r->value_line = xstrdup(t);
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
	/* CONFIG_UBSAN_TRAP: "UBSAN: <what> at <sym>+0x../0x.." */
	const char *at = strstr(rest, " at ");
	r->kind = at ? xstrndup(rest, (size_t)(at - rest)) : xstrdup(rest);
	for (size_t i = 0; at && i < sizeof(trap_kinds) / sizeof(trap_kinds[0]); i++) {
		int u, frame;
		unsigned long long addr;
		if (strcmp(r->kind, trap_kinds[i][0]) != 0)
			continue;
		char *sym = frame_symbol(at + 4, map, &u, &frame);
		const char *a = skip_ws(at + 4);
		if (!frame) {
			diag(out, no, 1, xasprintf("cannot parse UBSAN trap report 'UBSAN: %s': expected "
						   "'at <function>+0x<offset>/0x<size>'", rest));
			return;
		}
		free(r->kind);
		r->kind = xstrdup(trap_kinds[i][2]);
		r->sanitizer = trap_kinds[i][3] ? trap_kinds[i][3] : integer_group;
		r->op = xstrdup(trap_kinds[i][1]);
		r->detail = xstrdup(rest);
		r->parsed = 1;
		if (sym) {
			r->func = sym;
		} else if (raw_address(a, &addr)) {
			r->address = xstrndup(a, strcspn(a, " "));
			diag(out, no, 0, xasprintf("trap report at %s has no symbol (kernel without "
						   "kallsyms, and no System.map names it)", r->address));
		}
		return;
	}
	static const char *const other_traps[] = {
		"array index out of bounds", "shift out of bounds", "divide/remainder overflow",
		"unreachable code", "loading invalid value", "alignment assumption",
		"type mismatch", "unrecognized failure code" };
	for (size_t i = 0; at && i < sizeof(other_traps) / sizeof(other_traps[0]); i++)
		if (strcmp(r->kind, other_traps[i]) == 0) {
			r->parsed = 1;
			return;
		}
	free(r->kind);
	r->kind = xstrdup(rest);
	diag(out, no, 1, xasprintf("cannot parse UBSAN report 'UBSAN: %s': expected "
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
	int no_detail = !r->op && !starts_with(r->kind, "trap:");
	int no_frame = !r->func && !r->address;
	if (no_detail || no_frame) {
		char *where = r->file ? xasprintf("report for %s:%d:%d", r->file, r->line, r->col)
				      : xstrdup("report");
		diag(out, r->log_line, 0,
		     xasprintf("%s %s: %s%s%s", where, r->truncated ? "is cut short" : "is incomplete",
			       no_detail ? "no detail line" : "", no_detail && no_frame ? ", " : "",
			       no_frame ? "no call trace frame outside UBSan" : ""));
		free(where);
	}
}

static int report_end(const char *l)
{
	return starts_with(l, "UBSAN: ") || starts_with(l, "---[ end trace") ||
	       strstr(l, "------------[ cut here ]------------");
}

void cl_ubsan_reports(const struct lines *L, const struct cl_ksyms *map, struct cl_reports *out)
{
	const char *context = "";

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < L->n; i++) {
		const char *l = L->s[i];
		if (!starts_with(l, "UBSAN: ")) {
			if (*l && !strstr(l, "[ cut here ]") && !starts_with(l, "---[ end trace"))
				context = l;
			continue;
		}
		struct cl_report r = { 0 };
		r.log_line = L->no[i];
		r.context = xstrdup(context);
		begin(&r, skip_ws(l + 7), map, out, L->no[i]);

		/* detail lines up to CPU:/Call Trace:, then the first frame
		 * outside UBSan */
		struct sbuf detail = { 0 };
		char *guess = NULL;
		size_t j = i + 1;
		int ended = 0;
		for (; j < L->n && !report_end(L->s[j]); j++) {
			const char *d = L->s[j], *t = skip_ws(d);
			if (starts_with(d, "CPU: ") || starts_with(d, "Hardware name:") ||
			    starts_with(d, "Call Trace:") || starts_with(d, "Call trace:"))
				break;
			/* KUnit's "# case: lib/ubsan.c:226: ..." interleaves here */
			if (!*t || starts_with(t, "# "))
				continue;
			if (!r.op && !starts_with(r.kind, "trap:"))
				value_line(t, &r);
			if (detail.len < 400)
				sb_addf(&detail, "%s%s", detail.len ? " | " : "", d);
		}
		for (; j < L->n && !report_end(L->s[j]); j++) {
			if (!starts_with(L->s[j], "Call Trace:") && !starts_with(L->s[j], "Call trace:"))
				continue;
			/* each trace line read once: the trace ends at the
			 * first line that is neither a frame nor a mark */
			for (j++; j < L->n; j++) {
				int u, frame;
				char *f = frame_symbol(L->s[j], map, &u, &frame);
				if (!frame && !trace_mark(L->s[j])) {
					free(f);
					break;
				}
				if (f && !u && !r.func && !machinery_frame(f))
					r.func = f;
				else if (f && u && !guess && !machinery_frame(f) && !stale_guess(f))
					guess = f;
				else
					free(f);
			}
			break;
		}
		while (j < L->n && !report_end(L->s[j]))
			j++;
		ended = j < L->n && starts_with(L->s[j], "---[ end trace");
		r.truncated = !ended;
		if (!r.func) {
			r.func = guess;   /* only unreliable frames: better than nothing */
			guess = NULL;
		}
		free(guess);
		if (!r.detail)
			r.detail = detail.s ? detail.s : xstrdup("");
		else
			sb_free(&detail);
		finish(&r, out);
		if (out->n == out->cap_r) {
			out->cap_r = out->cap_r ? 2 * out->cap_r : 64;
			out->r = xrealloc(out->r, out->cap_r * sizeof(*out->r));
		}
		out->r[out->n++] = r;
		context = "";
		/* resume at the report's end: its trace is no console context */
		i = ended ? j : j - 1;
	}
}

void cl_reports_free(struct cl_reports *out)
{
	for (size_t i = 0; i < out->n; i++) {
		struct cl_report *r = &out->r[i];
		free(r->kind);
		free(r->file);
		free(r->op);
		free(r->values);
		free(r->type);
		free(r->value_line);
		free(r->detail);
		free(r->func);
		free(r->address);
		free(r->context);
	}
	for (size_t i = 0; i < out->nd; i++)
		free(out->d[i].msg);
	free(out->r);
	free(out->d);
	memset(out, 0, sizeof(*out));
}
