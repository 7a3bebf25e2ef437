//===- MemoryFacts.h - What may write the memory a value was read from ----===//
//
// Part of wrapidiom. Two loads of one location are one value when nothing
// can write it in between. This answers that for the function being
// decided with LLVM's alias analysis: BasicAA, built on the promoted
// function. It reads only the IR's own structure (GEP offsets, allocas and
// their escapes, `noalias` arguments), so it answers the same at -O0 and
// -O2; TBAA is left out because clang emits its metadata only when
// optimising. The UBSan runtime writes no program memory.
//
// The facts are installed for one function's decisions (a scope, see
// IdiomMatcher) and read by sameValue(); outside one, every store and call
// is taken to write everything.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_MEMORYFACTS_H
#define WRAPIDIOM_MEMORYFACTS_H

#include <functional>
#include <memory>

namespace llvm {
class DominatorTree;
class Function;
class Instruction;
class LoadInst;
class TargetLibraryInfo;
} // namespace llvm

namespace wrapidiom {

class MemoryFacts {
public:
  /// Facts about F (the promoted function); DT gives F's dominator tree.
  MemoryFacts(llvm::Function &F, const llvm::TargetLibraryInfo &TLI,
              std::function<const llvm::DominatorTree &()> DT);
  ~MemoryFacts();
  MemoryFacts(const MemoryFacts &) = delete;
  MemoryFacts &operator=(const MemoryFacts &) = delete;

  /// The facts in scope for I's function, or null.
  static MemoryFacts *of(const llvm::Instruction &I);

  /// May I write the memory L reads?
  bool mayWrite(const llvm::Instruction &I, const llvm::LoadInst &L);

private:
  struct AA; // built on first use
  llvm::Function &F;
  const llvm::TargetLibraryInfo &TLI;
  std::function<const llvm::DominatorTree &()> DT;
  std::unique_ptr<AA> A;
  MemoryFacts *Outer;

  AA &aa();
};

} // namespace wrapidiom

#endif
