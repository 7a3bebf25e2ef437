//===- IsolationCheck.cpp - A function pass leaves other functions alone --===//
//
// Part of wrapidiom. See WrapIdiom.h. The new pass manager lets a function
// pass change only its function: it may run on the functions of a module
// in any order, or in parallel. -wrap-idiom-check-isolation=REGEX holds
// the function passes REGEX names to it, by the pass instrumentation:
// before each run on a function F it records the module's list of
// functions and the IR of every other function, after it compares; a
// difference is an error naming the pass and F. (A debugging aid for the
// tests: printing the module around every run is slow.)
//
//===----------------------------------------------------------------------===//
#include "passes/WrapIdiom.h"

#include "llvm/ADT/Any.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

using namespace llvm;

namespace wrapidiom {

namespace {

/// The function list of F's module and every other function as printed.
std::string outsideOf(const Function &F) {
  std::string S;
  raw_string_ostream OS(S);
  const Module &M = *F.getParent();
  for (const Function &G : M)
    OS << (G.isDeclaration() ? "declare " : "define ") << G.getName() << '\n';
  for (const Function &G : M)
    if (&G != &F && !G.isDeclaration())
      G.print(OS);
  return S;
}

const Function *functionOf(Any IR) {
  const Function *const *F = llvm::any_cast<const Function *>(&IR);
  return F ? *F : nullptr;
}

struct Isolation {
  explicit Isolation(StringRef Passes) : Names(("^(" + Passes + ")$").str()) {}
  Regex Names;
  /// The runs under way (a function pass may run passes of its own).
  SmallVector<std::pair<const Function *, std::string>, 2> Before;
};

} // namespace

void registerIsolationCheck(PassInstrumentationCallbacks &PIC,
                            StringRef Passes) {
  auto S = std::make_shared<Isolation>(Passes);
  PIC.registerBeforeNonSkippedPassCallback([S](StringRef Pass, Any IR) {
    const Function *F = functionOf(IR);
    if (F && S->Names.match(Pass))
      S->Before.push_back({F, outsideOf(*F)});
  });
  auto After = [S](StringRef Pass, const Function *F) {
    if (!F || !S->Names.match(Pass) || S->Before.empty() ||
        S->Before.back().first != F)
      return;
    std::string Before = std::move(S->Before.back().second);
    S->Before.pop_back();
    if (outsideOf(*F) != Before)
      F->getContext().emitError("wrap-idiom: the function pass " + Pass +
                                " on " + F->getName() +
                                "() changed the module outside it");
  };
  PIC.registerAfterPassCallback(
      [After](StringRef Pass, Any IR, const PreservedAnalyses &) {
        After(Pass, functionOf(IR));
      });
}

} // namespace wrapidiom
