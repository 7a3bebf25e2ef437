#!/bin/bash
# scripts/plugin-identity.sh - is a new build of the wrap-idiom plugin the
# same as an old one on every input the tests have?
#
# Usage: scripts/plugin-identity.sh [-j N] [--only PATTERN] [--kbuild TREE [--max N]]
#                                   OLD.so NEW.so OUTDIR
#
# Every C and IR input of lit-tests/ (the clang, opt, ignorelist, remarks
# and runtime inputs; not the tools' fake kernel tree, which does not
# compile) and examples/ is compiled with each plugin:
#
#   C:  clang at -O0 and -O2, -S -emit-llvm, under each option set below,
#       with every remark kind (-Rpass, -Rpass-missed, -Rpass-analysis), a
#       YAML optimization record of the pass and -save-stats;
#   IR: opt -passes=wrap-idiom, default<O0> and default<O2> (the plugin at
#       pipeline start), the same option sets as -wrap-idiom-* options, with
#       -pass-remarks*, -stats.
#
# Option sets (the kernel's first): kernel (-fno-strict-overflow,
# -wrap-idiom-signed-wrap, -wrap-idiom-pointer-wrap), kernel-pointer (clang
# 22 only: -fno-wrapv-pointer, -wrap-idiom-wrapv-pointer,
# -wrap-idiom-null-offset=allow), plain (no option: the undefined-wrap
# remarks), report (-wrap-idiom-mode=report, the minimal runtime), lists
# (the lit tests' ignorelists, =sanitize included).
#
# --kbuild TREE instead: the objects of a kernel tree built with the plugin
# (make boot; their .cmd lines load it), each compiled again with its own
# Kbuild command line, the plugin replaced by each of the two, to IR
# (-S -emit-llvm) and the pass's optimization record Kbuild asked for;
# --max N: the first N of them, in name order.
#
# For each run the IR written, the remarks and everything else on stderr,
# the exit status, the YAML record and the statistics must be byte-identical
# between OLD and NEW. Prints the number of runs, of identical ones, and
# each difference (the files under OUTDIR/old and OUTDIR/new); exit status 0
# when all are identical, 1 otherwise, 2 on a usage error.
#
# Environment: CLANG (clang-22), OPT (opt beside CLANG). For LLVM 19:
# CLANG=clang-19 with plugins built against LLVM 19.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=${here%/scripts}
JOBS=2 ONLY="" KBUILD="" MAX=0
while [ $# -gt 0 ]; do
	case $1 in
	-j) JOBS=$2; shift 2 ;;
	--only) ONLY=$2; shift 2 ;;
	--kbuild) KBUILD=$(realpath "$2"); shift 2 ;;
	--max) MAX=$2; shift 2 ;;
	-*) sed -n '4p' "$0" | sed 's/^# //' >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# = 3 ] || { sed -n '4p' "$0" | sed 's/^# //' >&2; exit 2; }
OLD=$(realpath "$1") NEW=$(realpath "$2") OUT=$(realpath -m "$3")
for p in "$OLD" "$NEW"; do
	[ -f "$p" ] || { echo "plugin-identity: no plugin $p" >&2; exit 2; }
done
CLANG=${CLANG:-clang-22}
CLANG=$(command -v "$CLANG") || { echo "plugin-identity: no clang" >&2; exit 2; }
CLANG=$(realpath "$CLANG")
OPT=${OPT:-$(dirname "$CLANG")/opt}
[ -x "$OPT" ] || { echo "plugin-identity: no opt at $OPT" >&2; exit 2; }
MAJOR=$("$CLANG" -dumpversion | cut -d. -f1)
rm -rf "$OUT"
mkdir -p "$OUT/old" "$OUT/new"

lists=lit-tests/ignorelist/Inputs
# name|clang flags|the same for opt (-wrap-idiom-* only)
sets="kernel|-fno-strict-overflow -mllvm -wrap-idiom-signed-wrap -mllvm -wrap-idiom-pointer-wrap|-wrap-idiom-signed-wrap -wrap-idiom-pointer-wrap
plain||
report|-fwrapv -fsanitize-minimal-runtime -mllvm -wrap-idiom-signed-wrap -mllvm -wrap-idiom-pointer-wrap -mllvm -wrap-idiom-mode=report|-wrap-idiom-signed-wrap -wrap-idiom-pointer-wrap -wrap-idiom-mode=report
lists|-fwrapv -mllvm -wrap-idiom-signed-wrap -mllvm -wrap-idiom-pointer-wrap -mllvm -wrap-idiom-ignorelist=$lists/hash.scl -mllvm -wrap-idiom-ignorelist=$lists/recheck.scl -mllvm -wrap-idiom-ignorelist=$lists/pointer.scl -mllvm -wrap-idiom-ignorelist=$lists/sanitize.scl|-wrap-idiom-signed-wrap -wrap-idiom-pointer-wrap -wrap-idiom-ignorelist=$lists/hash.scl -wrap-idiom-ignorelist=$lists/recheck.scl -wrap-idiom-ignorelist=$lists/pointer.scl -wrap-idiom-ignorelist=$lists/sanitize.scl"
[ "$MAJOR" -ge 22 ] && sets="$sets
kernel-pointer|-fno-strict-overflow -fno-wrapv-pointer -mllvm -wrap-idiom-signed-wrap -mllvm -wrap-idiom-wrapv-pointer -mllvm -wrap-idiom-null-offset=allow|-wrap-idiom-signed-wrap -wrap-idiom-wrapv-pointer -wrap-idiom-null-offset=allow"

cd "$root" || exit 2
inputs=$( (find lit-tests \( -path lit-tests/qemu-run -o -path lit-tests/tools \) -prune -o \( -name '*.c' -o -name '*.ll' \) -print; ls examples/*.c) | sort)
[ -n "$ONLY" ] && inputs=$(echo "$inputs" | grep -e "$ONLY")

# The run list: INPUT|SET|LEVEL, one a line.
runs=$OUT/runs
: >"$runs"
if [ -n "$KBUILD" ]; then
	[ -f "$KBUILD/Makefile" ] || { echo "plugin-identity: no kernel tree $KBUILD" >&2; exit 2; }
	inputs=$(cd "$KBUILD" && grep -l -- '-fpass-plugin=' $(find . -name '.*.o.cmd' | sort) 2>/dev/null |
		sed 's|^\./||; s|\.\([^/]*\)\.cmd$|\1|')
	[ -n "$ONLY" ] && inputs=$(echo "$inputs" | grep -e "$ONLY")
	[ "$MAX" -gt 0 ] && inputs=$(echo "$inputs" | head -n "$MAX")
	[ -n "$inputs" ] || { echo "plugin-identity: no object of $KBUILD loads the plugin" >&2; exit 2; }
	for f in $inputs; do echo "$f|kbuild|-" >>"$runs"; done
	inputs=""
fi
for f in $inputs; do
	while IFS='|' read -r name cflags oflags; do
		case $f in
		*.c) for l in O0 O2; do echo "$f|$name|$l" >>"$runs"; done ;;
		*.ll) for l in pass O0 O2; do echo "$f|$name|$l" >>"$runs"; done ;;
		esac
	done <<<"$sets"
done

SAN=-fsanitize=signed-integer-overflow,unsigned-integer-overflow,pointer-overflow
# one VARIANT(old|new) INPUT SET LEVEL: the outputs under $OUT/VARIANT/ID/
one() {
	local v=$1 f=$2 set=$3 l=$4 plugin id d cflags oflags load
	[ "$v" = old ] && plugin=$OLD || plugin=$NEW
	id=$(echo "$f.$set.$l" | tr / _)
	d=$OUT/$v/$id
	mkdir -p "$d"
	cflags=$(echo "$sets" | awk -F'|' -v s="$set" '$1 == s { print $2 }')
	oflags=$(echo "$sets" | awk -F'|' -v s="$set" '$1 == s { print $3 }')
	load="-fpass-plugin=$plugin"
	[ "$MAJOR" -lt 22 ] && load="$load -fplugin=$plugin"
	case $set:$f in
	kbuild:*)
		# Its own command line: the plugin swapped, IR out, no depfile.
		local cmdfile=$KBUILD/$(dirname "$f")/.$(basename "$f").cmd c
		c=$(sed -n "1s/^savedcmd_[^ ]* := //p" "$cmdfile" | sed \
			-e 's/ -Wp,-MMD,[^ ]*//' \
			-e "s| -fpass-plugin=[^ ]*| -fpass-plugin=$plugin|g" \
			-e "s| -fplugin=[^ ]*| -fplugin=$plugin|g" \
			-e "s| -c -o $f | -S -emit-llvm -o $d/out.ll |")
		(cd "$KBUILD" && eval "timeout 600 $c") >"$d/stdout" 2>"$d/stderr"
		;;
	*:*.c)
		# shellcheck disable=SC2086
		timeout 300 "$CLANG" -$l $SAN $cflags $load -w -Rpass=wrap-idiom \
			-Rpass-missed=wrap-idiom -Rpass-analysis=wrap-idiom \
			-fsave-optimization-record=yaml -foptimization-record-passes=wrap-idiom \
			-foptimization-record-file="$d/record.yaml" \
			-save-stats=obj -c -S -emit-llvm "$f" -o "$d/out.ll" \
			>"$d/stdout" 2>"$d/stderr"
		;;
	*:*.ll)
		local passes=wrap-idiom
		[ "$l" != pass ] && passes="default<$l>"
		# shellcheck disable=SC2086
		timeout 300 "$OPT" -load-pass-plugin="$plugin" -passes="$passes" $oflags \
			-pass-remarks=wrap-idiom -pass-remarks-missed=wrap-idiom \
			-pass-remarks-analysis=wrap-idiom -stats -S "$f" -o "$d/out.ll" \
			>"$d/stdout" 2>"$d/stderr"
		;;
	esac
	echo $? >"$d/status"
}
export -f one
export OUT OLD NEW CLANG OPT MAJOR SAN sets KBUILD
n=$(wc -l <"$runs")
echo "plugin-identity: $n runs per plugin, clang $MAJOR, -j$JOBS${KBUILD:+, objects of $KBUILD}"
sed 's/^/old|/; p; s/^old|/new|/' "$runs" | tr '|' '\n' | xargs -d '\n' -n 4 -P "$JOBS" bash -c 'one "$@"' _

same=0 diff=0 failed=0
while IFS='|' read -r f set l; do
	id=$(echo "$f.$set.$l" | tr / _)
	if diff -r -q "$OUT/old/$id" "$OUT/new/$id" >/dev/null; then
		same=$((same + 1))
	else
		diff=$((diff + 1))
		echo "DIFFERS: $f $set $l: $(diff -r -q "$OUT/old/$id" "$OUT/new/$id" | sed "s|$OUT/||g" | tr '\n' ' ')"
	fi
	[ "$(cat "$OUT/new/$id/status")" = 0 ] || failed=$((failed + 1))
done <"$runs"
echo "plugin-identity: $n runs, $same identical, $diff differing; $failed runs exit non-zero (the same in both: an input that must fail)"
[ $diff = 0 ]
