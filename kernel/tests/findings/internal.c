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

/*
 * mm/page-writeback: wb_position_ratio() raises wb_thresh to
 * (limit - dirty) / 8 for an idle device, where limit (the global dirty
 * limit) follows a falling threshold only slowly, and then computes
 * thresh - wb_thresh. Raise the limit by dirtying 40 MiB under
 * vm.dirty_bytes = 48 MiB, drop the threshold to 1 MiB and dirty again:
 * (limit - dirty) / 8 is then far above thresh. Needs the ext4 disk at
 * /disk (workload step mount_ext4).
 */
static int wb_position_span(void)
{
	char ratio[32], bg_ratio[32];
	int fd, kfd, reports, bad = 0;
	const char *file = DISK "/findings-wb-span";

	if (disk_free() < 48LL * MIB) {
		skip_reason("needs the ext4 disk with 48 MiB free at /disk (step mount_ext4)");
		return CASE_SKIP;
	}
	if (read_sysctl(VM "dirty_ratio", ratio, sizeof(ratio)) ||
	    read_sysctl(VM "dirty_background_ratio", bg_ratio, sizeof(bg_ratio)))
		return CASE_FAIL;
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		note("%s: %s", file, strerror(errno));
		return CASE_FAIL;
	}
	kfd = kmsg_open();
	if (write_sysctl(VM "dirty_background_bytes", "25165824") ||
	    write_sysctl(VM "dirty_bytes", "50331648") || dirty(fd, 40) ||
	    write_sysctl(VM "dirty_background_bytes", "524288") ||
	    write_sysctl(VM "dirty_bytes", "1048576") || dirty(fd, 4))
		bad = 1;
	reports = kmsg_ubsan(kfd, "mm/page-writeback.c");
	write_sysctl(VM "dirty_ratio", ratio);
	write_sysctl(VM "dirty_background_ratio", bg_ratio);
	close(fd);
	unlink(file);
	sync();
	note("dirtied 40 MiB under dirty_bytes 48 MiB, then 4 MiB under 1 MiB: "
	     "UBSan reports in mm/page-writeback.c: %d", reports);
	return !bad && reports == 0 ? CASE_PASS : CASE_FAIL;
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
