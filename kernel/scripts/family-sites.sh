#!/bin/bash
# family-sites.sh - the kernel shapes of issue 24's families, compiled with
# the plugin.
#
# Usage: kernel/scripts/family-sites.sh [--table-only]
#
# Issue 24 asks that each family of handled wraps it names be proved on the
# kernel's own code, not only on lit tests: the signed file ranges of
# sync_file_range() and generic_fadvise(), do_mmap()'s PAGE_ALIGN() zero
# test with other tests between, and the read-around's sign guard. This
# script prepares a 6.12 tree with the series (qemu-run prepare), the
# harness's config (qemu-run config: the wrap sanitizers, signed and
# pointer included, and the plugin), runs `make prepare`, and compiles only
# the sites' files with -Rpass=wrap-idiom -Rpass-missed=wrap-idiom, no
# ignorelist: no kernel build. It prints for each site the plugin's
# decision (the idiom that removed its check), and for each file how many
# of its other checks were kept and removed. The helper family has its own
# script (helper-sites.sh).
#
# --table-only: no compiling, the table from the remarks of an earlier run.
# The kernel makes run holding $KBUILD_LOCK, taken once. Output: a Markdown
# table on stdout and in $OUT/table.md, the remarks in $OUT/*.remarks. Exit
# status: 0 every site's check removed, 1 one kept or missing, 2 a step
# failed.
#
# Environment: BUILD (build), PLUGIN ($BUILD/llvm-pass/WrapIdiom.so),
# KBUILD_LOCK ($BUILD/.kbuild.lock, as qemu-run's; users sharing a machine
# export one), LLVM (-22), JOBS (nproc).
set -u

here=$(cd "$(dirname "$0")" && pwd)
SITES_NAME=family-sites
. "$here/sites-env.sh"
OUT=$BUILD/family-sites
TREE=$BUILD/linux-6.12-families
sites_options -- "$@"
sites_need qr plugin
mkdir -p "$OUT"

[ $compile = 1 ] && sites_compile "ADVISE_SYSCALLS UBSAN_SIGNED_WRAP" fs/sync.o mm/fadvise.o mm/mmap.o mm/filemap.o

# --- the table ---------------------------------------------------------------
# file|the test as written (its first line)|the token at the check's column
# (the first '+' when none): fs/sync.c sync_file_range()'s loff_t
# `offset + nbytes`, only offset's sign tested (a wrap up, to the negative
# results `endbyte < 0` turns away); mm/fadvise.c generic_fadvise()'s u64
# sum compared signed with len >= 0; mm/mmap.c do_mmap()'s PAGE_ALIGN(len)
# with the bound test before `if (!len)`; mm/filemap.c
# do_sync_mmap_readahead()'s max_t(long, 0, pgoff - ra_pages / 2).
SITES='fs/sync.c|endbyte = offset + nbytes
mm/fadvise.c|endbyte = (u64)offset + (u64)len
mm/mmap.c|len = PAGE_ALIGN(len);|PAGE_ALIGN
mm/filemap.c|ra->start = max_t(long, 0, vmf->pgoff - ra->ra_pages / 2);|- ra'

sites_table <<<"$SITES" >"$OUT/table.md"
cat "$OUT/table.md"
[ -e "$OUT/.bad" ] && exit 1
exit 0
