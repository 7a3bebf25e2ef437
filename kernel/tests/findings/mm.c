/* Reproducers of the mm/ fixes: shmem hole punch, fault-around in an empty
 * file, mlock() length rounding, the readahead mark at the end of a file. */
#define _GNU_SOURCE
#include "findings.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGES 8

static long minflt(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

/*
 * mm/shmem: punching a hole of 4 bytes at offset 3 of a shmem file holds
 * no whole page, so no mapping may be touched. Without the fix every page
 * of the file from the second one on is unmapped: writing them again
 * faults once per page (write faults on a shared mapping do not fault
 * around).
 */
static int shmem_punch_hole(void)
{
	long ps = sysconf(_SC_PAGESIZE), before, refaults;
	int fd = memfd_create("findings-shmem", 0);
	char *p;

	if (fd < 0 || ftruncate(fd, PAGES * ps) < 0) {
		note("memfd: %s", strerror(errno));
		return CASE_FAIL;
	}
	p = mmap(NULL, PAGES * ps, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		note("mmap: %s", strerror(errno));
		return CASE_FAIL;
	}
	for (int i = 0; i < PAGES; i++)
		p[i * ps] = 1;
	if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 3, 4) < 0) {
		note("fallocate(PUNCH_HOLE, 3, 4): %s", strerror(errno));
		return CASE_FAIL;
	}
	before = minflt();
	for (int i = 1; i < PAGES; i++)
		p[i * ps] = 2;
	refaults = minflt() - before;
	note("pages 1-%d of the mapping written again after the punch: %ld page faults "
	     "(0: still mapped; %d: unmapped by the punch)", PAGES - 1, refaults, PAGES - 1);
	return refaults < PAGES / 2 ? CASE_PASS : CASE_FAIL;
}

static sigjmp_buf bus_jmp;

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(bus_jmp, 1);
}

/*
 * mm/filemap: a read fault on the mapping of an empty file faults around
 * (filemap_map_pages()) and must then get SIGBUS. Without the fix the
 * fault-around clamp computes 0 - 1 for the empty file: the harm needs a
 * race with a write that extends the file, so what this shows on demand
 * is the wrap itself, the UBSan report at the site.
 */
static int filemap_empty_fault(void)
{
	long ps = sysconf(_SC_PAGESIZE);
	int fd = memfd_create("findings-empty", 0), kfd, reports, bus;
	volatile char *p;
	struct sigaction sa = { .sa_handler = on_sigbus };

	if (fd < 0 || ftruncate(fd, ps) < 0) {
		note("memfd: %s", strerror(errno));
		return CASE_FAIL;
	}
	p = mmap(NULL, 4 * ps, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED || ftruncate(fd, 0) < 0) {
		note("mmap/ftruncate: %s", strerror(errno));
		return CASE_FAIL;
	}
	sigaction(SIGBUS, &sa, NULL);
	kfd = kmsg_open();
	bus = sigsetjmp(bus_jmp, 1);
	if (!bus)
		(void)p[ps];
	reports = kmsg_ubsan(kfd, "mm/filemap.c");
	note("read of the empty file's mapping: %s; UBSan reports in mm/filemap.c: %d",
	     bus ? "SIGBUS" : "no SIGBUS", reports);
	return bus && reports == 0 ? CASE_PASS : CASE_FAIL;
}

/* mlock() or munlock() of [p, p + len): 0 or errno. */
static int lock_errno(int unlock, void *p, size_t len)
{
	int r = unlock ? munlock(p, len) : mlock(p, len);

	return r ? errno : 0;
}

/* Every call with SIZE_MAX must answer as the largest length that does
 * not wrap, not succeed. Returns the number of mismatches. */
static int mlock_compare(const char *who, void *p)
{
	const size_t longest = (size_t)0 - (size_t)sysconf(_SC_PAGESIZE);
	int bad = 0;

	for (int unlock = 0; unlock < 2; unlock++) {
		int e_wrap = lock_errno(unlock, p, SIZE_MAX);
		int e_longest = lock_errno(unlock, p, longest);

		note("%s: %s(p, SIZE_MAX) = %s, %s(p, SIZE_MAX - 4095) = %s", who,
		     unlock ? "munlock" : "mlock", e_wrap ? strerror(e_wrap) : "0",
		     unlock ? "munlock" : "mlock", e_longest ? strerror(e_longest) : "0");
		if (e_wrap == 0 || e_wrap != e_longest)
			bad++;
	}
	return bad;
}

/*
 * mm/mlock: mlock(p, SIZE_MAX) rounded the length up to pages with a sum
 * that wraps to 0 and returned 0 without locking anything. With the fix it
 * fails as the largest length that does not wrap fails: EINVAL with
 * CAP_IPC_LOCK (p + len overflows), ENOMEM (RLIMIT_MEMLOCK) without.
 */
static int mlock_len_wrap(void)
{
	void *p = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int bad, st;
	pid_t pid;

	if (p == MAP_FAILED) {
		note("mmap: %s", strerror(errno));
		return CASE_FAIL;
	}
	bad = mlock_compare(getuid() ? "unprivileged" : "root", p);
	if (getuid() == 0) {
		pid = fork();
		if (pid == 0) {
			if (setgid(65534) || setuid(65534))
				_exit(100);
			_exit(mlock_compare("uid 65534", p));
		}
		if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) ||
		    WEXITSTATUS(st) == 100) {
			note("the unprivileged run did not complete");
			bad++;
		} else {
			bad += WEXITSTATUS(st);
		}
	}
	return bad ? CASE_FAIL : CASE_PASS;
}

/* Writes a file of n pages, syncs it and drops its pages: 0 or -1. */
static int cold_file(const char *path, int n, long ps)
{
	char page[65536];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600), bad = fd < 0;

	memset(page, 0x5a, sizeof(page));
	for (int i = 0; !bad && i < n; i++)
		bad = write(fd, page, ps) != ps;
	if (!bad)
		bad = fsync(fd) || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (bad)
		note("%s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return bad ? -1 : 0;
}

/*
 * mm/readahead: a sequential read of a file from disk grows its windows
 * (4, 8, 16, 32 pages by default), each read asynchronously as a whole
 * (lookahead = window); do_page_cache_ra() trims the window that crosses
 * the end of the file but not its lookahead, and page_cache_ra_unbounded()
 * computed the mark, index + nr_to_read - lookahead_size, below the
 * window: a wrap (no folio marked with order-0 folios, the wrong one with
 * a minimum folio order, a trap with UBSAN_TRAP). Files of 9 to 45 pages
 * on the ext4 disk, read a page at a time from a fresh open: most end
 * inside a window. The harm needs a minimum folio order; the case shows
 * the wrap itself, the UBSan report at the site in this boot (the kernel
 * reports a site once, and the workload's first read of its disk may have
 * met it already; it passes on a kernel without the sanitizers). Needs
 * the ext4 disk at /disk.
 */
static int readahead_mark_wrap(void)
{
	static const int sizes[] = { 9, 13, 21, 45 };
	const char *path = DISK "/findings-readahead";
	long ps = sysconf(_SC_PAGESIZE);
	char page[65536];
	int kfd, reports, bad = 0;

	if (disk_free() < 0 || ps > (long)sizeof(page)) {
		skip_reason("needs the ext4 disk at /disk (step mount_ext4)");
		return CASE_SKIP;
	}
	kfd = kmsg_open_boot();
	for (unsigned int k = 0; !bad && k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		int fd, pages = 0;

		if (cold_file(path, sizes[k], ps)) {
			bad = 1;
			break;
		}
		fd = open(path, O_RDONLY);
		while (fd >= 0 && read(fd, page, ps) > 0)
			pages++;
		if (fd < 0 || pages != sizes[k]) {
			note("reading %d pages back: %d", sizes[k], pages);
			bad = 1;
		}
		if (fd >= 0)
			close(fd);
	}
	unlink(path);
	reports = kmsg_ubsan(kfd, "mm/readahead.c");
	note("%s files of 9, 13, 21, 45 pages to their ends; UBSan reports in mm/readahead.c this boot: %d",
	     bad ? "could not read" : "read", reports);
	return !bad && reports == 0 ? CASE_PASS : CASE_FAIL;
}

const struct finding finding_shmem_punch_hole = {
	"shmem_punch_hole",
	"mm/shmem: Do not unmap to the end of the file for a hole inside one page",
	shmem_punch_hole,
};
const struct finding finding_filemap_empty_fault = {
	"filemap_empty_fault",
	"mm/filemap: Do not fault around in an empty file",
	filemap_empty_fault,
};
const struct finding finding_mlock_len_wrap = {
	"mlock_len_wrap",
	"mm/mlock: Saturate a length that wraps around when rounded up to pages",
	mlock_len_wrap,
};
const struct finding finding_readahead_mark_wrap = {
	"readahead_mark_wrap",
	"mm/readahead: Do not wrap the readahead mark below the window",
	readahead_mark_wrap,
};
