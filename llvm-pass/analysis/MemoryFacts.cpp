//===- MemoryFacts.cpp - What may write the memory a value was read from --===//
//
// Part of wrapidiom. See MemoryFacts.h.
//
//===----------------------------------------------------------------------===//
#include "analysis/MemoryFacts.h"

#include "analysis/PromotedFunction.h"
#include "checks/OverflowCheck.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/BasicAliasAnalysis.h"
#include "llvm/Analysis/MemoryBuiltins.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace wrapidiom {

namespace {

/// A helper is small: at most this many instructions that are not its own
/// locals' allocas, loads and stores, phis or inert calls.
constexpr unsigned MaxHelperSize = 64;
/// Helpers calling helpers: at most this deep.
constexpr unsigned MaxHelperDepth = 4;

/// freedBeforeRead(): at most this many instructions followed from the
/// store (debug intrinsics not counted), in at most this many blocks.
constexpr unsigned MaxFreeWalk = 64;
constexpr unsigned MaxFreeWalkBlocks = 8;

thread_local MemoryFacts *Active = nullptr;

/// The kernel's deallocators, by name: each frees its first argument at
/// once, and whoever reads the object after the call reads freed memory,
/// a bug of its own. LLVM knows no kernel allocator (freedPointer() takes
/// the C library's free() from TargetLibraryInfo, C++'s delete from
/// getFreedOperand()).
///   kfree(p)           slab or large kmalloc memory, freed now
///   kvfree(p)          kfree() or vfree(); vfree() may defer the unmapping
///                      but only writes the memory (its llist node)
///   kfree_sensitive(p) zeroes the object (writes only), then kfree()
/// Not deallocators here, and so calls like any other (they may read):
///   kfree_rcu(), call_rcu(), kvfree_call_rcu(): RCU readers may still
///     read the object until a grace period has passed;
///   kmem_cache_free(): a SLAB_TYPESAFE_BY_RCU cache keeps the memory
///     readable by lockless readers (who revalidate what they read);
///   put_*(), kref_put(), ->release() callbacks: they read the object
///     (its count, its ops) and free it only perhaps.
constexpr StringLiteral KernelDeallocators[] = {"kfree", "kvfree",
                                                "kfree_sensitive"};

/// The pointer Call frees, if it is a deallocator: the C library's free()
/// (LLVM's TargetLibraryInfo, so not under -fno-builtin), C++'s delete
/// (getFreedOperand(): free() itself only once InferFunctionAttrs has
/// marked it `allockind("free")`, which is after pipeline start), or the
/// kernel's.
const Value *freedPointer(const CallBase &Call, const TargetLibraryInfo &TLI) {
  if (const Value *P = getFreedOperand(&Call, &TLI))
    return P;
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || Call.arg_size() != 1 ||
      !Call.getArgOperand(0)->getType()->isPointerTy())
    return nullptr;
  LibFunc Fn;
  if (TLI.getLibFunc(*Callee, Fn) && TLI.has(Fn) && Fn == LibFunc_free &&
      !Call.isNoBuiltin())
    return Call.getArgOperand(0);
  if (!Callee->hasLocalLinkage() &&
      is_contained(KernelDeallocators, Callee->getName()))
    return Call.getArgOperand(0);
  return nullptr;
}

/// Does Ptr point into one of Fn's own stack slots?
bool isLocalTo(const Value *Ptr, const Function &Fn) {
  const auto *AI = dyn_cast<AllocaInst>(getUnderlyingObject(Ptr));
  return AI && AI->getFunction() == &Fn;
}

/// A call of a function the analysis does not read: what its attributes
/// promise (`__attribute__((const))`, intrinsics such as llvm.bswap).
CallEffect declaredEffect(const CallBase &Call) {
  if (Call.hasOperandBundles() || Call.isConvergent())
    return CallEffect::Unknown;
  if (Call.doesNotAccessMemory())
    return CallEffect::Pure;
  if (Call.onlyReadsMemory())
    return CallEffect::Reads;
  return CallEffect::Unknown;
}

} // namespace

/// BasicAA alone (the analysis manager's), not the pipeline's AA stack.
struct MemoryFacts::AA {
  AAResults Results;
  BatchAAResults Batch;
  AA(BasicAAResult &Basic, const TargetLibraryInfo &TLI)
      : Results(TLI), Batch(Results) {
    Results.addAAResult(Basic);
  }
};

MemoryFacts::MemoryFacts(Function &F, const TargetLibraryInfo &TLI,
                         FunctionAnalysisManager &FAM,
                         const ScratchModule *Scratch)
    : F(F), TLI(TLI), FAM(FAM), Scratch(Scratch), Outer(Active) {
  Active = this;
}

MemoryFacts::~MemoryFacts() { Active = Outer; }

MemoryFacts *MemoryFacts::of(const Instruction &I) {
  for (MemoryFacts *M = Active; M; M = M->Outer)
    if (I.getFunction() == &M->F)
      return M;
  return nullptr;
}

MemoryFacts::AA &MemoryFacts::aa() {
  // The decisions are all taken before the pass changes anything, so one
  // batch of queries stays valid for the whole function.
  if (!A)
    A = std::make_unique<AA>(FAM.getResult<BasicAA>(F), TLI);
  return *A;
}

const Function &MemoryFacts::body(const Function &Callee) const {
  return Scratch ? *Scratch->original(Callee) : Callee;
}

CallEffect MemoryFacts::effectOf(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || Call.hasOperandBundles() || Call.isConvergent())
    return CallEffect::Unknown;
  const Function &Body = body(*Callee);
  if (Body.isDeclaration())
    return declaredEffect(Call);
  return helperEffect(Body, 0);
}

CallEffect MemoryFacts::helperEffect(const Function &Callee, unsigned Depth) {
  // Only a body the program will run: not one the linker may replace.
  if (!Callee.hasExactDefinition() || Callee.isVarArg() ||
      Depth > MaxHelperDepth)
    return CallEffect::Unknown;
  auto [It, New] = Helpers.try_emplace(&Callee, CallEffect::Unknown);
  if (!New)
    return It->second; // known, or being computed (a recursion: Unknown)
  bool Reads = false;
  unsigned Size = 0;
  auto Decide = [&]() -> CallEffect {
    for (const Instruction &I : instructions(Callee)) {
      if (isa<AllocaInst>(I) || isa<PHINode>(I))
        continue;
      if (const auto *Ld = dyn_cast<LoadInst>(&I)) {
        if (!Ld->isSimple())
          return CallEffect::Unknown; // a volatile read is an effect
        if (isLocalTo(Ld->getPointerOperand(), Callee))
          continue;
        Reads = true;
      } else if (const auto *St = dyn_cast<StoreInst>(&I)) {
        if (!St->isSimple() || !isLocalTo(St->getPointerOperand(), Callee))
          return CallEffect::Unknown;
        continue;
      } else if (const auto *Call = dyn_cast<CallBase>(&I)) {
        if (isInertCall(*Call))
          continue;
        const Function *Inner = Call->getCalledFunction();
        CallEffect E =
            !Inner || Call->hasOperandBundles() || Call->isConvergent()
                ? CallEffect::Unknown
            : Inner->isDeclaration() ? declaredEffect(*Call)
                                     : helperEffect(*Inner, Depth + 1);
        if (E == CallEffect::Unknown)
          return E;
        Reads |= E == CallEffect::Reads;
      } else if (const auto *Ret = dyn_cast<ReturnInst>(&I)) {
        // The address of a local is a different value on every call.
        const Value *RV = Ret->getReturnValue();
        if (RV && RV->getType()->isPointerTy() && isLocalTo(RV, Callee))
          return CallEffect::Unknown;
      } else if (I.mayWriteToMemory() || I.mayReadFromMemory()) {
        return CallEffect::Unknown; // atomics, fences, va_arg
      }
      if (++Size > MaxHelperSize)
        return CallEffect::Unknown;
    }
    return Reads ? CallEffect::Reads : CallEffect::Pure;
  };
  CallEffect E = Decide();
  Helpers[&Callee] = E; // the map may have grown: look it up again
  return E;
}

bool MemoryFacts::mayWrite(const Instruction &I, const LoadInst &L) {
  if (!I.mayWriteToMemory())
    return false;
  if (const auto *Call = dyn_cast<CallBase>(&I)) {
    if (isInertCall(*Call) || effectOf(*Call) != CallEffect::Unknown)
      return false;
  }
  return isModSet(aa().Batch.getModRefInfo(&I, MemoryLocation::get(&L)));
}

bool MemoryFacts::mayWriteFor(const Instruction &I, const CallBase &Call) {
  if (!I.mayWriteToMemory())
    return false;
  if (const auto *Other = dyn_cast<CallBase>(&I))
    return !isInertCall(*Other) && effectOf(*Other) == CallEffect::Unknown;
  // A store the call cannot see: a local of this function whose address
  // the call is not given (BasicAA's escape analysis).
  if (const auto *St = dyn_cast<StoreInst>(&I))
    return isModOrRefSet(
        aa().Batch.getModRefInfo(&Call, MemoryLocation::get(St)));
  return true;
}

bool MemoryFacts::overwrittenBeforeRead(const StoreInst &S) {
  if (!S.isSimple())
    return false;
  MemoryLocation Loc = MemoryLocation::get(&S);
  unsigned Budget = MaxHelperSize;
  for (const Instruction *I = S.getNextNode(); I && !I->isTerminator();
       I = I->getNextNode()) {
    if (--Budget == 0)
      return false;
    if (const auto *Call = dyn_cast<CallBase>(I); Call && isInertCall(*Call))
      continue;
    if (const auto *Later = dyn_cast<StoreInst>(I)) {
      MemoryLocation LaterLoc = MemoryLocation::get(Later);
      if (Later->isSimple() && LaterLoc.Size == Loc.Size &&
          aa().Batch.alias(LaterLoc, Loc) == AliasResult::MustAlias)
        return true;
    }
    if (isModOrRefSet(aa().Batch.getModRefInfo(I, Loc)))
      return false;
  }
  return false;
}

bool MemoryFacts::freedBeforeRead(const StoreInst &S) {
  if (!S.isSimple())
    return false;
  MemoryLocation Loc = MemoryLocation::get(&S);
  // The object: the deallocator must be given a pointer with the same
  // underlying object (GEPs, casts: a field, an array element,
  // container_of()). Not a pointer loaded again (`o->priv->n++;
  // kfree(o->priv);`): the store between the loads may write o->priv as
  // far as BasicAA knows.
  const Value *Object = getUnderlyingObject(S.getPointerOperand());
  const auto *ObjectDef = dyn_cast<Instruction>(Object);
  auto FreesObject = [&](const Value *P) {
    return getUnderlyingObject(P) == Object;
  };
  // Every path from S, until it frees the object: the blocks it reaches
  // without passing such a call, each scanned from its start (S's own from
  // after S), none of which may read what S stored.
  unsigned Budget = MaxFreeWalk;
  SmallVector<const Instruction *, 8> Work{S.getNextNode()};
  SmallPtrSet<const BasicBlock *, 8> Visited;
  while (!Work.empty()) {
    const Instruction *I = Work.pop_back_val();
    bool Freed = false;
    for (; I; I = I->getNextNode()) {
      if (isa<DbgInfoIntrinsic>(I))
        continue;
      if (Budget-- == 0)
        return false;
      // The object's pointer computed anew (a loop): another object.
      if (I == ObjectDef)
        return false;
      if (I->isTerminator())
        break;
      if (const auto *Call = dyn_cast<CallBase>(I)) {
        if (isInertCall(*Call))
          continue;
        if (const Value *P = freedPointer(*Call, TLI)) {
          if (FreesObject(P)) {
            Freed = true;
            break;
          }
          continue; // frees another object: reads none of the program's
        }
        // A helper that touches no memory, and does not unwind out of
        // the function before the free.
        if (effectOf(*Call) == CallEffect::Pure && !Call->mayThrow())
          continue;
      }
      if (isRefSet(aa().Batch.getModRefInfo(I, Loc)))
        return false; // a load, a call, an intrinsic that may read it
    }
    if (Freed)
      continue;
    // Leaves the function (ret, resume) or jumps where the walk cannot
    // follow (callbr, indirectbr, invoke): the value outlives the call.
    if (I && isa<UnreachableInst>(I))
      continue;
    if (!I || (!isa<BranchInst>(I) && !isa<SwitchInst>(I)))
      return false;
    for (const BasicBlock *Succ : successors(I->getParent()))
      if (Visited.insert(Succ).second) {
        if (Visited.size() > MaxFreeWalkBlocks)
          return false;
        Work.push_back(&Succ->front());
      }
  }
  return true;
}

} // namespace wrapidiom
