#!/bin/bash
# bench/runtime-cost.sh - what the wrap checks cost at run time (issue 22,
# item 4): the same stress-ng run on three kernels built from one tree.
#
# Usage: bench/runtime-cost.sh [-r ROUNDS] [--seed N] [--build LIST] [--no-boot]
#
# The kernels (the workload kernel that profile stress boots, one series):
#   nosan     no wrap sanitizers: qemu-run's configs with UBSAN_SIGNED_WRAP,
#             UBSAN_UNSIGNED_WRAP and UBSAN_POINTER_WRAP off (a copy under
#             WORK/configs-nosan; the rest of UBSan stays), --no-plugin,
#             tree BUILD/linux-6.12-workload-nosan
#   noplugin  the wrap sanitizers without the plugin (qemu-run --no-plugin)
#   plugin    the plugin and the ignorelists (qemu-run's default variant)
# Builds (prepare, config, build under qemu-run's build lock) the variants
# of --build (comma list, default nosan,noplugin,plugin; "none": as they
# are), requires the three trees' prepare stamps to be equal, then boots
# ROUNDS rounds (default 2) of nosan, noplugin, plugin, interleaved, with
# `qemu-run boot --profile stress --append qemu_run.seed=N` (default 1),
# holding KBUILD_LOCK so no kernel build runs meanwhile. From each log's
# stress-ng --metrics-brief `metrc:` lines it takes every stressor's bogo
# ops/s (real time), averages the rounds, and prints the ratios
# sanitizers/no-san, plugin/no-san and plugin/sanitizers per stressor and
# their geometric means (stressors with a rate of 0 in some boot are shown
# but left out), the spread between rounds of one kernel, and the wrap checks
# of each vmlinux: call sites of the __ubsan_handle_{add,sub,mul,negate,
# pointer}_overflow handlers in `llvm-objdump -d` (one per check, unless
# clang merged several into one call). Under TCG the rates are those of
# an emulated machine: the ratios are the figure, not the rates.
#
#   --no-boot   reprint the table from the logs of the last run (WORK/logs)
#
# Environment: BUILD (the build directory, default build of this checkout),
# QEMU_RUN (BUILD/qemu-run/qemu-run), WORK (BUILD/bench), KBUILD_LOCK
# (BUILD/.kbuild.lock, as qemu-run's), OBJDUMP (llvm-objdump-22).
# Output: also WORK/runtime-cost.txt. Exit 1 on a failed stage or a log
# without metrics, 2 on bad usage.
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
OBJDUMP=${OBJDUMP:-llvm-objdump-22}
ROUNDS=2 SEED=1 BUILDS=nosan,noplugin,plugin BOOT=1
VARIANTS="nosan noplugin plugin"

die() { echo "runtime-cost: $*" >&2; exit 1; }
usage() { echo "runtime-cost: $*" >&2; echo "usage: $0 [-r ROUNDS] [--seed N] [--build LIST|none] [--no-boot]" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	-r) [ $# -ge 2 ] || usage "-r needs a number"; ROUNDS=$2; shift ;;
	--seed) [ $# -ge 2 ] || usage "--seed needs a number"; SEED=$2; shift ;;
	--build) [ $# -ge 2 ] || usage "--build needs a list"; BUILDS=$2; shift ;;
	--no-boot) BOOT=0 BUILDS=none ;;
	-h | --help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) usage "unknown option $1" ;;
	esac
	shift
done
case $ROUNDS in '' | *[!0-9]* | 0) usage "-r $ROUNDS: not a number >= 1" ;; esac
case $SEED in '' | *[!0-9]*) usage "--seed $SEED: not a number" ;; esac
[ "$BUILDS" = none ] && BUILDS=
for v in ${BUILDS//,/ }; do
	case " $VARIANTS " in *" $v "*) ;; *) usage "--build: unknown kernel $v (nosan, noplugin, plugin)" ;; esac
done
BUILD=$(cd "${BUILD:-$root/build}" 2>/dev/null && pwd) || usage "no build directory ${BUILD:-$root/build}"
QEMU_RUN=${QEMU_RUN:-$BUILD/qemu-run/qemu-run}
WORK=${WORK:-$BUILD/bench}
KBUILD_LOCK=${KBUILD_LOCK:-$BUILD/.kbuild.lock}
[ -x "$QEMU_RUN" ] || usage "no qemu-run at $QEMU_RUN (make plugin builds it)"
mkdir -p "$WORK" || die "cannot create $WORK"
case $KBUILD_LOCK in /*) ;; *) KBUILD_LOCK=$PWD/$KBUILD_LOCK ;; esac

tree_of() { echo "$BUILD/linux-6.12-workload$([ "$1" = plugin ] || echo "-$1")"; }
# qemu-run options of a kernel (after the subcommand)
opts_of() {
	echo "--src-root $root --build-root $BUILD --profile stress --lock $KBUILD_LOCK --tree $(tree_of "$1")"
	case $1 in
	nosan) echo "--no-plugin --configs $WORK/configs-nosan" ;;
	noplugin) echo "--no-plugin" ;;
	esac
}

# The configs without the wrap sanitizers, and a check that the edit took.
{ rm -rf "$WORK/configs-nosan" && cp -r "$root/qemu-run/configs" "$WORK/configs-nosan"; } || die "cannot copy the configs"
sed -i 's/^CONFIG_UBSAN_\(SIGNED\|UNSIGNED\|POINTER\)_WRAP=y$/# CONFIG_UBSAN_\1_WRAP is not set/' "$WORK/configs-nosan/ubsan.config"
[ "$(grep -c '^# CONFIG_UBSAN_[A-Z]*_WRAP is not set' "$WORK/configs-nosan/ubsan.config")" = 3 ] ||
	die "qemu-run/configs/ubsan.config does not enable the three wrap sanitizers as expected"

out=$WORK/runtime-cost.txt
exec > >(tee "$out") 2>&1

for v in ${BUILDS//,/ }; do
	for s in prepare config build; do
		echo "runtime-cost: $v: qemu-run $s"
		# shellcheck disable=SC2046
		"$QEMU_RUN" $s $(opts_of "$v") || die "$v: qemu-run $s failed"
	done
done

# One tree: the same prepare stamp (series, patches, Debian version).
stamp=
for v in $VARIANTS; do
	t=$(tree_of "$v")
	[ -f "$t/vmlinux" ] || die "$v: no $t/vmlinux (--build $v builds it)"
	s=$(head -n 1 "$t/.qemu-run-prepared" 2>/dev/null) || die "$v: $t is not prepared"
	[ -z "$stamp" ] || [ "$s" = "$stamp" ] || die "$v: $t was prepared from another series ($s, not $stamp)"
	stamp=$s
done

if [ $BOOT = 1 ]; then
	rm -rf "$WORK/logs"
	exec 9>>"$KBUILD_LOCK" || die "cannot open $KBUILD_LOCK"
	echo "runtime-cost: waiting for $KBUILD_LOCK ..."
	flock 9
	for r in $(seq "$ROUNDS"); do
		for v in $VARIANTS; do
			d=$WORK/logs/r$r-$v
			mkdir -p "$d"
			echo "runtime-cost: round $r/$ROUNDS: $v"
			# shellcheck disable=SC2046
			"$QEMU_RUN" boot $(opts_of "$v") --append "qemu_run.seed=$SEED" --log-dir "$d" > "$d/boot.out" 2>&1 ||
				{ tail -n 5 "$d/boot.out"; die "$v: qemu-run boot failed (round $r; $d/boot.out)"; }
		done
	done
	flock -u 9
fi

# rates: "kernel round stressor bogo-ops bogo-ops/s" for every boot
: > "$WORK/rates"
for r in $(seq "$ROUNDS"); do
	for v in $VARIANTS; do
		log=
		for f in "$WORK/logs/r$r-$v"/latest-*.log; do [ -e "$f" ] && log=$f; done
		[ -n "$log" ] || die "$v: no log of round $r in $WORK/logs/r$r-$v"
		log=$(readlink -f "$log")
		# "# stress_ng: stress-ng: metrc: [567] cpu  11  63.91  0.16  0.02  0.17  60.50"
		n=$(sed -nE 's/.*# stress_ng: stress-ng: metrc: \[[0-9]+\] ([a-z0-9-]+) +([0-9]+) +[0-9.]+ +[0-9.]+ +[0-9.]+ +([0-9.]+) +[0-9.]+[[:space:]]*$/\1 \2 \3/p' "$log" |
			awk -v k="$v" -v r="$r" '{ print k, r, $0 }' | tee -a "$WORK/rates" | wc -l)
		[ "$n" -gt 0 ] || die "$v: no stress-ng metrc: lines in $log (round $r)"
		st=$(sed -nE 's/^.* (ok|not ok) [0-9]+ stress_ng[[:space:]]*$/\1/p' "$log" | head -n 1)
		# the reports as the project's one log reader counts them
		ub=$("$QEMU_RUN" parse "$log" --src-root "$root" --build-root "$BUILD" --profile stress 2>/dev/null |
			sed -nE 's|^ *all UBSan reports/sites +([0-9]+/[0-9]+).*|\1|p')
		echo "round $r $v: $n stressors, stress_ng step: ${st:-no result}, UBSan reports/sites ${ub:-unread}, $(grep -h '^boot_seconds=\|^qemu_status=' "$log.meta" 2>/dev/null | tr '\n' ' ')log $log"
	done
done

echo
echo "wrap checks in vmlinux (call sites of __ubsan_handle_*, llvm-objdump -d):"
printf '%-10s %8s %8s %8s %8s %8s %8s\n' kernel add sub mul negate pointer total
for v in $VARIANTS; do
	vmlinux=$(tree_of "$v")/vmlinux c=$WORK/checks-$v
	# "ffffffff81000317:  callq  0xffffffff814196e0 <__ubsan_handle_add_overflow>"
	[ "$c" -nt "$vmlinux" ] || { "$OBJDUMP" -d --no-show-raw-insn "$vmlinux" > "$c.dis" || die "$OBJDUMP -d $vmlinux failed"
		grep -oE '(call|jmp)q?[[:space:]]+(0x)?[0-9a-f]+ <__ubsan_handle_(add|sub|mul|negate|pointer)_overflow>$' "$c.dis" |
			sed -E 's/.*<__ubsan_handle_([a-z]+)_overflow>/\1/' | sort | uniq -c > "$c"; rm -f "$c.dis"; }
	awk -v k="$v" '{ c[$2] = $1; t += $1 }
		END { printf "%-10s %8d %8d %8d %8d %8d %8d\n", k, c["add"], c["sub"], c["mul"], c["negate"], c["pointer"], t }' "$c"
done

echo
awk -v R="$ROUNDS" '
	{ k = $1; s = $3; rr[k, s, $2] = $5; rate[k, s] += $5 / R; seen[k, s] = 1; n[k, s]++
	  if (!(s in order)) { order[s] = ++ns; name[ns] = s }
	  if (!($5 > 0)) zero[s] = 1; if ($4 < 100) low[s] = 1 }
	END {
		split("nosan noplugin plugin", K)
		for (i = 1; i <= ns; i++) for (j = 1; j <= 3; j++)
			if (n[K[j], name[i]] != R) {
				printf "runtime-cost: stressor %s has %d of %d results in kernel %s\n", name[i], n[K[j], name[i]], R, K[j] > "/dev/stderr"
				bad = 1 }
		if (bad) exit 1
		printf "bogo ops/s (real time), mean of %d round(s); ratios > 1: faster than the kernel divided by\n", R
		printf "%-12s %10s %10s %10s %9s %9s %9s\n", "stressor", "no-san", "sanitizers", "plugin", "san/nosan", "plug/nosan", "plug/san"
		for (i = 1; i <= ns; i++) {
			s = name[i]; a = rate["nosan", s]; b = rate["noplugin", s]; c = rate["plugin", s]
			mark = (s in zero) ? " (a rate of 0: left out)" : (s in low) ? " *" : ""
			if (s in zero) { printf "%-12s %10.2f %10.2f %10.2f %9s %9s %9s%s\n", s, a, b, c, "-", "-", "-", mark; continue }
			printf "%-12s %10.2f %10.2f %10.2f %9.3f %9.3f %9.3f%s\n", s, a, b, c, b / a, c / a, c / b, mark
			g1 += log(b / a); g2 += log(c / a); g3 += log(c / b); m++
			if (!(s in low)) { h1 += log(b / a); h2 += log(c / a); h3 += log(c / b); mh++ }
			for (j = 1; j <= 3; j++) { lo = hi = rr[K[j], s, 1]
				for (r = 2; r <= R; r++) { x = rr[K[j], s, r]; if (x < lo) lo = x; if (x > hi) hi = x }
				if (lo > 0) { sp[j] += log(hi / lo); nsp[j]++ } }
		}
		printf "%-12s %32s %9.3f %9.3f %9.3f  (%d stressors)\n", "geomean", "", exp(g1 / m), exp(g2 / m), exp(g3 / m), m
		if (mh) printf "%-12s %32s %9.3f %9.3f %9.3f  (%d stressors, none marked *: >= 100 bogo ops in every boot)\n", "geomean 100+", "", exp(h1 / mh), exp(h2 / mh), exp(h3 / mh), mh
		if (R > 1) printf "spread between rounds of one kernel (geomean over stressors of max/min bogo ops/s): nosan %.3f, noplugin %.3f, plugin %.3f\n", exp(sp[1] / nsp[1]), exp(sp[2] / nsp[2]), exp(sp[3] / nsp[3])
	}' "$WORK/rates" || die "the stressors differ between the kernels"
echo "runtime-cost: seed $SEED, $ROUNDS round(s), $stamp; written to $out"
