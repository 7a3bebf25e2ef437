/* The user-space reproducers of the fixes sub-series (kernel/FINDINGS.md):
 * one case per bug, each FAILs on a kernel without its fix and passes with
 * it. main.c runs them and prints KTAP (README.md in this directory). */
#ifndef FINDINGS_H
#define FINDINGS_H

enum { CASE_PASS, CASE_FAIL, CASE_SKIP };

/* The guest's ext4 disk (workload.sh mounts it there). */
#define DISK "/disk"

/* Bytes free on DISK, or -1 when it is not an ext4 file system there. */
long long disk_free(void);

struct finding {
	const char *name;   /* the KTAP case */
	const char *patch;  /* the fix, by subject */
	int (*run)(void);   /* CASE_PASS, CASE_FAIL or CASE_SKIP */
};

/* A "# name: ..." diagnostic line of the running case. */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The skip reason of the running case (with CASE_SKIP). */
void skip_reason(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The kernel log: kmsg_open() before the action, kmsg_ubsan(fd, "mm/filemap.c")
 * after it counts the UBSan reports naming that file since the open (and
 * notes each); -1 when /dev/kmsg cannot be read. */
int kmsg_open(void);
/* The same from the first record of the boot: the kernel reports a UBSan
 * site once per boot, so a site the boot met before the case (the
 * workload reading its disk) is only seen this way. */
int kmsg_open_boot(void);
int kmsg_ubsan(int fd, const char *file);

/* Writes "value" to a /proc/sys file; returns 0 or -1 (noted). */
int write_sysctl(const char *path, const char *value);
/* Reads it into buf; 0 or -1. */
int read_sysctl(const char *path, char *buf, int len);

extern const struct finding finding_shmem_punch_hole, finding_filemap_empty_fault,
	finding_mlock_len_wrap, finding_aio_setup_nr_events, finding_aio_getevents_timeout,
	finding_getaffinity_len, finding_rlimit_cpu_ns, finding_copy_struct_wrap,
	finding_fib_lookup_short, finding_wb_position_span, finding_kvfree_rcu_shrink,
	finding_readahead_mark_wrap;

int findings_main(int argc, char **argv);

#endif
