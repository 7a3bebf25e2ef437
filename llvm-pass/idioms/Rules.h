//===- Rules.h - The rows that decide a check -----------------------------===//
//
// Part of wrapidiom. The table of rules (the WRAP_RULE rows of Idioms.def)
// as C++: a Rule per row, what a row's proof sees of a check (RuleInput)
// and of its function (MatcherFacts), and the Decision a check ends with.
// Every proof function and every re-check of the table is declared here,
// from the table itself: an idiom's file defines its own, nothing else
// names it.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_RULES_H
#define WRAPIDIOM_RULES_H

#include "analysis/ConversionFacts.h"
#include "checks/OverflowCheck.h"
#include "idioms/Idiom.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"

#include <memory>
#include <string>

namespace llvm {
class DemandedBits;
class DomConditionCache;
class DominatorTree;
class Function;
class Instruction;
class TargetLibraryInfo;
class raw_ostream;
} // namespace llvm

namespace wrapidiom {

class DeclaredWrap;
class Ignorelist;
class MemoryFacts;
class PromotedFunction;
class ScratchModule;
struct Decision;
struct FinalTree;
struct PathVerdict;
struct RuleInput;
struct WrapIdiomOptions;
struct WrappingOp;

/// What a row needs to run (Idioms.def): the check alone, its operation,
/// or the decisions of the function's other checks.
enum RuleNeeds { OnCheck, OnOperation, OnFunction };
/// What becomes of a check the row runs on and does not prove.
enum RuleUnproven { Next, Keep };
/// What the row does with a check it proves.
enum RuleAction { Remove, Never, Recheck, Entry };

/// The checks a row runs on, a set of CheckOps.
constexpr unsigned opBit(CheckOp O) { return 1u << unsigned(O); }
constexpr unsigned AddOp = opBit(CheckOp::Add);
constexpr unsigned SubOp = opBit(CheckOp::Sub);
constexpr unsigned PtrOp = opBit(CheckOp::Ptr);
constexpr unsigned NegSub = opBit(CheckOp::Neg) | SubOp;
constexpr unsigned AddSub = AddOp | SubOp;
constexpr unsigned AddSubMul = AddSub | opBit(CheckOp::Mul);
constexpr unsigned Arith = AddSubMul | opBit(CheckOp::Neg);
constexpr unsigned AllOps = Arith | PtrOp;

/// One row of the table of rules.
struct Rule {
  /// The idiom it proves; None for the path walk (data-flow), which proves
  /// one of PathProofs (WrapPaths.h); Ignorelist for the entries.
  Idiom Kind;
  unsigned Ops;
  RuleNeeds Needs;
  RuleUnproven Unproven;
  RuleAction Action;
  bool (*Proves)(RuleInput &In);
  /// Recheck rows: replace the check's condition (in the function itself).
  void (*Recheck)(const OverflowCheck &C, const Decision &D);
  /// What proves it, for the remark; empty: the idiom's description.
  const char *Text;
};

/// The rows, in the order a check goes down them.
llvm::ArrayRef<Rule> rules();
/// "add-compare", "data-flow", ...
llvm::StringRef ruleName(const Rule &R);
/// The table as print<wrap-idiom-rules> prints it, one numbered line a row
/// (the data-flow row with the idioms it proves and what proves each).
void printRules(llvm::raw_ostream &OS);

/// What a re-check builds its condition from, besides the check itself
/// (each Recheck function says what it reads).
struct RecheckArgs {
  /// An operand of the checked arithmetic, by index.
  unsigned Operand = 0;
  /// Another checked operation of the function.
  llvm::Instruction *Partner = nullptr;
  /// What the front end says of the operation's C types (signed-meaning).
  SignFacts Signs;
  /// The expression whose true result the check tests (final-result).
  std::shared_ptr<const FinalTree> Tree;
};

/// What the module step read of a function before promoting it
/// (ModulePasses.cpp), for the rows that need the C declarations and types.
struct FrontEndFacts {
  /// The declarations marked to wrap, mapped onto the promoted function
  /// (DeclaredWrap.h); null: none to consult.
  const DeclaredWrap *Declared = nullptr;
  /// The sign-change checks' facts, by the function's own operations
  /// (ConversionFacts.h); null: none.
  const SignFactMap *Signs = nullptr;
  /// The promoted form the rows read, to find the function's own values.
  const PromotedFunction *Promoted = nullptr;
};

/// What becomes of a check.
struct Decision {
  /// The idiom proved, Ignorelist for an entry; None: the check stays.
  Idiom Kind = Idiom::None;
  /// The row that decided it (its action, its re-check, its text).
  const Rule *By = nullptr;
  /// Why the check stays, when Kind is None.
  std::string Reason;
  /// The ignorelist entry that decided it, and where it is.
  std::string Detail;
  RecheckArgs Args;
  /// A `=sanitize` entry keeps it as clang emitted it.
  bool KeptByEntry = false;

  explicit operator bool() const { return Kind != Idiom::None; }
  bool removes() const { return By && By->Action != Recheck; }
  bool rechecks() const { return By && By->Action == Recheck; }
  /// What proves it: the row's text, or the idiom's description.
  llvm::StringRef proof() const;
};

/// Every check of a function and where each stands, for the OnFunction
/// rows, which decide a check from the others' decisions. A row keeps what
/// it computes once per function under a key of its own (state()).
struct FunctionChecks {
  /// The checks as found in the function, and mapped onto the promoted
  /// function the rows read.
  llvm::ArrayRef<OverflowCheck> Original, Mapped;
  /// The decisions so far.
  llvm::ArrayRef<Decision> Decisions;

  /// The state a row built for this function under Key, made by Make on
  /// first use.
  template <typename T, typename MakeT> T &state(const void *Key, MakeT Make) {
    std::shared_ptr<void> &S = States[Key];
    if (!S)
      S = std::make_shared<T>(Make());
    return *static_cast<T *>(S.get());
  }

private:
  llvm::DenseMap<const void *, std::shared_ptr<void>> States;
};

/// What the rows share over one function (the promoted form they read):
/// the analysis manager's analyses of it, and the facts built on first use
/// (IdiomMatcher.cpp). Rows read other functions only through these, in
/// the module step, before any function changes.
class MatcherFacts {
public:
  /// F: the promoted function (itself, or its copy in Scratch); TLI that of
  /// the function it was promoted from; Original: that function, null for
  /// a caller read for caller-handled; IL: the ignorelists, or null.
  MatcherFacts(llvm::Function &F, llvm::FunctionAnalysisManager &FAM,
               const llvm::TargetLibraryInfo &TLI,
               const WrapIdiomOptions &Opts, llvm::Function *Original,
               const Ignorelist *IL, ScratchModule &Scratch,
               FrontEndFacts FrontEnd);
  ~MatcherFacts();

  const llvm::DominatorTree &dominators();
  const llvm::DomConditionCache &conditions();
  llvm::DemandedBits &demandedBits();
  MemoryFacts &memory();
  /// Follow Op's wrapped executions (WrapPaths.h).
  PathVerdict followWrapped(const WrappingOp &Op);
  /// The body a callee of F stands for: itself, or the module's function a
  /// declaration of the scratch module stands for.
  const llvm::Function &body(const llvm::Function &Callee) const;

  /// The function the promoted one stands for, whose callers caller-handled
  /// reads; null for a caller read for that row, where it does not run.
  llvm::Function *original() const { return Original; }
  const llvm::TargetLibraryInfo &libraryInfo() const { return TLI; }
  const WrapIdiomOptions &options() const { return Opts; }
  /// The ignorelists (the Entry row); null: none.
  const Ignorelist *ignorelist() const { return IL; }
  /// Where copies of other functions go (caller-handled reads callers).
  ScratchModule &scratch() const { return Scratch; }
  llvm::FunctionAnalysisManager &analyses() const { return FAM; }
  /// What the front end said of F's declarations and C types.
  const FrontEndFacts &frontEnd() const { return FrontEnd; }

private:
  llvm::Function &F;
  llvm::FunctionAnalysisManager &FAM;
  const llvm::TargetLibraryInfo &TLI;
  const WrapIdiomOptions &Opts;
  llvm::Function *Original;
  const Ignorelist *IL;
  ScratchModule &Scratch;
  FrontEndFacts FrontEnd;
  struct Built;
  std::unique_ptr<Built> B;
};

/// What a row's proof sees of one check.
struct RuleInput {
  RuleInput(const OverflowCheck &C, const OverflowCheck &Original,
            MatcherFacts &Facts, FunctionChecks *All, size_t Index)
      : C(C), Original(Original), Facts(Facts), All(All), Index(Index) {}

  /// The check, mapped onto the promoted function.
  const OverflowCheck &C;
  /// The check as found in the function itself (its file, its function,
  /// for the ignorelists).
  const OverflowCheck &Original;
  /// The operation (WrapTest.h): set for OnOperation rows, else null.
  WrappingOp *Op = nullptr;
  MatcherFacts &Facts;
  /// OnFunction rows: every check of the function, and this one's index.
  FunctionChecks *All;
  size_t Index;
  /// The idiom proved: the row's own, or the one the path walk proved.
  Idiom Kind = Idiom::None;
  /// Why the last row to say so did not prove the check: the reason to
  /// keep it when no row does.
  std::string Why;
  /// Recheck rows: what the re-check reads.
  RecheckArgs Args;
  /// The Entry row: the entry that matched, and whether it is `=sanitize`.
  std::string Entry;
  bool Sanitize = false;
};

// The proofs and re-checks of the table.
#define WRAP_RULE(Kind, Ops, Needs, Unproven, Action, Proves, Recheck, Text)  \
  bool Proves(RuleInput &In);                                                  \
  void Recheck(const OverflowCheck &C, const Decision &D);
#include "idioms/Idioms.def"

} // namespace wrapidiom

#endif
