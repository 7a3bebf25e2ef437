//===- ConsoleLog.h - UBSan wrap reports in kernel console logs -----------===//
//
// Part of wrapidiom. The reports come from the project's one console-log
// reader, qemu-run/src/consolelog.h (C, shared with the harness's verdict):
// this file only turns them into the tool's types. See consolelog.h for the
// report format it reads (lib/ubsan.c, CONFIG_UBSAN_TRAP, KALLSYMS or raw
// addresses named through System.map).
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_WRAP_IGNORELIST_CONSOLELOG_H
#define WRAPIDIOM_WRAP_IGNORELIST_CONSOLELOG_H

#include "Common.h"

struct cl_ksyms; // consolelog.h

namespace wil {

struct UbsanReport {
  std::string Log;
  unsigned LogLine = 0;   // the "UBSAN:" line
  std::string Kind;       // as printed: signed-integer-overflow, ...
  std::string Sanitizer;  // the ignorelist section that covers it
  std::string File;       // as printed ("./include/..." kept); "" for traps
  unsigned Line = 0, Column = 0;
  std::string Op;         // + - * negation division pointer
  std::string Values;     // "2147483647 + 2", "-2147483648", ...
  std::string Type;       // "'int'", "'u32' (aka 'unsigned int')"
  std::string Detail;     // the detail line as printed
  std::string Function;   // first frame outside UBSan, ".constprop.0" etc. cut
  std::string Symbol;     // that frame as printed
  std::string Address;    // a trap report's raw address, when unsymbolized
  bool Truncated = false; // log ended (or a new report began) before the end
};

struct LogStats {
  unsigned OtherReports = 0; // UBSan reports of kinds wrap-idiom ignores
};

/// A kernel's System.map (consolelog.h's cl_ksyms), to name raw addresses.
class SystemMap {
public:
  static llvm::Expected<std::unique_ptr<SystemMap>> load(llvm::StringRef Path);
  ~SystemMap();
  const struct cl_ksyms *get() const { return K; }

private:
  struct cl_ksyms *K = nullptr;
};

/// Append Path's wrap reports to Out; Map (may be null) names raw frame
/// addresses. A "UBSAN:" line that cannot be read is an error; a report
/// cut short is a warning.
void parseConsoleLog(llvm::StringRef Path, llvm::StringRef Text,
                     const SystemMap *Map, std::vector<UbsanReport> &Out,
                     Diagnostics &Diags, LogStats &Stats);


} // namespace wil

#endif
