#!/bin/sh
# The wrap sites of one console log as both readers see them, one per line:
# sanitizer kind file:line:col function. `qemu-run parse --sites` gives every
# UBSan site (sanitizer "-" for other kinds) with the frame as printed;
# `wrap-ignorelist triage --format=csv` gives the wrap sites with the frame's
# source name (".constprop.0" cut). Usage: sites.sh harness|triage LOG [MAP];
# sites.sh agree LOG... : each log's two lists are non-empty and equal.
set -eu
if [ "$1" = agree ]; then
	shift
	for l; do
		h=$("$0" harness "$l") t=$("$0" triage "$l")
		[ -n "$h" ] || { echo "$l: no wrap site" >&2; exit 1; }
		[ "$h" = "$t" ] || { echo "$l: the readers disagree" >&2;
			printf '%s\n' "$h" > "${TMPDIR:-/tmp}/agree.h.$$"
			printf '%s\n' "$t" | diff "${TMPDIR:-/tmp}/agree.h.$$" - >&2;
			rm -f "${TMPDIR:-/tmp}/agree.h.$$"; exit 1; }
	done
	exit 0
fi
who=$1 log=$2 map=${3-}
case $who in
harness)
	qemu-run parse "$log" --expect none --sites ${map:+--system-map "$map"} |
		awk -F'\t' '$1 != "-" { f = $4; sub(/\..*/, "", f); print $1, $2, $3, f }'
	;;
triage)
	# the csv has no quoted commas in these columns: file, line, column,
	# sanitizer, kind, function are fields 4-8 and 10
	wrap-ignorelist triage --format=csv ${map:+--system-map "$map"} "$log" 2>/dev/null |
		awk -F, '$1 == "report" { print $7, $8, $4 ":" $5 ":" $6, ($10 == "" ? "?" : $10) }'
	;;
esac | sort
