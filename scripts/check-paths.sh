#!/bin/sh
# check-paths.sh [DIR] - fail if a file of the checkout names a path of one
# machine.
#
# Defaults must come from the checkout and its build directory, so that
# `make boot` and `make check` work from a clone at any path. This scans
# the files of DIR (default: the checkout holding this script) - in a git
# checkout the tracked ones and the untracked ones not ignored, else every
# file but the build trees - for absolute paths of two or more components
# (a lone /init or /O2 is too often the guest's /init or a flag) whose
# first component is not a system root below, and prints each as
#
#   file:line: machine path '<path>'
#
# Exit status: 0 none found, 1 some found, 2 the scan failed.
set -eu

root=${1:-$(dirname "$0")/..}
root=$(cd "$root" && pwd -P) || exit 2

# The first components a path may have: the system directories of the
# Filesystem Hierarchy Standard, where Debian puts the toolchains and the
# kernel source (/usr), the guest has its /lib/modules and /sbin/init, and
# every Linux machine has the same thing: bin sbin lib lib64 usr etc var
# (system files), dev proc sys run (kernel interfaces), tmp (scratch), boot.
# Not /opt, /srv, /mnt, /media, /home, /root: their contents differ by site.
# Two placeholders of the docs and kernel/patches are no machine's path
# either: /path/to/..., /abs/... ("an absolute path here").
allowed='bin sbin lib lib64 usr etc var dev proc sys run tmp boot path abs'

# A path starts a word: at the start of a line or after a blank or one of
# = ( : , ; < > { [ |, optionally opened by a quote, as a -I/-L flag's
# argument, as a ${VAR:-default} or as a file:// URL. "$dir"/x, ${dir}/x, <build>/x (a placeholder of the docs)
# or a/b are relative to something, not absolute.
re='(^|[[:space:]=(:,;<>{[|])(file://|["'\''`])?(-[IL]?)?/[A-Za-z_][A-Za-z0-9._-]*(/[A-Za-z0-9._+-]+)+'

# Files that may name other paths, with the reason.
exempt() {
	case $1 in
	# Console logs of real QEMU boots, kept byte for byte because the
	# parser's tests must see what a kernel printed: the guest names
	# input devices by their sysfs path, which is relative to /sys.
	lit-tests/qemu-run/Inputs/real-*.log) return 0 ;;
	# SMP console logs made of such lines: other CPUs' input device
	# messages between KTAP lines.
	lit-tests/qemu-run/Inputs/smp-*.log) return 0 ;;
	esac
	return 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-paths.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

top=$(git -C "$root" rev-parse --show-toplevel 2>/dev/null) || top=
if [ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$root" ]; then
	git -C "$root" -c core.quotePath=false ls-files --cached --others \
		--exclude-standard > "$tmp/all"
else
	# Not a git checkout (an exported tree): skip what .gitignore
	# ignores, the build trees and unpacked kernels hold this machine's
	# paths by design.
	(cd "$root" && find . \( -name .git -o -name __pycache__ -o -path ./build \
		-o -path './build-*' -o -path './linux-*' \) -prune -o -type f -print) |
		sed 's|^\./||' > "$tmp/all"
fi

n=0
while IFS= read -r f; do
	[ -f "$root/$f" ] || continue   # tracked but deleted in the work tree
	exempt "$f" && continue
	n=$((n + 1))
	printf '%s\n' "$f"
done < "$tmp/all" > "$tmp/files"

# grep -I (skip binary files) is not POSIX but GNU and BSD grep have it.
rc=0
(cd "$root" && sed 's/[^[:alnum:]]/\\&/g' "$tmp/files" |
	xargs grep -nIE -e "$re" /dev/null) > "$tmp/hits" 2> "$tmp/err" || rc=$?
if [ -s "$tmp/err" ] || { [ $rc -ne 0 ] && [ $rc -ne 123 ] && [ $rc -ne 1 ]; }; then
	cat "$tmp/err" >&2
	echo "check-paths: grep failed (exit $rc)" >&2
	exit 2
fi

RE=$re ALLOWED=$allowed awk '
BEGIN {
	n = split(ENVIRON["ALLOWED"], a, " ")
	for (i = 1; i <= n; i++)
		ok[a[i]] = 1
	re = ENVIRON["RE"]
	bad = 0
}
{
	match($0, /^[^:]*:[0-9]+:/)
	loc = substr($0, 1, RLENGTH - 1)
	s = substr($0, RLENGTH + 1)
	gsub(/<[A-Za-z0-9_. -]+>/, "_", s)   # <build>/x: relative to <build>
	while (match(s, re)) {
		m = substr(s, RSTART, RLENGTH)
		# go on from the last character of the path: it is no word
		# start, so the rest of this path cannot match again
		s = substr(s, RSTART + RLENGTH - 1)
		sub(/file:\/\//, "", m)
		path = substr(m, index(m, "/"))
		sub(/[.,]+$/, "", path)   # the end of a sentence
		first = substr(path, 2)
		sub(/\/.*/, "", first)
		if (!(first in ok)) {
			printf "%s: machine path '\''%s'\''\n", loc, path
			bad = 1
		}
	}
}
END { exit bad }' "$tmp/hits" && rc=0 || rc=$?

case $rc in
0) echo "check-paths: $n files, no machine path" ;;
1) echo "check-paths: a file names a path of one machine; derive it from the checkout or the build directory" >&2 ;;
*) echo "check-paths: awk failed (exit $rc)" >&2; rc=2 ;;
esac
exit $rc
