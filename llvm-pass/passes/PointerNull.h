//===- PointerNull.h - Let a null base take an offset ---------------------===//
//
// Part of wrapidiom.
//
// clang's pointer-overflow check has, besides the address-wrap part, a null
// part: `(base != null) == (result != null)`, reported as "applying
// non-zero offset to null pointer" (and "... to non-NULL pointer produced
// NULL pointer"). Computing offsets from a null pointer is not a wrap, and
// code built with -fno-delete-null-pointer-checks (the kernel) does it on
// purpose. With -wrap-idiom-null-offset=allow, `wrap-idiom-null-offset`
// (pipeline start, after wrap-idiom-wrapv-pointer) rewrites that part to
// `base == null || result != null`: a null base may take any offset
// (NULL + n), a non-null base must still not produce null, and the
// address-wrap part (NULL - n wraps) stays untouched. The default, check,
// keeps clang's check as it is.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_POINTERNULL_H
#define WRAPIDIOM_POINTERNULL_H

#include "llvm/IR/PassManager.h"

namespace wrapidiom {

class PointerNullPass : public llvm::PassInfoMixin<PointerNullPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
  static bool isRequired() { return true; }
  static llvm::StringRef name() { return "wrap-idiom-null-offset"; }
};

} // namespace wrapidiom

#endif
