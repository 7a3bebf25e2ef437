/* /init of the qemu-run guest (static). Mounts proc, sysfs and devtmpfs,
 * loads the modules named by qemu_run.modules=a,b (from /lib/modules/<name>.ko,
 * in order), echoes qemu_run.marker=M as "qemu-run-init: marker M", runs the
 * workload qemu_run.workload=SCRIPT with /bin/busybox sh (killed after
 * qemu_run.workload_timeout=S seconds; its KTAP then misses results), syncs
 * and reboots: with QEMU's -no-reboot that ends QEMU (without ACPI a power-off
 * would only halt). Built-in KUnit suites have run before /init starts.
 * Run again by the workload (not as process 1) it is that workload's tools:
 * `/init tcp-seq-wrap` (tcp_seq_wrap.c), `/init run-as UID GID PROG...`,
 * `/init findings [CASE...]` (kernel/tests/findings: the reproducers of the
 * fixes sub-series), `/init measure PROG...`. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <grp.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "tcp_seq_wrap.h"
#include "findings.h"

static int console = -1;

static void say(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	/* /dev/kmsg interleaves with the kernel's own messages in order. */
	if (console < 0 || write(console, buf, (size_t)n) < 0)
		(void)!write(1, buf, (size_t)n);
}

static void do_mount(const char *src, const char *dst, const char *type)
{
	mkdir(dst, 0755);
	if (mount(src, dst, type, 0, NULL) < 0 && errno != EBUSY)
		say("qemu-run-init: mount %s on %s: %s\n", type, dst, strerror(errno));
}

/* Value of key=... in /proc/cmdline, copied into out. */
static int cmdline_arg(const char *cmdline, const char *key, char *out, size_t size)
{
	size_t kl = strlen(key);
	const char *p = cmdline;

	while ((p = strstr(p, key))) {
		if ((p == cmdline || p[-1] == ' ') && p[kl] == '=') {
			size_t n = strcspn(p + kl + 1, " \n");
			if (n >= size)
				n = size - 1;
			memcpy(out, p + kl + 1, n);
			out[n] = 0;
			return 1;
		}
		p += kl;
	}
	return 0;
}

static void load_module(const char *name)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "/lib/modules/%s.ko", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		say("qemu-run-init: module %s: %s: %s\n", name, path, strerror(errno));
		return;
	}
	say("qemu-run-init: loading module %s\n", name);
	if (syscall(SYS_finit_module, fd, "", 0) < 0)
		say("qemu-run-init: module %s: finit_module: %s\n", name, strerror(errno));
	else
		say("qemu-run-init: module %s loaded\n", name);
	close(fd);
}

/* Runs the workload script in its own process group; kills the group after
 * timeout seconds. The script prints its own KTAP on /dev/kmsg. */
static void run_workload(const char *script, long timeout)
{
	struct timespec t0, t1;
	pid_t pid;
	int st = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	say("qemu-run-init: workload %s (timeout %ld s)\n", script, timeout);
	pid = fork();
	if (pid < 0) {
		say("qemu-run-init: workload: fork: %s\n", strerror(errno));
		return;
	}
	if (pid == 0) {
		char *argv[] = { "/bin/busybox", "sh", (char *)script, NULL };
		char *envp[] = { "PATH=/bin:/sbin", "HOME=/", "TERM=dumb", NULL };
		setpgid(0, 0);
		execve(argv[0], argv, envp);
		say("qemu-run-init: workload: exec /bin/busybox: %s\n", strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			say("qemu-run-init: workload: waitpid: %s\n", strerror(errno));
			return;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (t1.tv_sec - t0.tv_sec >= timeout) {
			say("qemu-run-init: workload TIMEOUT after %ld s: killed\n", timeout);
			kill(-pid, SIGKILL);
			waitpid(pid, &st, 0);
			return;
		}
		usleep(100000);
	}
	/* the script's children (a stuck server) must not outlive it */
	kill(-pid, SIGKILL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	say("qemu-run-init: workload exit %d after %ld.%03ld s\n",
	    WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st),
	    (long)(t1.tv_sec - t0.tv_sec) - (t1.tv_nsec < t0.tv_nsec),
	    (long)((t1.tv_nsec - t0.tv_nsec + 1000000000L) % 1000000000L) / 1000000);
}

/* `/init run-as UID GID PROG ARGS...`: PROG as an unprivileged user, with
 * no supplementary groups (BusyBox's setpriv cannot change ids, and the
 * guest has no /etc/passwd for su). trinity refuses to run as root. */
static int run_as(char **argv)
{
	char *end;
	long uid = strtol(argv[0], &end, 10), gid;

	if (*end || uid <= 0) {
		fprintf(stderr, "run-as: bad uid '%s'\n", argv[0]);
		return 2;
	}
	gid = strtol(argv[1], &end, 10);
	if (*end || gid <= 0) {
		fprintf(stderr, "run-as: bad gid '%s'\n", argv[1]);
		return 2;
	}
	if (setgroups(0, NULL) < 0 || setgid((gid_t)gid) < 0 || setuid((uid_t)uid) < 0) {
		fprintf(stderr, "run-as: cannot become %ld:%ld: %s\n", uid, gid, strerror(errno));
		return 1;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "run-as: cannot run %s: %s\n", argv[2], strerror(errno));
	return 127;
}

/* `/init measure PROG ARGS...`: PROG between the two marks of the kinsn
 * TCG plugin (kinsn/kinsn.c), which counts the guest's kernel-mode
 * instructions in between; PROG's exit status, 127 if it cannot run. The
 * marks are no-ops QEMU executes as such: without the plugin this only
 * runs PROG. x86_64 only (the marks are x86 instructions). */
static int measure(char **argv)
{
#if defined(__x86_64__)
	pid_t pid;
	int st = 0;

	__asm__ volatile("nopl 0x57a10e01(%%rax)" ::: "memory");
	pid = fork();
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "measure: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	__asm__ volatile("nopl 0x57a10e02(%%rax)" ::: "memory");
	if (pid < 0) {
		fprintf(stderr, "measure: fork: %s\n", strerror(errno));
		return 1;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
#else
	fprintf(stderr, "measure: %s: the marks are x86_64 instructions\n", argv[0]);
	return 2;
#endif
}

int main(int argc, char **argv)
{
	char cmdline[4096] = "", arg[2048];
	int fd;

	/* The workload's own tools, run as `/init TOOL` (not as process 1). */
	if (getpid() != 1 && argc == 2 && !strcmp(argv[1], "tcp-seq-wrap"))
		return tcp_seq_wrap_main();
	if (getpid() != 1 && argc >= 5 && !strcmp(argv[1], "run-as"))
		return run_as(argv + 2);
	if (getpid() != 1 && argc >= 2 && !strcmp(argv[1], "findings"))
		return findings_main(argc - 1, argv + 1);
	if (getpid() != 1 && argc >= 3 && !strcmp(argv[1], "measure"))
		return measure(argv + 2);

	do_mount("proc", "/proc", "proc");
	do_mount("sysfs", "/sys", "sysfs");
	do_mount("devtmpfs", "/dev", "devtmpfs");
	console = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	say("qemu-run-init: start\n");

	fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t n = read(fd, cmdline, sizeof(cmdline) - 1);
		cmdline[n > 0 ? n : 0] = 0;
		close(fd);
	}
	if (cmdline_arg(cmdline, "qemu_run.marker", arg, sizeof(arg)))
		say("qemu-run-init: marker %s\n", arg);
	if (cmdline_arg(cmdline, "qemu_run.modules", arg, sizeof(arg))) {
		for (char *save = NULL, *m = strtok_r(arg, ",", &save); m;
		     m = strtok_r(NULL, ",", &save))
			load_module(m);
	}

	if (cmdline_arg(cmdline, "qemu_run.workload", arg, sizeof(arg))) {
		char t[32];
		long timeout = 600;
		if (cmdline_arg(cmdline, "qemu_run.workload_timeout", t, sizeof(t)))
			timeout = strtol(t, NULL, 10) > 0 ? strtol(t, NULL, 10) : timeout;
		run_workload(arg, timeout);
	}

	say("qemu-run-init: done\n");
	sync();
	reboot(RB_AUTOBOOT);
	say("qemu-run-init: reboot: %s\n", strerror(errno));
	for (;;)
		pause();
}
