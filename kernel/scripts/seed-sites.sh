#!/bin/bash
# seed-sites.sh - the original series' 13 seed sites, without its refactors.
#
# Usage: kernel/scripts/seed-sites.sh [--no-arm] [--table-only]
#
# The four optional refactor patches rewrite 13 open-coded wrap tests
# (`a + b < a` and kin). This script shows that the wrap-idiom plugin makes
# them unnecessary: it prepares a 6.12 tree with the series applied up to
# the "# optional:" marker (qemu-run prepare --without-refactors), compiles
# the files of the seed sites with the plugin, the wrap sanitizers and
# -Rpass=wrap-idiom -Rpass-missed=wrap-idiom, no ignorelist, and prints for
# every seed site the plugin's decision, and for each file how many of its
# other checks were kept and removed (the neighbours stay).
#
#   x86_64 (the harness's plugin config): fs/remap_range.c, mm/memory.c,
#     mm/mmap.c, mm/mremap.c, mm/util.c, and drivers/remoteproc/'s three
#     files as explicit targets (not configured in; see below)
#   ARM, !MMU (stm32_defconfig + UBSAN, UBSAN_UNSIGNED_WRAP and the plugin):
#     mm/nommu.c, which only builds without an MMU (--no-arm skips it)
#   arch/sh/kernel/sys_sh.c: LLVM has no SuperH backend (clang-22
#     --target=sh4-linux-gnu: "unknown target triple"), so the kernel file
#     cannot be compiled with clang at all; its test is the add-compare
#     shape lit-tests/clang/idioms.c covers, and it is reported as such.
#
# --table-only: no compiling, the table from the remarks of an earlier run.
# Every make runs under flock $KBUILD_LOCK. Output: a Markdown table on stdout and
# in $OUT/table.md, the remarks in $OUT/*.remarks. Exit status: 0 every
# seed site's check removed, 1 one kept or missing, 2 a step failed.
#
# Environment: BUILD (build), PLUGIN ($BUILD/llvm-pass/WrapIdiom.so),
# KBUILD_LOCK ($BUILD/.kbuild.lock, as qemu-run's; users sharing a machine
# export one), LLVM (-22), JOBS (nproc).
set -u

here=$(cd "$(dirname "$0")" && pwd)
SITES_NAME=seed-sites
. "$here/sites-env.sh"
OUT=$BUILD/seed-sites
X86=$BUILD/linux-6.12-seed
ARM=$BUILD/linux-6.12-seed-arm
sites_options --no-arm -- "$@"
sites_need qr plugin
mkdir -p "$OUT" "$(dirname "$KBUILD_LOCK")"

# --- x86_64 ----------------------------------------------------------------
if [ $compile = 1 ]; then
X86_OBJS="fs/remap_range.o mm/memory.o mm/mmap.o mm/mremap.o mm/util.o
drivers/remoteproc/remoteproc_elf_loader.o drivers/remoteproc/remoteproc_virtio.o
drivers/remoteproc/pru_rproc.o"
echo "seed-sites: x86_64 tree $X86 (series without the refactors)" >&2
"$QR" prepare --without-refactors --tree "$X86" --plugin "$PLUGIN" >"$OUT/prepare-x86.log" 2>&1 ||
	die "prepare failed, see $OUT/prepare-x86.log"
"$QR" config --tree "$X86" --plugin "$PLUGIN" >"$OUT/config-x86.log" 2>&1 ||
	die "config failed, see $OUT/config-x86.log"
kmake "$X86" prepare >"$OUT/kprepare-x86.log" 2>&1 || die "make prepare failed, see $OUT/kprepare-x86.log"
# Kbuild instruments only objects that go into the kernel
# (is-kernel-object); tinyconfig has no remoteproc, and the wrap sanitizers
# depend on !COMPILE_TEST, which x86 needs to reach CONFIG_PRU_REMOTEPROC
# (TI_PRUSS). So the remoteproc files are compiled as the explicit targets
# they are, with UBSAN_SANITIZE=y to instrument them anyway; pru_rproc.c
# also needs CONFIG_PRU_REMOTEPROC for its header (pruss.h has stubs of its
# functions otherwise): -DCONFIG_PRU_REMOTEPROC=1, which IS_ENABLED() takes.
for o in $X86_OBJS; do
	rm -f "$X86/$o"
	extra=() kc=$REMARKS
	case $o in
	drivers/remoteproc/*) extra=(UBSAN_SANITIZE=y) ;;
	esac
	case $o in
	*/pru_rproc.o) kc="$kc -DCONFIG_PRU_REMOTEPROC=1" ;;
	esac
	kmake "$X86" "${extra[@]}" KCFLAGS="$kc" "$o" >"$OUT/$(basename "$o" .o).remarks" 2>&1 ||
		die "compiling $o failed, see $OUT/$(basename "$o" .o).remarks"
done

fi

# --- ARM !MMU: mm/nommu.c -------------------------------------------------------
if [ $compile = 1 ] && [ $arm = 1 ]; then
	echo "seed-sites: ARM !MMU tree $ARM (stm32_defconfig)" >&2
	"$QR" prepare --without-refactors --tree "$ARM" --plugin "$PLUGIN" >"$OUT/prepare-arm.log" 2>&1 ||
		die "prepare failed, see $OUT/prepare-arm.log"
	(
		kmake "$ARM" ARCH=arm stm32_defconfig &&
			"$ARM/scripts/config" --file "$ARM/.config" -e UBSAN -e UBSAN_UNSIGNED_WRAP \
				-e UBSAN_SIGNED_WRAP -e UBSAN_WRAP_IDIOM -d UBSAN_TRAP &&
			kmake "$ARM" ARCH=arm olddefconfig
	) >"$OUT/config-arm.log" 2>&1 || die "ARM config failed, see $OUT/config-arm.log"
	for sym in UBSAN_UNSIGNED_WRAP UBSAN_WRAP_IDIOM; do
		grep -q "^CONFIG_$sym=y" "$ARM/.config" || die "ARM .config lacks CONFIG_$sym=y (see $OUT/config-arm.log)"
	done
	grep -q "^# CONFIG_MMU is not set" "$ARM/.config" || die "ARM .config has an MMU: mm/nommu.c would not build"
	kmake "$ARM" ARCH=arm prepare >"$OUT/kprepare-arm.log" 2>&1 ||
		die "ARM make prepare failed, see $OUT/kprepare-arm.log"
	rm -f "$ARM/mm/nommu.o"
	kmake "$ARM" ARCH=arm KCFLAGS="$REMARKS" mm/nommu.o >"$OUT/nommu.remarks" 2>&1 ||
		die "compiling mm/nommu.o failed, see $OUT/nommu.remarks"
fi

# --- the table ---------------------------------------------------------------------
# file|function|the test as written before the refactor
SITES='fs/remap_range.c|generic_remap_checks|pos_in + count < pos_in
fs/remap_range.c|generic_remap_checks|pos_out + count < pos_out
mm/memory.c|vm_iomap_memory|start + len < start
mm/memory.c|vm_iomap_memory|pfn + pages < pfn
mm/mmap.c|remap_file_pages|pgoff + (size >> PAGE_SHIFT) < pgoff
mm/mremap.c|vma_to_resize|pgoff + (new_len >> PAGE_SHIFT) < pgoff
mm/nommu.c|vread_iter|(unsigned long) addr + count < count
mm/nommu.c|__access_remote_vm|addr + len < addr
mm/util.c|vm_mmap|offset + PAGE_ALIGN(len) < offset
drivers/remoteproc/pru_rproc.c|pru_rproc_find_interrupt_map|offset + size > fw->size || offset + size < size
drivers/remoteproc/remoteproc_elf_loader.c|find_table|offset + size > fw_size || offset + size < size
drivers/remoteproc/remoteproc_virtio.c|rproc_virtio_get|offset + len > rsc->config_len || offset + len < len
drivers/remoteproc/remoteproc_virtio.c|rproc_virtio_set|offset + len > rsc->config_len || offset + len < len
arch/sh/kernel/sys_sh.c|sys_cacheflush|addr + len < addr'

rm -f "$OUT/.bad"
{
	echo "| # | site | function | test (as before the refactor) | line | plugin's decision | other checks in the file: kept / removed |"
	echo "|---|---|---|---|---|---|---|"
	n=0
	declare -A seen
	while IFS='|' read -r file fn test; do
		n=$((n + 1))
		base=$(basename "$file" .c)
		tree=$X86
		[ "$base" = nommu ] && tree=$ARM
		if [ "$base" = sys_sh ]; then
			echo "| $n | $file | $fn | \`$test\` | - | not compiled: LLVM has no SuperH backend | - |"
			continue
		fi
		rem=$OUT/$base.remarks
		if [ ! -f "$rem" ]; then
			echo "| $n | $file | $fn | \`$test\` | - | not compiled (--no-arm) | - |"
			touch "$OUT/.bad"
			continue
		fi
		# the line of this test (the nth occurrence for repeated tests)
		key="$file|$test"
		k=${seen[$key]:-0}
		k=$((k + 1))
		seen[$key]=$k
		line=$(grep -nF -- "$test" "$tree/$file" | sed -n "${k}p" | cut -d: -f1)
		if [ -z "$line" ]; then
			echo "| $n | $file | $fn | \`$test\` | ? | test not found in the tree | - |"
			touch "$OUT/.bad"
			continue
		fi
		# The test's own checks are those at the columns of its '+'
		# operators (clang puts an addition's check there); a remark at
		# another column of the line is a neighbour (PAGE_ALIGN()'s own
		# addition in vm_mmap()).
		col=$(awk -v l="$line" -v t="$test" 'NR == l { print index($0, t) }' "$tree/$file")
		pluses=$(awk -v t="$test" -v c="$col" 'BEGIN { for (i = 1; i <= length(t); i++) if (substr(t, i, 1) == "+") printf "%d ", c + i - 1 }')
		lineremarks=$(grep -E "^$file:$line:[0-9]+: remark: (removed|kept)" "$rem" |
			sed -E 's/^[^:]+:[0-9]+:([0-9]+): remark: removed ([a-z-]+) check on ([a-z]+): ([a-z-]+) .*/\1 removed (\4)/;
				s/^[^:]+:[0-9]+:([0-9]+): remark: kept ([a-z-]+) check on ([a-z]+): (.*) \[-Rpass-missed=wrap-idiom\]$/\1 KEPT (\4)/' | sort -n -u)
		d="" nb=""
		for pc in $pluses; do
			r=$(echo "$lineremarks" | awk -v c="$pc" '$1 == c { $1 = ""; sub(/^ /, ""); print; exit }')
			[ -n "$r" ] || r="no remark (no check?)"
			case $r in removed*) ;; *) touch "$OUT/.bad" ;; esac
			d="$d${d:+; }col $pc: $r"
		done
		nb=$(echo "$lineremarks" | awk -v p=" $pluses " 'NF && index(p, " " $1 " ") == 0 { c = $1; $1 = ""; sub(/^ /, ""); printf "%scol %s: %s", s, c, $0; s = "; " }')
		[ -n "$nb" ] && d="$d (same line, not the test: $nb)"
		others=$(grep -E "^$file:[0-9]+:[0-9]+: remark: (removed|kept)" "$rem" | grep -v "^$file:$line:" |
			awk '/ remark: kept / { k++ } / remark: removed / { r++ } END { printf "%d / %d", k, r }')
		echo "| $n | $file | $fn | \`$test\` | $line | $d | $others |"
	done <<<"$SITES"
} >"$OUT/table.md"
cat "$OUT/table.md"
# a seed check kept, a test not found, a file not compiled
[ -e "$OUT/.bad" ] && exit 1
exit 0
