/* qemu-run workload: the guest's BusyBox (Debian's busybox-static) and the
 * ext4 disk image it works on, made with mke2fs -d at boot time (no root, no
 * loop device). The image is written under a temporary name and renamed, so
 * a failed mke2fs never leaves an image that looks made. */
#define _GNU_SOURCE
#include "qemu_run.h"

#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DISK_SIZE "64M"
/* seed.txt holds the numbers 1..SEED_LINES, one a line: the guest makes the
 * same text with `seq` and compares checksums (workload.sh, step mount). */
#define SEED_LINES 20000

/* Reads the arch's BusyBox (o->busybox: Debian's busybox-static); refuses one
 * of another architecture or one that needs a dynamic loader the guest lacks. */
char *workload_busybox(const struct qr_opts *o, const struct variant *v, size_t *len)
{
	const char *bb = o->busybox;
	char *b = cl_read_file(bb, len);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)b;

	if (!b) {
		qr_err("cannot read the %s BusyBox %s: %s (%s)", v->arch->name, bb, cl_read_error(),
		       v->arch->busybox_hint);
		return NULL;
	}
	if (*len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_machine != v->arch->elf_machine ||
	    eh->e_phoff > *len || eh->e_phnum > (*len - eh->e_phoff) / sizeof(Elf64_Phdr)) {
		qr_err("%s is not a 64-bit %s ELF executable, which the %s guest needs (%s)", bb,
		       v->arch->elf_name, v->arch->name, v->arch->busybox_hint);
		free(b);
		return NULL;
	}
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(b + eh->e_phoff) + i;
		if (ph->p_type == PT_INTERP) {
			qr_err("%s is dynamically linked; the guest has no libc: it needs "
			       "busybox-static (%s)", bb, v->arch->busybox_hint);
			free(b);
			return NULL;
		}
	}
	return b;
}

static const char *find_mke2fs(void)
{
	static const char *const cands[] = { "/usr/sbin/mke2fs", "/sbin/mke2fs" };
	for (size_t i = 0; i < sizeof(cands) / sizeof(cands[0]); i++)
		if (access(cands[i], X_OK) == 0)
			return cands[i];
	return "mke2fs";   /* from PATH, or a clear "cannot run" */
}

/* Makes <state>/<name>.ext4 from a fresh <state>/<name>.d; *img_out on success. */
int workload_disk(const struct qr_opts *o, const char *name, char **img_out)
{
	char *dir = xasprintf("%s/%s.d", o->state_dir, name);
	char *seed = xasprintf("%s/seed.txt", dir);
	char *img = xasprintf("%s/%s.ext4", o->state_dir, name);
	char *tmp = xasprintf("%s.tmp", img);
	char *argv[] = { (char *)find_mke2fs(), "-q", "-F", "-t", "ext4", "-L", "wrapidiom",
			 "-d", dir, tmp, DISK_SIZE, NULL };
	struct sbuf b = {0}, out = {0};
	int rc = -1;

	rm_rf(dir);
	unlink(img);
	unlink(tmp);
	if (mkdir_p(dir) < 0) {
		qr_err("cannot create %s: %s", dir, strerror(errno));
		goto out;
	}
	for (int i = 1; i <= SEED_LINES; i++)
		sb_addf(&b, "%d\n", i);
	if (write_file(seed, b.s, b.len) < 0) {
		qr_err("cannot write %s: %s", seed, strerror(errno));
		goto out;
	}
	print_cmd(argv, NULL);
	int st = run_cmd(argv, NULL, &out);
	if (st != 0) {
		if (st < 0)
			qr_err("cannot make the workload disk image %s: %s could not be started "
			       "(scripts/deps.sh kernel installs e2fsprogs)", img, argv[0]);
		else
			qr_err("cannot make the workload disk image %s: %s failed (exit %d)%s%s", img,
			       argv[0], st, out.s ? ":\n" : "", out.s ? out.s : "");
		unlink(tmp);
		goto out;
	}
	if (rename(tmp, img) < 0) {
		qr_err("cannot rename %s to %s: %s", tmp, img, strerror(errno));
		unlink(tmp);
		goto out;
	}
	qr_msg("boot: workload disk %s (ext4, %s, seed %s)", img, DISK_SIZE, seed);
	*img_out = img;
	img = NULL;
	rc = 0;
out:
	sb_free(&b);
	sb_free(&out);
	free(dir);
	free(seed);
	free(img);
	free(tmp);
	return rc;
}
