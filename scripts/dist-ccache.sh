# Part of scripts/check-distributed.sh (sourced there): ccache.
# shellcheck shell=bash
export CCACHE_DIR=$work/ccache
ccstat() { # KEY: a counter of ccache --print-stats
	ccache --print-stats | awk -v k="$1" '$1 == k { print $2 }'
}
ccache -z > /dev/null
n=${#names[@]}
if run_all ccache cc-miss && [ "$(ccstat cache_miss)" = "$n" ] && same cc-miss; then
	ok "ccache, cold: $n miss(es), objects and remarks identical to the local ones"
else
	bad "ccache, cold: misses $(ccstat cache_miss) of $n, or objects/remarks differ"
fi
ccache -z > /dev/null
if run_all ccache cc-hit && [ "$(ccstat direct_cache_hit)" = "$n" ] && same cc-hit; then
	ok "ccache, warm: $n direct hit(s), identical objects and remarks"
else
	bad "ccache, warm: direct hits $(ccstat direct_cache_hit) of $n, or objects/remarks differ"
fi
times+=("ccache miss: $(mean_ms cc-miss) ms, ccache hit: $(mean_ms cc-hit) ms")

# Move one list entry: the stamp changes, and every unit must miss and be
# what a local compile with the new list gives.
change_list
make_stamp ident
run_all "" ref-new
differ=0
for i in "${!names[@]}"; do cmp -s "$work/out/ref-${names[$i]}.o" "$work/out/ref-new-${names[$i]}.o" || differ=$((differ + 1)); done
[ $differ -gt 0 ] && ok "the moved list entry changes $differ of $n object(s) (the test can see a stale one)" ||
	bad "the moved list entry ($change_from) changes no object: the ccache test proves nothing"
ccache -z > /dev/null
if run_all ccache cc-new && [ "$(ccstat cache_miss)" = "$n" ] && same cc-new ref-new; then
	ok "ccache after the list change: $n miss(es), objects as with the new list"
else
	bad "ccache after the list change: misses $(ccstat cache_miss) of $n (hits: direct $(ccstat direct_cache_hit), preprocessed $(ccstat preprocessed_cache_hit)), or stale objects"
fi

# The same with the hashes in a comment, as the stamp was: ccache falls back
# to hashing the preprocessed source, where the comment is gone, and serves
# the old objects. This shows the test above fails when the stamp is wrong.
restore_list
make_stamp comment
export CCACHE_DIR=$work/ccache-comment
run_all ccache cc-c1 > /dev/null
change_list
make_stamp comment
ccache -z > /dev/null
run_all ccache cc-c2
stale=0
for i in "${!names[@]}"; do
	cmp -s "$work/out/ref-${names[$i]}.o" "$work/out/cc-c2-${names[$i]}.o" &&
		! cmp -s "$work/out/ref-new-${names[$i]}.o" "$work/out/cc-c2-${names[$i]}.o" && stale=$((stale + 1))
done
[ $stale -gt 0 ] && ok "control: with the hashes in a comment ccache serves $stale stale object(s) ($(ccstat preprocessed_cache_hit) preprocessed hit(s))" ||
	bad "control: the comment stamp gave no stale object (is the control still meaningful?)"
restore_list
make_stamp ident
export CCACHE_DIR=$work/ccache
