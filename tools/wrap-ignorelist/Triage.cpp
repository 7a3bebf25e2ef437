//===- Triage.cpp - wrap-ignorelist triage --------------------------------===//
//
// Part of wrapidiom. Console logs and optimization records in; per
// subsystem: the wrap sites UBSan reported, whether an ignorelist already
// covers them, candidate entries, and the checks wrap-idiom removed. See
// README.md for the formats.
//
//===----------------------------------------------------------------------===//
#include "ConsoleLog.h"
#include "Ignorelist.h"
#include "KernelTree.h"
#include "Maintainers.h"
#include "RemarksReader.h"
#include "SCLFile.h"
#include "Subcommands.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

using namespace llvm;

namespace wil {

namespace {

const char *const Unmapped = "(unmapped)";

struct Coverage {
  bool Sanitize = false; // decided by an `=sanitize` entry: kept
  std::string File;
  unsigned Line = 0;
  std::string Entry;
};

struct Site {
  std::string Key; // reportKey() of its reports
  std::string Kind, Sanitizer, File, Rel, Address;
  unsigned Line = 0, Column = 0;
  std::string Op, Type, Detail, Values;
  std::set<std::string> Frames; // trace functions
  std::string Enclosing;        // function around the line, from --tree
  unsigned Reports = 0;
  std::string FirstLog;
  unsigned FirstLine = 0;
  std::optional<Coverage> Covered;
  std::string KeptReason; // a CheckKept remark at the same place
  std::string RemovedBy;  // the idiom of a CheckRemoved remark there
  std::vector<std::string> Owners;

  std::string where() const {
    if (File.empty())
      return Address.empty() ? "(no location)" : "(at " + Address + ")";
    return File + ":" + std::to_string(Line) + ":" + std::to_string(Column);
  }
  /// The function an entry should name: the one the source puts the line
  /// in, else the frame the trace shows.
  std::string function() const {
    if (!Enclosing.empty())
      return Enclosing;
    if (Frames.size() == 1)
      return *Frames.begin();
    return "";
  }
  std::string status() const {
    if (!Covered)
      return "new";
    return (Covered->Sanitize ? "opted-in:" : "covered:") + Covered->File +
           ":" + std::to_string(Covered->Line);
  }
};

struct RemarkGroup {
  WrapRemark R; // first seen
  std::string Rel;
  unsigned Count = 0;
  std::vector<std::string> Owners;
};

struct Subsystem {
  std::string Name, Slug;
  std::vector<std::string> Lists;
  std::vector<const Site *> Sites;
  std::vector<const RemarkGroup *> Remarks;
  unsigned Reports = 0, New = 0, Removed = 0, Kept = 0, Recognised = 0;
  std::set<std::string> Kinds;
};

/// The deciding entry for a site: the plugin's own matcher (Ignorelist.h,
/// compiled into this tool) asked the plugin's question. fun: is the
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
  std::optional<wrapidiom::Ignorelist::Match> M =
      Lists->lookup(wrapidiom::IgnorelistQuery::forSite(
          S.Sanitizer, S.File, "", Functions, S.Type));
  if (!M)
    return std::nullopt;
  return Coverage{M->Sanitize, M->File, M->Line, M->Entry};
}

/// A simple aligned table: two spaces between columns.
void printTable(raw_ostream &OS, const std::vector<std::vector<std::string>> &Rows,
                StringRef Indent = "") {
  std::vector<size_t> W;
  for (const auto &R : Rows)
    for (size_t I = 0; I < R.size(); ++I) {
      if (W.size() <= I)
        W.push_back(0);
      W[I] = std::max(W[I], R[I].size());
    }
  for (const auto &R : Rows) {
    std::string Line = Indent.str();
    for (size_t I = 0; I < R.size(); ++I) {
      Line += R[I];
      if (I + 1 < R.size())
        Line += std::string(W[I] - R[I].size() + 2, ' ');
    }
    OS << StringRef(Line).rtrim() << "\n";
  }
}

std::string count(unsigned N, StringRef One, StringRef Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many).str();
}

class Triage {
public:
  std::unique_ptr<KernelTree> Tree;
  std::unique_ptr<Maintainers> M;
  std::unique_ptr<wrapidiom::Ignorelist> Lists;
  std::vector<UbsanReport> Reports;
  std::vector<UbsanReport> AfterReports; // --after LOG
  bool HaveAfter = false;
  std::vector<WrapRemark> RemarksIn;
  LogStats LStats;
  RemarkStats RStats;
  unsigned NumLogs = 0, NumRecords = 0;

  void build();
  void printTableFormat(raw_ostream &OS);
  void printResolution(raw_ostream &OS);
  void printCSV(raw_ostream &OS);
  void printSCL(raw_ostream &OS);

private:
  std::vector<std::string> ownersOf(StringRef Rel);
  Subsystem &subsystem(const std::string &Name);
  void printCandidates(raw_ostream &OS, const Subsystem &S);

  std::map<std::string, Site> Sites; // key -> site
  std::set<std::string> AfterSites;  // keys of the sites --after reports
  std::map<std::string, RemarkGroup> RemarkGroups;
  std::map<std::string, Subsystem> Subsystems;
  std::map<std::string, std::vector<std::string>> OwnerCache;
};

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

std::string siteKey(StringRef Sanitizer, StringRef Kind, StringRef Rel,
                    unsigned Line, unsigned Col, StringRef Extra) {
  return (Rel + "\x1f" + Twine(Line) + "\x1f" + Twine(Col) + "\x1f" +
          Sanitizer + "\x1f" + Kind + "\x1f" + Extra)
      .str();
}

/// The site a report is about: where the check is; a trap report only
/// names a function (or an address).
std::string reportKey(const UbsanReport &R, StringRef Root) {
  return siteKey(R.Sanitizer, R.Kind, normalizeSourcePath(R.File, Root),
                 R.Line, R.Column,
                 R.File.empty() ? (R.Function.empty() ? R.Address : R.Function)
                                : "");
}

void Triage::build() {
  StringRef Root = Tree ? Tree->root() : StringRef();
  for (const UbsanReport &R : Reports) {
    std::string Rel = normalizeSourcePath(R.File, Root);
    std::string Key = reportKey(R, Root);
    auto [It, New] = Sites.try_emplace(Key);
    Site &S = It->second;
    if (New) {
      S.Key = Key;
      S.Kind = R.Kind;
      S.Sanitizer = R.Sanitizer;
      S.File = R.File;
      S.Rel = Rel;
      S.Address = R.Address;
      S.Line = R.Line;
      S.Column = R.Column;
      S.Op = R.Op;
      S.Type = R.Type;
      S.Detail = R.Detail;
      S.Values = R.Values;
      S.FirstLog = R.Log;
      S.FirstLine = R.LogLine;
      if (Tree && !Rel.empty())
        if (std::optional<std::string> Fn = Tree->enclosingFunction(Rel, R.Line))
          S.Enclosing = *Fn;
    }
    if (!R.Function.empty())
      S.Frames.insert(R.Function);
    if (S.Detail.empty() && !R.Detail.empty()) {
      S.Detail = R.Detail;
      S.Type = R.Type;
      S.Values = R.Values;
      S.Op = R.Op;
    }
    ++S.Reports;
  }

  for (const WrapRemark &W : RemarksIn) {
    std::string Rel = normalizeSourcePath(W.File, Root);
    std::string Key =
        siteKey(W.Sanitizer, W.Record, Rel, W.Line, W.Column,
                W.Op + "\x1f" + W.Idiom + "\x1f" + W.Reason + "\x1f" + W.Function);
    auto [It, New] = RemarkGroups.try_emplace(Key);
    RemarkGroup &G = It->second;
    if (New) {
      G.R = W;
      G.Rel = Rel;
    }
    ++G.Count;
  }

  for (const UbsanReport &R : AfterReports)
    AfterSites.insert(reportKey(R, Root));

  for (auto &[Key, S] : Sites) {
    S.Covered = findCoverage(S, Lists.get());
    for (const auto &[K, G] : RemarkGroups)
      if (G.Rel == S.Rel && G.R.Line == S.Line && G.R.Column == S.Column) {
        if (G.R.Record == "kept" && S.KeptReason.empty())
          S.KeptReason = G.R.Reason;
        if (G.R.Record == "removed" && S.RemovedBy.empty())
          S.RemovedBy = G.R.Idiom;
      }
    S.Owners = ownersOf(S.Rel);
    for (const std::string &O : S.Owners) {
      Subsystem &Sub = subsystem(O);
      Sub.Sites.push_back(&S);
      Sub.Reports += S.Reports;
      Sub.Kinds.insert(S.Kind);
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
  // Map keys hold line numbers as text: order numerically.
  for (auto &[Name, Sub] : Subsystems) {
    std::stable_sort(Sub.Sites.begin(), Sub.Sites.end(), [](const Site *A, const Site *B) {
      return std::tie(A->Rel, A->Line, A->Column, A->Sanitizer, A->Kind,
                      A->File) < std::tie(B->Rel, B->Line, B->Column,
                                          B->Sanitizer, B->Kind, B->File);
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

/// Candidate entries for one subsystem: one entry per function (or file,
/// when no function is known) and sanitizer, the sites as comments.
struct Candidate {
  std::string Entry;
  std::vector<std::string> Notes;
};

std::map<std::string, std::map<std::string, Candidate>>
candidatesOf(const Subsystem &S) {
  std::map<std::string, std::map<std::string, Candidate>> BySection;
  for (const Site *St : S.Sites) {
    if (St->Covered)
      continue;
    std::string Fn = St->function();
    if (Fn.empty() && St->File.empty())
      continue; // an unsymbolized trap: nothing to name
    std::string Entry = Fn.empty() ? "src:" + St->File : "fun:" + Fn;
    Candidate &C = BySection[St->Sanitizer][Entry];
    C.Entry = Entry;
    std::string Note = St->where();
    if (!Fn.empty() || !St->Frames.empty()) {
      std::vector<std::string> F(St->Frames.begin(), St->Frames.end());
      if (!St->Enclosing.empty())
        Note += " in " + St->Enclosing +
                (F.empty() || (F.size() == 1 && F[0] == St->Enclosing)
                     ? ""
                     : " (trace: " + join(F, ", ") + ")");
      else if (!F.empty())
        Note += " in " + join(F, ", ");
    }
    Note += ": ";
    Note += St->Detail.empty() ? St->Kind : St->Detail;
    Note += " (" + count(St->Reports, "report", "reports") + ")";
    C.Notes.push_back(Note);
    if (St->Enclosing.empty() && !St->Frames.empty() &&
        StringRef(St->Rel).ends_with(".h"))
      C.Notes.push_back("note: " + St->Rel +
                        " is a header: the trace may show the function it "
                        "was inlined into; check with --tree");
    if (Fn.empty())
      C.Notes.push_back("note: no function known: this entry covers the "
                        "whole file; narrow it");
    if (!St->KeptReason.empty())
      C.Notes.push_back("wrap-idiom kept this check: " + St->KeptReason);
  }
  return BySection;
}

void Triage::printCandidates(raw_ostream &OS, const Subsystem &S) {
  bool FirstSection = true;
  for (const auto &[Section, Entries] : candidatesOf(S)) {
    if (!FirstSection)
      OS << "\n";
    FirstSection = false;
    OS << "[" << Section << "]\n";
    bool FirstEntry = true;
    for (const auto &[Entry, C] : Entries) {
      if (!FirstEntry)
        OS << "\n";
      FirstEntry = false;
      OS << "# TODO: justify\n";
      for (const std::string &N : C.Notes)
        OS << "# " << N << "\n";
      OS << C.Entry << "\n";
    }
  }
}

void Triage::printTableFormat(raw_ostream &OS) {
  unsigned NumReports = Reports.size();
  OS << "wrap reports: " << count(NumReports, "report", "reports") << " at "
     << count(Sites.size(), "site", "sites") << " from "
     << count(NumLogs, "log", "logs");
  if (LStats.OtherReports)
    OS << " (" << count(LStats.OtherReports, "other UBSan report", "other UBSan reports")
       << " skipped)";
  OS << "\n";
  if (NumRecords) {
    unsigned Rm = 0, Kp = 0, Rc = 0;
    for (const WrapRemark &W : RemarksIn)
      (W.Record == "removed" ? Rm : W.Record == "kept" ? Kp : Rc)++;
    OS << "wrap-idiom remarks: " << RemarksIn.size() << " from "
       << count(NumRecords, "record file", "record files") << ": " << Rm
       << " removed, " << Kp << " kept, " << Rc << " recognised\n";
  }
  if (Subsystems.empty()) {
    OS << "no wrap reports or wrap-idiom remarks\n";
    return;
  }

  OS << "\n";
  std::vector<std::vector<std::string>> Rows = {
      {"SUBSYSTEM", "IGNORELIST", "SITES", "REPORTS", "NEW", "REMOVED", "KEPT",
       "KINDS"}};
  for (const auto &[Name, S] : Subsystems)
    Rows.push_back({Name, S.Slug + ".scl", std::to_string(S.Sites.size()),
                    std::to_string(S.Reports), std::to_string(S.New),
                    std::to_string(S.Removed), std::to_string(S.Kept),
                    S.Kinds.empty() ? "-"
                                    : join(S.Kinds.begin(), S.Kinds.end(), ",")});
  printTable(OS, Rows);

  for (const auto &[Name, S] : Subsystems) {
    OS << "\n== " << Name << " (" << S.Slug << ".scl";
    if (!S.Lists.empty())
      OS << ", " << join(S.Lists, ", ");
    OS << ") ==\n";
    if (!S.Sites.empty()) {
      OS << "sites:\n";
      std::vector<std::vector<std::string>> R;
      for (const Site *St : S.Sites) {
        std::vector<std::string> F(St->Frames.begin(), St->Frames.end());
        std::string Fn = St->function();
        if (Fn.empty())
          Fn = F.empty() ? "?" : join(F, ",");
        R.push_back({St->where(), St->Kind, Fn,
                     St->Values.empty() ? "-" : St->Values,
                     St->Type.empty() ? "-" : St->Type,
                     "x" + std::to_string(St->Reports),
                     St->Covered ? St->status() + " (" + St->Covered->Entry + ")"
                                 : St->status()});
      }
      printTable(OS, R, "  ");
    }
    if (!S.Remarks.empty()) {
      OS << "wrap-idiom checks:\n";
      std::vector<std::vector<std::string>> R;
      for (const RemarkGroup *G : S.Remarks) {
        const WrapRemark &W = G->R;
        R.push_back({W.File + ":" + std::to_string(W.Line) + ":" +
                         std::to_string(W.Column),
                     W.Record, W.Sanitizer, W.Op,
                     W.Function.empty() ? "?" : W.Function,
                     W.Record == "kept" ? "reason: " + W.Reason
                                        : "idiom: " + W.Idiom,
                     "x" + std::to_string(G->Count)});
      }
      printTable(OS, R, "  ");
    }
    if (!candidatesOf(S).empty()) {
      OS << "candidate entries for " << S.Slug << ".scl:\n";
      printCandidates(OS, S);
    }
  }
}

/// With --after: how each site of the inputs fared in the AFTER log, per
/// subsystem. A site AFTER still reports is "reported". Of the others, with
/// optimization records among the inputs, a site the plugin's remark says
/// it removed counts for that idiom (or for "ignorelist", the plugin applying
/// an entry); without records, a site an entry of --ignorelists covers is
/// "ignorelist". What is left is gone for another reason: a patch changed
/// the code, or the later boot did not run it ("idiom/patch" without
/// records, "other" with them).
void Triage::printResolution(raw_ostream &OS) {
  bool Exact = NumRecords > 0;
  std::vector<std::vector<std::string>> Rows;
  if (Exact)
    Rows.push_back({"SUBSYSTEM", "SITES", "IDIOM", "IGNORELIST", "OTHER",
                    "REPORTED"});
  else
    Rows.push_back({"SUBSYSTEM", "SITES", "IDIOM/PATCH", "IGNORELIST",
                    "REPORTED"});
  unsigned TS = 0, TI = 0, TL = 0, TO = 0, TR = 0;
  std::map<std::string, unsigned> ByIdiom;
  std::vector<const Site *> Still, Other;
  for (const auto &[Name, Sub] : Subsystems) {
    if (Sub.Sites.empty())
      continue; // only remarks there
    unsigned I = 0, L = 0, O = 0, R = 0;
    for (const Site *St : Sub.Sites) {
      bool First = St->Owners.front() == Name;
      if (AfterSites.count(St->Key)) {
        ++R;
        if (First)
          Still.push_back(St);
      } else if (St->RemovedBy == "ignorelist" ||
                 (St->RemovedBy.empty() && St->Covered &&
                  !St->Covered->Sanitize)) {
        ++L;
      } else if (!Exact || !St->RemovedBy.empty()) {
        ++I;
        if (First && Exact)
          ++ByIdiom[St->RemovedBy];
      } else {
        ++O;
        if (First)
          Other.push_back(St);
      }
    }
    std::vector<std::string> Row = {Name, std::to_string(Sub.Sites.size()),
                                    std::to_string(I), std::to_string(L)};
    if (Exact)
      Row.push_back(std::to_string(O));
    Row.push_back(std::to_string(R));
    Rows.push_back(Row);
    TS += Sub.Sites.size();
    TI += I;
    TL += L;
    TO += O;
    TR += R;
  }
  std::vector<std::string> Total = {
      "TOTAL (a site with two owners counts twice)", std::to_string(TS),
      std::to_string(TI), std::to_string(TL)};
  if (Exact)
    Total.push_back(std::to_string(TO));
  Total.push_back(std::to_string(TR));
  Rows.push_back(Total);
  OS << "\nresolution against the --after log (" << AfterSites.size()
     << " sites there):\n";
  printTable(OS, Rows);
  if (!ByIdiom.empty()) {
    OS << "removed by idiom (distinct sites):";
    for (const auto &[Idiom, N] : ByIdiom)
      OS << " " << Idiom << " " << N;
    OS << "\n";
  }
  auto List = [&](StringRef Title, const std::vector<const Site *> &Sites) {
    if (Sites.empty())
      return;
    OS << Title << ":\n";
    std::vector<std::vector<std::string>> R;
    for (const Site *St : Sites)
      R.push_back({St->where(), St->Kind,
                   St->function().empty() ? "?" : St->function()});
    printTable(OS, R, "  ");
  };
  List("gone without a removal remark or an ignorelist entry (patched, or "
       "not run by the later boot)",
       Other);
  List("still reported", Still);
}

void Triage::printCSV(raw_ostream &OS) {
  OS << "record,subsystem,ignorelist,file,line,column,sanitizer,kind,op,"
        "function,type,detail,count,status,first_seen\n";
  auto Row = [&](ArrayRef<std::string> Fields) {
    bool First = true;
    for (const std::string &F : Fields) {
      if (!First)
        OS << ",";
      First = false;
      OS << csvField(F);
    }
    OS << "\n";
  };
  for (const auto &[Name, S] : Subsystems) {
    for (const Site *St : S.Sites) {
      std::vector<std::string> F(St->Frames.begin(), St->Frames.end());
      std::string Fn = St->function();
      if (Fn.empty())
        Fn = join(F, " ");
      Row({"report", Name, S.Slug + ".scl", St->File,
           St->File.empty() ? "" : std::to_string(St->Line),
           St->File.empty() ? "" : std::to_string(St->Column), St->Sanitizer,
           St->Kind, St->Op, Fn, St->Type, St->Detail,
           std::to_string(St->Reports), St->status(),
           St->FirstLog + ":" + std::to_string(St->FirstLine)});
    }
    for (const RemarkGroup *G : S.Remarks) {
      const WrapRemark &W = G->R;
      Row({W.Record, Name, S.Slug + ".scl", W.File, std::to_string(W.Line),
           std::to_string(W.Column), W.Sanitizer, "", W.Op, W.Function, "",
           W.Record == "kept" ? W.Reason : W.Idiom, std::to_string(G->Count),
           "", W.Source + ":" + std::to_string(W.SourceLine)});
    }
  }
}

void Triage::printSCL(raw_ostream &OS) {
  bool First = true;
  for (const auto &[Name, S] : Subsystems) {
    if (candidatesOf(S).empty())
      continue;
    if (!First)
      OS << "\n";
    First = false;
    OS << "# ==> " << S.Slug << ".scl <==\n";
    OS << "# Subsystem: " << Name << "\n";
    OS << "# List: " << (S.Lists.empty() ? "?" : join(S.Lists, ", ")) << "\n\n";
    printCandidates(OS, S);
  }
}

bool isRecordFile(StringRef Path) {
  return Path.ends_with(".yaml") || Path.ends_with(".yml");
}

} // namespace

int runTriage(Args A) {
  ArgScanner S(A);
  std::string TreeDir, MaintainersPath, ListsDir, AfterLog, MapPath,
      Format = "table";
  std::vector<std::string> Inputs;
  while (!S.done()) {
    if (S.value("--tree", TreeDir) || S.value("--maintainers", MaintainersPath) ||
        S.value("--ignorelists", ListsDir) || S.value("--format", Format) ||
        S.value("--after", AfterLog) || S.value("--system-map", MapPath))
      continue;
    if (!S.Error.empty())
      return usageError(S.Error);
    if (S.atOption())
      return usageError("triage: unknown option '" + S.current() + "'");
    if (StringRef P = S.positional(); !P.empty())
      Inputs.push_back(P.str());
  }
  if (!S.Error.empty())
    return usageError(S.Error);
  if (Format != "table" && Format != "csv" && Format != "scl")
    return usageError("triage: unknown format '" + Format +
                      "' (expected table, csv or scl)");
  if (Inputs.empty())
    return usageError("triage: no console log or optimization record given");
  if (!AfterLog.empty() && Format != "table")
    return usageError("triage: --after only goes with --format=table");

  Triage T;
  if (!TreeDir.empty()) {
    Expected<std::unique_ptr<KernelTree>> KT = KernelTree::open(TreeDir);
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
    Expected<std::unique_ptr<SCLFile>> F = SCLFile::read(P);
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
      parseConsoleLog(Inputs[I], Buffers[I]->getBuffer(), Map.get(),
                      T.Reports, D, T.LStats);
    }
  }
  if (AfterBuffer) {
    LogStats Ignored;
    T.HaveAfter = true;
    parseConsoleLog(AfterLog, AfterBuffer->getBuffer(), Map.get(),
                    T.AfterReports, D, Ignored);
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
