//===- MemoryFacts.h - What may write the memory a value was read from ----===//
//
// Part of wrapidiom. Two loads of one location are one value when nothing
// can write it in between, and two calls of one small helper on equal
// arguments are one value when the helper writes nothing and nothing writes
// what it may read in between (`gpa_to_gfn(gpa) + n <= gpa_to_gfn(gpa)`,
// `ext4_blocks_count(es) + n < ext4_blocks_count(es)`). This answers both
// questions for the function being decided:
//
//  - writes: LLVM's alias analysis (BasicAA, the analysis manager's, on the
//    promoted function: it reads only the IR's own structure, GEP offsets,
//    allocas and their escapes, `noalias` arguments, so it answers the same
//    at -O0 and -O2; TBAA is left out because clang emits its metadata only
//    when optimising). The UBSan runtime writes no program memory.
//  - helpers: a direct call of a function defined here with an exact
//    definition (static, or external without semantic interposition),
//    small, whose body writes nothing but its own locals and calls nothing
//    but such helpers: it is `pure` (reads nothing else either) or `reads`
//    (reads memory given to it or global). The body is read as clang
//    emitted it (or promoted in place: its own locals' loads and stores do
//    not count, so the answer is the same); for a call in a scratch copy
//    (PromotedFunction.h), the body of the function the callee stands for.
//    The helpers are other functions of the module: the facts are the
//    module step's, taken before any function changes.
//
// The same alias analysis says whether what a store writes can be read
// at all (dead-value): overwritten before any read (`cnt += n; cnt = 0;`),
// or in an object a deallocator frees before any read (`obj->stat += n;
// kfree(obj);`).
//
// The facts are installed for one function's decisions (a scope, see
// IdiomMatcher) and read by sameValue(); outside one, every store and call
// is taken to write everything.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_MEMORYFACTS_H
#define WRAPIDIOM_MEMORYFACTS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/PassManager.h"

#include <functional>
#include <memory>

namespace llvm {
class CallBase;
class DominatorTree;
class Function;
class Instruction;
class LoadInst;
class StoreInst;
class TargetLibraryInfo;
} // namespace llvm

namespace wrapidiom {

class ScratchModule;

/// What a call does to memory, as far as the analysis can tell.
enum class CallEffect {
  Unknown, // may write anything, or not a helper it can read
  Reads,   // writes nothing, may read memory
  Pure,    // neither writes nor reads memory: equal arguments, equal result
};

class MemoryFacts {
public:
  /// Facts about F (the promoted function), its alias analysis from FAM;
  /// Scratch: where F is when a copy (callees stand for the module's
  /// functions), or null.
  MemoryFacts(llvm::Function &F, const llvm::TargetLibraryInfo &TLI,
              llvm::FunctionAnalysisManager &FAM,
              const ScratchModule *Scratch);
  ~MemoryFacts();
  MemoryFacts(const MemoryFacts &) = delete;
  MemoryFacts &operator=(const MemoryFacts &) = delete;

  /// The facts in scope for I's function, or null.
  static MemoryFacts *of(const llvm::Instruction &I);

  /// May I write the memory L reads?
  bool mayWrite(const llvm::Instruction &I, const llvm::LoadInst &L);
  /// May I write memory that Call (a call with effect Reads) may read?
  bool mayWriteFor(const llvm::Instruction &I, const llvm::CallBase &Call);
  /// What Call does to memory.
  CallEffect effectOf(const llvm::CallBase &Call);
  /// Is what S stores overwritten, in S's block, by a store to the same
  /// location before anything may read it?
  bool overwrittenBeforeRead(const llvm::StoreInst &S);
  /// Is the object S stores into freed, on every path from S, by a call of
  /// a deallocator (freedPointer()) before anything may read what S
  /// stored? (`obj->stat += n; kfree(obj);`)
  bool freedBeforeRead(const llvm::StoreInst &S);

private:
  struct AA; // built on first use
  llvm::Function &F;
  const llvm::TargetLibraryInfo &TLI;
  llvm::FunctionAnalysisManager &FAM;
  const ScratchModule *Scratch;
  std::unique_ptr<AA> A;
  llvm::DenseMap<const llvm::Function *, CallEffect> Helpers;
  MemoryFacts *Outer;

  AA &aa();
  /// The body Callee stands for: itself, or the module's function a
  /// declaration of the scratch module stands for.
  const llvm::Function &body(const llvm::Function &Callee) const;
  CallEffect helperEffect(const llvm::Function &Callee, unsigned Depth);
};

} // namespace wrapidiom

#endif
