#!/bin/sh
# cocci-test.sh [KERNEL_TREE]: check scripts/coccinelle/misc/add_would_overflow.cocci.
#
# Runs spatch on tests/cocci-fixture.c in patch mode and compares the
# result with tests/cocci-fixture.expected.c (every wrap-around idiom
# rewritten, every non-idiom such as "a + b < c" left alone), then runs
# report mode and checks which lines are reported. Without KERNEL_TREE the
# .cocci file is taken from the series (the patch that adds it is applied
# to an empty directory). Exits non-zero on any mismatch.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
patches=$here/../patches
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

command -v spatch >/dev/null || { echo "cocci-test: spatch not installed (apt-get install coccinelle)" >&2; exit 2; }

if [ $# -ge 1 ]; then
	cocci=$1/scripts/coccinelle/misc/add_would_overflow.cocci
else
	p=$(ls "$patches"/*coccinelle-add-script*.patch | head -n 1)
	mkdir "$tmp/tree"
	patch -s -p1 -d "$tmp/tree" < "$p"
	cocci=$tmp/tree/scripts/coccinelle/misc/add_would_overflow.cocci
fi
[ -f "$cocci" ] || { echo "cocci-test: $cocci not found" >&2; exit 2; }

fail=0
spatch_run() {
	spatch --very-quiet --no-includes --include-headers --sp-file "$cocci" "$@"
}

# 1. Patch mode rewrites exactly the idioms.
cp "$here/cocci-fixture.c" "$tmp/fixture.c"
spatch_run -D patch --in-place "$tmp/fixture.c" > "$tmp/patch.log" 2>&1 || {
	echo "FAIL: spatch -D patch failed:"; cat "$tmp/patch.log"; fail=1; }
if diff -u "$here/cocci-fixture.expected.c" "$tmp/fixture.c" > "$tmp/diff"; then
	echo "ok: patch mode output matches cocci-fixture.expected.c"
else
	echo "FAIL: patch mode output differs from cocci-fixture.expected.c:"
	cat "$tmp/diff"
	fail=1
fi

# Every function named non_* in the fixture must come out unchanged.
for fn in $(sed -n 's/^int \(non_[a-z_]*\)(.*/\1/p' "$here/cocci-fixture.c"); do
	a=$(sed -n "/^int $fn(/,/^}/p" "$here/cocci-fixture.c")
	b=$(sed -n "/^int $fn(/,/^}/p" "$tmp/fixture.c")
	if [ "$a" = "$b" ]; then
		echo "ok: $fn left alone"
	else
		echo "FAIL: $fn was changed"; fail=1
	fi
done
# No idiom may survive patch mode.
if grep -nE '^int idiom_' "$tmp/fixture.c" >/dev/null &&
   sed -n '/^int idiom_/,/^}/p' "$tmp/fixture.c" | grep -nE '[<>]=?' | grep -v add_would_overflow; then
	echo "FAIL: an idiom was not rewritten"; fail=1
else
	echo "ok: every idiom_* function rewritten"
fi

# 2. Report mode: one warning per idiom (two in idiom_two_ored), plus one
# for the non-strict "a + b <= a", and none for the non-idioms.
cp "$here/cocci-fixture.c" "$tmp/fixture.c"
spatch_run -D report --no-show-diff "$tmp/fixture.c" > "$tmp/report" 2>&1 || {
	echo "FAIL: spatch -D report failed:"; cat "$tmp/report"; fail=1; }
lines=$(sed -n 's/^[^:]*:\([0-9]*\):.*WARNING.*/\1/p' "$tmp/report" | sort -n | tr '\n' ' ')
# Expected: every comparison in the idiom_* and non_strict_* functions.
want=$(awk '/^int idiom_|^int non_strict_/ {f=1} /^int non_idiom/ {f=0} f && /[<>]/ && !/^int/ {
		n = gsub(/ [<>]=? /, "&"); for (i = 0; i < n; i++) print NR }' "$here/cocci-fixture.c" |
	sort -n | tr '\n' ' ')
if [ "$lines" = "$want" ]; then
	echo "ok: report mode flags lines $lines"
else
	echo "FAIL: report mode flags lines '$lines', expected '$want'"
	cat "$tmp/report"
	fail=1
fi

if [ $fail -ne 0 ]; then
	echo "cocci-test: FAILED"
	exit 1
fi
echo "cocci-test: all checks passed"
