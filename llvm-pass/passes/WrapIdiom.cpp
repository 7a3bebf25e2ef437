//===- WrapIdiom.cpp - Turn off UBSan checks of idiomatic wrap tests ------===//
//
// Part of wrapidiom. See WrapIdiom.h. Collect, decide on the function with
// its locals promoted (PromotedFunction.h), then mutate: the only edits are
// branch conditions, GEP flags and metadata, plus the promotion itself at
// -O1 and up (which SROA would do next anyway). A check no idiom or
// ignorelist entry removes may still be re-checked (SignedRecheck.h): its
// condition is replaced by the one of the signed quantity it encodes, or,
// for the correction of a circular difference, by the correction's failure
// (CircularDifference.h), which also lets the difference's own check go.
//
//===----------------------------------------------------------------------===//
#include "passes/WrapIdiom.h"

#include "idioms/CircularDifference.h"
#include "idioms/IdiomMatcher.h"
#include "ignorelist/IgnorelistCheck.h"
#include "checks/OverflowCheck.h"
#include "analysis/PromotedFunction.h"
#include "RemarkSchema.h"
#include "idioms/SignedRecheck.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
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
// One "Checks removed: <name>" statistic per idiom of Idioms.def, one
// "Checks re-checked: <name>" per re-check.
#define WRAP_IDIOM(Enum, Name, Shape, Proof)                                   \
  ALWAYS_ENABLED_STATISTIC(NumIdiom##Enum, "Checks removed: " Name);
#define WRAP_RECHECK(Enum, Name, Shape, Proof)                                 \
  ALWAYS_ENABLED_STATISTIC(NumRecheck##Enum, "Checks re-checked: " Name);
#include "idioms/Idioms.def"
// The one re-check that also removes a check: the difference it corrects.
ALWAYS_ENABLED_STATISTIC(NumIdiomCircularDifference,
                         "Checks removed: circular-difference");
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
  if (I == Idiom::CircularDifference)
    ++NumIdiomCircularDifference;
  switch (I) {
#define WRAP_IDIOM(Enum, Name, Shape, Proof)                                   \
  case Idiom::Enum:                                                            \
    ++NumIdiom##Enum;                                                          \
    break;
#define WRAP_RECHECK(Enum, Name, Shape, Proof)                                 \
  case Idiom::Enum:                                                            \
    break; /* never removed, but for circular-difference (above) */
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
    break;
#define WRAP_RECHECK(Enum, Name, Shape, Proof)                                 \
  case Idiom::Enum:                                                            \
    ++NumRecheck##Enum;                                                        \
    break;
#include "idioms/Idioms.def"
  case Idiom::Ignorelist:
  case Idiom::None:
    break;
  }
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

/// A recognised idiom is still not acted on when the user disabled it, or
/// when the wrap it tests is undefined behaviour in this build.
std::string whyNotActed(const OverflowCheck &C, Idiom Kind,
                        const WrapIdiomOptions &Opts) {
  std::string Name = idiomName(Kind).str();
  if (!Opts.idiomEnabled(Kind))
    return "idiom " + Name + " is disabled by -wrap-idiom-disable";
  if (C.Op != CheckOp::Ptr && C.Signed && !Opts.signedWrapDefined())
    return "recognised " + Name +
           ", but signed overflow is undefined unless the file is built "
           "with -fwrapv or -fno-strict-overflow (then pass "
           "-wrap-idiom-signed-wrap)";
  if (C.Op == CheckOp::Ptr && !Opts.pointerWrapDefined())
    return "recognised " + Name +
           ", but pointer overflow is undefined and the optimiser may fold "
           "the test away (pass -wrap-idiom-pointer-wrap to accept it)";
  return {};
}

/// What subsystem owners decided overrides what no idiom could: an entry
/// turns a kept check off, a `=sanitize` entry keeps even a recognised one.
/// Returns true for a `=sanitize` entry: the check stays as clang emitted
/// it, not even re-checked.
bool applyIgnorelist(const Ignorelist &IL, const OverflowCheck &C,
                     const Function &F, Decision &D) {
  if (IL.empty())
    return false;
  std::optional<Ignorelist::Match> M = lookup(IL, C, F);
  if (!M)
    return false;
  std::string Where = remark::entryText(M->Entry, M->File, M->Line);
  if (M->Sanitize) {
    ++NumIgnorelistKept;
    D.Reason = remark::tag::KeptBy + Where +
               (D ? " over the " + idiomName(D.Kind).str() + " idiom" : "");
    D.Kind = Idiom::None;
    return true;
  }
  if (D)
    return false; // an idiom proves it; the entry is not needed for this check
  D.Kind = Idiom::Ignorelist;
  D.Reason.clear();
  D.Detail = Where;
  return false;
}

/// A check that stays may be re-checked (SignedRecheck.h): decided on the
/// promoted function, after removal (which has priority) and the
/// ignorelist.
void recheckKept(const OverflowCheck &P, Decision &D,
                 const WrapIdiomOptions &Opts) {
  unsigned SignedOperand = 0;
  Idiom R = recheckOf(P, SignedOperand);
  if (R == Idiom::None)
    return;
  if (!Opts.idiomEnabled(R)) {
    D.Reason += "; re-check " + idiomName(R).str() +
                " is disabled by -wrap-idiom-disable";
    return;
  }
  D.Kind = R;
  D.SignedOperand = SignedOperand;
  D.Reason.clear();
}

/// Decide every check of F on its promoted form: each on its own, then the
/// pairs of a circular difference (CircularDifference.h).
SmallVector<Decision, 8> decideAll(Function &F, ArrayRef<OverflowCheck> Checks,
                                   const Ignorelist &IL,
                                   const TargetLibraryInfo &TLI,
                                   const WrapIdiomOptions &Opts,
                                   bool &Changed) {
  SmallVector<Decision, 8> Decisions(Checks.size());
  SmallVector<OverflowCheck, 8> Mapped;
  SmallVector<bool, 8> Sanitize(Checks.size());
  PromotedFunction Promoted(F);
  Changed = Promoted.promotedInPlace();
  IdiomMatcher Matcher(Promoted.function(), TLI, Opts, &F);
  for (size_t I = 0; I < Checks.size(); ++I) {
    Decision &D = Decisions[I];
    Mapped.push_back(mapToPromoted(Checks[I], Promoted));
    const OverflowCheck &P = Mapped.back();
    D = Matcher.decide(P);
    if (D)
      D.Reason = whyNotActed(Checks[I], D.Kind, Opts);
    if (!D.Reason.empty())
      D.Kind = Idiom::None;
    Sanitize[I] = applyIgnorelist(IL, Checks[I], F, D);
    if (!D && !Sanitize[I])
      recheckKept(P, D, Opts);
  }
  decideCircular(Checks, Mapped, Sanitize, Decisions, Matcher.dominators(),
                 Opts);
  return Decisions;
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

/// What proves a decision: the idiom's description, or for the removed
/// subtraction of a circular difference, its own proof.
StringRef proofOf(const Decision &D) {
  return D.RemovesCheck ? circularRemovalProof() : idiomDescription(D.Kind);
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
        << ore::NV(remark::key::Proof, idiomDescription(D.Kind)) << ")";
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
        R << ore::NV(remark::key::Proof, proofOf(D));
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
        << proofOf(D) << "); kept by -wrap-idiom-mode=report";
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
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  const Ignorelist *IL = ignorelist(F.getContext());
  if (!IL)
    return PreservedAnalyses::all(); // diagnosed; the compilation fails
  SmallVector<OverflowCheck, 8> Checks = findOverflowChecks(F);
  if (Checks.empty())
    return PreservedAnalyses::all();

  bool Changed = false;
  SmallVector<Decision, 8> Decisions = decideAll(
      F, Checks, *IL, FAM.getResult<TargetLibraryAnalysis>(F), Opts, Changed);

  auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  for (size_t I = 0; I < Checks.size(); ++I) {
    const OverflowCheck &C = Checks[I];
    const Decision &D = Decisions[I];
    countSeen(C);
    bool Removal = !isRecheckIdiom(D.Kind) || D.RemovesCheck;
    bool Recheck = D && !Removal && Opts.Action == Mode::Remove;
    bool Remove = D && Removal && Opts.Action == Mode::Remove;
    if (D) {
      tagArithmetic(C, D.Kind);
      Changed = true;
    }
    if (Remove) {
      foldCheck(C);
      countRemoved(C, D.Kind);
    }
    if (Recheck) {
      if (D.Kind == Idiom::CircularDifference)
        applyCircularRecheck(C, D);
      else
        applyRecheck(C, D.Kind, D.SignedOperand);
      countRechecked(D.Kind);
    }
    emitRemark(ORE, C, D, Remove, Recheck);
  }
  if (!Changed)
    return PreservedAnalyses::all();
  // Promotion, branch conditions (and the few !nosanitize instructions of
  // a re-check), flags and metadata: every edge is still there.
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
