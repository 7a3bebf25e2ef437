//===- Options.cpp - wrap-idiom's pipeline parameters ---------------------===//
//
// Part of wrapidiom. See Options.h. The parameters follow LLVM's own
// (`simplifycfg<no-forward-switch-cond;bonus-inst-threshold=1>`): `;`
// between them, a flag and its `no-` form, `name=value`; printed in full,
// as LLVM prints its passes' parameters, so that `opt
// -print-pipeline-passes` parses back to the same pipeline whatever the
// -wrap-idiom-* options say. A list is `|`-separated, as in LLVM's
// `lower-allow-check<cutoffs[1|2]=N>`: a comma ends the pass in a pipeline.
//
//===----------------------------------------------------------------------===//
#include "idioms/Options.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace llvm;

namespace wrapidiom {

namespace {

struct Flag {
  StringRef Name;
  bool WrapIdiomOptions::*Field;
};

constexpr Flag Flags[] = {
    {"signed-wrap", &WrapIdiomOptions::SignedWrap},
    {"pointer-wrap", &WrapIdiomOptions::PointerWrap},
    {"wrapv-pointer", &WrapIdiomOptions::WrapvPointer},
    {"conversion-facts", &WrapIdiomOptions::ConversionFacts},
};

Error invalid(StringRef Param, const Twine &Why) {
  return make_error<StringError>("invalid wrap-idiom pass parameter '" + Param +
                                     "': " + Why,
                                 inconvertibleErrorCode());
}

/// The idiom of a name in Idioms.def, as -wrap-idiom-disable takes it.
std::optional<Idiom> idiomNamed(StringRef Name) {
#define WRAP_IDIOM(Enum, IdiomName, Shape, Proof)                              \
  if (Name == IdiomName)                                                       \
    return Idiom::Enum;
#include "idioms/Idioms.def"
  return std::nullopt;
}

} // namespace

Expected<WrapIdiomOptions>
WrapIdiomOptions::parse(StringRef Params, const WrapIdiomOptions &Defaults) {
  WrapIdiomOptions O = Defaults;
  while (!Params.empty()) {
    StringRef Param;
    std::tie(Param, Params) = Params.split(';');
    if (Param == "remove" || Param == "report") {
      O.Action = Param == "report" ? Mode::Report : Mode::Remove;
      continue;
    }
    StringRef Name = Param;
    bool Value = !Name.consume_front("no-");
    const Flag *F =
        llvm::find_if(Flags, [&](const Flag &F) { return F.Name == Name; });
    if (F != std::end(Flags)) {
      O.*(F->Field) = Value;
      continue;
    }
    StringRef Arg = Param;
    if (Arg.consume_front("budget=")) {
      if (Arg.getAsInteger(10, O.Budget))
        return invalid(Param, "budget= takes a number");
      continue;
    }
    if (Arg.consume_front("disable=")) {
      O.Disabled.clear();
      while (!Arg.empty()) {
        StringRef IdiomName;
        std::tie(IdiomName, Arg) = Arg.split('|');
        std::optional<Idiom> I = idiomNamed(IdiomName);
        if (!I)
          return invalid(Param, "no idiom is named '" + IdiomName +
                                    "' (llvm-pass/IDIOMS.md)");
        O.Disabled.push_back(*I);
      }
      continue;
    }
    return invalid(Param, "expected remove, report, [no-]signed-wrap, "
                          "[no-]pointer-wrap, [no-]wrapv-pointer, "
                          "[no-]conversion-facts, budget=N or "
                          "disable=IDIOM|...");
  }
  return O;
}

void WrapIdiomOptions::printParameters(raw_ostream &OS) const {
  OS << (Action == Mode::Report ? "report" : "remove");
  for (const Flag &F : Flags)
    OS << ';' << (this->*(F.Field) ? "" : "no-") << F.Name;
  OS << ";budget=" << Budget << ";disable=";
  ListSeparator Bar("|");
  for (Idiom I : Disabled)
    OS << Bar << idiomName(I);
}

} // namespace wrapidiom
