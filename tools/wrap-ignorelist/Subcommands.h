//===- Subcommands.h - wrap-ignorelist's subcommands ----------------------===//
//
// Part of wrapidiom. See README.md beside this file.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_WRAP_IGNORELIST_SUBCOMMANDS_H
#define WRAPIDIOM_WRAP_IGNORELIST_SUBCOMMANDS_H

#include "Common.h"

namespace wil {

using Args = llvm::ArrayRef<std::string>;

int runLint(Args A);
int runTriage(Args A);
int runFlags(Args A);
int runCombine(Args A);

/// Print "wrap-ignorelist: error: Msg" and a hint to stderr; return 2.
int usageError(const llvm::Twine &Msg);
/// Print "wrap-ignorelist: error: Msg" to stderr; return 2.
int fatalError(const llvm::Twine &Msg);

/// Command line scanning: `--name=value` or `--name value`.
class ArgScanner {
public:
  explicit ArgScanner(Args A) : A(A) {}
  bool done() const { return I >= A.size(); }
  /// If the current argument is option Name, store its value, advance and
  /// return true. A missing value sets Error.
  bool value(llvm::StringRef Name, std::string &Out);
  /// If the current argument is flag Name, advance and return true.
  bool flag(llvm::StringRef Name);
  /// The current argument as a positional one (advances). After "--",
  /// everything is positional.
  llvm::StringRef positional();
  /// True if the current argument looks like an option.
  bool atOption() const;
  llvm::StringRef current() const { return A[I]; }
  std::string Error;

private:
  Args A;
  size_t I = 0;
  bool DashDash = false;
};

} // namespace wil

#endif
