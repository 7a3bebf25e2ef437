//===- IdiomMatcher.cpp - Decide whether a wrap is intentional and handled ===//
//
// Part of wrapidiom. All reasoning happens on the function with its locals
// promoted (analysis/PromotedFunction.h), so locals are SSA values. The
// rules, in the order decide() tries them; the first that proves the wrap
// harmless decides, and some end the search with a reason to keep:
//
//   neg-const       -1UL, 0UL - 100UL: an unsigned constant negated (as
//                   written)
//   dead-value      the value is never read (analysis/MemoryFacts.h)
//   *-compare       the result is only ever compared with its own operand in
//                   the direction wrap flips: nothing else sees the value;
//                   a pointer check that fails this one is kept
//   signed-test     an unsigned sum only tested, as signed, for signed
//                   overflow (signed_add_overflows())
//   end-around-carry, rotate-fold  one's complement sums (SumIdioms.h)
//   end-inclusive   start + len - 1 tested against start, alone or through
//                   the data-flow proof (SumIdioms.h, WrapPaths.h)
//   serial-compare  (long)(a - b) < 0, ULONG_MAX / 2 >= a - b: the unsigned
//                   difference is only tested for its sign (time_after(),
//                   ULONG_CMP_GE(), RFC 1982), or a value reaches only such
//                   differences (SerialCompare.h)
//   add-back        (x - m) + m: the addition restores x exactly
//                   (ALIGN_DOWN())
//   carry-select    y = x - C; z = y + (y > x ? Zw : Zn): the wrap test picks
//                   corrections that make the pair exact (CarrySelect.h)
//   data flow       guarded-use, bounds-and-wrap, loop-counter, align-zero,
//                   sign-guard: every wrapped execution reaches the
//                   program's own handling before the value can do harm
//                   (WrapPaths.h)
//   modular         the value only reaches reductions modulo 2^k, k < N
//
// The re-checks (signed-offset, signed-difference: SignedRecheck.h) and
// the pairs of circular-difference (CircularDifference.h) are decided by
// the pass (passes/WrapIdiom.cpp) after this matcher and the ignorelist,
// for the checks they keep: removal has priority.
//
//===----------------------------------------------------------------------===//
#include "idioms/IdiomMatcher.h"

#include "idioms/CarrySelect.h"
#include "analysis/MemoryFacts.h"
#include "RemarkSchema.h"
#include "idioms/SerialCompare.h"
#include "idioms/SumIdioms.h"
#include "analysis/ValueEquivalence.h"
#include "idioms/WrapPaths.h"
#include "analysis/WrapTest.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/DemandedBits.h"
#include "llvm/Analysis/DomConditionCache.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

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

struct IdiomMatcher::Lazy {
  std::unique_ptr<DominatorTree> DT;
  std::unique_ptr<DomConditionCache> DC;
  std::unique_ptr<FunctionIndex> Index;
  std::unique_ptr<MemoryFacts> Memory; // uses DT: destroyed first
  std::unique_ptr<AssumptionCache> AC;
  std::unique_ptr<DemandedBits> DB; // uses DT and AC: destroyed first
};

IdiomMatcher::IdiomMatcher(Function &F, const TargetLibraryInfo &TLI,
                           const WrapIdiomOptions &Opts)
    : F(F), Opts(Opts), L(std::make_unique<Lazy>()) {
  L->Memory = std::make_unique<MemoryFacts>(
      F, TLI, [this]() -> const DominatorTree & { return dominators(); });
}
IdiomMatcher::~IdiomMatcher() = default;

const DominatorTree &IdiomMatcher::dominators() {
  if (!L->DT)
    L->DT = std::make_unique<DominatorTree>(F);
  return *L->DT;
}

DemandedBits &IdiomMatcher::demandedBits() {
  if (!L->DB) {
    dominators();
    L->AC = std::make_unique<AssumptionCache>(F);
    L->DB = std::make_unique<DemandedBits>(F, *L->AC, *L->DT);
  }
  return *L->DB;
}

const DomConditionCache &IdiomMatcher::conditions() {
  if (!L->DC) {
    L->DC = std::make_unique<DomConditionCache>();
    for (BasicBlock &BB : F)
      if (auto *Br = dyn_cast<BranchInst>(BB.getTerminator()))
        if (Br->isConditional())
          L->DC->registerBranch(Br);
  }
  return *L->DC;
}

namespace {

/// Every use of the result (through order-preserving casts) is a
/// comparison with the right operand in the direction wrap flips, and there
/// is at least one: the wrapped value never reaches anything else.
bool onlyUsedByWrapTests(const WrappingOp &Op, std::string &Why) {
  struct Item {
    const Value *V;
    CastChain Chain;
  };
  SmallVector<Item, 4> Work{{Op.Result, {}}};
  unsigned Tests = 0;
  while (!Work.empty()) {
    Item Cur = Work.pop_back_val();
    for (const Use &U : Cur.V->uses()) {
      const auto *User = cast<Instruction>(U.getUser());
      if (isInstrumentation(*User))
        continue; // another check reporting the value
      if (isOrderPreservingCast(User, *Op.DL)) {
        Item Next{User, Cur.Chain};
        Next.Chain.push_back(cast<CastInst>(User));
        Work.push_back(std::move(Next));
        continue;
      }
      if (const auto *Cmp = dyn_cast<ICmpInst>(User)) {
        CompareVerdict V =
            classifyCompare(*Cmp, U.getOperandNo(), Cur.Chain, Op);
        if (!V.separates()) {
          Why = V.Why;
          return false;
        }
        ++Tests;
        continue;
      }
      Why = ("the " + Op.noun() + " is also used by '" +
             User->getOpcodeName() + "'")
                .str();
      return false;
    }
  }
  if (Tests == 0) {
    Why = ("no wrap test compares the " + Op.noun() + " with " +
           Op.againstNoun())
              .str();
    return false;
  }
  return true;
}

/// If V is an unsigned difference x - m (checked or not), set M to m.
bool subtrahendOf(const Value *V, const Value *&M) {
  if (isa<ExtractValueInst>(V)) {
    const WithOverflowInst *WO = checkedUSubOf(V);
    if (!WO)
      return false;
    M = WO->getRHS();
    return true;
  }
  const auto *BO = dyn_cast<BinaryOperator>(V);
  if (!BO || BO->getOpcode() != Instruction::Sub)
    return false;
  M = BO->getOperand(1);
  return true;
}

/// An unsigned addition of V and something else (checked or not): the
/// something else.
const Value *addendBeside(const User *U, const Value *V) {
  if (const auto *WO = dyn_cast<WithOverflowInst>(U)) {
    if (WO->getIntrinsicID() != Intrinsic::uadd_with_overflow)
      return nullptr;
    return WO->getLHS() == V ? WO->getRHS() : WO->getLHS();
  }
  const auto *BO = dyn_cast<BinaryOperator>(U);
  if (!BO || BO->getOpcode() != Instruction::Add)
    return nullptr;
  return BO->getOperand(0) == V ? BO->getOperand(1) : BO->getOperand(0);
}

/// (x - m) + m, ALIGN_DOWN(x, a) = ((x - (a - 1)) + (a - 1)) & ~(a - 1):
/// modulo 2^N the sum is x itself. The addition wraps exactly when the
/// subtraction did, and undoes it: its check can go (a wrap of the
/// subtraction is still the subtraction's check to report). The
/// subtraction's check can go when the difference reaches nothing but such
/// additions. Unsigned only: a signed wrap is undefined unless -fwrapv.
bool isAddBack(const WrappingOp &Op) {
  if (Op.Signed)
    return false;
  if (Op.Op == CheckOp::Add) {
    const Value *M;
    return (subtrahendOf(Op.LHS, M) && sameValue(M, Op.RHS, *Op.DL)) ||
           (subtrahendOf(Op.RHS, M) && sameValue(M, Op.LHS, *Op.DL));
  }
  if (Op.Op != CheckOp::Sub)
    return false;
  unsigned AddsBack = 0;
  for (const User *U : Op.Result->users()) {
    if (isInstrumentation(*cast<Instruction>(U)))
      continue;
    const Value *Other = addendBeside(U, Op.Result);
    if (!Other || !sameValue(Other, Op.RHS, *Op.DL))
      return false;
    ++AddsBack;
  }
  return AddsBack > 0;
}

/// The value only reaches reductions modulo 2^k with k < N (a low-bit mask,
/// a truncation, `% 2^k`), through operations whose low bits depend only on
/// the low bits of their operands. Wrap-around changes a value by a
/// multiple of 2^N, which no such reduction can see.
bool onlyReducedModulo(const Value *V, unsigned N, unsigned Depth,
                       unsigned &Sinks) {
  if (Depth > 8)
    return false;
  for (const User *U : V->users()) {
    if (const auto *WO = dyn_cast<WithOverflowInst>(U)) {
      if (WO->getBinaryOp() == Instruction::UDiv)
        return false;
      for (const User *WU : WO->users()) {
        const auto *EV = dyn_cast<ExtractValueInst>(WU);
        if (!EV || *EV->idx_begin() != 0)
          continue; // the other check's overflow bit
        if (!onlyReducedModulo(EV, N, Depth + 1, Sinks))
          return false;
      }
      continue;
    }
    const auto *I = dyn_cast<Instruction>(U);
    if (!I)
      return false;
    if (isInstrumentation(*I))
      continue;
    switch (I->getOpcode()) {
    case Instruction::Trunc:
      if (I->getType()->getScalarSizeInBits() >= N)
        return false;
      ++Sinks;
      continue;
    case Instruction::And:
    case Instruction::URem: {
      const auto *C = dyn_cast<ConstantInt>(I->getOperand(1));
      if (C && I->getOperand(0) == V) {
        const APInt &M = C->getValue();
        bool Sink = I->getOpcode() == Instruction::And
                        ? M.getActiveBits() < N
                        : M.isPowerOf2() && M.logBase2() < N;
        if (Sink) {
          ++Sinks;
          continue;
        }
      }
      if (I->getOpcode() == Instruction::URem)
        return false;
      [[fallthrough]];
    }
    case Instruction::Add:
    case Instruction::Sub:
    case Instruction::Mul:
    case Instruction::Or:
    case Instruction::Xor:
    case Instruction::ZExt:
    case Instruction::SExt:
      if (!onlyReducedModulo(I, N, Depth + 1, Sinks))
        return false;
      continue;
    case Instruction::Shl:
      if (I->getOperand(0) != V || !onlyReducedModulo(I, N, Depth + 1, Sinks))
        return false;
      continue;
    default:
      return false;
    }
  }
  return true;
}

/// The wrapped value is never read: no use but the checks' own, or only
/// stored, each store overwritten before anything may read it (a counter
/// reset right after). A wrap nobody sees does no harm.
bool neverRead(const WrappingOp &Op, MemoryFacts &Memory) {
  if (Op.Op == CheckOp::Ptr)
    return false;
  for (const Use &U : Op.Result->uses()) {
    const auto *I = cast<Instruction>(U.getUser());
    if (isInstrumentation(*I))
      continue;
    const auto *S = dyn_cast<StoreInst>(I);
    if (!S || U.getOperandNo() != 0 || !Memory.overwrittenBeforeRead(*S))
      return false;
  }
  return true;
}

} // namespace

Decision IdiomMatcher::decide(const OverflowCheck &C) {
  Decision D;
  if (C.Combined || !C.arithmetic()) {
    D.Reason = "the check's condition could not be attributed to a single "
               "operation";
    return D;
  }
  // -1UL, -sizeof(x), 0UL - 100UL: a constant as clang emitted it,
  // subtracted from a literal 0, before promotion made constants of locals.
  if ((C.Op == CheckOp::Neg || C.Op == CheckOp::Sub) && !C.Signed &&
      C.ConstantOperand) {
    D.Kind = Idiom::NegConst;
    return D;
  }
  std::optional<WrappingOp> Op = wrappingOpOf(C, D.Reason);
  if (!Op)
    return D;
  if (neverRead(*Op, *L->Memory)) {
    D.Kind = Idiom::DeadValue;
    return D;
  }
  Op->DT = &dominators();
  Op->DC = &conditions();

  std::string CompareWhy;
  if (C.Op == CheckOp::Add || C.Op == CheckOp::Sub || C.Op == CheckOp::Ptr) {
    if (onlyUsedByWrapTests(*Op, CompareWhy)) {
      D.Kind = C.Op == CheckOp::Add   ? Idiom::AddCompare
               : C.Op == CheckOp::Sub ? Idiom::SubCompare
                                      : Idiom::PtrCompare;
      return D;
    }
    if (C.Op == CheckOp::Ptr) {
      D.Reason = CompareWhy;
      return D;
    }
  }
  // signed_add_overflows() (kernel/bpf/verifier.c): the sum is done in
  // u64 where wrap is defined, and only tested, as s64, for signed
  // overflow, the test chosen by the sign of b. The unsigned wrap is not
  // what the program means; the signed one is exactly tested.
  if (!C.Signed && (C.Op == CheckOp::Add || C.Op == CheckOp::Sub)) {
    WrappingOp AsSigned = *Op;
    AsSigned.Signed = true;
    std::string Why;
    if (onlyUsedByWrapTests(AsSigned, Why)) {
      D.Kind = Idiom::SignedTest;
      return D;
    }
  }
  if (isEndAroundCarry(*Op)) {
    D.Kind = Idiom::EndAroundCarry;
    return D;
  }
  if (isRotateFold(*Op, demandedBits())) {
    D.Kind = Idiom::RotateFold;
    return D;
  }
  if (std::optional<WrappingOp> End = endInclusiveOf(*Op)) {
    std::string Why;
    if (onlyUsedByWrapTests(*End, Why)) {
      D.Kind = Idiom::EndInclusive;
      return D;
    }
    if (!L->Index)
      L->Index = std::make_unique<FunctionIndex>(F, dominators());
    PathVerdict PV = followWrappedPaths(*End, F, dominators(), *L->Index, Opts);
    if (PV.Kind == Idiom::GuardedUse || PV.Kind == Idiom::BoundsAndWrap) {
      D.Kind = Idiom::EndInclusive;
      return D;
    }
  }
  if (onlySignTested(*Op) || onlyInSerialDifferences(*Op)) {
    D.Kind = Idiom::SerialCompare;
    return D;
  }
  if (isAddBack(*Op)) {
    D.Kind = Idiom::AddBack;
    return D;
  }
  if (isCarrySelectSub(*Op, dominators()) ||
      isCarrySelectAdd(*Op, dominators())) {
    D.Kind = Idiom::CarrySelect;
    return D;
  }
  if (!L->Index)
    L->Index = std::make_unique<FunctionIndex>(F, dominators());
  PathVerdict PV = followWrappedPaths(*Op, F, dominators(), *L->Index, Opts);
  if (PV.Kind != Idiom::None) {
    D.Kind = PV.Kind;
    return D;
  }
  unsigned Sinks = 0;
  unsigned N = Op->Result->getType()->getScalarSizeInBits();
  if (onlyReducedModulo(Op->Result, N, 0, Sinks) && Sinks > 0) {
    D.Kind = Idiom::Modular;
    return D;
  }
  D.Reason = PV.Reason;
  // update_rq_clock()'s `delta = now - clock; if (delta < 0) return;
  // clock += delta;`: say why the sign test is not enough, so that whoever
  // triages the report knows what an ignorelist entry has to justify.
  if (signTestedAndUsed(*Op))
    D.Reason = "the difference is sign-tested as in serial-number "
               "arithmetic, but also used: a wrap by 2^" +
               std::to_string(N - 1) +
               " or more passes the test and reaches that use";
  return D;
}

} // namespace wrapidiom
