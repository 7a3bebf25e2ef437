#!/bin/bash
# bench/runtime-cost.sh - what the wrap checks cost at run time, in guest
# instructions executed in kernel mode per operation (issue 39), on kernels
# built from one tree (the series, the workload profile's config).
#
# Usage: bench/runtime-cost.sh [-r ROUNDS] [--build LIST|none] [--boot LIST|none]
#                              [--no-boot]
#
# The kernels (x86_64, profile workload's config unless said otherwise):
#   nosan        no wrap sanitizers: UBSAN_SIGNED_WRAP, _UNSIGNED_WRAP and
#                _POINTER_WRAP off (a copy of qemu-run's configs in
#                WORK/configs-nosan; the rest of UBSan stays), --no-plugin,
#                tree BUILD/linux-6.12-workload-nosan
#   stock        the sanitizers as clang gives them, signed and unsigned
#                (--no-plugin; clang emits no pointer check under the
#                kernel's -fno-strict-overflow): BUILD/linux-6.12-workload-noplugin
#   plugin       the plugin and ignorelists with the same checks (pointer
#                mode off: UBSAN_POINTER_WRAP off, WORK/configs-nopointer),
#                tree BUILD/linux-6.12-workload-nopointer
#   plugin-ptr   the plugin with its pointer mode (qemu-run's default
#                variant, what make check builds): BUILD/linux-6.12-workload
#   stock-trap   stock in trap mode (profile workload-trap --no-plugin:
#                UBSAN_TRAP, no test_ubsan): BUILD/linux-6.12-workload-trap-noplugin
#   plugin-trap  plugin in trap mode (profile workload-trap), the production
#                configuration: BUILD/linux-6.12-workload-trap
#
# Builds the kernels of --build (comma list, default all; "none": as they
# are; qemu-run prepare, config, build: they wait for the build lock),
# requires every tree's prepare stamp to be equal, then boots each kernel
# of --boot (default all) ROUNDS times (default 3), interleaved, with
# `qemu-run boot --profile bench`: one CPU, -icount shift=0,sleep=off and
# the kinsn TCG plugin, which counts the instructions executed in kernel
# mode while each stress-ng stressor runs alone for a fixed number of bogo
# operations (qemu-run/init/workload.sh, step bench_ops). Instructions do
# not depend on the host's load, so the boots need no lock.
#
# Per kernel: vmlinux's .text size and the sum of its function symbols'
# sizes (the code: .text is padded to 2 MiB), its wrap checks by kind (call sites of
# __ubsan_handle_{add,sub,mul,negate,pointer}_overflow, or trap sites, ud1
# with the check's kind, in `llvm-objdump -d`), and per stressor the
# kernel instructions per bogo op: (instructions of the stressor's run -
# those of `stress-ng --nop 1 --nop-ops 1`, stress-ng's own start and exit:
# its second run, the first after the boot costs more)
# / bogo ops (fork-exec: its instructions / its N fork and execs), the mean over the rounds; the ratio to nosan and the
# geometric mean of the ratios; the spread of each kernel (over its
# stressors, the largest (max - min) / mean between rounds).
#
#   --no-boot   reprint the tables from the logs of the last run (WORK/logs)
#
# A kernel whose boot fails (stock-trap traps at its first wrap) gets no
# figures: the script says why and goes on.
#
# Environment: BUILD (the build directory, default build of this checkout),
# QEMU_RUN (BUILD/qemu-run/qemu-run), WORK (BUILD/bench), KBUILD_LOCK
# (BUILD/.kbuild.lock, as qemu-run's), OBJDUMP (llvm-objdump-22), SIZE
# (llvm-size-22), NM (llvm-nm-22). Output: also WORK/runtime-cost.txt. Exit 1 on a failed
# build or a log that cannot be read, 2 on bad usage.
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
OBJDUMP=${OBJDUMP:-llvm-objdump-22}
SIZE=${SIZE:-llvm-size-22}
NM=${NM:-llvm-nm-22}
KERNELS="nosan stock plugin plugin-ptr stock-trap plugin-trap"
ROUNDS=3 BUILDS=all BOOTS=all BOOT=1

die() { echo "runtime-cost: $*" >&2; exit 1; }
usage() {
	echo "runtime-cost: $*" >&2
	echo "usage: $0 [-r ROUNDS] [--build LIST|none] [--boot LIST|none] [--no-boot]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	-r) [ $# -ge 2 ] || usage "-r needs a number"; ROUNDS=$2; shift ;;
	--build) [ $# -ge 2 ] || usage "--build needs a list"; BUILDS=$2; shift ;;
	--boot) [ $# -ge 2 ] || usage "--boot needs a list"; BOOTS=$2; shift ;;
	--no-boot) BOOT=0 BUILDS=none ;;
	-h | --help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) usage "unknown option $1" ;;
	esac
	shift
done
case $ROUNDS in '' | *[!0-9]* | 0) usage "-r $ROUNDS: not a number >= 1" ;; esac
list() { # the kernels of a --build/--boot value
	case $1 in all) echo "$KERNELS" ;; none) ;; *)
		for k in ${1//,/ }; do
			case " $KERNELS " in *" $k "*) echo "$k" ;; *) usage "unknown kernel $k ($KERNELS)" ;; esac
		done ;;
	esac
}
BUILDS=$(list "$BUILDS") BOOTS=$(list "$BOOTS")
BUILD=$(cd "${BUILD:-$root/build}" 2>/dev/null && pwd) || usage "no build directory ${BUILD:-$root/build}"
QEMU_RUN=${QEMU_RUN:-$BUILD/qemu-run/qemu-run}
WORK=${WORK:-$BUILD/bench}
export KBUILD_LOCK=${KBUILD_LOCK:-$BUILD/.kbuild.lock}
[ -x "$QEMU_RUN" ] || usage "no qemu-run at $QEMU_RUN (make plugin builds it)"
mkdir -p "$WORK" || die "cannot create $WORK"

tree_of() {
	case $1 in
	nosan) echo "$BUILD/linux-6.12-workload-nosan" ;;
	stock) echo "$BUILD/linux-6.12-workload-noplugin" ;;
	plugin) echo "$BUILD/linux-6.12-workload-nopointer" ;;
	plugin-ptr) echo "$BUILD/linux-6.12-workload" ;;
	stock-trap) echo "$BUILD/linux-6.12-workload-trap-noplugin" ;;
	plugin-trap) echo "$BUILD/linux-6.12-workload-trap" ;;
	esac
}
# qemu-run's options to build a kernel (after the subcommand)
build_opts() {
	echo "--src-root $root --build-root $BUILD --tree $(tree_of "$1")"
	case $1 in
	nosan) echo "--profile workload --no-plugin --configs $WORK/configs-nosan" ;;
	stock) echo "--profile workload --no-plugin" ;;
	plugin) echo "--profile workload --configs $WORK/configs-nopointer" ;;
	plugin-ptr) echo "--profile workload" ;;
	stock-trap) echo "--profile workload-trap --no-plugin" ;;
	plugin-trap) echo "--profile workload-trap" ;;
	esac
}

# The two config copies, and checks that the edits took.
configs_copy() { # NAME: WORK/configs-NAME, a fresh copy of qemu-run's
	rm -rf "$WORK/configs-$1" && cp -r "$root/qemu-run/configs" "$WORK/configs-$1" ||
		die "cannot copy the configs to $WORK/configs-$1"
}
configs_copy nosan
sed -i 's/^CONFIG_UBSAN_\(SIGNED\|UNSIGNED\|POINTER\)_WRAP=y$/# CONFIG_UBSAN_\1_WRAP is not set/' "$WORK/configs-nosan/ubsan.config"
[ "$(grep -c '^# CONFIG_UBSAN_[A-Z]*_WRAP is not set' "$WORK/configs-nosan/ubsan.config")" = 3 ] ||
	die "qemu-run/configs/ubsan.config does not enable the three wrap sanitizers as expected"
configs_copy nopointer
sed -i 's/^CONFIG_UBSAN_POINTER_WRAP=y$/# CONFIG_UBSAN_POINTER_WRAP is not set/' "$WORK/configs-nopointer/ubsan.config"
echo "# bench/runtime-cost.sh: the plugin without its pointer mode" > "$WORK/configs-nopointer/wrap-idiom-pointer.config"
grep -q '^# CONFIG_UBSAN_POINTER_WRAP is not set' "$WORK/configs-nopointer/ubsan.config" ||
	die "qemu-run/configs/ubsan.config does not enable UBSAN_POINTER_WRAP as expected"

out=$WORK/runtime-cost.txt
exec > >(tee "$out") 2>&1

for k in $BUILDS; do
	for s in prepare config build; do
		echo "runtime-cost: $k: qemu-run $s"
		# shellcheck disable=SC2046
		"$QEMU_RUN" $s $(build_opts "$k") || die "$k: qemu-run $s failed"
	done
done

# One tree: the same prepare stamp (series, patches, Debian version).
stamp="" have=""
for k in $KERNELS; do
	t=$(tree_of "$k")
	[ -f "$t/vmlinux" ] || { echo "runtime-cost: $k: no $t/vmlinux (--build $k builds it): left out"; continue; }
	s=$(head -n 1 "$t/.qemu-run-prepared" 2>/dev/null) || die "$k: $t is not prepared"
	[ -z "$stamp" ] || [ "$s" = "$stamp" ] || die "$k: $t was prepared from another series ($s, not $stamp)"
	stamp=$s have="$have $k"
done
[ -n "$have" ] || die "no kernel built"
case " $have " in *" nosan "*) ;; *) echo "runtime-cost: no nosan kernel: no ratios, only each kernel's own figures" ;; esac

if [ $BOOT = 1 ]; then
	for k in $BOOTS; do rm -rf "$WORK/logs/$k"; done
	for r in $(seq "$ROUNDS"); do
		for k in $BOOTS; do
			case " $have " in *" $k "*) ;; *) continue ;; esac
			d=$WORK/logs/$k/r$r
			mkdir -p "$d"
			echo "runtime-cost: round $r/$ROUNDS: $k ($(date +%H:%M:%S))"
			"$QEMU_RUN" boot --src-root "$root" --build-root "$BUILD" --profile bench \
				--tree "$(tree_of "$k")" --log-dir "$d" > "$d/boot.out" 2>&1 ||
				{ echo "runtime-cost: $k: qemu-run boot failed (round $r; $d/boot.out)"; tail -n 3 "$d/boot.out"; }
		done
	done
fi

# ---- static: text and check sites ----
echo
echo "vmlinux: .text bytes, and its wrap checks (llvm-objdump -d): handler call sites"
echo "(call/jmp __ubsan_handle_KIND_overflow) + trap sites (ud1 of the check's kind)"
printf '%-12s %12s %12s %8s %8s %8s %8s %8s %8s %8s\n' kernel .text functions add sub mul negate pointer total "other-ud1"
for k in $have; do
	v=$(tree_of "$k")/vmlinux c=$WORK/sites-$k
	if ! [ "$c" -nt "$v" ]; then
		# "call 0xffffffff814196e0 <__ubsan_handle_add_overflow>";
		# "ud1l 0x15(%eax), %eax": clang's SanitizerHandler kind (0 add,
		# 12 mul, 13 negate, 19 pointer, 21 sub; lit-tests/clang/trap-kinds.c)
		"$OBJDUMP" -d --no-show-raw-insn "$v" |
			sed -nE 's/.*(call|jmp)q?[[:space:]]+(0x)?[0-9a-f]+ <__ubsan_handle_(add|sub|mul|negate|pointer)_overflow>$/\3/p
				s/.*[[:space:]]ud1l?[[:space:]]+\(%eax\).*/ud1 0/p
				s/.*[[:space:]]ud1l?[[:space:]]+0x([0-9a-f]+)\(%eax\).*/ud1 \1/p' |
			awk '$1 != "ud1" { n[$1]++; next }
				{ k = $2 == "0" ? "add" : $2 == "c" ? "mul" : $2 == "d" ? "negate" : $2 == "13" ? "pointer" : $2 == "15" ? "sub" : "other-ud1"; n[k]++ }
				END { for (k in n) print k, n[k] }' > "$c.tmp" && mv "$c.tmp" "$c" ||
			die "$OBJDUMP -d $v failed"
		"$SIZE" -A "$v" | awk '$1 == ".text" { print "text", $2 }' >> "$c"
		# .text is padded to 2 MiB (and _etext with it): the code's size is
		# the sum of the function symbols' sizes
		"$NM" --radix=d -S --defined-only "$v" |
			awk 'NF == 4 && $3 ~ /^[tTwW]$/ { s += $2 } END { print "functions", s + 0 }' >> "$c"
	fi
	awk -v k="$k" '{ n[$1] = $2 }
		END { t = n["add"] + n["sub"] + n["mul"] + n["negate"] + n["pointer"]
		      printf "%-12s %12d %12d %8d %8d %8d %8d %8d %8d %8d\n", k, n["text"], n["functions"], n["add"], n["sub"], n["mul"], n["negate"], n["pointer"], t, n["other-ud1"] }' "$c"
done

# ---- dynamic: kernel instructions per bogo op ----
# rows "kernel round stressor bogo-ops kernel-instructions" of every boot
: > "$WORK/insns"
for k in $have; do
	case " $BOOTS " in *" $k "*) ;; *) [ $BOOT = 0 ] || continue ;; esac
	for r in $(seq "$ROUNDS"); do
		d=$WORK/logs/$k/r$r log=
		for f in "$d"/latest-*.log; do [ -e "$f" ] && log=$(readlink -f "$f"); done
		[ -n "$log" ] || { echo "runtime-cost: $k round $r: no log in $d"; continue; }
		v=$("$QEMU_RUN" parse "$log" --src-root "$root" --build-root "$BUILD" --profile bench 2>/dev/null |
			sed -nE 's/^qemu-run: verdict ([A-Z]+).*/\1/p')
		ub=$("$QEMU_RUN" parse "$log" --src-root "$root" --build-root "$BUILD" --profile bench 2>/dev/null |
			sed -nE 's|^ *all UBSan reports/sites +([0-9]+/[0-9]+).*|\1|p')
		[ -f "$log.insns" ] || { echo "runtime-cost: $k round $r: no $log.insns (verdict ${v:-?})"; continue; }
		# "    # bench_ops: bench: interval 3 pipe ops 20000"
		# "    # bench_ops: stress-ng: metrc: [312] pipe  20000  1.23 ..."
		# and the plugin's "kinsn: interval 3 kernel 123456 user 7890"
		n=$(awk -v k="$k" -v r="$r" '
			FILENAME ~ /\.insns$/ { if ($1 == "kinsn:" && $2 == "interval" && $4 == "kernel") ins[$3] = $5; next }
			/# bench_ops: bench: interval / { sub(/.*# bench_ops: bench: interval /, ""); name[$1] = $2; bops[$1] = $4; if ($1 > last) last = $1; next }
			/# bench_ops: stress-ng: metrc: \[[0-9]+\] [a-z0-9-]+ +[0-9]+ / { sub(/.*metrc: \[[0-9]+\] /, ""); ops[$1] = $2 }
			# fork-exec has no metrics line: its ops are the bench line'"'"'s
			END { for (i = 1; i <= last; i++) if ((i in name) && (i in ins)) {
				print k, r, name[i], (name[i] in ops) ? ops[name[i]] : bops[i], ins[i]; m++ }
			      print m + 0 > "/dev/stderr" }' "$log.insns" "$log" 2>&1 >> "$WORK/insns")
		echo "round $r $k: verdict ${v:-unread}, $n stressor runs counted, UBSan reports/sites ${ub:-unread}, $(grep -h '^boot_seconds=' "$log.meta" 2>/dev/null) log $log"
	done
done

echo
awk -v R="$ROUNDS" -v K="$KERNELS" '
	# a later row of the same stressor replaces an earlier one (nop: the
	# second run, warm)
	{ k = $1; s = $3; seen[k] = 1
	  if (!(s in order)) { order[s] = ++ns; name[ns] = s }
	  ops[k, s, $2] = $4; ins[k, s, $2] = $5; n[k, s]++ }
	END {
		nk = split(K, KS)
		for (j = 1; j <= nk; j++) if (KS[j] in seen) kk[++m] = KS[j]
		# per op: (stressor - nop) / bogo ops, each round; mean and spread
		for (j = 1; j <= m; j++) for (i = 1; i <= ns; i++) {
			k = kk[j]; s = name[i]; if (s == "nop") continue
			lo = hi = sum = 0; c = 0
			for (r = 1; r <= R; r++) {
				if (!((k, s, r) in ins) || !((k, "nop", r) in ins) || ops[k, s, r] <= 0) continue
				# fork-exec: no stress-ng around the ops to take off
				x = (ins[k, s, r] - (s == "fork-exec" ? 0 : ins[k, "nop", r])) / ops[k, s, r]
				if (!c || x < lo) lo = x; if (!c || x > hi) hi = x; sum += x; c++ }
			if (!c) continue
			per[k, s] = sum / c; rounds[k, s] = c
			sp = (hi - lo) / per[k, s]; if (sp > spread[k]) { spread[k] = sp; worst[k] = s }
		}
		printf "kernel instructions per bogo op (mean of the rounds; start and exit of stress-ng taken off)\n"
		printf "%-10s", "stressor"; for (j = 1; j <= m; j++) printf " %12s", kk[j]; printf "\n"
		for (i = 1; i <= ns; i++) { s = name[i]; if (s == "nop") continue
			printf "%-10s", s
			for (j = 1; j <= m; j++) if ((kk[j], s) in per) printf " %12.0f", per[kk[j], s]; else printf " %12s", "-"
			printf "\n" }
		printf "\nspread between rounds (per kernel: the largest (max - min) / mean of its stressors)\n"
		for (j = 1; j <= m; j++) printf "  %-12s %.4f %% (%s), %d round(s)\n", kk[j], 100 * spread[kk[j]], worst[kk[j]], rounds[kk[j], worst[kk[j]]]
		if (!("nosan" in seen)) { printf "\nno figures of the nosan kernel: no ratios\n"; exit 0 }
		printf "\nratio to nosan per stressor, and the geometric mean\n"
		printf "%-10s", "stressor"; for (j = 2; j <= m; j++) printf " %12s", kk[j]; printf "\n"
		for (i = 1; i <= ns; i++) { s = name[i]; if (s == "nop" || !(("nosan", s) in per)) continue
			printf "%-10s", s
			for (j = 2; j <= m; j++) { k = kk[j]
				if ((k, s) in per) { q = per[k, s] / per["nosan", s]; printf " %12.4f", q; g[k] += log(q); ng[k]++ }
				else printf " %12s", "-" }
			printf "\n" }
		printf "%-10s", "geomean"; for (j = 2; j <= m; j++) { k = kk[j]; if (ng[k]) printf " %12.4f", exp(g[k] / ng[k]); else printf " %12s", "-" }
		printf "\n%-10s", "stressors"; for (j = 2; j <= m; j++) printf " %12d", ng[kk[j]]; printf "\n"
		if (ng["stock"] && ng["plugin"]) {
			os = exp(g["stock"] / ng["stock"]) - 1; op = exp(g["plugin"] / ng["plugin"]) - 1
			printf "\noverhead against nosan: stock %.2f %%, plugin %.2f %%: the plugin cuts it by %.1f %% (aim: >= 30 %%)\n", 100 * os, 100 * op, (os > 0 ? 100 * (1 - op / os) : 0) }
		if (ng["plugin-trap"])
			printf "plugin-trap: %.2f %% instructions per op against nosan (aim: <= 5 %%)\n", 100 * (exp(g["plugin-trap"] / ng["plugin-trap"]) - 1)
	}' "$WORK/insns" || die "no table"
for k in $have; do
	t=$(awk '$1 == "functions" { print $2 }' "$WORK/sites-$k")
	[ "$k" = nosan ] && t0=$t
	[ "$k" = nosan ] || [ -z "${t0:-}" ] || echo "functions (code size): $k $(awk -v a="$t" -v b="$t0" 'BEGIN { printf "%+.2f %%", 100 * (a / b - 1) }') against nosan"
done
echo "runtime-cost: $ROUNDS round(s), $stamp; written to $out"
