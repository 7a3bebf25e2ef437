//===- OverflowCheck.cpp - Find the UBSan overflow checks clang emitted ---===//
//
// Part of wrapidiom. See OverflowCheck.h for the shapes recognised.
//
//===----------------------------------------------------------------------===//
#include "checks/OverflowCheck.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/LLVMContext.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace wrapidiom {

namespace {

/// clang's SanitizerHandler numbering, passed to llvm.ubsantrap. Identical
/// in clang 19 through 22 (checked by lit-tests/clang/trap-kinds.c).
std::optional<CheckOp> trapKindOp(uint64_t Kind) {
  switch (Kind) {
  case 0:
    return CheckOp::Add;
  case 12:
    return CheckOp::Mul;
  case 13:
    return CheckOp::Neg;
  case 19:
    return CheckOp::Ptr;
  case 21:
    return CheckOp::Sub;
  default:
    return std::nullopt;
  }
}

struct HandlerKind {
  CheckOp Op;
  CheckForm Form;
};

/// __ubsan_handle_<op>_overflow[_minimal][_abort|_preserve]
std::optional<HandlerKind> parseHandlerName(StringRef N) {
  if (!N.consume_front("__ubsan_handle_"))
    return std::nullopt;
  CheckOp Op;
  if (N.consume_front("add_overflow"))
    Op = CheckOp::Add;
  else if (N.consume_front("sub_overflow"))
    Op = CheckOp::Sub;
  else if (N.consume_front("mul_overflow"))
    Op = CheckOp::Mul;
  else if (N.consume_front("negate_overflow"))
    Op = CheckOp::Neg;
  else if (N.consume_front("pointer_overflow"))
    Op = CheckOp::Ptr;
  else
    return std::nullopt;
  if (N.empty())
    return HandlerKind{Op, CheckForm::Recover};
  if (N == "_abort")
    return HandlerKind{Op, CheckForm::Abort};
  if (N == "_minimal")
    return HandlerKind{Op, CheckForm::Minimal};
  if (N == "_minimal_abort")
    return HandlerKind{Op, CheckForm::MinimalAbort};
  if (N == "_minimal_preserve")
    return HandlerKind{Op, CheckForm::MinimalPreserve};
  return std::nullopt;
}

bool hasNoSanitize(const Instruction &I) {
  return I.getMetadata(LLVMContext::MD_nosanitize) != nullptr;
}

/// If BB is a UBSan overflow handler block, return the reporting call and
/// what it reports. Every instruction in it must be !nosanitize.
std::optional<std::pair<CallBase *, HandlerKind>>
matchHandlerBlock(BasicBlock &BB) {
  std::optional<std::pair<CallBase *, HandlerKind>> Found;
  for (Instruction &I : BB) {
    if (isa<DbgInfoIntrinsic>(I))
      continue;
    if (!hasNoSanitize(I))
      return std::nullopt;
    auto *Call = dyn_cast<CallBase>(&I);
    if (!Call)
      continue;
    Function *Callee = Call->getCalledFunction();
    if (!Callee)
      return std::nullopt;
    std::optional<HandlerKind> Kind;
    if (Callee->getIntrinsicID() == Intrinsic::ubsantrap) {
      auto *KindArg = dyn_cast<ConstantInt>(Call->getArgOperand(0));
      if (!KindArg)
        return std::nullopt;
      if (std::optional<CheckOp> Op = trapKindOp(KindArg->getZExtValue()))
        Kind = HandlerKind{*Op, CheckForm::Trap};
    } else {
      Kind = parseHandlerName(Callee->getName());
    }
    if (!Kind || Found) // not an overflow handler, or two reports in one block
      return std::nullopt;
    Found = std::make_pair(Call, *Kind);
  }
  return Found;
}

bool opMatchesIntrinsic(CheckOp Op, Intrinsic::ID ID, bool &Signed) {
  switch (ID) {
  case Intrinsic::sadd_with_overflow:
  case Intrinsic::ssub_with_overflow:
  case Intrinsic::smul_with_overflow:
    Signed = true;
    break;
  case Intrinsic::uadd_with_overflow:
  case Intrinsic::usub_with_overflow:
  case Intrinsic::umul_with_overflow:
    Signed = false;
    break;
  default:
    return false;
  }
  switch (Op) {
  case CheckOp::Add:
    return ID == Intrinsic::sadd_with_overflow ||
           ID == Intrinsic::uadd_with_overflow;
  case CheckOp::Sub:
  case CheckOp::Neg:
    return ID == Intrinsic::ssub_with_overflow ||
           ID == Intrinsic::usub_with_overflow;
  case CheckOp::Mul:
    return ID == Intrinsic::smul_with_overflow ||
           ID == Intrinsic::umul_with_overflow;
  case CheckOp::Ptr:
    return false;
  }
  return false;
}

/// Walk the branch condition through the !nosanitize boolean glue clang
/// emits (xor true, and, or, select) and collect its leaves.
void collectConditionLeaves(Value *V, SmallVectorImpl<Value *> &Leaves,
                            SmallPtrSetImpl<Value *> &Seen) {
  if (!Seen.insert(V).second)
    return;
  auto *I = dyn_cast<Instruction>(V);
  if (I && hasNoSanitize(*I) && V->getType()->isIntegerTy(1)) {
    if (I->getOpcode() == Instruction::Xor ||
        I->getOpcode() == Instruction::And ||
        I->getOpcode() == Instruction::Or) {
      collectConditionLeaves(I->getOperand(0), Leaves, Seen);
      collectConditionLeaves(I->getOperand(1), Leaves, Seen);
      return;
    }
    if (auto *Sel = dyn_cast<SelectInst>(I)) {
      collectConditionLeaves(Sel->getCondition(), Leaves, Seen);
      collectConditionLeaves(Sel->getTrueValue(), Leaves, Seen);
      collectConditionLeaves(Sel->getFalseValue(), Leaves, Seen);
      return;
    }
  }
  Leaves.push_back(V);
}

/// -fsanitize-skip-hot-cutoff / -ubsan-guard-checks guard a check with
/// llvm.allow.ubsan.check; that leaf is neutral.
bool isNeutralLeaf(Value *V) {
  if (isa<Constant>(V))
    return true;
  if (auto *II = dyn_cast<IntrinsicInst>(V))
    return II->getIntrinsicID() == Intrinsic::allow_ubsan_check;
  return false;
}

bool isZero(const Value *V) {
  const auto *CI = dyn_cast<ConstantInt>(V);
  return CI && CI->isZero();
}

/// Integer checks: exactly one *.with.overflow bit, the rest neutral.
void attributeIntegerCheck(OverflowCheck &C) {
  SmallVector<Value *, 4> Leaves;
  SmallPtrSet<Value *, 8> Seen;
  collectConditionLeaves(C.Branch->getCondition(), Leaves, Seen);
  for (Value *Leaf : Leaves) {
    if (isNeutralLeaf(Leaf))
      continue;
    WithOverflowInst *II = nullptr;
    bool Signed = false;
    if (!match(Leaf, m_ExtractValue<1>(m_WithOverflowInst(II))) ||
        !opMatchesIntrinsic(C.Op, II->getIntrinsicID(), Signed) ||
        (C.Arith && C.Arith != II)) {
      C.Combined = true;
      continue;
    }
    C.Arith = II;
    C.Signed = Signed;
  }
  // Unary minus is emitted as 0 - x; `0UL - 100UL` (srcutree.h's
  // SRCU_GP_SEQ_INITIAL_VAL) is the same negation of a constant, spelled
  // as a subtraction. Recorded as clang emitted it: after promotion
  // `x = 100; 0UL - x` has constant operands too.
  if (C.Arith && (C.Op == CheckOp::Neg || C.Op == CheckOp::Sub)) {
    bool FromZero = isZero(C.Arith->getArgOperand(0));
    if (C.Op == CheckOp::Neg && !FromZero)
      C.Combined = true;
    C.ConstantOperand =
        FromZero && isa<ConstantInt>(C.Arith->getArgOperand(1));
  }
  if (!C.Arith)
    C.Combined = true;
}

/// `icmp Pred (add (ptrtoint Base), Off), (ptrtoint Base)`: the computed
/// address against its base.
// What m_ICmp binds: a CmpPredicate since LLVM 20.
#if LLVM_VERSION_MAJOR >= 20
using ICmpPredicate = CmpPredicate;
#else
using ICmpPredicate = ICmpInst::Predicate;
#endif

bool isAddressCompare(const Value *V, const Value *Base,
                      CmpInst::Predicate Pred) {
  ICmpPredicate P;
  return match(V, m_ICmp(P, m_c_Add(m_PtrToInt(m_Specific(Base)), m_Value()),
                         m_PtrToInt(m_Specific(Base)))) &&
         P == Pred && hasNoSanitize(*cast<Instruction>(V));
}

/// Find, among the !nosanitize conjunctions of a pointer check's condition,
/// the comparison of the computed address with its base (clang's
/// EmitCheckedInBoundsGEP): `uge` for an unsigned offset, `ule` for an
/// unsigned offset subtracted, `select (off >= 0), uge, ult` for a signed
/// one. Without it the check's wrap part is not known and nothing folds it.
void findAddressTest(OverflowCheck &C, const Value *Base) {
  SmallVector<Value *, 8> Work{C.Branch->getCondition()};
  SmallPtrSet<Value *, 16> Seen;
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !Seen.insert(V).second || !hasNoSanitize(*I))
      continue;
    if (auto *Sel = dyn_cast<SelectInst>(I)) {
      // select (off >= 0), (addr uge base), (addr ult base)
      ICmpPredicate Sign;
      Value *IfNonNeg, *IfNeg;
      if (match(Sel, m_Select(m_ICmp(Sign, m_Value(), m_Zero()),
                              m_Value(IfNonNeg), m_Value(IfNeg))) &&
          Sign == CmpInst::ICMP_SGE &&
          isAddressCompare(IfNonNeg, Base, CmpInst::ICMP_UGE) &&
          isAddressCompare(IfNeg, Base, CmpInst::ICMP_ULT)) {
        C.PtrAddressTest = Sel;
        C.PtrSignedOffset = true;
        return;
      }
      continue;
    }
    for (CmpInst::Predicate Pred : {CmpInst::ICMP_UGE, CmpInst::ICMP_ULE})
      if (isAddressCompare(I, Base, Pred)) {
        C.PtrAddressTest = I;
        C.PtrSubtraction = Pred == CmpInst::ICMP_ULE;
        return;
      }
    // Only through conjunctions: folding the address part to true is then
    // exact for the rest of the condition (under an `or` it would pass
    // the other parts too).
    if (I->getOpcode() == Instruction::And)
      for (Value *Op : I->operands())
        Work.push_back(Op);
  }
}

/// Pointer checks: clang emits the inbounds GEP, then the !nosanitize offset
/// arithmetic on ptrtoint(base). The GEP is the nearest instruction before
/// that sequence, and its base is the pointer every ptrtoint converts.
void attributePointerCheck(OverflowCheck &C) {
  Value *Base = nullptr;
  SmallVector<Instruction *, 16> Work{};
  SmallPtrSet<Instruction *, 16> Seen;
  if (auto *Cond = dyn_cast<Instruction>(C.Branch->getCondition()))
    Work.push_back(Cond);
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    if (!Seen.insert(I).second || !hasNoSanitize(*I))
      continue;
    if (auto *P2I = dyn_cast<PtrToIntInst>(I)) {
      Value *P = P2I->getPointerOperand();
      if (Base && Base != P) {
        C.Combined = true;
        return;
      }
      Base = P;
      continue;
    }
    for (Value *Op : I->operands())
      if (auto *OpI = dyn_cast<Instruction>(Op))
        Work.push_back(OpI);
  }
  if (Base) {
    for (Instruction *I = C.Branch->getPrevNode(); I; I = I->getPrevNode()) {
      if (hasNoSanitize(*I) || isa<DbgInfoIntrinsic>(I))
        continue;
      auto *GEP = dyn_cast<GetElementPtrInst>(I);
      if (GEP && GEP->getPointerOperand() == Base)
        C.GEP = GEP;
      break;
    }
  }
  if (!C.GEP) {
    C.Combined = true;
    return;
  }
  findAddressTest(C, Base);
}

StringRef stringFromGlobal(const Value *V) {
  const auto *GV = dyn_cast_or_null<GlobalVariable>(V);
  if (!GV || !GV->hasInitializer())
    return {};
  const auto *CDA = dyn_cast<ConstantDataArray>(GV->getInitializer());
  if (!CDA || !CDA->isCString())
    return {};
  return CDA->getAsCString();
}

/// Handler data starts with {ptr file, i32 line, i32 column}; overflow data
/// follows it with a TypeDescriptor pointer {i16 kind, i16 info, name}.
const ConstantStruct *dataInitializer(const GlobalVariable *Data) {
  if (!Data || !Data->hasInitializer())
    return nullptr;
  return dyn_cast<ConstantStruct>(Data->getInitializer());
}

} // namespace

Instruction *OverflowCheck::arithmetic() const {
  if (Arith)
    return Arith;
  return GEP;
}

StringRef OverflowCheck::sanitizer() const {
  if (Op == CheckOp::Ptr)
    return "pointer-overflow";
  return Signed ? "signed-integer-overflow" : "unsigned-integer-overflow";
}

StringRef checkOpName(CheckOp Op) {
  switch (Op) {
  case CheckOp::Add:
    return "add";
  case CheckOp::Sub:
    return "sub";
  case CheckOp::Mul:
    return "mul";
  case CheckOp::Neg:
    return "negate";
  case CheckOp::Ptr:
    return "pointer";
  }
  return "?";
}

StringRef formName(CheckForm Form) {
  switch (Form) {
  case CheckForm::Recover:
    return "recover";
  case CheckForm::Abort:
    return "abort";
  case CheckForm::Minimal:
    return "minimal";
  case CheckForm::MinimalAbort:
    return "minimal-abort";
  case CheckForm::MinimalPreserve:
    return "minimal-preserve";
  case CheckForm::Trap:
    return "trap";
  }
  return "?";
}

std::optional<SourceLoc> OverflowCheck::sourceLoc() const {
  const ConstantStruct *Init = dataInitializer(Data);
  if (!Init || Init->getNumOperands() < 1)
    return std::nullopt;
  const auto *Loc = dyn_cast<ConstantStruct>(Init->getOperand(0));
  if (!Loc || Loc->getNumOperands() != 3)
    return std::nullopt;
  const auto *Line = dyn_cast<ConstantInt>(Loc->getOperand(1));
  const auto *Col = dyn_cast<ConstantInt>(Loc->getOperand(2));
  StringRef File = stringFromGlobal(Loc->getOperand(0));
  if (!Line || !Col || File.empty())
    return std::nullopt;
  return SourceLoc{File.str(), unsigned(Line->getZExtValue()),
                   unsigned(Col->getZExtValue())};
}

StringRef OverflowCheck::typeString() const {
  const ConstantStruct *Init = dataInitializer(Data);
  if (!Init || Init->getNumOperands() < 2)
    return {};
  const auto *TD = dyn_cast<GlobalVariable>(Init->getOperand(1));
  if (!TD || !TD->hasInitializer())
    return {};
  const auto *TDInit = dyn_cast<ConstantStruct>(TD->getInitializer());
  if (!TDInit || TDInit->getNumOperands() != 3)
    return {};
  const auto *Name = dyn_cast<ConstantDataArray>(TDInit->getOperand(2));
  if (!Name || !Name->isCString())
    return {};
  return Name->getAsCString();
}

bool isUBSanRuntimeCall(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return false;
  if (Callee->getIntrinsicID() == Intrinsic::ubsantrap)
    return true;
  return Callee->getName().starts_with("__ubsan_handle_");
}

bool isInertCall(const CallBase &Call) {
  if (isUBSanRuntimeCall(Call))
    return true;
  const auto *II = dyn_cast<IntrinsicInst>(&Call);
  if (!II)
    return false;
  switch (II->getIntrinsicID()) {
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::assume:
  case Intrinsic::expect:
  case Intrinsic::allow_ubsan_check:
  case Intrinsic::dbg_value:
  case Intrinsic::dbg_declare:
  case Intrinsic::dbg_label:
    return true;
  default:
    return false;
  }
}

bool isInstrumentation(const Instruction &I) {
  if (!hasNoSanitize(I) || isa<WithOverflowInst>(I))
    return false;
  const WithOverflowInst *WO;
  if (match(&I, m_ExtractValue<0>(m_WithOverflowInst(WO))))
    return false; // the checked result: the program's value
  return true;
}

Instruction *onlyProgramUser(const Value *V) {
  const Instruction *Found = nullptr;
  for (const User *U : V->users()) {
    const auto *I = dyn_cast<Instruction>(U);
    if (!I)
      return nullptr;
    if (isInstrumentation(*I))
      continue;
    if (Found && Found != I)
      return nullptr;
    Found = I;
  }
  return const_cast<Instruction *>(Found);
}

SmallVector<OverflowCheck, 8> findOverflowChecks(Function &F) {
  SmallVector<OverflowCheck, 8> Checks;
  for (BasicBlock &BB : F) {
    auto *Br = dyn_cast<BranchInst>(BB.getTerminator());
    if (!Br || !Br->isConditional() || !hasNoSanitize(*Br))
      continue;
    for (unsigned Fail = 0; Fail < 2; ++Fail) {
      BasicBlock *Succ = Br->getSuccessor(Fail);
      if (Succ == Br->getSuccessor(1 - Fail))
        break;
      auto Handler = matchHandlerBlock(*Succ);
      if (!Handler)
        continue;
      OverflowCheck C;
      C.Branch = Br;
      C.HandlerBlock = Succ;
      C.Handler = Handler->first;
      C.Op = Handler->second.Op;
      C.Form = Handler->second.Form;
      C.PassSuccessor = 1 - Fail;
      if (C.Form != CheckForm::Trap && C.Handler->arg_size() > 0)
        C.Data = dyn_cast<GlobalVariable>(
            C.Handler->getArgOperand(0)->stripPointerCasts());
      if (C.Op == CheckOp::Ptr)
        attributePointerCheck(C);
      else
        attributeIntegerCheck(C);
      Checks.push_back(C);
      break;
    }
  }
  return Checks;
}

} // namespace wrapidiom
