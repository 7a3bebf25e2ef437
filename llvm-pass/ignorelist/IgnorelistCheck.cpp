//===- IgnorelistCheck.cpp - The ignorelist query of a check in the IR ----===//
//
// Part of wrapidiom. See IgnorelistCheck.h: the lists as the passes hold
// them, and what a check is for the lists, taken from the IR. The matcher
// itself (common/ignorelist) has no IR in it, so that wrap-ignorelist
// links the same one.
//
//===----------------------------------------------------------------------===//
#include "ignorelist/IgnorelistCheck.h"
#include "checks/OverflowCheck.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Signals.h"

#include <cstdlib>

using namespace llvm;

namespace wrapidiom {

std::shared_ptr<const LoadedIgnorelists>
LoadedIgnorelists::load(const std::vector<std::string> &Files) {
  auto L = std::make_shared<LoadedIgnorelists>();
  Expected<std::unique_ptr<Ignorelist>> Lists = Ignorelist::load(Files);
  if (Lists)
    L->Lists = std::move(*Lists);
  else
    L->Error = "wrap-idiom: " + toString(Lists.takeError());
  return L;
}

const Ignorelist *LoadedIgnorelists::get(LLVMContext &Ctx) const {
  if (Error.empty())
    return Lists.get();
  if (!Diagnosed.exchange(true)) {
    // opt's context has no diagnostic handler of its own: an error prints
    // and exit(1)s inside emitError, past the output file opt opened
    // before building the pipeline, which would stay behind empty. Remove
    // the files registered for removal at exit, as report_fatal_error
    // does. clang and lld handle the error and fail later themselves,
    // having discarded their outputs, so nothing is left to remove then.
    std::atexit([] { sys::RunInterruptHandlers(); });
    // Through the context's diagnostic handler: clang prints it as
    // `error:` and exits 1, opt likewise.
    Ctx.emitError(Error);
  }
  return nullptr;
}

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
