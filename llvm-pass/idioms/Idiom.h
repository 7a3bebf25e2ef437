//===- Idiom.h - The names of wrap-idiom's decisions ----------------------===//
//
// Part of wrapidiom. The enum of idioms, one per WRAP_IDIOM row of
// Idioms.def, on its own: the options (Options.h) name idioms without the
// rules.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_IDIOM_H
#define WRAPIDIOM_IDIOM_H

#include "llvm/ADT/StringRef.h"

namespace wrapidiom {

/// The idioms the rules can prove (one row each in Idioms.def). The names
/// are what `!wrap.idiom` metadata, remarks and statistics use.
enum class Idiom {
  None,
#define WRAP_IDIOM(Enum, Name, Shape, Proof) Enum,
#include "idioms/Idioms.def"
  Ignorelist, // not an idiom: an ignorelist entry names the check
};

llvm::StringRef idiomName(Idiom I);
llvm::StringRef idiomDescription(Idiom I);

} // namespace wrapidiom

#endif
