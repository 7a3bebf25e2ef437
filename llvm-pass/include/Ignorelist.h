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
//
// Queries for a check: src: the file clang recorded for the check (also
// without a leading "./"), mainfile: the translation unit, fun: the function
// containing the check, type: the type names in the check's UBSan type
// descriptor (written name and aka), so `type:size_t=sanitize` works on
// clang 19 as well. Like clang >= 21, when several entries match, the last
// one wins: later line in a file, later file on the command line.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_IGNORELIST_H
#define WRAPIDIOM_IGNORELIST_H

#include "OverflowCheck.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SpecialCaseList.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Function;
class LLVMContext;
} // namespace llvm

namespace wrapidiom {

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

  /// The entry that decides this check (the last matching one), if any.
  std::optional<Match> lookup(const OverflowCheck &C,
                              const llvm::Function &F) const;

  bool empty() const { return Lists.empty(); }

private:
  struct List {
    std::string Path;
    std::unique_ptr<llvm::MemoryBuffer> Buffer;
    std::unique_ptr<llvm::SpecialCaseList> SCL;
  };
  std::vector<List> Lists;
};

/// Read the ignorelists named by -wrap-idiom-ignorelist, once per process:
/// only the first call reads, later ones (and ignorelist()) see its result.
/// The plugin calls it when it registers its passes with a PassBuilder, so
/// the lists are read and checked before any module is optimised, even one
/// without a function. The command line is parsed by then: opt and clang
/// both load the plugin, parse the options, then build the pipeline.
void loadIgnorelists();

/// The loaded ignorelists. If one could not be loaded, the error (naming
/// file, line and cause) is diagnosed once through Ctx, which fails the
/// compilation, and the result is null: the caller then changes nothing.
const Ignorelist *ignorelist(llvm::LLVMContext &Ctx);

} // namespace wrapidiom

#endif
