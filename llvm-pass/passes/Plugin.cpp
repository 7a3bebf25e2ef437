//===- Plugin.cpp - Register wrap-idiom with the new pass manager ---------===//
//
// Part of wrapidiom.
//
//   clang -fpass-plugin=WrapIdiom.so ...     runs it at pipeline start, at
//                                            every optimisation level
//   opt -load-pass-plugin=WrapIdiom.so -passes=wrap-idiom ...
//   opt -load-pass-plugin=WrapIdiom.so -passes='wrap-idiom<report>' ...
//                                            the module step and the
//                                            function pass (WrapIdiom.h)
//   opt -load-pass-plugin=WrapIdiom.so -passes='print<wrap-idiom-rules>'
//       -disable-output /dev/null            prints the table of rules in
//                                            the order a check goes down it
//
// The -wrap-idiom-* options below are read once, into the WrapIdiomOptions
// (idioms/Options.h) each pipeline's passes are built with; pipeline
// parameters override them. The ignorelists they name are loaded once, and
// the passes hold them (ignorelist/IgnorelistCheck.h).
//
//===----------------------------------------------------------------------===//
#include "analysis/FunctionIndex.h"
#include "ignorelist/IgnorelistCheck.h"
#include "idioms/Options.h"
#include "passes/WrapIdiom.h"
#include "passes/PointerNull.h"
#include "passes/WrapvPointer.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#if LLVM_VERSION_MAJOR >= 22
#include "llvm/Plugins/PassPlugin.h"
#else
#include "llvm/Passes/PassPlugin.h"
#endif

#include <memory>

using namespace llvm;

namespace wrapidiom {

namespace {

cl::OptionCategory Category("wrap-idiom options");

cl::opt<Mode> ModeOpt(
    "wrap-idiom-mode", cl::desc("What to do with a recognised check"),
    cl::init(Mode::Remove), cl::cat(Category),
    cl::values(clEnumValN(Mode::Remove, "remove",
                          "turn the check off (default)"),
               clEnumValN(Mode::Report, "report",
                          "tag and remark, but keep the check")));

cl::list<Idiom> DisabledIdioms(
    "wrap-idiom-disable", cl::desc("Idioms not to act on (comma-separated)"),
    cl::CommaSeparated, cl::cat(Category),
    cl::ValuesClass({
#define WRAP_IDIOM(Enum, Name, Shape, Proof) clEnumValN(Idiom::Enum, Name, Shape),
#include "idioms/Idioms.def"
    }));

cl::opt<bool> SignedWrap(
    "wrap-idiom-signed-wrap",
    cl::desc("Signed arithmetic wraps in this build (-fwrapv or "
             "-fno-strict-overflow): accept signed wrap tests"),
    cl::init(false), cl::cat(Category));

cl::opt<bool> PointerWrap(
    "wrap-idiom-pointer-wrap",
    cl::desc("Accept `p + n < p` pointer wrap tests: turn their check off "
             "and drop the GEP's inbounds so the test stays"),
    cl::init(false), cl::cat(Category));

cl::opt<bool> WrapvPointer(
    "wrap-idiom-wrapv-pointer",
    cl::desc("The file is built with -fno-wrapv-pointer only so that clang "
             "emits pointer-overflow checks: first thing at pipeline start, "
             "drop every GEP's no-wrap flags (inbounds, nusw, nuw), giving "
             "the IR -fwrapv-pointer's semantics back; implies "
             "-wrap-idiom-pointer-wrap"),
    cl::init(false), cl::cat(Category));

cl::opt<bool> ConversionFacts(
    "wrap-idiom-conversion-facts",
    cl::desc("The file is built with -fsanitize=implicit-integer-sign-change "
             "only for the plugin: read those checks as facts about the C "
             "signedness of operands and results (signed-meaning), then "
             "remove them"),
    cl::init(false), cl::cat(Category));

enum class NullOffset { Check, Allow };
cl::opt<NullOffset> NullOffsetOpt(
    "wrap-idiom-null-offset",
    cl::desc("The null part of pointer-overflow checks (\"applying non-zero "
             "offset to null pointer\")"),
    cl::init(NullOffset::Check), cl::cat(Category),
    cl::values(clEnumValN(NullOffset::Check, "check",
                          "keep it as clang emits it (default)"),
               clEnumValN(NullOffset::Allow, "allow",
                          "a null base may take any offset; wrap and a "
                          "non-null base producing null stay checked")));

cl::opt<unsigned> Budget(
    "wrap-idiom-budget",
    cl::desc("Work per check: instructions followed on the wrapped value's "
             "paths, and other computations of the value compared with it; "
             "a check that needs more is kept"),
    cl::init(4096), cl::Hidden, cl::cat(Category));

cl::opt<std::string> CheckIsolation(
    "wrap-idiom-check-isolation",
    cl::desc("Debugging: around every run of a function pass whose name "
             "the regular expression matches, require the module's other "
             "functions and its list of functions to be unchanged"),
    cl::value_desc("regex"), cl::Hidden, cl::cat(Category));

cl::list<std::string> IgnorelistFiles(
    "wrap-idiom-ignorelist",
    cl::desc("Sanitizer special case list: turn off (or, with =sanitize, "
             "keep) the checks it names; repeatable, later entries win"),
    cl::value_desc("file"), cl::cat(Category));

/// The options as given on the command line: the defaults of every
/// pipeline.
WrapIdiomOptions commandLineOptions() {
  WrapIdiomOptions O;
  O.Action = ModeOpt;
  O.Disabled.assign(DisabledIdioms.begin(), DisabledIdioms.end());
  O.SignedWrap = SignedWrap;
  O.PointerWrap = PointerWrap;
  O.WrapvPointer = WrapvPointer;
  O.ConversionFacts = ConversionFacts;
  O.NullOffsetAllowed = NullOffsetOpt == NullOffset::Allow;
  O.Budget = Budget;
  return O;
}

using Ignorelists = std::shared_ptr<const LoadedIgnorelists>;

/// `wrap-idiom<params>`: the module step, then the function pass acting on
/// what it decided, with the same options.
void addWrapIdiom(ModulePassManager &MPM, const WrapIdiomOptions &Opts,
                  const Ignorelists &Lists) {
  MPM.addPass(WrapIdiomModulePass(Opts, Lists));
  MPM.addPass(createModuleToFunctionPassAdaptor(WrapIdiomPass(Opts, Lists)));
}

/// `PassName` or `PassName<params>` (wrap-idiom, wrap-idiom-module): Add
/// the pass(es) with the options of the parameters over Defaults. False if
/// Name is another pass or its parameters are bad. A bad parameter is
/// reported here, once (the pass builder tries a name with every kind of
/// pass manager), and the pass builder then fails on the name: opt prints
/// both and exits 1.
bool parseWrapIdiom(StringRef Name, StringRef PassName,
                    const WrapIdiomOptions &Defaults, StringSet<> &Reported,
                    function_ref<void(WrapIdiomOptions)> Add) {
  if (!PassBuilder::checkParametrizedPassName(Name, PassName))
    return false;
  Expected<WrapIdiomOptions> Opts = PassBuilder::parsePassParameters(
      [&](StringRef Params) {
        return WrapIdiomOptions::parse(Params, Defaults);
      },
      Name, PassName);
  if (!Opts) {
    std::string Message = toString(Opts.takeError());
    if (Reported.insert(Name).second)
      errs() << "error: wrap-idiom: " << Message << "\n";
    return false;
  }
  Add(std::move(*Opts));
  return true;
}

} // namespace

} // namespace wrapidiom

namespace {

void registerCallbacks(PassBuilder &PB) {
  using namespace wrapidiom;
  // Options are parsed by now, modules not yet optimised: a bad list fails
  // every compilation, whatever the module holds.
  const Ignorelists Lists = LoadedIgnorelists::load(
      std::vector<std::string>(IgnorelistFiles.begin(), IgnorelistFiles.end()));
  const WrapIdiomOptions Defaults = commandLineOptions();
  auto Reported = std::make_shared<StringSet<>>();
  // The module step and the function pass (WrapIdiom.h), each with the
  // options: `-passes=wrap-idiom<params>` is the two, and prints as
  // `wrap-idiom-module<params>,function(wrap-idiom<params>)`, which names
  // them one by one.
  PB.registerAnalysisRegistrationCallback([](ModuleAnalysisManager &MAM) {
    MAM.registerPass([] { return WrapIdiomDecisionsAnalysis(); });
  });
  PB.registerAnalysisRegistrationCallback([](FunctionAnalysisManager &FAM) {
    FAM.registerPass([] { return FunctionIndexAnalysis(); });
  });
  if (!CheckIsolation.empty())
    if (PassInstrumentationCallbacks *PIC = PB.getPassInstrumentationCallbacks())
      registerIsolationCheck(*PIC, CheckIsolation);
  PB.registerPipelineParsingCallback(
      [Defaults, Reported, Lists](StringRef Name, ModulePassManager &MPM,
                                  ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == WrapvPointerPass::name()) {
          MPM.addPass(WrapvPointerPass());
          return true;
        }
        if (Name == WrapIdiomRulesPrinterPass::pipelineName()) {
          MPM.addPass(WrapIdiomRulesPrinterPass(errs()));
          return true;
        }
        if (parseWrapIdiom(Name, WrapIdiomModulePass::name(), Defaults,
                           *Reported, [&](WrapIdiomOptions Opts) {
                             MPM.addPass(
                                 WrapIdiomModulePass(std::move(Opts), Lists));
                           }))
          return true;
        return parseWrapIdiom(Name, WrapIdiomPass::name(), Defaults, *Reported,
                              [&](WrapIdiomOptions Opts) {
                                addWrapIdiom(MPM, Opts, Lists);
                              });
      });
  PB.registerPipelineParsingCallback(
      [Defaults, Reported, Lists](StringRef Name, FunctionPassManager &FPM,
                                  ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == PointerNullPass::name()) {
          FPM.addPass(PointerNullPass());
          return true;
        }
        return parseWrapIdiom(Name, WrapIdiomPass::name(), Defaults, *Reported,
                              [&](WrapIdiomOptions Opts) {
                                FPM.addPass(
                                    WrapIdiomPass(std::move(Opts), Lists));
                              });
      });
  // Pipeline start: clang's IR as emitted, before SROA/InstCombine rewrite
  // `a + b < a` into the overflow bit itself, and the same at every -O.
  // With -wrap-idiom-wrapv-pointer, the GEP flags go before anything else
  // can rely on them, wrap-idiom included.
  PB.registerPipelineStartEPCallback(
      [Defaults, Lists](ModulePassManager &MPM, OptimizationLevel) {
        if (Defaults.WrapvPointer)
          MPM.addPass(WrapvPointerPass());
        if (Defaults.NullOffsetAllowed)
          MPM.addPass(createModuleToFunctionPassAdaptor(PointerNullPass()));
        addWrapIdiom(MPM, Defaults, Lists);
      });
  // An LTO link's pipelines do not start there: given only to the link,
  // the plugin would do nothing without a word.
  PB.registerFullLinkTimeOptimizationEarlyEPCallback(
      [Lists](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(WrapIdiomLinkCheckPass(Lists));
      });
#if LLVM_VERSION_MAJOR >= 20
  // LLVM 19's callbacks do not carry the phase: no check for ThinLTO there.
  PB.registerOptimizerEarlyEPCallback(
      [Lists](ModulePassManager &MPM, OptimizationLevel,
              ThinOrFullLTOPhase Phase) {
        if (Phase == ThinOrFullLTOPhase::ThinLTOPostLink)
          MPM.addPass(WrapIdiomLinkCheckPass(Lists));
      });
#endif
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "wrap-idiom", LLVM_VERSION_STRING,
          registerCallbacks};
}
