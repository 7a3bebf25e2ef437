/* findings [CASE...]: run the user-space reproducers of the fixes
 * sub-series (all, or those named) and print one KTAP suite "findings" on
 * stdout, a case per bug: "ok" with the fix, "not ok" without it. Each
 * case runs in a child of its own with a time limit, so that a hang or a
 * crash fails that case only. Exit status: the number of failed cases. */
#define _GNU_SOURCE
#include "findings.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#define CASE_SECONDS 30

static const struct finding *const all[] = {
	&finding_shmem_punch_hole,
	&finding_filemap_empty_fault,
	&finding_mlock_len_wrap,
	&finding_readahead_mark_wrap,
	&finding_wb_position_span,
	&finding_aio_setup_nr_events,
	&finding_aio_getevents_timeout,
	&finding_getaffinity_len,
	&finding_rlimit_cpu_ns,
	&finding_kvfree_rcu_shrink,
	&finding_copy_struct_wrap,
	&finding_fib_lookup_short,
};
#define NALL (sizeof(all) / sizeof(all[0]))

static const char *current;
static char skip_why[200];

void note(const char *fmt, ...)
{
	char buf[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printf("    # %s: %s\n", current, buf);
	fflush(stdout);
}

void skip_reason(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(skip_why, sizeof(skip_why), fmt, ap);
	va_end(ap);
}

long long disk_free(void)
{
	struct statfs sf;

	if (statfs(DISK, &sf) || sf.f_type != EXT4_SUPER_MAGIC)
		return -1;
	return (long long)sf.f_bavail * sf.f_bsize;
}

int kmsg_open_boot(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd < 0)
		note("cannot read /dev/kmsg: %s", strerror(errno));
	return fd;
}

int kmsg_open(void)
{
	int fd = kmsg_open_boot();

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

int kmsg_ubsan(int fd, const char *file)
{
	char rec[8192];
	int n = 0;
	ssize_t r;

	if (fd < 0)
		return -1;
	while ((r = read(fd, rec, sizeof(rec) - 1)) != 0) {
		if (r < 0) {
			if (errno == EPIPE)   /* overwritten records: go on */
				continue;
			break;                /* EAGAIN: no more */
		}
		rec[r] = 0;
		char *msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		msg[strcspn(msg, "\n")] = 0;
		if (strstr(msg, "UBSAN:") && strstr(msg, file)) {
			note("kernel: %s", msg);
			n++;
		}
	}
	close(fd);
	return n;
}

int write_sysctl(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY);
	ssize_t n = fd < 0 ? -1 : write(fd, value, strlen(value));

	if (fd >= 0)
		close(fd);
	if (n != (ssize_t)strlen(value)) {
		note("cannot write %s to %s: %s", value, path, strerror(errno));
		return -1;
	}
	return 0;
}

int read_sysctl(const char *path, char *buf, int len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, len - 1);

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* One case in a child: its status, CASE_FAIL for a crash or a timeout. */
static int run_case(const struct finding *f)
{
	int st;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		note("fork: %s", strerror(errno));
		return CASE_FAIL;
	}
	if (pid == 0) {
		int r;

		alarm(CASE_SECONDS);
		skip_why[0] = 0;
		r = f->run();
		if (r == CASE_SKIP)
			note("skipped: %s", skip_why);
		fflush(stdout);
		_exit(r);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return CASE_FAIL;
	if (WIFSIGNALED(st)) {
		note("the case died of signal %d (%s)%s", WTERMSIG(st), strsignal(WTERMSIG(st)),
		     WTERMSIG(st) == SIGALRM ? ": it did not finish in time" : "");
		return CASE_FAIL;
	}
	return WEXITSTATUS(st) <= CASE_SKIP ? WEXITSTATUS(st) : CASE_FAIL;
}

static void usage(FILE *out)
{
	fprintf(out, "usage: findings [--list] [CASE...]\ncases:\n");
	for (size_t i = 0; i < NALL; i++)
		fprintf(out, "  %-24s %s\n", all[i]->name, all[i]->patch);
}

int findings_main(int argc, char **argv)
{
	const struct finding *sel[NALL];
	size_t n = 0, failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		size_t j;

		if (!strcmp(argv[i], "--list") || !strcmp(argv[i], "-h") ||
		    !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		}
		for (j = 0; j < NALL && strcmp(all[j]->name, argv[i]); j++)
			;
		if (j == NALL) {
			fprintf(stderr, "findings: no case '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		}
		sel[n++] = all[j];
	}
	if (argc < 2)
		for (n = 0; n < NALL; n++)
			sel[n] = all[n];

	printf("KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: findings\n    1..%zu\n", n);
	for (size_t i = 0; i < n; i++) {
		int r;

		current = sel[i]->name;
		note("%s", sel[i]->patch);
		r = run_case(sel[i]);
		if (r == CASE_FAIL)
			failed++;
		printf("    %s %zu %s%s\n", r == CASE_FAIL ? "not ok" : "ok", i + 1, sel[i]->name,
		       r == CASE_SKIP ? " # SKIP" : "");
	}
	printf("%s 1 findings\n", failed ? "not ok" : "ok");
	return (int)failed;
}
