//===- Plugin.cpp - Register wrap-idiom with the new pass manager ---------===//
//
// Part of wrapidiom.
//
//   clang -fpass-plugin=WrapIdiom.so ...     runs it at pipeline start, at
//                                            every optimisation level
//   opt -load-pass-plugin=WrapIdiom.so -passes=wrap-idiom ...
//
//===----------------------------------------------------------------------===//
#include "Ignorelist.h"
#include "Options.h"
#include "WrapIdiom.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/IR/LLVMContext.h"

#if LLVM_VERSION_MAJOR >= 22
#include "llvm/Plugins/PassPlugin.h"
#else
#include "llvm/Passes/PassPlugin.h"
#endif

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
    cl::values(
        clEnumValN(Idiom::AddCompare, "add-compare", "a + b < a"),
        clEnumValN(Idiom::SubCompare, "sub-compare", "a - b > a"),
        clEnumValN(Idiom::PtrCompare, "ptr-compare", "p + n < p"),
        clEnumValN(Idiom::GuardedUse, "guarded-use",
                   "s = a + b; if (s < a) return; use(s)"),
        clEnumValN(Idiom::BoundsAndWrap, "bounds-and-wrap",
                   "off + n > lim || off + n < n"),
        clEnumValN(Idiom::MulDiv, "mul-div", "a && a * b / a != b"),
        clEnumValN(Idiom::LoopCounter, "loop-counter", "while (n--)"),
        clEnumValN(Idiom::Modular, "modular", "-(n) & (BITS_PER_LONG - 1)"),
        clEnumValN(Idiom::SerialCompare, "serial-compare",
                   "(long)(a - b) < 0"),
        clEnumValN(Idiom::AddBack, "add-back", "(x - m) + m"),
        clEnumValN(Idiom::CarrySelect, "carry-select",
                   "y = x - C; y + (x > y ? A : B)"),
        clEnumValN(Idiom::NegConst, "neg-const", "-1UL")));

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

} // namespace

const Ignorelist *ignorelist(LLVMContext &Ctx) {
  static Expected<std::unique_ptr<Ignorelist>> Loaded = Ignorelist::load(
      std::vector<std::string>(IgnorelistFiles.begin(), IgnorelistFiles.end()));
  static std::string Failure;
  if (Loaded)
    return Loaded->get();
  if (Failure.empty()) {
    // One error per process, through the context's diagnostic handler:
    // clang prints it as `error:` and exits 1, opt likewise.
    Failure = "wrap-idiom: " + toString(Loaded.takeError());
    Ctx.emitError(Failure);
  }
  return nullptr;
}

Mode mode() { return ModeOpt; }
bool signedWrapDefined() { return SignedWrap; }
bool pointerWrapDefined() { return PointerWrap; }
unsigned budget() { return std::max(1u, unsigned(Budget)); }

bool idiomEnabled(Idiom I) {
  for (Idiom D : DisabledIdioms)
    if (D == I)
      return false;
  return true;
}

} // namespace wrapidiom

static void registerCallbacks(PassBuilder &PB) {
  using namespace wrapidiom;
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != WrapIdiomPass::name())
          return false;
        FPM.addPass(WrapIdiomPass());
        return true;
      });
  // Pipeline start: clang's IR as emitted, before SROA/InstCombine rewrite
  // `a + b < a` into the overflow bit itself, and the same at every -O.
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(createModuleToFunctionPassAdaptor(WrapIdiomPass()));
      });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "wrap-idiom", LLVM_VERSION_STRING,
          registerCallbacks};
}
