//===- Options.h - What wrap-idiom is asked to do -------------------------===//
//
// Part of wrapidiom. One WrapIdiomOptions is built per pipeline, either
//
//   from the -wrap-idiom-* command-line options (Plugin.cpp), which Kbuild
//   gives as  clang -fpass-plugin=WrapIdiom.so -mllvm -wrap-idiom-mode=report
//   (older clang also needs -fplugin=WrapIdiom.so so that the options exist
//   when -mllvm is parsed; see README.md), or
//
//   from pipeline parameters over those:
//     opt -passes='wrap-idiom<report;signed-wrap;budget=64;disable=modular>'
//
// The passes hold it and hand it down, as a const reference, to whatever
// decides: no decision reads a command-line option or a global. The code
// is in Options.cpp, beside this.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_OPTIONS_H
#define WRAPIDIOM_OPTIONS_H

#include "idioms/Idiom.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <algorithm>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace wrapidiom {

enum class Mode {
  Remove, // fold recognised checks away (default)
  Report, // recognise and tag, but keep every check
};

struct WrapIdiomOptions {
  /// -wrap-idiom-mode, `remove`/`report`: what to do with a recognised check.
  Mode Action = Mode::Remove;
  /// -wrap-idiom-disable, `disable=`: idioms not to act on.
  llvm::SmallVector<Idiom, 4> Disabled;
  /// -wrap-idiom-signed-wrap, `signed-wrap`: signed arithmetic wraps in
  /// this build (-fwrapv, -fno-strict-overflow). Without it a signed wrap
  /// test relies on undefined behaviour, which the sanitizer exists to
  /// report, so its check stays.
  bool SignedWrap = false;
  /// -wrap-idiom-pointer-wrap, `pointer-wrap`: accept `p + n < p`. Pointer
  /// wrap is undefined in C and an inbounds GEP lets the optimiser fold the
  /// test away, so the pass also drops the GEP's no-wrap flags to keep the
  /// test meaningful.
  bool PointerWrap = false;
  /// -wrap-idiom-wrapv-pointer, `wrapv-pointer`: the file is built with
  /// -fno-wrapv-pointer only so that clang emits pointer-overflow checks.
  /// At pipeline start WrapvPointerPass drops every GEP's no-wrap flags
  /// first (WrapvPointer.h); to the decisions it implies PointerWrap.
  bool WrapvPointer = false;
  /// -wrap-idiom-conversion-facts, `conversion-facts`: the file is built
  /// with -fsanitize=implicit-integer-sign-change only for the plugin. Its
  /// checks are read as facts about the C signedness of operands and
  /// results in any case (ConversionFacts.h, signed-meaning); with this
  /// they are then removed, so the user sees no check they did not ask for.
  bool ConversionFacts = false;
  /// -wrap-idiom-null-offset=allow: at pipeline start PointerNullPass lets
  /// a null base take an offset in pointer-overflow checks (PointerNull.h).
  /// No decision of wrap-idiom reads it, so it is no pipeline parameter: a
  /// pipeline names `function(wrap-idiom-null-offset)` itself.
  bool NullOffsetAllowed = false;
  /// -wrap-idiom-budget, `budget=` (default 4096): the work one check may
  /// take, counted as instructions followed on the wrapped value's paths
  /// and, separately, as other computations of the value compared with it.
  /// A check that needs more is kept, with a remark saying so: a budget
  /// never removes a check, it only bounds the time a huge function takes.
  unsigned Budget = 4096;

  bool idiomEnabled(Idiom I) const {
    return std::find(Disabled.begin(), Disabled.end(), I) == Disabled.end();
  }
  bool signedWrapDefined() const { return SignedWrap; }
  bool pointerWrapDefined() const { return PointerWrap || WrapvPointer; }
  /// The budget in force: 0 counts as 1.
  unsigned budget() const { return std::max(1u, Budget); }

  /// Pipeline parameters of `wrap-idiom<Params>` (Params without the angle
  /// brackets, `;`-separated) over Defaults: `remove`, `report`,
  /// `[no-]signed-wrap`, `[no-]pointer-wrap`, `[no-]wrapv-pointer`,
  /// `budget=N`, `disable=IDIOM|...` (which replaces the default list;
  /// empty: none). An error (a StringError) names the parameter and why.
  static llvm::Expected<WrapIdiomOptions>
  parse(llvm::StringRef Params, const WrapIdiomOptions &Defaults);

  /// Every parameter, in the form parse() reads: `report;no-signed-wrap;...`.
  void printParameters(llvm::raw_ostream &OS) const;

  /// The same parameters (the module step and the function pass of one
  /// wrap-idiom<...> must agree).
  bool operator==(const WrapIdiomOptions &O) const {
    return Action == O.Action && Disabled == O.Disabled &&
           SignedWrap == O.SignedWrap && PointerWrap == O.PointerWrap &&
           WrapvPointer == O.WrapvPointer && Budget == O.Budget;
  }
  bool operator!=(const WrapIdiomOptions &O) const { return !(*this == O); }
};

} // namespace wrapidiom

#endif
