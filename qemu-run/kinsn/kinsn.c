/* kinsn: a QEMU TCG plugin that counts the guest instructions executed in
 * kernel mode, between marks the guest sets (bench/runtime-cost.sh).
 *
 * Kernel mode is told from the address: a 64-bit Linux guest (x86_64,
 * arm64) runs its kernel, and only its kernel, in the upper half of the
 * address space. A translation block lies in one page, so each block is
 * counted as a whole, kernel or user, by an inline add when it starts
 * (a block that faults half way counts whole: the same every time).
 *
 * The guest marks an interval with a no-op QEMU never executes otherwise:
 * "nopl 0x57a10e01(%rax)" (0f 1f 80 01 0e a1 57) begins one, displacement
 * ...02 ends it (qemu-run-init's `measure` runs a command between the
 * two). At each end the plugin prints, through QEMU's log (-d plugin):
 *
 *   kinsn: interval N kernel K user U
 *
 * the instructions of each mode since the matching begin, N counting the
 * intervals from 1; at exit "kinsn: total kernel K user U". An end without
 * a begin prints "kinsn: interval N unmatched end".
 *
 * The counters are plain (inline adds are not atomic): run QEMU with one
 * TCG thread, as -icount does (qemu-run's `count-insns` profile line). */
#include "qemu_plugin_abi.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static uint64_t kernel_insns, user_insns;
static uint64_t begin_kernel, begin_user;
static int in_interval;
static unsigned long intervals;

/* the mark: nopl 0x57a10eNN(%rax) */
static const unsigned char mark_prefix[3] = {0x0f, 0x1f, 0x80};
static const unsigned char mark_tag[3] = {0x0e, 0xa1, 0x57};
enum { MARK_BEGIN = 1, MARK_END = 2 };

static void on_mark(unsigned int vcpu, void *udata)
{
	char line[128];

	(void)vcpu;
	if ((uintptr_t)udata == MARK_BEGIN) {
		begin_kernel = kernel_insns;
		begin_user = user_insns;
		in_interval = 1;
		return;
	}
	intervals++;
	if (!in_interval)
		snprintf(line, sizeof(line), "kinsn: interval %lu unmatched end\n", intervals);
	else
		snprintf(line, sizeof(line), "kinsn: interval %lu kernel %" PRIu64 " user %" PRIu64 "\n",
			 intervals, kernel_insns - begin_kernel, user_insns - begin_user);
	in_interval = 0;
	qemu_plugin_outs(line);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	int kernel = qemu_plugin_tb_vaddr(tb) >> 63;

	(void)id;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 kernel ? &kernel_insns : &user_insns, n);
	if (kernel)
		return;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const unsigned char *d = qemu_plugin_insn_data(insn);

		if (qemu_plugin_insn_size(insn) != 7 || memcmp(d, mark_prefix, 3) != 0 ||
		    memcmp(d + 4, mark_tag, 3) != 0 || (d[3] != MARK_BEGIN && d[3] != MARK_END))
			continue;
		qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark, QEMU_PLUGIN_CB_NO_REGS,
						       (void *)(uintptr_t)d[3]);
	}
}

static void on_qemu_exit(qemu_plugin_id_t id, void *udata)
{
	char line[128];

	(void)id;
	(void)udata;
	snprintf(line, sizeof(line), "kinsn: total kernel %" PRIu64 " user %" PRIu64 "\n",
		 kernel_insns, user_insns);
	qemu_plugin_outs(line);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	(void)argv;
	if (argc > 0) {
		fprintf(stderr, "kinsn: takes no arguments\n");
		return -1;
	}
	if (!info->system_emulation) {
		fprintf(stderr, "kinsn: counts kernel-mode instructions: system emulation only\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, on_qemu_exit, NULL);
	return 0;
}
