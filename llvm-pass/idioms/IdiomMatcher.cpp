//===- IdiomMatcher.cpp - Decide whether a wrap is intentional and handled ===//
//
// Part of wrapidiom. All reasoning happens on the function with its locals
// promoted (analysis/PromotedFunction.h), so locals are SSA values.
//
// decide() walks one table, Rules (below), in order: a rule runs on the
// checks of its operations, the first that proves the wrap harmless
// decides, and ptr-compare keeps a pointer check it does not prove. The
// rules in that order (`opt -passes='print<wrap-idiom-rules>'` prints the
// table; lit-tests/opt/rule-order.test holds this list and IDIOMS.md's
// "Order of decision" to it):
//
//   neg-const        -1UL, 0UL - 100UL: an unsigned constant negated (as
//                    written); on the check alone, before the operation
//   dead-value       the value is never read: overwritten or its object
//                    freed first (analysis/MemoryFacts.h)
//   add-compare      the sum is only ever compared with an addend, in the
//                    direction wrap flips: nothing else sees the value
//   sub-compare      the same for a difference and its minuend
//   ptr-compare      the same for a pointer sum and its base; a pointer
//                    check it does not prove is kept
//   signed-test      an unsigned sum only tested, as signed, for signed
//                    overflow (signed_add_overflows())
//   end-around-carry one's complement sums (SumIdioms.h)
//   rotate-fold      one's complement folds (SumIdioms.h)
//   end-inclusive    start + len - 1 tested against start, alone or through
//                    the data-flow proof (SumIdioms.h, WrapPaths.h)
//   serial-compare   (long)(a - b) < 0, ULONG_MAX / 2 >= a - b: the unsigned
//                    difference is only tested for its sign (time_after(),
//                    ULONG_CMP_GE(), RFC 1982), or a value reaches only such
//                    differences (SerialCompare.h)
//   add-back         (x - m) + m: the addition restores x exactly
//                    (ALIGN_DOWN())
//   carry-select     y = x - C; z = y + (y > x ? Zw : Zn): the wrap test picks
//                    corrections that make the pair exact (CarrySelect.h)
//   data-flow        guarded-use, bounds-and-wrap, mul-div, loop-counter,
//                    align-zero, sign-guard: every wrapped execution reaches
//                    the program's own handling before the value can do harm
//                    (WrapPaths.h)
//   modular          the value only reaches reductions modulo 2^k, k < N
//   caller-handled   a static helper only returns the value, and every
//                    caller handles the call's result as the operation's
//                    own (CallerHandled.h)
//
// A check whose condition is not one operation's, or whose operation
// cannot be followed (WrapTest.h), is kept before the rules that need it.
// The re-checks (signed-offset, signed-difference: SignedRecheck.h) and
// the pairs of circular-difference (CircularDifference.h) are decided by
// the pass (passes/WrapIdiom.cpp) after this matcher and the ignorelist,
// for the checks they keep: removal has priority.
//
//===----------------------------------------------------------------------===//
#include "idioms/IdiomMatcher.h"

#include "idioms/CallerHandled.h"
#include "idioms/CarrySelect.h"
#include "analysis/MemoryFacts.h"
#include "RemarkSchema.h"
#include "idioms/SerialCompare.h"
#include "idioms/SumIdioms.h"
#include "analysis/ValueEquivalence.h"
#include "idioms/WrapPaths.h"
#include "analysis/WrapTest.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/DemandedBits.h"
#include "llvm/Analysis/DomConditionCache.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/raw_ostream.h"

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

/// What the rules share over F's checks, each built on first use.
class MatcherFacts {
public:
  MatcherFacts(Function &F, const TargetLibraryInfo &TLI,
               const WrapIdiomOptions &Opts, Function *Original)
      : F(F), TLI(TLI), Opts(Opts), Original(Original) {
    Memory = std::make_unique<MemoryFacts>(
        F, TLI, [this]() -> const DominatorTree & { return dominators(); });
  }

  const DominatorTree &dominators() {
    if (!DT)
      DT = std::make_unique<DominatorTree>(F);
    return *DT;
  }

  const DomConditionCache &conditions() {
    if (!DC) {
      DC = std::make_unique<DomConditionCache>();
      for (BasicBlock &BB : F)
        if (auto *Br = dyn_cast<BranchInst>(BB.getTerminator()))
          if (Br->isConditional())
            DC->registerBranch(Br);
    }
    return *DC;
  }

  DemandedBits &demandedBits() {
    if (!DB) {
      dominators();
      AC = std::make_unique<AssumptionCache>(F);
      DB = std::make_unique<DemandedBits>(F, *AC, *DT);
    }
    return *DB;
  }

  MemoryFacts &memory() { return *Memory; }

  /// Follow Op's wrapped executions (WrapPaths.h).
  PathVerdict followWrapped(const WrappingOp &Op) {
    if (!Index)
      Index = std::make_unique<FunctionIndex>(F, dominators());
    return followWrappedPaths(Op, F, dominators(), *Index, Opts);
  }

  /// The original of F and what its callers are decided with, for
  /// caller-handled; null Original: F is itself a caller being read.
  Function *original() const { return Original; }
  const TargetLibraryInfo &libraryInfo() const { return TLI; }
  const WrapIdiomOptions &options() const { return Opts; }

private:
  Function &F;
  const TargetLibraryInfo &TLI;
  const WrapIdiomOptions &Opts;
  Function *Original;
  std::unique_ptr<DominatorTree> DT;
  std::unique_ptr<DomConditionCache> DC;
  std::unique_ptr<FunctionIndex> Index;
  std::unique_ptr<MemoryFacts> Memory; // uses DT: destroyed first
  std::unique_ptr<AssumptionCache> AC;
  std::unique_ptr<DemandedBits> DB; // uses DT and AC: destroyed first
};

IdiomMatcher::IdiomMatcher(Function &F, const TargetLibraryInfo &TLI,
                           const WrapIdiomOptions &Opts, Function *Original)
    : Facts(std::make_unique<MatcherFacts>(F, TLI, Opts, Original)) {}
IdiomMatcher::~IdiomMatcher() = default;

const DominatorTree &IdiomMatcher::dominators() { return Facts->dominators(); }

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
/// reset right after) or into an object freed before anything may read it
/// (`obj->stat += n; kfree(obj);`). A wrap nobody sees does no harm. Not
/// for pointers (dead-value's row).
bool neverRead(const WrappingOp &Op, MemoryFacts &Memory) {
  for (const Use &U : Op.Result->uses()) {
    const auto *I = cast<Instruction>(U.getUser());
    if (isInstrumentation(*I))
      continue;
    const auto *S = dyn_cast<StoreInst>(I);
    if (!S || U.getOperandNo() != 0 ||
        !(Memory.overwrittenBeforeRead(*S) || Memory.freedBeforeRead(*S)))
      return false;
  }
  return true;
}

/// What a rule sees of one check.
struct RuleInput {
  const OverflowCheck &C;
  /// The operation (WrapTest.h); null for a rule that runs on the check
  /// alone.
  WrappingOp *Op;
  MatcherFacts &Facts;
  /// The idiom proved: the rule's own, or the one the path walk proved.
  Idiom Kind;
  /// Why the last rule to say so did not prove the check: the reason to
  /// keep it when no rule does.
  std::string Why;
};

// -1UL, -sizeof(x), 0UL - 100UL: a constant as clang emitted it,
// subtracted from a literal 0, before promotion made constants of locals.
bool negConst(RuleInput &In) { return !In.C.Signed && In.C.ConstantOperand; }

bool deadValue(RuleInput &In) { return neverRead(*In.Op, In.Facts.memory()); }

/// add-compare, sub-compare, ptr-compare: which one is the row's.
bool comparedWithOperand(RuleInput &In) {
  return onlyUsedByWrapTests(*In.Op, In.Why);
}

// signed_add_overflows() (kernel/bpf/verifier.c): the sum is done in
// u64 where wrap is defined, and only tested, as s64, for signed
// overflow, the test chosen by the sign of b. The unsigned wrap is not
// what the program means; the signed one is exactly tested.
bool signedTest(RuleInput &In) {
  if (In.C.Signed)
    return false;
  WrappingOp AsSigned = *In.Op;
  AsSigned.Signed = true;
  std::string Why;
  return onlyUsedByWrapTests(AsSigned, Why);
}

bool endAroundCarry(RuleInput &In) { return isEndAroundCarry(*In.Op); }

bool rotateFold(RuleInput &In) {
  return isRotateFold(*In.Op, In.Facts.demandedBits());
}

bool endInclusive(RuleInput &In) {
  std::optional<WrappingOp> End = endInclusiveOf(*In.Op);
  if (!End)
    return false;
  std::string Why;
  if (onlyUsedByWrapTests(*End, Why))
    return true;
  PathVerdict PV = In.Facts.followWrapped(*End);
  return PV.Kind == Idiom::GuardedUse || PV.Kind == Idiom::BoundsAndWrap;
}

bool serialCompare(RuleInput &In) {
  return onlySignTested(*In.Op) || onlyInSerialDifferences(*In.Op);
}

bool addBack(RuleInput &In) { return isAddBack(*In.Op); }

bool carrySelect(RuleInput &In) {
  const DominatorTree &DT = In.Facts.dominators();
  return isCarrySelectSub(*In.Op, DT) || isCarrySelectAdd(*In.Op, DT);
}

/// The path walk: one of PathIdioms (WrapPaths.h), or the reason to keep.
bool dataFlow(RuleInput &In) {
  PathVerdict PV = In.Facts.followWrapped(*In.Op);
  In.Kind = PV.Kind;
  In.Why = std::move(PV.Reason);
  return PV.Kind != Idiom::None;
}

/// The helper only returns the value, and every caller handles the call's
/// result as the operation's own (CallerHandled.h).
bool callerHandled(RuleInput &In) {
  // Not static: the data-flow proof's reason (the value reaches 'ret')
  // stands, as for any function a caller elsewhere may call.
  Function *Helper = In.Facts.original();
  std::string Why;
  if (!Helper || !Helper->hasLocalLinkage() || !onlyReturned(*In.Op))
    return false;
  if (handledByEveryCaller(*In.Op, *Helper, In.Facts.libraryInfo(),
                           In.Facts.options(), Why))
    return true;
  In.Why = std::move(Why);
  return false;
}

bool modular(RuleInput &In) {
  unsigned Sinks = 0;
  unsigned N = In.Op->Result->getType()->getScalarSizeInBits();
  return onlyReducedModulo(In.Op->Result, N, 0, Sinks) && Sinks > 0;
}

/// The checks a rule runs on, a set of CheckOps.
constexpr unsigned opBit(CheckOp O) { return 1u << unsigned(O); }
constexpr unsigned AddOp = opBit(CheckOp::Add);
constexpr unsigned SubOp = opBit(CheckOp::Sub);
constexpr unsigned PtrOp = opBit(CheckOp::Ptr);
constexpr unsigned NegSub = opBit(CheckOp::Neg) | SubOp;
constexpr unsigned AddSub = AddOp | SubOp;
constexpr unsigned AddSubMul = AddSub | opBit(CheckOp::Mul);
constexpr unsigned Arith = AddSubMul | opBit(CheckOp::Neg);
constexpr CheckOp AllOps[] = {CheckOp::Add, CheckOp::Sub, CheckOp::Mul,
                              CheckOp::Neg, CheckOp::Ptr};

/// What a rule needs: the check alone, or its operation (wrappingOpOf()).
enum RuleNeeds { OnCheck, OnOperation };
/// What a check the rule runs on and does not prove goes to: the next
/// rule, or kept with the rule's reason.
enum RuleUnproven { Next, Keep };

struct Rule {
  /// The idiom it proves; None for the path walk (data-flow), which proves
  /// one of PathIdioms.
  Idiom Kind;
  /// The checks it runs on (opBit()s).
  unsigned Ops;
  RuleNeeds Needs;
  RuleUnproven Unproven;
  bool (*Proves)(RuleInput &In);
};

/// decide()'s rules, in the order it tries them: proofs overlap, and the
/// first to prove a check names it. IDIOMS.md's "Order of decision" and
/// this file's header list them in this order
/// (lit-tests/opt/rule-order.test).
// clang-format off
constexpr Rule Rules[] = {
    // idiom                ops     needs        unproven  proof
    {Idiom::NegConst,       NegSub, OnCheck,     Next,     negConst},
    {Idiom::DeadValue,      Arith,  OnOperation, Next,     deadValue},
    {Idiom::AddCompare,     AddOp,  OnOperation, Next,     comparedWithOperand},
    {Idiom::SubCompare,     SubOp,  OnOperation, Next,     comparedWithOperand},
    {Idiom::PtrCompare,     PtrOp,  OnOperation, Keep,     comparedWithOperand},
    {Idiom::SignedTest,     AddSub, OnOperation, Next,     signedTest},
    {Idiom::EndAroundCarry, Arith,  OnOperation, Next,     endAroundCarry},
    {Idiom::RotateFold,     Arith,  OnOperation, Next,     rotateFold},
    {Idiom::EndInclusive,   Arith,  OnOperation, Next,     endInclusive},
    {Idiom::SerialCompare,  Arith,  OnOperation, Next,     serialCompare},
    {Idiom::AddBack,        Arith,  OnOperation, Next,     addBack},
    {Idiom::CarrySelect,    Arith,  OnOperation, Next,     carrySelect},
    {Idiom::None,           Arith,  OnOperation, Next,     dataFlow},
    {Idiom::Modular,        Arith,  OnOperation, Next,     modular},
    {Idiom::CallerHandled, AddSubMul, OnOperation, Next,   callerHandled},
};
// clang-format on

StringRef ruleName(const Rule &R) {
  return R.Kind == Idiom::None ? "data-flow" : idiomName(R.Kind);
}

} // namespace

Decision IdiomMatcher::decide(const OverflowCheck &C) {
  Decision D;
  if (C.Combined || !C.arithmetic()) {
    D.Reason = "the check's condition could not be attributed to a single "
               "operation";
    return D;
  }
  std::optional<WrappingOp> Op;
  RuleInput In{C, nullptr, *Facts, Idiom::None, {}};
  for (const Rule &R : Rules) {
    if (!(R.Ops & opBit(C.Op)))
      continue;
    if (R.Needs == OnOperation && !Op) {
      Op = wrappingOpOf(C, D.Reason);
      if (!Op)
        return D;
      Op->DT = &Facts->dominators();
      Op->DC = &Facts->conditions();
      In.Op = &*Op;
    }
    In.Kind = R.Kind;
    if (R.Proves(In)) {
      D.Kind = In.Kind;
      return D;
    }
    if (R.Unproven == Keep) {
      D.Reason = std::move(In.Why);
      return D;
    }
  }
  D.Reason = std::move(In.Why);
  // update_rq_clock()'s `delta = now - clock; if (delta < 0) return;
  // clock += delta;`: say why the sign test is not enough, so that whoever
  // triages the report knows what an ignorelist entry has to justify.
  if (Op && signTestedAndUsed(*Op)) {
    unsigned N = Op->Result->getType()->getScalarSizeInBits();
    D.Reason = "the difference is sign-tested as in serial-number "
               "arithmetic, but also used: a wrap by 2^" +
               std::to_string(N - 1) +
               " or more passes the test and reaches that use";
  }
  return D;
}

Idiom IdiomMatcher::decideResult(WrappingOp Op, std::string &Why) {
  Op.DT = &Facts->dominators();
  Op.DC = &Facts->conditions();
  // The path walk only, not add-compare's "only compared with an addend":
  // that reads every such comparison as the wrap test whatever its side
  // does, and a caller's `if (e > lim)` with lim the addend is as often a
  // bound the wrapped end evades (the wrap oracle's helper family).
  PathVerdict PV = Facts->followWrapped(Op);
  Why = std::move(PV.Reason);
  return PV.Kind;
}

void printRules(raw_ostream &OS) {
  OS << "wrap-idiom: the rules of IdiomMatcher::decide(), in the order it "
        "tries them\n";
  unsigned N = 0;
  for (const Rule &R : Rules) {
    OS << ++N << ". " << ruleName(R) << " (";
    ListSeparator Comma;
    for (CheckOp O : AllOps)
      if (R.Ops & opBit(O))
        OS << Comma << checkOpName(O);
    OS << (R.Needs == OnCheck ? "; on the check alone" : "")
       << (R.Unproven == Keep ? "; keeps a check it does not prove" : "")
       << ")";
    if (R.Kind == Idiom::None) {
      OS << ":";
      for (Idiom I : PathIdioms)
        OS << ' ' << idiomName(I);
    }
    OS << '\n';
  }
  OS << "not decided here: the re-checks (passes/WrapIdiom.cpp), on the "
        "checks no rule proves:";
#define WRAP_IDIOM(Enum, Name, Shape, Proof)
#define WRAP_RECHECK(Enum, Name, Shape, Proof) OS << ' ' << Name;
#include "idioms/Idioms.def"
  OS << '\n';
}

} // namespace wrapidiom
