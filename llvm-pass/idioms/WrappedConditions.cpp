//===- WrappedConditions.cpp - Conditions every wrapped run answers alike -===//
//
// Part of wrapidiom. See WrappedConditions.h.
//
//===----------------------------------------------------------------------===//
#include "idioms/WrappedConditions.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace wrapidiom {

namespace {
/// A few levels of && and || are what code writes; deeper is not followed.
constexpr unsigned MaxDepth = 6;
} // namespace

std::optional<WrappedConditions::Answer>
WrappedConditions::answer(const Value *V, LeafFn Leaf, unsigned Depth) const {
  if (std::optional<Answer> A = known(V))
    return A;
  if (!V->getType()->isIntegerTy(1) || Depth > MaxDepth)
    return std::nullopt;
  if (const auto *C = dyn_cast<ConstantInt>(V))
    return Answer{C->isOne(), false};
  auto Of = [&](const Value *X) { return answer(X, Leaf, Depth + 1); };
  const Value *X, *Y;
  if (const auto *Cmp = dyn_cast<ICmpInst>(V)) {
    // `ok != 0` of a boolean kept in an int (`int ok = a && b;`).
    if (Cmp->isEquality() && match(Cmp->getOperand(1), m_Zero()) &&
        match(Cmp->getOperand(0), m_ZExt(m_Value(X))) &&
        X->getType()->isIntegerTy(1)) {
      bool Ne = Cmp->getPredicate() == ICmpInst::ICMP_NE;
      if (std::optional<Answer> A = Of(X))
        return Answer{A->Value == Ne, A->FromTest};
      return std::nullopt;
    }
    if (std::optional<bool> B = Leaf(*Cmp))
      return Answer{*B, true};
    return std::nullopt;
  }
  if (match(V, m_Not(m_Value(X)))) {
    if (std::optional<Answer> A = Of(X))
      return Answer{!A->Value, A->FromTest};
    return std::nullopt;
  }
  // x && y, x || y (also as selects): one side with the absorbing value
  // decides for every wrapped run, whatever the other side says.
  bool IsAnd = match(V, m_LogicalAnd(m_Value(X), m_Value(Y)));
  if (IsAnd || match(V, m_LogicalOr(m_Value(X), m_Value(Y)))) {
    bool Absorbing = !IsAnd; // false for &&, true for ||
    std::optional<Answer> A = Of(X), B = Of(Y);
    for (const std::optional<Answer> &S : {A, B})
      if (S && S->Value == Absorbing)
        return S;
    if (A && B)
      return Answer{!Absorbing, A->FromTest || B->FromTest};
    return std::nullopt;
  }
  if (const auto *Sel = dyn_cast<SelectInst>(V)) {
    if (std::optional<Answer> C = Of(Sel->getCondition())) {
      std::optional<Answer> Picked =
          Of(C->Value ? Sel->getTrueValue() : Sel->getFalseValue());
      if (Picked)
        return Answer{Picked->Value, Picked->FromTest || C->FromTest};
      return std::nullopt;
    }
    std::optional<Answer> T = Of(Sel->getTrueValue()),
                          F = Of(Sel->getFalseValue());
    if (T && F && T->Value == F->Value)
      return Answer{T->Value, T->FromTest || F->FromTest};
  }
  return std::nullopt;
}

std::optional<PureJoin>
findPureJoin(const BranchInst &Br,
             function_ref<bool(const Instruction &)> Pure) {
  if (!Br.isConditional())
    return std::nullopt;
  const BasicBlock *BB = Br.getParent();
  const BasicBlock *S[2] = {Br.getSuccessor(0), Br.getSuccessor(1)};
  if (S[0] == S[1])
    return std::nullopt;
  PureJoin PJ;
  if (S[1]->getSingleSuccessor() == S[0])
    PJ.Join = S[0];
  else if (S[0]->getSingleSuccessor() == S[1])
    PJ.Join = S[1];
  else if (S[0]->getSingleSuccessor() &&
           S[0]->getSingleSuccessor() == S[1]->getSingleSuccessor())
    PJ.Join = S[0]->getSingleSuccessor();
  if (!PJ.Join || PJ.Join == BB)
    return std::nullopt;
  for (const BasicBlock *Side : S) {
    if (Side == PJ.Join) {
      PJ.Ways.push_back(BB);
      continue;
    }
    if (Side->getSinglePredecessor() != BB || Side == BB)
      return std::nullopt;
    for (const Instruction &I : *Side)
      if (!I.isTerminator() && (isa<PHINode>(I) || !Pure(I)))
        return std::nullopt;
    PJ.Sides.push_back(Side);
    PJ.Ways.push_back(Side);
  }
  return PJ;
}

} // namespace wrapidiom
