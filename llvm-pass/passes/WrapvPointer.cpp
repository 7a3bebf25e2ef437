//===- WrapvPointer.cpp - Drop the no-wrap flags of every GEP -------------===//
//
// Part of wrapidiom. See WrapvPointer.h.
//
// What -fwrapv-pointer changes in clang's code generation, and what this
// pass does about each (measured with clang 22.1; see llvm-pass/IDIOMS.md,
// "Pointer wrap under -fno-strict-overflow"):
//  - pointer arithmetic (`p + n`, `p - n`, `p += n`, `++p`, `p--`), array
//    subscripts (`a[i]`, `p[i]`, nested arrays), member access (`p->f`,
//    `s.a[i]`): GEPs without inbounds/nuw. Here: every GEP instruction
//    with a non-zero index. An array decaying to a pointer keeps its
//    `inbounds` under -fwrapv-pointer (all indices zero: no offset, no
//    wrap), and keeps it here.
//  - the same folded into constants by clang's IRBuilder (`&arr[3]` in a
//    function) or emitted as constants (initialisers of globals): GEP
//    constant expressions. Here: every constant reachable from an
//    instruction, a global's initialiser, an alias, or a function's
//    personality, prefix or prologue data.
//  - -fsanitize=pointer-overflow checks: emitted only without
//    -fwrapv-pointer. Left in place: that is the point.
// No other difference shows in the IR (kernel TUs compared by
// kernel/scripts/wrapv-pointer-identity.sh).
//
//===----------------------------------------------------------------------===//
#include "passes/WrapvPointer.h"

#include "RemarkSchema.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

#define DEBUG_TYPE "wrap-idiom"

ALWAYS_ENABLED_STATISTIC(NumWrapvPointerInsts,
                         "GEP instructions whose no-wrap flags were dropped");
ALWAYS_ENABLED_STATISTIC(NumWrapvPointerConsts,
                         "GEP constant expressions rebuilt without no-wrap "
                         "flags");
ALWAYS_ENABLED_STATISTIC(NumWrapvPointerNothing,
                         "modules with no GEP no-wrap flag to drop "
                         "(built with -fwrapv-pointer already)");

namespace wrapidiom {

namespace {

/// The flags to drop: any, on a GEP that moves its base. clang emits
/// `getelementptr inbounds [N x T], ptr %a, 0, 0` for an array decaying to a
/// pointer under -fwrapv-pointer too (measured on kernel files): with all
/// indices zero nothing can wrap, so those keep their flags, as there.
bool hasNoWrapFlags(const GEPOperator &GEP) {
  return GEP.getNoWrapFlags() != GEPNoWrapFlags::none() &&
         !GEP.hasAllZeroIndices();
}

/// Rebuilds constants without GEP no-wrap flags, each distinct constant
/// once. Constants are uniqued, so a rebuilt one is a different object and
/// every user must be given it: instructions and globals by the caller,
/// enclosing constants here, by rebuilding them in turn.
class ConstantStripper {
public:
  Constant *strip(Constant *C) {
    // Globals, functions, blocks' addresses and plain data hold no GEP.
    if (isa<GlobalValue>(C) ||
        !(isa<ConstantExpr>(C) || isa<ConstantAggregate>(C)))
      return C;
    auto It = Done.find(C);
    if (It != Done.end())
      return It->second;
    SmallVector<Constant *, 8> Ops;
    bool Changed = false;
    for (Use &U : C->operands()) {
      Constant *Op = cast<Constant>(U.get());
      Constant *New = strip(Op);
      Changed |= New != Op;
      Ops.push_back(New);
    }
    Constant *R = C;
    auto *GEP = dyn_cast<GEPOperator>(C);
    if (GEP && hasNoWrapFlags(*GEP)) {
      ++Rebuilt;
      SmallVector<Value *, 8> Idx(Ops.begin() + 1, Ops.end());
      R = ConstantExpr::getGetElementPtr(GEP->getSourceElementType(), Ops[0],
                                         Idx, GEPNoWrapFlags::none(),
                                         GEP->getInRange());
    } else if (Changed) {
      if (auto *CE = dyn_cast<ConstantExpr>(C))
        R = CE->getWithOperands(Ops);
      else if (auto *CA = dyn_cast<ConstantArray>(C))
        R = ConstantArray::get(CA->getType(), Ops);
      else if (auto *CS = dyn_cast<ConstantStruct>(C))
        R = ConstantStruct::get(CS->getType(), Ops);
      else
        R = ConstantVector::get(Ops);
    }
    Done[C] = R;
    return R;
  }

  /// GEP constant expressions rebuilt without their flags.
  unsigned rebuilt() const { return Rebuilt; }

private:
  unsigned Rebuilt = 0;
  DenseMap<Constant *, Constant *> Done;
};

} // namespace

PreservedAnalyses WrapvPointerPass::run(Module &M, ModuleAnalysisManager &) {
  ConstantStripper S;
  unsigned Insts = 0;
  for (Function &F : M) {
    if (F.hasPersonalityFn())
      F.setPersonalityFn(S.strip(F.getPersonalityFn()));
    if (F.hasPrefixData())
      F.setPrefixData(S.strip(F.getPrefixData()));
    if (F.hasPrologueData())
      F.setPrologueData(S.strip(F.getPrologueData()));
    for (Instruction &I : instructions(F)) {
      if (auto *GEP = dyn_cast<GetElementPtrInst>(&I))
        if (hasNoWrapFlags(*cast<GEPOperator>(GEP))) {
          GEP->setNoWrapFlags(GEPNoWrapFlags::none());
          ++Insts;
        }
      for (unsigned K = 0, E = I.getNumOperands(); K != E; ++K)
        if (auto *C = dyn_cast<Constant>(I.getOperand(K))) {
          Constant *New = S.strip(C);
          if (New != C)
            I.setOperand(K, New);
        }
    }
  }
  for (GlobalVariable &GV : M.globals())
    if (GV.hasInitializer())
      GV.setInitializer(S.strip(GV.getInitializer()));
  for (GlobalAlias &GA : M.aliases())
    GA.setAliasee(S.strip(GA.getAliasee()));
  NumWrapvPointerInsts += Insts;
  NumWrapvPointerConsts += S.rebuilt();

  bool Changed = Insts || S.rebuilt();
  if (Changed) {
    // The replaced constants are dead now, but would still count as uses
    // of the globals they name (GlobalOpt and others look at those).
    for (GlobalValue &G : M.global_values())
      G.removeDeadConstantUsers();
  } else {
    ++NumWrapvPointerNothing;
  }
  // One analysis remark per module, on its first function with a body.
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    OptimizationRemarkEmitter ORE(&F);
    ORE.emit([&] {
      OptimizationRemarkAnalysis R(remark::PassName,
                                   remark::name::WrapvPointer, &F);
      if (Changed)
        R << "wrapv-pointer: dropped the no-wrap flags of "
          << ore::NV(remark::key::Instructions, Insts)
          << " GEP instructions and "
          << ore::NV(remark::key::Constants, S.rebuilt())
          << " GEP constant expressions";
      else
        R << "wrapv-pointer: nothing to strip (no GEP has a no-wrap flag; "
             "built with -fwrapv-pointer?)";
      return R;
    });
    break;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace wrapidiom
