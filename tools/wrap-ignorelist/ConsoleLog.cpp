//===- ConsoleLog.cpp - UBSan wrap reports in kernel console logs ---------===//
//
// Part of wrapidiom. See ConsoleLog.h: the reading is consolelog.c's.
//
//===----------------------------------------------------------------------===//
#include "ConsoleLog.h"

#include "consolelog.h"

extern "C" const char *read_error(void); // qemu-run/src/util.c

#include <cerrno>
#include <cstdlib>
#include <cstring>

using namespace llvm;

namespace wil {

namespace {

std::string str(const char *S) { return S ? S : ""; }

/// "foo.constprop.0" / "foo.isra.0" / "foo.cold" -> "foo".
std::string sourceName(const char *Sym) {
  return StringRef(str(Sym)).split('.').first.str();
}

} // namespace

Expected<std::unique_ptr<SystemMap>> SystemMap::load(StringRef Path) {
  // cl_ksyms_load() reads only a regular file of bounded size; read_error()
  // says why it did not (qemu-run/src/util.c).
  auto M = std::make_unique<SystemMap>();
  M->K = cl_ksyms_load(Path.str().c_str());
  if (!M->K)
    return createStringError(std::errc::io_error, "cannot read '%s': %s",
                             Path.str().c_str(), read_error());
  if (!cl_ksyms_count(M->K))
    return createStringError(std::errc::invalid_argument,
                             "'%s' is not a System.map: no text symbols "
                             "('<hex address> t|T|w|W <name>' lines)",
                             Path.str().c_str());
  return M;
}

SystemMap::~SystemMap() { cl_ksyms_free(K); }

void parseConsoleLog(StringRef Path, StringRef Text, const SystemMap *Map,
                     std::vector<UbsanReport> &Out, Diagnostics &Diags,
                     LogStats &Stats) {
  // consolelog.c splits the text in place: give it its own copy.
  char *Copy = static_cast<char *>(std::malloc(Text.size() + 1));
  if (!Copy)
    report_fatal_error("out of memory");
  std::memcpy(Copy, Text.data(), Text.size());
  Copy[Text.size()] = 0;
  struct lines L;
  cl_lines(Copy, &L);
  struct cl_reports Rep;
  cl_ubsan_reports(&L, Map ? Map->get() : nullptr, &Rep);

  for (size_t I = 0; I < Rep.nd; ++I) {
    const cl_diag &D = Rep.d[I];
    if (D.error)
      Diags.error(Path, D.line, D.msg);
    else
      Diags.warning(Path, D.line, D.msg);
  }
  for (size_t I = 0; I < Rep.n; ++I) {
    const cl_report &C = Rep.r[I];
    if (!C.sanitizer || !C.parsed) {
      if (C.parsed)
        ++Stats.OtherReports; // shift-out-of-bounds and the like
      continue;               // an unreadable one is an error above
    }
    UbsanReport R;
    R.Log = Path.str();
    R.LogLine = C.log_line;
    R.Kind = str(C.kind);
    R.Sanitizer = C.sanitizer;
    R.File = str(C.file);
    R.Line = C.line;
    R.Column = C.col;
    R.Op = str(C.op);
    R.Values = str(C.values);
    R.Type = str(C.type);
    R.Detail = C.value_line ? C.value_line : str(C.detail);
    R.Function = sourceName(C.func);
    R.Symbol = str(C.func);
    R.Address = str(C.address);
    R.Truncated = C.truncated;
    Out.push_back(std::move(R));
  }
  cl_reports_free(&Rep);
  cl_lines_free(&L);
}

} // namespace wil
