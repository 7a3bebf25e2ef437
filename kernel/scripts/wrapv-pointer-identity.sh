#!/bin/bash
# wrapv-pointer-identity.sh - -fno-wrapv-pointer plus the plugin's
# -wrap-idiom-wrapv-pointer mode is -fwrapv-pointer, on real kernel files.
#
# Usage: kernel/scripts/wrapv-pointer-identity.sh [OBJ...]
#
# CONFIG_UBSAN_WRAP_IDIOM_POINTER builds the kernel with -fno-strict-overflow
# -fno-wrapv-pointer (so that clang emits pointer-overflow checks) and lets
# the plugin drop every GEP's no-wrap flags first thing at pipeline start.
# This script shows that, without sanitizers, the IR the optimiser then
# starts from is the IR of the kernel's own -fno-strict-overflow build:
# for each translation unit, with its Kbuild command line (Kbuild's own
# `make dir/file.ll`, UBSAN_SANITIZE=n so no sanitizer is on,
# -Xclang -disable-llvm-passes so the IR is clang's as emitted, which is
# what the plugin's pipeline-start callback sees):
#
#   A  the Kbuild flags (-fno-strict-overflow, so -fwrapv-pointer)
#   B  the same + -fno-wrapv-pointer, then opt -passes=wrap-idiom-wrapv-pointer
#
# and compares A and B after `instnamer` (modulo value names) and modulo the
# flags of GEPs whose indices are all zero (zero-gep-flags.sed: they mean
# nothing, and clang sets them either way under -fwrapv-pointer). Where
# they differ, B must equal A with the mode applied to A as well: clang keeps
# inbounds on some struct-field GEPs under -fwrapv-pointer too, and the mode
# drops those, so B may assume less than A, never more. To show that the
# comparison can fail, A is also compared with B before the mode. B's
# KCFLAGS also carry the plugin and its mode flag, which Kbuild requires
# next to -fno-wrapv-pointer; with -disable-llvm-passes the plugin does not
# run there, opt runs its pass on exactly that IR instead.
#
# The tree is its own ($BUILD/linux-6.12-identity): qemu-run prepare and
# config (tinyconfig + the harness's fragments), plus the options of the
# files tinyconfig lacks (NET, INET, CIFS, BLOCK, PCI, SCSI, SCSI_MPT3SAS; any that
# olddefconfig does not keep is reported and its files are skipped). The
# script holds flock $KBUILD_LOCK from its first make to its end.
#
# Default OBJs: the files of the kernel's pointer wrap tests
# (fs/smb/client/smb2pdu.o, fs/smb/client/readdir.o,
# drivers/scsi/mpt3sas/mpt3sas_ctl.o, lib/buildid.o, mm/usercopy.o) and a
# few big ones (mm/page_alloc.o, fs/namei.o, net/core/dev.o, kernel/sched/core.o).
#
# Output: a Markdown table on stdout and in $OUT/table.md, the IR in $OUT.
# Exit status: 0 every file identical, 1 a file differs, 2 a step failed.
#
# Environment: BUILD (build), PLUGIN ($BUILD/llvm-pass/WrapIdiom.so),
# KBUILD_LOCK ($BUILD/.kbuild.lock; users sharing a machine export one),
# LLVM (-22), JOBS (2).
set -u

here=$(cd "$(dirname "$0")" && pwd)
SITES_NAME=wrapv-pointer-identity
SITES_JOBS=2
. "$here/sites-env.sh"
OUT=$BUILD/wrapv-pointer-identity
T=$BUILD/linux-6.12-identity
OPT=/usr/lib/llvm${LLVM}/bin/opt

sites_need qr plugin
[ -x "$OPT" ] || die "$OPT missing (LLVM=$LLVM)"
/usr/lib/llvm${LLVM}/bin/clang -fno-wrapv-pointer -fsyntax-only -x c /dev/null 2>/dev/null ||
	die "clang$LLVM has no -fno-wrapv-pointer: nothing to compare (clang 19's -fwrapv also defines pointer wrap-around)"

if [ $# -gt 0 ]; then
	objs=("$@")
else
	objs=(fs/smb/client/smb2pdu.o fs/smb/client/readdir.o
	      drivers/scsi/mpt3sas/mpt3sas_ctl.o lib/buildid.o mm/usercopy.o
	      mm/page_alloc.o fs/namei.o net/core/dev.o kernel/sched/core.o)
fi
for o in "${objs[@]}"; do
	case $o in
	*.o) ;;
	*) die "$o: not an object name (want dir/file.o)" ;;
	esac
done
mkdir -p "$OUT"

# One hold of the kernel build lock for all the makes below.
sites_lock

echo "wrapv-pointer-identity: tree $T" >&2
"$QR" prepare --tree "$T" --plugin "$PLUGIN" >"$OUT/prepare.log" 2>&1 ||
	die "prepare failed, see $OUT/prepare.log"
extra="NET INET CIFS BLOCK PCI SCSI SCSI_LOWLEVEL SCSI_MPT3SAS"
# The stamp: the .config this script made, and the options it asked for.
stamp() { cat "$T/.config"; echo "# wrapv-pointer-identity: $extra"; }
if ! [ -f "$T/.wrapv-identity-config" ] || ! stamp | cmp -s - "$T/.wrapv-identity-config"; then
	"$QR" config --tree "$T" --plugin "$PLUGIN" >"$OUT/config.log" 2>&1 ||
		die "config failed, see $OUT/config.log"
	for s in $extra; do
		"$T/scripts/config" --file "$T/.config" --enable "$s" || die "scripts/config $s failed"
	done
	kmake "$T" olddefconfig >>"$OUT/config.log" 2>&1 || die "olddefconfig failed, see $OUT/config.log"
	stamp >"$T/.wrapv-identity-config"
fi
grep -q '^CONFIG_UBSAN_WRAP_IDIOM_POINTER=y' "$T/.config" ||
	die "$T/.config: CONFIG_UBSAN_WRAP_IDIOM_POINTER is not y"
kmake "$T" prepare >"$OUT/kprepare.log" 2>&1 || die "make prepare failed, see $OUT/kprepare.log"

# The option an object's directory needs, if tinyconfig has not got it.
needs() {
	case $1 in
	fs/smb/client/*) echo CIFS ;;
	drivers/scsi/mpt3sas/*) echo SCSI_MPT3SAS ;;
	net/*) echo NET ;;
	esac
}

flags='getelementptr (inbounds|nusw|nuw)|getelementptr inbounds'
table=$OUT/table.md
{
	echo "| object | B = A | GEPs with flags in B before the mode | IR lines | differing lines without the mode |"
	echo "|---|---|---|---|---|"
} >"$table"
status=0
for o in "${objs[@]}"; do
	n=$(needs "$o")
	if [ -n "$n" ] && ! grep -q "^CONFIG_$n=y" "$T/.config"; then
		echo "| $o | not compiled: CONFIG_$n not set by olddefconfig | | | |" >>"$table"
		status=1
		continue
	fi
	ll=${o%.o}.ll
	b=$(basename "$o" .o)
	kc="-Xclang -disable-llvm-passes -Xclang -discard-value-names"
	if ! kmake "$T" UBSAN_SANITIZE=n KCFLAGS="$kc" "$ll" >"$OUT/$b.A.log" 2>&1; then
		die "A: make $ll failed, see $OUT/$b.A.log"
	fi
	cp "$T/$ll" "$OUT/$b.A.raw.ll"
	kc="$kc -fno-wrapv-pointer -fpass-plugin=$PLUGIN -mllvm -wrap-idiom-wrapv-pointer"
	if ! kmake "$T" UBSAN_SANITIZE=n KCFLAGS="$kc" "$ll" >"$OUT/$b.B.log" 2>&1; then
		die "B: make $ll failed, see $OUT/$b.B.log"
	fi
	cp "$T/$ll" "$OUT/$b.B.raw.ll"
	"$OPT" -passes=instnamer -S "$OUT/$b.A.raw.ll" -o "$OUT/$b.A.ll" ||
		die "opt on $OUT/$b.A.raw.ll failed"
	"$OPT" -load-pass-plugin="$PLUGIN" -passes=wrap-idiom-wrapv-pointer,instnamer \
		-S "$OUT/$b.B.raw.ll" -o "$OUT/$b.B.ll" || die "opt on $OUT/$b.B.raw.ll failed"
	# B without the mode: what the comparison would find if it were off.
	"$OPT" -passes=instnamer -S "$OUT/$b.B.raw.ll" -o "$OUT/$b.B0.ll" ||
		die "opt on $OUT/$b.B.raw.ll failed"
	# A without its own GEP flags: clang keeps inbounds on some GEPs under
	# -fwrapv-pointer too (struct fields of aggregate initialisers and ABI
	# coercions), which the mode drops; B = A1 shows those are the only
	# other differences, i.e. B is A with fewer assumptions, never more.
	"$OPT" -load-pass-plugin="$PLUGIN" -passes=wrap-idiom-wrapv-pointer,instnamer \
		-S "$OUT/$b.A.raw.ll" -o "$OUT/$b.A1.ll" || die "opt on $OUT/$b.A.raw.ll failed"
	# Modulo value names (instnamer) and the flags of all-zero-index GEPs,
	# which mean nothing (zero-gep-flags.sed); not the module's file name.
	for v in A A1 B B0; do
		sed -E -f "$here/zero-gep-flags.sed" "$OUT/$b.$v.ll" |
			grep -v '^; ModuleID = ' >"$OUT/$b.$v.cmp.ll"
	done
	nomode=$(diff "$OUT/$b.A.cmp.ll" "$OUT/$b.B0.cmp.ll" | grep -c '^[<>]')
	dropped=$(grep -cE "$flags" "$OUT/$b.B.raw.ll")
	lines=$(wc -l <"$OUT/$b.A.ll")
	ndiff=$(diff "$OUT/$b.A.cmp.ll" "$OUT/$b.B.cmp.ll" | grep -c '^>')
	if cmp -s "$OUT/$b.A.cmp.ll" "$OUT/$b.B.cmp.ll"; then
		same=yes
	elif cmp -s "$OUT/$b.A1.cmp.ll" "$OUT/$b.B.cmp.ll"; then
		same="yes but for $ndiff GEPs whose flags A has and B has not"
	else
		same=**no**
		status=1
	fi
	echo "| $o | $same | $dropped | $lines | $nomode |" >>"$table"
done
cat "$table"
exit $status
