#!/bin/sh
# qemu-run's KTAP reader against the kernel's own: for every log of kunit's
# test_data/ in TARBALL (Debian's linux-source-6.12), `kunit.py parse`'s
# count line and success (exit 0) against `qemu-run parse --ktap-counts`'s
# count line and status. One line per log: "same NAME: COUNTS" or
# "DIFF NAME: ...", and a total. An empty log is qemu-run's usage error
# (exit 2: "empty log"), where kunit.py counts one error: both fail it,
# and that is the one difference expected ("empty NAME").
# Usage: kunit-compare.sh TARBALL OUTDIR
set -eu
tarball=$1 out=$2
rm -rf "$out" && mkdir -p "$out"
tar -xf "$tarball" -C "$out" --wildcards '*/tools/testing/kunit/*'
k=$(echo "$out"/*/tools/testing/kunit)
[ -f "$k/kunit.py" ] || { echo "kunit-compare: no tools/testing/kunit/kunit.py in $tarball" >&2; exit 1; }
n=0 same=0
for f in "$k"/test_data/*.log; do
	n=$((n + 1))
	name=${f##*/}
	kc=0
	kline=$(python3 "$k/kunit.py" parse "$f" 2>&1) || kc=$?
	kline=$(printf '%s\n' "$kline" | tail -n 1 | sed 's/^\[[0-9:]*\] Testing complete\. //')
	ok=yes
	[ "$kc" -eq 0 ] || ok=no
	qc=0
	q=$(qemu-run parse --ktap-counts --expect none "$f" 2>&1) || qc=$?
	if [ "$qc" -eq 2 ] && [ ! -s "$f" ] && [ "$kline" = "Ran 0 tests: errors: 1" ]; then
		echo "empty $name"
		continue
	fi
	qline=$(printf '%s\n' "$q" | head -n 1)
	qstatus=$(printf '%s\n' "$q" | sed -n 's/^status: //p')
	qok=no
	[ "$qstatus" = SUCCESS ] && qok=yes
	if [ "$qc" -eq 0 ] && [ "$kline" = "$qline" ] && [ "$ok" = "$qok" ]; then
		same=$((same + 1))
		echo "same $name: $qline ($qstatus)"
	else
		echo "DIFF $name: kunit.py [$kline] exit $kc; qemu-run [$q] exit $qc"
	fi
done
echo "$same of $n logs the same"
