/* qemu-run: starting programs (spawn), with their output captured, logged
 * or shown, and a long make's progress. */
#define _GNU_SOURCE
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void print_cmd(char *const argv[], const char *dir)
{
	struct sbuf b = {0};
	if (dir)
		sb_addf(&b, "(cd %s && ", dir);
	for (size_t i = 0; argv[i]; i++) {
		if (i)
			sb_add(&b, " ");
		if (strpbrk(argv[i], " \"'$"))
			sb_addf(&b, "'%s'", argv[i]);
		else
			sb_add(&b, argv[i]);
	}
	if (dir)
		sb_add(&b, ")");
	qr_msg("$ %s", b.s);
	sb_free(&b);
}

static int wait_status(pid_t pid)
{
	int st;
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			return -1;
	}
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return -1;
}

pid_t spawn(char *const argv[], const char *dir, int out_fd, int new_group)
{
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid != 0)
		return pid;
	/* the child: stdin from /dev/null, stdout and stderr to out_fd */
	int devnull = open("/dev/null", O_RDONLY);
	if (new_group)
		setpgid(0, 0);
	if (devnull >= 0)
		dup2(devnull, 0);
	if (out_fd >= 0) {
		dup2(out_fd, 1);
		dup2(out_fd, 2);
	}
	if (dir && chdir(dir) < 0) {
		dprintf(2, "%s: cannot chdir to %s: %s\n", qr_prog, dir, strerror(errno));
		_exit(127);
	}
	execvp(argv[0], argv);
	dprintf(2, "%s: cannot run %s: %s\n", qr_prog, argv[0], strerror(errno));
	_exit(127);
}

/* Run argv with stdout+stderr into a pipe; feed every chunk to sink. */
static int run_piped(char *const argv[], const char *dir,
		     void (*sink)(void *, const char *, size_t), void *ctx)
{
	int pfd[2];
	pid_t pid;
	char buf[8192];
	ssize_t n;

	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -1;
	pid = spawn(argv, dir, pfd[1], 0);
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		return -1;
	}
	while ((n = read(pfd[0], buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		sink(ctx, buf, (size_t)n);
	}
	close(pfd[0]);
	return wait_status(pid);
}

static void sink_sbuf(void *ctx, const char *s, size_t n)
{
	sb_addn(ctx, s, n);
}

int run_cmd(char *const argv[], const char *dir, struct sbuf *capture)
{
	pid_t pid;

	if (capture)
		return run_piped(argv, dir, sink_sbuf, capture);
	pid = spawn(argv, dir, -1, 0);
	return pid < 0 ? -1 : wait_status(pid);
}

struct tee_ctx {
	FILE *log;
	int tee;
	struct progress *p;
	int at_start;	/* the next byte starts a line */
	int col;	/* bytes of the current line seen, up to 3 */
	char head[3];
};

/* Kbuild's quiet lines ("  CC      kernel/fork.o", "  LD      vmlinux") are
 * its steps: two spaces, then an upper-case tag. */
static void count_steps(struct tee_ctx *t, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n') {
			t->col = 0;
			continue;
		}
		if (t->col < 3) {
			t->head[t->col++] = s[i];
			if (t->col == 3 && t->head[0] == ' ' && t->head[1] == ' ' &&
			    t->head[2] >= 'A' && t->head[2] <= 'Z')
				t->p->steps++;
		}
	}
}

static void progress_show(struct progress *p, int final)
{
	double now = now_seconds(), dt = now - p->t0;

	if (p->tty) {
		if (!final && now - p->last < 0.5)
			return;
		if (p->expected > 0)
			fprintf(stderr, "\r%s: build: %ld of ~%ld steps, %.0f s ", qr_prog,
				p->steps, p->expected, dt);
		else
			fprintf(stderr, "\r%s: build: %ld steps, %.0f s ", qr_prog, p->steps, dt);
		if (final)
			fputc('\n', stderr);
		fflush(stderr);
	} else {
		if (final || now - p->last < 30)
			return;
		if (p->expected > 0)
			qr_msg("build: %ld of ~%ld steps after %.0f s", p->steps, p->expected, dt);
		else
			qr_msg("build: %ld steps after %.0f s", p->steps, dt);
	}
	p->last = now;
}

static void sink_tee(void *ctx, const char *s, size_t n)
{
	struct tee_ctx *t = ctx;
	if (t->log)
		fwrite(s, 1, n, t->log);
	if (t->tee) {
		fwrite(s, 1, n, stdout);
		fflush(stdout);
	}
	if (t->p) {
		count_steps(t, s, n);
		progress_show(t->p, 0);
	}
}

int run_cmd_log_progress(char *const argv[], const char *dir, const char *log_path, int tee,
			 struct progress *p)
{
	struct tee_ctx t = { fopen(log_path, "a"), tee, tee ? NULL : p, 1, 0, { 0 } };
	int rc;
	if (!t.log)
		qr_warn("cannot open %s: %s", log_path, strerror(errno));
	else
		setvbuf(t.log, NULL, _IOLBF, 0);
	if (t.p) {
		t.p->t0 = t.p->last = now_seconds();
		t.p->steps = 0;
	}
	rc = run_piped(argv, dir, sink_tee, &t);
	if (t.p && t.p->tty)
		progress_show(t.p, 1);
	if (t.log)
		fclose(t.log);
	return rc;
}

int run_cmd_log(char *const argv[], const char *dir, const char *log_path, int tee)
{
	return run_cmd_log_progress(argv, dir, log_path, tee, NULL);
}
