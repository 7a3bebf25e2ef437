//===- IgnorelistCheck.h - The plugin's ignorelists -----------------------===//
//
// Part of wrapidiom. The plugin's own side of the shared matcher
// (common/ignorelist/Ignorelist.h, which wrap-ignorelist links too): the
// lists named by -wrap-idiom-ignorelist as the passes hold them, loaded
// once when the plugin registers its passes (as SanitizerCoverage holds
// its allow and block lists), and the query of a check in the IR.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_IGNORELISTCHECK_H
#define WRAPIDIOM_IGNORELISTCHECK_H

#include "Ignorelist.h"

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Function;
class LLVMContext;
} // namespace llvm

namespace wrapidiom {

struct OverflowCheck;

/// The ignorelists of the passes of one PassBuilder: read when the plugin
/// registers its passes, where the command line is parsed and no module
/// optimised yet, so that a bad list fails every compilation, whatever the
/// module holds.
class LoadedIgnorelists {
public:
  /// Read Files (none: no lists).
  static std::shared_ptr<const LoadedIgnorelists>
  load(const std::vector<std::string> &Files);

  /// The lists. If they could not be loaded, the error (naming file, line
  /// and cause) is diagnosed once through Ctx, which fails the
  /// compilation, and the result is null: the caller then changes nothing.
  const Ignorelist *get(llvm::LLVMContext &Ctx) const;

private:
  std::unique_ptr<Ignorelist> Lists;
  std::string Error; // "wrap-idiom: FILE:LINE: cause"; empty if loaded
  mutable std::atomic<bool> Diagnosed{false};
};

/// The entry of IL that decides check C of F, if any: Ignorelist::lookup of
/// the check's query, built from the IR.
std::optional<Ignorelist::Match> lookup(const Ignorelist &IL,
                                        const OverflowCheck &C,
                                        const llvm::Function &F);

} // namespace wrapidiom

#endif
