/* qemu-run: small helpers shared by every stage (processes, files, strings). */
#ifndef QEMU_RUN_UTIL_H
#define QEMU_RUN_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "consolelog.h"

/* Exit codes of qemu-run (README.md, "Exit codes"). */
enum {
	QR_EXIT_PASS = 0,
	QR_EXIT_FAIL = 1,    /* verdict FAIL, or a stage (patch, config, build) failed */
	QR_EXIT_USAGE = 2,   /* bad command line, unreadable/malformed input */
	QR_EXIT_CRASH = 3,
	QR_EXIT_PANIC = 4,
	QR_EXIT_TIMEOUT = 5,
};

extern const char *qr_prog;
extern int qr_verbose;

void qr_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void qr_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void qr_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void qr_die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable string. */
struct sbuf {
	char *s;
	size_t len, cap;
};
void sb_addn(struct sbuf *b, const char *s, size_t n);
void sb_add(struct sbuf *b, const char *s);
void sb_addf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_free(struct sbuf *b);

/* A list of strings (NULL terminated, usable as argv). */
struct strv {
	char **v;
	size_t n, cap;
};
void sv_add(struct strv *l, const char *s);
void sv_addf(struct strv *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sv_free(struct strv *l);

int starts_with(const char *s, const char *prefix);
int ends_with(const char *s, const char *suffix);
char *trim(char *s);
/* Whole-file I/O. Files are read, and text split into lines, by the
 * console-log library's cl_read_file(), cl_read_error() and cl_next_line()
 * (consolelog.h). */
int write_file(const char *path, const char *data, size_t len);
int file_exists(const char *path);
int dir_exists(const char *path);
int mkdir_p(const char *path);
int rm_rf(const char *path);
char *abs_path(const char *path);   /* realpath or cwd-joined if it does not exist */
char *path_dirname(const char *path);
/* 1 if prog (a path, or a name looked up in $PATH) is an executable. */
int on_path(const char *prog);

/* 64-bit FNV-1a, chained. */
uint64_t fnv1a(uint64_t h, const void *data, size_t len);
#define FNV1A_INIT 0xcbf29ce484222325ULL

double now_seconds(void);    /* monotonic */
char *timestamp_str(void);   /* YYYYmmdd-HHMMSS, local time */

/*
 * The one way qemu-run starts a program: fork, then in the child stdin from
 * /dev/null, stdout and stderr to out_fd (-1: inherited), a process group
 * of its own if new_group (so a timeout can kill QEMU and its children),
 * chdir(dir) unless NULL, and execvp(argv[0]); a failure there prints the
 * cause and exits 127. Returns the child's pid, -1 if fork failed.
 */
pid_t spawn(char *const argv[], const char *dir, int out_fd, int new_group);

/*
 * Run argv (argv[0] looked up in PATH) in dir (NULL: current), with stdout
 * and stderr going to the terminal, or, if capture != NULL, into *capture
 * (both streams). Returns the exit status (0..255), 128+signal when killed,
 * or -1 when the program could not be started.
 */
int run_cmd(char *const argv[], const char *dir, struct sbuf *capture);
/* Like run_cmd but stdout+stderr appended to log_path and echoed with tee=1. */
int run_cmd_log(char *const argv[], const char *dir, const char *log_path, int tee);
/* A long make's progress: Kbuild steps seen against the last build's
 * count; on a terminal one updated line, else a line every 30 s. */
struct progress {
	int tty;
	long steps, expected;
	double t0, last;
};
int run_cmd_log_progress(char *const argv[], const char *dir, const char *log_path, int tee,
			 struct progress *p);
void print_cmd(char *const argv[], const char *dir);

#endif
