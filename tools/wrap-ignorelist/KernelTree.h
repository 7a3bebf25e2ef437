//===- KernelTree.h - A kernel source tree: its files and functions -------===//
//
// Part of wrapidiom. Everything is computed on first use and cached for the
// rest of the run: the file list (one walk), the functions each .c/.h file
// defines (one scan per file), the names defined anywhere in the tree.
//
// Function definitions are found the way a reader of kernel-style C finds
// them, not by a compiler: a line that starts at column 0 with an
// identifier and has `name(` on it, where the parenthesis closes and is
// followed (after attributes such as __acquires(x)) by `{`. Definitions
// produced by macros (SYSCALL_DEFINE, DEFINE_*) are not seen.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_WRAP_IGNORELIST_KERNELTREE_H
#define WRAPIDIOM_WRAP_IGNORELIST_KERNELTREE_H

#include "Common.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/GlobPattern.h"

#include <optional>

namespace wil {

struct FunctionDef {
  std::string Name;
  unsigned Line = 0;    // the line with `name(`
  unsigned EndLine = 0; // the line of the closing `}` at column 0
};

/// Scan C source text for function definitions (see the file comment).
std::vector<FunctionDef> scanFunctionDefinitions(llvm::StringRef Text);

class KernelTree {
public:
  /// Root must be a readable directory.
  static llvm::Expected<std::unique_ptr<KernelTree>> load(llvm::StringRef Root);

  /// The absolute root.
  llvm::StringRef root() const { return Root; }
  /// The root as the user named it, for messages.
  llvm::StringRef name() const { return Name; }

  /// Every regular file below the root, relative, '/'-separated, sorted.
  /// `.git` and other dot-directories are skipped; symlinks not followed.
  const std::vector<std::string> &files();

  bool isDirectory(llvm::StringRef Rel) const;

  /// The functions Rel (relative to the root) defines; empty if unreadable.
  const std::vector<FunctionDef> &definitionsIn(llvm::StringRef Rel);

  /// Every function name defined in any .c or .h file of the tree (but
  /// tools/ and scripts/, which are never built into the kernel), with
  /// the files (indices into files()) that define it, each once.
  using NameIndex = llvm::StringMap<llvm::SmallVector<unsigned, 1>>;
  const NameIndex &allDefinedNames();

  /// The function whose body contains Line of Rel, if the file is in the
  /// tree and Line lies inside a definition.
  std::optional<std::string> enclosingFunction(llvm::StringRef Rel,
                                               unsigned Line);

  /// Number of files scanned for definitions so far, and listed (0 if
  /// the tree was not walked), for --stats.
  unsigned filesScanned() const { return Scanned; }
  unsigned filesListed() const { return Files.size(); }
  /// Why the walk stopped early, if it did (the file list is then partial).
  const std::string &walkError() const { return WalkError; }

private:
  std::string Root, Name, WalkError;
  bool Walked = false;
  std::vector<std::string> Files;
  llvm::StringMap<std::vector<FunctionDef>> PerFile;
  bool Indexed = false;
  NameIndex AllNames;
  unsigned Scanned = 0;
};

} // namespace wil

#endif
