//===- FunctionIndex.h - The checked results of a function, by shape ------===//
//
// Part of wrapidiom. The data-flow proof (WrapPaths.h) treats every other
// computation of the same value as the checked result itself (the
// remoteproc shape computes `off + size` twice). Comparing each result with
// every other one is quadratic in the checks of a function; this index,
// built once per function, hands out only the results that can be equal:
// those of the same shape (valueShape()) whose loads and calls are near
// enough on the dominator tree for the walk for writes in between
// (ValueEquivalence.cpp) to reach one from the other. It is an analysis
// of the function (FunctionIndexAnalysis), cached by the analysis manager
// until the function changes.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_FUNCTIONINDEX_H
#define WRAPIDIOM_FUNCTIONINDEX_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/PassManager.h"

#include <cstdint>

namespace llvm {
class DominatorTree;
class Function;
class Value;
} // namespace llvm

namespace wrapidiom {

class FunctionIndex {
public:
  FunctionIndex(const llvm::Function &F, const llvm::DominatorTree &DT);

  /// The results of *.with.overflow calls of the same intrinsic as the
  /// result V that sameValue() may find equal to V (a superset, V
  /// included), in function order. False, with Out untouched, if there
  /// are more than Limit.
  bool candidates(const llvm::Value *V, size_t Limit,
                  llvm::SmallVectorImpl<const llvm::Value *> &Out) const;

  /// It holds the function's values: any change but none invalidates it.
  bool invalidate(llvm::Function &F, const llvm::PreservedAnalyses &PA,
                  llvm::FunctionAnalysisManager::Invalidator &Inv);

private:
  struct Entry {
    int64_t Depth; // the least distance of a load of it from the entry
    unsigned Order;
    const llvm::Value *V;
  };
  struct Bucket {
    llvm::SmallVector<Entry, 2> Placed; // by Depth
    /// Without loads, or with one off the dominator tree: compared with
    /// every result of the bucket.
    llvm::SmallVector<Entry, 2> Anywhere;
  };
  struct Where {
    unsigned Bucket;
    int64_t Depth; // -1: in Anywhere
  };
  llvm::SmallVector<Bucket, 0> Buckets;
  llvm::DenseMap<const llvm::Value *, Where> Of;
};

class FunctionIndexAnalysis
    : public llvm::AnalysisInfoMixin<FunctionIndexAnalysis> {
  friend llvm::AnalysisInfoMixin<FunctionIndexAnalysis>;
  static llvm::AnalysisKey Key;

public:
  using Result = FunctionIndex;
  FunctionIndex run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
};

} // namespace wrapidiom

#endif
