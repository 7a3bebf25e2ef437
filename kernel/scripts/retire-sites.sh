#!/bin/bash
# retire-sites.sh - what the plugin decides where a patch changed the code,
# with the patch left out.
#
# Usage: kernel/scripts/retire-sites.sh [--enable "SYM..."] [--also "FILE.c..."]
#                                      [--table-only] PATCH...
#
# A patch that only annotates or rewrites arithmetic for the sanitizer can
# go once the plugin proves its sites by class. This script prepares a 6.12
# tree with the series minus the PATCHes (qemu-run prepare --patches), the
# workload profile's config with the plugin (and each SYM of --enable on
# top), runs `make prepare`, compiles every C file the PATCHes touch that
# this architecture builds (a file another includes, as kernel/sched's
# build_policy.c does, as that one) and each FILE.c of --also (the users of
# a header the PATCHes change), with the plugin's remarks and no ignorelist (no
# kernel build), and prints, for each line a PATCH removed or changed, the
# plugin's decision on each check there: removed (idiom), re-checked
# (re-check) or KEPT (why). A patch retires when none of its lines keeps a
# check: the table says so per patch.
#
# Output: a Markdown table on stdout and in $OUT/table.md; the remarks in
# $OUT/remarks/. --table-only: the table from an earlier run's remarks.
# Exit status: 0 no line keeps a check, 1 one does, 2 a step failed.
#
# Environment: as the other *-sites.sh (sites-env.sh): BUILD, PLUGIN,
# KBUILD_LOCK, LLVM, JOBS.
set -u

here=$(cd "$(dirname "$0")" && pwd)
SITES_NAME=retire-sites
. "$here/sites-env.sh"
OUT=$BUILD/retire-sites
TREE=$BUILD/linux-6.12-retire
compile=1
syms=
also=
patches=()
while [ $# -gt 0 ]; do
	case $1 in
	--table-only) compile=0 ;;
	--enable) syms=$2; shift ;;
	--also) also=$2; shift ;;
	-*) echo "usage: retire-sites.sh [--enable \"SYM...\"] [--also \"FILE.c...\"] [--table-only] PATCH..." >&2; exit 2 ;;
	*) patches+=("$(basename "$1")") ;;
	esac
	shift
done
[ ${#patches[@]} -gt 0 ] || die "no patch named"
sites_need qr plugin
src=$root/kernel/patches
# A PATCH already out of series (replaced by another) is only read: its
# lines are where the plugin must decide now.
for p in "${patches[@]}"; do
	[ -f "$src/$p" ] || die "$src/$p does not exist"
	grep -qxF "$p" "$src/series" || echo "$SITES_NAME: $p is not in series: checking its lines only" >&2
done

# The C files the patches touch (headers are compiled through them).
files() {
	local p
	for p in "${patches[@]}"; do
		sed -n 's|^+++ b/\(.*\.c\)$|\1|p' "$src/$p"
	done | sort -u
}

if [ $compile = 1 ]; then
	rm -rf "$OUT" && mkdir -p "$OUT/patches" "$OUT/remarks"
	cp "$src"/*.patch "$OUT/patches/"
	grep -vxF -f <(printf '%s\n' "${patches[@]}") "$src/series" >"$OUT/patches/series"
	echo "$SITES_NAME: tree $TREE without ${#patches[@]} patches" >&2
	"$QR" prepare --profile workload --tree "$TREE" --patches "$OUT/patches" --plugin "$PLUGIN" \
		>"$OUT/prepare.log" 2>&1 || die "prepare failed, see $OUT/prepare.log"
	sites_lock
	enable=()
	for s in $syms; do enable+=(-e "$s"); done
	(
		"$QR" config --profile workload --tree "$TREE" --plugin "$PLUGIN" --lock "$OUT/config.lock" &&
			{ [ ${#enable[@]} = 0 ] || "$TREE/scripts/config" --file "$TREE/.config" "${enable[@]}"; } &&
			kmake "$TREE" olddefconfig
	) >"$OUT/config.log" 2>&1 || die "config failed, see $OUT/config.log"
	kmake "$TREE" prepare >"$OUT/kprepare.log" 2>&1 || die "make prepare failed, see $OUT/kprepare.log"
	for f in $(files) $also; do
		case $f in arch/*) [ "${f#arch/x86/}" != "$f" ] || continue ;; esac
		# A file another one includes (kernel/sched's build_policy.c and
		# build_utility.c) is compiled as that one.
		unity=$(grep -l "^#include \"$(basename "$f")\"" "$TREE/$(dirname "$f")"/*.c 2>/dev/null | head -1)
		[ -z "$unity" ] || f=${unity#"$TREE"/}
		o=${f%.c}.o
		[ -e "$OUT/remarks/$(echo "$f" | tr / _).remarks" ] && continue
		r=$OUT/remarks/$(echo "$f" | tr / _).remarks
		rm -f "$TREE/$o"
		kmake "$TREE" UBSAN_SANITIZE=y KCFLAGS="$REMARKS" "$o" >"$r" 2>&1 ||
			echo "$f: not compiled (see $r)" >"$r.failed"
	done
	sites_unlock
fi

python3 - "$src" "$TREE" "$OUT" "${patches[@]}" <<'EOF' | tee "$OUT/table.md"
import glob, os, re, sys

src, tree, out, patches = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
remark = re.compile(r'^(\S+?):(\d+):(\d+): remark: (removed|kept|re-checked) '
                    r'(\S+) check on (\S+): (.*?)(?: \[-Rpass[^]]*\])?$')
by_file = {}
for r in glob.glob(os.path.join(out, 'remarks', '*.remarks')):
    for line in open(r, errors='replace'):
        m = remark.match(line.strip())
        if m:
            f, l, c, what, san, op, why = m.groups()
            f = os.path.normpath(f)
            if f.startswith(tree + '/'):
                f = f[len(tree) + 1:]
            by_file.setdefault(f, {}).setdefault(int(l), set()).add(
                (int(c), what, op, why, san.split('-')[0]))

def norm(s):
    return ' '.join(s.strip().split())

bad = 0
print('| patch | file:line | source | decisions |')
print('|---|---|---|---|')
for p in patches:
    removed, f = {}, None
    for line in open(os.path.join(src, p), errors='replace'):
        if line.startswith('+++ b/'):
            f = line[6:].strip()
        elif line.startswith('-') and not line.startswith('---') and f:
            t = norm(line[1:])
            if len(t) > 3 and not t.startswith(('/*', '*', '//', '#')):
                removed.setdefault(f, set()).add(t)
    rows = 0
    for f, texts in sorted(removed.items()):
        path = os.path.join(tree, f)
        if not os.path.exists(path):
            continue
        for n, text in enumerate(open(path, errors='replace').read().split('\n'), 1):
            if norm(text) not in texts:
                continue
            ds = sorted(by_file.get(f, {}).get(n, ()))
            # A kept signed or pointer check reports only a real overflow
            # (the kernel is built with -fwrapv): only an unsigned one is
            # a false report waiting to happen.
            if any(w == 'kept' and k == 'unsigned' for _, w, _, _, k in ds):
                bad = 1
            desc = '; '.join(f'{c}: {w} {o}{"" if k == "unsigned" else " (" + k + ")"}: {y[:100]}'
                             for c, w, o, y, k in ds) or 'no check'
            print(f'| {p[:48]} | {f}:{n} | `{norm(text)[:60]}` | {desc} |')
            rows += 1
    if rows == 0:
        print(f'| {p[:48]} | - | - | no line found in the tree |')
sys.exit(bad)
EOF
status=${PIPESTATUS[0]}
exit "$status"
