#!/bin/bash
# vmlinux-figures.sh - what the wrap checks cost in a built kernel: the size
# of .text and the call sites of each wrap-check handler in vmlinux.
#
# Usage: kernel/scripts/vmlinux-figures.sh NAME=TREE...
#
# For each built tree (its vmlinux), one Markdown table row: the bytes of
# all functions (llvm-readelf -s, FUNC symbols; x86's .text section is
# padded to 2 MiB, which would hide the difference), .text (llvm-size -A), and the direct calls of __ubsan_handle_{add,sub,mul,
# negate}_overflow and __ubsan_handle_pointer_overflow (llvm-objdump -d:
# each call instruction is one check left in the binary). The first tree is
# the reference of the ratio column. Issue 10 point 7 (kernel/RESULTS.md).
#
# Environment: LLVM (-22: llvm-size-22, llvm-objdump-22).
# Exit status: 0, 2 on a missing vmlinux or tool (named on stderr).
set -u

LLVM=${LLVM:--22}
size_tool=llvm-size$LLVM
objdump_tool=llvm-objdump$LLVM
readelf_tool=llvm-readelf$LLVM

die() {
	echo "vmlinux-figures.sh: $*" >&2
	exit 2
}

[ $# -ge 1 ] || die "usage: vmlinux-figures.sh NAME=TREE..."
for t in "$size_tool" "$objdump_tool" "$readelf_tool"; do
	command -v "$t" >/dev/null || die "$t not found (scripts/deps.sh plugin installs llvm${LLVM})"
done
for a in "$@"; do
	case $a in
	*=*) [ -f "${a#*=}/vmlinux" ] || die "${a#*=}/vmlinux: no such file (build the tree first)" ;;
	*) die "'$a': expected NAME=TREE" ;;
	esac
done

handlers="add_overflow sub_overflow mul_overflow negate_overflow pointer_overflow"
printf '| variant | function bytes | ratio | .text bytes |'
for h in $handlers; do printf ' %s |' "$h"; done
printf ' all wrap handlers |\n|---|---|---|---|'
for h in $handlers; do printf -- '---|'; done
printf -- '---|\n'

ref=""
for a in "$@"; do
	name=${a%%=*} vm=${a#*=}/vmlinux
	text=$("$size_tool" -A "$vm" | awk '$1 == ".text" { print $2 }')
	[ -n "$text" ] || die "$vm: no .text section"
	func=$("$readelf_tool" -sW "$vm" | awk '$4 == "FUNC" { s += $3 } END { print s + 0 }')
	[ "$func" -gt 0 ] || die "$vm: no function symbols"
	[ -n "$ref" ] || ref=$func
	calls=$("$objdump_tool" -d --no-show-raw-insn "$vm" |
		grep -oE 'call[a-z]*[[:space:]]+(0x)?[0-9a-f]+ <__ubsan_handle_[a-z_]+>' |
		sed -E 's/.*<__ubsan_handle_([a-z_]+)>/\1/' | sort | uniq -c) ||
		die "$objdump_tool -d $vm failed"
	printf '| %s | %s | %s | %s |' "$name" "$func" \
		"$(awk -v a="$func" -v b="$ref" 'BEGIN { printf "%.4f", a / b }')" "$text"
	total=0
	for h in $handlers; do
		n=$(echo "$calls" | awk -v h="$h" '$2 == h { print $1 }')
		n=${n:-0}
		total=$((total + n))
		printf ' %s |' "$n"
	done
	printf ' %s |\n' "$total"
done
