#!/bin/sh
# scripts/boot-repeat.sh N [qemu-run boot options...]
#
# Flake hunting: boot the kernel already built for a profile N times
# (`qemu-run run --no-build --strict`, nothing rebuilt) and collect the
# unexplained UBSan sites of every boot. A site that only some boots meet
# (a random initial TCP sequence number, an interleaving of tasks) fails
# `make check` now and then; one boot cannot show it, N can.
#
# Prints one line per boot (verdict, unexplained sites) and then every
# distinct unexplained site with the number of boots that met it. Exit 0
# when no boot had one and every boot passed, 1 otherwise, 2 on bad usage.
# Options after N go to qemu-run (e.g. --profile workload --arch arm64);
# QEMU_RUN names the binary (default <build>/qemu-run/qemu-run of this
# checkout, BUILD=build). SEEDS=1 gives boot i the kernel command line word
# qemu_run.seed=i (the stress profile's stress-ng and trinity seed): N boots
# are then N seeds, from SEED_FIRST (default 1) on.
set -eu

usage() {
	echo "usage: $0 N [qemu-run options...]   (N >= 1)" >&2
	exit 2
}
[ $# -ge 1 ] || usage
n=$1
shift
case $n in
'' | *[!0-9]*) usage ;;
esac
[ "$n" -ge 1 ] || usage

here=$(cd "$(dirname "$0")/.." && pwd)
QEMU_RUN=${QEMU_RUN:-$here/${BUILD:-build}/qemu-run/qemu-run}
[ -x "$QEMU_RUN" ] || {
	echo "$0: no qemu-run at $QEMU_RUN (make plugin builds it)" >&2
	exit 2
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
: > "$work/sites"
failed=0
i=1
while [ "$i" -le "$n" ]; do
	rc=0
	seed=
	s=$((${SEED_FIRST:-1} + i - 1))
	[ "${SEEDS:-0}" = 0 ] || seed="--append qemu_run.seed=$s"
	# shellcheck disable=SC2086
	"$QEMU_RUN" run --no-build --strict $seed "$@" > "$work/out" 2>&1 || rc=$?
	# "  UNEXPLAINED <sanitizer> in <file:line:col> (<function>) xN, log line ..."
	sed -n 's/^ *UNEXPLAINED \(.* in [^ ]* ([^)]*)\) x[0-9]*,.*/\1/p' "$work/out" |
		sort -u > "$work/boot"
	verdict=$(sed -n 's/^Verdict: //p' "$work/out" | tail -n 1)
	[ -n "$verdict" ] || verdict="no verdict (qemu-run exit $rc)"
	echo "boot $i/$n${seed:+ (seed $s)}: $verdict, $(wc -l < "$work/boot") unexplained site(s)"
	if [ "$rc" -ne 0 ]; then
		failed=$((failed + 1))
		[ -s "$work/boot" ] || tail -n 20 "$work/out" | sed 's/^/    /'
	fi
	cat "$work/boot" >> "$work/sites"
	i=$((i + 1))
done

distinct=$(sort -u "$work/sites" | wc -l)
echo "boot-repeat: $n boot(s), $failed failed, $distinct distinct unexplained site(s)"
sort "$work/sites" | uniq -c | sort -rn | sed 's/^ *\([0-9]*\) /  \1 boot(s): /'
[ "$failed" -eq 0 ] && [ "$distinct" -eq 0 ]
