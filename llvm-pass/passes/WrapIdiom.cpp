//===- WrapIdiom.cpp - Turn off UBSan checks of idiomatic wrap tests ------===//
//
// Part of wrapidiom. See WrapIdiom.h. The function pass: read the module
// step's decisions for the function (WrapIdiomDecisionsAnalysis, through
// the outer analysis manager's proxy) and act on each: fold a removed
// check, build a re-checked check's new condition (its row's Recheck),
// tag, remark, count. The only edits are branch conditions, GEP flags,
// metadata and a re-check's few !nosanitize instructions. It reads no
// other function and adds none.
//
//===----------------------------------------------------------------------===//
#include "passes/WrapIdiom.h"

#include "checks/OverflowCheck.h"
#include "ignorelist/IgnorelistCheck.h"
#include "RemarkSchema.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

#define DEBUG_TYPE "wrap-idiom"

// Always enabled: Debian's LLVM is built without assertions, where plain
// STATISTICs compile to nothing.
ALWAYS_ENABLED_STATISTIC(NumChecksSeen, "Overflow checks seen");
ALWAYS_ENABLED_STATISTIC(NumChecksRemoved, "Overflow checks removed");
ALWAYS_ENABLED_STATISTIC(NumAddSeen, "add overflow checks seen");
ALWAYS_ENABLED_STATISTIC(NumAddRemoved, "add overflow checks removed");
ALWAYS_ENABLED_STATISTIC(NumSubSeen, "sub overflow checks seen");
ALWAYS_ENABLED_STATISTIC(NumSubRemoved, "sub overflow checks removed");
ALWAYS_ENABLED_STATISTIC(NumMulSeen, "mul overflow checks seen");
ALWAYS_ENABLED_STATISTIC(NumMulRemoved, "mul overflow checks removed");
ALWAYS_ENABLED_STATISTIC(NumNegSeen, "negate overflow checks seen");
ALWAYS_ENABLED_STATISTIC(NumNegRemoved, "negate overflow checks removed");
ALWAYS_ENABLED_STATISTIC(NumPtrSeen, "pointer overflow checks seen");
ALWAYS_ENABLED_STATISTIC(NumPtrRemoved, "pointer overflow checks removed");
// Per idiom of Idioms.def, "Checks removed: <name>" and "Checks re-checked:
// <name>" (a statistic shows only once counted).
#define WRAP_IDIOM(Enum, Name, Shape, Proof)                                   \
  ALWAYS_ENABLED_STATISTIC(NumIdiom##Enum, "Checks removed: " Name);          \
  ALWAYS_ENABLED_STATISTIC(NumRecheck##Enum, "Checks re-checked: " Name);
#include "idioms/Idioms.def"
ALWAYS_ENABLED_STATISTIC(NumChecksRechecked,
                         "Overflow checks re-checked (condition replaced)");
ALWAYS_ENABLED_STATISTIC(NumIgnorelisted,
                         "Checks removed: named by an ignorelist entry");
ALWAYS_ENABLED_STATISTIC(NumIgnorelistKept,
                         "Checks kept by an ignorelist =sanitize entry");

namespace wrapidiom {

namespace {

void countSeen(const OverflowCheck &C) {
  ++NumChecksSeen;
  switch (C.Op) {
  case CheckOp::Add:
    ++NumAddSeen;
    break;
  case CheckOp::Sub:
    ++NumSubSeen;
    break;
  case CheckOp::Mul:
    ++NumMulSeen;
    break;
  case CheckOp::Neg:
    ++NumNegSeen;
    break;
  case CheckOp::Ptr:
    ++NumPtrSeen;
    break;
  }
}

void countRemoved(const OverflowCheck &C, Idiom I) {
  ++NumChecksRemoved;
  switch (C.Op) {
  case CheckOp::Add:
    ++NumAddRemoved;
    break;
  case CheckOp::Sub:
    ++NumSubRemoved;
    break;
  case CheckOp::Mul:
    ++NumMulRemoved;
    break;
  case CheckOp::Neg:
    ++NumNegRemoved;
    break;
  case CheckOp::Ptr:
    ++NumPtrRemoved;
    break;
  }
  switch (I) {
#define WRAP_IDIOM(Enum, Name, Shape, Proof)                                   \
  case Idiom::Enum:                                                            \
    ++NumIdiom##Enum;                                                          \
    break;
#include "idioms/Idioms.def"
  case Idiom::Ignorelist:
    ++NumIgnorelisted;
    break;
  case Idiom::None:
    break;
  }
}

void countRechecked(Idiom I) {
  ++NumChecksRechecked;
  switch (I) {
#define WRAP_IDIOM(Enum, Name, Shape, Proof)                                   \
  case Idiom::Enum:                                                            \
    ++NumRecheck##Enum;                                                        \
    break;
#include "idioms/Idioms.def"
  case Idiom::Ignorelist:
  case Idiom::None:
    break;
  }
}

/// Where a remark points: the arithmetic's own location (the operator) if
/// the module has debug info, else the branch's.
DiagnosticLocation remarkLocation(const OverflowCheck &C) {
  if (const Instruction *A = C.arithmetic())
    if (A->getDebugLoc())
      return A->getDebugLoc();
  return C.Branch->getDebugLoc();
}

/// clang records the location a runtime report will print in the handler
/// data, even without -g. Where the remark's own location says something
/// else (no debug info; inside a macro, where the report names the
/// expansion and the debug location the operator), name it as `Site`, so
/// that a remark can be matched with the report of the same check.
template <typename RemarkT> void appendSite(RemarkT &R, const OverflowCheck &C) {
  std::optional<SourceLoc> L = C.sourceLoc();
  if (!L)
    return;
  DiagnosticLocation Here = remarkLocation(C);
  if (Here.isValid() && Here.getLine() == L->Line &&
      Here.getColumn() == L->Column &&
      StringRef(L->File).ends_with(Here.getRelativePath()))
    return;
  R << " ["
    << ore::NV(remark::key::Site, (Twine(L->File) + ":" + Twine(L->Line) +
                                   ":" + Twine(L->Column))
                                      .str())
    << "]";
}

/// A pointer check folds only its address-wrap part (foldCheck).
bool foldsPart(const OverflowCheck &C) {
  return C.GEP && C.PtrAddressTest && C.PassSuccessor == 0;
}

void emitRemark(OptimizationRemarkEmitter &ORE, const OverflowCheck &C,
                const Decision &D, bool Removed, bool Rechecked) {
  BasicBlock *BB = C.Branch->getParent();
  if (Rechecked) {
    ORE.emit([&] {
      OptimizationRemark R(remark::PassName, remark::name::CheckRechecked,
                           remarkLocation(C), BB);
      R << "re-checked " << ore::NV(remark::key::Sanitizer, C.sanitizer())
        << " check on " << ore::NV(remark::key::Op, C.opName()) << ": "
        << ore::NV(remark::key::Idiom, idiomName(D.Kind)) << " ("
        << ore::NV(remark::key::Proof, D.proof()) << ")";
      appendSite(R, C);
      return R;
    });
    return;
  }
  if (Removed) {
    ORE.emit([&] {
      OptimizationRemark R(remark::PassName, remark::name::CheckRemoved,
                           remarkLocation(C), BB);
      R << "removed " << ore::NV(remark::key::Sanitizer, C.sanitizer())
        << " check on " << ore::NV(remark::key::Op, C.opName()) << ": "
        << ore::NV(remark::key::Idiom, idiomName(D.Kind)) << " (";
      if (D.Detail.empty())
        R << ore::NV(remark::key::Proof, D.proof());
      else
        R << ore::NV(remark::key::Entry, D.Detail);
      R << ")";
      if (foldsPart(C))
        R << "; its offset-overflow and null-pointer parts stay";
      appendSite(R, C);
      return R;
    });
    return;
  }
  if (D) { // recognised, but -wrap-idiom-mode=report keeps it
    ORE.emit([&] {
      OptimizationRemarkAnalysis R(remark::PassName,
                                   remark::name::CheckRecognised,
                                   remarkLocation(C), BB);
      R << "recognised " << ore::NV(remark::key::Sanitizer, C.sanitizer())
        << " check on " << ore::NV(remark::key::Op, C.opName()) << ": "
        << ore::NV(remark::key::Idiom, idiomName(D.Kind)) << " ("
        << D.proof() << "); kept by -wrap-idiom-mode=report";
      appendSite(R, C);
      return R;
    });
    return;
  }
  ORE.emit([&] {
    OptimizationRemarkMissed R(remark::PassName, remark::name::CheckKept,
                               remarkLocation(C), BB);
    R << "kept " << ore::NV(remark::key::Sanitizer, C.sanitizer())
      << " check on " << ore::NV(remark::key::Op, C.opName()) << ": "
      << ore::NV(remark::key::Reason, D.Reason);
    appendSite(R, C);
    return R;
  });
}

void tagArithmetic(const OverflowCheck &C, Idiom I) {
  // A pointer check of a constant base (a global, null) has no GEP the
  // pass could attribute; an ignorelist entry still turns it off.
  Instruction *A = C.arithmetic();
  if (!A)
    return;
  LLVMContext &Ctx = A->getContext();
  A->setMetadata(Ctx.getMDKindID("wrap.idiom"),
                 MDNode::get(Ctx, MDString::get(Ctx, idiomName(I))));
}

/// Turn the check off: its branch always takes the no-overflow successor.
/// The handler block becomes dead; later passes (or nothing, at -O0) drop it.
void foldCheck(const OverflowCheck &C) {
  LLVMContext &Ctx = C.Branch->getContext();
  if (foldsPart(C)) {
    // The program's test answers only for the address wrapping past its
    // base; the offset computation's own overflow and a null base with a
    // non-zero offset stay checked. clang builds the condition as a
    // conjunction of "valid" parts, so the address part becomes true.
    Instruction *Test = C.PtrAddressTest;
    Test->replaceUsesWithIf(ConstantInt::getTrue(Ctx), [&](Use &U) {
      auto *User = dyn_cast<Instruction>(U.getUser());
      return User && (User == C.Branch ||
                      User->hasMetadata(LLVMContext::MD_nosanitize));
    });
    RecursivelyDeleteTriviallyDeadInstructions(Test);
  } else {
    C.Branch->setCondition(ConstantInt::getBool(Ctx, C.PassSuccessor == 0));
  }
  // The program's own test now decides; an inbounds GEP would let
  // InstCombine fold `p + n < p` to false.
  if (C.GEP)
    C.GEP->setNoWrapFlags(GEPNoWrapFlags::none());
}

} // namespace

PreservedAnalyses WrapIdiomPass::run(Function &F,
                                     FunctionAnalysisManager &FAM) {
  if (F.isDeclaration() || !Lists->get(F.getContext()))
    return PreservedAnalyses::all(); // a bad list is diagnosed: it fails
  Module &M = *F.getParent();
  const WrapIdiomDecisions *Store =
      FAM.getResult<ModuleAnalysisManagerFunctionProxy>(F)
          .getCachedResult<WrapIdiomDecisionsAnalysis>(M);
  const WrapIdiomOptions *DecidedWith = Store ? Store->options() : nullptr;
  const WrapIdiomDecisions::OfFunction *Mine = Store ? Store->of(F) : nullptr;
  if (!DecidedWith || *DecidedWith != Opts || (Mine && !Mine->intact())) {
    if (!Diagnosed) {
      Diagnosed = true;
      std::string Params;
      raw_string_ostream OS(Params);
      Opts.printParameters(OS);
      F.getContext().emitError(
          "wrap-idiom: function(wrap-idiom<" + Params +
          ">) acts on the decisions of wrap-idiom-module<" + Params +
          ">, which must run right before it, nothing changing the function "
          "in between: use -passes='wrap-idiom<" +
          Params + ">'");
    }
    return PreservedAnalyses::all();
  }
  if (!Mine)
    return PreservedAnalyses::all(); // no check in F

  bool Changed = false;
  auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  for (size_t I = 0; I < Mine->Checks.size(); ++I) {
    const OverflowCheck &C = Mine->Checks[I];
    const Decision &D = Mine->Decisions[I];
    countSeen(C);
    if (D.KeptByEntry)
      ++NumIgnorelistKept;
    bool Act = D && Opts.Action == Mode::Remove;
    bool Remove = Act && D.removes();
    bool Recheck = Act && D.rechecks();
    if (D) {
      tagArithmetic(C, D.Kind);
      Changed = true;
    }
    if (Remove) {
      foldCheck(C);
      countRemoved(C, D.Kind);
    }
    if (Recheck) {
      D.By->Recheck(C, D);
      countRechecked(D.Kind);
    }
    emitRemark(ORE, C, D, Remove, Recheck);
  }
  if (!Changed)
    return PreservedAnalyses::all();
  // Branch conditions (and the few !nosanitize instructions of a
  // re-check), flags and metadata: every edge is still there.
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

void WrapIdiomPass::printPipeline(
    raw_ostream &OS, function_ref<StringRef(StringRef)> MapClassName2PassName) {
  static_cast<PassInfoMixin<WrapIdiomPass> *>(this)->printPipeline(
      OS, MapClassName2PassName);
  OS << '<';
  Opts.printParameters(OS);
  OS << '>';
}

} // namespace wrapidiom
