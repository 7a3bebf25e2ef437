#!/bin/bash
# check-series.sh [options] TREE
#
# Apply kernel/patches/series to TREE (a freshly unpacked linux-source-6.12
# tree that no patch has touched yet), one patch at a time with patch -p1,
# and run scripts/checkpatch.pl --no-tree on each patch. With --build,
# build the test configuration (tinyconfig + qemu-run/configs/base.config
# + x86_64.config + ubsan.config, plus wrap-idiom{,-pointer}.config with --plugin) after
# each patch; every build is serialized through flock "$KBUILD_LOCK" (default
# <checkout>/build/.kbuild.lock, as qemu-run's: one kernel build at a time
# per build directory; users sharing a machine export one KBUILD_LOCK).
#
# Options:
#   --build           build after each patch
#   --base-build      with --build, also build the unpatched tree first
#   --plugin PATH     pass WRAP_IDIOM_PLUGIN=PATH and merge wrap-idiom{,-pointer}.config
#   --no-optional     stop at the "# optional:" marker line of the series
#   --section NAME    only the patches of one sub-series, e.g. fixes (the
#                     lines between "# NAME:" and the next "# name:" marker):
#                     on a fresh tree, "--section fixes --build" shows that
#                     the fixes apply and build on plain 6.12
#   --strict          run checkpatch.pl --strict (the fixes must pass it)
#   --log DIR         keep per-patch logs in DIR (default: TREE/../check-series-logs)
#   --skip N          TREE already has the first N patches applied (and
#                     built) by an earlier run: resume with patch N+1
#   --ccache          compile through ccache (CC="ccache clang$LLVM"): the
#                     rebuilds that only a changed objtool forces are then cheap
#
# Prints one line per patch and a summary; exits non-zero if a patch does
# not apply or applies only with an offset or fuzz, checkpatch reports an
# error, a warning (or with --strict a check), a build fails, a cover
# letter (0000-*) is named in series (quilt would try to apply it), or a
# patch file of the directory is named by no series line.
set -u

here=$(cd "$(dirname "$0")" && pwd)
kdir=$(cd "$here/.." && pwd)
patches=$kdir/patches
configs=$(cd "$kdir/../qemu-run/configs" && pwd)
root=$(cd "$kdir/.." && pwd)
KBUILD_LOCK=${KBUILD_LOCK:-$root/build/.kbuild.lock}
LLVM=${LLVM:--22}
JOBS=${JOBS:-2}

build=0 base=0 plugin= optional=1 logdir= ccache=0 skip=0 section= strict=
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=1 ;;
	--base-build) base=1 ;;
	--plugin) plugin=$2; shift ;;
	--no-optional) optional=0 ;;
	--section) section=$2; shift ;;
	--strict) strict=--strict ;;
	--log) logdir=$2; shift ;;
	--ccache) ccache=1 ;;
	--skip) skip=$2; shift ;;
	-h|--help) sed -n '2,32p' "$0"; exit 0 ;;
	-*) echo "check-series: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
[ $# -eq 1 ] || { echo "usage: $0 [--build [--base-build]] [--plugin PATH] [--no-optional] [--section NAME] [--strict] [--ccache] [--skip N] [--log DIR] TREE" >&2; exit 2; }
if [ -n "$section" ] && ! grep -q "^# $section:" "$patches/series"; then
	echo "check-series: no section '# $section:' in $patches/series" >&2; exit 2
fi
tree=$(cd "$1" && pwd) || exit 2
[ -f "$tree/Makefile" ] && [ -x "$tree/scripts/checkpatch.pl" ] || {
	echo "check-series: $tree is not a kernel tree" >&2; exit 2; }
logdir=${logdir:-$tree/../check-series-logs}
mkdir -p "$logdir"
logdir=$(cd "$logdir" && pwd)
if [ $build -eq 1 ]; then
	mkdir -p "$(dirname "$KBUILD_LOCK")" || {
		echo "check-series: cannot create the directory of the build lock $KBUILD_LOCK" >&2; exit 2; }
fi

frags=("$configs/base.config" "$configs/x86_64.config" "$configs/ubsan.config")
makevars=(LLVM="$LLVM")
if [ $ccache -eq 1 ]; then
	command -v ccache >/dev/null || { echo "check-series: ccache not installed" >&2; exit 2; }
	makevars+=(CC="ccache clang$LLVM")
fi
if [ -n "$plugin" ]; then
	frags+=("$configs/wrap-idiom.config" "$configs/wrap-idiom-pointer.config")
	makevars+=(WRAP_IDIOM_PLUGIN="$plugin")
fi

do_build() { # name
	local name=$1 log=$logdir/$1.build.log t0 t1 rc
	# Re-create the configuration each time: options the fragments ask
	# for may only exist once the patch that adds them is applied.
	( cd "$tree" && WRAP_IDIOM_PLUGIN="$plugin" LLVM="$LLVM" \
		"$here/mkconfig.sh" "$tree" "${frags[@]}" ) > "$logdir/$name.config.log" 2>&1
	cp "$tree/.config" "$logdir/$name.config"
	t0=$(date +%s)
	flock "$KBUILD_LOCK" make -C "$tree" "${makevars[@]}" -j"$JOBS" > "$log" 2>&1
	rc=$?
	t1=$(date +%s)
	local warns objtool
	warns=$(grep -c 'warning:' "$log")
	objtool=$(grep -cE 'objtool.*warning:|warning: objtool' "$log")
	BUILD_RESULT="build=$([ $rc -eq 0 ] && echo ok || echo FAIL) ($((t1 - t0))s, $warns warnings, $objtool objtool)"
	return $rc
}

fail=0
n=0
# Nothing lost, nothing applied by mistake: every patch file is in series,
# no cover letter is.
for f in "$patches"/*.patch; do
	b=${f##*/}
	case $b in
	0000-*) grep -qxF "$b" "$patches/series" && {
		echo "check-series: the cover letter $b is named in series: quilt would apply it" >&2
		fail=1; } ;;
	*) grep -q "^$b\( \|\$\)" "$patches/series" || {
		echo "check-series: $b is in $patches but not in series" >&2; fail=1; } ;;
	esac
done
cur=
printf '%-4s %-78s %s\n' "#" "patch" "result"
if [ $build -eq 1 ] && [ $base -eq 1 ]; then
	do_build 0000-base || fail=1
	printf '%-4s %-78s %s\n' 0 "(unpatched tree)" "$BUILD_RESULT"
fi

while IFS= read -r line; do
	case $line in
	'# optional:'*) [ $optional -eq 1 ] || break; cur=optional; continue ;;
	'# '[a-z]*:*) cur=${line#\# }; cur=${cur%%:*}; continue ;;
	'#'*|'') continue ;;
	esac
	[ -z "$section" ] || [ "$cur" = "$section" ] || continue
	p=${line%% *}
	n=$((n + 1))
	if [ $n -le $skip ]; then
		printf '%-4s %-78s %s\n' $n "$p" "skipped (already applied)"
		continue
	fi
	name=${p%.patch}
	res=
	if ! patch -d "$tree" -p1 --dry-run -s -f < "$patches/$p" > "$logdir/$name.patch.log" 2>&1; then
		printf '%-4s %-78s %s\n' $n "$p" "DOES NOT APPLY"
		cat "$logdir/$name.patch.log"
		fail=1
		break
	fi
	patch -d "$tree" -p1 -f --no-backup-if-mismatch < "$patches/$p" > "$logdir/$name.patch.log" 2>&1
	if grep -qiE 'fuzz|offset' "$logdir/$name.patch.log"; then
		res="APPLIES WITH FUZZ/OFFSET"
		fail=1
	else
		res="applies"
	fi
	# The tarball has no git history: checkpatch cannot look up the commit
	# ids of Fixes: tags (UNKNOWN_COMMIT_ID); kernel/FINDINGS.md says how
	# each was checked.
	(cd "$tree" && ./scripts/checkpatch.pl --no-tree $strict --ignore UNKNOWN_COMMIT_ID "$patches/$p") > "$logdir/$name.checkpatch.log" 2>&1
	cp_total=$(sed -n 's/^total: \(.*\) lines checked$/\1/p' "$logdir/$name.checkpatch.log")
	res="$res; checkpatch${strict:+ $strict}: ${cp_total:-?}"
	if ! grep -qE '^total: 0 errors, 0 warnings(, 0 checks)?,' "$logdir/$name.checkpatch.log"; then
		fail=1
	fi
	if [ $build -eq 1 ]; then
		do_build "$name" || fail=1
		res="$res; $BUILD_RESULT"
	fi
	printf '%-4s %-78s %s\n' $n "$p" "$res"
done < "$patches/series"

if [ $fail -ne 0 ]; then
	echo "check-series: FAILED (logs in $logdir)"
	exit 1
fi
echo "check-series: all $n patches OK (logs in $logdir)"
