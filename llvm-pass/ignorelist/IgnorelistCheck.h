//===- IgnorelistCheck.h - The plugin's ignorelists -----------------------===//
//
// Part of wrapidiom. The plugin's own side of the shared matcher
// (common/ignorelist/Ignorelist.h, which wrap-ignorelist links too): the
// lists named by -wrap-idiom-ignorelist, read once per process (Plugin.cpp),
// and the query of a check in the IR (IgnorelistCheck.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_IGNORELISTCHECK_H
#define WRAPIDIOM_IGNORELISTCHECK_H

#include "Ignorelist.h"

#include <optional>

namespace llvm {
class Function;
class LLVMContext;
} // namespace llvm

namespace wrapidiom {

class OverflowCheck;

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

/// The entry of IL that decides check C of F, if any: Ignorelist::lookup of
/// the check's query, built from the IR.
std::optional<Ignorelist::Match> lookup(const Ignorelist &IL,
                                        const OverflowCheck &C,
                                        const llvm::Function &F);

} // namespace wrapidiom

#endif
