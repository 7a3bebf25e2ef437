//===- WrapIdiom.h - Turn off UBSan checks of idiomatic wrap tests --------===//
//
// Part of wrapidiom.
//
// The `wrap-idiom` pass finds every UBSan overflow check clang emitted
// (signed/unsigned integer and pointer overflow, every handler form), decides
// for each whether the program itself tests this very operation for wrap and
// lets no wrapped value escape that test, and turns off exactly those checks
// by folding the check's branch condition to "no overflow". Dead handler
// blocks are left for later passes to delete. A check it cannot remove
// but whose unsigned arithmetic only encodes a signed quantity is
// re-checked instead: its condition becomes the one of that meaning
// (SignedRecheck.h). To decide, it promotes the function's locals first
// (PromotedFunction.h). Each decision is tagged: `!wrap.idiom` metadata on
// the arithmetic, one optimisation remark per check (Passed when removed or
// re-checked, Missed when kept), and statistics.
//
// It runs at pipeline start, on clang's own IR, so the decision is the same
// at -O0 and -O2 and no canonicalisation has rewritten the wrap test yet.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_WRAPIDIOM_H
#define WRAPIDIOM_WRAPIDIOM_H

#include "idioms/Options.h"

#include "llvm/IR/PassManager.h"

#include <memory>

namespace wrapidiom {

class LoadedIgnorelists;

class WrapIdiomPass : public llvm::PassInfoMixin<WrapIdiomPass> {
public:
  /// Lists: the ignorelists, loaded once for the passes of a PassBuilder.
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
  // Like the sanitizers it edits: runs on optnone (-O0) functions too.
  static bool isRequired() { return true; }
  static llvm::StringRef name() { return "wrap-idiom"; }

private:
  WrapIdiomOptions Opts;
  std::shared_ptr<const LoadedIgnorelists> Lists;
};

/// Runs once per module ahead of WrapIdiomPass, wherever the plugin adds
/// that (pipeline start, `opt -passes=wrap-idiom`): diagnoses an ignorelist
/// that could not be loaded, so that a module without a single function
/// fails as well, and sets the module flag "wrap-idiom" for
/// WrapIdiomLinkCheckPass. It decides nothing: it takes no options. The
/// module form `wrap-idiom<...>` is this pass and `function(wrap-idiom<...>)`,
/// and it prints as `wrap-idiom-module`, the name that adds it alone, so
/// that the printed pipeline parses back to the same two passes.
class WrapIdiomModulePass : public llvm::PassInfoMixin<WrapIdiomModulePass> {
public:
  explicit WrapIdiomModulePass(std::shared_ptr<const LoadedIgnorelists> Lists)
      : Lists(std::move(Lists)) {}
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>) {
    OS << pipelineName();
  }
  static bool isRequired() { return true; }
  static llvm::StringRef pipelineName() { return "wrap-idiom-module"; }

private:
  std::shared_ptr<const LoadedIgnorelists> Lists;
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

} // namespace wrapidiom

#endif
