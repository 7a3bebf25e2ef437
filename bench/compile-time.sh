#!/bin/bash
# bench/compile-time.sh - what the wrap-idiom plugin costs at compile time.
#
# Usage: bench/compile-time.sh [-n N] [--only NAME] [--callgrind NAME|all] [--check] [--setup-only] [--wrapv-pointer]
#
# Compiles big real C files -O2 with the wrap sanitizers
#   -fsanitize=signed-integer-overflow,unsigned-integer-overflow,pointer-overflow
# without and with the plugin, N rounds each (default 5), interleaved (A B,
# B A, ...), and prints per file: the minimum wall time of each variant,
# their ratio, the same for CPU time (user+sys), the pass's share of the
# compilation from clang's -ftime-report (pass "wrap-idiom"), and the checks
# the plugin saw and removed (-save-stats). The target is a ratio < 1.01.
#
# Files: six Linux 6.12 translation units (defconfig, their kbuild command
# lines; the plugin gets -wrap-idiom-signed-wrap and -wrap-idiom-pointer-wrap
# as in kbuild, the kernel builds with -fno-strict-overflow, and, as kbuild
# builds every file with the plugin, -fsanitize=implicit-integer-sign-change
# -mllvm -wrap-idiom-conversion-facts: the front end's checks the plugin
# reads and removes are part of its cost) and the sqlite
# 3.40.1 amalgamation (plain -O2, no wrap flags).
#
# Setup (idempotent, under $WORK, default build/bench): unpacks
# /usr/src/linux-source-6.12.tar.xz, `make LLVM=-22 defconfig prepare` and
# the six objects, to get their command lines (every kernel make runs under
# `flock $KBUILD_LOCK`); fetches sqlite3's Debian source with apt-get source
# (a private sources list: the system's apt configuration is not touched)
# and makes sqlite3.c. The measurements run holding $KBUILD_LOCK, so no kernel
# build of another user of the machine runs meanwhile.
#
#   -n N              rounds per variant (default 5; 0: no timing)
#   --only NAME       only the files whose name contains NAME (e.g. sqlite3)
#   --callgrind NAME  also count the instructions executed (valgrind
#                     --tool=callgrind, ~50x slower, deterministic) for the
#                     files whose name contains NAME, or "all": total without
#                     and with the plugin, and inside the pass
#   --check           exit 1 when the overall ratio is >= 1.01 (instructions
#                     if counted, else wall time)
#   --setup-only      set up and stop
#   --wrapv-pointer   the kernel files as CONFIG_UBSAN_WRAP_IDIOM_POINTER
#                     builds them: -fno-wrapv-pointer for both variants (so
#                     clang emits the pointer checks), and the plugin with
#                     -wrap-idiom-wrapv-pointer (issue 11's mode)
#
# Environment: CLANG (clang-22), BUILD (the checkout's build),
# PLUGIN ($BUILD/llvm-pass/WrapIdiom.so), WORK ($BUILD/bench), KBUILD_LOCK
# ($BUILD/.kbuild.lock, as qemu-run's; users sharing a machine export one),
# KLLVM (kernel make LLVM=, -22). Exit status: 0 done, 1 --check failed,
# 2 a prerequisite is missing or the setup failed.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=${here%/bench}
CLANG=${CLANG:-clang-22}
BUILD=${BUILD:-$root/build}
PLUGIN=${PLUGIN:-$BUILD/llvm-pass/WrapIdiom.so}
WORK=${WORK:-$BUILD/bench}
KBUILD_LOCK=${KBUILD_LOCK:-$BUILD/.kbuild.lock}
KLLVM=${KLLVM:--22}
# absolute: the compilations run in the kernel and sqlite directories
case $KBUILD_LOCK in /*) ;; *) KBUILD_LOCK=$PWD/$KBUILD_LOCK ;; esac
case $PLUGIN in /*) ;; *) PLUGIN=$PWD/$PLUGIN ;; esac
case $WORK in /*) ;; *) WORK=$PWD/$WORK ;; esac
KTAR=/usr/src/linux-source-6.12.tar.xz
KTREE=$WORK/linux-6.12
SQDIR=$WORK/sqlite
KOBJS="kernel/sched/fair.o mm/page_alloc.o fs/namei.o kernel/fork.o lib/vsprintf.o net/core/dev.o"
SAN="-fsanitize=signed-integer-overflow,unsigned-integer-overflow,pointer-overflow"
# What kbuild adds with the plugin (kernel/patches: the Kbuild wiring).
FACTS="-fsanitize=implicit-integer-sign-change -mllvm -wrap-idiom-conversion-facts"

N=5 ONLY="" CG="" CHECK=0 SETUP_ONLY=0 WRAPV=0
while [ $# -gt 0 ]; do
	case $1 in
	-n) N=${2:-}; shift 2 ;;
	--only) ONLY=${2:-}; shift 2 ;;
	--callgrind) CG=${2:-}; shift 2 ;;
	--check) CHECK=1; shift ;;
	--setup-only) SETUP_ONLY=1; shift ;;
	--wrapv-pointer) WRAPV=1; shift ;;
	*) sed -n '4p' "$0" | sed 's/^# //' >&2; exit 2 ;;
	esac
done
case $N in '' | *[!0-9]*) echo "compile-time: -n wants a number" >&2; exit 2 ;; esac
[ "$N" -gt 0 ] || [ -n "$CG" ] || { echo "compile-time: -n 0 without --callgrind: nothing to do" >&2; exit 2; }

die() { echo "compile-time: $*" >&2; exit 2; }
need() { command -v "$1" >/dev/null || die "$1 not found ($2)"; }

# --- prerequisites -------------------------------------------------------------
need "$CLANG" "scripts/deps.sh plugin"
need flock "util-linux"
need make "scripts/deps.sh plugin"
need python3 "scripts/deps.sh plugin"
[ -f "$PLUGIN" ] || die "plugin $PLUGIN not built (make plugin, or set PLUGIN=)"
[ -z "$CG" ] || need valgrind "scripts/deps.sh bench"
CLANG_MAJOR=$("$CLANG" -dumpversion | cut -d. -f1)
PLUGIN_LOAD="-fpass-plugin=$PLUGIN"
# clang 19 parses -mllvm before it loads pass plugins: load it as a plugin too.
[ "$CLANG_MAJOR" -lt 20 ] && PLUGIN_LOAD="-fplugin=$PLUGIN $PLUGIN_LOAD"
mkdir -p "$WORK" "$(dirname "$KBUILD_LOCK")" || die "cannot create $WORK or the directory of $KBUILD_LOCK"

# --- setup: kernel -------------------------------------------------------------
setup_kernel() {
	local o missing=""
	for o in $KOBJS; do
		[ -f "$KTREE/$(dirname $o)/.$(basename $o).cmd" ] || missing="$missing $o"
	done
	[ -z "$missing" ] && return 0
	[ -f "$KTAR" ] || die "$KTAR missing (scripts/deps.sh kernel: linux-source-6.12)"
	need xz "scripts/deps.sh kernel"
	need bc "scripts/deps.sh kernel"
	need flex "scripts/deps.sh kernel"
	need bison "scripts/deps.sh kernel"
	need "clang$KLLVM" "make LLVM=$KLLVM"
	if [ ! -f "$KTREE/Makefile" ]; then
		echo "compile-time: unpacking $KTAR into $KTREE"
		rm -rf "$WORK/linux-source-6.12" "$KTREE"
		tar -C "$WORK" -xJf "$KTAR" || die "unpacking $KTAR failed"
		mv "$WORK/linux-source-6.12" "$KTREE" || die "cannot create $KTREE"
	fi
	echo "compile-time: kernel defconfig, prepare and$missing (under flock $KBUILD_LOCK; log $WORK/kernel.log)"
	(
		cd "$KTREE" || exit 1
		[ -f .config ] || flock "$KBUILD_LOCK" make LLVM=$KLLVM defconfig || exit 1
		# shellcheck disable=SC2086
		flock "$KBUILD_LOCK" make LLVM=$KLLVM -j"$(nproc)" prepare $missing
	) >"$WORK/kernel.log" 2>&1 || die "kernel setup failed, see $WORK/kernel.log"
}

# --- setup: sqlite amalgamation -------------------------------------------------
setup_sqlite() {
	[ -f "$SQDIR/bld/sqlite3.c" ] && return 0
	need apt-get "Debian apt"
	need tclsh "scripts/deps.sh bench: tcl"
	local D=$SQDIR/apt tarball
	mkdir -p "$D/lists/partial" "$D/cache/archives/partial"
	echo "deb-src http://deb.debian.org/debian bookworm main" >"$D/sources.list"
	local O=(-o "Dir::Etc::SourceList=$D/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$D/lists" -o "Dir::Cache=$D/cache")
	tarball=$(ls "$D"/sqlite3_*.orig.tar.xz 2>/dev/null | head -1)
	if [ -z "$tarball" ]; then
		echo "compile-time: fetching the sqlite3 source (apt-get source, private sources list)"
		apt-get "${O[@]}" update -q >"$SQDIR/apt.log" 2>&1 &&
			(cd "$D" && apt-get "${O[@]}" source --download-only sqlite3) >>"$SQDIR/apt.log" 2>&1 ||
			die "apt-get source sqlite3 failed, see $SQDIR/apt.log"
		tarball=$(ls "$D"/sqlite3_*.orig.tar.xz 2>/dev/null | head -1)
		[ -n "$tarball" ] || die "no sqlite3_*.orig.tar.xz in $D"
	fi
	echo "compile-time: making sqlite3.c from $(basename "$tarball")"
	rm -rf "$SQDIR/src" "$SQDIR/bld"
	mkdir -p "$SQDIR/src" "$SQDIR/bld"
	tar -C "$SQDIR/src" --strip-components=1 -xJf "$tarball" || die "unpacking $tarball failed"
	(cd "$SQDIR/bld" && ../src/configure CC="$CLANG" && make sqlite3.c) >"$SQDIR/build.log" 2>&1 ||
		die "making sqlite3.c failed, see $SQDIR/build.log"
}

want() { [ -z "$ONLY" ] || case $1 in *"$ONLY"*) return 0 ;; *) return 1 ;; esac; }

for o in $KOBJS; do want "$o" && { setup_kernel; break; }; done
want sqlite3.c && setup_sqlite
[ $SETUP_ONLY = 1 ] && { echo "compile-time: setup done"; exit 0; }

# --- the compile commands -------------------------------------------------------
# NAME DIR BASE-COMMAND PLUGIN-FLAGS; the command writes $OUTDIR/<name>/out.o
names=() dirs=() cmds=() pflags=()
for o in $KOBJS; do
	want "$o" || continue
	cmdfile=$KTREE/$(dirname $o)/.$(basename $o).cmd
	c=$(sed -n "1s/^savedcmd_[^ ]* := //p" "$cmdfile")
	[ -n "$c" ] || die "no command line in $cmdfile"
	# no dependency file, no -Werror (the sanitizers are not in kbuild's
	# warning set), output to our own object
	c=$(echo "$c" | sed -e 's/ -Wp,-MMD,[^ ]*//' -e 's/ -Werror / /' -e "s| -o $o | -o @OUT@ |")
	if [ $WRAPV = 1 ]; then
		names+=("${o%.o}.c") dirs+=("$KTREE") cmds+=("$c $SAN -fno-wrapv-pointer")
		pflags+=("$PLUGIN_LOAD -mllvm -wrap-idiom-signed-wrap -mllvm -wrap-idiom-wrapv-pointer $FACTS")
		continue
	fi
	names+=("${o%.o}.c") dirs+=("$KTREE") cmds+=("$c $SAN")
	pflags+=("$PLUGIN_LOAD -mllvm -wrap-idiom-signed-wrap -mllvm -wrap-idiom-pointer-wrap $FACTS")
done
if want sqlite3.c; then
	names+=(sqlite3.c) dirs+=("$SQDIR/bld") cmds+=("$CLANG -O2 $SAN -c sqlite3.c -o @OUT@")
	pflags+=("$PLUGIN_LOAD")
fi
[ ${#names[@]} -gt 0 ] || die "no file matches --only $ONLY"

OUTDIR=$WORK/out
mkdir -p "$OUTDIR"
# run I VARIANT [extra flags]: compile, print "wall cpu" (seconds)
run() {
	local i=$1 v=$2 out c t
	shift 2
	out=$OUTDIR/$(echo "${names[$i]}" | tr / _)
	mkdir -p "$out"
	c=${cmds[$i]//@OUT@/$out/$v.o}
	[ "$v" = plug ] && c="$c ${pflags[$i]}"
	t=$(cd "${dirs[$i]}" && { TIMEFORMAT='%3R %3U %3S'; time eval "$c $*" >"$out/$v.log" 2>&1; } 2>&1) ||
		{ echo "compile-time: compiling ${names[$i]} ($v) failed:" >&2
		  echo "  (cd ${dirs[$i]} && $c $*)" >&2; tail -5 "$out/$v.log" >&2; exit 2; }
	echo "$t" | awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }'
}

# stats I: the plugin's counters and its -ftime-report share, one extra run
stats() {
	local i=$1 out st
	out=$OUTDIR/$(echo "${names[$i]}" | tr / _)
	rm -f "$out"/*.stats
	run "$i" plug -ftime-report -save-stats=obj >/dev/null
	st=$(ls "$out"/*.stats 2>/dev/null | head -1)
	[ -n "$st" ] || die "no -save-stats file in $out"
	python3 - "$st" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
total = sum(s.get("time.clang.%s.wall" % k, 0) for k in ("frontend", "irgen", "optimizer", "codegen"))
# the module step and the function pass (llvm-pass/passes/WrapIdiom.h)
pw = s.get("time.pass.wrap-idiom.wall", 0) + s.get("time.pass.wrap-idiom-module.wall", 0)
idioms = ",".join("%s:%d" % (k[len("wrap-idiom.NumIdiom"):], v) for k, v in sorted(s.items())
                  if k.startswith("wrap-idiom.NumIdiom") and v)
print("%.4f %.3f %.2f %d %d %s" % (pw, total, 100 * pw / total if total else 0,
      s.get("wrap-idiom.NumChecksSeen", 0), s.get("wrap-idiom.NumChecksRemoved", 0), idioms or "-"))
EOF
}

echo "compile-time: $CLANG (LLVM $CLANG_MAJOR), plugin $PLUGIN"
echo "compile-time: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "compile-time: -O2 $SAN"
ratio="" irratio=""

# --- wall and CPU time, min of N, interleaved -------------------------------------
if [ "$N" -gt 0 ]; then
	echo "compile-time: $N rounds per variant, interleaved, under flock $KBUILD_LOCK"
	echo
	printf '%-22s %9s %9s %7s %9s %9s %7s %9s %7s %7s  %s\n' file "wall-base" "wall-plug" ratio \
		"cpu-base" "cpu-plug" ratio "pass(s)" "pass%" "checks" "removed (idioms)"
	# Hold the lock for the whole timed section: one wait, and the files
	# are measured back to back with no kernel build of another user.
	exec 9>>"$KBUILD_LOCK"
	echo "compile-time: waiting for $KBUILD_LOCK ..." >&2
	flock 9
	sum_bw=0 sum_pw=0 sum_bc=0 sum_pc=0
	for i in "${!names[@]}"; do
		# untimed: warm the caches, check both variants build, the stats
		run "$i" base >/dev/null
		read -r pass total share seen removed idioms <<<"$(stats "$i")"
		bw=999999 pw=999999 bc=999999 pc=999999
		for r in $(seq 1 "$N"); do
			if [ $((r % 2)) = 1 ]; then order="base plug"; else order="plug base"; fi
			for v in $order; do
				read -r w c <<<"$(run "$i" $v)"
				if [ $v = base ]; then
					bw=$(awk -v a="$bw" -v b="$w" 'BEGIN{print (b<a)?b:a}')
					bc=$(awk -v a="$bc" -v b="$c" 'BEGIN{print (b<a)?b:a}')
				else
					pw=$(awk -v a="$pw" -v b="$w" 'BEGIN{print (b<a)?b:a}')
					pc=$(awk -v a="$pc" -v b="$c" 'BEGIN{print (b<a)?b:a}')
				fi
			done
		done
		awk -v f="${names[$i]}" -v bw="$bw" -v pw="$pw" -v bc="$bc" -v pc="$pc" -v ps="$pass" \
			-v sh="$share" -v se="$seen" -v rm="$removed" -v id="$idioms" 'BEGIN {
			printf "%-22s %9.3f %9.3f %7.4f %9.3f %9.3f %7.4f %9.4f %6.2f%% %7d  %d (%s)\n",
				f, bw, pw, pw / bw, bc, pc, pc / bc, ps, sh, se, rm, id }'
		sum_bw=$(awk -v a="$sum_bw" -v b="$bw" 'BEGIN{print a+b}')
		sum_pw=$(awk -v a="$sum_pw" -v b="$pw" 'BEGIN{print a+b}')
		sum_bc=$(awk -v a="$sum_bc" -v b="$bc" 'BEGIN{print a+b}')
		sum_pc=$(awk -v a="$sum_pc" -v b="$pc" 'BEGIN{print a+b}')
	done
	flock -u 9
	ratio=$(awk -v a="$sum_bw" -v b="$sum_pw" 'BEGIN{printf "%.4f", b/a}')
	awk -v bw="$sum_bw" -v pw="$sum_pw" -v bc="$sum_bc" -v pc="$sum_pc" 'BEGIN {
		printf "%-22s %9.3f %9.3f %7.4f %9.3f %9.3f %7.4f\n", "TOTAL", bw, pw, pw / bw, bc, pc, pc / bc }'
	echo
	echo "overall ratio (sum of min wall times, with/without plugin): $ratio (target < 1.01)"
fi

# --- callgrind: instructions executed, deterministic --------------------------------
if [ -n "$CG" ]; then
	out=$OUTDIR/callgrind
	mkdir -p "$out"
	echo
	echo "callgrind: instructions executed by the whole compilation (clang driver and"
	echo "cc1 in one process), without and with the plugin; 'pass' is the plugin's"
	echo "WrapIdiomModulePass::run and WrapIdiomPass::run inclusive, summed."
	echo "inclusive. Both variants run at once: the counts do not depend on the load."
	echo
	printf '%-22s %15s %15s %7s %13s %6s\n' file "Ir-base" "Ir-plug" ratio "Ir-pass" "pass%"
	sum_b=0 sum_p=0 sum_s=0 found=0
	for i in "${!names[@]}"; do
		[ "$CG" = all ] || case ${names[$i]} in *"$CG"*) ;; *) continue ;; esac
		found=1
		f=$out/$(echo "${names[$i]}" | tr / _)
		for v in base plug; do
			c=${cmds[$i]//@OUT@/$f.$v.o}
			[ $v = plug ] && c="$c ${pflags[$i]}"
			(cd "${dirs[$i]}" && eval "valgrind --tool=callgrind --callgrind-out-file=$f.$v.cg $c") \
				>"$f.$v.log" 2>&1 &
		done
		wait
		b=$(sed -n 's/^summary: //p' "$f.base.cg")
		p=$(sed -n 's/^summary: //p' "$f.plug.cg")
		[ -n "$b" ] && [ -n "$p" ] || die "callgrind on ${names[$i]} failed, see $f.*.log"
		s=$(callgrind_annotate --inclusive=yes --threshold=100 "$f.plug.cg" 2>/dev/null |
			grep -E 'wrapidiom::WrapIdiom(Module)?Pass::run\(' |
			awk '{gsub(",","",$1); s += $1} END {print s + 0}')
		s=${s:-0}
		awk -v f="${names[$i]}" -v b="$b" -v p="$p" -v s="$s" 'BEGIN {
			printf "%-22s %15.0f %15.0f %7.4f %13.0f %5.2f%%\n", f, b, p, p / b, s, 100 * s / p }'
		sum_b=$((sum_b + b)) sum_p=$((sum_p + p)) sum_s=$((sum_s + s))
	done
	[ $found = 1 ] || die "--callgrind $CG: no such file among: ${names[*]}"
	awk -v b="$sum_b" -v p="$sum_p" -v s="$sum_s" 'BEGIN {
		printf "%-22s %15.0f %15.0f %7.4f %13.0f %5.2f%%\n", "TOTAL", b, p, p / b, s, 100 * s / p }'
	irratio=$(awk -v b="$sum_b" -v p="$sum_p" 'BEGIN{printf "%.4f", p/b}')
	echo
	echo "overall ratio (instructions, with/without plugin): $irratio (target < 1.01)"
fi

# --check: the instruction count when measured (the wall time of a loaded
# machine is noisier than 1 %), else the wall time.
verdict=${irratio:-$ratio}
if [ $CHECK = 1 ] && awk -v r="$verdict" 'BEGIN{exit !(r >= 1.01)}'; then
	echo "compile-time: FAIL: overall ratio $verdict >= 1.01"
	exit 1
fi
exit 0
