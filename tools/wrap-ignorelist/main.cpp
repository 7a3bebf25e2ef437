//===- main.cpp - wrap-ignorelist: per-subsystem sanitizer ignorelists ----===//
//
// Part of wrapidiom. See README.md beside this file.
//
//===----------------------------------------------------------------------===//
#include "Subcommands.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"

#include <optional>

using namespace llvm;

namespace wil {

static const char Usage[] =
    R"(usage: wrap-ignorelist <command> [options] [files]

commands:
  lint [--tree KERNEL_TREE] [--remarks DIR]... [--stats] FILE...
      Check ignorelists: SpecialCaseList parse, '# Subsystem:'/'# List:'
      header, a justification comment above every entry, known sections,
      kinds and categories, no duplicates (also across FILEs). With --tree:
      src: globs must match a file, fun: globs a function definition (a
      fun:NAME=FILE one in FILE), a fun: without =FILE must not match
      functions of several files, and the header must name a MAINTAINERS
      entry and one of its lists. With --remarks DIR (repeatable): read
      the wrap-idiom optimization records (*.opt.yaml) under each DIR,
      print per entry how many checks it decided, and fail on an entry
      that decided none. --stats: also say how many tree files were
      scanned.
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

namespace {

/// Print the error that stopped a run; its exit status.
int report(Error E) {
  handleAllErrors(
      std::move(E),
      [](const CommandError &CE) {
        errs() << "wrap-ignorelist: error: " << CE.message() << "\n";
        if (CE.isUsage())
          errs() << "run 'wrap-ignorelist help' for usage\n";
      },
      [](const ErrorInfoBase &EI) {
        errs() << "wrap-ignorelist: error: " << EI.message() << "\n";
      });
  return ExitUsage;
}

/// A subcommand's exit status: its own, or that of the error it returned.
int exitStatus(Expected<ExitCode> Status) {
  if (!Status)
    return report(Status.takeError());
  return *Status;
}

// The subcommands and their options (llvm::cl). Options registered with no
// subcommand (LLVM's own, from libLLVM) belong to the top level and are not
// accepted after a subcommand.
cl::SubCommand LintCmd("lint", "Check ignorelists");
cl::SubCommand TriageCmd("triage", "Summarise wrap reports and remarks per subsystem");
cl::SubCommand FlagsCmd("flags", "Print the compiler flags that pass the lists");
cl::SubCommand CombineCmd("combine", "Write the lists as one ignorelist");

cl::opt<std::string> Tree("tree", cl::desc("The patched kernel tree"),
                          cl::value_desc("dir"), cl::sub(LintCmd),
                          cl::sub(TriageCmd));
cl::list<std::string> RemarkDirs(
    "remarks", cl::desc("A kernel tree built with the plugin's records"),
    cl::value_desc("dir"), cl::sub(LintCmd));
cl::opt<bool> Stats("stats", cl::desc("Say how many tree files were scanned"),
                    cl::sub(LintCmd));
cl::opt<std::string> MaintainersFile("maintainers",
                                     cl::desc("MAINTAINERS (default: the tree's)"),
                                     cl::value_desc("file"), cl::sub(TriageCmd));
cl::opt<std::string> ListsDir("ignorelists",
                              cl::desc("Directory of *.scl to mark coverage with"),
                              cl::value_desc("dir"), cl::sub(TriageCmd));
cl::opt<std::string> Format("format", cl::desc("table, csv or scl"),
                            cl::init("table"), cl::sub(TriageCmd));
cl::opt<std::string> After("after", cl::desc("A later boot log (table only)"),
                           cl::value_desc("log"), cl::sub(TriageCmd));
cl::opt<std::string> SystemMap("system-map",
                               cl::desc("System.map: names raw trace addresses"),
                               cl::value_desc("file"), cl::sub(TriageCmd));
cl::opt<bool> ClangFlags("clang", cl::desc("-fsanitize-ignorelist= flags"),
                         cl::sub(FlagsCmd));
cl::opt<std::string> Output("o", cl::desc("The combined list"),
                            cl::value_desc("file"), cl::sub(CombineCmd));
cl::alias OutputLong("output", cl::aliasopt(Output));
cl::list<std::string> Files(cl::Positional, cl::desc("<file>..."),
                            cl::sub(LintCmd), cl::sub(TriageCmd),
                            cl::sub(FlagsCmd), cl::sub(CombineCmd));

/// cl's messages ("wrap-ignorelist lint: Unknown command line argument
/// '--frob'.  Try: 'wrap-ignorelist lint --help'", "... Did you mean
/// '--tree'?") as one error line. (cl prints a few, such as a missing
/// value, itself: "wrap-ignorelist: for the --tree option: requires a
/// value!".)
int commandLineError(StringRef Messages) {
  SmallVector<StringRef, 4> Lines;
  Messages.trim().split(Lines, '\n', -1, false);
  std::string Text;
  for (StringRef L : Lines) {
    L = L.trim();
    if (L.consume_front("wrap-ignorelist"))
      L = L.drop_until([](char C) { return C == ':'; }).drop_front().trim();
    L = L.take_front(L.find(".  Try:"));
    if (!L.empty())
      Text += (Text.empty() ? "" : "; ") + L.str();
  }
  if (!Text.empty())
    errs() << "wrap-ignorelist: error: " << Text << "\n";
  errs() << "run 'wrap-ignorelist help' for usage\n";
  return ExitUsage;
}

/// A value option given with an empty value ("--tree=").
std::optional<std::string> emptyValue() {
  for (const cl::opt<std::string> *O :
       {&Tree, &MaintainersFile, &ListsDir, &Format, &After, &SystemMap, &Output})
    if (O->getNumOccurrences() && O->empty())
      return "option '" + std::string(O->ArgStr.size() == 1 ? "-" : "--") +
             O->ArgStr.str() + "' needs a value";
  return std::nullopt;
}

} // namespace

} // namespace wil

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  using namespace wil;
  if (argc < 2)
    return report(usageError("no command given"));
  StringRef Cmd = argv[1];
  if (Cmd == "help" || Cmd == "--help" || Cmd == "-h") {
    outs() << Usage;
    return ExitOK;
  }
  if (Cmd == "--version") {
    outs() << "wrap-ignorelist (wrapidiom), built with LLVM "
           << LLVM_VERSION_STRING << "\n";
    return ExitOK;
  }
  if (Cmd != "lint" && Cmd != "triage" && Cmd != "flags" && Cmd != "combine")
    return report(usageError("unknown command '" + Cmd + "'"));
  std::string Messages;
  raw_string_ostream MS(Messages);
  if (!cl::ParseCommandLineOptions(argc, argv, "", &MS))
    return commandLineError(Messages);
  if (std::optional<std::string> E = emptyValue())
    return report(usageError(*E));
  std::vector<std::string> Positional(Files.begin(), Files.end());
  if (LintCmd)
    return exitStatus(runLint(
        {Tree, Stats,
         std::vector<std::string>(RemarkDirs.begin(), RemarkDirs.end()),
         Positional}));
  if (TriageCmd)
    return exitStatus(runTriage({Tree, MaintainersFile, ListsDir, After,
                                 SystemMap, Format, Positional}));
  if (FlagsCmd)
    return exitStatus(runFlags({ClangFlags, Positional}));
  if (CombineCmd)
    return exitStatus(runCombine({Output, Positional}));
  return report(usageError("unknown command '" + Cmd + "'"));
}
