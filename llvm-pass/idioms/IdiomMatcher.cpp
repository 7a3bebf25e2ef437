//===- IdiomMatcher.cpp - Decide every check of a function ----------------===//
//
// Part of wrapidiom. See IdiomMatcher.h. All reasoning happens on the
// function with its locals promoted (analysis/PromotedFunction.h), so
// locals are SSA values.
//
// The walk of the table (rules(), the WRAP_RULE rows of Idioms.def, which
// print<wrap-idiom-rules> prints): a check goes down the rows in order. A
// row runs on the checks of its operations that no row above decided; the
// first that proves one decides it. On the way:
//
//  - a row whose idiom is disabled (-wrap-idiom-disable) decides nothing:
//    the check goes on down the rows, so that a later row may prove it;
//    if none does, its reason says the first such row would have;
//  - a removal whose wrap is undefined in the build (a signed check
//    without -wrap-idiom-signed-wrap, a pointer check without
//    -wrap-idiom-pointer-wrap) is recognised, not made: no removal row
//    after it runs but cannot-wrap's (a check that cannot fire goes
//    whatever the build defines), and the reason says which idiom it was;
//  - a check whose condition is not one operation's is decided by no row
//    but the ignorelists' and those of the function; a check whose
//    operation cannot be followed (wrappingOpOf()) by none that needs it;
//  - the Entry row (the ignorelists) runs on every check: an entry removes
//    a check no row above removed, a `=sanitize` entry keeps it as clang
//    emitted it, and no row after it runs;
//  - the OnFunction rows (circular-difference's pair) run once every
//    check of the function has been through the others: they decide a
//    check from the others' decisions. A note of theirs on a kept check
//    (why it is no such pair) is added to its reason, as are the notes of
//    disabled rows after the Entry row.
//
//===----------------------------------------------------------------------===//
#include "idioms/IdiomMatcher.h"

#include "analysis/FunctionIndex.h"
#include "analysis/MemoryFacts.h"
#include "analysis/PromotedFunction.h"
#include "analysis/WrapTest.h"
#include "idioms/Options.h"
#include "idioms/SerialCompare.h"
#include "idioms/WrapPaths.h"
#include "RemarkSchema.h"

#include "llvm/Analysis/DemandedBits.h"
#include "llvm/Analysis/DomConditionCache.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

#include <optional>

using namespace llvm;

namespace wrapidiom {

StringRef idiomName(Idiom I) {
  switch (I) {
  case Idiom::None:
    return "none";
#define WRAP_IDIOM(Enum, Name, Shape, Proof)                                   \
  case Idiom::Enum:                                                            \
    return Name;
#include "idioms/Idioms.def"
  case Idiom::Ignorelist:
    return remark::tag::Ignorelist;
  }
  return "?";
}

StringRef idiomDescription(Idiom I) {
  switch (I) {
  case Idiom::None:
    return "no idiom";
#define WRAP_IDIOM(Enum, Name, Shape, Proof)                                   \
  case Idiom::Enum:                                                            \
    return Proof;
#include "idioms/Idioms.def"
  case Idiom::Ignorelist:
    return "an ignorelist entry names it";
  }
  return "?";
}

/// The facts built here (the others are the analysis manager's).
struct MatcherFacts::Built {
  std::unique_ptr<DomConditionCache> DC;
  std::unique_ptr<MemoryFacts> Memory;
};

MatcherFacts::MatcherFacts(Function &F, FunctionAnalysisManager &FAM,
                           const TargetLibraryInfo &TLI,
                           const WrapIdiomOptions &Opts, Function *Original,
                           const Ignorelist *IL, ScratchModule &Scratch,
                           FrontEndFacts FrontEnd)
    : F(F), FAM(FAM), TLI(TLI), Opts(Opts), Original(Original), IL(IL),
      Scratch(Scratch), FrontEnd(FrontEnd), B(std::make_unique<Built>()) {
  // In scope for sameValue() from now on (MemoryFacts.h).
  B->Memory = std::make_unique<MemoryFacts>(F, TLI, FAM, &Scratch);
}

MatcherFacts::~MatcherFacts() = default;

const DominatorTree &MatcherFacts::dominators() {
  return FAM.getResult<DominatorTreeAnalysis>(F);
}

const DomConditionCache &MatcherFacts::conditions() {
  if (!B->DC) {
    B->DC = std::make_unique<DomConditionCache>();
    for (BasicBlock &BB : F)
      if (auto *Br = dyn_cast<BranchInst>(BB.getTerminator()))
        if (Br->isConditional())
          B->DC->registerBranch(Br);
  }
  return *B->DC;
}

DemandedBits &MatcherFacts::demandedBits() {
  return FAM.getResult<DemandedBitsAnalysis>(F);
}

MemoryFacts &MatcherFacts::memory() { return *B->Memory; }

PathVerdict MatcherFacts::followWrapped(const WrappingOp &Op) {
  return followWrappedPaths(Op, F, dominators(),
                            FAM.getResult<FunctionIndexAnalysis>(F), Opts);
}

const Function &MatcherFacts::body(const Function &Callee) const {
  return *Scratch.original(Callee);
}

IdiomMatcher::IdiomMatcher(Function &F, FunctionAnalysisManager &FAM,
                           const TargetLibraryInfo &TLI,
                           const WrapIdiomOptions &Opts,
                           ScratchModule &Scratch, Function *Original,
                           const Ignorelist *IL, FrontEndFacts FrontEnd)
    : Facts(F, FAM, TLI, Opts, Original, IL, Scratch, FrontEnd), Opts(Opts) {}

IdiomMatcher::~IdiomMatcher() = default;

namespace {

/// One check on its way down the rows.
class Walk {
public:
  Walk(FunctionChecks &All, size_t I, MatcherFacts &Facts,
       const WrapIdiomOptions &Opts, Decision &D)
      : All(All), I(I), Facts(Facts), Opts(Opts), D(D),
        In(All.Mapped[I], All.Original[I], Facts, &All, I) {}

  /// The rows that do not need the others' decisions.
  void checkRows();
  /// One that does, once every check has been through checkRows() and the
  /// OnFunction rows above R.
  void functionRow(const Rule &R);

private:
  FunctionChecks &All;
  size_t I;
  MatcherFacts &Facts;
  const WrapIdiomOptions &Opts;
  Decision &D;
  RuleInput In;
  std::optional<WrappingOp> Op;
  std::string OpWhy;              // why its operation cannot be followed
  std::string Disabled;           // the first disabled row that proved it
  std::string Undefined;          // a removal recognised, its wrap undefined
  bool Unattributed = false;      // no row but the Entry and OnFunction ones
  bool NoOperation = false;       // no OnOperation row
  bool RemovalsOver = false;      // no removal row (Keep, Undefined)
  bool KeptByRow = false;         // a Keep row's reason stands
  bool AfterEntry = false;

  bool runs(const Rule &R);
  void prove(const Rule &R);
  void entry(const Rule &R);
  void settleReason();
  std::string undefinedWrap(Idiom K) const;
};

bool Walk::runs(const Rule &R) {
  if (!(R.Ops & opBit(In.C.Op)) || D.KeptByEntry)
    return false;
  // A check an OnCheck row re-checked may still be part of what an
  // OnFunction row decides as a whole (final-result's expression): such a
  // row sees it, and its plan says whether it takes it.
  if (D && !(R.Needs == OnFunction && D.rechecks() && D.By->Needs != OnFunction))
    return false;
  if (Unattributed && R.Needs != OnFunction)
    return false;
  if (R.Action == Remove && RemovalsOver && R.Needs != OnFunction)
    return false;
  if (R.Needs != OnOperation)
    return true;
  if (!Op && !NoOperation) {
    Op = wrappingOpOf(In.C, OpWhy);
    if (Op) {
      Op->DT = &Facts.dominators();
      Op->DC = &Facts.conditions();
      In.Op = &*Op;
    } else {
      NoOperation = true;
    }
  }
  return !NoOperation;
}

std::string Walk::undefinedWrap(Idiom K) const {
  const OverflowCheck &C = In.Original;
  std::string Name = idiomName(K).str();
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

void Walk::prove(const Rule &R) {
  In.Kind = R.Kind;
  In.Args = {};
  if (R.Needs == OnFunction)
    In.Why.clear();
  if (!R.Proves(In)) {
    if (R.Needs == OnFunction && !In.Why.empty())
      D.Reason += "; " + ruleName(R).str() + ": " + In.Why;
    if (R.Unproven == Keep) {
      RemovalsOver = true;
      KeptByRow = true;
    }
    return;
  }
  Idiom K = In.Kind;
  if (!Opts.idiomEnabled(K)) {
    if (AfterEntry)
      D.Reason += (R.Action == Never ? "; " : "; re-check ") +
                  idiomName(K).str() + " is disabled by -wrap-idiom-disable";
    else if (Disabled.empty())
      Disabled = "idiom " + idiomName(K).str() +
                 " is disabled by -wrap-idiom-disable";
    return;
  }
  if (R.Action == Remove) {
    std::string Why = undefinedWrap(K);
    if (!Why.empty()) {
      if (Undefined.empty())
        Undefined = std::move(Why);
      RemovalsOver = true;
      return;
    }
  }
  D.Kind = K;
  D.By = &R;
  D.Args = In.Args;
  D.Reason.clear();
}

/// The removal rows are over: why a check none of them removed stays.
void Walk::settleReason() {
  if (D)
    return;
  if (!Undefined.empty())
    D.Reason = Undefined;
  else if (!Disabled.empty())
    D.Reason = Disabled;
  else if (Unattributed)
    D.Reason = "the check's condition could not be attributed to a single "
               "operation";
  else if (NoOperation)
    D.Reason = OpWhy;
  else
    D.Reason = In.Why;
  // update_rq_clock()'s `delta = now - clock; if (delta < 0) return;
  // clock += delta;`: say why the sign test is not enough, so that whoever
  // triages the report knows what an ignorelist entry has to justify.
  if (Undefined.empty() && Disabled.empty() && !KeptByRow && Op &&
      signTestedAndUsed(*Op)) {
    unsigned N = Op->Result->getType()->getScalarSizeInBits();
    D.Reason = "the difference is sign-tested as in serial-number "
               "arithmetic, but also used: a wrap by 2^" +
               std::to_string(N - 1) +
               " or more passes the test and reaches that use";
  }
}

void Walk::entry(const Rule &R) {
  settleReason();
  AfterEntry = true;
  In.Kind = R.Kind;
  if (!R.Proves(In))
    return;
  if (In.Sanitize) {
    D.Reason = remark::tag::KeptBy + In.Entry +
               (D ? " over the " + idiomName(D.Kind).str() + " idiom" : "");
    D.Kind = Idiom::None;
    D.By = nullptr;
    D.KeptByEntry = true;
    return;
  }
  if (D)
    return; // a row proves it; the entry is not needed for this check
  D.Kind = R.Kind;
  D.By = &R;
  D.Reason.clear();
  D.Detail = std::move(In.Entry);
}

void Walk::checkRows() {
  const OverflowCheck &C = In.C;
  Unattributed = C.Combined || !C.arithmetic();
  for (const Rule &R : rules()) {
    if (R.Needs == OnFunction)
      continue;
    if (R.Action == Entry) {
      if (R.Ops & opBit(C.Op))
        entry(R);
      continue;
    }
    if (runs(R))
      prove(R);
  }
}

void Walk::functionRow(const Rule &R) {
  AfterEntry = true;
  if (runs(R))
    prove(R);
}

} // namespace

SmallVector<Decision, 8>
IdiomMatcher::decideAll(ArrayRef<OverflowCheck> Checks,
                        ArrayRef<OverflowCheck> Mapped) {
  SmallVector<Decision, 8> Decisions(Checks.size());
  FunctionChecks All;
  All.Original = Checks;
  All.Mapped = Mapped;
  All.Decisions = Decisions;
  for (size_t I = 0; I < Checks.size(); ++I)
    Walk(All, I, Facts, Opts, Decisions[I]).checkRows();
  for (const Rule &R : rules())
    if (R.Needs == OnFunction)
      for (size_t I = 0; I < Checks.size(); ++I)
        Walk(All, I, Facts, Opts, Decisions[I]).functionRow(R);
  return Decisions;
}

Idiom IdiomMatcher::decideResult(WrappingOp Op, std::string &Why) {
  Op.DT = &Facts.dominators();
  Op.DC = &Facts.conditions();
  // The path walk only, not add-compare's "only compared with an addend":
  // that reads every such comparison as the wrap test whatever its side
  // does, and a caller's `if (e > lim)` with lim the addend is as often a
  // bound the wrapped end evades (the wrap oracle's helper family).
  PathVerdict PV = Facts.followWrapped(Op);
  Why = std::move(PV.Reason);
  return PV.Kind;
}

} // namespace wrapidiom
