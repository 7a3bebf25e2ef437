//===- main.cpp - wrap-ignorelist: per-subsystem sanitizer ignorelists ----===//
//
// Part of wrapidiom. See README.md beside this file.
//
//===----------------------------------------------------------------------===//
#include "Subcommands.h"

extern "C" const char *qr_prog; // qemu-run/src/util.c

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/InitLLVM.h"

using namespace llvm;

namespace wil {

static const char Usage[] =
    R"(usage: wrap-ignorelist <command> [options] [files]

commands:
  lint [--tree KERNEL_TREE] [--stats] FILE...
      Check ignorelists: SpecialCaseList parse, '# Subsystem:'/'# List:'
      header, a justification comment above every entry, known sections,
      kinds and categories, no duplicates (also across FILEs). With --tree:
      src: globs must match a file, fun: globs a function definition, and
      the header must name a MAINTAINERS entry and one of its lists.
      --stats: also say how many tree files were scanned.
  triage [--tree KERNEL_TREE] [--maintainers FILE] [--ignorelists DIR]
         [--format=table|csv|scl] [--after LOG] [--system-map FILE] INPUT...
      Summarise UBSan wrap reports in kernel console logs and wrap-idiom
      remarks in clang optimization records (*.opt.yaml, *.yaml, *.yml)
      per MAINTAINERS subsystem, mark sites an ignorelist in DIR covers and
      propose entries for the others. --after LOG (table only): how each
      site fared in a later boot log: still reported, gone and covered by
      an ignorelist, or gone otherwise (a plugin idiom or a patch).
      --system-map FILE: the kernel's System.map names raw trace addresses
      (a kernel without CONFIG_KALLSYMS). Logs are read by the same reader
      as `qemu-run parse` (qemu-run/src/consolelog.h): the same sites.
  flags [--clang] FILE...
      Print '-mllvm -wrap-idiom-ignorelist=<abs>' for every FILE (with
      --clang: '-fsanitize-ignorelist=<abs>'), after checking they parse.
  combine -o OUT FILE...
      Write the FILEs, in order, as one ignorelist OUT (atomically).
  help
      Print this text.

exit status: 0 fine, 1 problems found or malformed input, 2 usage error or
unreadable file.
)";

int usageError(const Twine &Msg) {
  errs() << "wrap-ignorelist: error: " << Msg << "\n"
         << "run 'wrap-ignorelist help' for usage\n";
  return ExitUsage;
}

int fatalError(const Twine &Msg) {
  errs() << "wrap-ignorelist: error: " << Msg << "\n";
  return ExitUsage;
}

bool ArgScanner::value(StringRef Name, std::string &Out) {
  if (done() || DashDash)
    return false;
  StringRef Cur = A[I];
  if (Cur == Name) {
    if (I + 1 >= A.size()) {
      Error = ("option '" + Name + "' needs a value").str();
      ++I;
      return false;
    }
    Out = A[I + 1];
    I += 2;
    return true;
  }
  if (Cur.starts_with(Name) && Cur.drop_front(Name.size()).starts_with("=")) {
    Out = Cur.drop_front(Name.size() + 1).str();
    ++I;
    if (Out.empty()) {
      Error = ("option '" + Name + "' needs a value").str();
      return false;
    }
    return true;
  }
  return false;
}

bool ArgScanner::flag(StringRef Name) {
  if (done() || DashDash || A[I] != Name)
    return false;
  ++I;
  return true;
}

bool ArgScanner::atOption() const {
  if (done() || DashDash)
    return false;
  StringRef Cur = A[I];
  return Cur.starts_with("-") && Cur != "-" && Cur != "--";
}

StringRef ArgScanner::positional() {
  if (!DashDash && A[I] == "--") {
    DashDash = true;
    ++I;
    if (done())
      return "";
  }
  return A[I++];
}

} // namespace wil

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  using namespace wil;
  qr_prog = "wrap-ignorelist"; // the console-log reader's messages
  if (argc < 2)
    return usageError("no command given");
  StringRef Cmd = argv[1];
  std::vector<std::string> Rest(argv + 2, argv + argc);
  if (Cmd == "help" || Cmd == "--help" || Cmd == "-h") {
    outs() << Usage;
    return ExitOK;
  }
  if (Cmd == "--version") {
    outs() << "wrap-ignorelist (wrapidiom), built with LLVM "
           << LLVM_VERSION_STRING << "\n";
    return ExitOK;
  }
  if (Cmd == "lint")
    return runLint(Rest);
  if (Cmd == "triage")
    return runTriage(Rest);
  if (Cmd == "flags")
    return runFlags(Rest);
  if (Cmd == "combine")
    return runCombine(Rest);
  return usageError("unknown command '" + Cmd + "'");
}
