#!/bin/bash
# helper-sites.sh - the kernel sites whose repeated operand a helper or a
# second load computes (issue 12), compiled with the plugin.
#
# Usage: kernel/scripts/helper-sites.sh [--table-only]
#
# Of the 2024 series' sites and the Coccinelle findings, three wrap tests
# compute the operand they compare with twice: through a static inline
# helper (gpa_to_gfn(), ext4_blocks_count()) or as two loads of one field
# with a helper call between them (EXT4_SB()). This script prepares a 6.12
# tree with the series (qemu-run prepare), the harness's config
# (qemu-run config) with the block layer, ext4 and KVM added (tinyconfig
# has none of them), runs `make prepare`, and compiles only the two files
# with the plugin, the wrap sanitizers and -Rpass=wrap-idiom
# -Rpass-missed=wrap-idiom, no ignorelist: no kernel build. It prints for
# each site the plugin's decision, and for each file how many of its other
# checks were kept and removed.
#
# --table-only: no compiling, the table from the remarks of an earlier run.
# The kernel makes run holding $KBUILD_LOCK, taken once. Output: a Markdown table on
# stdout and in $OUT/table.md, the remarks in $OUT/*.remarks. Exit status:
# 0 every site's check removed, 1 one kept or missing, 2 a step failed.
#
# Environment: BUILD (build), PLUGIN ($BUILD/llvm-pass/WrapIdiom.so),
# KBUILD_LOCK ($BUILD/.kbuild.lock, as qemu-run's; users sharing a machine
# export one), LLVM (-22), JOBS (nproc).
set -u

here=$(cd "$(dirname "$0")" && pwd)
SITES_NAME=helper-sites
. "$here/sites-env.sh"
OUT=$BUILD/helper-sites
TREE=$BUILD/linux-6.12-helpers
sites_options -- "$@"
sites_need qr plugin
mkdir -p "$OUT"

OBJS="arch/x86/kvm/x86.o fs/ext4/resize.o"
if [ $compile = 1 ]; then
	echo "helper-sites: tree $TREE" >&2
	"$QR" prepare --tree "$TREE" --plugin "$PLUGIN" >"$OUT/prepare.log" 2>&1 ||
		die "prepare failed, see $OUT/prepare.log"
	# Every kernel make below runs holding $KBUILD_LOCK, taken once for
	# all of them (qemu-run config gets a private lock of its own meanwhile).
	sites_lock
	(
		"$QR" config --tree "$TREE" --plugin "$PLUGIN" --lock "$OUT/config.lock" &&
			"$TREE/scripts/config" --file "$TREE/.config" -e BLOCK -e EXT4_FS \
				-e VIRTUALIZATION -e KVM -e KVM_INTEL &&
			kmake "$TREE" olddefconfig
	) >"$OUT/config.log" 2>&1 || die "config failed, see $OUT/config.log"
	for sym in BLOCK EXT4_FS KVM KVM_INTEL UBSAN_UNSIGNED_WRAP UBSAN_WRAP_IDIOM; do
		grep -q "^CONFIG_$sym=y" "$TREE/.config" ||
			die "$TREE/.config lacks CONFIG_$sym=y (see $OUT/config.log)"
	done
	kmake "$TREE" prepare >"$OUT/kprepare.log" 2>&1 || die "make prepare failed, see $OUT/kprepare.log"
	for o in $OBJS; do
		rm -f "$TREE/$o"
		kmake "$TREE" UBSAN_SANITIZE=y KCFLAGS="$REMARKS" "$o" >"$OUT/$(basename "$o" .o).remarks" 2>&1 ||
			die "compiling $o failed, see $OUT/$(basename "$o" .o).remarks"
	done
	sites_unlock
fi

# --- the table ---------------------------------------------------------------
# file|the test as written (its first line): kvm_emulate_hypercall()'s
# KVM_HC_MAP_GPA_RANGE, ext4_group_add()'s two overflow tests
SITES='arch/x86/kvm/x86.c|gpa_to_gfn(gpa) + npages <= gpa_to_gfn(gpa)
fs/ext4/resize.c|ext4_blocks_count(es) + input->blocks_count <
fs/ext4/resize.c|le32_to_cpu(es->s_inodes_count) + EXT4_INODES_PER_GROUP(sb) <'

sites_table "$TREE" <<<"$SITES" >"$OUT/table.md"
cat "$OUT/table.md"
[ -e "$OUT/.bad" ] && exit 1
exit 0
