//===- IdiomMatcher.h - Decide whether a wrap is intentional and handled --===//
//
// Part of wrapidiom. A check may be turned off only when the program itself
// tests whether this very operation wrapped, and the wrapped value cannot
// reach anything but that test. Every rule below is a proof of that; when
// no rule proves it, the check stays.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_IDIOMMATCHER_H
#define WRAPIDIOM_IDIOMMATCHER_H

#include "checks/OverflowCheck.h"
#include "idioms/Idiom.h"
#include "analysis/WrapTest.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>

namespace llvm {
class DominatorTree;
class Function;
class IntrinsicInst;
class TargetLibraryInfo;
class Value;
class raw_ostream;
} // namespace llvm

namespace wrapidiom {

class MatcherFacts;
struct WrapIdiomOptions;

struct Decision {
  Idiom Kind = Idiom::None;
  /// Why the check stays, when Kind is None.
  std::string Reason;
  /// What decided it, when that is more than the idiom's description
  /// (the ignorelist entry and where it is).
  std::string Detail;
  /// Re-checks (SignedRecheck.h), signed-offset: the operand of the
  /// arithmetic that carries the signed offset.
  unsigned SignedOperand = 0;
  /// circular-difference (CircularDifference.h): this is the subtraction
  /// of the pair, whose check is removed, not re-checked.
  bool RemovesCheck = false;
  /// circular-difference, a correcting addition computed on both sides and
  /// chosen by a select: the subtraction's usub.with.overflow (in the
  /// function itself), whose operands the re-check compares again.
  llvm::IntrinsicInst *CircularSub = nullptr;
  explicit operator bool() const { return Kind != Idiom::None; }
};

class IdiomMatcher {
public:
  /// F is the promoted function the checks are mapped onto; TLI that of
  /// the function it was promoted from; Opts what the pass was asked to do
  /// (the path walker's budget), held by reference. While the matcher
  /// lives, the memory facts of F (MemoryFacts.h) are in scope for
  /// sameValue().
  /// Original: the function F was promoted from, whose callers the
  /// caller-handled rule reads (CallerHandled.h); null for a caller read
  /// for that rule, where it does not run.
  IdiomMatcher(llvm::Function &F, const llvm::TargetLibraryInfo &TLI,
               const WrapIdiomOptions &Opts,
               llvm::Function *Original = nullptr);
  ~IdiomMatcher();

  /// Decide on a check of F (mapped onto the promoted function): the
  /// first of the rules (IdiomMatcher.cpp, Rules) to prove it names it.
  Decision decide(const OverflowCheck &C);

  /// A value of F that stands for an operation computed elsewhere (a
  /// helper's sum, returned by the call Op.Def with Op.LHS, Op.RHS the
  /// arguments): decided as that operation's result would be here by the
  /// data-flow proofs (WrapPaths.h): every wrapped execution reaches the
  /// handling on the wrap side of a wrap test before the value can do
  /// harm. None, and Why, when they do not prove it.
  Idiom decideResult(WrappingOp Op, std::string &Why);

  /// F's dominator tree, built on first use.
  const llvm::DominatorTree &dominators();

private:
  /// What the rules share over F's checks (dominator tree, memory facts,
  /// ...), built on first use.
  std::unique_ptr<MatcherFacts> Facts;
};

/// decide()'s rules, in the order it tries them: one numbered line each,
/// `N. name (the checks it runs on...)`, then the re-checks decided after
/// it. The pass print<wrap-idiom-rules> prints it.
void printRules(llvm::raw_ostream &OS);

} // namespace wrapidiom

#endif
