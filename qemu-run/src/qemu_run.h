/* qemu-run: options and stage entry points (README.md describes the CLI). */
#ifndef QEMU_RUN_H
#define QEMU_RUN_H

#include "util.h"

/* Debian package and version the patch series was last tested on. The value
 * in kernel/README.md ("linux-source-6.12 <version>") takes precedence. */
#define QR_DEB_PACKAGE "linux-source-6.12"
#define QR_TESTED_DEBIAN_VERSION "6.12.118-1~deb12u1"
#define QR_TARBALL "/usr/src/linux-source-6.12.tar.xz"
/* The build lock: --lock, else $KBUILD_LOCK, else <build>/.kbuild.lock. */
#define QR_LOCK_ENV "KBUILD_LOCK"
#define QR_LOCK_NAME ".kbuild.lock"
/* The profile when --profile is not given (qemu-run/configs/profiles/). */
#define QR_DEFAULT_PROFILE "tiny"
/* The architecture when --arch is not given; its trees and logs keep the
 * names they had before there was a choice. */
#define QR_DEFAULT_ARCH "x86_64"

/* An architecture qemu-run builds and boots (arch.c): what differs between
 * the kernels of x86_64 and arm64, in one table. */
struct qr_arch {
	const char *name;          /* --arch and the profiles' KEY@ARCH lines */
	const char *karch;         /* make ARCH= */
	const char *image_target;  /* make target of the boot image */
	const char *image;         /* its path in the tree */
	const char *qemu;          /* the QEMU system emulator */
	const char *qemu_hint;     /* what installs it */
	const char *machine[5];    /* its machine options (NULL-terminated) */
	int socket_per_cpu;        /* -smp N,sockets=N (arch.c says why) */
	const char *console;       /* the serial console device */
	unsigned elf_machine;      /* e_machine of the guest's binaries */
	const char *elf_name;      /* ... as people say it */
	const char *uname;         /* uname -m of a host that runs it under KVM */
	const char *init;          /* the guest /init, <build>/qemu-run/init/<this> */
	const char *init_hint;     /* what builds the guest /init */
	const char *busybox;       /* BusyBox: an absolute path, or one under <build> */
	const char *busybox_hint;  /* what installs BusyBox */
};
/* The architecture named (exits with the list of known ones if none). */
const struct qr_arch *arch_get(const char *name);
/* 1 if name is an architecture qemu-run knows. */
int arch_known(const char *name);
/* "x86_64 arm64": the known names, for messages. */
const char *arch_names(void);
/* The architecture of this machine's kernels (uname -m), or NULL. */
const struct qr_arch *arch_host(void);

/* A profile, from qemu-run/configs/profiles/<name> (profile.c). */
struct qr_profile {
	char *name;
	char *path;
	struct strv base;        /* make targets for the base .config, in order */
	struct strv fragments;   /* absolute paths, in merge order */
	char *plugin_only;       /* per fragment: only for the plugin variant */
	char *expect;            /* default expectations (NULL: default.expect) */
	char *workload;          /* guest workload script (NULL: none) */
	double timeout;          /* default boot timeout (0: the built-in one) */
	struct strv append;      /* kernel command line words */
	struct strv arches;      /* the architectures it is for (empty: all) */
	int smp;                 /* guest CPUs (0: 1) */
	int memory_mb;           /* guest memory (0: --memory's default) */
	struct strv guest_tools; /* Debian programs staged into the initramfs */
	int count_insns;         /* 'count-insns kernel': -icount and the kinsn plugin */
	char *kernel;            /* 'kernel PROFILE': boot that profile's kernel */
	int kernel_line;
};

struct qr_opts {
	const char *src_root;      /* the wrapidiom checkout */
	const char *build_root;    /* its CMake build dir */
	const char *init_binary;   /* the guest /init, built beside qemu-run */
	const char *kinsn_plugin;  /* the TCG plugin of count-insns, built beside it */
	const char *arch_name;     /* --arch (default QR_DEFAULT_ARCH) */
	const struct qr_arch *arch;
	const char *busybox;       /* --busybox (default: the arch's) */
	const char *tarball;
	const char *tree;          /* --tree: kernel tree (NULL: per variant) */
	const char *patches_dir;   /* kernel/patches */
	const char *configs_dir;   /* qemu-run/configs */
	const char *log_dir;       /* build/qemu-run/logs */
	const char *state_dir;     /* build/qemu-run */
	const char *lock_file;
	const char *profile;       /* --profile (default QR_DEFAULT_PROFILE) */
	int use_plugin;            /* 1: plugin variant, 0: --no-plugin */
	const char *plugin;        /* absolute path of WrapIdiom.so */
	struct strv ignorelists;   /* absolute paths */
	int ignorelists_set;       /* --ignorelist given (else: ignorelists/ *.scl) */
	int without_refactors;
	int without_fixes;         /* --without-fixes: skip the '# fixes:' section */
	const char *llvm;          /* make LLVM=<this> */
	const char *cc_wrapper;    /* --cc-wrapper: make CC="<this> clang<LLVM>" */
	const char *kcflags;       /* --kcflags: make KCFLAGS="<this>" */
	int jobs;
	/* boot */
	const char *kernel;        /* --kernel: boot this image instead of the tree's */
	double timeout;
	int timeout_set;           /* --timeout given (else the profile's) */
	const char *accel;         /* auto | kvm | tcg */
	int reprobe_kvm;
	int memory_mb;
	int memory_set;            /* --memory given (else the profile's) */
	struct strv modules;       /* modules /init loads, in order */
	int modules_set;
	struct strv append;        /* extra kernel command line words */
	/* parse */
	const char *expect;        /* expectations file ("none": no file) */
	int strict;
	const char *system_map;    /* --system-map */
	int sites;                 /* parse --sites: the site list only */
	int ktap_counts;           /* parse --ktap-counts: kunit.py's count line only */
	/* run */
	int compare;
	int expect_fail_without_plugin;
	int expect_fail_without_fixes; /* run: also the --without-fixes kernel; its findings fail */
	int findings_must_fail;    /* parse: that check on the log(s) */
	int skip_build;            /* run --no-build: reuse trees as they are */
};

/* The profile NAME for o's architecture, read from its file: NULL and *err
 * (the error naming file and line) if it cannot be; profile_load() exits
 * with that error. */
const struct qr_profile *profile_read(const struct qr_opts *o, const char *name, char **err);
const struct qr_profile *profile_load(const struct qr_opts *o, const char *name);

/* One kernel of a command, resolved once from the options (variant.c): the
 * profile, architecture, tree, names and boot budget every stage of it
 * works with. */
struct variant {
	int use_plugin;
	int without_fixes;             /* --without-fixes: series without '# fixes:' */
	const char *name;              /* "plugin" or "noplugin", "-nofixes" added */
	const struct qr_arch *arch;
	const char *profile;           /* its name */
	const struct qr_profile *prof; /* NULL: the command needs none and none was named,
					* or it could not be read (prof_error) */
	const char *prof_error;
	/* "" for the default profile and arch (their trees and logs keep their
	 * old names), else "-workload", "-arm64", "-workload-arm64": what log,
	 * initramfs and disk names add */
	char *suffix;
	/* --tree, else <build>/linux-6.12[-PROFILE][-ARCH][-noplugin]; a
	 * profile with a 'kernel' line names the tree of that profile */
	char *tree;
	double timeout;                /* --timeout, else the profile's, else 300 */
	int memory_mb;                 /* --memory, else the profile's, else 512 */
	const char *expect;            /* --expect, else the profile's, else
					* default.expect; NULL without a profile */
};
void variant_init(struct variant *v, const struct qr_opts *o, const struct qr_profile *prof,
		  const char *prof_error, int use_plugin);
/* The same variant without the fixes sub-series: own tree and name. */
void variant_without_fixes(struct variant *v, const struct qr_opts *o);
/* The profile, for a stage that needs it: one that could not be read is
 * reported there (exit 2), where the stage first needs it. */
const struct qr_profile *variant_profile(const struct variant *v);
/* The expectations: --expect, else the profile's, else default.expect. */
const char *variant_expect(const struct variant *v);
void variant_free(struct variant *v);

int stage_prepare(const struct qr_opts *o, const struct variant *v);
/* run --expect-fail-without-fixes: nonzero (said why) unless every case of
 * the findings suites failed in nofix (fixes.c) */
struct result;
int check_findings_fail(const struct result *nofix);
int tree_is_prepared(const char *tree);   /* prepare finished (stamp present) */
int stage_config(const struct qr_opts *o, const struct variant *v);
int stage_build(const struct qr_opts *o, const struct variant *v, double *seconds);
/* Boots tree's kernel (kernel: this image instead; tree NULL: no modules);
 * *log_out gets the console log path, *facts (if not NULL) what the log
 * cannot tell (timeout, times, accelerator, System.map; parse.h). Returns 0
 * if QEMU ran (whatever the guest did), non-zero on a harness error. */
struct boot_facts;
int stage_boot(const struct qr_opts *o, const struct variant *v, const char *tree,
	       const char *kernel, char **log_out, struct boot_facts *facts);

/* What a kernel built with the plugin also gets in KCFLAGS: wrap-idiom's
 * optimization records, FOO.opt.yaml beside every FOO.o. */
#define WRAP_IDIOM_RECORD_FLAGS "-fsave-optimization-record -foptimization-record-passes=wrap-idiom"

/* After a build through a compiler cache (records.c): the objects built with
 * the records, those without their record (served by the cache), and the
 * stale records among them, which are removed. */
struct records_count {
	int objects, missing, stale;
};
void records_after_cache(const char *tree, struct records_count *c);

/* make argv common to config and build: make -C tree LLVM=.. [plugin vars] */
void make_argv(const struct qr_opts *o, const struct variant *v, struct strv *argv);

/* The workload's BusyBox (checked static, of the arch) and ext4 disk image
 * (disk.c). */
char *workload_busybox(const struct qr_opts *o, const struct variant *v, size_t *len);
int workload_disk(const struct qr_opts *o, const char *name, char **img_out);

/* Kconfig helpers (kconfig.c). */
int kconfig_value(const char *config_path, const char *sym, char **value);

/* Expectations (expect.c) and the KUnit modules they ask /init to load. */
struct expect;
struct expect *expect_load(const char *path);   /* exits QR_EXIT_USAGE on error */
void expect_modules(const struct expect *e, struct strv *out);
void expect_free(struct expect *e);

#endif
