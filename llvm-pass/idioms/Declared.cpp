//===- Declared.cpp - The declared-wrap row -------------------------------===//
//
// Part of wrapidiom. declared-wrap (Idioms.def): an operand of the checked
// arithmetic is declared to wrap (`u32 __wraps seq;`) or computed from one
// (analysis/DeclaredWrap.h, read by the module step before promotion and
// mapped onto the promoted function): the arithmetic is modular by the
// declaration, and the check goes.
//
//===----------------------------------------------------------------------===//
#include "analysis/DeclaredWrap.h"
#include "idioms/Rules.h"

#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace wrapidiom {

bool declaredWrap(RuleInput &In) {
  const DeclaredWrap *DW = In.Facts.frontEnd().Declared;
  const auto *WO = dyn_cast_or_null<WithOverflowInst>(In.C.Arith);
  return DW && WO &&
         (DW->isWrapping(WO->getLHS()) || DW->isWrapping(WO->getRHS()));
}

} // namespace wrapidiom
