/* qemu-run expectations files (README.md, "Expectations"):
 *
 *   suite NAME                  the KUnit suite NAME must appear and pass
 *   must  KIND FILE [key=val]   at least one UBSan report must match
 *   allow KIND FILE [key=val]   matching reports are explained, not required
 *   load  MODULE                /init loads MODULE (/lib/modules/MODULE.ko)
 *
 * KIND and FILE are fnmatch(3) globs ("*" = any). Keys: func=GLOB (first
 * Call Trace frame outside UBSan), after=TEXT (substring of the console line
 * printed just before the report, e.g. test_ubsan's "test_ubsan_add_overflow
 * (CONFIG_...=y)"), detail=TEXT (substring of the report's detail line).
 * Values may be double-quoted. '#' starts a comment outside quotes. */
#define _GNU_SOURCE
#include "parse.h"
#include "qemu_run.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Splits a line into words; quotes group, '#' outside quotes ends the line. */
static int split_words(char *s, struct strv *out, const char *path, int line)
{
	struct sbuf w = {0};
	int inq = 0, have = 0;

	for (;; s++) {
		char c = *s;
		if (!c || (!inq && (c == ' ' || c == '\t' || c == '#'))) {
			if (have)
				sv_add(out, w.s ? w.s : "");
			sb_free(&w);
			have = 0;
			if (!c || c == '#')
				break;
			continue;
		}
		if (c == '"') {
			inq = !inq;
			have = 1;
			sb_addn(&w, "", 0);
			continue;
		}
		sb_addn(&w, &c, 1);
		have = 1;
	}
	if (inq) {
		qr_err("%s:%d: unterminated quote", path, line);
		return -1;
	}
	return 0;
}

struct expect *expect_load(const char *path)
{
	struct expect *e = xcalloc(1, sizeof(*e));
	char *text;
	int lineno = 0, bad = 0;

	e->path = xstrdup(path ? path : "none");
	if (!path || strcmp(path, "none") == 0)
		return e;
	text = cl_read_file(path, NULL);
	if (!text)
		qr_die(QR_EXIT_USAGE, "cannot read expectations file %s: %s", path, cl_read_error());
	for (char *cur = text, *l; (l = cl_next_line(&cur));) {
		struct strv w = {0};
		struct erule r = {0};
		lineno++;
		char *raw = xstrdup(trim(l));
		if (split_words(l, &w, path, lineno) < 0) {
			bad = 1;
			goto next;
		}
		if (w.n == 0)
			goto next;
		r.line = lineno;
		{       /* the rule as written, blanks collapsed, comment dropped */
			struct sbuf t = {0};
			int q = 0;
			for (const char *c = raw; *c && (q || *c != '#'); c++) {
				if (*c == '"')
					q = !q;
				if (!q && (*c == ' ' || *c == '\t')) {
					if (t.len && t.s[t.len - 1] != ' ')
						sb_add(&t, " ");
					continue;
				}
				sb_addn(&t, c, 1);
			}
			r.text = xstrdup(t.s ? trim(t.s) : "");
			sb_free(&t);
		}
		if (strcmp(w.v[0], "suite") == 0 || strcmp(w.v[0], "load") == 0) {
			if (w.n != 2) {
				qr_err("%s:%d: '%s' takes exactly one name", path, lineno, w.v[0]);
				bad = 1;
				goto next;
			}
			r.kind = w.v[0][0];
			r.name = xstrdup(w.v[1]);
		} else if (strcmp(w.v[0], "must") == 0 || strcmp(w.v[0], "allow") == 0) {
			if (w.n < 3) {
				qr_err("%s:%d: '%s' needs KIND and FILE (use * for any)", path, lineno,
				       w.v[0]);
				bad = 1;
				goto next;
			}
			r.kind = w.v[0][0];
			r.name = xstrdup(w.v[1]);
			r.file = xstrdup(w.v[2]);
			for (size_t i = 3; i < w.n; i++) {
				char *eq = strchr(w.v[i], '=');
				char **dst = NULL;
				if (eq) {
					*eq = 0;
					if (strcmp(w.v[i], "func") == 0)
						dst = &r.func;
					else if (strcmp(w.v[i], "after") == 0)
						dst = &r.after;
					else if (strcmp(w.v[i], "detail") == 0)
						dst = &r.detail;
				}
				if (!dst) {
					qr_err("%s:%d: unknown option '%s' (func=, after=, detail=)", path,
					       lineno, w.v[i]);
					bad = 1;
					goto next;
				}
				free(*dst);
				*dst = xstrdup(eq + 1);
			}
		} else {
			qr_err("%s:%d: unknown directive '%s' (suite, must, allow, load)", path, lineno,
			       w.v[0]);
			bad = 1;
			goto next;
		}
		e->r = xrealloc(e->r, (e->n + 1) * sizeof(*e->r));
		e->r[e->n++] = r;
		memset(&r, 0, sizeof(r));
next:
		free(r.text);
		free(r.name);
		free(r.file);
		free(r.func);
		free(r.after);
		free(r.detail);
		free(raw);
		sv_free(&w);
	}
	free(text);
	if (bad)
		qr_die(QR_EXIT_USAGE, "malformed expectations file %s", path);
	return e;
}

void expect_modules(const struct expect *e, struct strv *out)
{
	for (size_t i = 0; e && i < e->n; i++)
		if (e->r[i].kind == 'l')
			sv_add(out, e->r[i].name);
}

void expect_free(struct expect *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->n; i++) {
		free(e->r[i].text);
		free(e->r[i].name);
		free(e->r[i].file);
		free(e->r[i].func);
		free(e->r[i].after);
		free(e->r[i].detail);
	}
	free(e->r);
	free(e->path);
	free(e);
}
