//===- Plugin.cpp - Register wrap-idiom with the new pass manager ---------===//
//
// Part of wrapidiom.
//
//   clang -fpass-plugin=WrapIdiom.so ...     runs it at pipeline start, at
//                                            every optimisation level
//   opt -load-pass-plugin=WrapIdiom.so -passes=wrap-idiom ...
//   opt -load-pass-plugin=WrapIdiom.so -passes='wrap-idiom<report>' ...
//   opt -load-pass-plugin=WrapIdiom.so -passes='print<wrap-idiom-rules>'
//       -disable-output /dev/null            prints the matcher's rules in
//                                            the order it tries them
//
// The -wrap-idiom-* options below are read once, into the WrapIdiomOptions
// (Options.h) each pipeline's passes are built with; pipeline parameters
// override them.
//
//===----------------------------------------------------------------------===//
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
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#if LLVM_VERSION_MAJOR >= 22
#include "llvm/Plugins/PassPlugin.h"
#else
#include "llvm/Passes/PassPlugin.h"
#endif

#include <atomic>
#include <cstdlib>
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

cl::list<std::string> IgnorelistFiles(
    "wrap-idiom-ignorelist",
    cl::desc("Sanitizer special case list: turn off (or, with =sanitize, "
             "keep) the checks it names; repeatable, later entries win"),
    cl::value_desc("file"), cl::cat(Category));

struct LoadedIgnorelists {
  std::unique_ptr<Ignorelist> Lists;
  std::string Error; // "wrap-idiom: FILE:LINE: cause"; empty if loaded
};

const LoadedIgnorelists &loaded() {
  static const LoadedIgnorelists Loaded = [] {
    LoadedIgnorelists L;
    Expected<std::unique_ptr<Ignorelist>> Lists =
        Ignorelist::load(std::vector<std::string>(IgnorelistFiles.begin(),
                                                  IgnorelistFiles.end()));
    if (Lists)
      L.Lists = std::move(*Lists);
    else
      L.Error = "wrap-idiom: " + toString(Lists.takeError());
    return L;
  }();
  return Loaded;
}

} // namespace

void loadIgnorelists() { (void)loaded(); }

const Ignorelist *ignorelist(LLVMContext &Ctx) {
  const LoadedIgnorelists &L = loaded();
  if (L.Error.empty())
    return L.Lists.get();
  static std::atomic<bool> Diagnosed{false};
  if (!Diagnosed.exchange(true)) {
    // opt's context has no diagnostic handler of its own: an error prints
    // and exit(1)s inside emitError, past the output file opt opened
    // before building the pipeline, which would stay behind empty. Remove
    // the files registered for removal at exit, as report_fatal_error
    // does. clang and lld handle the error and fail later themselves,
    // having discarded their outputs, so nothing is left to remove then.
    std::atexit([] { sys::RunInterruptHandlers(); });
    // Through the context's diagnostic handler: clang prints it as
    // `error:` and exits 1, opt likewise.
    Ctx.emitError(L.Error);
  }
  return nullptr;
}

namespace {

/// The options as given on the command line: the defaults of every
/// pipeline.
WrapIdiomOptions commandLineOptions() {
  WrapIdiomOptions O;
  O.Action = ModeOpt;
  O.Disabled.assign(DisabledIdioms.begin(), DisabledIdioms.end());
  O.SignedWrap = SignedWrap;
  O.PointerWrap = PointerWrap;
  O.WrapvPointer = WrapvPointer;
  O.NullOffsetAllowed = NullOffsetOpt == NullOffset::Allow;
  O.Budget = Budget;
  return O;
}

void addWrapIdiom(ModulePassManager &MPM, const WrapIdiomOptions &Opts) {
  MPM.addPass(WrapIdiomModulePass());
  MPM.addPass(createModuleToFunctionPassAdaptor(WrapIdiomPass(Opts)));
}

/// `wrap-idiom` or `wrap-idiom<params>`: Add the pass(es) with the
/// options of the parameters over Defaults. False if Name is another pass
/// or its parameters are bad. A bad parameter is reported here, once (the
/// pass builder tries a name with every kind of pass manager), and the
/// pass builder then fails on the name: opt prints both and exits 1.
bool parseWrapIdiom(StringRef Name, const WrapIdiomOptions &Defaults,
                    StringSet<> &Reported,
                    function_ref<void(WrapIdiomOptions)> Add) {
  if (!PassBuilder::checkParametrizedPassName(Name, WrapIdiomPass::name()))
    return false;
  Expected<WrapIdiomOptions> Opts = PassBuilder::parsePassParameters(
      [&](StringRef Params) {
        return WrapIdiomOptions::parse(Params, Defaults);
      },
      Name, WrapIdiomPass::name());
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
  loadIgnorelists();
  const WrapIdiomOptions Defaults = commandLineOptions();
  auto Reported = std::make_shared<StringSet<>>();
  // `-passes=wrap-idiom` is the module pass and the function pass, so
  // that opt reports a bad list for a module without functions too;
  // `function(wrap-idiom)` the function pass alone, `wrap-idiom-module`
  // (what the first prints as) the module pass alone.
  PB.registerPipelineParsingCallback(
      [Defaults, Reported](StringRef Name, ModulePassManager &MPM,
                           ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == WrapvPointerPass::name()) {
          MPM.addPass(WrapvPointerPass());
          return true;
        }
        if (Name == WrapIdiomModulePass::pipelineName()) {
          MPM.addPass(WrapIdiomModulePass());
          return true;
        }
        if (Name == WrapIdiomRulesPrinterPass::pipelineName()) {
          MPM.addPass(WrapIdiomRulesPrinterPass(errs()));
          return true;
        }
        return parseWrapIdiom(Name, Defaults, *Reported,
                              [&](WrapIdiomOptions Opts) {
                                addWrapIdiom(MPM, Opts);
                              });
      });
  PB.registerPipelineParsingCallback(
      [Defaults, Reported](StringRef Name, FunctionPassManager &FPM,
                           ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == PointerNullPass::name()) {
          FPM.addPass(PointerNullPass());
          return true;
        }
        return parseWrapIdiom(Name, Defaults, *Reported,
                              [&](WrapIdiomOptions Opts) {
                                FPM.addPass(WrapIdiomPass(std::move(Opts)));
                              });
      });
  // Pipeline start: clang's IR as emitted, before SROA/InstCombine rewrite
  // `a + b < a` into the overflow bit itself, and the same at every -O.
  // With -wrap-idiom-wrapv-pointer, the GEP flags go before anything else
  // can rely on them, wrap-idiom included.
  PB.registerPipelineStartEPCallback(
      [Defaults](ModulePassManager &MPM, OptimizationLevel) {
        if (Defaults.WrapvPointer)
          MPM.addPass(WrapvPointerPass());
        if (Defaults.NullOffsetAllowed)
          MPM.addPass(createModuleToFunctionPassAdaptor(PointerNullPass()));
        addWrapIdiom(MPM, Defaults);
      });
  // An LTO link's pipelines do not start there: given only to the link,
  // the plugin would do nothing without a word.
  PB.registerFullLinkTimeOptimizationEarlyEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(WrapIdiomLinkCheckPass());
      });
#if LLVM_VERSION_MAJOR >= 20
  // LLVM 19's callbacks do not carry the phase: no check for ThinLTO there.
  PB.registerOptimizerEarlyEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase Phase) {
        if (Phase == ThinOrFullLTOPhase::ThinLTOPostLink)
          MPM.addPass(WrapIdiomLinkCheckPass());
      });
#endif
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "wrap-idiom", LLVM_VERSION_STRING,
          registerCallbacks};
}
