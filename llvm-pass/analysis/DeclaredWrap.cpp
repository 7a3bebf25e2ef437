//===- DeclaredWrap.cpp - Declarations whose arithmetic wraps by design ---===//
//
// Part of wrapidiom. See DeclaredWrap.h.
//
//===----------------------------------------------------------------------===//
#include "analysis/DeclaredWrap.h"

#include "analysis/PromotedFunction.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace wrapidiom {

namespace {

/// Is II an llvm.{ptr,var}.annotation whose string is ours?
bool isWrapsAnnotation(const IntrinsicInst &II) {
  if (II.getIntrinsicID() != Intrinsic::ptr_annotation &&
      II.getIntrinsicID() != Intrinsic::var_annotation)
    return false;
  const auto *GV =
      dyn_cast<GlobalVariable>(II.getArgOperand(1)->stripPointerCasts());
  if (!GV || !GV->hasInitializer())
    return false;
  const auto *Str = dyn_cast<ConstantDataSequential>(GV->getInitializer());
  return Str && Str->isCString() && Str->getAsCString() == WrapsAnnotation;
}

/// The loads through Ptr, directly or through element addresses of it (a
/// wrapping array field).
void collectLoads(Value *Ptr, SmallVectorImpl<LoadInst *> &Out,
                  unsigned Depth) {
  if (Depth > 4)
    return;
  for (User *U : Ptr->users()) {
    if (auto *LI = dyn_cast<LoadInst>(U)) {
      if (!is_contained(Out, LI))
        Out.push_back(LI);
    } else if (auto *GEP = dyn_cast<GetElementPtrInst>(U);
               GEP && GEP->getPointerOperand() == Ptr) {
      collectLoads(GEP, Out, Depth + 1);
    }
  }
}

/// The globals of F's module whose definitions carry our annotation: the
/// module's llvm.global.annotations (read, not changed: it is the
/// module's, and its section is never emitted). A global only declared
/// here carries none (clang records a definition's annotation alone).
SmallVector<GlobalVariable *, 4> annotatedGlobals(const Module &M) {
  SmallVector<GlobalVariable *, 4> Out;
  const auto *GA = M.getNamedGlobal("llvm.global.annotations");
  if (!GA || !GA->hasInitializer())
    return Out;
  const auto *Arr = dyn_cast<ConstantArray>(GA->getInitializer());
  if (!Arr)
    return Out;
  for (const Use &E : Arr->operands()) {
    const auto *Entry = dyn_cast<ConstantStruct>(E.get());
    if (!Entry || Entry->getNumOperands() < 2)
      continue;
    auto *GV = dyn_cast<GlobalVariable>(
        Entry->getOperand(0)->stripPointerCasts());
    const auto *Name =
        dyn_cast<GlobalVariable>(Entry->getOperand(1)->stripPointerCasts());
    const auto *Str =
        Name && Name->hasInitializer()
            ? dyn_cast<ConstantDataSequential>(Name->getInitializer())
            : nullptr;
    if (GV && Str && Str->isCString() && Str->getAsCString() == WrapsAnnotation)
      Out.push_back(GV);
  }
  return Out;
}

/// Route every use of L through a copy of it, which promotion keeps (it
/// replaces L by the value stored, used elsewhere too); return the copy.
Instruction *mark(LoadInst *L) {
  IRBuilder<> B(L->getParent(), std::next(L->getIterator()));
  CallInst *M = B.CreateIntrinsic(Intrinsic::ssa_copy, {L->getType()}, {L},
                                  nullptr, L->getName() + ".declared");
  L->replaceUsesWithIf(M, [M](Use &U) { return U.getUser() != M; });
  return M;
}

bool isMark(const Value *V) {
  const auto *II = dyn_cast<IntrinsicInst>(V);
  return II && II->getIntrinsicID() == Intrinsic::ssa_copy;
}

} // namespace

DeclaredWrap::~DeclaredWrap() { removeMarks(); }

void DeclaredWrap::removeMarks() {
  for (WeakVH &V : Found)
    if (V && isMark(&*V)) {
      auto *M = cast<IntrinsicInst>(&*V);
      M->replaceAllUsesWith(M->getArgOperand(0));
      M->eraseFromParent();
    }
  Found.clear();
  Declared.clear();
  Memo.clear();
}

void DeclaredWrap::dropMarks(Function &F) {
  for (BasicBlock &BB : F)
    for (Instruction &I : make_early_inc_range(BB))
      if (isMark(&I)) {
        I.replaceAllUsesWith(cast<IntrinsicInst>(I).getArgOperand(0));
        I.eraseFromParent();
      }
}

bool DeclaredWrap::collect(Function &F) {
  SmallVector<LoadInst *, 16> Loads;
  // Globals defined here and declared to wrap: their loads in F.
  for (GlobalVariable *GV : annotatedGlobals(*F.getParent()))
    for (User *U : GV->users())
      if (auto *I = dyn_cast<Instruction>(U); I && I->getFunction() == &F) {
        if (auto *LI = dyn_cast<LoadInst>(I); LI && !is_contained(Loads, LI))
          Loads.push_back(LI);
        else if (auto *GEP = dyn_cast<GetElementPtrInst>(I);
                 GEP && GEP->getPointerOperand() == GV)
          collectLoads(GEP, Loads, 0);
      }
  SmallVector<IntrinsicInst *, 8> Annotations;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *II = dyn_cast<IntrinsicInst>(&I); II && isWrapsAnnotation(*II))
        Annotations.push_back(II);
  for (IntrinsicInst *II : Annotations) {
    if (II->getIntrinsicID() == Intrinsic::ptr_annotation) {
      // A field's address: what is loaded through it is the field's value.
      collectLoads(II, Loads, 0);
      Value *Ptr = II->getArgOperand(0);
      II->replaceAllUsesWith(Ptr);
    } else {
      // A local's or parameter's slot: what is loaded from it.
      collectLoads(II->getArgOperand(0), Loads, 4);
    }
    II->eraseFromParent();
  }
  for (LoadInst *L : Loads)
    Found.push_back(mark(L));
  return !Annotations.empty();
}

void DeclaredWrap::mapTo(const PromotedFunction &P) {
  Declared.clear();
  Memo.clear();
  for (const WeakVH &V : Found)
    if (V)
      if (const Value *M = P.map<Value>(&*V))
        Declared.insert(M);
}

bool DeclaredWrap::isWrapping(const Value *V) const {
  return !Declared.empty() && wrapping(V, 0);
}

bool DeclaredWrap::wrapping(const Value *V, unsigned Depth) const {
  if (Declared.count(V))
    return true;
  if (Depth > 16 || isa<Constant>(V) || !isa<Instruction>(V))
    return false;
  auto It = Memo.find(V);
  if (It != Memo.end())
    return It->second;
  Memo[V] = false; // a cycle through phis proves nothing
  bool W = false;
  const WithOverflowInst *WO;
  const auto *I = cast<Instruction>(V);
  if (match(V, m_ExtractValue<0>(m_WithOverflowInst(WO)))) {
    W = wrapping(WO->getLHS(), Depth + 1) || wrapping(WO->getRHS(), Depth + 1);
  } else if (isa<PHINode>(I) || isa<SelectInst>(I)) {
    // Every value it may take wraps by declaration (constants aside).
    unsigned First = isa<SelectInst>(I) ? 1 : 0;
    bool Any = false, All = true;
    for (unsigned K = First; K < I->getNumOperands(); ++K) {
      const Value *In = I->getOperand(K);
      if (isa<Constant>(In))
        continue;
      bool InW = wrapping(In, Depth + 1);
      Any |= InW;
      All &= InW;
    }
    W = Any && All;
  } else {
    switch (I->getOpcode()) {
    case Instruction::Add:
    case Instruction::Sub:
    case Instruction::Mul:
    case Instruction::And:
    case Instruction::Or:
    case Instruction::Xor:
      W = wrapping(I->getOperand(0), Depth + 1) ||
          wrapping(I->getOperand(1), Depth + 1);
      break;
    case Instruction::Shl:
    case Instruction::Trunc:
    case Instruction::Freeze:
    case Instruction::PtrToInt: // a pointer declared to wrap, as an address
      W = wrapping(I->getOperand(0), Depth + 1);
      break;
    default:
      break;
    }
  }
  Memo[V] = W;
  return W;
}

} // namespace wrapidiom
