//===- Subcommands.h - wrap-ignorelist's subcommands ----------------------===//
//
// Part of wrapidiom. See README.md beside this file.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_WRAP_IGNORELIST_SUBCOMMANDS_H
#define WRAPIDIOM_WRAP_IGNORELIST_SUBCOMMANDS_H

#include "Common.h"

namespace wil {

/// Each subcommand's command line, as main.cpp's cl::SubCommand
/// options parse it.
struct LintOptions {
  std::string Tree;
  bool Stats = false;
  std::vector<std::string> RemarkDirs;
  std::vector<std::string> Files;
};
struct TriageOptions {
  std::string Tree, Maintainers, Ignorelists, After, SystemMap;
  std::string Format = "table";
  std::vector<std::string> Inputs;
};
struct FlagsOptions {
  bool Clang = false;
  std::vector<std::string> Files;
};
struct CombineOptions {
  std::string Output;
  std::vector<std::string> Files;
};

/// Each returns the exit status of a run that got to its end (ExitOK, or
/// ExitProblems after printing the problems), or the CommandError
/// (usageError(), fatalError()) that stopped it, which main prints.
llvm::Expected<ExitCode> runLint(const LintOptions &O);
llvm::Expected<ExitCode> runTriage(const TriageOptions &O);
llvm::Expected<ExitCode> runFlags(const FlagsOptions &O);
llvm::Expected<ExitCode> runCombine(const CombineOptions &O);

} // namespace wil

#endif
