#!/bin/sh
# Run the console-log fuzz target (fuzz-consolelog.c, built by CMake with
# clang's libFuzzer, ASan and UBSan: CMakeLists.txt beside this file) for
# SECONDS on a corpus seeded with the project's saved console logs. Any
# crash, sanitizer report, leak, input slower than 10 s or over the memory
# limits fails (exit non-zero), and the input that did it is kept in OUT/.
# Usage: run.sh SECONDS    (OUT: where the target is and the corpus is
# kept, default build/fuzz-consolelog; `make fuzz-log` builds the target
# there first: cmake --build build --target fuzz-consolelog)
set -eu
seconds=${1:?usage: run.sh SECONDS}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${OUT:-$root/build/fuzz-consolelog}
mkdir -p "$out"
out=$(cd "$out" && pwd)   # absolute: the fuzzer runs in $out/run
if [ ! -x "$out/fuzz-consolelog" ]; then
	echo "fuzz-consolelog: no $out/fuzz-consolelog: build it with cmake --build <build> --target fuzz-consolelog (make fuzz-log does)" >&2
	exit 1
fi
mkdir -p "$out/corpus" "$out/seeds" "$out/run"
# seeds: every saved console log of the tests (small: a few MB in all)
for f in "$root"/lit-tests/qemu-run/Inputs/*.log "$root"/lit-tests/tools/Inputs/logs/*.log; do
	cp "$f" "$out/seeds/"
done
cd "$out/run"   # parse_text looks for fuzz.log.meta beside the working directory
"$out/fuzz-consolelog" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
	-malloc_limit_mb=1024 -max_len=262144 -close_fd_mask=3 -dict="$here/console.dict" \
	-artifact_prefix="$out/" "$out/corpus" "$out/seeds" 2>"$out/fuzz.log" || {
	echo "fuzz-consolelog: FAILED (log: $out/fuzz.log; input: $out/crash-* or leak-*/timeout-*/oom-*)" >&2
	tail -n 40 "$out/fuzz.log" >&2
	exit 1
}
grep -E "^Done|stat::number_of_executed_units" "$out/fuzz.log" | tail -n 1 || true
echo "fuzz-consolelog: no failure in ${seconds} s ($(ls "$out/corpus" | wc -l) inputs in the corpus)"
