//===- ModulePasses.cpp - wrap-idiom's steps on the whole module ----------===//
//
// Part of wrapidiom. See WrapIdiom.h. The module step decides every check
// of the module before any function changes but for the promotion of
// locals:
//
//   0. what the front end says of every function, before anything moves:
//      the declarations marked to wrap (DeclaredWrap.h) and the facts of
//      clang's sign-change checks (ConversionFacts.h); their marks go;
//   1. the checks of every function, as clang emitted them;
//   2. at -O1 and up, mem2reg in place in each function that has one
//      (PromotedFunction.h; SROA would do it a few passes later anyway);
//   3. each function's checks decided on its promoted form, the function
//      itself or a copy in the scratch module, the rows reading other
//      functions (helpers' bodies, callers) as they stand after 2.
//
// What it decides goes to WrapIdiomDecisionsAnalysis; the function pass
// acts on it.
//
//===----------------------------------------------------------------------===//
#include "analysis/ConversionFacts.h"
#include "analysis/DeclaredWrap.h"
#include "analysis/PromotedFunction.h"
#include "idioms/IdiomMatcher.h"
#include "idioms/Rules.h"
#include "ignorelist/IgnorelistCheck.h"
#include "passes/WrapIdiom.h"

#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

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

/// What the module step reads of a function before promoting it.
struct FrontEndMarks {
  DeclaredWrap Declared;
  SignFactMap Signs;
};

/// The analyses of a function whose instructions changed but not its CFG.
PreservedAnalyses cfgOnly() {
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

/// Map a check of the function onto the promoted copy it is decided on.
OverflowCheck mapToPromoted(const OverflowCheck &C, const PromotedFunction &S) {
  OverflowCheck M = C;
  M.Branch = S.map(C.Branch);
  M.HandlerBlock = S.map(C.HandlerBlock);
  M.Handler = S.map(C.Handler);
  M.Arith = S.map(C.Arith);
  M.GEP = S.map(C.GEP);
  if (!M.Branch || (C.Arith && !M.Arith) || (C.GEP && !M.GEP))
    M.Combined = true; // cannot happen: promotion keeps these; stay safe
  return M;
}

/// Decide every check of M into Store. True if a function was promoted in
/// place (its analyses in FAM are invalidated but the CFG's).
bool decideModule(Module &M, FunctionAnalysisManager &FAM,
                  const WrapIdiomOptions &Opts, const Ignorelist &IL,
                  WrapIdiomDecisions &Store) {
  struct Work {
    Function *F;
    SmallVector<OverflowCheck, 8> Checks;
    bool InPlace = false;
  };
  SmallVector<Work, 0> Functions;
  bool Changed = false;
  // What the front end says, read before any promotion (each value still
  // has its one consumer): the declarations marked to wrap, and the sign
  // facts of clang's implicit-conversion checks. Both marks are removed
  // here, from every function, before any is copied: the annotations
  // always (nobody else's), the checks when the file was built with them
  // only for the plugin (-wrap-idiom-conversion-facts).
  DenseMap<const Function *, std::unique_ptr<FrontEndMarks>> Marks;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    auto Mk = std::make_unique<FrontEndMarks>();
    bool Annotated = Mk->Declared.collect(F);
    SmallVector<ConversionCheck, 8> Conversions = findConversionChecks(F);
    Mk->Signs = readSignFacts(Conversions);
    bool Removed = Opts.ConversionFacts && removeConversionChecks(Conversions);
    if (Annotated || Removed) {
      Changed = true;
      FAM.invalidate(F, Removed ? PreservedAnalyses::none() : cfgOnly());
    }
    if (!Mk->Declared.empty() || !Mk->Signs.empty())
      Marks[&F] = std::move(Mk);
  }
  for (Function &F : M)
    if (!F.isDeclaration()) {
      SmallVector<OverflowCheck, 8> Checks = findOverflowChecks(F);
      if (!Checks.empty())
        Functions.push_back({&F, std::move(Checks)});
    }
  // An optnone (-O0) function must not be rewritten beyond its checks.
  for (Work &W : Functions)
    if (!W.F->hasOptNone())
      W.InPlace = !promoteInPlace(*W.F, FAM, Changed);
  ScratchModule Scratch(M);
  for (Work &W : Functions) {
    PromotedFunction Promoted(*W.F, W.InPlace, Scratch, FAM);
    SmallVector<OverflowCheck, 8> Mapped;
    for (const OverflowCheck &C : W.Checks)
      Mapped.push_back(mapToPromoted(C, Promoted));
    FrontEndFacts FrontEnd;
    FrontEnd.Promoted = &Promoted;
    auto It = Marks.find(W.F);
    if (It != Marks.end()) {
      FrontEndMarks *Mk = It->second.get();
      Mk->Declared.mapTo(Promoted);
      FrontEnd.Declared = &Mk->Declared;
      FrontEnd.Signs = &Mk->Signs;
    }
    SmallVector<Decision, 8> Decisions =
        IdiomMatcher(Promoted.function(), FAM,
                     FAM.getResult<TargetLibraryAnalysis>(*W.F), Opts, Scratch,
                     W.F, &IL, FrontEnd)
            .decideAll(W.Checks, Mapped);
    Store.add(*W.F, std::move(W.Checks), std::move(Decisions));
  }
  // The decisions are made: the marks of declared values go (the function
  // pass re-checks on the values they copied).
  for (auto &[F, Mk] : Marks)
    if (!Mk->Declared.empty()) {
      Mk->Declared.removeMarks();
      FAM.invalidate(*const_cast<Function *>(F), cfgOnly());
    }
  return Changed;
}

} // namespace

void WrapIdiomDecisions::reset(const WrapIdiomOptions &O) {
  Opts = O;
  Functions.clear();
}

void WrapIdiomDecisions::add(Function &F,
                             SmallVectorImpl<OverflowCheck> &&Checks,
                             SmallVectorImpl<Decision> &&Decisions) {
  auto Of = std::make_unique<OfFunction>();
  for (const OverflowCheck &C : Checks)
    for (Value *V : {static_cast<Value *>(C.Branch),
                     static_cast<Value *>(C.arithmetic()),
                     static_cast<Value *>(C.PtrAddressTest)})
      Of->Acted.emplace_back(V);
  Of->Checks = std::move(Checks);
  Of->Decisions = std::move(Decisions);
  Functions[&F] = std::move(Of);
}

bool WrapIdiomDecisions::OfFunction::intact() const {
  size_t I = 0;
  for (const OverflowCheck &C : Checks) {
    for (const Value *V : {static_cast<const Value *>(C.Branch),
                           static_cast<const Value *>(C.arithmetic()),
                           static_cast<const Value *>(C.PtrAddressTest)})
      if (Acted[I++] != V)
        return false;
    // Folding takes the successor that was the no-overflow one.
    if (C.Branch->getSuccessor(1 - C.PassSuccessor) != C.HandlerBlock)
      return false;
  }
  return true;
}

const WrapIdiomDecisions::OfFunction *
WrapIdiomDecisions::of(const Function &F) const {
  auto It = Functions.find(&F);
  return It == Functions.end() ? nullptr : It->second.get();
}

bool WrapIdiomDecisions::invalidate(Module &, const PreservedAnalyses &PA,
                                    ModuleAnalysisManager::Invalidator &) {
  auto PAC = PA.getChecker<WrapIdiomDecisionsAnalysis>();
  return !PAC.preserved() && !PAC.preservedSet<AllAnalysesOn<Module>>();
}

AnalysisKey WrapIdiomDecisionsAnalysis::Key;

PreservedAnalyses WrapIdiomModulePass::run(Module &M,
                                           ModuleAnalysisManager &MAM) {
  const Ignorelist *IL = Lists->get(M.getContext());
  if (!IL)
    return PreservedAnalyses::all(); // diagnosed; the compilation fails
  if (!M.getModuleFlag(RanFlag))
    M.addModuleFlag(Module::Max, RanFlag, 1); // no analysis reads it
  WrapIdiomDecisions &Store = MAM.getResult<WrapIdiomDecisionsAnalysis>(M);
  Store.reset(Opts);
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  if (!decideModule(M, FAM, Opts, *IL, Store))
    return PreservedAnalyses::all();
  // Locals promoted in place: each such function's analyses were
  // invalidated but the CFG's (promoteInPlace()); the decisions hold.
  PreservedAnalyses PA;
  PA.preserve<WrapIdiomDecisionsAnalysis>();
  PA.preserve<FunctionAnalysisManagerModuleProxy>();
  PA.preserveSet<AllAnalysesOn<Function>>();
  return PA;
}

void WrapIdiomModulePass::printPipeline(
    raw_ostream &OS, function_ref<StringRef(StringRef)>) {
  OS << name() << '<';
  Opts.printParameters(OS);
  OS << '>';
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
