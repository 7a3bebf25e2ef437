//===- CallerHandled.h - A sum a static helper returns to its callers -----===//
//
// Part of wrapidiom. The kernel computes a range's end in a small helper
// and tests it where it is used:
//
//   static u64 range_end(u64 start, u64 len) { return start + len; }
//   ...
//   end = range_end(start, len);
//   if (end < start)
//           return -EINVAL;
//   use(end);
//
// At pipeline start (-O0 and -O2 alike) the helper is a call, so the sum's
// only use in the helper is its return: no test there. The proof goes to
// the callers. The check in the helper goes when
//
//  - the helper only returns the value (every use but the checks' own is a
//    `ret`): no decision and no effect in the helper depends on it;
//  - each operand is a parameter or a constant, so at a call it is the
//    argument passed (or the constant); or a field the helper reads
//    through a parameter or from a global (`r->start + r->len`: a simple
//    load of a GEP with constant indices, perhaps cast), rebuilt in the
//    caller's clone right after the call. There it reads what the helper
//    read, when the helper writes nothing (its promoted form has no write
//    but its checks'); the caller's own read of the field is then the same
//    value by sameValue() when nothing writes it in between;
//  - the helper is local to the file (static: no caller elsewhere) and
//    every use of it is a direct call of it from another function of the
//    module, with its own type (not address-taken, not recursive), at most
//    MaxCallSites of them;
//  - at every call, the call's result, read as the operation on the
//    arguments it was passed, is decided in the caller by the data-flow
//    proofs (guarded-use, bounds-and-wrap, align-zero, ...; WrapPaths.h):
//    every wrapped execution reaches the caller's own handling before the
//    value can do harm. Not by add-compare's "only compared with an
//    addend", which takes every such comparison for the wrap test whatever
//    its sides do: `if (e > lim)` with lim the addend is as often a bound
//    the wrapped end evades (the wrap oracle's helper family).
//    Like those proofs, a caller that never tests the value proves nothing
//    (an ignored result included).
//
// Each caller is read in a promoted copy in the scratch module
// (PromotedFunction.h), in the module step, before any function changes:
// the callers are other functions. One caller that does not handle the
// value keeps the check, whichever order the functions come in.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_CALLERHANDLED_H
#define WRAPIDIOM_CALLERHANDLED_H

#include "analysis/WrapTest.h"

#include <string>

namespace llvm {
class Function;
} // namespace llvm

namespace wrapidiom {

class MatcherFacts;

/// Calls of one helper read at most: past that the check stays.
inline constexpr unsigned MaxCallSites = 8;

/// Op is an operation of Helper's promoted form whose value Helper only
/// returns, and Helper is static (has local linkage); is it handled in
/// every caller? Facts: Helper's (the callers are copied to its scratch
/// module, decided with its options). Why says which caller does not, and
/// why.
bool handledByEveryCaller(const WrappingOp &Op, llvm::Function &Helper,
                          MatcherFacts &Facts, std::string &Why);

/// Is every use of Op's value (but the checks' own) a return, and is
/// there one? (When not, the data-flow proof's reason says which use.)
bool onlyReturned(const WrappingOp &Op);

} // namespace wrapidiom

#endif
