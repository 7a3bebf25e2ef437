//===- CircularDifference.h - d = a - b; if (a < b) d += size -*- C++ -*-===//
//
// Part of wrapidiom. The distance between two indices of a circular buffer,
// as the kernel writes it everywhere (fs/jbd2/journal.c
// __jbd2_update_log_tail(), fs/jbd2/commit.c):
//
//   freed = block - journal->j_tail;
//   if (block < journal->j_tail)
//           freed += journal->j_last - journal->j_first;
//
// The subtraction wraps exactly when the program's own test says a < b, and
// on that side the program adds the buffer's size, which must carry for
// the distance to come out right. The pair is one idiom of two decisions:
//
//   the subtraction  removed: its wrap is the design, tested exactly, and
//                    every wrapped value reaches nothing but the correction;
//   the addition     re-checked (SignedRecheck.h's replaceOverflowBit()):
//                    reported when it does NOT carry, i.e. b - a > size,
//                    where the correction failed and the distance is
//                    corrupt; silent when it carries.
//
// The proof is in CircularDifference.cpp. Both are decided on the shape of
// the whole: every use of the difference is a correction on the wrap side
// or lies where it did not wrap. Then each correction is re-checked (unless
// removal, an ignorelist entry or another re-check decided it first), and
// the subtraction goes only when all of them are; a subtraction an idiom
// or an entry decided otherwise leaves its corrections re-checked still:
// each one runs only where the difference wrapped.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_CIRCULARDIFFERENCE_H
#define WRAPIDIOM_CIRCULARDIFFERENCE_H

#include "idioms/IdiomMatcher.h"
#include "checks/OverflowCheck.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class DominatorTree;
} // namespace llvm

namespace wrapidiom {

struct WrapIdiomOptions;

/// Decide the circular differences of a function. Checks are its checks,
/// Promoted the same checks mapped onto the promoted function (where DT
/// and the memory facts in scope are), Sanitize says which ones a
/// `=sanitize` ignorelist entry keeps as emitted, and Decisions hold what
/// was decided so far (removal, ignorelist and the other re-checks have
/// priority). A correcting addition still undecided becomes a
/// CircularDifference re-check; its subtraction, if still undecided and
/// every correction of it is re-checked, a CircularDifference removal
/// (Decision::RemovesCheck). Opts may have disabled the idiom.
void decideCircular(llvm::ArrayRef<OverflowCheck> Checks,
                    llvm::ArrayRef<OverflowCheck> Promoted,
                    llvm::ArrayRef<bool> Sanitize,
                    llvm::MutableArrayRef<Decision> Decisions,
                    const llvm::DominatorTree &DT,
                    const WrapIdiomOptions &Opts);

/// Re-check the correcting addition C of a circular difference: its
/// overflow bit `ov` becomes `!ov` (and, for a correction chosen by a
/// select, `a < b && !ov`, a and b the operands of D.CircularSub).
void applyCircularRecheck(const OverflowCheck &C, const Decision &D);

/// What proves the subtraction's check removable (remarks).
llvm::StringRef circularRemovalProof();

} // namespace wrapidiom

#endif
