//===- ConsoleLog.h - UBSan wrap reports in kernel console logs -----------===//
//
// Part of wrapidiom. The reports and their sites come from the project's
// one console-log reader, common/consolelog/consolelog.h (C, shared with
// the harness's verdict): this file only hands its wrap reports to triage.
// See consolelog.h for the report format it reads (lib/ubsan.c,
// CONFIG_UBSAN_TRAP, KALLSYMS or raw addresses named through System.map).
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_WRAP_IGNORELIST_CONSOLELOG_H
#define WRAPIDIOM_WRAP_IGNORELIST_CONSOLELOG_H

#include "Common.h"

#include "consolelog.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace wil {

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

/// Path's wrap reports, in log order, to Each; Map (may be null) names raw
/// frame addresses. A "UBSAN:" line that cannot be read is an error; a
/// report cut short is a warning.
void readWrapReports(llvm::StringRef Path, llvm::StringRef Text,
                     const SystemMap *Map, Diagnostics &Diags, LogStats &Stats,
                     llvm::function_ref<void(const cl_report &)> Each);

/// The function a frame's symbol names: "foo.constprop.0" -> "foo".
std::string sourceName(const char *Sym);

/// What the console-log reader could not get memory for ends the tool as
/// it ends qemu-run: "error: out of memory", exit 1.
[[noreturn]] void outOfMemory();

} // namespace wil

#endif
