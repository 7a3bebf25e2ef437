#!/bin/bash
# scripts/check-distributed.sh [--kernel-tree TREE [--objects "a.o b.o"]] [--no-icecc] [--no-distcc]
#
# The wrap-idiom plugin under ccache, icecream and distcc, on loopback
# daemons that cannot see the checkout (make check-distributed; README.md
# "Building at scale"). Runs as root, in its own network, mount and PID
# namespaces (unshare -n -m -p): the only network is lo, and every daemon
# dies with the test. The compile nodes run in a further mount namespace with
# an empty tmpfs over the parent directory of the checkout (and of the build
# directory), so they find the plugin and the ignorelists only where the
# environment (icecream) or the install step (distcc) put them.
#
# Units: scripts/dist-inputs/listed.c and examples/demo.c with kernel-like
# flags, or with --kernel-tree the savedcmd of instrumented objects of a
# built kernel tree (default four of them). Each unit is compiled locally
# (the reference), then through each tool; objects and remarks must be
# identical to the reference. The lists and the stamp header are copies in
# the work directory; the stamp is made with the rule of the Kbuild patch.
#
#   ccache  miss, then hit, then an ignorelist entry is moved: every unit
#           must miss and match a fresh local compile; the stamp as a mere
#           comment (the old form) must be shown to give a stale hit.
#   icecc   scheduler + a --no-remote local daemon + node wi-node1 on
#           127.0.0.1:10246; every unit must be compiled on wi-node1 (its
#           log says so, the client's has no local build); dist-check.sh
#           accepts the environment and refuses one from an older list;
#           a list the environment lacks fails on the node.
#   distcc  distccd on 127.0.0.1: wi-good (plugin and lists installed by
#           distcc-install.sh), wi-stale (plugin copy one byte longer),
#           wi-bare (nothing installed), and a port where nothing listens:
#           dist-check.sh accepts the first and names node and file for the
#           others; units through wi-good match; a compile on wi-bare fails.
#
# Prints per-object times of each wrapper (mean of the units) and ends with
# "N passed, M failed". Work directory: $BUILD/check-distributed.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
BUILD=${BUILD:-$root/build}
CC=${CC:-clang-22}
tree= objects= do_icecc=1 do_distcc=1
while [ $# -gt 0 ]; do
	case $1 in
	--kernel-tree) tree=$(cd "$2" && pwd) || exit 2; shift 2 ;;
	--objects) objects=$2; shift 2 ;;
	--no-icecc) do_icecc=0; shift ;;
	--no-distcc) do_distcc=0; shift ;;
	-h|--help) sed -n '2,36p' "$0"; exit 0 ;;
	*) echo "check-distributed: unknown argument $1" >&2; exit 2 ;;
	esac
done
[ -d "$BUILD" ] || { echo "check-distributed: no build directory $BUILD (make plugin)" >&2; exit 2; }
BUILD=$(cd "$BUILD" && pwd)
plugin=${PLUGIN:-$BUILD/llvm-pass/WrapIdiom.so}
[ -f "$plugin" ] || { echo "check-distributed: no plugin $plugin (make plugin)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "check-distributed: needs root (namespaces, icecream's chroot)" >&2; exit 2; }
for t in ccache icecc iceccd icecc-scheduler distcc distccd unshare ip objcopy llvm-dwarfdump-22 "$CC"; do
	command -v "$t" >/dev/null || { echo "check-distributed: $t is not installed (scripts/deps.sh dist)" >&2; exit 2; }
done

# Into private namespaces; a scratch tmpfs over /run (so no daemon of the
# host is in reach either) is where the daemons keep logs, environments and
# the servers' copies.
if [ -z "${WRAP_IDIOM_DIST_NS:-}" ]; then
	case " $root/ $BUILD/ $tree/" in *" /run/"*) echo "check-distributed: the checkout or build directory is under /run, which the test mounts over" >&2; exit 2 ;; esac
	exec unshare -n -m -p -f --mount-proc --propagation private \
		env WRAP_IDIOM_DIST_NS=1 "$0" ${tree:+--kernel-tree "$tree"} ${objects:+--objects "$objects"} \
		$([ $do_icecc = 1 ] || echo --no-icecc) $([ $do_distcc = 1 ] || echo --no-distcc)
fi
ip link set lo up || exit 2
mount -t tmpfs -o mode=0755 wrap-idiom-dist /run || exit 2
scratch=/run
mkdir -p "$scratch/logs" && chmod 0777 "$scratch/logs"

work=$BUILD/check-distributed
rm -rf "$work"
mkdir -p "$work/lists" "$work/out"
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	cp -r "$scratch/logs" "$work/daemon-logs" 2>/dev/null
}
trap cleanup EXIT

pass=0 failn=0
ok() { pass=$((pass + 1)); echo "PASS: $*"; }
bad() { failn=$((failn + 1)); echo "FAIL: $*"; }

# The directories the compile nodes must not see.
hide=()
for d in "$(dirname "$root")" "$(dirname "$BUILD")" ${tree:+"$(dirname "$tree")"}; do
	[ "$d" = / ] && { echo "check-distributed: $root: the checkout's parent is /, cannot hide it" >&2; exit 2; }
	dup=0
	for h in "${hide[@]}"; do case $d/ in "$h"/*) dup=1 ;; esac; done
	[ $dup = 1 ] || hide+=("$d")
done

# --- the units -----------------------------------------------------------
# The stamp header, by the rule of the Kbuild patch (an #ident line per file).
patch=$(ls "$root"/kernel/patches/*-ubsan-wire-the-wrap-idiom-pass-plugin-into-kbuild.patch 2>/dev/null | head -1)
stamp_sed=$(sed -n 's/^+\tsed \(.*\)$/\1/p' "${patch:-/dev/null}" | sed 's/\$\$/$/g; s/\\#/#/g')
[ -n "$stamp_sed" ] || { echo "check-distributed: no stamp rule (+<tab>sed ...) in ${patch:-the Kbuild patch}" >&2; exit 2; }
make_stamp() { # ident|comment
	local sums
	sums=$(sha1sum "$plugin" "$work"/lists/*.scl) || exit 2
	echo "/* wrap-idiom plugin and ignorelists (sha1) */" > "$work/stamp.h"
	if [ "$1" = ident ]; then
		echo "$sums" | eval "sed $stamp_sed" >> "$work/stamp.h"
	else
		echo "$sums" | sed 's|^|/* |; s|$| */|' >> "$work/stamp.h"
	fi
}

names=() cmds=()
if [ -z "$tree" ]; then
	cp "$here/dist-inputs/wrap.scl" "$work/lists/"
	base="-O2 -fno-strict-overflow -fsanitize=signed-integer-overflow,unsigned-integer-overflow,pointer-overflow \
-fpass-plugin=$plugin -mllvm -wrap-idiom-signed-wrap -mllvm -wrap-idiom-pointer-wrap \
-mllvm -wrap-idiom-ignorelist=$work/lists/wrap.scl -include $work/stamp.h -Rpass=wrap-idiom -Rpass-missed=wrap-idiom"
	names+=(listed); cmds+=("$CC $base -c $here/dist-inputs/listed.c")
	names+=(demo); cmds+=("$CC $base -c $root/examples/demo.c")
	names+=(demo-g); cmds+=("$CC $base -g -c $root/examples/demo.c")
	change_from=fun:wi_listed change_to=fun:wi_kept
	srcdir=$work
else
	cp "$root"/ignorelists/*.scl "$work/lists/"
	objects=${objects:-"kernel/printk/printk_ringbuffer.o kernel/time/timekeeping.o lib/bitmap.o mm/mmap.o"}
	for o in $objects; do
		c=$tree/$(dirname "$o")/.$(basename "$o").cmd
		line=$(sed -n 's/^savedcmd_[^ ]* := //p' "$c" 2>/dev/null | head -1)
		case $line in *-fpass-plugin=*) ;; *) echo "check-distributed: $c: no instrumented compile command" >&2; exit 2 ;; esac
		# the compiler and what follows; the lists and the stamp from the work directory
		line=${line#*"$CC "}
		line=$(echo "$line" | sed -e "s| -Wp,-MMD,[^ ]*||; s| -o [^ ]*\.o | |" \
			-e "s|-wrap-idiom-ignorelist=[^ ]*/\([^/ ]*\.scl\)|-wrap-idiom-ignorelist=$work/lists/\1|g" \
			-e "s|-include [^ ]*wrap-idiom-stamp\.h|-include $work/stamp.h|")
		line=$(echo "$line" | sed "s|-fpass-plugin=[^ ]*|-fpass-plugin=$plugin|")
		# distcc's node gets preprocessed source, on which the kernel's
		# -Werror=unused-command-line-argument rejects -fmacro-prefix-map:
		# -Wno-... as KCFLAGS= would add it (no change to the object)
		names+=("$(echo "$o" | tr / -)")
		cmds+=("$CC $line -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -Wno-unused-command-line-argument")
	done
	change_from=fun:prb_reserve change_to="# fun:prb_reserve (taken out by the test)"
	srcdir=$tree
fi
make_stamp ident

# run WRAPPER NAME INDEX: compile unit INDEX through WRAPPER (may be empty)
# into out/NAME-<unit>.o, remarks to .err; the time to .time (ms).
run() {
	local w=$1 tag=$2 i=$3 t0 t1 rc o=$work/out/$2-${names[$3]}
	t0=$(date +%s%N)
	(cd "$srcdir" && eval "$w ${cmds[$i]} -Wp,-MMD,$o.d -o $o.o") > "$o.err" 2>&1
	rc=$?
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000)) > "$o.time"
	# remarks and diagnostics, without icecream's own lines
	grep -v '^ICECC\[' "$o.err" > "$o.rem"
	return $rc
}
# remarks REM: what a remark says, in order, then the set of places. A node
# that compiles the preprocessed source cannot show the source line, so
# clang puts such a remark on the function and gives the place in a note
# "F:L:C(function): note: could not determine the original source location
# for F:L:C": the places are the remarks' own, but those of such notes,
# and the places the notes name.
remarks() {
	local n='could not determine the original source location for'
	grep -o 'remark: .*' "$1"
	echo "--"
	{ sed -n 's/^\([^ :]*:[0-9]*:[0-9]*\): remark: .*/\1/p' "$1" | sort -u |
		comm -23 - <(sed -n "s/^\\([^ :]*:[0-9]*:[0-9]*\\): note: $n .*/\\1/p" "$1" | sort -u)
	  sed -n "s/.*$n \\([^ ]*\\)\$/\\1/p" "$1"; } | sed "s#^$root/##" | sort -u
}
# dwarf O [rows]: the DWARF of O with its DW_AT_comp_dir (a node's working
# directory) replaced by a placeholder; rows: the debug info entries and
# only the rows of the line table (address, line, column, flags), not its
# header, whose file list differs when the node compiles preprocessed or
# rewritten source (no MD5 checksums, the main file named once)
dwarf() {
	local d
	d=$(dwarf_dir "$1")
	if [ "${2:-}" = rows ]; then
		{ llvm-dwarfdump-22 --debug-info "$1" | sed 1d
		  llvm-dwarfdump-22 --debug-line "$1" | awk '/^0x/ { $4 = ""; print }'; } | sed "s#${d:-@none@}#<comp_dir>#g"
	else
		llvm-dwarfdump-22 --debug-info --debug-line "$1" | sed 1d | sed "s#${d:-@none@}#<comp_dir>#g"
	fi
}
same() { # TAG [REF]: objects and remarks of every unit equal to REF's (default ref)
	local tag=$1 ref=${2:-ref} i r=0 a b
	for i in "${!names[@]}"; do
		a=$work/out/$ref-${names[$i]} b=$work/out/$tag-${names[$i]}
		if ! cmp -s "$a.o" "$b.o"; then
			objcopy --strip-debug "$a.o" "$a.nodebug.o" && objcopy --strip-debug "$b.o" "$b.nodebug.o"
			if ! cmp -s "$a.nodebug.o" "$b.nodebug.o"; then
				echo "  ${names[$i]}: object differs from the local one ($ref), also without debug information"; r=1
			elif [ "$(dwarf "$a.o")" = "$(dwarf "$b.o")" ]; then
				echo "  ${names[$i]}: $tag: identical but for DW_AT_comp_dir ($(dwarf_dir "$b.o"), the node's working directory)" >> "$work/out/differences.txt"
			elif [ "$(dwarf "$a.o" rows)" = "$(dwarf "$b.o" rows)" ]; then
				echo "  ${names[$i]}: $tag: identical but for DW_AT_comp_dir ($(dwarf_dir "$b.o")) and the line table's file list; all DIEs and line rows equal" >> "$work/out/differences.txt"
			else
				echo "  ${names[$i]}: object differs from the local one ($ref)"; r=1
			fi
		fi
		if ! cmp -s "$a.rem" "$b.rem"; then
			if [ "$(remarks "$a.rem")" = "$(remarks "$b.rem")" ]; then
				echo "  ${names[$i]}: $tag: the same remarks, placed by a note (no source file on the node)" >> "$work/out/differences.txt"
			else
				echo "  ${names[$i]}: remarks differ from $ref:"
				diff <(remarks "$a.rem") <(remarks "$b.rem") | head -5; r=1
			fi
		fi
	done
	return $r
}
dwarf_dir() { llvm-dwarfdump-22 --debug-info "$1" | sed -n 's/.*DW_AT_comp_dir\s*("\(.*\)")/\1/p' | head -1; }
run_all() { # WRAPPER TAG: every unit; 0 if all compiled
	local i r=0
	for i in "${!names[@]}"; do run "$1" "$2" "$i" || r=1; done
	return $r
}
# change_list / restore_list: move one ignorelist entry in the work copies
change_list() {
	local f
	for f in "$work"/lists/*.scl; do cp "$f" "$f.orig"; done
	grep -lx "$change_from" "$work"/lists/*.scl | xargs sed -i "s|^$change_from\$|$change_to|"
}
restore_list() {
	local f
	for f in "$work"/lists/*.scl.orig; do mv "$f" "${f%.orig}"; done
}
mean_ms() { # tag
	cat "$work"/out/"$1"-*.time | awk '{ s += $1; n++ } END { printf "%.0f", n ? s / n : 0 }'
}
times=()

for i in "${!names[@]}"; do
	run "" ref "$i" || { echo "check-distributed: the local compile of ${names[$i]} failed:"; cat "$work/out/ref-${names[$i]}.err"; exit 1; }
done
grep -q "remark: " "$work"/out/ref-*.rem && ok "local reference: ${#names[@]} unit(s), with remarks" ||
	bad "the local reference compiles print no wrap-idiom remark"
times+=("local clang: $(mean_ms ref) ms")

# --- ccache --------------------------------------------------------------
. "$here/dist-ccache.sh"

# --- icecream ------------------------------------------------------------
[ $do_icecc = 1 ] && . "$here/dist-icecc.sh"

# --- distcc ----------------------------------------------------------------
[ $do_distcc = 1 ] && . "$here/dist-distcc.sh"

echo "== per-object time, mean of ${#names[@]} unit(s) (2 cores, loopback) =="
for t in "${times[@]}"; do echo "  $t"; done
echo "$pass passed, $failn failed"
[ $failn = 0 ]
