//===- Rules.cpp - The table of rules -------------------------------------===//
//
// Part of wrapidiom. See Rules.h: the WRAP_RULE rows of Idioms.def as an
// array, how it prints, and the Entry row's proof (the ignorelists).
//
//===----------------------------------------------------------------------===//
#include "idioms/Rules.h"

#include "idioms/WrapPaths.h"
#include "ignorelist/IgnorelistCheck.h"
#include "RemarkSchema.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace wrapidiom {

namespace {

constexpr Rule Table[] = {
#define WRAP_RULE(Kind, Ops, Needs, Unproven, Action, Proves, Recheck, Text)  \
  {Idiom::Kind, Ops, Needs, Unproven, Action, Proves, Recheck, Text},
#include "idioms/Idioms.def"
};

constexpr CheckOp AllCheckOps[] = {CheckOp::Add, CheckOp::Sub, CheckOp::Mul,
                                   CheckOp::Neg, CheckOp::Ptr};

StringRef actionName(RuleAction A) {
  switch (A) {
  case Remove:
    return "remove";
  case Never:
    return "remove, as a check that cannot fire (also where the wrap is "
           "undefined)";
  case Recheck:
    return "re-check";
  case Entry:
    return "an entry removes, a `=sanitize` entry keeps as emitted";
  }
  return "?";
}

} // namespace

ArrayRef<Rule> rules() { return Table; }

StringRef ruleName(const Rule &R) {
  return R.Kind == Idiom::None ? "data-flow" : idiomName(R.Kind);
}

StringRef Decision::proof() const {
  if (By && By->Text[0])
    return By->Text;
  return idiomDescription(Kind);
}

void printRules(raw_ostream &OS) {
  OS << "wrap-idiom: the rules, in the order a check goes down them "
        "(idioms/Idioms.def)\n";
  unsigned N = 0;
  for (const Rule &R : Table) {
    OS << ++N << ". " << ruleName(R) << ": " << actionName(R.Action) << " (";
    ListSeparator Comma;
    for (CheckOp O : AllCheckOps)
      if (R.Ops & opBit(O))
        OS << Comma << checkOpName(O);
    OS << (R.Needs == OnCheck && R.Action != Entry ? "; on the check alone"
                                                     : "")
       << (R.Needs == OnFunction ? "; once every check of the function has "
                                   "been through the rows above"
                                 : "")
       << (R.Unproven == Keep ? "; keeps a check it does not prove" : "")
       << ")";
    if (R.Kind == Idiom::None) {
      OS << ", proving the first that holds of";
      for (const PathProof &P : PathProofs)
        OS << "\n   " << idiomName(P.Kind) << ": " << P.Where;
    }
    OS << '\n';
  }
}

void noRecheck(const OverflowCheck &, const Decision &) {}

/// The Entry row: the ignorelists' entry for the check, as found in the
/// function itself (its file, its function), if any.
bool ignorelisted(RuleInput &In) {
  const Ignorelist *IL = In.Facts.ignorelist();
  if (!IL || IL->empty())
    return false;
  const Function &F = *In.Original.Branch->getFunction();
  std::optional<Ignorelist::Match> M = lookup(*IL, In.Original, F);
  if (!M)
    return false;
  In.Entry = remark::entryText(M->Entry, M->File, M->Line);
  In.Sanitize = M->Sanitize;
  return true;
}

} // namespace wrapidiom
