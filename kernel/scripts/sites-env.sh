# shellcheck shell=bash
# Sourced by the kernel/scripts/*-sites.sh and wrapv-pointer-identity.sh
# scripts: the environment every one of them takes, with its defaults from
# the checkout and the build directory (never a path of one machine):
# BUILD (build), PLUGIN ($BUILD/llvm-pass/WrapIdiom.so), KBUILD_LOCK
# ($BUILD/.kbuild.lock, as qemu-run's; users sharing a machine export one),
# LLVM (-22), JOBS ($SITES_JOBS, else nproc), and QR (the harness); and
# what they share: the option loop, the checks for what must be built, and
# the kernel make. Set SITES_NAME (for messages) before sourcing; die()
# then names the script.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$root/build}
case $BUILD in /*) ;; *) BUILD=$PWD/$BUILD ;; esac
PLUGIN=${PLUGIN:-$BUILD/llvm-pass/WrapIdiom.so}
KBUILD_LOCK=${KBUILD_LOCK:-$BUILD/.kbuild.lock}
LLVM=${LLVM:--22}
JOBS=${JOBS:-${SITES_JOBS:-$(nproc)}}
QR=$BUILD/qemu-run/qemu-run
# The plugin's decisions, one remark per check, on the compiler's stderr.
REMARKS="-Rpass=wrap-idiom -Rpass-missed=wrap-idiom"

die() { echo "$SITES_NAME: $*" >&2; exit 2; }

# sites_options [--no-NAME...] -- ARGS...: the scripts' option loop.
# --table-only (every script) sets compile=0 (else 1); each --no-NAME the
# script declares sets NAME=0 (else 1). Anything else: usage, exit 2.
sites_options() {
	local flags=() a f known
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		flags+=("$1")
		shift
	done
	shift
	compile=1
	for f in "${flags[@]}"; do printf -v "${f#--no-}" 1; done
	for a in "$@"; do
		[ "$a" = --table-only ] && { compile=0; continue; }
		known=0
		for f in "${flags[@]}"; do
			[ "$a" = "$f" ] && { printf -v "${f#--no-}" 0; known=1; }
		done
		if [ $known = 0 ]; then
			printf 'usage: %s.sh' "$SITES_NAME" >&2
			printf ' [%s]' "${flags[@]}" --table-only >&2
			echo >&2
			exit 2
		fi
	done
}

# sites_need qr|plugin...: die unless the harness / the plugin is built.
sites_need() {
	local n
	for n in "$@"; do
		case $n in
		qr) [ -x "$QR" ] || die "$QR not built (make plugin)" ;;
		plugin) [ -f "$PLUGIN" ] || die "plugin $PLUGIN not built (make plugin)" ;;
		esac
	done
}

# sites_lock: hold $KBUILD_LOCK (fd 9) from here on, for many short makes:
# waiting for the lock between them would take longer than they do.
# sites_unlock lets it go.
sites_lock() {
	mkdir -p "$(dirname "$KBUILD_LOCK")"
	exec 9>>"$KBUILD_LOCK" || die "cannot open $KBUILD_LOCK"
	echo "$SITES_NAME: waiting for $KBUILD_LOCK" >&2
	flock 9 || die "cannot lock $KBUILD_LOCK"
	SITES_LOCKED=1
}
sites_unlock() {
	flock -u 9
	SITES_LOCKED=
}

# kmake TREE [make args...]: the kernel make with the plugin and no
# ignorelist, serialized with every other kernel build: under the lock
# sites_lock holds, else taking $KBUILD_LOCK for this one make.
kmake() {
	local t=$1 lock=()
	shift
	[ -n "${SITES_LOCKED:-}" ] || lock=(flock "$KBUILD_LOCK")
	# fd 9 (sites_lock's) stays with this script, not with make's children
	"${lock[@]}" make -C "$t" LLVM="$LLVM" WRAP_IDIOM_PLUGIN="$PLUGIN" \
		WRAP_IDIOM_IGNORELISTS= -j"$JOBS" "$@" 9>&-
}

# sites_table < SITES: the Markdown table of the plugin's decision at each
# site of $TREE, from the remarks in $OUT/<file's basename>.remarks. A SITES
# line is `file|test[|token]`: the test as written (its first line) and
# the token whose column the check has (the first '+' of the test when
# none: clang puts an addition's check there; a macro's check is at the
# macro's name). A site whose check was kept or not found touches
# $OUT/.bad.
sites_table() {
	local n=0 file test token rem line col pc r others
	rm -f "$OUT/.bad"
	echo "| # | site | test | line | plugin's decision | other checks in the file: kept / removed |"
	echo "|---|---|---|---|---|---|"
	while IFS='|' read -r file test token; do
		n=$((n + 1))
		rem=$OUT/$(basename "$file" .c).remarks
		if [ ! -f "$rem" ]; then
			echo "| $n | $file | \`$test\` | - | not compiled | - |"
			touch "$OUT/.bad"
			continue
		fi
		line=$(grep -nF -- "$test" "$TREE/$file" | head -1 | cut -d: -f1)
		if [ -z "$line" ]; then
			echo "| $n | $file | \`$test\` | ? | test not found in the tree | - |"
			touch "$OUT/.bad"
			continue
		fi
		col=$(awk -v l="$line" -v t="$test" 'NR == l { print index($0, t) }' "$TREE/$file")
		pc=$(awk -v t="$test" -v c="$col" -v k="${token:-+}" 'BEGIN { print c + index(t, k) - 1 }')
		r=$(grep -E "^$file:$line:$pc: remark: (removed|kept)" "$rem" | head -1 |
			sed -E 's/^[^ ]+ remark: removed ([a-z-]+) check on ([a-z]+): ([a-z-]+) .*/removed (\3)/;
				s/^[^ ]+ remark: kept ([a-z-]+) check on ([a-z]+): (.*) \[-Rpass-missed=wrap-idiom\]$/KEPT (\3)/')
		[ -n "$r" ] || r="no remark at column $pc (no check?)"
		case $r in removed*) ;; *) touch "$OUT/.bad" ;; esac
		others=$(grep -E "^$file:[0-9]+:[0-9]+: remark: (removed|kept)" "$rem" | grep -v "^$file:$line:$pc:" |
			awk '/ remark: kept / { k++ } / remark: removed / { r++ } END { printf "%d / %d", k, r }')
		echo "| $n | $file:$line:$pc | \`$test\` | $line | $r | $others |"
	done
}

# sites_compile "SYMBOL..." OBJ...: prepare $TREE with the series
# (qemu-run prepare), the harness's config with each SYMBOL enabled on top,
# `make prepare`, then compile each OBJ with the plugin, the wrap
# sanitizers and the plugin's remarks into $OUT/<OBJ's basename>.remarks,
# no ignorelist: no kernel build. Dies (exit 2) on a failed step or a
# SYMBOL the config did not take.
sites_compile() {
	local syms=$1 sym o enable=()
	shift
	for sym in $syms; do enable+=(-e "$sym"); done
	echo "$SITES_NAME: tree $TREE" >&2
	"$QR" prepare --tree "$TREE" --plugin "$PLUGIN" >"$OUT/prepare.log" 2>&1 ||
		die "prepare failed, see $OUT/prepare.log"
	# Every kernel make below runs holding $KBUILD_LOCK, taken once for
	# all of them (qemu-run config gets a private lock of its own meanwhile).
	sites_lock
	(
		"$QR" config --tree "$TREE" --plugin "$PLUGIN" --lock "$OUT/config.lock" &&
			"$TREE/scripts/config" --file "$TREE/.config" "${enable[@]}" &&
			kmake "$TREE" olddefconfig
	) >"$OUT/config.log" 2>&1 || die "config failed, see $OUT/config.log"
	for sym in $syms UBSAN_UNSIGNED_WRAP UBSAN_WRAP_IDIOM; do
		grep -q "^CONFIG_$sym=y" "$TREE/.config" ||
			die "$TREE/.config lacks CONFIG_$sym=y (see $OUT/config.log)"
	done
	kmake "$TREE" prepare >"$OUT/kprepare.log" 2>&1 || die "make prepare failed, see $OUT/kprepare.log"
	for o in "$@"; do
		rm -f "$TREE/$o"
		kmake "$TREE" UBSAN_SANITIZE=y KCFLAGS="$REMARKS" "$o" >"$OUT/$(basename "$o" .o).remarks" 2>&1 ||
			die "compiling $o failed, see $OUT/$(basename "$o" .o).remarks"
	done
	sites_unlock
}
