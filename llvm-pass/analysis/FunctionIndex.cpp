//===- FunctionIndex.cpp - The checked results of a function, by shape ----===//
//
// Part of wrapidiom. See FunctionIndex.h.
//
// Why the window is exact: sameValue() proves two loads (or two calls of a
// helper that reads memory) equal only through a walk for writes between
// First and Second (noWriteBetween()), which fails on reaching the entry
// without passing First (so First dominates Second) and after scanning
// MaxScannedLoadDistance instructions. The instructions it scans include
// the rest of First's block, every block strictly between the two on the
// dominator tree and Second's block up to Second; that is, with D(I) the
// instructions on the dominator-tree path from the entry to I, at least
// D(Second) - D(First) - 1 of them. Each load of one equal value is paired
// with a load of the other (or is the same load), so the least D of the
// loads of two equal values differ by at most MaxScannedLoadDistance.
//
//===----------------------------------------------------------------------===//
#include "analysis/FunctionIndex.h"

#include "analysis/ValueEquivalence.h"

#include "llvm/ADT/DepthFirstIterator.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#include <algorithm>

using namespace llvm;

namespace wrapidiom {

FunctionIndex::FunctionIndex(const Function &F, const DominatorTree &DT) {
  // D(I) for every load and call of a block on the dominator tree. Parents come
  // first in depth-first order; each block is walked once (its size() would
  // walk it again for every child).
  DenseMap<const BasicBlock *, int64_t> Below; // D just past the block
  DenseMap<const Instruction *, int64_t> LoadDepths;
  for (const DomTreeNode *N : depth_first(DT.getRootNode())) {
    int64_t D = 0;
    if (const DomTreeNode *Idom = N->getIDom())
      D = Below.lookup(Idom->getBlock());
    for (const Instruction &I : *N->getBlock()) {
      if (isa<LoadInst>(I) || isa<CallInst>(I))
        LoadDepths[&I] = D;
      ++D;
    }
    Below[N->getBlock()] = D;
  }
  auto LoadDepth = [&](const Instruction *I) -> int64_t {
    auto It = LoadDepths.find(I);
    return It == LoadDepths.end() ? -1 : It->second;
  };

  DenseMap<std::pair<unsigned, size_t>, unsigned> BucketOf;
  unsigned Order = 0;
  SmallVector<const Instruction *, 4> Loads;
  for (const Instruction &I : instructions(F)) {
    const auto *EV = dyn_cast<ExtractValueInst>(&I);
    if (!EV || EV->getNumIndices() != 1 || *EV->idx_begin() != 0)
      continue;
    const auto *WO = dyn_cast<WithOverflowInst>(EV->getAggregateOperand());
    if (!WO)
      continue;
    Loads.clear();
    size_t Shape = valueShape(EV, Loads);
    auto [It, New] =
        BucketOf.try_emplace({WO->getIntrinsicID(), Shape}, Buckets.size());
    if (New)
      Buckets.emplace_back();
    int64_t Least = Loads.empty() ? -1 : INT64_MAX;
    for (const Instruction *L : Loads) {
      int64_t D = LoadDepth(L);
      if (D < 0) {
        Least = -1;
        break;
      }
      Least = std::min(Least, D);
    }
    Entry E{Least, Order++, EV};
    Bucket &B = Buckets[It->second];
    (Least < 0 ? B.Anywhere : B.Placed).push_back(E);
    Of[EV] = {It->second, Least};
  }
  // Instructions were visited in block order, not dominator-tree order.
  for (Bucket &B : Buckets)
    llvm::stable_sort(B.Placed, [](const Entry &X, const Entry &Y) {
      return X.Depth < Y.Depth;
    });
}

bool FunctionIndex::candidates(const Value *V, size_t Limit,
                               SmallVectorImpl<const Value *> &Out) const {
  auto It = Of.find(V);
  if (It == Of.end())
    return true;
  const Bucket &B = Buckets[It->second.Bucket];
  int64_t D = It->second.Depth;
  auto Begin = B.Placed.begin(), End = B.Placed.end();
  if (D >= 0) {
    Begin = llvm::lower_bound(
        B.Placed, D - int64_t(MaxScannedLoadDistance),
        [](const Entry &E, int64_t X) { return E.Depth < X; });
    End = std::upper_bound(
        Begin, B.Placed.end(), D + int64_t(MaxScannedLoadDistance),
        [](int64_t X, const Entry &E) { return X < E.Depth; });
  }
  if (B.Anywhere.size() + size_t(End - Begin) > Limit)
    return false;
  SmallVector<Entry, 16> Found(B.Anywhere.begin(), B.Anywhere.end());
  Found.append(Begin, End);
  llvm::sort(Found,
             [](const Entry &X, const Entry &Y) { return X.Order < Y.Order; });
  for (const Entry &E : Found)
    Out.push_back(E.V);
  return true;
}

bool FunctionIndex::invalidate(Function &, const PreservedAnalyses &PA,
                               FunctionAnalysisManager::Invalidator &) {
  auto PAC = PA.getChecker<FunctionIndexAnalysis>();
  return !PAC.preserved() && !PAC.preservedSet<AllAnalysesOn<Function>>();
}

AnalysisKey FunctionIndexAnalysis::Key;

FunctionIndex FunctionIndexAnalysis::run(Function &F,
                                         FunctionAnalysisManager &FAM) {
  return FunctionIndex(F, FAM.getResult<DominatorTreeAnalysis>(F));
}

} // namespace wrapidiom
