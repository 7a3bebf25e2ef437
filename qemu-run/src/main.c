/* qemu-run: build the wrap-idiom kernel, boot it in QEMU, judge the console.
 * Subcommands: prepare, config, build, boot, parse, run (README.md). */
#define _GNU_SOURCE
#include "parse.h"
#include "qemu_run.h"

#include <errno.h>
#include <getopt.h>
#include <glob.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
"usage: qemu-run COMMAND [options]\n"
"\n"
"commands:\n"
"  prepare        unpack " QR_TARBALL " into the variant's tree and apply\n"
"                 kernel/patches/series (re-unpacks when series/patches/options change)\n"
"  config         the profile's base config + its fragments, olddefconfig, verify\n"
"  build          make bzImage (and modules) under an exclusive flock on the build lock\n"
"  boot           initramfs + QEMU (KVM if a test boot shows it works, else TCG), keep the log\n"
"  parse LOG [LOG2]  verdict for a console log (LOG2: a second column in the summary)\n"
"  run            prepare, config, build, boot, parse (what `make boot` does)\n"
"  help           this text\n"
"\n"
"variant and trees:\n"
"  --profile NAME         tiny (default), workload, defconfig: qemu-run/configs/profiles/NAME\n"
"                         (base config, fragments, expectations, workload, timeout)\n"
"  --arch NAME            x86_64 (default) or arm64: make ARCH=, the image, QEMU\n"
"                         (qemu-system-aarch64 -M virt -cpu max, always TCG), the guest's\n"
"                         binaries; the profile's KEY@ARCH lines\n"
"  --plugin PATH          WrapIdiom.so (default <build>/llvm-pass/WrapIdiom.so)\n"
"  --no-plugin            build without the plugin (no wrap-idiom.config, own tree)\n"
"  --ignorelist FILE      pass FILE in WRAP_IDIOM_IGNORELISTS; repeatable\n"
"                         (default: <src>/ignorelists/*.scl)\n"
"  --tree DIR             kernel tree (default <build>/linux-6.12[-PROFILE][-ARCH][-noplugin];\n"
"                         no -PROFILE for tiny, no -ARCH for x86_64)\n"
"  --build-root DIR       <build>: default the CMake build directory of this\n"
"                         executable (<build>/qemu-run/qemu-run)\n"
"  --src-root DIR         <src>: the wrapidiom checkout (default: the one the build\n"
"                         directory of this executable was configured from)\n"
"  --tarball FILE         default " QR_TARBALL "\n"
"  --patches DIR          default <src>/kernel/patches\n"
"  --configs DIR          default <src>/qemu-run/configs\n"
"  --without-refactors    skip the patches after '# optional:' in series\n"
"  --without-fixes        skip the '# fixes:' section of series; own tree\n"
"                         (<tree>-nofixes), variant name <variant>-nofixes\n"
"  --llvm SUFFIX          make LLVM=SUFFIX (default -22)\n"
"  --cc-wrapper CMD       make CC=\"CMD clang<SUFFIX>\": ccache, icecc, distcc\n"
"                         (README.md \"Building at scale\")\n"
"  --kcflags FLAGS        make KCFLAGS=\"FLAGS\" (e.g. clang's own exclusion,\n"
"                         -fsanitize-undefined-ignore-overflow-pattern=all, with --no-plugin\n"
"                         and a --tree of its own)\n"
"  -j N                   make -jN (default: number of CPUs)\n"
"  --lock FILE            build lock (default $" QR_LOCK_ENV " if set, else\n"
"                         <build>/" QR_LOCK_NAME "; created with its directory)\n"
"boot:\n"
"  --kernel IMAGE         boot IMAGE instead of the tree's bzImage/Image (modules: only\n"
"                         from an explicit --tree)\n"
"  --timeout SEC          kill QEMU after SEC seconds -> TIMEOUT (default: the profile's, else 300)\n"
"  --accel auto|kvm|tcg   default auto: KVM only if a 20 s test boot reaches /init (cached)\n"
"  --reprobe-kvm          redo the cached KVM test boot\n"
"  --memory MB            guest memory (default: the profile's, else 512)\n"
"  --busybox FILE         the workload's static BusyBox (default /bin/busybox; arm64:\n"
"                         <build>/deps/busybox-static_arm64/bin/busybox, make busybox-arm64)\n"
"  --module NAME          /init loads NAME.ko; repeatable (default: 'load' lines of --expect)\n"
"  --append WORD          extra kernel command line; repeatable\n"
"  --log-dir DIR          default <build>/qemu-run/logs\n"
"parse and run:\n"
"  --expect FILE|none     expectations (default: the profile's, else\n"
"                         <src>/qemu-run/expect/default.expect)\n"
"  --strict               any unexplained UBSan report fails the verdict\n"
"  --system-map FILE      parse: name raw Call Trace addresses (default: the\n"
"                         System.map of the booted tree, from LOG.meta)\n"
"  --sites                parse: print only the UBSan sites, one per line:\n"
"                         sanitizer kind file:line:col function reports (tab-separated)\n"
"  --findings-must-fail   parse: the check of run --expect-fail-without-fixes on LOG\n"
"                         (a kernel without the fixes): exit 1 unless every case of\n"
"                         the findings and wrap_findings suites FAILED\n"
"  --ktap-counts          parse: print only the KTAP totals as kunit.py parse does\n"
"                         (\"Ran N tests: passed: P, failed: F, ...\")\n"
"  --compare              run: also the no-plugin variant, side by side\n"
"  --expect-fail-without-plugin\n"
"                         run: implies --compare; exit non-zero unless the no-plugin\n"
"                         kernel runs the wrap_idiom suite and it FAILS\n"
"  --expect-fail-without-fixes\n"
"                         run: also the kernel --without-fixes, side by side; exit\n"
"                         non-zero unless every case of the findings and wrap_findings\n"
"                         suites FAILS there (and, by the expectations, passes here)\n"
"  --no-build             run: skip prepare/config/build, boot the trees as they are\n"
"  -v, --verbose          show make and patch output\n"
"\n"
"exit: 0 PASS, 1 FAIL or a failed stage, 2 usage/unreadable or malformed input,\n"
"      3 CRASH, 4 PANIC, 5 TIMEOUT\n";

enum {
	OPT_PLUGIN = 256, OPT_NO_PLUGIN, OPT_IGNORELIST, OPT_TREE, OPT_BUILD_ROOT, OPT_SRC_ROOT,
	OPT_TARBALL, OPT_PATCHES, OPT_CONFIGS, OPT_WITHOUT_REFACTORS, OPT_LLVM, OPT_LOCK,
	OPT_KERNEL, OPT_TIMEOUT, OPT_ACCEL, OPT_REPROBE, OPT_MEMORY, OPT_MODULE, OPT_APPEND,
	OPT_LOG_DIR, OPT_EXPECT, OPT_STRICT, OPT_COMPARE, OPT_EXPECT_FAIL, OPT_NO_BUILD,
	OPT_SYSTEM_MAP, OPT_SITES, OPT_KTAP_COUNTS, OPT_CC_WRAPPER, OPT_PROFILE, OPT_KCFLAGS,
	OPT_ARCH, OPT_BUSYBOX, OPT_WITHOUT_FIXES, OPT_EXPECT_FAIL_FIXES, OPT_FINDINGS_FAIL,
};

static const struct option longopts[] = {
	{ "plugin", required_argument, 0, OPT_PLUGIN },
	{ "no-plugin", no_argument, 0, OPT_NO_PLUGIN },
	{ "ignorelist", required_argument, 0, OPT_IGNORELIST },
	{ "tree", required_argument, 0, OPT_TREE },
	{ "build-root", required_argument, 0, OPT_BUILD_ROOT },
	{ "src-root", required_argument, 0, OPT_SRC_ROOT },
	{ "tarball", required_argument, 0, OPT_TARBALL },
	{ "patches", required_argument, 0, OPT_PATCHES },
	{ "configs", required_argument, 0, OPT_CONFIGS },
	{ "without-refactors", no_argument, 0, OPT_WITHOUT_REFACTORS },
	{ "without-fixes", no_argument, 0, OPT_WITHOUT_FIXES },
	{ "expect-fail-without-fixes", no_argument, 0, OPT_EXPECT_FAIL_FIXES },
	{ "findings-must-fail", no_argument, 0, OPT_FINDINGS_FAIL },
	{ "llvm", required_argument, 0, OPT_LLVM },
	{ "cc-wrapper", required_argument, 0, OPT_CC_WRAPPER },
	{ "kcflags", required_argument, 0, OPT_KCFLAGS },
	{ "lock", required_argument, 0, OPT_LOCK },
	{ "kernel", required_argument, 0, OPT_KERNEL },
	{ "timeout", required_argument, 0, OPT_TIMEOUT },
	{ "accel", required_argument, 0, OPT_ACCEL },
	{ "reprobe-kvm", no_argument, 0, OPT_REPROBE },
	{ "memory", required_argument, 0, OPT_MEMORY },
	{ "module", required_argument, 0, OPT_MODULE },
	{ "append", required_argument, 0, OPT_APPEND },
	{ "log-dir", required_argument, 0, OPT_LOG_DIR },
	{ "expect", required_argument, 0, OPT_EXPECT },
	{ "strict", no_argument, 0, OPT_STRICT },
	{ "compare", no_argument, 0, OPT_COMPARE },
	{ "expect-fail-without-plugin", no_argument, 0, OPT_EXPECT_FAIL },
	{ "no-build", no_argument, 0, OPT_NO_BUILD },
	{ "system-map", required_argument, 0, OPT_SYSTEM_MAP },
	{ "sites", no_argument, 0, OPT_SITES },
	{ "ktap-counts", no_argument, 0, OPT_KTAP_COUNTS },
	{ "profile", required_argument, 0, OPT_PROFILE },
	{ "arch", required_argument, 0, OPT_ARCH },
	{ "busybox", required_argument, 0, OPT_BUSYBOX },
	{ "verbose", no_argument, 0, 'v' },
	{ "help", no_argument, 0, 'h' },
	{ 0, 0, 0, 0 },
};

#define MUST_FAIL_SUITE "wrap_idiom"

static double parse_num(const char *opt, const char *s)
{
	char *end;
	double v = strtod(s, &end);
	if (!*s || *end || v <= 0)
		qr_die(QR_EXIT_USAGE, "%s wants a positive number, not '%s'", opt, s);
	return v;
}

/* --cc-wrapper CMD: CMD's first word must be a program on PATH (or a path to
 * one), so a typo is one error here rather than a failed kernel build. */
static const char *check_cc_wrapper(const char *cmd)
{
	size_t n = strcspn(cmd, " \t");
	char *prog = xstrndup(cmd, n);
	if (!*prog)
		qr_die(QR_EXIT_USAGE, "--cc-wrapper wants a command, such as ccache or icecc");
	if (!on_path(prog))
		qr_die(QR_EXIT_USAGE, "--cc-wrapper %s: no program '%s' on PATH", cmd, prog);
	free(prog);
	return cmd;
}

/*
 * The defaults come from where this executable is, never from a path fixed at
 * build time: CMake puts it at <build>/qemu-run/qemu-run and the guest init at
 * <build>/qemu-run/init/qemu-run-init, and <build>/CMakeCache.txt names the
 * checkout the build directory was configured from.
 */
static char *exe_dir(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf));

	if (n < 0 || (size_t)n >= sizeof(buf))
		qr_die(QR_EXIT_FAIL, "cannot read /proc/self/exe: %s (is /proc mounted?)",
		       n < 0 ? strerror(errno) : "path too long");
	buf[n] = 0;
	return path_dirname(buf);
}

#define CMAKE_SOURCE_KEY "wrapidiom_SOURCE_DIR:STATIC="

/* The checkout build was configured from, or NULL with *why set. */
static char *cmake_source_dir(const char *build, char **why)
{
	char *cache = xasprintf("%s/CMakeCache.txt", build);
	char *buf = cl_read_file(cache, NULL), *cur = buf, *line, *res = NULL;

	if (!buf) {
		*why = xasprintf("%s: %s", cache, strerror(errno));
		free(cache);
		return NULL;
	}
	while (!res && (line = cl_next_line(&cur)))
		if (starts_with(line, CMAKE_SOURCE_KEY) && line[strlen(CMAKE_SOURCE_KEY)])
			res = xstrdup(line + strlen(CMAKE_SOURCE_KEY));
	if (!res)
		*why = xasprintf("%s has no %s line", cache, CMAKE_SOURCE_KEY);
	free(buf);
	free(cache);
	return res;
}

static void finish_opts(struct qr_opts *o)
{
	char *self = exe_dir();
	char *self_build = path_dirname(self);
	const char *env_lock = getenv(QR_LOCK_ENV);

	o->arch = arch_get(o->arch_name ? o->arch_name : QR_DEFAULT_ARCH);
	o->init_binary = xasprintf("%s/init/%s", self, o->arch->init);
	o->kinsn_plugin = xasprintf("%s/kinsn/libkinsn.so", self);
	if (!strcmp(o->accel, "kvm") && arch_host() != o->arch)
		qr_die(QR_EXIT_USAGE, "--accel kvm: this machine cannot run %s guests under KVM "
		       "(use tcg or auto)", o->arch->name);
	if (!o->src_root) {
		char *why = NULL;
		o->src_root = cmake_source_dir(self_build, &why);
		if (!o->src_root)
			qr_die(QR_EXIT_USAGE, "cannot tell the wrapidiom checkout (%s): give --src-root",
			       why);
	}
	if (!o->build_root)
		o->build_root = self_build;
	o->src_root = abs_path(o->src_root);
	o->build_root = abs_path(o->build_root);
	if (!o->tarball)
		o->tarball = QR_TARBALL;
	o->patches_dir = o->patches_dir ? abs_path(o->patches_dir)
					: xasprintf("%s/kernel/patches", o->src_root);
	o->configs_dir = o->configs_dir ? abs_path(o->configs_dir)
					: xasprintf("%s/qemu-run/configs", o->src_root);
	o->state_dir = xasprintf("%s/qemu-run", o->build_root);
	o->log_dir = o->log_dir ? abs_path(o->log_dir) : xasprintf("%s/logs", o->state_dir);
	if (o->busybox)
		o->busybox = abs_path(o->busybox);
	else if (o->arch->busybox[0] == '/')
		o->busybox = o->arch->busybox;
	else
		o->busybox = xasprintf("%s/%s", o->build_root, o->arch->busybox);
	if (!o->lock_file && env_lock && *env_lock)
		o->lock_file = env_lock;
	o->lock_file = o->lock_file ? abs_path(o->lock_file)
				    : xasprintf("%s/%s", o->build_root, QR_LOCK_NAME);
	o->plugin = o->plugin ? abs_path(o->plugin)
			      : xasprintf("%s/llvm-pass/WrapIdiom.so", o->build_root);
	if (!o->ignorelists_set) {
		glob_t g;
		char *pat = xasprintf("%s/ignorelists/*.scl", o->src_root);
		if (glob(pat, 0, NULL, &g) == 0) {
			for (size_t i = 0; i < g.gl_pathc; i++)
				sv_add(&o->ignorelists, g.gl_pathv[i]);
			globfree(&g);
		}
		free(pat);
	}
	if (!o->jobs) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		o->jobs = n > 0 ? (int)n : 1;
	}
}

static int do_parse(const struct qr_opts *o, const struct variant *v, char **logs, int nlogs)
{
	struct expect *e = expect_load(variant_expect(v));
	struct result *r[2];
	const char *names[2];
	if (nlogs < 1 || nlogs > 2)
		qr_die(QR_EXIT_USAGE, "parse wants LOG [LOG2] (try --help)");
	/* all logs first, then the reports: as `run` does */
	for (int i = 0; i < nlogs; i++) {
		r[i] = parse_log(logs[i], e, o->strict, o->system_map, NULL);
		if (!r[i])
			return QR_EXIT_USAGE;
		const char *b = strrchr(logs[i], '/');
		names[i] = b ? b + 1 : logs[i];
	}
	if (o->findings_must_fail) {
		int bad = 0;
		for (int i = 0; i < nlogs; i++)
			bad |= check_findings_fail(r[i]);
		return bad ? QR_EXIT_FAIL : 0;
	}
	if (o->sites || o->ktap_counts) {
		for (int i = 0; i < nlogs; i++)
			o->sites ? print_sites(r[i]) : print_ktap_counts(r[i]);
		return 0;
	}
	for (int i = 0; i < nlogs; i++)
		print_details(r[i], e);
	print_summary(r, names, (size_t)nlogs);
	printf("qemu-run: verdict %s\n", verdict_str(r[0]->verdict));
	return verdict_exit(r[0]->verdict);
}

/* prepare + config + build + boot + parse of one variant. */
static int run_variant(const struct qr_opts *o, const struct variant *v, struct expect *e,
		       struct result **out)
{
	char *log = NULL;
	double bt = -1;
	struct boot_facts facts;
	int rc;

	qr_msg("=== variant %s: %s ===", v->name, v->tree);
	if (!o->skip_build) {
		if ((rc = stage_prepare(o, v)) || (rc = stage_config(o, v)) ||
		    (rc = stage_build(o, v, &bt)))
			return rc;
	}
	if ((rc = stage_boot(o, v, v->tree, o->kernel, &log, &facts)))
		return rc;
	facts.build_seconds = bt;   /* -1 with --no-build */
	*out = parse_log(log, e, o->strict, NULL, &facts);
	boot_facts_free(&facts);
	if (!*out)
		return QR_EXIT_USAGE;
	return 0;
}

/* The variants of run: o's, and with --compare the one without the plugin. */
static int do_run(struct qr_opts *o, const struct qr_profile *prof, const char *prof_error)
{
	struct variant v[2];
	int fixes = o->expect_fail_without_fixes;
	variant_init(&v[0], o, prof, prof_error, o->use_plugin);
	variant_init(&v[1], o, prof, prof_error, fixes ? o->use_plugin : 0);
	if (fixes)
		variant_without_fixes(&v[1], o);
	struct expect *e = expect_load(variant_expect(&v[0]));
	struct result *r[2] = { 0 };
	const char *names[2];
	int n = 0, rc;
	int compare = o->compare || o->expect_fail_without_plugin;

	if ((compare || fixes) && o->tree)
		qr_die(QR_EXIT_USAGE, "--tree names one tree; --compare needs two (use --build-root)");
	if (fixes && (compare || o->without_fixes))
		qr_die(QR_EXIT_USAGE, "--expect-fail-without-fixes builds the kernel with the fixes "
		       "and the one without: not with --compare, --expect-fail-without-plugin "
		       "or --without-fixes");
	if (!o->modules_set)
		expect_modules(e, &o->modules);
	if ((rc = run_variant(o, &v[0], e, &r[n])))
		return rc;
	names[n++] = v[0].name;
	if ((compare && v[0].use_plugin) || fixes) {
		if ((rc = run_variant(o, &v[1], e, &r[n])))
			return rc;
		names[n++] = v[1].name;
	}
	for (int i = 0; i < n; i++)
		print_details(r[i], e);
	print_summary(r, names, (size_t)n);
	if (n > 1 && !o->skip_build) {
		/* same inputs give the same stamp: else the series changed mid-run */
		const char *t0 = v[0].tree, *t1 = v[1].tree;
		char *p0 = xasprintf("%s/.qemu-run-prepared", t0), *p1 = xasprintf("%s/.qemu-run-prepared", t1);
		char *s0 = cl_read_file(p0, NULL), *s1 = cl_read_file(p1, NULL);
		if (s0 && s1 && strncmp(s0, s1, strcspn(s0, "\n") + 1) != 0)
			qr_warn("kernel/patches changed between the two builds: the columns come from "
				"different series (run again to compare like with like)");
		free(p0); free(p1); free(s0); free(s1);
	}
	rc = verdict_exit(r[0]->verdict);
	printf("qemu-run: %s kernel verdict %s\n", names[0], verdict_str(r[0]->verdict));
	if (o->expect_fail_without_plugin) {
		struct ktest *t = n > 1 ? find_suite(r[1], MUST_FAIL_SUITE) : NULL;
		if (!t) {
			qr_err("the no-plugin kernel did not run the %s suite: the test cannot show it "
			       "can fail", MUST_FAIL_SUITE);
			rc = rc ? rc : QR_EXIT_FAIL;
		} else if (t->status != KT_FAILURE) {
			qr_err("the %s suite %s on the no-plugin kernel; it must FAIL there "
			       "(%d passed, %d failed)", MUST_FAIL_SUITE, kt_status_str(t->status),
			       t->counts.passed, t->counts.failed);
			rc = rc ? rc : QR_EXIT_FAIL;
		} else {
			qr_msg("%s FAILS on the no-plugin kernel (%d of %d cases failed), as it must",
			       MUST_FAIL_SUITE, t->counts.failed,
			       t->counts.passed + t->counts.failed + t->counts.skipped);
		}
	}
	if (fixes && n > 1 && check_findings_fail(r[1]))
		rc = rc ? rc : QR_EXIT_FAIL;
	expect_free(e);
	variant_free(&v[0]);
	variant_free(&v[1]);
	return rc;
}

int main(int argc, char **argv)
{
	struct qr_opts o = { .use_plugin = 1, .llvm = "-22", .timeout = 300, .accel = "auto",
			     .memory_mb = 512 };
	const char *cmd;
	int c;

	if (argc < 2) {
		fputs(usage, stderr);
		return QR_EXIT_USAGE;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		fputs(usage, stdout);
		return 0;
	}
	optind = 2;
	while ((c = getopt_long(argc, argv, "j:vh", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_PLUGIN: o.plugin = optarg; o.use_plugin = 1; break;
		case OPT_NO_PLUGIN: o.use_plugin = 0; break;
		case OPT_IGNORELIST:
			if (!file_exists(optarg))
				qr_die(QR_EXIT_USAGE, "--ignorelist %s: no such file", optarg);
			sv_add(&o.ignorelists, abs_path(optarg));
			o.ignorelists_set = 1;
			break;
		case OPT_TREE: o.tree = optarg; break;
		case OPT_BUILD_ROOT: o.build_root = optarg; break;
		case OPT_SRC_ROOT: o.src_root = optarg; break;
		case OPT_TARBALL: o.tarball = optarg; break;
		case OPT_PATCHES: o.patches_dir = optarg; break;
		case OPT_CONFIGS: o.configs_dir = optarg; break;
		case OPT_WITHOUT_REFACTORS: o.without_refactors = 1; break;
		case OPT_WITHOUT_FIXES: o.without_fixes = 1; break;
		case OPT_EXPECT_FAIL_FIXES: o.expect_fail_without_fixes = 1; break;
		case OPT_FINDINGS_FAIL: o.findings_must_fail = 1; break;
		case OPT_LLVM: o.llvm = optarg; break;
		case OPT_CC_WRAPPER: o.cc_wrapper = check_cc_wrapper(optarg); break;
		case OPT_KCFLAGS: o.kcflags = optarg; break;
		case OPT_LOCK: o.lock_file = optarg; break;
		case 'j': o.jobs = (int)parse_num("-j", optarg); break;
		case OPT_KERNEL: o.kernel = abs_path(optarg); break;
		case OPT_TIMEOUT:
			o.timeout = parse_num("--timeout", optarg);
			o.timeout_set = 1;
			break;
		case OPT_ACCEL:
			if (strcmp(optarg, "auto") && strcmp(optarg, "kvm") && strcmp(optarg, "tcg"))
				qr_die(QR_EXIT_USAGE, "--accel wants auto, kvm or tcg");
			o.accel = optarg;
			break;
		case OPT_REPROBE: o.reprobe_kvm = 1; break;
		case OPT_MEMORY:
			o.memory_mb = (int)parse_num("--memory", optarg);
			o.memory_set = 1;
			break;
		case OPT_MODULE: sv_add(&o.modules, optarg); o.modules_set = 1; break;
		case OPT_APPEND: sv_add(&o.append, optarg); break;
		case OPT_LOG_DIR: o.log_dir = optarg; break;
		case OPT_EXPECT: o.expect = optarg; break;
		case OPT_STRICT: o.strict = 1; break;
		case OPT_COMPARE: o.compare = 1; break;
		case OPT_EXPECT_FAIL: o.expect_fail_without_plugin = 1; break;
		case OPT_NO_BUILD: o.skip_build = 1; break;
		case OPT_SYSTEM_MAP: o.system_map = optarg; break;
		case OPT_SITES: o.sites = 1; break;
		case OPT_KTAP_COUNTS: o.ktap_counts = 1; break;
		case OPT_PROFILE: o.profile = optarg; break;
		case OPT_ARCH: o.arch_name = optarg; break;
		case OPT_BUSYBOX: o.busybox = optarg; break;
		case 'v': qr_verbose = 1; break;
		case 'h': fputs(usage, stdout); return 0;
		default: fputs("try: qemu-run --help\n", stderr); return QR_EXIT_USAGE;
		}
	}
	/* The kernel's make must see only the variables qemu-run gives it: not
	 * those of a make that runs qemu-run (make boot ARCH=arm64 PROFILE=...
	 * puts them in MAKEFLAGS), nor that make's jobserver. */
	unsetenv("MAKEFLAGS");
	unsetenv("MFLAGS");
	unsetenv("MAKELEVEL");
	unsetenv("MAKEOVERRIDES");
	/* line-buffered: a harness killed from outside keeps what it printed */
	setvbuf(stdout, NULL, _IOLBF, 0);
	finish_opts(&o);
	/* a profile asked for by name is checked at once, whatever the command;
	 * the default one is read only for the commands that need it (the
	 * others work without one), and what is wrong with it is said where
	 * a stage first needs it (variant_profile()) */
	const struct qr_profile *prof = o.profile ? profile_load(&o, o.profile) : NULL;
	char *prof_error = NULL;
	if (!o.profile)
		o.profile = QR_DEFAULT_PROFILE;
	sv_add(&o.append, "printk.devkmsg=on");
	struct variant v;

	if (!strcmp(cmd, "parse")) {
		if (!prof && !o.expect)   /* for its expectations */
			prof = profile_read(&o, o.profile, &prof_error);
		variant_init(&v, &o, prof, prof_error, o.use_plugin);
		return do_parse(&o, &v, argv + optind, argc - optind);
	}
	if (optind < argc)
		qr_die(QR_EXIT_USAGE, "%s: unexpected argument '%s'", cmd, argv[optind]);
	if (!prof && (!strcmp(cmd, "run") || !strcmp(cmd, "config") || !strcmp(cmd, "boot")))
		prof = profile_read(&o, o.profile, &prof_error);
	if (!strcmp(cmd, "run"))
		return do_run(&o, prof, prof_error);

	variant_init(&v, &o, prof, prof_error, o.use_plugin);
	if (!strcmp(cmd, "prepare"))
		return stage_prepare(&o, &v);
	if (!strcmp(cmd, "config"))
		return stage_config(&o, &v);
	if (!strcmp(cmd, "build"))
		return stage_build(&o, &v, NULL);
	if (!strcmp(cmd, "boot")) {
		char *log = NULL;
		struct boot_facts f;
		if (!o.modules_set) {
			struct expect *e = expect_load(variant_expect(&v));
			expect_modules(e, &o.modules);
			expect_free(e);
		}
		int rc = stage_boot(&o, &v, o.kernel && !o.tree ? NULL : v.tree, o.kernel, &log, &f);
		if (!rc) {
			printf("qemu-run: console log %s (%.1f s%s); judge it with: qemu-run parse %s\n",
			       log, f.boot_seconds, f.timed_out ? ", timed out" : "", log);
			boot_facts_free(&f);
		}
		return rc;
	}
	qr_die(QR_EXIT_USAGE, "unknown command '%s' (try: qemu-run --help)", cmd);
}
