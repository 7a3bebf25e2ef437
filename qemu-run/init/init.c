/* /init of the qemu-run guest (static). Mounts proc, sysfs and devtmpfs,
 * loads the modules named by qemu_run.modules=a,b (from /lib/modules/<name>.ko,
 * in order), echoes qemu_run.marker=M as "qemu-run-init: marker M", then syncs
 * and reboots: with QEMU's -no-reboot that ends QEMU (without ACPI a power-off
 * would only halt). Built-in KUnit suites have run before /init starts. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

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

int main(void)
{
	char cmdline[4096] = "", arg[2048];
	int fd;

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

	say("qemu-run-init: done\n");
	sync();
	reboot(RB_AUTOBOOT);
	say("qemu-run-init: reboot: %s\n", strerror(errno));
	for (;;)
		pause();
}
