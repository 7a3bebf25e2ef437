//===- PromotedFunction.h - The function with its locals in SSA form ------===//
//
// Part of wrapidiom. The pass runs at pipeline start, where clang's IR keeps
// every local in an alloca: the two `a`s of `a + b < a` are two loads. The
// analyses want SSA values, so the locals are promoted first: scalars by
// mem2reg, and, when a local is left, the fields of local structs whose
// address does not escape by SROA (PreserveCFG), so a sum stored to a
// local struct and read back is the sum itself at -O0 as at -O2:
//
//  - in the function itself when it may be optimised (-O1 and up) and
//    mem2reg promotes every local (promoteInPlace(), the module step's:
//    SROA would promote them a few passes later anyway, so this costs
//    nothing but moves the work earlier). When a local is left (a struct,
//    an array), SROA runs on a copy, as below: it rewrites GEPs a pointer
//    check may hold;
//  - in a copy when the function is optnone (-O0), which must not be
//    rewritten beyond its checks, and for a caller read to decide a check
//    of a helper (idioms/CallerHandled.h).
//
// The copies live in a scratch module (ScratchModule) of the same context,
// data layout and triple, never in the module itself: each global a copy
// refers to stands for itself there, as a declaration of the same name,
// type, linkage and attributes (a variable with an initializer gets a zero
// one of its type, so that its size is as known as in the module). What
// the analyses read of a callee's body (MemoryFacts.h, the serial paths of
// SerialCompare.h) they read from the function of the module the
// declaration stands for (ScratchModule::original()). Decisions made on a
// copy are mapped back.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_PROMOTEDFUNCTION_H
#define WRAPIDIOM_PROMOTEDFUNCTION_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/ValueMap.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <memory>

namespace llvm {
class Constant;
class GlobalValue;
class Module;
} // namespace llvm

namespace wrapidiom {

/// Where the copies of the functions of one module live while the module
/// step decides; created on first use, destroyed with it.
class ScratchModule : public llvm::ValueMaterializer {
public:
  explicit ScratchModule(llvm::Module &M);
  ~ScratchModule();
  ScratchModule(const ScratchModule &) = delete;
  ScratchModule &operator=(const ScratchModule &) = delete;

  /// A copy of F (a function of the module) in the scratch module,
  /// unnamed, private, without debug info; VMap maps F's values to it.
  llvm::Function *copy(llvm::Function &F, llvm::ValueToValueMapTy &VMap);
  /// Erase a copy.
  void erase(llvm::Function *Copy);

  /// C as a copy sees it: the globals it refers to replaced by their
  /// stand-ins (C itself when it names none, or is of the scratch module).
  llvm::Constant *map(llvm::Constant *C);

  /// The function of the module F stands for: F itself when it is one, the
  /// function its declaration stands for when F is of the scratch module.
  const llvm::Function *original(const llvm::Function &F) const;

  /// ValueMaterializer: a global of the module becomes its stand-in.
  llvm::Value *materialize(llvm::Value *V) override;

private:
  llvm::Module &M;
  std::unique_ptr<llvm::Module> Scratch;
  llvm::DenseMap<const llvm::GlobalValue *, llvm::GlobalValue *> StandIns;
  llvm::DenseMap<const llvm::Function *, const llvm::Function *> Originals;
  llvm::ValueToValueMapTy Constants;

  llvm::Module &scratch();
  llvm::GlobalValue *standIn(llvm::GlobalValue &G);
};

/// mem2reg in place: promote every promotable alloca of F's entry block,
/// with F's dominator tree and assumptions from FAM (whose other results
/// for F it invalidates). Changed: whether F changed. Returns whether a
/// local is left that mem2reg could not promote (a struct, an array, a
/// local whose fields are stored separately).
bool promoteInPlace(llvm::Function &F, llvm::FunctionAnalysisManager &FAM,
                    bool &Changed);

class PromotedFunction {
public:
  /// The function to decide F on: F itself when InPlace (promoteInPlace()
  /// promoted every local of it), else a copy of F in Scratch with its
  /// locals promoted there (mem2reg, then SROA keeping the CFG when a
  /// local is left), with the analyses of FAM. OfCaller: F is read as a
  /// caller of the function decided (caller-handled), not decided itself:
  /// the copy drops the marks of F's declared values (DeclaredWrap.h),
  /// which only the decided function's rows read.
  PromotedFunction(llvm::Function &F, bool InPlace, ScratchModule &Scratch,
                   llvm::FunctionAnalysisManager &FAM, bool OfCaller = false);
  ~PromotedFunction();
  PromotedFunction(const PromotedFunction &) = delete;
  PromotedFunction &operator=(const PromotedFunction &) = delete;

  /// The function to analyse: F itself, or its copy.
  llvm::Function &function() { return Copy ? *Copy : F; }

  /// The analysed function's counterpart of an instruction of F (itself
  /// when decided in place), or null if promotion removed it.
  template <typename T> T *map(T *Orig) const {
    if (!Orig || !Copy)
      return Orig;
    auto It = VMap.find(Orig);
    if (It == VMap.end() || !It->second)
      return nullptr;
    return llvm::dyn_cast<T>(&*It->second);
  }

  /// The value of F an instruction or argument of the analysed function
  /// stands for (itself when decided in place), or null (a value
  /// promotion made).
  llvm::Value *original(const llvm::Value *V) const;

private:
  llvm::Function &F;
  ScratchModule &Scratch;
  /// The copy's values back to F's, taken right after the copy, while it
  /// is one to one. Not VMap read backwards: its WeakTrackingVH follow
  /// promotion's RAUW, so a promoted load of F would map to the value
  /// stored, which F's own instruction maps to as well. An entry goes with
  /// its copy value; a value promotion makes has none.
  struct InverseConfig
      : llvm::ValueMapConfig<const llvm::Value *> {
    enum { FollowRAUW = false };
  };
  llvm::ValueMap<const llvm::Value *, llvm::Value *, InverseConfig> Inverse;
  llvm::FunctionAnalysisManager &FAM;
  llvm::ValueToValueMapTy VMap;
  llvm::Function *Copy = nullptr;
};

} // namespace wrapidiom

#endif
