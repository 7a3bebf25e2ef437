//===- ConversionFacts.cpp - C signedness from clang's conversion checks --===//
//
// Part of wrapidiom. See ConversionFacts.h.
//
//===----------------------------------------------------------------------===//
#include "analysis/ConversionFacts.h"

#include "checks/OverflowCheck.h"

#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

#include <memory>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace wrapidiom {

namespace {

/// clang's SanitizerHandler number of ImplicitConversion, passed to
/// llvm.ubsantrap (clang 19 through 22; lit-tests/clang/trap-kinds.c).
constexpr uint64_t ImplicitConversionTrap = 7;

bool isConversionReport(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return false;
  if (Callee->getIntrinsicID() == Intrinsic::ubsantrap) {
    const auto *Kind = dyn_cast<ConstantInt>(Call.getArgOperand(0));
    return Kind && Kind->getZExtValue() == ImplicitConversionTrap;
  }
  StringRef N = Callee->getName();
  if (!N.consume_front("__ubsan_handle_implicit_conversion"))
    return false;
  return N.empty() || N == "_abort" || N == "_minimal" ||
         N == "_minimal_abort" || N == "_minimal_preserve";
}

/// A block of !nosanitize instructions that reports one implicit
/// conversion.
/// The implicit-conversion reports of a handler block, which reports
/// nothing else; 0 if it is no such block. Two checks of one conversion
/// (-fsanitize-merge, or a signed narrowing's truncation and sign) may
/// share one block.
unsigned conversionReports(const BasicBlock &BB) {
  unsigned Reports = 0;
  for (const Instruction &I : BB) {
    if (isa<DbgInfoIntrinsic>(I))
      continue;
    if (!I.hasMetadata(LLVMContext::MD_nosanitize))
      return 0;
    if (const auto *Call = dyn_cast<CallBase>(&I)) {
      if (!isConversionReport(*Call))
        return 0;
      ++Reports;
    }
  }
  return Reports;
}

/// `icmp eq i1 %neg, false` (signed -> unsigned) or `icmp eq i1 false,
/// %neg` (unsigned -> signed), %neg = `icmp slt %v, 0`, all !nosanitize.
bool matchSignChange(Value *Cond, ConversionCheck &CC) {
  auto *Eq = dyn_cast<ICmpInst>(Cond);
  if (!Eq || Eq->getPredicate() != ICmpInst::ICMP_EQ ||
      !Eq->hasMetadata(LLVMContext::MD_nosanitize))
    return false;
  bool FalseLeft = match(Eq->getOperand(0), m_Zero());
  bool FalseRight = match(Eq->getOperand(1), m_Zero());
  if (FalseLeft == FalseRight)
    return false; // both signed, or two signs compared: no direction
  auto *Neg = dyn_cast<ICmpInst>(Eq->getOperand(FalseLeft ? 1 : 0));
  Value *V;
  if (!Neg || !Neg->hasMetadata(LLVMContext::MD_nosanitize) ||
      !match(Neg, m_SpecificICmp(ICmpInst::ICMP_SLT, m_Value(V), m_Zero())))
    return false;
  CC.Checked = V;
  CC.ToSigned = FalseLeft;
  return true;
}


/// An unsigned add, sub, mul or negation whose overflow the sanitizers
/// check.
WithOverflowInst *uncheckedSignArith(Value *V) {
  auto *WO = dyn_cast_or_null<WithOverflowInst>(V);
  if (!WO || WO->isSigned())
    return nullptr;
  return WO;
}

/// signed -> unsigned: the checked value (or its sext, when the
/// conversion widens) is an operand of the consuming operation.
void readOperandFact(const ConversionCheck &CC, SignFactMap &Facts) {
  Value *V = CC.Checked;
  Instruction *User = onlyProgramUser(V);
  if (User && isa<SExtInst>(User)) {
    V = User;
    User = onlyProgramUser(User);
  }
  WithOverflowInst *WO = uncheckedSignArith(User);
  if (!WO)
    return;
  for (unsigned K = 0; K < 2; ++K)
    if (WO->getArgOperand(K) == V)
      Facts[WO].OperandSigned[K] = true;
}

/// The uses of V by the program (not by a check).
SmallVector<Instruction *, 2> programUsers(Value *V) {
  SmallVector<Instruction *, 2> Users;
  for (User *U : V->users())
    if (auto *I = dyn_cast<Instruction>(U); I && !isInstrumentation(*I) &&
                                            !is_contained(Users, I))
      Users.push_back(I);
  return Users;
}

/// unsigned -> signed: the checked value is the operation's result (or its
/// truncation, when the conversion narrows), consumed as signed: by one
/// expression, or by an assignment's store and its value (`while ((d -= u)
/// > 0)`), every use after the conversion.
void readResultFact(const ConversionCheck &CC, SignFactMap &Facts,
                    function_ref<const DominatorTree &()> DT) {
  Value *V = CC.Checked;
  SmallVector<Instruction *, 2> Users = programUsers(V);
  if (Users.empty())
    return;
  if (Users.size() > 1) {
    BasicBlock *After = CC.Branch->getSuccessor(CC.PassSuccessor);
    if (!all_of(Users, [&](Instruction *U) {
          return DT().dominates(After, U->getParent());
        }))
      return;
  }
  if (auto *T = dyn_cast<TruncInst>(V)) {
    if (onlyProgramUser(T->getOperand(0)) != T)
      return;
    V = T->getOperand(0);
  }
  WithOverflowInst *WO;
  if (!match(V, m_ExtractValue<0>(m_WithOverflowInst(WO))) ||
      !uncheckedSignArith(WO))
    return;
  SignFacts &F = Facts[WO];
  F.ResultSigned = true;
  // `s -= u`: clang checks only the conversion back to the left side's
  // type; the left side is the operand loaded from where the signed result
  // is stored.
  for (Instruction *U : Users) {
    auto *St = dyn_cast<StoreInst>(U);
    if (!St || St->getValueOperand() != CC.Checked)
      continue;
    for (unsigned K = 0; K < 2; ++K) {
      auto *Ld = dyn_cast<LoadInst>(WO->getArgOperand(K));
      if (Ld && Ld->getPointerOperand() == St->getPointerOperand() &&
          Ld->getType() == St->getValueOperand()->getType() &&
          onlyProgramUser(Ld) == WO)
        F.OperandSigned[K] = true;
    }
  }
}

} // namespace

SmallVector<ConversionCheck, 8> findConversionChecks(Function &F) {
  SmallVector<ConversionCheck, 8> Checks;
  for (BasicBlock &BB : F) {
    auto *Br = dyn_cast<BranchInst>(BB.getTerminator());
    if (!Br || !Br->isConditional() ||
        !Br->hasMetadata(LLVMContext::MD_nosanitize) ||
        Br->getSuccessor(0) == Br->getSuccessor(1))
      continue;
    // The handler is reached when the check fails: the second successor.
    BasicBlock *Handler = Br->getSuccessor(1);
    unsigned Reports = conversionReports(*Handler);
    if (!Reports)
      continue;
    ConversionCheck CC;
    CC.Branch = Br;
    CC.HandlerBlock = Handler;
    CC.PassSuccessor = 0;
    // A fact needs one sign-change report on a condition of the known
    // form. clang folds the check of a constant (`c ? a - b : 0`) to `br i1
    // true`: it cannot fire and says nothing; a signed -> signed narrowing
    // (`(src < 0) xor (dst < 0)`, the int passed as an s16) and a block
    // shared by two reports say nothing of an unsigned operation either.
    // Each is still a check, removed with the others.
    if (Reports == 1)
      matchSignChange(Br->getCondition(), CC);
    Checks.push_back(CC);
  }
  return Checks;
}

SignFactMap readSignFacts(ArrayRef<ConversionCheck> Checks) {
  SignFactMap Facts;
  std::unique_ptr<DominatorTree> Dom; // only for values used twice
  auto DT = [&]() -> const DominatorTree & {
    if (!Dom)
      Dom = std::make_unique<DominatorTree>(
          *Checks.front().Branch->getFunction());
    return *Dom;
  };
  for (const ConversionCheck &CC : Checks) {
    if (!CC.Checked)
      continue; // folded by clang: cannot fire, says nothing
    if (CC.ToSigned)
      readResultFact(CC, Facts, DT);
    else
      readOperandFact(CC, Facts);
  }
  return Facts;
}

bool removeConversionChecks(ArrayRef<ConversionCheck> Checks) {
  SmallVector<BasicBlock *, 8> Handlers;
  for (const ConversionCheck &CC : Checks) {
    BranchInst *Br = CC.Branch;
    Value *Cond = Br->getCondition();
    CC.HandlerBlock->removePredecessor(Br->getParent());
    BranchInst::Create(Br->getSuccessor(CC.PassSuccessor), Br->getIterator());
    Br->eraseFromParent();
    RecursivelyDeleteTriviallyDeadInstructions(Cond);
    if (!is_contained(Handlers, CC.HandlerBlock))
      Handlers.push_back(CC.HandlerBlock);
  }
  for (BasicBlock *H : Handlers)
    if (pred_empty(H))
      DeleteDeadBlock(H);
  return !Checks.empty();
}

} // namespace wrapidiom
