#!/bin/bash
# fuzz/csmith-diff.sh - differential testing of wrap-idiom with csmith.
#
# Usage: fuzz/csmith-diff.sh [-j JOBS] N SEED
#
# Generates N csmith programs (seeds SEED .. SEED+N-1) and builds each with
# the wrap sanitizers (recover mode, UBSan runtime, -fwrapv) at -O0 and -O2,
# without and with the plugin (-fpass-plugin, -mllvm -wrap-idiom-signed-wrap),
# under -fverify-intermediate-code -Xclang -llvm-verify-each. Then, per -O:
#   - no compiler crash, no verifier failure;
#   - both binaries print the same stdout ("checksum = ...") and exit alike;
#     a timeout in both is skipped, a timeout in one only is a failure (after
#     a retry with 3x the timeout, the machine may be loaded);
#   - every UBSan report (file:line:col) of the plugin binary is also a report
#     of the binary without it: the plugin may remove reports, never add one.
#
# The seed picks one of four kinds of program (seed % 4):
#   safe    csmith as is (its safe-math wrappers; unsigned arithmetic wraps)
#   wrap    csmith + fuzz/wrapmath.h: + - * of 32/64-bit types computed
#           first and tested after (post-wrap tests, csmith's values)
#   raw     csmith + wrapmath.h -DWRAPMATH_RAW: signed + - * wrap for real
#   nosafe  csmith --no-safe-math: raw operators everywhere (also / % <<
#           without guards). Undefined behaviour other than wrap is then
#           possible, and with it -O2 may legally compute anything: each
#           such program is first run built with the rest of UBSan and
#           ASan at -O0; one that reports anything is counted as "UB other
#           than wrap" and not compared (csmith's own rule: programs with
#           UB are discarded)
#
# Failing cases (program, command lines, outputs) are kept under
# $OUT/failures/<seed>-<what>/. Exit status: 0 all good, 1 a crash, verifier
# failure, mismatch, added report or one-sided timeout, 2 a missing
# prerequisite.
#
# Environment: CLANG (clang-22), PLUGIN (build/llvm-pass/WrapIdiom.so), OUT
# (build/fuzz), TIMEOUT (10 s per run), CSMITH (csmith), CSMITH_INC
# (/usr/include/csmith), PLUGIN_FLAGS (extra flags for the plugin builds),
# COMMON_FLAGS (extra flags for both builds; with PLUGIN_FLAGS this compares
# e.g. -fno-strict-overflow against -fno-strict-overflow -fno-wrapv-pointer
# -mllvm -wrap-idiom-wrapv-pointer: `make fuzz-wrapv-pointer`), CSMITH_FLAGS
# (extra csmith options, e.g. --max-pointer-depth 4),
# KEEP=1 keeps every work directory.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=${here%/fuzz}
CLANG=${CLANG:-clang-22}
PLUGIN=${PLUGIN:-$root/build/llvm-pass/WrapIdiom.so}
OUT=${OUT:-$root/build/fuzz}
TIMEOUT=${TIMEOUT:-10}
CSMITH=${CSMITH:-csmith}
CSMITH_INC=${CSMITH_INC:-/usr/include/csmith}
PLUGIN_FLAGS=${PLUGIN_FLAGS:-}
COMMON_FLAGS=${COMMON_FLAGS:-}
CSMITH_FLAGS=${CSMITH_FLAGS:-}
KEEP=${KEEP:-0}
# absolute: the work happens in one directory per program
case $PLUGIN in /*) ;; *) PLUGIN=$PWD/$PLUGIN ;; esac
case $OUT in /*) ;; *) OUT=$PWD/$OUT ;; esac
export CLANG PLUGIN OUT TIMEOUT CSMITH CSMITH_INC PLUGIN_FLAGS COMMON_FLAGS CSMITH_FLAGS KEEP

SAN=signed-integer-overflow,unsigned-integer-overflow,pointer-overflow
KINDS=(safe wrap raw nosafe)

die() { echo "csmith-diff: $*" >&2; exit 2; }

# --- one program: writes $OUT/results/<seed> (key=value lines) -------------
one() {
	local seed=$1 kind=${KINDS[$(($1 % 4))]}
	local dir=$OUT/work/$seed res=$OUT/results/$seed
	local t0=$SECONDS
	rm -rf "$dir"; mkdir -p "$dir"
	cd "$dir" || exit 2
	local -A R=([generated]=0 [compiled]=0 [crash]=0 [verifier]=0
		[compile_error]=0 [mismatch]=0 [timeout_skip]=0
		[timeout_mismatch]=0 [added_report]=0 [reports]=0 [removed]=0
		[static_seen]=0 [static_removed]=0 [o0o2_differ]=0 [other_ub]=0)
	local fails=""

	local gen=("$CSMITH" --seed "$seed" $CSMITH_FLAGS -o p.c) extra=()
	case $kind in
	wrap) extra=(-include "$here/wrapmath.h") ;;
	raw) extra=(-include "$here/wrapmath.h" -DWRAPMATH_RAW) ;;
	nosafe) gen+=(--no-safe-math) ;;
	esac
	echo "kind=$kind" >cmds.txt
	echo "${gen[*]}" >>cmds.txt
	if ! "${gen[@]}" >csmith.log 2>&1; then
		echo "gen_failed=1" >"$res"
		return 0
	fi
	R[generated]=1

	local common=(-fsanitize=$SAN -fsanitize-recover=$SAN -fwrapv -w
		-fno-crash-diagnostics -fverify-intermediate-code
		-Xclang -llvm-verify-each -I"$CSMITH_INC" "${extra[@]}" $COMMON_FLAGS)
	local plug=(-fpass-plugin="$PLUGIN" -mllvm -wrap-idiom-signed-wrap
		-save-stats=obj $PLUGIN_FLAGS)
	# clang 19 parses -mllvm before it loads pass plugins: load it twice.
	[ "${CLANG_MAJOR:-22}" -lt 20 ] && plug=(-fplugin="$PLUGIN" "${plug[@]}")

	local o v ok=1 cc rc
	for o in 0 2; do
		for v in base plug; do
			cc=("$CLANG" -O$o "${common[@]}")
			[ $v = plug ] && cc+=("${plug[@]}")
			cc+=(-c p.c -o $v$o.o)
			echo "${cc[*]}" >>cmds.txt
			timeout 600 "${cc[@]}" 2>$v$o.cc.err
			rc=$?
			if [ $rc -ne 0 ]; then
				ok=0
				if grep -q "Broken module\|Broken function\|verification failed\|does not dominate" $v$o.cc.err; then
					R[verifier]=$((R[verifier] + 1)); fails+=" verifier-$v-O$o"
				elif [ $rc -ge 124 ] || grep -q "PLEASE submit\|due to signal\|symbol lookup error\|Assertion\|LLVM ERROR\|error in backend" $v$o.cc.err; then
					R[crash]=$((R[crash] + 1)); fails+=" crash-$v-O$o"
				elif [ $v = plug ]; then
					# the program compiles without the plugin only
					R[crash]=$((R[crash] + 1)); fails+=" error-$v-O$o"
				else
					R[compile_error]=$((R[compile_error] + 1))
				fi
				continue
			fi
			"$CLANG" -fsanitize=$SAN $v$o.o -o $v$o 2>$v$o.ld.err || {
				ok=0; R[compile_error]=$((R[compile_error] + 1)); continue; }
		done
	done
	# nosafe: screen out programs with UB other than wrap (see above)
	if [ $kind = nosafe ] && [ $ok = 1 ]; then
		echo "$CLANG -O0 -w -fwrapv -fsanitize=undefined,address -fno-sanitize=$SAN -I$CSMITH_INC p.c -o ub" >>cmds.txt
		if "$CLANG" -O0 -w -fwrapv -fsanitize=undefined,address -fno-sanitize=$SAN \
			-I"$CSMITH_INC" p.c -o ub 2>ub.cc.err; then
			UBSAN_OPTIONS=print_stacktrace=0 ASAN_OPTIONS=detect_leaks=0 \
				timeout -k 2 "$((TIMEOUT * 3))" ./ub >ub.out 2>ub.err
			if grep -q "runtime error:\|ERROR: AddressSanitizer" ub.err; then
				R[other_ub]=1
				rm -f base0 base2 plug0 plug2 # not compared
			fi
		fi
	fi
	if [ -f p.stats ]; then # the last plugin build (-O2)
		R[static_seen]=$(sed -n 's/.*"wrap-idiom.NumChecksSeen": *\([0-9]*\).*/\1/p' p.stats)
		R[static_removed]=$(sed -n 's/.*"wrap-idiom.NumChecksRemoved": *\([0-9]*\).*/\1/p' p.stats)
		: "${R[static_seen]:=0}" "${R[static_removed]:=0}"
	fi
	[ $ok = 1 ] && R[compiled]=1

	# run: stdout, UBSan reports on stderr, exit status
	local t
	run() { # bin timeout
		UBSAN_OPTIONS=print_stacktrace=0 timeout -k 2 "$2" ./$1 >$1.out 2>$1.err
		echo $? >$1.rc
	}
	timedout() { local r; r=$(cat $1.rc); [ "$r" = 124 ] || [ "$r" = 137 ]; }
	reports() { grep -o '^[^ ]*:[0-9]*:[0-9]*: runtime error' $1.err |
		sed 's/: runtime error$//' | sort -u; }
	for o in 0 2; do
		[ -x base$o ] && [ -x plug$o ] || continue
		run base$o "$TIMEOUT"; run plug$o "$TIMEOUT"
		if timedout base$o && timedout plug$o; then
			R[timeout_skip]=$((R[timeout_skip] + 1)); continue
		fi
		if timedout base$o || timedout plug$o; then
			t=$((TIMEOUT * 3)) # loaded machine? once more, longer
			run base$o $t; run plug$o $t
			if timedout base$o && timedout plug$o; then
				R[timeout_skip]=$((R[timeout_skip] + 1)); continue
			fi
			if timedout base$o || timedout plug$o; then
				R[timeout_mismatch]=$((R[timeout_mismatch] + 1))
				fails+=" timeout-O$o"; continue
			fi
		fi
		if ! cmp -s base$o.out plug$o.out || ! cmp -s base$o.rc plug$o.rc; then
			R[mismatch]=$((R[mismatch] + 1)); fails+=" mismatch-O$o"
		fi
		reports base$o >base$o.rep; reports plug$o >plug$o.rep
		R[reports]=$((R[reports] + $(wc -l <base$o.rep)))
		R[removed]=$((R[removed] + $(comm -23 base$o.rep plug$o.rep | wc -l)))
		if [ -n "$(comm -13 base$o.rep plug$o.rep)" ]; then
			R[added_report]=$((R[added_report] + 1)); fails+=" added-report-O$o"
		fi
	done
	if [ -f base0.out ] && [ -f base2.out ] && ! timedout base0 && ! timedout base2 &&
		! cmp -s base0.out base2.out; then
		R[o0o2_differ]=1 # information only: not a plugin question
	fi

	local k
	{
		echo "kind=$kind"
		for k in "${!R[@]}"; do echo "$k=${R[$k]}"; done
		echo "seconds=$((SECONDS - t0))"
		echo "fails=${fails# }"
	} >"$res"
	cd "$OUT" || exit 2
	if [ -n "$fails" ]; then
		local f=$OUT/failures/$seed-$(echo ${fails# } | tr ' ' '+')
		rm -rf "$f"; mkdir -p "$OUT/failures"
		rm -f "$dir"/*.o; mv "$dir" "$f"
		echo "csmith-diff: seed $seed ($kind): FAIL:$fails -> $f" >&2
	elif [ "$KEEP" != 1 ]; then
		rm -rf "$dir"
	fi
	return 0
}

if [ "${1:-}" = --one ]; then
	one "$2"
	exit 0
fi

# --- driver ------------------------------------------------------------------
JOBS=1
case ${1:-} in
-j) JOBS=${2:-1}; shift 2 ;;
-j*) JOBS=${1#-j}; shift ;;
esac
[ $# -eq 2 ] || { sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
N=$1 SEED=$2
case $N$SEED in *[!0-9]*) die "N and SEED must be numbers" ;; esac

command -v "$CSMITH" >/dev/null || die "$CSMITH not found (scripts/deps.sh fuzz)"
[ -f "$CSMITH_INC/csmith.h" ] || die "$CSMITH_INC/csmith.h not found (scripts/deps.sh fuzz)"
command -v "$CLANG" >/dev/null || die "$CLANG not found"
[ -f "$PLUGIN" ] || die "plugin $PLUGIN not built (make plugin, or set PLUGIN=)"
CLANG_MAJOR=$("$CLANG" -dumpversion | cut -d. -f1)
export CLANG_MAJOR
# The UBSan runtime must link.
probe=$(mktemp -d)
echo 'int main(void){return 0;}' >"$probe/t.c"
"$CLANG" -fsanitize=$SAN "$probe/t.c" -o "$probe/t" 2>"$probe/err" ||
	{ cat "$probe/err" >&2; rm -rf "$probe"; die "$CLANG cannot link the UBSan runtime (libclang-rt-$CLANG_MAJOR-dev)"; }
rm -rf "$probe"

mkdir -p "$OUT/results" "$OUT/work"
last=$((SEED + N - 1))
for s in $(seq "$SEED" "$last"); do rm -f "$OUT/results/$s"; done
echo "csmith-diff: $N programs, seeds $SEED..$last, $CLANG (LLVM $CLANG_MAJOR), plugin $PLUGIN, -j$JOBS, timeout ${TIMEOUT}s"
start=$SECONDS
seq "$SEED" "$last" | xargs -P "$JOBS" -n 1 "$0" --one

# --- summary -----------------------------------------------------------------
declare -A S
keys="generated compiled crash verifier compile_error mismatch timeout_mismatch added_report timeout_skip other_ub reports removed static_seen static_removed o0o2_differ"
for k in $keys; do S[$k]=0; done
missing=0
declare -A K
for s in $(seq "$SEED" "$last"); do
	f=$OUT/results/$s
	[ -f "$f" ] || { missing=$((missing + 1)); continue; }
	kind=$(sed -n 's/^kind=//p' "$f")
	[ -n "$kind" ] && K[$kind]=$((${K[$kind]:-0} + 1))
	for k in $keys; do
		v=$(sed -n "s/^$k=//p" "$f")
		S[$k]=$((S[$k] + ${v:-0}))
	done
done
printf '%-34s %s\n' \
	"programs generated" "${S[generated]} of $N (safe ${K[safe]:-0}, wrap ${K[wrap]:-0}, raw ${K[raw]:-0}, nosafe ${K[nosafe]:-0})" \
	"compiled (all 4 builds)" "${S[compiled]}" \
	"UB other than wrap (not compared)" "${S[other_ub]}" \
	"compiler crashes" "${S[crash]}" \
	"verifier failures" "${S[verifier]}" \
	"checksum/exit mismatches" "${S[mismatch]}" \
	"timeout in one variant only" "${S[timeout_mismatch]}" \
	"reports added by the plugin" "${S[added_report]}" \
	"timeouts in both (skipped)" "${S[timeout_skip]}" \
	"compile errors without plugin" "${S[compile_error]}" \
	"UBSan report sites (no plugin)" "${S[reports]}" \
	"report sites removed by plugin" "${S[removed]}" \
	"checks seen/removed (-O2, static)" "${S[static_seen]} / ${S[static_removed]}" \
	"-O0/-O2 differ (info)" "${S[o0o2_differ]}" \
	"time" "$((SECONDS - start)) s"
bad=$((S[crash] + S[verifier] + S[mismatch] + S[timeout_mismatch] + S[added_report] + missing))
if [ $bad -ne 0 ]; then
	echo "csmith-diff: FAIL ($bad problems; cases in $OUT/failures/)"
	exit 1
fi
echo "csmith-diff: PASS"
