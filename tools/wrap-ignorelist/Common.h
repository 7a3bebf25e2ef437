//===- Common.h - Diagnostics and small helpers for wrap-ignorelist -------===//
//
// Part of wrapidiom. See README.md beside this file.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_WRAP_IGNORELIST_COMMON_H
#define WRAPIDIOM_WRAP_IGNORELIST_COMMON_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace wil {

/// Exit codes shared by every subcommand.
enum ExitCode : int {
  ExitOK = 0,       // nothing wrong
  ExitProblems = 1, // lint problems, malformed input
  ExitUsage = 2,    // bad command line, unreadable file
};

/// A failure that stops a subcommand: main prints
/// "wrap-ignorelist: error: MESSAGE", for a usage error followed by "run
/// 'wrap-ignorelist help' for usage", and exits with ExitUsage. Problems
/// found in the input are not CommandErrors: they are printed as
/// Diagnostics and the subcommand returns ExitProblems.
class CommandError : public llvm::ErrorInfo<CommandError> {
public:
  static char ID;
  CommandError(std::string Message, bool Usage)
      : Message(std::move(Message)), Usage(Usage) {}
  void log(llvm::raw_ostream &OS) const override { OS << Message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  bool isUsage() const { return Usage; }

private:
  std::string Message;
  bool Usage;
};

/// A bad command line: the message and the hint to run 'help'.
llvm::Error usageError(const llvm::Twine &Msg);
/// An input that cannot be used (unreadable file, bad directory, a list
/// that does not load): the message alone.
llvm::Error fatalError(const llvm::Twine &Msg);

enum class Severity { Error, Warning };

/// One problem, printed as `FILE:LINE: error|warning: message` (or
/// `FILE: ...` when Line is 0).
struct Diag {
  std::string File;
  unsigned Line = 0;
  Severity Sev = Severity::Error;
  std::string Message;
  unsigned Order = 0; // insertion order, for a stable sort
};

class Diagnostics {
public:
  void error(llvm::StringRef File, unsigned Line, const llvm::Twine &Msg);
  void warning(llvm::StringRef File, unsigned Line, const llvm::Twine &Msg);
  unsigned errors() const { return NumErrors; }
  unsigned warnings() const { return NumWarnings; }
  bool empty() const { return Diags.empty(); }
  /// Print every diagnostic: files in the order they were first mentioned
  /// (FileOrder, then first appearance), lines ascending within a file.
  void print(llvm::raw_ostream &OS, llvm::ArrayRef<std::string> FileOrder = {});

private:
  void add(llvm::StringRef File, unsigned Line, Severity Sev,
           const llvm::Twine &Msg);
  std::vector<Diag> Diags;
  unsigned NumErrors = 0, NumWarnings = 0;
};

/// Read a whole file. The error reads "cannot read 'PATH': cause"
/// (directories included).
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> readFile(llvm::StringRef Path);

/// Split a buffer into lines without their terminators ("\n" or "\r\n").
/// Line N of the file is Lines[N-1].
std::vector<llvm::StringRef> splitLines(llvm::StringRef Text);

/// A MAINTAINERS entry name as a file name: lower case, every run of
/// characters other than [a-z0-9] becomes one '-', none at either end.
/// "ARM/QUALCOMM SUPPORT" -> "arm-qualcomm-support".
std::string slugify(llvm::StringRef Name);

/// A source path as the kernel names it, made relative to the tree root:
/// leading "./" removed (repeatedly), and an absolute path below TreeRoot
/// made relative. Everything else is returned as is.
std::string normalizeSourcePath(llvm::StringRef Path, llvm::StringRef TreeRoot);

/// The sanitizers whose checks wrap-idiom handles, which are also the only
/// section names an ignorelist may use.
llvm::ArrayRef<llvm::StringRef> overflowSanitizers();
bool isOverflowSanitizer(llvm::StringRef Name);

/// One CSV field per RFC 4180: quoted when it holds , " CR or LF.
std::string csvField(llvm::StringRef Field);

/// The line number in a SpecialCaseList error ("malformed line 3: ..."),
/// or 0.
unsigned lineOfSCLError(llvm::StringRef Message);

/// Absolute, dot-free form of Path (relative to the working directory).
std::string absolutePath(llvm::StringRef Path);

} // namespace wil

#endif
