//===- Maintainers.h - Which MAINTAINERS entry owns a file ----------------===//
//
// Part of wrapidiom. Reads the kernel's MAINTAINERS and answers, for a path
// relative to the tree root, which subsystem entries own it, the way
// scripts/get_maintainer.pl ranks them:
//
//  * F:/X: patterns use get_maintainer.pl's translation: '*' matches any
//    characters including '/', '?' one character, [..] a class; a pattern
//    matches from the start of the path. A pattern ending in '/' (or naming
//    a directory of the tree) matches everything below it; any other
//    pattern must also have as many '/' as the path ("drivers/net/*" matches
//    drivers/net/x.c, not drivers/net/y/x.c).
//  * An entry with a matching X: is out, whatever its F: say.
//  * An F: match ranks by its depth: the number of '/' in the pattern, +1
//    if it does not end in '/', and -1 for a pattern starting with '*'
//    (so THE REST's `F: *` and `F: */` lose to anything else). An N:
//    regex match ranks 0.
//  * The owners are the entries with the best rank; several entries with
//    the same best rank all own the file (get_maintainer.pl lists them all,
//    most specific first).
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_WRAP_IGNORELIST_MAINTAINERS_H
#define WRAPIDIOM_WRAP_IGNORELIST_MAINTAINERS_H

#include "Common.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Regex.h"

namespace wil {

class KernelTree;

struct MaintainersEntry {
  std::string Name;
  unsigned Line = 0;
  std::vector<std::string> Lists; // L: addresses (without remarks)
  struct Pattern {
    std::string Text;
    bool Dir = false; // ends in '/' (possibly added for a directory)
    int Depth = 0;
  };
  std::vector<Pattern> Files, Excludes;
  std::vector<std::shared_ptr<llvm::Regex>> Regexes; // N:

  /// Some F: (or N:) matches Rel and no X: does (whatever other entries
  /// match it more specifically).
  bool covers(llvm::StringRef Rel) const;
};

class Maintainers {
public:
  /// Parse the MAINTAINERS file at Path. Tree (optional) resolves patterns
  /// that name a directory without a trailing '/'.
  static llvm::Expected<std::unique_ptr<Maintainers>>
  load(llvm::StringRef Path, KernelTree *Tree);

  /// The owning entries of Rel (see the file comment); empty if none.
  std::vector<const MaintainersEntry *> owners(llvm::StringRef Rel) const;

  const MaintainersEntry *find(llvm::StringRef Name) const;

  const std::string &path() const { return Path; }

private:
  std::string Path;
  std::vector<MaintainersEntry> Entries;
  llvm::StringMap<size_t> ByName;
};

/// get_maintainer.pl's file_match_pattern() on an untranslated pattern.
bool maintainersPatternMatches(llvm::StringRef Pattern, bool Dir,
                               llvm::StringRef File);

} // namespace wil

#endif
