//===- WrapIdiom.h - Turn off UBSan checks of idiomatic wrap tests --------===//
//
// Part of wrapidiom.
//
// `wrap-idiom` finds every UBSan overflow check clang emitted
// (signed/unsigned integer and pointer overflow, every handler form), decides
// for each whether the program itself tests this very operation for wrap and
// lets no wrapped value escape that test, and turns off exactly those checks
// by folding the check's branch condition to "no overflow". Dead handler
// blocks are left for later passes to delete. A check it cannot remove
// but whose unsigned arithmetic only encodes a signed quantity is
// re-checked instead: its condition becomes the one of that meaning
// (SignedRecheck.h). Each decision is tagged: `!wrap.idiom` metadata on
// the arithmetic, one optimisation remark per check (Passed when removed or
// re-checked, Missed when kept), and statistics.
//
// It is two passes, as the new pass manager has a module pass read the
// module and a function pass change only its function:
//
//   wrap-idiom-module<params>   WrapIdiomModulePass, the module step: it
//                               decides every check of every function
//                               (IdiomMatcher.h) before any function
//                               changes, on each function with its locals
//                               promoted (PromotedFunction.h: in place at
//                               -O1 and up, else a copy in a scratch
//                               module), reading what some rows need of
//                               other functions (a helper's body, a
//                               helper's callers); it keeps the decisions
//                               in WrapIdiomDecisionsAnalysis;
//   function(wrap-idiom<params>)  WrapIdiomPass: reads its function's
//                               decisions from that module analysis
//                               through the outer proxy (as the inliner
//                               reads InlineAdvisorAnalysis) and acts on
//                               them: fold, re-check, tag, remark, count.
//
// `wrap-idiom<params>` is the two, with the same parameters; it runs at
// pipeline start, on clang's own IR, so the decision is the same at -O0
// and -O2 and no canonicalisation has rewritten the wrap test yet.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_WRAPIDIOM_H
#define WRAPIDIOM_WRAPIDIOM_H

#include "checks/OverflowCheck.h"
#include "idioms/Options.h"
#include "idioms/Rules.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/ValueHandle.h"

#include <memory>
#include <optional>

namespace llvm {
class PassInstrumentationCallbacks;
} // namespace llvm

namespace wrapidiom {

class LoadedIgnorelists;

/// What the module step decided, for the function passes to act on. The
/// checks are those found in each function as clang emitted it, before any
/// promotion, each with its decision.
class WrapIdiomDecisions {
public:
  struct OfFunction {
    llvm::SmallVector<OverflowCheck, 8> Checks;
    llvm::SmallVector<Decision, 8> Decisions;
    /// The instructions acted on, each check's branch, arithmetic and
    /// address test: a handle turns null when its instruction is deleted.
    llvm::SmallVector<llvm::WeakVH, 16> Acted;

    /// Is every instruction acted on still the one decided on, each branch
    /// still going to the handler on the same side? (Another pass between
    /// the two may have deleted or rewritten them.)
    bool intact() const;
  };

  /// Decisions with Opts, replacing any other.
  void reset(const WrapIdiomOptions &Opts);
  void add(llvm::Function &F, llvm::SmallVectorImpl<OverflowCheck> &&Checks,
           llvm::SmallVectorImpl<Decision> &&Decisions);
  /// The options they were made with; none before reset().
  const WrapIdiomOptions *options() const { return Opts ? &*Opts : nullptr; }
  /// F's, or null when it has no check.
  const OfFunction *of(const llvm::Function &F) const;

  /// Valid until a pass that does not preserve them runs: the decisions
  /// hold the module's instructions.
  bool invalidate(llvm::Module &M, const llvm::PreservedAnalyses &PA,
                  llvm::ModuleAnalysisManager::Invalidator &Inv);

private:
  std::optional<WrapIdiomOptions> Opts;
  llvm::DenseMap<const llvm::Function *, std::unique_ptr<OfFunction>>
      Functions;
};

/// The decisions' holder, a module analysis: empty when the analysis
/// manager makes it, filled by wrap-idiom-module, read by wrap-idiom.
class WrapIdiomDecisionsAnalysis
    : public llvm::AnalysisInfoMixin<WrapIdiomDecisionsAnalysis> {
  friend llvm::AnalysisInfoMixin<WrapIdiomDecisionsAnalysis>;
  static llvm::AnalysisKey Key;

public:
  using Result = WrapIdiomDecisions;
  Result run(llvm::Module &, llvm::ModuleAnalysisManager &) { return {}; }
};

/// The module step. It also diagnoses an ignorelist that could not be
/// loaded (so that a module without a single function fails as well), and
/// sets the module flag "wrap-idiom" for WrapIdiomLinkCheckPass.
class WrapIdiomModulePass : public llvm::PassInfoMixin<WrapIdiomModulePass> {
public:
  /// Lists: the ignorelists, loaded once for the passes of a PassBuilder.
  WrapIdiomModulePass(WrapIdiomOptions Opts,
                      std::shared_ptr<const LoadedIgnorelists> Lists)
      : Opts(std::move(Opts)), Lists(std::move(Lists)) {}
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
  /// `wrap-idiom-module<report;no-signed-wrap;...>`: every parameter, so
  /// that the printed pipeline parses back to this pass.
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>);
  // Like the sanitizers it edits: runs on optnone (-O0) functions too.
  static bool isRequired() { return true; }
  static llvm::StringRef name() { return "wrap-idiom-module"; }

private:
  WrapIdiomOptions Opts;
  std::shared_ptr<const LoadedIgnorelists> Lists;
};

/// The function pass: acts on the module step's decisions for its function.
class WrapIdiomPass : public llvm::PassInfoMixin<WrapIdiomPass> {
public:
  WrapIdiomPass(WrapIdiomOptions Opts,
                std::shared_ptr<const LoadedIgnorelists> Lists)
      : Opts(std::move(Opts)), Lists(std::move(Lists)) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
  /// `wrap-idiom<report;no-signed-wrap;...>`: every parameter, so that the
  /// printed pipeline parses back to this pass whatever the options say.
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>
                         MapClassName2PassName);
  static bool isRequired() { return true; }
  static llvm::StringRef name() { return "wrap-idiom"; }

private:
  WrapIdiomOptions Opts;
  std::shared_ptr<const LoadedIgnorelists> Lists;
  bool Diagnosed = false;
};

/// Runs in an LTO link (full or ThinLTO post-link pipeline). By then clang's
/// checks are optimised past recognition, so the pass has nothing to do;
/// if a module did not go through it when it was compiled, the plugin was
/// only given to the link: say so, once, as a warning.
class WrapIdiomLinkCheckPass
    : public llvm::PassInfoMixin<WrapIdiomLinkCheckPass> {
public:
  explicit WrapIdiomLinkCheckPass(
      std::shared_ptr<const LoadedIgnorelists> Lists)
      : Lists(std::move(Lists)) {}
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }

private:
  std::shared_ptr<const LoadedIgnorelists> Lists;
};

/// `print<wrap-idiom-rules>`: prints the table of rules in the order a
/// check goes down them (printRules(), Rules.h), as LLVM's print<...>
/// passes print an analysis; the module is left alone. It is the one list
/// of the rules: lit-tests/opt/rule-order.test holds IDIOMS.md to it.
class WrapIdiomRulesPrinterPass
    : public llvm::PassInfoMixin<WrapIdiomRulesPrinterPass> {
public:
  explicit WrapIdiomRulesPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
  void printPipeline(llvm::raw_ostream &Out,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>) {
    Out << pipelineName();
  }
  static bool isRequired() { return true; }
  static llvm::StringRef pipelineName() { return "print<wrap-idiom-rules>"; }

private:
  llvm::raw_ostream &OS;
};

/// -wrap-idiom-check-isolation=REGEX (IsolationCheck.cpp): around every run
/// of a function pass whose name REGEX matches, the module's list of
/// functions and every other function's IR must stay the same; an error
/// names the pass and the function otherwise.
void registerIsolationCheck(llvm::PassInstrumentationCallbacks &PIC,
                            llvm::StringRef PassNames);

} // namespace wrapidiom

#endif
