# lit configuration for the wrap-idiom suite. Paths come from the
# lit.site.cfg.py that CMake writes into the build tree.
import os
import shutil

import lit.formats
import lit.util

config.name = "wrap-idiom (LLVM %d)" % config.llvm_version_major
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".c", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.wrapidiom_obj_root, "lit-tests")

tools = config.llvm_tools_dir
# FileCheck, not, count, opt, clang of the LLVM under test come first.
config.environment["PATH"] = os.pathsep.join(
    [config.tools_dir, os.path.join(config.wrapidiom_obj_root, "qemu-run"), tools,
     config.environment.get("PATH", "")])
for var in ("HOME", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# Runtime tests read UBSan reports from stderr; keep them unsymbolized and
# free of the user's settings.
config.environment["UBSAN_OPTIONS"] = "print_stacktrace=0:symbolize=0"

plugin = config.plugin
clang = os.path.join(tools, "clang")
opt = os.path.join(tools, "opt")

# clang 22 parses -mllvm options of a -fpass-plugin; clang < 22 only sees the
# plugin's options when it is also loaded with -fplugin= (see README.md).
pass_plugin = "-fpass-plugin=" + plugin
if config.llvm_version_major < 22:
    pass_plugin += " -fplugin=" + plugin

config.substitutions.append(("%plugin", plugin))
# opt verifies the module after the pipeline unless told otherwise.
config.substitutions.append(("%opt", "%s -load-pass-plugin=%s" % (opt, plugin)))
# Every compilation through the plugin also verifies the IR after each pass.
verify = "-fverify-intermediate-code -Xclang -llvm-verify-each"
config.substitutions.append(("%clang_plugin", "%s %s %s" % (clang, pass_plugin, verify)))
config.substitutions.append(("%clang", clang))
config.substitutions.append(
    ("%ubsan", "-fsanitize=signed-integer-overflow,unsigned-integer-overflow,pointer-overflow"))
config.substitutions.append(("%srcroot", config.wrapidiom_src_root))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))

config.available_features.add("llvm%d" % config.llvm_version_major)
# Running as root (CI, the kernel builds): tests that change user ids.
if os.getuid() == 0:
    config.available_features.add("root")
# Debian's busybox-static (scripts/deps.sh kernel): the guest workload's shell.
if shutil.which("busybox"):
    config.available_features.add("busybox")
# arm64 guests (scripts/deps.sh arm64): QEMU's aarch64 emulator, and the
# guest /init CMake builds with Debian's cross compiler.
if shutil.which("qemu-system-aarch64"):
    config.available_features.add("qemu-aarch64")
if os.path.exists(os.path.join(config.wrapidiom_obj_root, "qemu-run", "init",
                               "qemu-run-init-arm64")):
    config.available_features.add("arm64-init")
if config.llvm_version_major >= 20:
    # -fsanitize-undefined-ignore-overflow-pattern= arrived in clang 20.
    config.available_features.add("ignore-overflow-pattern")
    # Since LLVM 20 the optimizer's callbacks carry the LTO phase, which is
    # how the plugin sees a ThinLTO backend.
    config.available_features.add("thinlto-phase")
# -fwrapv-pointer/-fno-wrapv-pointer: clang 22 has them, clang 19 not (there
# -fwrapv defines pointer wrap too and cannot be undone). Asked of the clang
# under test rather than guessed from its version.
import subprocess
if subprocess.run([clang, "-fno-wrapv-pointer", "-fsyntax-only", "-x", "c", "/dev/null"],
                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
    config.available_features.add("wrapv-pointer-flag")
