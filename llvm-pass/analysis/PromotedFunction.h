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
//    mem2reg promotes every local: SROA would promote them a few passes
//    later anyway, so this costs nothing but moves the work earlier. When
//    a local is left (a struct, an array), SROA runs on a clone as below:
//    it rewrites GEPs a pointer check may hold;
//  - in a private clone when the function is optnone (-O0), which must not
//    be rewritten beyond its checks. The clone lives in the module only for
//    the duration of one pass run; decisions made on it are mapped back;
//  - in a private clone as well for a caller the pass reads to decide a
//    check of a helper (idioms/CallerHandled.h): the pass may change only
//    the function it runs on.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_PROMOTEDFUNCTION_H
#define WRAPIDIOM_PROMOTEDFUNCTION_H

#include "llvm/IR/Function.h"
#include "llvm/IR/ValueMap.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace wrapidiom {

class PromotedFunction {
public:
  /// Where promotion may happen: in F itself when it may be optimised, or
  /// always in a clone (a function other than the one the pass runs on,
  /// read for a proof across calls, must not change).
  enum class Where { InPlaceIfOptimised, Clone };
  explicit PromotedFunction(llvm::Function &F,
                            Where W = Where::InPlaceIfOptimised);
  ~PromotedFunction();
  PromotedFunction(const PromotedFunction &) = delete;
  PromotedFunction &operator=(const PromotedFunction &) = delete;

  /// The function to analyse: F itself, or its clone.
  llvm::Function &function() { return Clone ? *Clone : F; }
  /// Did promotion rewrite F itself (its loads, stores and allocas)?
  bool promotedInPlace() const { return InPlaceChanged; }

  /// The analysed function's counterpart of an instruction of F (itself
  /// when promoted in place), or null if promotion removed it.
  template <typename T> T *map(T *Orig) const {
    if (!Orig || !Clone)
      return Orig;
    auto It = VMap.find(Orig);
    if (It == VMap.end() || !It->second)
      return nullptr;
    return llvm::dyn_cast<T>(&*It->second);
  }

private:
  llvm::Function &F;
  llvm::ValueToValueMapTy VMap;
  llvm::Function *Clone = nullptr;
  bool InPlaceChanged = false;
};

} // namespace wrapidiom

#endif
