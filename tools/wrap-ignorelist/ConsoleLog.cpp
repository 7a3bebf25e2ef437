//===- ConsoleLog.cpp - UBSan wrap reports in kernel console logs ---------===//
//
// Part of wrapidiom. See ConsoleLog.h: the reading is consolelog.h's.
//
//===----------------------------------------------------------------------===//
#include "ConsoleLog.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

using namespace llvm;

namespace wil {

std::string sourceName(const char *Sym) {
  return Sym ? std::string(Sym, cl_symbol_name_len(Sym)) : std::string();
}

void outOfMemory() {
  errs() << "wrap-ignorelist: error: out of memory\n";
  std::exit(1);
}

Expected<std::unique_ptr<SystemMap>> SystemMap::load(StringRef Path) {
  // cl_ksyms_load() reads only a regular file of bounded size;
  // cl_read_error() says why it did not.
  auto M = std::make_unique<SystemMap>();
  M->K = cl_ksyms_load(Path.str().c_str());
  if (!M->K)
    return createStringError(std::errc::io_error, "cannot read '%s': %s",
                             Path.str().c_str(), cl_read_error());
  if (!cl_ksyms_count(M->K))
    return createStringError(std::errc::invalid_argument,
                             "'%s' is not a System.map: no text symbols "
                             "('<hex address> t|T|w|W <name>' lines)",
                             Path.str().c_str());
  return M;
}

SystemMap::~SystemMap() { cl_ksyms_free(K); }

void readWrapReports(StringRef Path, StringRef Text, const SystemMap *Map,
                     Diagnostics &Diags, LogStats &Stats,
                     function_ref<void(const cl_report &)> Each) {
  // The reader splits the text in place: give it its own copy.
  char *Copy = static_cast<char *>(std::malloc(Text.size() + 1));
  if (!Copy)
    outOfMemory();
  std::memcpy(Copy, Text.data(), Text.size());
  Copy[Text.size()] = 0;
  struct lines L;
  struct cl_reports Rep;
  if (cl_lines(Copy, &L) < 0)
    outOfMemory();
  if (cl_ubsan_reports(&L, Map ? Map->get() : nullptr, &Rep) < 0)
    outOfMemory();

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
    Each(C);
  }
  cl_reports_free(&Rep);
  cl_lines_free(&L);
}

} // namespace wil
