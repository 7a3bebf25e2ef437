//===- WrapvPointer.h - Give the IR back -fwrapv-pointer's semantics ------===//
//
// Part of wrapidiom.
//
// The kernel builds with -fno-strict-overflow, which implies -fwrapv-pointer,
// and under that clang emits no -fsanitize=pointer-overflow checks. Built
// with -fno-wrapv-pointer instead, clang emits the checks, and its IR differs
// from the -fwrapv-pointer IR only in the no-wrap flags of GEPs (inbounds,
// nusw, nuw). `wrap-idiom-wrapv-pointer` (-wrap-idiom-wrapv-pointer at
// pipeline start, ahead of wrap-idiom) drops those flags from every GEP
// instruction and every GEP constant expression (in instructions, global
// initialisers and aliases) with a non-zero index (clang keeps `inbounds` on
// an array's decay to a pointer, all indices zero, either way), so no optimisation can rely on pointer
// arithmetic not wrapping, while clang's checks stay for wrap-idiom and the
// runtime. A module with nothing to strip (built with -fwrapv-pointer) is
// left alone and counted (statistic NumWrapvPointerNothing, and an analysis
// remark).
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_WRAPVPOINTER_H
#define WRAPIDIOM_WRAPVPOINTER_H

#include "llvm/IR/PassManager.h"

namespace wrapidiom {

class WrapvPointerPass : public llvm::PassInfoMixin<WrapvPointerPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
  // Semantics, not an optimisation: runs on optnone (-O0) functions too.
  static bool isRequired() { return true; }
  static llvm::StringRef name() { return "wrap-idiom-wrapv-pointer"; }
};

} // namespace wrapidiom

#endif
