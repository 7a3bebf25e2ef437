//===- IdiomMatcher.h - Decide every check of a function ------------------===//
//
// Part of wrapidiom. A check may be turned off only when the program itself
// tests whether this very operation wrapped, and the wrapped value cannot
// reach anything but that test; it may be re-checked only when its
// arithmetic encodes a quantity whose own range the new condition tests.
// Every row of the table of rules (Idioms.def, Rules.h) is a proof of one
// of these; the matcher takes each check down the rows, and a check no row
// decides stays, with the reason.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_IDIOMMATCHER_H
#define WRAPIDIOM_IDIOMMATCHER_H

#include "analysis/WrapTest.h"
#include "checks/OverflowCheck.h"
#include "idioms/Rules.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/PassManager.h"

#include <string>

namespace llvm {
class Function;
class TargetLibraryInfo;
} // namespace llvm

namespace wrapidiom {

class Ignorelist;
struct WrapIdiomOptions;

class IdiomMatcher {
public:
  /// F is the promoted function the checks are mapped onto (the function
  /// itself, or its copy in Scratch), its analyses from FAM; TLI that of
  /// the function it was promoted from; Opts what the pass was asked to
  /// do, held by reference. While the matcher lives, the memory facts of F
  /// (MemoryFacts.h) are in scope for sameValue(). Original: the function
  /// F stands for (caller-handled reads its callers, the ignorelists its
  /// name); null for a caller read for that row. IL: the ignorelists, or
  /// null. FrontEnd: what the module step read of the function's
  /// declarations and C types (none for a caller).
  IdiomMatcher(llvm::Function &F, llvm::FunctionAnalysisManager &FAM,
               const llvm::TargetLibraryInfo &TLI,
               const WrapIdiomOptions &Opts, ScratchModule &Scratch,
               llvm::Function *Original = nullptr,
               const Ignorelist *IL = nullptr, FrontEndFacts FrontEnd = {});
  ~IdiomMatcher();

  /// Decide every check of the function: Checks as found in it, Mapped the
  /// same checks on F. Each goes down the rows (rules()) that do not need
  /// the others' decisions; then the rows that do, one row at a time over
  /// every check (a row sees what the rows above decided of all of them).
  llvm::SmallVector<Decision, 8> decideAll(llvm::ArrayRef<OverflowCheck> Checks,
                                           llvm::ArrayRef<OverflowCheck> Mapped);

  /// A value of F that stands for an operation computed elsewhere (a
  /// helper's sum, returned by the call Op.Def with Op.LHS, Op.RHS the
  /// arguments): decided as that operation's result would be here by the
  /// data-flow proofs (WrapPaths.h): every wrapped execution reaches the
  /// handling on the wrap side of a wrap test before the value can do
  /// harm. None, and Why, when they do not prove it.
  Idiom decideResult(WrappingOp Op, std::string &Why);

private:
  MatcherFacts Facts;
  const WrapIdiomOptions &Opts;
};

} // namespace wrapidiom

#endif
