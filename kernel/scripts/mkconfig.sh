#!/bin/sh
# mkconfig.sh TREE [FRAGMENT...]: write TREE/.config as `make tinyconfig`
# (x86_64, clang 22) plus the given fragments, then report every fragment
# symbol that did not end up with the requested value.
set -eu
tree=$1; shift
LLVM=${LLVM:--22}
cd "$tree"
make -s LLVM="$LLVM" tinyconfig >/dev/null
./scripts/kconfig/merge_config.sh -m -Q .config "$@" >/dev/null
make -s LLVM="$LLVM" ${WRAP_IDIOM_PLUGIN:+WRAP_IDIOM_PLUGIN="$WRAP_IDIOM_PLUGIN"} olddefconfig >/dev/null
missing=0
for frag in "$@"; do
	grep -E '^(CONFIG_[A-Za-z0-9_]+=|# CONFIG_[A-Za-z0-9_]+ is not set)' "$frag" |
	while IFS= read -r want; do
		case $want in
		'# '*) sym=${want#\# }; sym=${sym%% *}
		       if grep -q "^$sym=" .config; then echo "mkconfig: $sym is set, wanted unset ($frag)"; fi ;;
		*)     grep -qxF "$want" .config || echo "mkconfig: $want not in .config ($frag)" ;;
		esac
	done
done
exit $missing
