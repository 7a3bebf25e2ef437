#!/bin/bash
# pointer-sites.sh - the kernel's open-coded pointer wrap tests under
# CONFIG_UBSAN_WRAP_IDIOM_POINTER: every one's check removed by ptr-compare.
#
# Usage: kernel/scripts/pointer-sites.sh [--table-only]
#
# The x86-buildable pointer wrap tests `p + n < p` of the 6.12 tree
# (fs/smb/client/smb2pdu.c twice, fs/smb/client/readdir.c,
# drivers/scsi/mpt3sas/mpt3sas_ctl.c) are compiled the way the kernel
# builds them with the plugin (signed, unsigned and pointer wrap checks,
# -fno-wrapv-pointer with -wrap-idiom-wrapv-pointer, no ignorelist) and
# -Rpass=wrap-idiom -Rpass-missed=wrap-idiom. For each site the table gives
# the plugin's decision on the pointer check at the test's `+`, and for
# each file how many of its other pointer checks were kept and removed
# (the neighbours stay). Like seed-sites.sh for the integer seed sites.
#
# It uses the tree of wrapv-pointer-identity.sh ($BUILD/linux-6.12-identity,
# tinyconfig + the harness's fragments + CIFS and SCSI_MPT3SAS), which it
# prepares the same way if missing. Every make runs under flock
# $KBUILD_LOCK. Output: a Markdown table on stdout and in $OUT/table.md,
# the remarks in $OUT/*.remarks. Exit status: 0 every site's check
# removed, 1 one kept or missing, 2 a step failed.
#
# Environment: BUILD (build), PLUGIN ($BUILD/llvm-pass/WrapIdiom.so),
# KBUILD_LOCK ($BUILD/.kbuild.lock), LLVM (-22), JOBS (2).
set -u

here=$(cd "$(dirname "$0")" && pwd)
SITES_NAME=pointer-sites
SITES_JOBS=2
. "$here/sites-env.sh"
OUT=$BUILD/pointer-sites
T=$BUILD/linux-6.12-identity
sites_options -- "$@"
sites_need plugin
mkdir -p "$OUT"

# file|function|the test as written
SITES="fs/smb/client/smb2pdu.c|num_entries|entryptr + next_offset < entryptr
fs/smb/client/smb2pdu.c|num_entries|entryptr + len < entryptr
fs/smb/client/readdir.c|nxt_dir_entry|old_entry + next_offset < old_entry
drivers/scsi/mpt3sas/mpt3sas_ctl.c|_ctl_diag_read_buffer|diag_data + karg.bytes_to_read < diag_data"

if [ $compile = 1 ]; then
	if ! [ -f "$T/.wrapv-identity-config" ]; then
		# The tree with the options these files need, made once.
		"$here/wrapv-pointer-identity.sh" lib/buildid.o >"$OUT/identity.log" 2>&1 ||
			[ $? = 1 ] || die "preparing $T failed, see $OUT/identity.log"
	fi
	for f in $(echo "$SITES" | cut -d'|' -f1 | sort -u); do
		o=${f%.c}.o
		rm -f "$T/$o"
		kmake "$T" KCFLAGS="$REMARKS" "$o" >"$OUT/$(basename "$f" .c).remarks" 2>&1 ||
			die "compiling $o failed, see $OUT/$(basename "$f" .c).remarks"
	done
fi

table=$OUT/table.md
{
	echo "| site | function | test | pointer check | pointer checks in the file, kept / removed |"
	echo "|---|---|---|---|---|"
} >"$table"
status=0
while IFS='|' read -r f fn test; do
	r=$OUT/$(basename "$f" .c).remarks
	[ -f "$r" ] || die "$r missing (run without --table-only first)"
	line=$(grep -nF -- "$test" "$T/$f" | head -1 | cut -d: -f1)
	[ -n "$line" ] || die "$f: '$test' not found"
	# The column of the test's `+`, as clang reports it (1-based).
	text=$(sed -n "${line}p" "$T/$f")
	lhs=${test%% + *}
	pre=${text%%"$lhs + "*}
	col=$(( ${#pre} + ${#lhs} + 2 ))
	# Tabs count as one column in clang's locations, as here.
	at="$f:$line:$col:"
	dec=$(grep -F -- "$at remark:" "$r" | grep 'pointer-overflow' | head -1)
	case $dec in
	*"remark: removed"*) d="removed: $(echo "$dec" | sed 's/.*pointer: \([a-z-]*\).*/\1/')" ;;
	*"remark: kept"*) d="**kept**: ${dec#*pointer: }"; status=1 ;;
	*) d="**no remark at $line:$col**"; status=1 ;;
	esac
	kept=$(grep -F "$f:" "$r" | grep -c 'remark: kept pointer-overflow')
	removed=$(grep -F "$f:" "$r" | grep -c 'remark: removed pointer-overflow')

	echo "| $f:$line:$col | $fn | \`$test\` | $d | $kept / $removed |" >>"$table"
done <<<"$SITES"
cat "$table"
exit $status
