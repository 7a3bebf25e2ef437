#!/bin/bash
# scripts/dist-check.sh [--env TARBALL] distcc|icecc PLUGIN [IGNORELIST...]
#
# Before a distributed build with the wrap-idiom plugin: refuse to start it
# unless every compile node uses byte-identical copies of the plugin and of
# every ignorelist, at the paths the compile command names. A node with an
# old copy would otherwise build different objects without a word, and one
# without the file fails only when the first object reaches it.
#
# The check is a probe compiled on the node itself: a C file whose inline
# assembly has ".incbin PATH" for each file, so the node's own assembler
# copies the node's own file into the object, which comes back here and is
# compared by sha1 with the local file. Nothing has to be installed on the
# node for this, and it sees exactly what the compiler there sees (the
# filesystem of distccd, the chroot of an icecream environment).
#
#   distcc  every host of $DISTCC_HOSTS (else ~/.distcc/hosts, else
#           /etc/distcc/hosts) but localhost, one probe each, with
#           DISTCC_FALLBACK=0 and DISTCC_SKIP_LOCAL_RETRY=1 so that a
#           failure on the node is not hidden by a local compile.
#   icecc   the environment (--env, else $ICECC_VERSION) is read first: each
#           file must be in it, identical; then one probe is compiled through
#           icecc with ICECC_TEST_REMOTEBUILD=1 and must have been compiled
#           remotely (icecream environments are content-addressed, so one
#           node that unpacked it shows what every node gets).
#
# CC names the compiler (default clang-22). Exit 0: all nodes agree; 1: a
# node or the environment differs, lacks a file or does not answer (each
# named); 2: usage.
set -u

env_tar=
while [ $# -gt 0 ]; do
	case $1 in
	--env) env_tar=$2; shift 2 ;;
	-h|--help) sed -n '2,29p' "$0"; exit 0 ;;
	-*) echo "dist-check: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || { echo "usage: $0 [--env TARBALL] distcc|icecc PLUGIN [IGNORELIST...]" >&2; exit 2; }
mode=$1
shift
case $mode in distcc|icecc) ;; *) echo "dist-check: unknown mode '$mode' (distcc or icecc)" >&2; exit 2 ;; esac
command -v "$mode" >/dev/null || { echo "dist-check: $mode is not installed (scripts/deps.sh dist)" >&2; exit 2; }
CC=${CC:-clang-22}

files=()
sums=()
for f in "$@"; do
	case $f in /*) ;; *) f=$(pwd)/$f ;; esac
	[ -f "$f" ] && [ -r "$f" ] || { echo "dist-check: $f: not a readable file" >&2; exit 2; }
	case $f in *'"'*|*'\'*) echo "dist-check: $f: a path with a quote or a backslash is not supported" >&2; exit 2 ;; esac
	files+=("$f")
	sums+=("$(sha1sum < "$f" | cut -d' ' -f1)")
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dist-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
{
	echo "/* wrap-idiom dist-check probe: the node's copy of each file */"
	for i in "${!files[@]}"; do
		printf '__asm__(".pushsection .wrap_idiom_probe_%d,\\"\\",@progbits\\n\\t.incbin \\"%s\\"\\n\\t.popsection");\n' \
			"$i" "${files[$i]}"
	done
} > "$tmp/probe.c"

fail=0
# compare NODE OBJECT: the sections of the probe object against the local files
compare() {
	local node=$1 obj=$2 i got
	for i in "${!files[@]}"; do
		if ! objcopy --dump-section ".wrap_idiom_probe_$i=$tmp/sec" "$obj" "$tmp/scratch.o" 2>"$tmp/objcopy.err"; then
			echo "dist-check: node $node: no copy of ${files[$i]} in the probe object ($(head -1 "$tmp/objcopy.err"))" >&2
			fail=1
			continue
		fi
		got=$(sha1sum < "$tmp/sec" | cut -d' ' -f1)
		if [ "$got" != "${sums[$i]}" ]; then
			echo "dist-check: node $node: ${files[$i]} differs from the local file (sha1 there $got, here ${sums[$i]})" >&2
			fail=1
		fi
	done
}

# explain NODE ERRFILE: one line naming the cause of a failed probe
explain() {
	local node=$1 err=$2 i
	for i in "${!files[@]}"; do
		if grep -q "incbin.*${files[$i]}\|${files[$i]}.*No such file" "$err"; then
			echo "dist-check: node $node: ${files[$i]} is missing there" >&2
			return
		fi
	done
	if grep -qi "connection refused\|failed to connect\|couldn't connect\|failed to distribute\|no route\|timed out" "$err"; then
		echo "dist-check: node $node: no distccd answers there ($(grep -i -m1 'refused\|connect\|distribute\|route\|timed' "$err"))" >&2
		return
	fi
	echo "dist-check: node $node: the probe compile failed:" >&2
	sed 's/^/    /' "$err" | head -20 >&2
}

if [ "$mode" = distcc ]; then
	hosts=${DISTCC_HOSTS:-}
	if [ -z "$hosts" ]; then
		for h in "${DISTCC_DIR:-$HOME/.distcc}/hosts" /etc/distcc/hosts; do
			[ -r "$h" ] && { hosts=$(sed 's/#.*//' "$h" | tr '\n' ' '); break; }
		done
	fi
	mkdir -p "$tmp/distcc"
	n=0
	for h in $hosts; do
		case $h in
		--*) continue ;;
		localhost|localhost/*) echo "dist-check: $h compiles here, with the local files"; continue ;;
		esac
		spec=${h%%,cpp*}        # plain mode for the probe (pump mode sends headers, not this)
		n=$((n + 1))
		if DISTCC_HOSTS="$spec" DISTCC_FALLBACK=0 DISTCC_SKIP_LOCAL_RETRY=1 DISTCC_DIR="$tmp/distcc" \
			distcc "$CC" -c "$tmp/probe.c" -o "$tmp/probe-$n.o" > "$tmp/err" 2>&1; then
			before=$fail
			compare "$h" "$tmp/probe-$n.o"
			[ $fail = "$before" ] && echo "dist-check: node $h: ${#files[@]} file(s) identical"
		else
			explain "$h" "$tmp/err"
			fail=1
		fi
	done
	[ $n -gt 0 ] || { echo "dist-check: no distcc server in DISTCC_HOSTS or the hosts files" >&2; exit 1; }
else
	env_tar=${env_tar:-${ICECC_VERSION:-}}
	env_tar=${env_tar#*:}
	[ -n "$env_tar" ] || { echo "dist-check: no icecream environment (--env or ICECC_VERSION; scripts/icecc-env.sh makes one)" >&2; exit 2; }
	[ -r "$env_tar" ] || { echo "dist-check: $env_tar: no such environment" >&2; exit 1; }
	for i in "${!files[@]}"; do
		if ! tar -xOzf "$env_tar" ".${files[$i]}" > "$tmp/sec" 2>/dev/null; then
			echo "dist-check: environment $env_tar: ${files[$i]} is not in it (scripts/icecc-env.sh)" >&2
			fail=1
		elif [ "$(sha1sum < "$tmp/sec" | cut -d' ' -f1)" != "${sums[$i]}" ]; then
			echo "dist-check: environment $env_tar: ${files[$i]} differs from the local file (made from an older copy: run scripts/icecc-env.sh again)" >&2
			fail=1
		fi
	done
	[ $fail = 0 ] || exit 1
	log=${ICECC_LOGFILE:-$tmp/icecc.log}
	: > "$log"
	if ICECC_VERSION="$env_tar" ICECC_TEST_REMOTEBUILD=1 ICECC_DEBUG=debug ICECC_LOGFILE="$log" \
		icecc "$CC" -c "$tmp/probe.c" -o "$tmp/probe.o" > "$tmp/err" 2>&1; then
		node=$(sed -n 's/.*Have to use host \([^ ]*\) .*/\1/p' "$log" | tail -1)
		if grep -q "<building_local>\|building myself\|no local daemon found" "$log"; then
			why=$(grep -m1 "no local daemon\|got exception\|building locally\|local build forced" "$log" | sed 's/^ICECC\[[0-9]*\] [0-9: -]*//')
			echo "dist-check: icecc compiled the probe here, not on a node${node:+ (asked $node)}: ${why:-see ICECC_DEBUG=debug}" >&2
			fail=1
		else
			before=$fail
			compare "${node:-?}" "$tmp/probe.o"
			[ $fail = "$before" ] && echo "dist-check: node ${node:-?}: ${#files[@]} file(s) identical (environment $(basename "$env_tar"))"
		fi
	else
		rc=$?
		sed 's/^ICECC\[[0-9]*\] [0-9: -]*//' "$log" | tail -2 >> "$tmp/err"
		echo "dist-check: icecc: the probe compile failed (exit $rc):" >&2
		sed 's/^/    /' "$tmp/err" | head -20 >&2
		fail=1
	fi
fi
exit $fail
