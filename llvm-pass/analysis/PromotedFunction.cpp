//===- PromotedFunction.cpp - The function with its locals in SSA form ----===//
//
// Part of wrapidiom. See PromotedFunction.h.
//
//===----------------------------------------------------------------------===//
#include "analysis/PromotedFunction.h"

#include "analysis/ConversionFacts.h"
#include "analysis/DeclaredWrap.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalIFunc.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace wrapidiom {

ScratchModule::ScratchModule(Module &M) : M(M) {}

ScratchModule::~ScratchModule() {
  if (!Scratch)
    return;
  // The copies are gone; what still uses a stand-in is another stand-in
  // (an alias) or a constant made for a copy, which the context would
  // otherwise keep, referring to globals deleted with the module.
  Constants.clear();
  for (GlobalValue &G : Scratch->global_values())
    G.dropAllReferences();
  for (GlobalValue &G : Scratch->global_values())
    G.removeDeadConstantUsers();
}

Module &ScratchModule::scratch() {
  if (!Scratch) {
    Scratch = std::make_unique<Module>("wrap-idiom.scratch", M.getContext());
    Scratch->setDataLayout(M.getDataLayout());
    Scratch->setTargetTriple(M.getTargetTriple());
  }
  return *Scratch;
}

GlobalValue *ScratchModule::standIn(GlobalValue &G) {
  if (G.getParent() == Scratch.get())
    return &G;
  auto It = StandIns.find(&G);
  if (It != StandIns.end())
    return It->second;
  Module &S = scratch();
  GlobalValue *New;
  if (auto *F = dyn_cast<Function>(&G)) {
    Function *NF = Function::Create(F->getFunctionType(), F->getLinkage(),
                                    F->getAddressSpace(), F->getName(), &S);
    NF->setCallingConv(F->getCallingConv());
    NF->setAttributes(F->getAttributes());
    NF->setAlignment(F->getAlign());
    Originals[NF] = F;
    New = NF;
  } else if (auto *GV = dyn_cast<GlobalVariable>(&G)) {
    // A zero of the type for an initializer: the size of the object is as
    // known as in the module (BasicAA), nothing else of it is read.
    auto *NGV = new GlobalVariable(
        S, GV->getValueType(), GV->isConstant(), GV->getLinkage(),
        GV->hasInitializer() ? Constant::getNullValue(GV->getValueType())
                             : nullptr,
        GV->getName(), nullptr, GV->getThreadLocalMode(),
        GV->getAddressSpace(), GV->isExternallyInitialized());
    NGV->setAlignment(GV->getAlign());
    New = NGV;
  } else if (auto *GA = dyn_cast<GlobalAlias>(&G)) {
    New = GlobalAlias::create(GA->getValueType(), GA->getAddressSpace(),
                              GA->getLinkage(), GA->getName(), &S);
    StandIns[&G] = New;
    cast<GlobalAlias>(New)->setAliasee(map(GA->getAliasee()));
  } else {
    auto *GI = cast<GlobalIFunc>(&G);
    New = GlobalIFunc::create(GI->getValueType(), GI->getAddressSpace(),
                              GI->getLinkage(), GI->getName(),
                              /*Resolver=*/nullptr, &S);
    StandIns[&G] = New;
    cast<GlobalIFunc>(New)->setResolver(map(GI->getResolver()));
  }
  New->setVisibility(G.getVisibility());
  New->setDSOLocal(G.isDSOLocal());
  New->setUnnamedAddr(G.getUnnamedAddr());
  StandIns[&G] = New;
  return New;
}

Value *ScratchModule::materialize(Value *V) {
  auto *G = dyn_cast<GlobalValue>(V);
  return G ? standIn(*G) : nullptr;
}

Constant *ScratchModule::map(Constant *C) {
  return MapValue(C, Constants, RF_None, nullptr, this);
}

const Function *ScratchModule::original(const Function &F) const {
  auto It = Originals.find(&F);
  return It == Originals.end() ? &F : It->second;
}

Function *ScratchModule::copy(Function &F, ValueToValueMapTy &VMap) {
  Module &S = scratch();
  // Created without a parent and cloned with local changes only, so that
  // the copy shares F's metadata until its debug info is dropped; its
  // references to globals go to the stand-ins (materialize()).
  Function *Copy = Function::Create(F.getFunctionType(),
                                    GlobalValue::PrivateLinkage,
                                    F.getAddressSpace(), "");
  Function::arg_iterator Arg = Copy->arg_begin();
  for (Argument &A : F.args())
    VMap[&A] = &*Arg++;
  SmallVector<ReturnInst *, 8> Returns;
  CloneFunctionInto(Copy, &F, VMap, CloneFunctionChangeType::LocalChangesOnly,
                    Returns, "", nullptr, nullptr, this);
  // Debug info is irrelevant to the analysis; dropping it makes promotion
  // cheaper and keeps the copy from sharing F's DISubprogram.
  stripDebugInfo(*Copy);
  S.getFunctionList().push_back(Copy);
  return Copy;
}

void ScratchModule::erase(Function *Copy) {
  Copy->dropAllReferences();
  Copy->eraseFromParent();
}

namespace {

/// mem2reg: promote every promotable alloca of the entry block, DT and AC
/// from FAM. Returns whether one is left that it could not promote.
bool promoteScalars(Function &F, FunctionAnalysisManager &FAM,
                    bool &Changed) {
  SmallVector<AllocaInst *, 16> Allocas;
  bool Left = false;
  for (Instruction &I : F.getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I)) {
      if (isAllocaPromotable(AI))
        Allocas.push_back(AI);
      else
        Left = true;
    }
  if (!Allocas.empty()) {
    PromoteMemToReg(Allocas, FAM.getResult<DominatorTreeAnalysis>(F),
                    &FAM.getResult<AssumptionAnalysis>(F));
    // Loads, stores and allocas replaced by SSA values: every edge stays.
    PreservedAnalyses PA;
    PA.preserveSet<CFGAnalyses>();
    FAM.invalidate(F, PA);
    Changed = true;
  }
  return Left;
}

/// Every local, scalar or aggregate, whose address does not escape becomes
/// SSA values, field by field (`r.end = s; r.flags = 1; if (r.end <
/// r.start)` reads `s` back): mem2reg for the scalars, then, only when a
/// local is left, SROA keeping the CFG (a copy only: it rewrites the GEPs
/// into the locals it splits, which a pointer check may hold).
void promoteCopy(Function &Copy, FunctionAnalysisManager &FAM) {
  bool Changed = false;
  if (!promoteScalars(Copy, FAM, Changed))
    return;
  PreservedAnalyses PA = SROAPass(SROAOptions::PreserveCFG).run(Copy, FAM);
  FAM.invalidate(Copy, PA);
}

} // namespace

bool promoteInPlace(Function &F, FunctionAnalysisManager &FAM,
                    bool &Changed) {
  // mem2reg in place deletes only the allocas, loads and stores it
  // promotes, which no check refers to.
  return promoteScalars(F, FAM, Changed);
}

PromotedFunction::PromotedFunction(Function &F, bool InPlace,
                                   ScratchModule &Scratch,
                                   FunctionAnalysisManager &FAM,
                                   bool OfCaller)
    : F(F), Scratch(Scratch), FAM(FAM) {
  if (InPlace)
    return;
  Copy = Scratch.copy(F, VMap);
  for (const auto &KV : VMap)
    if (KV.second)
      Inverse[&*KV.second] = const_cast<Value *>(KV.first);
  // A sign-change check left for the user (no -wrap-idiom-conversion-
  // facts; its facts were read before, ModulePasses.cpp) calls its handler
  // with the values it tests: uses the rows must not count.
  removeConversionChecks(findConversionChecks(*Copy));
  if (OfCaller)
    DeclaredWrap::dropMarks(*Copy);
  promoteCopy(*Copy, FAM);
}

Value *PromotedFunction::original(const Value *V) const {
  if (!Copy)
    return const_cast<Value *>(V);
  return Inverse.lookup(V);
}

PromotedFunction::~PromotedFunction() {
  if (!Copy)
    return;
  VMap.clear();
  Inverse.clear();
  FAM.clear(*Copy, "");
  Scratch.erase(Copy);
}

} // namespace wrapidiom
