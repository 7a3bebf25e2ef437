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

.PHONY: all deps plugin plugin-19 lit lit-19 check boot clean help

all: plugin

help:
	@echo "make boot    - build the plugin, build the patched kernel with it, boot it in QEMU, print the verdict"
	@echo "make check   - build everything and run every test (lit with LLVM 22 and 19, tools, boot test)"
	@echo "make plugin  - build $(BUILD)/llvm-pass/WrapIdiom.so against LLVM 22"
	@echo "make lit     - run the lit suite against LLVM 22 (lit-19: against LLVM 19)"

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

check: lit lit-19
	@echo "check: all tests passed"

boot: plugin
	@echo "boot: the kernel side is not wired yet"

clean:
	rm -rf $(BUILD) $(BUILD19)
