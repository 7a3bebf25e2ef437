//===- Subcommands.h - wrap-ignorelist's subcommands ----------------------===//
//
// Part of wrapidiom. See README.md beside this file.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_WRAP_IGNORELIST_SUBCOMMANDS_H
#define WRAPIDIOM_WRAP_IGNORELIST_SUBCOMMANDS_H

#include "Common.h"

namespace wil {

/// Each subcommand's command line, as CommandLine.cpp's cl::SubCommand
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

int runLint(const LintOptions &O);
int runTriage(const TriageOptions &O);
int runFlags(const FlagsOptions &O);
int runCombine(const CombineOptions &O);

/// Print "wrap-ignorelist: error: Msg" and a hint to stderr; return 2.
int usageError(const llvm::Twine &Msg);
/// Print "wrap-ignorelist: error: Msg" to stderr; return 2.
int fatalError(const llvm::Twine &Msg);

} // namespace wil

#endif
