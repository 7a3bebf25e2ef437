//===- TriagePrint.cpp - wrap-ignorelist triage: the output formats -------===//
//
// Part of wrapidiom. The table, --after resolution, csv and scl formats of
// the model Triage.cpp builds (README.md, "Output formats").
//
//===----------------------------------------------------------------------===//
#include "Triage.h"

#include "RemarkSchema.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <tuple>

using namespace llvm;

namespace wil {
namespace triage {

namespace {


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

} // namespace

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
    if (Fn.empty() && St->File().empty())
      continue; // an unsymbolized trap: nothing to name
    std::string Entry = Fn.empty() ? "src:" + St->File() : "fun:" + Fn;
    Candidate &C = BySection[St->Sanitizer()][Entry];
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
    Note += St->Detail().empty() ? St->Kind() : St->Detail();
    Note += " (" + count(St->Reports(), "report", "reports") + ")";
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
        R.push_back({St->where(), St->Kind(), Fn,
                     St->Values().empty() ? "-" : St->Values(),
                     St->Type().empty() ? "-" : St->Type(),
                     "x" + std::to_string(St->Reports()),
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
      if (St->StillReported) {
        ++R;
        if (First)
          Still.push_back(St);
      } else if (St->RemovedBy == wrapidiom::remark::tag::Ignorelist ||
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
  OS << "\nresolution against the --after log (" << NumAfterSites
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
      R.push_back({St->where(), St->Kind(),
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
      Row({"report", Name, S.Slug + ".scl", St->File(),
           St->File().empty() ? "" : std::to_string(St->Line()),
           St->File().empty() ? "" : std::to_string(St->Column()), St->Sanitizer(),
           St->Kind(), St->Op(), Fn, St->Type(), St->Detail(),
           std::to_string(St->Reports()), St->status(),
           St->FirstLog + ":" + std::to_string(St->FirstLine())});
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

} // namespace triage
} // namespace wil
