//===- ModulePasses.cpp - wrap-idiom's checks on the whole module ---------===//
//
// Part of wrapidiom. See WrapIdiom.h.
//
//===----------------------------------------------------------------------===//
#include "idioms/Rules.h"
#include "ignorelist/IgnorelistCheck.h"
#include "passes/WrapIdiom.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <atomic>

using namespace llvm;

namespace wrapidiom {

namespace {

/// Module flag (behaviour Max, so LTO merges it) of a module the pass ran on.
constexpr const char *RanFlag = "wrap-idiom";

/// A plain-text diagnostic of the plugin's own kind (LLVM 19 has no
/// DiagnosticInfoGeneric); clang shows it under -Wbackend-plugin.
class WrapIdiomDiagnostic : public DiagnosticInfo {
public:
  WrapIdiomDiagnostic(StringRef Message, DiagnosticSeverity Severity)
      : DiagnosticInfo(kind(), Severity), Message(Message) {}
  void print(DiagnosticPrinter &DP) const override { DP << Message; }

private:
  static int kind() {
    static const int Kind = getNextAvailablePluginDiagnosticKind();
    return Kind;
  }
  StringRef Message;
};

} // namespace

PreservedAnalyses WrapIdiomModulePass::run(Module &M, ModuleAnalysisManager &) {
  if (!Lists->get(M.getContext()))
    return PreservedAnalyses::all(); // diagnosed; the compilation fails
  if (M.getModuleFlag(RanFlag))
    return PreservedAnalyses::all();
  M.addModuleFlag(Module::Max, RanFlag, 1);
  // No analysis reads this flag.
  return PreservedAnalyses::all();
}

PreservedAnalyses WrapIdiomLinkCheckPass::run(Module &M,
                                              ModuleAnalysisManager &) {
  // Bad input is an error here too, even though nothing reads the lists.
  if (!Lists->get(M.getContext()) || M.getModuleFlag(RanFlag))
    return PreservedAnalyses::all();
  // ThinLTO backends run in parallel threads: one warning per process.
  static std::atomic<bool> Warned{false};
  if (Warned.exchange(true))
    return PreservedAnalyses::all();
  M.getContext().diagnose(WrapIdiomDiagnostic(
      "wrap-idiom: loaded into an LTO link, where clang's overflow checks "
      "are already optimised: it does nothing here; load it when compiling "
      "(-fpass-plugin= with -flto)",
      DS_Warning));
  return PreservedAnalyses::all();
}

PreservedAnalyses WrapIdiomRulesPrinterPass::run(Module &,
                                                 ModuleAnalysisManager &) {
  printRules(OS);
  return PreservedAnalyses::all();
}

} // namespace wrapidiom
