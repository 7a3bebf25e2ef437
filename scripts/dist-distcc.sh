# Part of scripts/check-distributed.sh (sourced there): distcc.
# shellcheck shell=bash
# start_distccd NAME PORT STAGE: distccd on 127.0.0.1:PORT that sees, in
# place of the directories in hide[], only what STAGE holds under them.
start_distccd() {
	mkdir -p "$scratch/tmp-$1" && chmod 1777 "$scratch/tmp-$1"
	unshare -m --propagation private bash -c \
		'name=$1 port=$2 stage=$3; shift 3
		 for d; do
			mount -t tmpfs -o mode=0755 wrap-idiom-hide "$d" || exit 1
			if [ -d "$stage$d" ]; then cp -a "$stage$d/." "$d/" || exit 1; fi
		 done
		 TMPDIR=/run/tmp-$name exec distccd --no-detach --daemon --allow 127.0.0.1 --listen 127.0.0.1 \
			-p "$port" --jobs 2 --log-file="/run/logs/$name.log" --log-level=info' _ "$@" "${hide[@]}" &
	pids+=($!)
	local k
	for k in $(seq 1 40); do
		(exec 3<>"/dev/tcp/127.0.0.1/$2") 2>/dev/null && return 0
		sleep 0.25
	done
	bad "distccd $1 does not listen on 127.0.0.1:$2 (log $work/daemon-logs/$1.log)"
	return 1
}
lists=("$work"/lists/*.scl)
mkdir -p "$scratch/stage-good" "$scratch/stage-stale" "$scratch/stage-bare"
"$here/distcc-install.sh" "$scratch/stage-good" "$plugin" "${lists[@]}" > "$work/out/install-good.txt" &&
	"$here/distcc-install.sh" "$scratch/stage-stale" "$plugin" "${lists[@]}" > /dev/null &&
	printf '\0' >> "$scratch/stage-stale$plugin" &&
	ok "distcc-install.sh: $(grep -c -- '->' "$work/out/install-good.txt") file(s) into the servers' prefixes" ||
	bad "distcc-install.sh failed"
start_distccd wi-good 13632 "$scratch/stage-good" &&
	start_distccd wi-stale 13633 "$scratch/stage-stale" &&
	start_distccd wi-bare 13634 "$scratch/stage-bare" &&
	ok "distccd: wi-good, wi-stale, wi-bare on 127.0.0.1:13632-13634 (checkout hidden)"
mkdir -p "$work/distcc"
export DISTCC_DIR=$work/distcc DISTCC_FALLBACK=0 DISTCC_SKIP_LOCAL_RETRY=1

dc() { # EXPECT(0|1) HOSTS PATTERN WHAT: dist-check distcc against HOSTS
	local out=$work/out/dc-$(echo "$2" | tr -c 'a-z0-9\n' '-').txt rc
	DISTCC_HOSTS=$2 "$here/dist-check.sh" distcc "$plugin" "${lists[@]}" > "$out" 2>&1
	rc=$?
	if [ $rc = "$1" ] && grep -q "$3" "$out"; then
		ok "dist-check distcc, $4: $(grep -m1 "$3" "$out")"
	else
		bad "dist-check distcc, $4: exit $rc, expected $1 and '$3':"; cat "$out"
	fi
}
dc 0 127.0.0.1:13632 "identical" "good server"
dc 1 127.0.0.1:13633 "node 127.0.0.1:13633: $plugin differs" "stale plugin copy"
dc 1 127.0.0.1:13634 "node 127.0.0.1:13634: .* is missing there" "nothing installed"
dc 1 127.0.0.1:13639 "node 127.0.0.1:13639: no distccd answers" "no daemon"
dc 1 "127.0.0.1:13632 127.0.0.1:13633" "13633: $plugin differs" "one good and one stale server"

export DISTCC_HOSTS=127.0.0.1:13632
run_all distcc dcc || bad "distcc: a compile on wi-good failed (out/dcc-*.err)"
jobs_good=$(grep -c "COMPILE_OK\|job complete" "$scratch/logs/wi-good.log" 2>/dev/null)
same dcc && ok "distcc on wi-good ($jobs_good job(s) in its log): objects and remarks identical to the local ones" ||
	bad "distcc: objects or remarks differ"
times+=("distcc (plain, remote on wi-good): $(mean_ms dcc) ms")
# without the check, on the server that lacks the files: the compile fails there
if DISTCC_HOSTS=127.0.0.1:13634 run distcc dcc-bare 0; then
	bad "distcc on wi-bare compiled although the server has no plugin (does it see the checkout?)"
else
	grep -q "$plugin" "$work/out/dcc-bare-${names[0]}.err" &&
		ok "distcc on wi-bare fails, naming the file: $(grep -m1 "$plugin" "$work/out/dcc-bare-${names[0]}.err" | cut -c1-160)" ||
		{ bad "distcc on wi-bare failed without naming the plugin:"; head -5 "$work/out/dcc-bare-${names[0]}.err"; }
fi

# pump mode: the include server sends the sources and headers, the node
# preprocesses; the plugin and the lists are no headers, so they still come
# from the node's own copies. Where the include server gives up on a unit,
# distcc says so and preprocesses here (plain mode): reported, not hidden.
# (distcc-pump COMMAND runs one include server for COMMAND: per unit here)
export DISTCC_HOSTS="127.0.0.1:13632,cpp,lzo"
run_all "distcc-pump distcc" pump || bad "distcc pump mode: a compile failed (out/pump-*.err)"
fell=$(grep -l "preprocessing locally" "$work"/out/pump-*.err 2>/dev/null | wc -l)
why=$(grep -h -o -m1 "Include server internal error: [^)]*)\|include server gave up[^)]*\|failed to connect.*" "$work"/out/pump-*.err 2>/dev/null | head -1 | sed 's/^distcc\[[0-9]*\] //')
if same pump; then
	ok "distcc pump mode: objects and remarks identical; $((${#names[@]} - fell)) of ${#names[@]} unit(s) pumped${why:+, the others preprocessed here ($why)}"
else
	bad "distcc pump mode: objects or remarks differ"
fi
times+=("distcc (pump, an include server per unit, remote on wi-good): $(mean_ms pump) ms")
unset DISTCC_HOSTS
