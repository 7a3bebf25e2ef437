//===- Triage.cpp - wrap-ignorelist triage --------------------------------===//
//
// Part of wrapidiom. Console logs and optimization records in; per
// subsystem: the wrap sites UBSan reported, whether an ignorelist already
// covers them, candidate entries, and the checks wrap-idiom removed. See
// README.md for the formats; the printing is TriagePrint.cpp's.
//
//===----------------------------------------------------------------------===//
#include "Triage.h"
#include "SCLFile.h"
#include "Subcommands.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <tuple>

using namespace llvm;

namespace wil {
namespace triage {

namespace {


/// The deciding entry for a site: the plugin's own matcher (Ignorelist.h,
/// the library both link) asked the plugin's question. fun: is the
/// function the source puts the line in (what the plugin asks: it runs
/// before inlining), else, without --tree, the trace frames; a log does not
/// tell the translation unit, so mainfile: entries never decide here.
std::optional<Coverage> findCoverage(const Site &S,
                                     const wrapidiom::Ignorelist *Lists) {
  if (!Lists)
    return std::nullopt;
  std::vector<std::string> Functions;
  if (!S.Enclosing.empty())
    Functions.push_back(S.Enclosing);
  else
    Functions.assign(S.Frames.begin(), S.Frames.end());
  std::string Sanitizer = S.Sanitizer(), File = S.File(), Type = S.Type();
  std::optional<wrapidiom::Ignorelist::Match> M =
      Lists->lookup(wrapidiom::IgnorelistQuery::forSite(
          Sanitizer, File, "", Functions, Type));
  if (!M)
    return std::nullopt;
  return Coverage{M->Sanitize, M->File, M->Line, M->Entry};
}

} // namespace

std::vector<std::string> Triage::ownersOf(StringRef Rel) {
  if (!M || Rel.empty())
    return {Unmapped};
  auto It = OwnerCache.find(Rel.str());
  if (It != OwnerCache.end())
    return It->second;
  std::vector<std::string> Names;
  for (const MaintainersEntry *E : M->owners(Rel))
    Names.push_back(E->Name);
  llvm::sort(Names);
  if (Names.empty())
    Names.push_back(Unmapped);
  return OwnerCache[Rel.str()] = Names;
}

Subsystem &Triage::subsystem(const std::string &Name) {
  auto [It, New] = Subsystems.try_emplace(Name);
  Subsystem &S = It->second;
  if (New) {
    S.Name = Name;
    S.Slug = Name == Unmapped ? "unmapped" : slugify(Name);
    if (M)
      if (const MaintainersEntry *E = M->find(Name))
        S.Lists = E->Lists;
  }
  return S;
}

Triage::Triage() {
  cl_sites_init(&Table, CL_SITE_BY_SANITIZER | CL_SITE_BY_FRAME);
  cl_sites_init(&AfterTable, CL_SITE_BY_SANITIZER | CL_SITE_BY_FRAME);
}

Triage::~Triage() {
  cl_sites_free(&Table);
  cl_sites_free(&AfterTable);
}

/// A site is keyed by its file in the tree (consolelog.h keys the rest).
std::string Triage::fileKey(const cl_report &R) const {
  return normalizeSourcePath(R.file ? R.file : "",
                             Tree ? Tree->root() : StringRef());
}

void Triage::addReport(const cl_report &R, StringRef Log) {
  std::string Rel = fileKey(R);
  int New = 0;
  int I = cl_sites_add(&Table, &R, Rel.c_str(), &New);
  if (I < 0)
    outOfMemory();
  if (New) {
    Sites.emplace_back();
    Site &S = Sites.back();
    S.Rel = Rel;
    S.FirstLog = Log.str();
    if (Tree && !Rel.empty())
      if (std::optional<std::string> Fn =
              Tree->enclosingFunction(Rel, R.line))
        S.Enclosing = *Fn;
  }
  Site &S = Sites[I];
  std::string Fn = sourceName(R.func);
  if (!Fn.empty())
    S.Frames.insert(Fn);
  // A site is described by its first report with a detail line.
  if (Site::detailOf(Table.s[I].rep).empty() && !Site::detailOf(R).empty() &&
      cl_site_describe(&Table.s[I], &R) < 0)
    outOfMemory();
  ++NumReports;
}

void Triage::addAfterReport(const cl_report &R) {
  int New = 0;
  if (cl_sites_add(&AfterTable, &R, fileKey(R).c_str(), &New) < 0)
    outOfMemory();
}

void Triage::build() {
  StringRef Root = Tree ? Tree->root() : StringRef();
  for (size_t I = 0; I < Sites.size(); ++I) {
    Sites[I].C = &Table.s[I];
    Sites[I].StillReported = cl_sites_find(&AfterTable, &Table.s[I]) >= 0;
  }
  NumAfterSites = AfterTable.n;

  for (const WrapRemark &W : RemarksIn) {
    std::string Rel = normalizeSourcePath(W.File, Root);
    std::string Key = (Rel + "\x1f" + Twine(W.Line) + "\x1f" +
                       Twine(W.Column) + "\x1f" + W.Sanitizer + "\x1f" +
                       W.Record + "\x1f" + W.Op + "\x1f" + W.Idiom + "\x1f" +
                       W.Reason + "\x1f" + W.Function)
                          .str();
    auto [It, New] = RemarkGroups.try_emplace(Key);
    RemarkGroup &G = It->second;
    if (New) {
      G.R = W;
      G.Rel = Rel;
    }
    ++G.Count;
  }

  for (Site &S : Sites) {
    S.Covered = findCoverage(S, Lists.get());
    for (const auto &[K, G] : RemarkGroups)
      if (G.Rel == S.Rel && G.R.Line == S.Line() && G.R.Column == S.Column()) {
        if (G.R.Record == "kept" && S.KeptReason.empty())
          S.KeptReason = G.R.Reason;
        if (G.R.Record == "removed" && S.RemovedBy.empty())
          S.RemovedBy = G.R.Idiom;
      }
    S.Owners = ownersOf(S.Rel);
    for (const std::string &O : S.Owners) {
      Subsystem &Sub = subsystem(O);
      Sub.Sites.push_back(&S);
      Sub.Reports += S.Reports();
      Sub.Kinds.insert(S.Kind());
      if (!S.Covered)
        ++Sub.New;
    }
  }
  for (auto &[Key, G] : RemarkGroups) {
    G.Owners = ownersOf(G.Rel);
    for (const std::string &O : G.Owners) {
      Subsystem &Sub = subsystem(O);
      Sub.Remarks.push_back(&G);
      if (G.R.Record == "removed")
        Sub.Removed += G.Count;
      else if (G.R.Record == "kept")
        Sub.Kept += G.Count;
      else
        Sub.Recognised += G.Count;
    }
  }
  // Sites by place, then by the rest of their key (a trap's frame).
  for (auto &[Name, Sub] : Subsystems) {
    std::stable_sort(Sub.Sites.begin(), Sub.Sites.end(), [](const Site *A, const Site *B) {
      return std::make_tuple(A->Rel, A->Line(), A->Column(), A->Sanitizer(),
                             A->Kind(), A->File(), A->Frame()) <
             std::make_tuple(B->Rel, B->Line(), B->Column(), B->Sanitizer(),
                             B->Kind(), B->File(), B->Frame());
    });
    std::stable_sort(Sub.Remarks.begin(), Sub.Remarks.end(), [](const RemarkGroup *A, const RemarkGroup *B) {
      return std::tie(A->Rel, A->R.Line, A->R.Column, A->R.Record,
                      A->R.Sanitizer, A->R.Op, A->R.Idiom, A->R.Reason,
                      A->R.Function) < std::tie(B->Rel, B->R.Line,
                                                B->R.Column, B->R.Record,
                                                B->R.Sanitizer, B->R.Op,
                                                B->R.Idiom, B->R.Reason,
                                                B->R.Function);
    });
  }
}


} // namespace triage

namespace {

bool isRecordFile(StringRef Path) {
  return Path.ends_with(".yaml") || Path.ends_with(".yml");
}

} // namespace

Expected<ExitCode> runTriage(const TriageOptions &O) {
  const std::string &TreeDir = O.Tree, &ListsDir = O.Ignorelists,
                    &AfterLog = O.After, &MapPath = O.SystemMap,
                    &Format = O.Format;
  std::string MaintainersPath = O.Maintainers;
  const std::vector<std::string> &Inputs = O.Inputs;
  if (Format != "table" && Format != "csv" && Format != "scl")
    return usageError("triage: unknown format '" + Format +
                      "' (expected table, csv or scl)");
  if (Inputs.empty())
    return usageError("triage: no console log or optimization record given");
  if (!AfterLog.empty() && Format != "table")
    return usageError("triage: --after only goes with --format=table");

  triage::Triage T;
  if (!TreeDir.empty()) {
    Expected<std::unique_ptr<KernelTree>> KT = KernelTree::load(TreeDir);
    if (!KT)
      return fatalError(toString(KT.takeError()));
    T.Tree = std::move(*KT);
    if (MaintainersPath.empty()) {
      SmallString<256> P(TreeDir);
      sys::path::append(P, "MAINTAINERS");
      MaintainersPath = P.str().str();
    }
  }
  if (!MaintainersPath.empty()) {
    Expected<std::unique_ptr<Maintainers>> ML =
        Maintainers::load(MaintainersPath, T.Tree.get());
    if (!ML)
      return fatalError(toString(ML.takeError()));
    T.M = std::move(*ML);
  }

  // Read everything before looking at anything: unreadable input is a
  // usage-level failure (exit 2), malformed input exit 1, never output.
  std::vector<std::unique_ptr<MemoryBuffer>> Buffers;
  for (const std::string &In : Inputs) {
    Expected<std::unique_ptr<MemoryBuffer>> B = readFile(In);
    if (!B)
      return fatalError(toString(B.takeError()));
    Buffers.push_back(std::move(*B));
  }
  std::unique_ptr<MemoryBuffer> AfterBuffer;
  if (!AfterLog.empty()) {
    Expected<std::unique_ptr<MemoryBuffer>> B = readFile(AfterLog);
    if (!B)
      return fatalError(toString(B.takeError()));
    AfterBuffer = std::move(*B);
  }
  std::unique_ptr<SystemMap> Map;
  if (!MapPath.empty()) {
    Expected<std::unique_ptr<SystemMap>> M = SystemMap::load(MapPath);
    if (!M)
      return fatalError(toString(M.takeError()));
    Map = std::move(*M);
  }
  std::vector<std::string> ListPaths;
  if (!ListsDir.empty()) {
    if (!sys::fs::is_directory(ListsDir))
      return fatalError("cannot read ignorelist directory '" + ListsDir +
                        "': not a directory");
    std::error_code EC;
    for (sys::fs::directory_iterator It(ListsDir, EC), End; It != End && !EC;
         It.increment(EC))
      if (StringRef(It->path()).ends_with(".scl"))
        ListPaths.push_back(It->path());
    if (EC)
      return fatalError("cannot read ignorelist directory '" + ListsDir +
                        "': " + EC.message());
    llvm::sort(ListPaths);
  }

  Diagnostics D;
  bool ListsOK = true;
  for (const std::string &P : ListPaths) {
    Expected<std::unique_ptr<SCLFile>> F = SCLFile::load(P);
    if (!F)
      return fatalError(toString(F.takeError()));
    ListsOK &= (*F)->parse(D); // every problem of every list, with its line
  }
  if (ListsOK && !ListPaths.empty()) {
    Expected<std::unique_ptr<wrapidiom::Ignorelist>> L =
        wrapidiom::Ignorelist::load(ListPaths);
    if (!L)
      return fatalError(toString(L.takeError()));
    T.Lists = std::move(*L);
  }
  for (size_t I = 0; I < Inputs.size(); ++I) {
    if (isRecordFile(Inputs[I])) {
      ++T.NumRecords;
      readWrapRemarks(Inputs[I], Buffers[I]->getBuffer(), T.RemarksIn, D,
                      T.RStats);
    } else {
      ++T.NumLogs;
      readWrapReports(Inputs[I], Buffers[I]->getBuffer(), Map.get(), D,
                      T.LStats,
                      [&](const cl_report &R) { T.addReport(R, Inputs[I]); });
    }
  }
  if (AfterBuffer) {
    LogStats Ignored;
    T.HaveAfter = true;
    readWrapReports(AfterLog, AfterBuffer->getBuffer(), Map.get(), D, Ignored,
                    [&](const cl_report &R) { T.addAfterReport(R); });
  }
  if (!T.M && !D.errors())
    D.warning("wrap-ignorelist", 0,
              "no --tree or --maintainers: sites are not mapped to "
              "subsystems");
  std::vector<std::string> Order = ListPaths;
  Order.insert(Order.end(), Inputs.begin(), Inputs.end());
  if (!AfterLog.empty())
    Order.push_back(AfterLog);
  D.print(errs(), Order);
  if (D.errors())
    return ExitProblems;

  T.build();
  if (Format == "csv")
    T.printCSV(outs());
  else if (Format == "scl")
    T.printSCL(outs());
  else {
    T.printTableFormat(outs());
    if (T.HaveAfter)
      T.printResolution(outs());
  }
  return ExitOK;
}

} // namespace wil
