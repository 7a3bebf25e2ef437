//===- UseIdioms.cpp - Proofs from the uses of the wrapped value ----------===//
//
// Part of wrapidiom. See UseIdioms.h. The rows of Idioms.def whose proof is
// here: neg-const (on the check alone), dead-value (analysis/MemoryFacts.h),
// add-compare, sub-compare and ptr-compare (the value only compared with
// its operand, in the direction wrap flips), signed-test (an unsigned sum
// only tested, as signed, for signed overflow), modular (only reductions
// modulo 2^k, k < N, read it).
//
//===----------------------------------------------------------------------===//
#include "idioms/UseIdioms.h"

#include "analysis/MemoryFacts.h"
#include "idioms/Rules.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace wrapidiom {

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

namespace {

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

} // namespace

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

bool modular(RuleInput &In) {
  unsigned Sinks = 0;
  unsigned N = In.Op->Result->getType()->getScalarSizeInBits();
  return onlyReducedModulo(In.Op->Result, N, 0, Sinks) && Sinks > 0;
}

} // namespace wrapidiom
