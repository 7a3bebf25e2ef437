/* qemu-run architectures: everything that differs between the x86_64 and
 * the arm64 kernels it builds and boots, in one table. Profiles choose
 * configs per architecture with KEY@ARCH lines (profile.c); nothing else in
 * qemu-run names an architecture. */
#define _GNU_SOURCE
#include "qemu_run.h"

#include <elf.h>
#include <string.h>
#include <sys/utsname.h>

static const struct qr_arch arches[] = {
	{
		.name = "x86_64",
		.karch = "x86_64",
		.image_target = "bzImage",
		.image = "arch/x86/boot/bzImage",
		.qemu = "qemu-system-x86_64",
		.qemu_hint = "scripts/deps.sh kernel installs qemu-system-x86",
		/* No "-cpu host": on the development machine it makes QEMU 7.2
		 * abort on an MSR. The default machine (pc) has the 8250. */
		.machine = { NULL },
		/* Each CPU its own socket: QEMU 7.2's "-smp 2" is one socket of
		 * two cores, SeaBIOS's MP table lists one CPU per socket, and a
		 * kernel without ACPI (the tinyconfig-based ones) learns of the
		 * others only from that table: it booted on one CPU. */
		.socket_per_cpu = 1,
		.console = "ttyS0",
		.elf_machine = EM_X86_64,
		.elf_name = "x86_64",
		.uname = "x86_64",
		.init = "qemu-run-init",
		.init_hint = "cmake --build builds it",
		.busybox = "/bin/busybox",
		.busybox_hint = "scripts/deps.sh kernel installs Debian's busybox-static",
	},
	{
		.name = "arm64",
		.karch = "arm64",
		.image_target = "Image",
		.image = "arch/arm64/boot/Image",
		.qemu = "qemu-system-aarch64",
		.qemu_hint = "scripts/deps.sh arm64 installs qemu-system-arm",
		/* virt: PL011 console, GICv3, PSCI reset (which -no-reboot turns
		 * into QEMU's exit), PCIe for virtio. */
		.machine = { "-M", "virt", "-cpu", "max", NULL },
		.console = "ttyAMA0",
		.elf_machine = EM_AARCH64,
		.elf_name = "AArch64",
		.uname = "aarch64",
		.init = "qemu-run-init-arm64",
		.init_hint = "scripts/deps.sh arm64 installs the cross compiler "
			     "gcc-aarch64-linux-gnu; then re-run cmake -S . -B <build> and "
			     "cmake --build",
		/* busybox-static:arm64 cannot be installed beside the amd64 one
		 * (same files, no Multi-Arch): its .deb is unpacked under <build>. */
		.busybox = "deps/busybox-static_arm64/bin/busybox",
		.busybox_hint = "make busybox-arm64 unpacks Debian's busybox-static:arm64 there "
				"(scripts/fetch-deb.sh)",
	},
};

#define N_ARCHES (sizeof(arches) / sizeof(arches[0]))

int arch_known(const char *name)
{
	for (size_t i = 0; i < N_ARCHES; i++)
		if (!strcmp(arches[i].name, name))
			return 1;
	return 0;
}

const char *arch_names(void)
{
	static char buf[64];
	if (!buf[0])
		for (size_t i = 0; i < N_ARCHES; i++) {
			if (i)
				strcat(buf, " ");
			strcat(buf, arches[i].name);
		}
	return buf;
}

const struct qr_arch *arch_get(const char *name)
{
	for (size_t i = 0; i < N_ARCHES; i++)
		if (!strcmp(arches[i].name, name))
			return &arches[i];
	qr_die(QR_EXIT_USAGE, "unknown architecture '%s' (known: %s)", name, arch_names());
}

const struct qr_arch *arch_host(void)
{
	struct utsname u;
	if (uname(&u) < 0)
		return NULL;
	for (size_t i = 0; i < N_ARCHES; i++)
		if (!strcmp(arches[i].uname, u.machine))
			return &arches[i];
	return NULL;
}
