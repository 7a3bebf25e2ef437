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

/// A wrap site: the library's one record of it (consolelog.h's cl_site,
/// keyed by sanitizer, the file in the tree, line:col, kind and, for a trap
/// without a file, its function or address) and what triage learns of it.
struct Site {
  const cl_site *C = nullptr; // set by Triage::build()
  std::string Rel;            // its file in the tree (the key's)
  std::set<std::string> Frames; // trace functions of its reports
  std::string Enclosing;        // function around the line, from --tree
  std::string FirstLog;         // the log of its first report
  std::optional<Coverage> Covered;
  std::string KeptReason; // a CheckKept remark at the same place
  std::string RemovedBy;  // the idiom of a CheckRemoved remark there
  std::vector<std::string> Owners;
  bool StillReported = false; // the --after log reports it too

  std::string Kind() const { return C->rep.kind; }
  std::string Sanitizer() const { return C->rep.sanitizer; }
  std::string File() const { return C->rep.file ? C->rep.file : ""; }
  unsigned Line() const { return C->rep.line; }
  unsigned Column() const { return C->rep.col; }
  std::string Frame() const { return C->frame; } // the key's, for a trap
  std::string Address() const { return C->rep.address ? C->rep.address : ""; }
  std::string Op() const { return C->rep.op ? C->rep.op : ""; }
  std::string Type() const { return C->rep.type ? C->rep.type : ""; }
  std::string Values() const { return C->rep.values ? C->rep.values : ""; }
  /// The detail line of its description.
  std::string Detail() const { return detailOf(C->rep); }
  unsigned Reports() const { return C->count; }
  unsigned FirstLine() const { return C->rep.log_line; }

  static std::string detailOf(const cl_report &R) {
    return R.value_line ? R.value_line : (R.detail ? R.detail : "");
  }
  std::string where() const {
    if (File().empty())
      return Address().empty() ? "(no location)" : "(at " + Address() + ")";
    return File() + ":" + std::to_string(Line()) + ":" +
           std::to_string(Column());
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
  Triage();
  ~Triage();
  Triage(const Triage &) = delete;
  Triage &operator=(const Triage &) = delete;

  std::unique_ptr<KernelTree> Tree;
  std::unique_ptr<Maintainers> M;
  std::unique_ptr<wrapidiom::Ignorelist> Lists;
  /// A wrap report of Log (of the --after log: After).
  void addReport(const cl_report &R, llvm::StringRef Log);
  void addAfterReport(const cl_report &R);
  unsigned NumReports = 0; // wrap reports of the inputs
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
  std::vector<Site> Sites;   // in the order of their first reports
  unsigned NumAfterSites = 0; // sites the --after log reports

private:
  std::vector<std::string> ownersOf(StringRef Rel);
  Subsystem &subsystem(const std::string &Name);
  void printCandidates(raw_ostream &OS, const Subsystem &S);

  std::string fileKey(const cl_report &R) const;

  cl_sites Table, AfterTable; // the sites of Sites, of the --after log
  std::map<std::string, RemarkGroup> RemarkGroups;
  std::map<std::string, std::vector<std::string>> OwnerCache;
};

} // namespace triage
} // namespace wil

#endif
