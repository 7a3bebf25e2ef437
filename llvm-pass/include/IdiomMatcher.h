//===- IdiomMatcher.h - Decide whether a wrap is intentional and handled --===//
//
// Part of wrapidiom. A check may be turned off only when the program itself
// tests whether this very operation wrapped, and the wrapped value cannot
// reach anything but that test. Every rule below is a proof of that; when
// no rule proves it, the check stays.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_IDIOMMATCHER_H
#define WRAPIDIOM_IDIOMMATCHER_H

#include "OverflowCheck.h"

#include "llvm/ADT/StringRef.h"
#include <string>

namespace llvm {
class Function;
class Value;
} // namespace llvm

namespace wrapidiom {

/// The idioms the matcher can prove. The names are what `!wrap.idiom`
/// metadata, remarks and statistics use.
enum class Idiom {
  None,
  AddCompare, // a + b < a  (sum compared with an addend)
  SubCompare, // a - b > a  (difference compared with its minuend)
  PtrCompare, // p + n < p  (pointer sum compared with its base)
  Ignorelist, // not an idiom: an ignorelist entry names the check
};

llvm::StringRef idiomName(Idiom I);
llvm::StringRef idiomDescription(Idiom I);

struct Decision {
  Idiom Kind = Idiom::None;
  /// Why the check stays, when Kind is None.
  std::string Reason;
  /// What decided it, when that is more than the idiom's description
  /// (the ignorelist entry and where it is).
  std::string Detail;
  explicit operator bool() const { return Kind != Idiom::None; }
};

class IdiomMatcher {
public:
  /// F is the promoted shadow the check lives in.
  explicit IdiomMatcher(llvm::Function &F) : F(F) {}

  /// Decide on a check of F (already mapped onto the shadow).
  Decision decide(const OverflowCheck &C);

private:
  llvm::Function &F;
};

} // namespace wrapidiom

#endif
