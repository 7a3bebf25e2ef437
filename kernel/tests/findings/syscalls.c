/* Reproducers of the fs/aio, sched, posix-cpu-timers, uaccess and ipv4 fib
 * fixes: each a system call with the arguments that wrapped. */
#define _GNU_SOURCE
#include "findings.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <linux/time_types.h>
#include <linux/netlink.h>
#include <linux/openat2.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define AIO_MAX_NR "/proc/sys/fs/aio-max-nr"

static long io_setup_(unsigned int nr, aio_context_t *ctx)
{
	return syscall(SYS_io_setup, nr, ctx);
}

/*
 * fs/aio: io_setup() doubled the number of events before testing it
 * against its limit, in unsigned int: 2^31 + 1 events wrap to 2 and pass.
 * The count must be refused with EINVAL (it is far above the limit), not
 * EAGAIN (aio-max-nr), and with aio-max-nr raised to 2^32 it must not
 * succeed with a ring of a few events.
 */
static int aio_setup_nr_events(void)
{
	aio_context_t ctx = 0;
	char old[64];
	int bad = 0;
	long r;

	r = io_setup_(0x80000001u, &ctx);
	note("io_setup(2^31 + 1) = %ld (%s), want EINVAL", r, r ? strerror(errno) : "success");
	if (r == 0 || errno != EINVAL)
		bad++;
	if (r == 0)
		syscall(SYS_io_destroy, ctx);
	if (getuid() == 0 && read_sysctl(AIO_MAX_NR, old, sizeof(old)) == 0 &&
	    write_sysctl(AIO_MAX_NR, "4294967296") == 0) {
		ctx = 0;
		r = io_setup_(0x80000004u, &ctx);
		note("with fs.aio-max-nr = 2^32: io_setup(2^31 + 4) = %ld (%s), want EINVAL", r,
		     r ? strerror(errno) : "success");
		if (r == 0 || errno != EINVAL)
			bad++;
		if (r == 0)
			syscall(SYS_io_destroy, ctx);
		write_sysctl(AIO_MAX_NR, old);
	}
	return bad ? CASE_FAIL : CASE_PASS;
}

static void on_alarm(int sig)
{
	(void)sig;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/*
 * fs/aio: a timeout in the past is a poll: io_getevents() returns at once
 * with what is there (0 events). Without the fix a tv_sec below
 * KTIME_SEC_MIN makes tv_sec * NSEC_PER_SEC wrap to about +292 years, and
 * the call sleeps until the 2 s alarm interrupts it (EINTR).
 */
static int aio_getevents_timeout(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };   /* no SA_RESTART */
	struct __kernel_timespec ts = { .tv_sec = -9223372037LL, .tv_nsec = 0 };
	struct io_event ev;
	aio_context_t ctx = 0;
	double t0, dt;
	long r;

	if (io_setup_(1, &ctx)) {
		note("io_setup(1): %s", strerror(errno));
		return CASE_FAIL;
	}
	sigaction(SIGALRM, &sa, NULL);
	alarm(2);
	t0 = now();
	r = syscall(SYS_io_getevents, ctx, 1L, 1L, &ev, &ts);
	dt = now() - t0;
	alarm(0);
	note("io_getevents(min 1, timeout -9223372037 s) = %ld (%s) after %.2f s; want 0 at once",
	     r, r < 0 ? strerror(errno) : "events", dt);
	syscall(SYS_io_destroy, ctx);
	return r == 0 && dt < 1.0 ? CASE_PASS : CASE_FAIL;
}

/*
 * sched: sched_getaffinity() with a length of 2^29 bytes checked
 * len * 8 >= nr_cpu_ids in unsigned int: 2^32 wraps to 0 and the call
 * failed with EINVAL. The buffer is large enough: the call must return
 * the size of the mask it copied (only that much is written).
 */
static int getaffinity_len(void)
{
	unsigned long mask[128];
	long r = syscall(SYS_sched_getaffinity, 0, 1u << 29, mask);

	note("sched_getaffinity(0, 2^29, buf) = %ld (%s), want the mask size", r,
	     r < 0 ? strerror(errno) : "bytes");
	note("compat_sys_sched_getaffinity() has the same test and fix; not run here "
	     "(a 32-bit task)");
	return r > 0 ? CASE_PASS : CASE_FAIL;
}

/*
 * posix-cpu-timers: an RLIMIT_CPU of 2^55 s (about a billion years) was
 * converted to nanoseconds by a product that wraps to exactly 0: the
 * process got SIGXCPU at its next tick. A child sets it as its soft limit
 * and runs 0.5 s of CPU; it must exit normally.
 */
static int rlimit_cpu_ns(void)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		struct rlimit rl = { .rlim_cur = 1ULL << 55, .rlim_max = RLIM_INFINITY };
		struct timespec t;

		if (setrlimit(RLIMIT_CPU, &rl))
			_exit(100);
		do
			clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
		while (t.tv_sec == 0 && t.tv_nsec < 500000000);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0) {
		note("fork/wait: %s", strerror(errno));
		return CASE_FAIL;
	}
	if (WIFSIGNALED(st)) {
		note("the child with RLIMIT_CPU = 2^55 s died of signal %d (%s) within 0.5 s of CPU",
		     WTERMSIG(st), strsignal(WTERMSIG(st)));
		return CASE_FAIL;
	}
	note("the child with RLIMIT_CPU = 2^55 s ran 0.5 s of CPU and exited %d",
	     WEXITSTATUS(st));
	return WEXITSTATUS(st) == 0 ? CASE_PASS : CASE_FAIL;
}

#define MMAP_MIN_ADDR "/proc/sys/vm/mmap_min_addr"

/*
 * uaccess: openat2() with a how pointer near the top of the address space
 * and a size larger than struct open_how: copy_struct_from_user() checked
 * the extra bytes at how + sizeof(struct open_how), which wraps to a low
 * address. With a non-zero page mapped at 0 (root, vm.mmap_min_addr = 0)
 * the call failed with E2BIG, having read that page; it must fail with
 * EFAULT, the user range being invalid.
 */
static int copy_struct_wrap(void)
{
	const size_t usize = sizeof(struct open_how) + 8;
	char old[64];
	char *low;
	long r;
	int e;

	if (getuid() != 0) {
		skip_reason("needs root to map page 0");
		return CASE_SKIP;
	}
	if (read_sysctl(MMAP_MIN_ADDR, old, sizeof(old)) || write_sysctl(MMAP_MIN_ADDR, "0"))
		return CASE_FAIL;
	low = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
		   -1, 0);
	if (low == MAP_FAILED) {
		note("mmap at 0: %s", strerror(errno));
		write_sysctl(MMAP_MIN_ADDR, old);
		return CASE_FAIL;
	}
	memset(low, 0xff, 4096);
	r = syscall(SYS_openat2, AT_FDCWD, "/", (void *)(uintptr_t)-10, usize);
	e = errno;
	munmap(low, 4096);
	write_sysctl(MMAP_MIN_ADDR, old);
	note("openat2(how = (void *)-10, size %zu) = %ld (%s), want EFAULT", usize, r,
	     r < 0 ? strerror(e) : "an fd");
	return r < 0 && e == EFAULT ? CASE_PASS : CASE_FAIL;
}

/* include/net/ip_fib.h: the NETLINK_FIB_LOOKUP request and reply */
struct fib_result_nl {
	uint32_t fl_addr;
	uint32_t fl_mark;
	unsigned char fl_tos, fl_scope, tb_id_in, tb_id, prefixlen, nh_sel, type, scope;
	int err;
};

/* Sends a lookup whose header claims nlmsg_len; 1 if a reply came. */
static int fib_lookup(int s, uint32_t nlmsg_len)
{
	struct {
		struct nlmsghdr h;
		struct fib_result_nl frn;
	} req, rep;
	ssize_t n;

	memset(&req, 0, sizeof(req));
	req.h.nlmsg_len = nlmsg_len;
	req.frn.fl_addr = __builtin_bswap32(0x7f000001);
	if (send(s, &req, NLMSG_SPACE(sizeof(req.frn)), 0) < 0) {
		note("send: %s", strerror(errno));
		return -1;
	}
	n = recv(s, &rep, sizeof(rep), MSG_DONTWAIT);
	return n > 0;
}

/*
 * ipv4: fib: a NETLINK_FIB_LOOKUP message whose header claims a length of
 * 0 passed the payload test (nlmsg_len(nlh) is -16 in int, compared as a
 * size_t) and got a reply. It must be dropped; a well-formed request
 * still gets its reply.
 */
static int fib_lookup_short(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int s = socket(AF_NETLINK, SOCK_RAW, NETLINK_FIB_LOOKUP);
	int good, bad;

	if (s < 0 || bind(s, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		note("NETLINK_FIB_LOOKUP socket: %s", strerror(errno));
		return CASE_FAIL;
	}
	good = fib_lookup(s, NLMSG_LENGTH(sizeof(struct fib_result_nl)));
	bad = fib_lookup(s, 0);
	close(s);
	note("reply to a well-formed lookup: %s; reply to a header claiming 0 bytes: %s "
	     "(want none)", good > 0 ? "yes" : "no", bad > 0 ? "yes" : "no");
	return good == 1 && bad == 0 ? CASE_PASS : CASE_FAIL;
}

const struct finding finding_aio_setup_nr_events = {
	"aio_setup_nr_events", "aio: Check the number of events before doubling it",
	aio_setup_nr_events,
};
const struct finding finding_aio_getevents_timeout = {
	"aio_getevents_timeout",
	"aio: Saturate the timeout of io_getevents() instead of wrapping it",
	aio_getevents_timeout,
};
const struct finding finding_getaffinity_len = {
	"getaffinity_len", "sched: Do not wrap the mask length in sched_getaffinity()",
	getaffinity_len,
};
const struct finding finding_rlimit_cpu_ns = {
	"rlimit_cpu_ns", "posix-cpu-timers: Saturate RLIMIT_CPU in nanoseconds", rlimit_cpu_ns,
};
const struct finding finding_copy_struct_wrap = {
	"copy_struct_wrap",
	"uaccess: Reject a wrapping user range in copy_struct_from_user()",
	copy_struct_wrap,
};
const struct finding finding_fib_lookup_short = {
	"fib_lookup_short", "ipv4: fib: Reject a lookup message shorter than its header",
	fib_lookup_short,
};
