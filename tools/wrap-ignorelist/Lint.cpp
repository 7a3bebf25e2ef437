//===- Lint.cpp - wrap-ignorelist lint ------------------------------------===//
//
// Part of wrapidiom. Checks ignorelists against SpecialCaseList and the
// project's conventions; with --tree, against a kernel tree too. See
// README.md for the rules.
//
//===----------------------------------------------------------------------===//
#include "Ignorelist.h"
#include "KernelTree.h"
#include "Liveness.h"
#include "Maintainers.h"
#include "SCLFile.h"
#include "Subcommands.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/Path.h"


using namespace llvm;

namespace wil {

namespace {

bool hasWildcard(StringRef P) {
  return P.find_first_of("*?[{\\") != StringRef::npos;
}

/// A header the kernel reaches through -I./include or
/// -I./arch/<arch>/include (in-tree build): clang names it "./<path>".
bool isIncludeDirHeader(StringRef Rel) {
  if (Rel.starts_with("include/"))
    return true;
  if (!Rel.consume_front("arch/"))
    return false;
  return Rel.split('/').second.starts_with("include/");
}

struct FirstSeen {
  std::string File;
  unsigned Line;
};

class Linter {
public:
  Linter(Diagnostics &D, KernelTree *Tree, Maintainers *M)
      : D(D), Tree(Tree), M(M) {}
  void check(SCLFile &F);
  unsigned Entries = 0;

private:
  void checkHeader(SCLFile &F);
  void checkEntry(SCLFile &F, const SCLEntry &E);
  void checkSrcInTree(SCLFile &F, const SCLEntry &E,
                      const GlobPattern &G);
  void checkFunInTree(SCLFile &F, const SCLEntry &E, const GlobPattern &G);

  Diagnostics &D;
  KernelTree *Tree;
  Maintainers *M;
  StringMap<FirstSeen> Seen; // sanitizer|kind|pattern|category
};


void Linter::checkHeader(SCLFile &F) {
  const std::string &P = F.path();
  if (!F.Subsystem || F.Subsystem->empty())
    D.error(P, F.SubsystemLine ? F.SubsystemLine : 1,
            "the header comment block lacks '# Subsystem: <MAINTAINERS "
            "entry>'");
  if (F.Lists.empty())
    D.error(P, F.ListLine ? F.ListLine : 1,
            "the header comment block lacks '# List: <mailing list of the "
            "subsystem>'");
  if (!F.Subsystem || F.Subsystem->empty())
    return;
  std::string Want = slugify(*F.Subsystem) + ".scl";
  if (sys::path::filename(P) != Want)
    D.warning(P, F.SubsystemLine,
              "file is named '" + sys::path::filename(P) + "'; subsystem '" +
                  *F.Subsystem + "' wants '" + Want + "'");
  if (!M)
    return;
  const MaintainersEntry *E = M->find(*F.Subsystem);
  if (!E) {
    D.error(P, F.SubsystemLine,
            "subsystem '" + *F.Subsystem + "' is not an entry of " +
                M->path());
    return;
  }
  if (E->Lists.empty() || F.Lists.empty())
    return;
  for (const std::string &L : F.Lists)
    if (!is_contained(E->Lists, L))
      D.error(P, F.ListLine,
              "list '" + L + "' is not an L: of '" + E->Name + "' in " +
                  M->path() + " (it has " + join(E->Lists, ", ") + ")");
}

void Linter::checkSrcInTree(SCLFile &F, const SCLEntry &E,
                            const GlobPattern &G) {
  bool Any = false, HeaderOnlyBare = false;
  for (const std::string &Rel : Tree->files()) {
    bool Bare = G.match(Rel);
    bool Dotted = G.match("./" + Rel);
    if (!Bare && !Dotted)
      continue;
    Any = true;
    if (Bare && !Dotted && isIncludeDirHeader(Rel) &&
        StringRef(Rel).ends_with(".h"))
      HeaderOnlyBare = true;
  }
  if (!Any) {
    D.error(F.path(), E.Line,
            "stale entry '" + E.Text + "': no file in " + Tree->name() +
                " matches '" + E.Pattern + "' (tried as 'dir/file' and "
                "'./dir/file')");
    return;
  }
  if (HeaderOnlyBare && !StringRef(E.Pattern).starts_with("./"))
    D.warning(F.path(), E.Line,
              "'" + E.Text + "' matches headers under include/ only "
              "without './', but in-tree builds name them './include/...': "
              "clang's own -fsanitize-ignorelist will not match them (the "
              "wrap-idiom plugin does); write '" + E.Kind + ":./" +
                  E.Pattern + "'");
}

void Linter::checkFunInTree(SCLFile &F, const SCLEntry &E,
                            const GlobPattern &G) {
  if (!E.Category.empty() && E.Category != "sanitize") {
    // fun:NAME=FILE: FILE must define it.
    for (const FunctionDef &Def : Tree->definitionsIn(E.Category))
      if (G.match(Def.Name))
        return;
    D.error(F.path(), E.Line,
            "stale entry '" + E.Text + "': " + E.Category + " in " +
                Tree->name() + " defines no function matching '" + E.Pattern +
                "'");
    return;
  }
  // Every file that defines a function the entry names: the entry applies
  // to each of them, whatever its reason was written for.
  const KernelTree::NameIndex &All = Tree->allDefinedNames();
  std::vector<unsigned> In;
  auto Collect = [&](ArrayRef<unsigned> Files) {
    In.insert(In.end(), Files.begin(), Files.end());
  };
  if (!hasWildcard(E.Pattern)) {
    auto It = All.find(E.Pattern);
    if (It != All.end())
      Collect(It->second);
  } else {
    for (const auto &Name : All)
      if (G.match(Name.getKey()))
        Collect(Name.getValue());
  }
  llvm::sort(In);
  In.erase(std::unique(In.begin(), In.end()), In.end());
  if (In.empty()) {
    D.error(F.path(), E.Line,
            "stale entry '" + E.Text + "': no function definition in " +
                Tree->name() + " matches '" + E.Pattern + "'");
    return;
  }
  if (In.size() == 1 || E.Category == "sanitize")
    return;
  std::string Where;
  for (size_t I = 0; I < In.size() && I < 4; ++I)
    Where += (I ? ", " : "") + Tree->files()[In[I]];
  if (In.size() > 4)
    Where += ", ...";
  D.error(F.path(), E.Line,
          "'" + E.Text + "' matches functions defined in " + Twine(In.size()) +
              " files (" + Where + "): scope it to the file its reason is "
              "about, 'fun:" + E.Pattern + "=FILE', one entry per file");
}

void Linter::checkEntry(SCLFile &F, const SCLEntry &E) {
  const std::string &P = F.path();
  unsigned ErrorsBefore = D.errors();
  ++Entries;
  if (StringRef(E.Text).starts_with("#")) {
    D.error(P, E.Line,
            "indented comment: SpecialCaseList reads a '#' that is not in "
            "column 1 as an entry ('" + E.Text + "')");
    return;
  }
  const SCLSection &S = F.Sections[E.Section];
  if (E.Section == 0)
    D.error(P, E.Line,
            "entry '" + E.Text + "' is outside any section, so it applies "
            "to every sanitizer; put it under [signed-integer-overflow], "
            "[unsigned-integer-overflow], [pointer-overflow] or a {a,b} "
            "group");
  if (!is_contained(wrapidiom::EntryKinds, E.Kind)) {
    D.error(P, E.Line,
            "unknown entry kind '" + E.Kind + ":' (expected src:, fun:, "
            "type: or mainfile:)");
    return;
  }
  bool Scoped = E.Kind == "fun" && wrapidiom::isScopeCategory(E.Category);
  if (!E.Category.empty() && E.Category != "sanitize" && !Scoped)
    D.error(P, E.Line,
            "unknown category '=" + E.Category + "' in '" + E.Text +
                "' ('=sanitize' opts back in; a fun: entry may name the "
                "file that defines the function, '=dir/file.c')");
  else if (Scoped && (StringRef(E.Category).starts_with("./") ||
                      StringRef(E.Category).starts_with("/")))
    D.error(P, E.Line,
            "'" + E.Text + "': name the file relative to the tree, without "
            "a leading './' or '/'");
  if (StringRef(E.Pattern).find_first_of(" \t") != StringRef::npos)
    D.error(P, E.Line,
            "pattern '" + E.Pattern + "' contains whitespace; "
            "SpecialCaseList has no trailing comments");

  // Justification: comment lines directly above, with some text that is
  // neither a directive nor a placeholder.
  bool Text = false, Placeholder = false;
  for (const std::string &Bad : E.BadDirectives)
    D.error(P, E.Line,
            "unknown directive '# " + Bad + "' above '" + E.Text +
                "' (expected 'lint: no-tree-check' or 'lint: kernel NAME')");
  for (const std::string &C : E.Comments) {
    StringRef T(C);
    if (T.empty() || isLintDirective(T))
      continue;
    if (T.starts_with_insensitive("TODO"))
      Placeholder = true;
    Text = true;
  }
  if (!Text)
    D.error(P, E.Line,
            "entry '" + E.Text + "' has no justification comment directly "
            "above it");
  else if (Placeholder)
    D.error(P, E.Line,
            "entry '" + E.Text + "' has a placeholder justification "
            "(TODO): say why the wrap is intended");

  // Duplicates, per sanitizer the section stands for.
  for (const std::string &San : S.Sanitizers) {
    std::string Key = San + "|" + E.Kind + "|" + E.Pattern + "|" + E.Category;
    auto [It, New] = Seen.try_emplace(Key, FirstSeen{P, E.Line});
    if (!New)
      D.error(P, E.Line,
              "duplicate entry '" + E.Text + "' for " + San + " (first at " +
                  It->second.File + ":" + Twine(It->second.Line) + ")");
  }

  // A tree check of an entry that is wrong anyway would only add noise.
  if (!Tree || E.NoTreeCheck || D.errors() != ErrorsBefore)
    return;
  if (E.Kind != "src" && E.Kind != "mainfile" && E.Kind != "fun")
    return;
  Expected<GlobPattern> G = GlobPattern::create(E.Pattern, 1024);
  if (!G) { // SpecialCaseList accepted it, so this does not happen
    D.error(P, E.Line, "bad glob: " + toString(G.takeError()));
    return;
  }
  if (E.Kind == "fun")
    checkFunInTree(F, E, *G);
  else
    checkSrcInTree(F, E, *G);
}

void Linter::check(SCLFile &F) {
  if (!F.parse(D))
    return;
  checkHeader(F);
  for (const SCLSection &S : F.Sections)
    if (S.Line && !S.Problem.empty())
      D.error(F.path(), S.Line, S.Problem);
  for (const SCLEntry &E : F.Entries)
    checkEntry(F, E);
}

} // namespace

Expected<ExitCode> runLint(const LintOptions &O) {
  const std::string &TreeDir = O.Tree;
  const std::vector<std::string> &Files = O.Files;
  bool Stats = O.Stats;
  if (Files.empty())
    return usageError("lint: no ignorelist given");

  std::vector<std::unique_ptr<SCLFile>> Lists;
  for (const std::string &Path : Files) {
    Expected<std::unique_ptr<SCLFile>> F = SCLFile::load(Path);
    if (!F)
      return fatalError(toString(F.takeError()));
    Lists.push_back(std::move(*F));
  }
  std::unique_ptr<KernelTree> Tree;
  std::unique_ptr<Maintainers> M;
  Diagnostics D;
  if (!TreeDir.empty()) {
    Expected<std::unique_ptr<KernelTree>> T = KernelTree::load(TreeDir);
    if (!T)
      return fatalError(toString(T.takeError()));
    Tree = std::move(*T);
    SmallString<256> MPath(TreeDir);
    sys::path::append(MPath, "MAINTAINERS");
    Expected<std::unique_ptr<Maintainers>> ML = Maintainers::load(MPath, Tree.get());
    if (!ML)
      return fatalError(toString(ML.takeError()));
    M = std::move(*ML);
  }

  Linter L(D, Tree.get(), M.get());
  for (auto &F : Lists)
    L.check(*F);
  if (!O.RemarkDirs.empty())
    checkLiveness(Lists, O.RemarkDirs, D, outs());
  if (Tree && !Tree->walkError().empty())
    D.warning(Tree->name(), 0,
              "walking the tree stopped early (" + Tree->walkError() +
                  "): stale-entry errors may be wrong");
  D.print(outs(), Files);
  outs() << "wrap-ignorelist lint: " << Files.size() << " file(s), "
         << L.Entries << " entr" << (L.Entries == 1 ? "y" : "ies") << ": "
         << D.errors() << " error(s), " << D.warnings() << " warning(s)\n";
  if (Stats && Tree)
    outs() << "wrap-ignorelist lint: tree " << Tree->name() << ": "
           << Tree->filesListed() << " file(s) listed, "
           << Tree->filesScanned()
           << " scanned for function definitions\n";
  return D.errors() ? ExitProblems : ExitOK;
}

} // namespace wil
