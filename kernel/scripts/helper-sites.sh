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

[ $compile = 1 ] && sites_compile "BLOCK EXT4_FS VIRTUALIZATION KVM KVM_INTEL" arch/x86/kvm/x86.o fs/ext4/resize.o

# --- the table ---------------------------------------------------------------
# file|the test as written (its first line): kvm_emulate_hypercall()'s
# KVM_HC_MAP_GPA_RANGE, ext4_group_add()'s two overflow tests
SITES='arch/x86/kvm/x86.c|gpa_to_gfn(gpa) + npages <= gpa_to_gfn(gpa)
fs/ext4/resize.c|ext4_blocks_count(es) + input->blocks_count <
fs/ext4/resize.c|le32_to_cpu(es->s_inodes_count) + EXT4_INODES_PER_GROUP(sb) <'

sites_table <<<"$SITES" >"$OUT/table.md"
cat "$OUT/table.md"
[ -e "$OUT/.bad" ] && exit 1
exit 0
