//===- ShadowFunction.h - An SSA copy of a function, for analysis only ----===//
//
// Part of wrapidiom. The pass runs at pipeline start, where clang's IR keeps
// every local in an alloca: the two `a`s of `a + b < a` are two loads. At
// -O0 the function is optnone and must not be rewritten beyond the checks,
// so instead of promoting the function itself, the pass promotes a private
// clone, decides on the clone, and applies the decisions to the original.
// The clone lives in the module only for the duration of one pass run.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_SHADOWFUNCTION_H
#define WRAPIDIOM_SHADOWFUNCTION_H

#include "llvm/IR/Function.h"
#include "llvm/IR/ValueMap.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace wrapidiom {

class ShadowFunction {
public:
  /// Clone F, strip debug info from the clone and promote its allocas.
  explicit ShadowFunction(llvm::Function &F);
  ~ShadowFunction();
  ShadowFunction(const ShadowFunction &) = delete;
  ShadowFunction &operator=(const ShadowFunction &) = delete;

  llvm::Function &function() { return *Clone; }

  /// The clone's counterpart of an instruction of the original, or null if
  /// promotion removed it (loads, stores, allocas).
  template <typename T> T *map(T *Orig) const {
    if (!Orig)
      return nullptr;
    auto It = VMap.find(Orig);
    if (It == VMap.end() || !It->second)
      return nullptr;
    return llvm::dyn_cast<T>(&*It->second);
  }

private:
  llvm::ValueToValueMapTy VMap;
  llvm::Function *Clone = nullptr;
};

} // namespace wrapidiom

#endif
