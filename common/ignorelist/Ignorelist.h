//===- Ignorelist.h - Sanitizer ignorelists for what no idiom can decide --===//
//
// Part of wrapidiom. `-wrap-idiom-ignorelist=FILE` (repeatable) takes clang's
// sanitizer special case list format, parsed by llvm::SpecialCaseList:
//
//   [unsigned-integer-overflow]          # or [signed-integer-overflow],
//   # hash mixing wraps by design        # [pointer-overflow], [{a,b}] groups
//   fun:jhash
//   src:lib/siphash.c
//   type:size_t=sanitize                 # opt back in
//   fun:hash=fs/inode.c                  # hash() of fs/inode.c only
//
// Queries for a check: src: the file clang recorded for the check (also
// without a leading "./"), mainfile: the translation unit, fun: the function
// containing the check, type: the type names in the check's UBSan type
// descriptor (written name and aka), so `type:size_t=sanitize` works on
// clang 19 as well. Like clang >= 21, when several entries match, the last
// one wins: later line in a file, later file on the command line.
//
// This is the one ignorelist matcher of the project, a library with no IR
// in it (common/ignorelist): the plugin asks it for a check
// (llvm-pass/ignorelist/IgnorelistCheck.cpp builds the query from the IR), and
// `wrap-ignorelist triage` for a site of a console log, both through
// IgnorelistQuery::forSite().
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_IGNORELIST_H
#define WRAPIDIOM_IGNORELIST_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SpecialCaseList.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace wrapidiom {

/// The kinds of entry the lists are asked about. SpecialCaseList takes any
/// `word:`; Ignorelist::load refuses the others (an entry that would never
/// match is a typo, not a choice).
inline constexpr llvm::StringLiteral EntryKinds[] = {"src", "fun", "type",
                                                     "mainfile"};

/// A `fun:NAME=FILE` entry's category: the file that defines the function
/// (tree-relative, ending in .c or .h). The entry applies to a check in a
/// function NAME whose source file or translation unit is FILE, so a
/// `hash()` of fs/inode.c says nothing about the other files' hash().
/// clang's own -fsanitize-ignorelist= loads it and ignores it (it asks
/// only for the categories "" and "sanitize"): there the check stays.
bool isScopeCategory(llvm::StringRef Category);

/// The names in a UBSan type string, the written type then the aka:
/// "'u32' (aka 'unsigned int')" -> {"u32", "unsigned int"}.
llvm::SmallVector<std::string, 2> typeNames(llvm::StringRef TypeString);

/// What the lists are asked about one check or site: each (prefix, value)
/// pair in each section.
struct IgnorelistQuery {
  llvm::SmallVector<std::string, 2> Sanitizers;
  llvm::SmallVector<std::pair<std::string, std::string>, 8> Entries;

  /// The one description of a site. Sanitizer: a section, or a group
  /// "{a,b}" (an integer trap report does not say its sign: both are
  /// asked). File: the source file of the check as recorded ("./" also
  /// cut). MainFile: the translation unit, "" if unknown (a console log).
  /// Functions: the function containing the check (the plugin: exactly
  /// one; triage: the one the source puts the line in, else the trace's
  /// frames). TypeString: the UBSan type descriptor's name.
  static IgnorelistQuery forSite(llvm::StringRef Sanitizer, llvm::StringRef File,
                                 llvm::StringRef MainFile,
                                 llvm::ArrayRef<std::string> Functions,
                                 llvm::StringRef TypeString);
};

class Ignorelist {
public:
  /// Lists are small text files; anything larger is refused unread.
  static constexpr uint64_t MaxFileSize = 16 << 20;

  /// Parse every file. On a missing, unreadable or malformed file, one that
  /// is not a regular file or is over MaxFileSize, the error reads
  /// "FILE:LINE: cause" (or "FILE: cause" without a line).
  static llvm::Expected<std::unique_ptr<Ignorelist>>
  load(llvm::ArrayRef<std::string> Paths);

  struct Match {
    bool Sanitize = false; // a `=sanitize` entry: keep the check
    std::string File;
    unsigned Line = 0;
    std::string Entry;     // the entry as written, e.g. "fun:jhash"
  };

  /// The entry that decides this query (the last matching one), if any.
  std::optional<Match> lookup(const IgnorelistQuery &Q) const;

  bool empty() const { return Lists.empty(); }

private:
  struct List {
    std::string Path;
    std::unique_ptr<llvm::MemoryBuffer> Buffer;
    std::unique_ptr<llvm::SpecialCaseList> SCL;
    /// The kinds and categories of its entries ("fun=", "src=sanitize",
    /// "fun=fs/inode.c"): a query of another cannot match.
    llvm::StringSet<> Kinds;
    /// Its lines, for the entry a match names.
    llvm::SmallVector<llvm::StringRef, 0> Lines;
  };
  std::vector<List> Lists;

  /// The line (0: none) of the last entry of each list that matches one
  /// (sanitizer, prefix, query, category), computed once: a compilation
  /// asks the same ones for every check (the file, the function, the
  /// type), and matching every list each time cost ~2.7 % of a kernel
  /// file's compilation (bench/RESULTS.md).
  const std::vector<unsigned> &linesOf(llvm::StringRef Sanitizer,
                                       llvm::StringRef Prefix,
                                       llvm::StringRef Query,
                                       llvm::StringRef Category) const;
  /// The kinds of every list; the answer of a query of none.
  llvm::StringSet<> AllKinds;
  std::vector<unsigned> NoLines;
  mutable std::mutex CacheLock;
  mutable llvm::StringMap<std::vector<unsigned>> Cache;
};

} // namespace wrapidiom

#endif
