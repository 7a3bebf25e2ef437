/* qemu-run boot: initramfs (cpio newc, written here), KVM detection by a real
 * test boot, QEMU with a timeout, the console log and its .meta sidecar. */
#define _GNU_SOURCE
#include "parse.h"
#include "qemu_run.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KVM_PROBE_TIMEOUT 20.0
#define INIT_DONE "qemu-run-init: done"
#define WORKLOAD_PATH "/workload.sh"

/* ---- cpio newc ---- */

struct cpio {
	struct sbuf b;
	unsigned ino;
};

static void cpio_pad(struct cpio *c)
{
	while (c->b.len % 4)
		sb_addn(&c->b, "", 1);
}

static void cpio_entry(struct cpio *c, const char *name, unsigned mode, unsigned rmaj,
		       unsigned rmin, const char *data, size_t size)
{
	size_t nl = strlen(name) + 1;
	sb_addf(&c->b, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
		++c->ino, mode, 0u, 0u, (mode & S_IFMT) == S_IFDIR ? 2u : 1u, 0u, size, 0u, 0u, rmaj,
		rmin, nl, 0u);
	sb_addn(&c->b, name, nl);
	cpio_pad(c);
	if (size)
		sb_addn(&c->b, data, size);
	cpio_pad(c);
}

static struct strv *found_ko;

static int collect_ko(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)f;
	if (flag == FTW_F && ends_with(path, ".ko"))
		sv_add(found_ko, path);
	return 0;
}

/* The profile's guest-tools: scripts/guest-tools.sh stages them with their
 * libraries under <build>/deps/guest-tools-<arch> (run every time: when the
 * staged package versions are current it downloads nothing), and every file
 * of that tree goes into the initramfs as it is. */
static struct cpio *tools_cpio;
static size_t tools_prefix;
static int tools_failed;

static int add_tool_file(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	const char *rel = path + tools_prefix;
	size_t len;
	char *data;

	(void)f;
	while (*rel == '/')
		rel++;
	if (!*rel || !strcmp(rel, ".guest-tools"))
		return 0;
	if (flag == FTW_D) {
		cpio_entry(tools_cpio, rel, S_IFDIR | 0755, 0, 0, NULL, 0);
		return 0;
	}
	if (flag != FTW_F) {   /* the staging writes regular files only */
		qr_err("guest tools: %s is not a regular file", path);
		tools_failed = 1;
		return 1;
	}
	data = cl_read_file(path, &len);
	if (!data) {
		qr_err("cannot read %s: %s", path, strerror(errno));
		tools_failed = 1;
		return 1;
	}
	cpio_entry(tools_cpio, rel, S_IFREG | (st->st_mode & 0755), 0, 0, data, len);
	free(data);
	return 0;
}

static int add_guest_tools(const struct qr_opts *o, const struct variant *v, struct cpio *c)
{
	const struct strv *tools = &v->prof->guest_tools;
	char *dir = xasprintf("%s/deps/guest-tools-%s", o->build_root, v->arch->name);
	char *script = xasprintf("%s/scripts/guest-tools.sh", o->src_root);
	struct strv argv = {0};
	int rc;

	sv_add(&argv, "sh");
	sv_add(&argv, script);
	sv_add(&argv, v->arch->name);
	sv_add(&argv, dir);
	for (size_t i = 0; i < tools->n; i++)
		sv_add(&argv, tools->v[i]);
	print_cmd(argv.v, NULL);
	rc = run_cmd(argv.v, NULL, NULL);
	sv_free(&argv);
	if (rc != 0) {
		qr_err("cannot stage the guest tools of profile %s in %s (%s exit %d)",
		       v->prof->name, dir, script, rc);
		free(dir);
		free(script);
		return -1;
	}
	tools_cpio = c;
	tools_prefix = strlen(dir);
	tools_failed = 0;
	if (nftw(dir, add_tool_file, 32, FTW_PHYS) != 0 && !tools_failed) {
		qr_err("cannot walk %s: %s", dir, strerror(errno));
		tools_failed = 1;
	}
	tools_cpio = NULL;
	free(script);
	free(dir);
	return tools_failed ? -1 : 0;
}

/* Writes the initramfs: /init, /dev/console, /lib/modules/<name>.ko for each
 * module /init is to load (o->modules, found in tree; tree may be NULL), the
 * workload and its tools. Only those: arm64's defconfig builds some 800
 * modules, hundreds of MB that no boot loads. */
static int make_initramfs(const struct qr_opts *o, const struct variant *v, const char *tree,
			  const char *out)
{
	struct cpio c = {0};
	struct strv kos = {0};
	size_t len;
	char *init = cl_read_file(o->init_binary, &len);
	int rc;

	if (!init) {
		qr_err("cannot read the %s guest init %s: %s (%s)", v->arch->name, o->init_binary,
		       strerror(errno), v->arch->init_hint);
		return -1;
	}
	cpio_entry(&c, "dev", S_IFDIR | 0755, 0, 0, NULL, 0);
	cpio_entry(&c, "dev/console", S_IFCHR | 0600, 5, 1, NULL, 0);
	cpio_entry(&c, "proc", S_IFDIR | 0755, 0, 0, NULL, 0);
	cpio_entry(&c, "sys", S_IFDIR | 0755, 0, 0, NULL, 0);
	cpio_entry(&c, "lib", S_IFDIR | 0755, 0, 0, NULL, 0);
	cpio_entry(&c, "lib/modules", S_IFDIR | 0755, 0, 0, NULL, 0);
	cpio_entry(&c, "init", S_IFREG | 0755, 0, 0, init, len);
	free(init);
	if (variant_profile(v)->workload) {
		/* BusyBox installs its applet links in /bin at the start of the workload */
		char *bb = workload_busybox(o, v, &len), *script;
		if (!bb)
			return -1;
		cpio_entry(&c, "bin", S_IFDIR | 0755, 0, 0, NULL, 0);
		cpio_entry(&c, "sbin", S_IFDIR | 0755, 0, 0, NULL, 0);
		cpio_entry(&c, "tmp", S_IFDIR | 01777, 0, 0, NULL, 0);
		cpio_entry(&c, "bin/busybox", S_IFREG | 0755, 0, 0, bb, len);
		free(bb);
		script = cl_read_file(v->prof->workload, &len);
		if (!script) {
			qr_err("cannot read the workload %s: %s", v->prof->workload, strerror(errno));
			return -1;
		}
		cpio_entry(&c, WORKLOAD_PATH + 1, S_IFREG | 0755, 0, 0, script, len);
		free(script);
		if (v->prof->guest_tools.n && add_guest_tools(o, v, &c) < 0)
			return -1;
	}
	if (tree && o->modules.n) {
		found_ko = &kos;
		nftw(tree, collect_ko, 32, FTW_PHYS);
		found_ko = NULL;
	}
	for (size_t m = 0; m < o->modules.n; m++) {
		const char *path = NULL;
		for (size_t i = 0; i < kos.n && !path; i++) {
			const char *base = strrchr(kos.v[i], '/') + 1;
			size_t n = strlen(o->modules.v[m]);
			if (!strncmp(base, o->modules.v[m], n) && !strcmp(base + n, ".ko"))
				path = kos.v[i];
		}
		if (!path) {
			qr_err("module %s: no %s.ko in %s (is it built, CONFIG_...=m?)",
			       o->modules.v[m], o->modules.v[m], tree ? tree : "the kernel's tree");
			return -1;
		}
		char *data = cl_read_file(path, &len);
		char *name = xasprintf("lib/modules/%s.ko", o->modules.v[m]);
		if (!data) {
			qr_err("cannot read %s: %s", path, strerror(errno));
			return -1;
		}
		cpio_entry(&c, name, S_IFREG | 0644, 0, 0, data, len);
		free(data);
		free(name);
	}
	cpio_entry(&c, "TRAILER!!!", 0, 0, 0, NULL, 0);
	rc = write_file(out, c.b.s, c.b.len);
	if (rc < 0)
		qr_err("cannot write %s: %s", out, strerror(errno));
	else
		qr_msg("boot: initramfs %s (%zu bytes, %zu modules)", out, c.b.len, o->modules.n);
	sv_free(&kos);
	sb_free(&c.b);
	return rc;
}

/* ---- QEMU ---- */

struct qemu_res {
	double seconds;
	int timed_out;
	int status;     /* exit status of QEMU, 128+sig when killed */
};

static int run_qemu(const struct qr_arch *arch, const char *kernel, const char *initrd,
		    const char *disk, const char *cmdline, const char *accel, int mem_mb,
		    int smp, double timeout, const char *log, const char *kinsn,
		    const char *insns_log, struct qemu_res *r)
{
	struct strv a = {0};
	char *errlog = xasprintf("%s.qemu-stderr", log);
	pid_t pid;
	double t0;
	int st = 0;

	sv_add(&a, arch->qemu);
	for (size_t i = 0; arch->machine[i]; i++)
		sv_add(&a, arch->machine[i]);
	sv_add(&a, "-nographic");
	sv_add(&a, "-no-reboot");
	sv_add(&a, "-monitor");
	sv_add(&a, "none");
	sv_add(&a, "-m");
	sv_addf(&a, "%d", mem_mb);
	sv_add(&a, "-smp");
	if (arch->socket_per_cpu && smp > 1)
		sv_addf(&a, "%d,sockets=%d", smp, smp);
	else
		sv_addf(&a, "%d", smp > 0 ? smp : 1);
	sv_add(&a, "-accel");
	sv_add(&a, accel);
	if (kinsn) {
		/* Guest time from the instruction count (1 ns an instruction, no
		 * sleeping when idle): timer interrupts come after so many
		 * instructions, not after so many host seconds, so a slower
		 * kernel does not get more of them; and one TCG thread, so the
		 * plugin's counters need no atomics. */
		sv_add(&a, "-icount");
		sv_add(&a, "shift=0,sleep=off");
		sv_add(&a, "-plugin");
		sv_add(&a, kinsn);
		sv_add(&a, "-d");
		sv_add(&a, "plugin");
		sv_add(&a, "-D");
		sv_add(&a, insns_log);
		unlink(insns_log);
	}
	/* No network outside the guest: no NIC at all (the workload uses lo). */
	sv_add(&a, "-nic");
	sv_add(&a, "none");
	if (disk) {
		sv_add(&a, "-drive");
		sv_addf(&a, "file=%s,format=raw,if=virtio", disk);
	}
	sv_add(&a, "-kernel");
	sv_add(&a, kernel);
	sv_add(&a, "-initrd");
	sv_add(&a, initrd);
	sv_add(&a, "-append");
	sv_add(&a, cmdline);
	sv_add(&a, "-serial");
	sv_addf(&a, "file:%s", log);
	unlink(log);
	print_cmd(a.v, NULL);
	int out = open(errlog, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0)
		qr_die(QR_EXIT_FAIL, "cannot write %s: %s", errlog, strerror(errno));
	t0 = now_seconds();
	pid = spawn(a.v, NULL, out, 1);
	close(out);
	if (pid < 0)
		qr_die(QR_EXIT_FAIL, "fork: %s", strerror(errno));
	memset(r, 0, sizeof(*r));
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			break;
		if (!r->timed_out && now_seconds() - t0 > timeout) {
			r->timed_out = 1;
			kill(pid, SIGTERM);
			for (int i = 0; i < 60 && waitpid(pid, &st, WNOHANG) == 0; i++)
				usleep(50000);
			if (waitpid(pid, &st, WNOHANG) == 0) {
				kill(pid, SIGKILL);
				waitpid(pid, &st, 0);
			}
			break;
		}
		usleep(50000);
	}
	r->seconds = now_seconds() - t0;
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	if (!r->timed_out && r->status != 0) {
		char *e = cl_read_file(errlog, NULL);
		qr_warn("%s exited with status %d%s%s", arch->qemu, r->status, e && *e ? ":\n" : "",
			e ? e : "");
		free(e);
	}
	{       /* keep QEMU's own output only when it said something */
		struct stat st;
		if (stat(errlog, &st) == 0 && st.st_size == 0)
			unlink(errlog);
	}
	sv_free(&a);
	free(errlog);
	return 0;
}

static int log_contains(const char *log, const char *needle)
{
	char *t = cl_read_file(log, NULL);
	int r = t && strstr(t, needle);
	free(t);
	return r;
}

/* "kvm" or "tcg": a working KVM is one whose guest reaches /init and prints a
 * marker within KVM_PROBE_TIMEOUT. The answer is cached in state_dir. */
static const char *pick_accel(const struct qr_opts *o, const struct variant *v, const char *kernel,
			      const char *initrd)
{
	char *cache = xasprintf("%s/kvm-probe", o->state_dir);
	char *c = o->reprobe_kvm ? NULL : cl_read_file(cache, NULL);
	const char *res = "tcg";

	if (v->prof->count_insns) {
		/* instructions are counted by a TCG plugin, and -icount is TCG's */
		free(cache);
		if (!strcmp(o->accel, "kvm"))
			qr_die(QR_EXIT_USAGE, "--accel kvm: profile %s counts instructions "
			       "(count-insns), which only TCG can", v->prof->name);
		return "tcg";
	}
	if (strcmp(o->accel, "auto") != 0) {
		free(cache);
		return o->accel;
	}
	if (arch_host() != v->arch) {
		qr_msg("boot: accelerator tcg (%s guest, not this machine's architecture)",
		       v->arch->name);
		free(cache);
		return "tcg";
	}
	if (c && (starts_with(c, "kvm=works") || starts_with(c, "kvm=broken"))) {
		res = starts_with(c, "kvm=works") ? "kvm" : "tcg";
		qr_msg("boot: accelerator %s (cached KVM probe in %s; --reprobe-kvm to redo)", res,
		       cache);
		free(c);
		free(cache);
		return res;
	}
	free(c);

	struct sbuf why = {0};
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		sb_addf(&why, "/dev/kvm: %s", strerror(errno));
	} else {
		char marker[64], needle[96];
		struct qemu_res r;
		char *log = xasprintf("%s/kvm-probe.log", o->state_dir);
		close(fd);
		snprintf(marker, sizeof(marker), "kvmprobe-%ld-%d", (long)time(NULL), (int)getpid());
		snprintf(needle, sizeof(needle), "qemu-run-init: marker %s", marker);
		char *cmdline = xasprintf("console=%s panic=-1 qemu_run.marker=%s",
					  v->arch->console, marker);
		qr_msg("boot: probing KVM with a %.0f s test boot (log %s)", KVM_PROBE_TIMEOUT, log);
		run_qemu(v->arch, kernel, initrd, NULL, cmdline, "kvm", 256, 1, KVM_PROBE_TIMEOUT, log,
			 NULL, NULL, &r);
		if (log_contains(log, needle)) {
			res = "kvm";
			sb_addf(&why, "test boot reached /init in %.1f s", r.seconds);
		} else {
			size_t len = 0;
			char *t = cl_read_file(log, &len);
			free(t);
			sb_addf(&why, "test boot printed %zu bytes and no marker in %.1f s%s (QEMU status %d)",
				len, r.seconds, r.timed_out ? ", timed out" : "", r.status);
		}
		free(cmdline);
		free(log);
	}
	{
		char *m = xasprintf("kvm=%s\nreason=%s\nkernel=%s\n",
				    strcmp(res, "kvm") == 0 ? "works" : "broken", why.s, kernel);
		mkdir_p(o->state_dir);
		write_file(cache, m, strlen(m));
		free(m);
	}
	qr_msg("boot: KVM %s (%s): using -accel %s", strcmp(res, "kvm") == 0 ? "works" : "unusable",
	       why.s, res);
	sb_free(&why);
	free(cache);
	return res;
}

static void link_latest(const char *dir, const char *target_base, const char *link_base)
{
	char *l = xasprintf("%s/%s", dir, link_base);
	unlink(l);
	if (symlink(target_base, l) < 0)
		qr_warn("cannot create %s: %s", l, strerror(errno));
	free(l);
}

int stage_boot(const struct qr_opts *o, const struct variant *v, const char *tree,
	       const char *kernel, char **log_out, struct boot_facts *facts)
{
	const char *variant = v->name, *sfx = v->suffix;
	/* tiny x86_64: plugin, noplugin (the old names); else workload-plugin,
	 * arm64-plugin, workload-arm64-noplugin, ... */
	char *vname = xasprintf("%s%s%s", *sfx ? sfx + 1 : "", *sfx ? "-" : "", variant);
	char *kimg = kernel ? xstrdup(kernel) : xasprintf("%s/%s", tree, v->arch->image);
	char *initrd = xasprintf("%s/initramfs-%s.cpio", o->state_dir, vname);
	char *ts = timestamp_str();
	char *base = xasprintf("%s-%s.log", ts, vname);
	char *log = xasprintf("%s/%s", o->log_dir, base);
	char *disk = NULL, *dname = xasprintf("disk-%s", vname);
	struct sbuf cmd = {0}, mods = {0};
	struct qemu_res r;
	const char *accel;
	char *insns = NULL;

	if (!file_exists(kimg))
		qr_die(QR_EXIT_FAIL, "no kernel image %s (run build first, or give --kernel)", kimg);
	if (!on_path(v->arch->qemu))
		qr_die(QR_EXIT_FAIL, "cannot run %s: not on PATH (%s)", v->arch->qemu,
		       v->arch->qemu_hint);
	if (mkdir_p(o->log_dir) < 0 || mkdir_p(o->state_dir) < 0)
		qr_die(QR_EXIT_FAIL, "cannot create %s: %s", o->log_dir, strerror(errno));
	if (make_initramfs(o, v, tree, initrd) < 0)   /* tree NULL: no modules */
		return QR_EXIT_FAIL;
	if (v->prof->workload && workload_disk(o, dname, &disk) < 0)
		return QR_EXIT_FAIL;
	accel = pick_accel(o, v, kimg, initrd);
	if (v->prof->count_insns)   /* the profile is read by now (make_initramfs) */
		insns = xasprintf("%s.insns", log);
	if (insns && !file_exists(o->kinsn_plugin))
		qr_die(QR_EXIT_FAIL, "profile %s counts instructions, but there is no TCG plugin "
		       "%s (make plugin builds it)", v->prof->name, o->kinsn_plugin);

	for (size_t i = 0; i < o->modules.n; i++)
		sb_addf(&mods, "%s%s", i ? "," : "", o->modules.v[i]);
	sb_addf(&cmd, "console=%s panic=-1 log_buf_len=64M", v->arch->console);
	if (mods.len)
		sb_addf(&cmd, " qemu_run.modules=%s", mods.s);
	if (v->prof->workload)
		sb_addf(&cmd, " qemu_run.workload=" WORKLOAD_PATH " qemu_run.workload_timeout=%.0f",
			v->timeout * 0.8);
	for (size_t i = 0; i < v->prof->append.n; i++)
		sb_addf(&cmd, " %s", v->prof->append.v[i]);
	for (size_t i = 0; i < o->append.n; i++)
		sb_addf(&cmd, " %s", o->append.v[i]);

	qr_msg("boot: %s %s kernel %s (profile %s), -accel %s, timeout %.0f s, log %s",
	       v->arch->name, variant, kimg, v->prof->name, accel, v->timeout, log);
	run_qemu(v->arch, kimg, initrd, disk, cmd.s, accel, v->memory_mb, v->prof->smp, v->timeout,
		 log, insns ? o->kinsn_plugin : NULL, insns, &r);
	if (!file_exists(log)) {
		qr_err("QEMU wrote no console log (%s)", log);
		return QR_EXIT_FAIL;
	}
	qr_msg("boot: QEMU %s after %.1f s (status %d)", r.timed_out ? "TIMED OUT" : "exited",
	       r.seconds, r.status);

	/* What the console cannot tell: returned, and kept in the .meta sidecar
	 * for a later `qemu-run parse LOG`. */
	{
		char *bm = tree ? xasprintf("%s/.qemu-run-build.meta", tree) : NULL;
		char *bt = bm ? cl_read_file(bm, NULL) : NULL;
		char *meta = xasprintf("%s.meta", log);
		char *smap = tree && !kernel ? xasprintf("%s/System.map", tree) : NULL;
		if (facts) {
			memset(facts, 0, sizeof(*facts));
			facts->timed_out = r.timed_out;
			facts->timeout = v->timeout;
			facts->boot_seconds = r.seconds;
			facts->build_seconds = -1;   /* the build stage's to give */
			facts->accel = xstrdup(accel);
			facts->system_map = smap && file_exists(smap) ? xstrdup(smap) : NULL;
		}
		char *m = xasprintf("variant=%s\nprofile=%s\narch=%s\nkernel=%s\naccel=%s\n"
				    "timeout=%.0f\nboot_seconds=%.1f\ntimed_out=%d\nqemu_status=%d\n"
				    "cmdline=%s\nsystem_map=%s\ninsns=%s\n%s",
				    variant, v->prof->name, v->arch->name, kimg, accel, v->timeout,
				    r.seconds,
				    r.timed_out, r.status,
				    cmd.s, smap && file_exists(smap) ? smap : "", insns ? insns : "",
				    bt && !kernel ? bt : "");
		free(smap);
		write_file(meta, m, strlen(m));
		char *mbase = xasprintf("%s.meta", base);
		char *lname = xasprintf("latest-%s.log", vname);
		char *lmeta = xasprintf("latest-%s.log.meta", vname);
		link_latest(o->log_dir, base, lname);
		link_latest(o->log_dir, mbase, lmeta);
		free(mbase);
		free(lname);
		free(lmeta);
		free(m);
		free(meta);
		free(bt);
		free(bm);
	}
	*log_out = log;
	sb_free(&cmd);
	sb_free(&mods);
	free(kimg);
	free(initrd);
	free(ts);
	free(base);
	free(vname);
	free(disk);
	free(insns);
	free(dname);
	return 0;
}
