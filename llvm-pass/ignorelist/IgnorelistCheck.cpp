//===- IgnorelistCheck.cpp - The ignorelist query of a check in the IR ----===//
//
// Part of wrapidiom. See IgnorelistCheck.h: what a check is for the lists,
// taken from the IR. The matcher itself (common/ignorelist) has no IR in
// it, so that wrap-ignorelist links the same one.
//
//===----------------------------------------------------------------------===//
#include "ignorelist/IgnorelistCheck.h"
#include "checks/OverflowCheck.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace wrapidiom {

std::optional<Ignorelist::Match> lookup(const Ignorelist &IL,
                                        const OverflowCheck &C,
                                        const Function &F) {
  std::string File;
  if (std::optional<SourceLoc> Loc = C.sourceLoc())
    File = Loc->File;
  else if (const DILocation *DL = C.Branch->getDebugLoc())
    File = DL->getFilename().str();
  std::string Fun = F.getName().str();
  return IL.lookup(IgnorelistQuery::forSite(
      C.sanitizer(), File, F.getParent()->getSourceFileName(), Fun,
      C.typeString()));
}

} // namespace wrapidiom
