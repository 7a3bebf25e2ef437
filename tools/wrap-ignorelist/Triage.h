//===- Triage.h - wrap-ignorelist triage: sites, subsystems ---------------===//
//
// Part of wrapidiom. The model triage builds from console logs and
// optimization records (Triage.cpp) and prints (TriagePrint.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_WRAP_IGNORELIST_TRIAGE_H
#define WRAPIDIOM_WRAP_IGNORELIST_TRIAGE_H

#include "ConsoleLog.h"
#include "Ignorelist.h"
#include "KernelTree.h"
#include "Maintainers.h"
#include "RemarksReader.h"

#include <map>
#include <optional>
#include <set>

namespace wil {
namespace triage {

using llvm::raw_ostream;
using llvm::StringRef;

inline const char *const Unmapped = "(unmapped)";

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

  // For TriagePrint.cpp.
  std::map<std::string, Subsystem> Subsystems;
  std::map<std::string, Site> Sites; // key -> site
  std::set<std::string> AfterSites;  // keys of the sites --after reports

private:
  std::vector<std::string> ownersOf(StringRef Rel);
  Subsystem &subsystem(const std::string &Name);
  void printCandidates(raw_ostream &OS, const Subsystem &S);

  std::map<std::string, RemarkGroup> RemarkGroups;
  std::map<std::string, std::vector<std::string>> OwnerCache;
};

} // namespace triage
} // namespace wil

#endif
