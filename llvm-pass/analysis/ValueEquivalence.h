//===- ValueEquivalence.h - When two IR values are the same value ---------===//
//
// Part of wrapidiom. With locals promoted most values are SSA values, but
// `p->a + b < p->a` still loads p->a twice, and the remoteproc shape
// `off + size > lim || off + size < size` computes the sum twice. These
// helpers prove such pairs equal, conservatively.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_VALUEEQUIVALENCE_H
#define WRAPIDIOM_VALUEEQUIVALENCE_H

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class CastInst;
class DataLayout;
class Instruction;
class LoadInst;
class Value;
} // namespace llvm

namespace wrapidiom {

/// Casts that preserve the order of values (zext, sext, same-width bitcast,
/// ptrtoint, inttoptr), so that comparing two casted values compares the
/// originals. Truncations do not.
bool isOrderPreservingCast(const llvm::Value *V, const llvm::DataLayout &DL);

/// Are A and B the same value where the later one is computed? Identical
/// pure computations on equal operands, two loads of one location that
/// nothing can write in between, and two calls of one small helper on equal
/// arguments that writes nothing (and, if it reads, nothing writes in
/// between), are. Memory and helpers are judged by the MemoryFacts in
/// scope; without one, every store and call writes everything.
bool sameValue(const llvm::Value *A, const llvm::Value *B,
               const llvm::DataLayout &DL);

/// A hash of what sameValue() compares of V: sameValue(A, B) implies
/// valueShape(A) == valueShape(B). Appends to Loads the loads and calls
/// sameValue() would compare with those of the other value (by a walk for
/// writes in between, which gives up after MaxScannedLoadDistance
/// instructions).
llvm::hash_code
valueShape(const llvm::Value *V,
           llvm::SmallVectorImpl<const llvm::Instruction *> &Loads);

/// The walk for writes between two loads or calls scans fewer instructions than this; two loads further
/// apart (FunctionIndex measures it on the dominator tree) are never equal.
constexpr unsigned MaxScannedLoadDistance = 512;

/// The casts between an arithmetic result and a comparison that uses it,
/// innermost first.
using CastChain = llvm::SmallVector<const llvm::CastInst *, 2>;

/// Peel from X the casts Chain describes, outermost first, so that X can be
/// compared with an operand of the arithmetic; constants are narrowed when
/// that is exact. Null if X does not have that shape.
const llvm::Value *peelLikeChain(const llvm::Value *X, const CastChain &Chain);

} // namespace wrapidiom

#endif
