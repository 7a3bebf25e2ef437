/* Reproducers of fixes whose harm stays inside the kernel but which user
 * space can drive there: what they show is the wrap itself, the UBSan
 * report at the site (read from /dev/kmsg), so they need the wrap
 * sanitizers; without them they pass whatever the kernel. */
#define _GNU_SOURCE
#include "findings.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <unistd.h>

#define VM "/proc/sys/vm/"
#define MIB (1024 * 1024)

/* Writes mib MiB to fd in 1 MiB write()s: each may throttle the writer. */
static int dirty(int fd, int mib)
{
	static char buf[MIB];

	memset(buf, 0x5a, sizeof(buf));
	for (int i = 0; i < mib; i++)
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
			note("write: %s", strerror(errno));
			return -1;
		}
	return 0;
}

/* A counter of /proc/vmstat (pages), -1 if absent. */
static long vmstat(const char *name)
{
	char line[128];
	size_t n = strlen(name);
	long v = -1;
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) && line[n] == ' ') {
			v = atol(line + n + 1);
			break;
		}
	fclose(f);
	return v;
}

/*
 * mm/page-writeback: wb_position_ratio() raises wb_thresh to
 * (limit - dirty) / 8 for an idle device, where limit (the global dirty
 * limit, dom->dirty_limit) follows a falling threshold only slowly, and
 * then computes thresh - wb_thresh. A write of vm.dirty_ratio or
 * dirty_bytes sets the limit to the new threshold at once
 * (writeback_set_ratelimit()), so the threshold must fall another way:
 * with the dirtyable memory. Write the dirty ratio (the limit becomes
 * today's threshold), take memory away with anonymous memory until the
 * threshold is below a tenth of that limit, then dirty 16 MiB of a file,
 * above the small threshold's free-run ceiling: (limit - dirty) / 8 is
 * then above thresh. Needs the ext4 disk at /disk (workload step
 * mount_ext4).
 */
static int wb_position_span(void)
{
	char ratio[32];
	long limit, thresh;
	int fd, kfd, reports, taken = 0;
	const char *file = DISK "/findings-wb-span";

	if (disk_free() < 24LL * MIB) {
		skip_reason("needs the ext4 disk with 24 MiB free at /disk (step mount_ext4)");
		return CASE_SKIP;
	}
	if (read_sysctl(VM "dirty_ratio", ratio, sizeof(ratio)) ||
	    write_sysctl(VM "dirty_ratio", ratio))
		return CASE_FAIL;
	limit = vmstat("nr_dirty_threshold");
	thresh = limit;
	/* 16 MiB at a time, populated; the case's child exits with them. */
	while (limit > 0 && thresh > limit / 10 &&
	       vmstat("nr_free_pages") > 16 * MIB / 4096) {
		void *p = mmap(NULL, 16 * MIB, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

		if (p == MAP_FAILED)
			break;
		taken += 16;
		thresh = vmstat("nr_dirty_threshold");
	}
	if (limit <= 0 || thresh > limit / 8) {
		skip_reason("the dirty threshold fell only from %ld to %ld pages with %d MiB taken",
			    limit, thresh, taken);
		return CASE_SKIP;
	}
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		note("%s: %s", file, strerror(errno));
		return CASE_FAIL;
	}
	kfd = kmsg_open();
	if (dirty(fd, 16)) {
		close(fd);
		unlink(file);
		return CASE_FAIL;
	}
	reports = kmsg_ubsan(kfd, "mm/page-writeback.c");
	close(fd);
	unlink(file);
	note("dirty threshold %ld pages, %ld with %d MiB of anonymous memory; "
	     "dirtied 16 MiB: UBSan reports in mm/page-writeback.c: %d",
	     limit, thresh, taken, reports);
	return reports == 0 ? CASE_PASS : CASE_FAIL;
}

/*
 * rcu/kvfree: kfree_rcu_shrink_scan() subtracts what each CPU's cache
 * freed from nr_to_scan. With caches larger than one scan batch (boot
 * with rcutree.rcu_min_cached_objs=200, as profile findings does), a
 * drop of the slab caches asks for 128 objects from a CPU that frees
 * 200, and the count wraps.
 */
static int kvfree_rcu_shrink(void)
{
	char v[32];
	int kfd, reports;

	if (read_sysctl("/sys/module/rcutree/parameters/rcu_min_cached_objs", v, sizeof(v)) ||
	    atoi(v) <= 128) {
		skip_reason("needs rcutree.rcu_min_cached_objs above 128 (profile findings)");
		return CASE_SKIP;
	}
	kfd = kmsg_open();
	if (write_sysctl(VM "drop_caches", "2"))
		return CASE_FAIL;
	reports = kmsg_ubsan(kfd, "kernel/rcu/tree.c");
	note("rcu_min_cached_objs %s, drop_caches 2: UBSan reports in kernel/rcu/tree.c: %d",
	     v, reports);
	return reports == 0 ? CASE_PASS : CASE_FAIL;
}

const struct finding finding_wb_position_span = {
	"wb_position_span",
	"mm/page-writeback: Do not underflow the span of the position ratio",
	wb_position_span,
};
const struct finding finding_kvfree_rcu_shrink = {
	"kvfree_rcu_shrink", "rcu/kvfree: Do not underflow the shrinker's scan count",
	kvfree_rcu_shrink,
};
