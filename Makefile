# wrapidiom: the two commands are `make boot` (main job) and `make check`
# (every test). Both install what they need first (scripts/deps.sh).
#
# This Makefile only drives CMake and the scripts; the logic lives in
# CMakeLists.txt, llvm-pass/, lit-tests/, qemu-run/ and tools/.

LLVM_DIR    ?= /usr/lib/llvm-22
LLVM19_DIR  ?= /usr/lib/llvm-19
BUILD       ?= build
BUILD19     ?= build-19
JOBS        ?= $(shell nproc)

CMAKE_CONFIGURE = cmake -S . -B $(1) -DWRAPIDIOM_LLVM_DIR=$(2) >/dev/null

.PHONY: all deps plugin plugin-19 lit lit-19 check check-paths check-distributed icecc-env boot boot-test boot-test-stress boot-test-arm64 boot-test-defconfig boot-test-defconfig-arm64 boot-findings busybox-arm64 lint-ignorelists fuzz-quick fuzz fuzz-oracle-quick fuzz-oracle fuzz-log-quick fuzz-log fuzz-wrapv-pointer wrapv-identity pointer-sites bench bench-scaling bench-runtime clean help

all: plugin

help:
	@echo "make boot    - build the plugin, build the patched kernel with it, boot it in QEMU, print the verdict"
	@echo "               PROFILE=tiny|workload|defconfig|stress|stress-defconfig (default tiny; qemu-run/configs/profiles/)"
	@echo "               ARCH=x86_64|arm64 (default x86_64; arm64: tiny and workload)"
	@echo "make check   - build everything and run every test (lit with LLVM 22 and 19, tools, boot test)"
	@echo "make check-paths - no file names a path of one machine (part of check, runs first)"
	@echo "make plugin  - build $(BUILD)/llvm-pass/WrapIdiom.so against LLVM 22"
	@echo "make lit     - run the lit suite against LLVM 22 (lit-19: against LLVM 19)"
	@echo "make boot-test - the boot test of make check: the x86_64 workload kernel PASSes --strict"
	@echo "make boot-test-stress - the same kernel under stress-ng and trinity (profile stress, seed 1), --strict"
	@echo "make boot-test-arm64 - the arm64 tiny kernel PASSes --strict, the no-plugin one fails wrap_idiom (part of check)"
	@echo "make boot-findings - the reproducers of the fixes: each fails on the kernel without the fixes, passes with them (not in check)"
	@echo "make boot-test-defconfig - the x86_64 defconfig kernel: workload --strict, no-plugin fails wrap_idiom, stress seed 1 --strict (not in check)"
	@echo "make boot-test-defconfig-arm64 - the same for arm64's defconfig without the SoC platforms (not in check)"
	@echo "make check-distributed - the plugin under ccache, icecream and distcc on loopback daemons (part of check)"
	@echo "make icecc-env - an icecream environment with clang-22, the plugin and ignorelists/*.scl ($(BUILD)/icecc)"
	@echo "make lint-ignorelists - lint ignorelists/*.scl against the patched 6.12 tree and count what each entry removes in the check kernels"
	@echo "make fuzz-quick - csmith differential test, 10 programs, LLVM 22 and 19 (part of check); fuzz: $(FUZZ_N) programs"
	@echo "make fuzz-oracle - $(ORACLE_N) random wrap-test programs against a wrap oracle (200 per LLVM in check)"
	@echo "make fuzz-log - libFuzzer+ASan+UBSan on the console-log reader for $(FUZZ_LOG_SECONDS) s (30 s in check)"
	@echo "make fuzz-wrapv-pointer - csmith: -fno-strict-overflow against -fno-wrapv-pointer + -wrap-idiom-wrapv-pointer ($(WRAPV_N) programs)"
	@echo "make wrapv-identity - kernel files: the IR of -fno-strict-overflow against -fno-wrapv-pointer + the plugin's mode"
	@echo "make pointer-sites - the kernel's p + n < p tests under kernel-wide pointer checks: each check removed by ptr-compare"
	@echo "make bench   - compile-time cost of the plugin on kernel files and sqlite3.c (bench/RESULTS.md)"
	@echo "make bench-scaling - pass time against the checks of one function, 500 to 16k (bench/RESULTS.md)"
	@echo "make bench-runtime - kernel instructions per stress-ng op: no wrap sanitizers, stock, plugin, trap mode (bench/RESULTS.md)"

deps:
	@scripts/deps.sh

$(BUILD)/CMakeCache.txt:
	$(call CMAKE_CONFIGURE,$(BUILD),$(LLVM_DIR))

$(BUILD19)/CMakeCache.txt:
	$(call CMAKE_CONFIGURE,$(BUILD19),$(LLVM19_DIR))

plugin: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j$(JOBS)

plugin-19: deps $(BUILD19)/CMakeCache.txt
	cmake --build $(BUILD19) -j$(JOBS)

lit: plugin
	cmake --build $(BUILD) --target check-lit

lit-19: plugin-19
	cmake --build $(BUILD19) --target check-lit

# check-paths first: it takes no time and needs nothing built.
check: check-paths lit lit-19 fuzz-quick fuzz-oracle-quick fuzz-log-quick check-distributed boot-test boot-test-stress boot-test-arm64 lint-ignorelists
	@echo "check: all tests passed"

# Defaults come from the checkout and the build directory, never from a path
# of one machine (scripts/check-paths.sh says which paths count).
check-paths:
	@scripts/check-paths.sh

# ccache, icecream and distcc with the plugin (README.md "Building at scale"):
# loopback daemons in private namespaces that cannot see the checkout.
check-distributed: plugin
	@scripts/deps.sh dist
	BUILD=$(BUILD) scripts/check-distributed.sh

# The environment for icecc builds of the kernel, with the lists qemu-run
# passes by default; ICECC_VERSION=$$(cat $(BUILD)/icecc/icecc-version).
icecc-env: plugin
	@scripts/deps.sh dist
	scripts/icecc-env.sh -o $(BUILD)/icecc $(BUILD)/llvm-pass/WrapIdiom.so $(abspath $(wildcard ignorelists/*.scl))

# The kernel side (qemu-run/README.md): patched kernel built with the plugin,
# booted in QEMU, verdict and a summary beside the kernel built without it.
QEMU_RUN = $(BUILD)/qemu-run/qemu-run
# qemu-run/configs/profiles/: tiny, workload (BusyBox + the kernel's KUnit
# suites), defconfig (x86_64_defconfig + kvm_guest.config, arm64's defconfig
# without its SoC platforms; not in check), stress and stress-defconfig (the
# workload and defconfig kernels under stress-ng and trinity).
PROFILE ?= tiny
# ARCH=x86_64|arm64 (qemu-run --arch): arm64 kernels are built with
# make ARCH=arm64 LLVM=-22 and booted in qemu-system-aarch64 -M virt -cpu max.
ARCH ?= x86_64
# make check's boot tests: the x86_64 workload profile, which contains tiny's
# tests, and the arm64 tiny profile.
BOOT_TEST_PROFILE ?= workload
BOOT_TEST_ARM64_PROFILE ?= tiny

# What a guest of an architecture needs beyond the packages of deps.sh.
ARCH_DEPS_arm64 = busybox-arm64

boot: plugin $(ARCH_DEPS_$(ARCH))
	$(QEMU_RUN) run --compare --profile $(PROFILE) --arch $(ARCH)

# The x86_64 workload kernel, strict; the kernel built without the plugin
# (the wrap_idiom suite must fail there: the test can fail) is arm64's, in
# boot-test-arm64, which costs a tiny kernel instead of a workload one.
boot-test: plugin
	$(QEMU_RUN) run --strict --profile $(BOOT_TEST_PROFILE) --arch x86_64

# The same kernel (profile stress boots the workload kernel: nothing more is
# built) under Debian's stress-ng and trinity, strict, seed 1: workloads
# nobody here wrote. Other seeds: SEEDS=1 scripts/boot-repeat.sh N
# --profile stress (kernel/RESULTS.md: ten seeds of series 1-129).
boot-test-stress: plugin
	$(QEMU_RUN) run --strict --profile stress --arch x86_64

boot-test-arm64: plugin busybox-arm64
	$(QEMU_RUN) run --strict --expect-fail-without-plugin --profile $(BOOT_TEST_ARM64_PROFILE) --arch arm64

# The reproducers of the fixes sub-series (kernel/FINDINGS.md,
# kernel/tests/findings/): the workload kernel with the fixes (make check's,
# nothing more to build once boot-test ran) and one built --without-fixes
# (build/linux-6.12-workload-nofixes), both booted with the findings step;
# fails unless every reproducer fails without the fixes and passes with
# them. Not in check: a second workload kernel (kernel/FINDINGS.md has the
# times). ARCH=arm64 for the arm64 workload kernels.
boot-findings: plugin $(ARCH_DEPS_$(ARCH))
	$(QEMU_RUN) run --strict --expect-fail-without-fixes --profile findings --arch $(ARCH)

# The kernels people run (profile defconfig: x86_64_defconfig +
# kvm_guest.config; arm64's defconfig + kvm_guest.config without the SoC
# platforms): the plugin kernel strict on the workload, the kernel without
# the plugin must fail wrap_idiom, then the plugin kernel under stress-ng and
# trinity (profile stress-defconfig, seed 1), strict. Not in make check: two
# builds of an hour or more each on 2 cores (README.md has the times).
# Built through ccache when it is installed (the plugin stamp keys every
# object on the plugin and the lists), its cache in $(BUILD)/ccache-kernel
# unless CCACHE_DIR says otherwise.
DEFCONFIG_CC_WRAPPER ?= $(if $(shell command -v ccache),--cc-wrapper ccache)
boot-test-defconfig boot-test-defconfig-arm64: export CCACHE_DIR ?= $(abspath $(BUILD))/ccache-kernel
boot-test-defconfig boot-test-defconfig-arm64: export CCACHE_MAXSIZE ?= 40G
boot-test-defconfig: plugin
	$(QEMU_RUN) run --strict --expect-fail-without-plugin --profile defconfig --arch x86_64 $(DEFCONFIG_CC_WRAPPER)
	$(QEMU_RUN) run --strict --no-build --profile stress-defconfig --arch x86_64

boot-test-defconfig-arm64: plugin busybox-arm64
	$(QEMU_RUN) run --strict --expect-fail-without-plugin --profile defconfig --arch arm64 $(DEFCONFIG_CC_WRAPPER)
	$(QEMU_RUN) run --strict --no-build --profile stress-defconfig --arch arm64

# Debian's busybox-static:arm64, unpacked under the build directory where
# qemu-run --arch arm64 looks for it: it cannot be installed beside the
# amd64 package (scripts/fetch-deb.sh).
busybox-arm64: deps
	scripts/fetch-deb.sh busybox-static:arm64 $(BUILD)/deps/busybox-static_arm64 bin/busybox

# ignorelists/*.scl against the patched 6.12 tree of the workload kernel: every
# fun: names a function defined there (of one file, or fun:NAME=FILE), every
# src: matches a file, every header names a MAINTAINERS entry and one of its
# lists; and against the kernels make check builds with the plugin (their
# optimization records, written beside every object): each entry must
# remove a check there, and the count per entry is printed. The kernels are
# built first if they are not (after boot-test and boot-test-arm64 in check,
# nothing is left to build).
# LIVE_EXTRA: more plugin trees to count in (build/linux-6.12-defconfig
# after make boot PROFILE=defconfig), for the entries `# lint: kernel NAME`
# marks as theirs.
LIVE_KERNELS = $(BUILD)/linux-6.12-$(BOOT_TEST_PROFILE) $(BUILD)/linux-6.12-arm64 $(LIVE_EXTRA)
LIVE_STAGES = prepare config build
lint-ignorelists: plugin
	for s in $(LIVE_STAGES); do $(QEMU_RUN) $$s --profile $(BOOT_TEST_PROFILE) --arch x86_64 || exit; done
	for s in $(LIVE_STAGES); do $(QEMU_RUN) $$s --profile $(BOOT_TEST_ARM64_PROFILE) --arch arm64 || exit; done
	$(BUILD)/tools/wrap-ignorelist lint --tree $(BUILD)/linux-6.12-$(BOOT_TEST_PROFILE) \
		$(addprefix --remarks ,$(LIVE_KERNELS)) ignorelists/*.scl

# csmith differential testing (fuzz/csmith-diff.sh): without/with the plugin,
# same checksum, no crash, no verifier failure, no report added.
FUZZ_N      ?= 500
FUZZ_SEED   ?= 1000

fuzz-quick: plugin plugin-19
	OUT=$(BUILD)/fuzz PLUGIN=$(BUILD)/llvm-pass/WrapIdiom.so fuzz/csmith-diff.sh -j$(JOBS) 10 1
	OUT=$(BUILD19)/fuzz PLUGIN=$(BUILD19)/llvm-pass/WrapIdiom.so CLANG=clang-19 \
		fuzz/csmith-diff.sh -j$(JOBS) 10 1

# Random wrap-test programs against a wrap oracle (fuzz/wrap-oracle/run.py):
# a removed check whose wrap the oracle judges harmful, or a decision that
# differs between -O0 and -O2, fails. Quick: 200 programs per LLVM (check).
ORACLE_N    ?= 1000
ORACLE_SEED ?= 1

fuzz-oracle-quick: plugin plugin-19
	OUT=$(BUILD)/fuzz-oracle PLUGIN=$(BUILD)/llvm-pass/WrapIdiom.so \
		fuzz/wrap-oracle/run.py -j$(JOBS) 200 $(ORACLE_SEED)
	OUT=$(BUILD19)/fuzz-oracle PLUGIN=$(BUILD19)/llvm-pass/WrapIdiom.so CLANG=clang-19 \
		fuzz/wrap-oracle/run.py -j$(JOBS) 200 $(ORACLE_SEED)

fuzz-oracle: plugin
	OUT=$(BUILD)/fuzz-oracle PLUGIN=$(BUILD)/llvm-pass/WrapIdiom.so \
		fuzz/wrap-oracle/run.py -j$(JOBS) $(ORACLE_N) $(ORACLE_SEED)

# The console-log reader (common/consolelog/, qemu-run/src/ktap.c, parse.c) under
# libFuzzer, ASan and UBSan, seeded with the saved logs (fuzz/consolelog/).
FUZZ_LOG_SECONDS ?= 600

fuzz-log-quick: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) --target fuzz-consolelog
	OUT=$(BUILD)/fuzz-consolelog fuzz/consolelog/run.sh 30

fuzz-log: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) --target fuzz-consolelog
	OUT=$(BUILD)/fuzz-consolelog fuzz/consolelog/run.sh $(FUZZ_LOG_SECONDS)

fuzz: plugin
	OUT=$(BUILD)/fuzz PLUGIN=$(BUILD)/llvm-pass/WrapIdiom.so \
		nice -n 19 fuzz/csmith-diff.sh -j$(JOBS) $(FUZZ_N) $(FUZZ_SEED)

# -fno-strict-overflow against -fno-strict-overflow -fno-wrapv-pointer with
# -wrap-idiom-wrapv-pointer, on pointer-heavy csmith programs: the same
# output. Not part of check.
WRAPV_N ?= 60
fuzz-wrapv-pointer: plugin
	OUT=$(BUILD)/fuzz-wrapv-pointer PLUGIN=$(BUILD)/llvm-pass/WrapIdiom.so \
		COMMON_FLAGS=-fno-strict-overflow \
		PLUGIN_FLAGS="-fno-wrapv-pointer -mllvm -wrap-idiom-wrapv-pointer" \
		CSMITH_FLAGS="--max-pointer-depth 4 --max-array-dim 3" \
		nice -n 19 fuzz/csmith-diff.sh -j$(JOBS) $(WRAPV_N) 1000

# The IR of kernel files: -fno-strict-overflow against -fno-wrapv-pointer plus
# the plugin's mode (kernel/scripts/wrapv-pointer-identity.sh). Not part of
# check: it prepares a kernel tree of its own.
wrapv-identity: plugin
	BUILD=$(abspath $(BUILD)) kernel/scripts/wrapv-pointer-identity.sh

# The kernel's pointer wrap tests p + n < p: every one's check removed by
# ptr-compare, with kernel-wide pointer checks (same tree). Not in check.
pointer-sites: plugin
	BUILD=$(abspath $(BUILD)) kernel/scripts/pointer-sites.sh

bench: plugin
	BUILD=$(BUILD) WORK=$(BUILD)/bench PLUGIN=$(BUILD)/llvm-pass/WrapIdiom.so bench/compile-time.sh

# Not part of check: figures, not tests (bench/scaling.sh).
bench-scaling: plugin
	WORK=$(BUILD)/bench-scaling PLUGIN=$(BUILD)/llvm-pass/WrapIdiom.so bench/scaling.sh

# Not part of check: run-time cost of the wrap checks (bench/runtime-cost.sh):
# six workload kernels of one series (no wrap sanitizers, stock, plugin,
# plugin with pointer mode, stock and plugin in trap mode; ~15-25 minutes
# each to build on 2 cores, under the build lock), then RUNTIME_ROUNDS boots
# of each under -icount with the kinsn plugin: kernel instructions per
# stress-ng bogo op (a few minutes a boot under TCG; no lock needed).
RUNTIME_ROUNDS ?= 3
bench-runtime: plugin
	BUILD=$(BUILD) WORK=$(BUILD)/bench bench/runtime-cost.sh -r $(RUNTIME_ROUNDS)

clean:
	rm -rf $(BUILD) $(BUILD19)
