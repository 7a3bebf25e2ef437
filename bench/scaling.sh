#!/bin/bash
# bench/scaling.sh - how the wrap-idiom pass scales with the checks of one
# function (issue 8, "linear cost").
#
# Usage: bench/scaling.sh [-r ROUNDS] [--straight] [--clang] [N...]
#
# For each N (default 500 1000 2000 4000 8000 16000) bench/gen-checks.py
# writes one function with N unsigned overflow checks; clang -O0 emits it
# unoptimised (-Xclang -disable-llvm-passes, so optnone: the pass decides on
# its promoted copy). Then, the minimum of ROUNDS runs (default 3) of
#   opt -passes=                   (parse and verify: the no-op baseline)
#   opt -passes=wrap-idiom         (the same plus the pass)
# and the pass's own wall time from -time-passes. The table: N, seconds
# of opt without and with the pass, the pass's seconds, microseconds per
# check, and the ratio of opt with the pass to the no-op. The pass is
# near-linear when "us/check" stays within 2x from 1k to 16k; the last
# line says how far it is (a figure, not a test: nothing fails).
#
#   --straight   the one-basic-block mix of gen-checks.py
#   --clang      also clang -O2 without and with the plugin, seconds
#
# Environment: OPT (opt-22), CLANG (clang-22), PLUGIN
# (build/llvm-pass/WrapIdiom.so), WORK (build/bench-scaling).
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=${here%/bench}
OPT=${OPT:-opt-22}
CLANG=${CLANG:-clang-22}
PLUGIN=${PLUGIN:-$root/build/llvm-pass/WrapIdiom.so}
WORK=${WORK:-$root/build/bench-scaling}
ROUNDS=3 MIX="" WITH_CLANG=0 SIZES=""
while [ $# -gt 0 ]; do
  case $1 in
    -r) ROUNDS=$2; shift ;;
    --straight) MIX=--straight ;;
    --clang) WITH_CLANG=1 ;;
    -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "scaling.sh: unknown option $1" >&2; exit 2 ;;
    *) SIZES="$SIZES $1" ;;
  esac
  shift
done
SIZES=${SIZES:-500 1000 2000 4000 8000 16000}
[ -f "$PLUGIN" ] || { echo "scaling.sh: no plugin at $PLUGIN (make plugin)" >&2; exit 2; }
mkdir -p "$WORK"
SAN=-fsanitize=unsigned-integer-overflow

# Wall seconds of the command, from bash's time.
seconds() {
  local TIMEFORMAT=%R t
  t=$( { time "$@" >/dev/null 2>&1; } 2>&1 ) || { echo "scaling.sh: failed: $*" >&2; exit 1; }
  echo "$t"
}

# The minimum of ROUNDS values read on stdin.
minimum() { sort -g | head -1; }

# The wall time -time-passes gives the pass.
pass_seconds() {
  "$OPT" -load-pass-plugin="$PLUGIN" -passes=wrap-idiom -disable-output \
    -time-passes "$1" 2>&1 |
    awk '/Pass execution timing report/ { p = 1 }
         p && $NF == "wrap-idiom" { gsub(/\([^)]*\)/, ""); print $(NF - 1); exit }'
}

tag=${MIX:+straight-}
printf '| N | opt no-op s | opt wrap-idiom s | pass s | us/check | ratio to no-op |'
[ $WITH_CLANG = 1 ] && printf ' clang -O2 s | with plugin s | ratio |'
echo
printf '|---|---|---|---|---|---|'
[ $WITH_CLANG = 1 ] && printf -- '---|---|---|'
echo
PER=""
for n in $SIZES; do
  c=$WORK/${tag}checks-$n.c ll=$WORK/${tag}checks-$n.ll
  if [ ! -f "$ll" ]; then
    python3 "$here/gen-checks.py" $MIX "$n" > "$c" &&
      "$CLANG" -O0 $SAN -Xclang -disable-llvm-passes -S -emit-llvm "$c" -o "$ll" ||
      { echo "scaling.sh: cannot make $ll" >&2; exit 2; }
  fi
  noop=$(for r in $(seq $ROUNDS); do seconds "$OPT" -passes= -disable-output "$ll"; done | minimum)
  with=$(for r in $(seq $ROUNDS); do
    seconds "$OPT" -load-pass-plugin="$PLUGIN" -passes=wrap-idiom -disable-output "$ll"
  done | minimum)
  pass=$(for r in $(seq $ROUNDS); do pass_seconds "$ll"; done | minimum)
  us=$(awk -v p="$pass" -v n="$n" 'BEGIN { printf "%.1f", p * 1e6 / n }')
  ratio=$(awk -v a="$with" -v b="$noop" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
  printf '| %s | %s | %s | %.3f | %s | %s |' "$n" "$noop" "$with" "$pass" "$us" "$ratio"
  if [ $WITH_CLANG = 1 ]; then
    cl=$(for r in $(seq $ROUNDS); do seconds "$CLANG" -O2 $SAN -c "$c" -o /dev/null; done | minimum)
    cp=$(for r in $(seq $ROUNDS); do
      seconds "$CLANG" -O2 $SAN -fpass-plugin="$PLUGIN" -c "$c" -o /dev/null
    done | minimum)
    printf ' %s | %s | %s |' "$cl" "$cp" \
      "$(awk -v a="$cp" -v b="$cl" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
  fi
  echo
  [ "$n" -ge 1000 ] && PER="$PER $us"
done
if [ -n "$PER" ]; then
  echo "$PER" | awk '{ lo = hi = $1; for (i = 2; i <= NF; i++) { if ($i < lo) lo = $i; if ($i > hi) hi = $i }
    printf "us/check from N = 1000 on: %.1f to %.1f, spread %.2fx (near-linear: < 2x)\n", lo, hi, (lo > 0 ? hi / lo : 0) }'
fi
