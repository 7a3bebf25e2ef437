//===- IgnorelistCheck.cpp - The ignorelist query of a check in the IR ----===//
//
// Part of wrapidiom. The plugin's side of Ignorelist.h: what a check is for
// the lists, taken from the IR. Ignorelist.cpp itself has no IR in it, so
// that wrap-ignorelist triage compiles the same matcher.
//
//===----------------------------------------------------------------------===//
#include "Ignorelist.h"
#include "OverflowCheck.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace wrapidiom {

std::optional<Ignorelist::Match>
Ignorelist::lookup(const OverflowCheck &C, const Function &F) const {
  std::string File;
  if (std::optional<SourceLoc> Loc = C.sourceLoc())
    File = Loc->File;
  else if (const DILocation *DL = C.Branch->getDebugLoc())
    File = DL->getFilename().str();
  std::string Fun = F.getName().str();
  return lookup(IgnorelistQuery::forSite(C.sanitizer(), File,
                                         F.getParent()->getSourceFileName(),
                                         Fun, C.typeString()));
}

} // namespace wrapidiom
