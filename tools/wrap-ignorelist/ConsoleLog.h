//===- ConsoleLog.h - UBSan wrap reports in kernel console logs -----------===//
//
// Part of wrapidiom. Reads the reports of the kernel's lib/ubsan.c (6.12):
//
//   ------------[ cut here ]------------
//   UBSAN: signed-integer-overflow in lib/foo.c:12:9
//   2147483647 + 2 cannot be represented in type 'int'
//   CPU: 0 UID: 0 PID: 1 Comm: swapper/0 Not tainted 6.12.0 #1
//   Hardware name: QEMU Standard PC (i440FX + PIIX, 1996), BIOS ...
//   Call Trace:
//    <TASK>
//    dump_stack_lvl+0x5d/0x80
//    ubsan_epilogue+0x5/0x30
//    __ubsan_handle_add_overflow+0x9a/0xb0
//    foo_hash+0x1a/0x30
//    ...
//   ---[ end trace ]---
//
// and, from a CONFIG_UBSAN_TRAP kernel, "UBSAN: integer addition overflow
// at foo_hash+0x1a/0x30". Each line may carry a "<N>" log level, a
// "[    1.234567]" timestamp and a "[    T1]" caller id; other lines are
// noise and are skipped.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_WRAP_IGNORELIST_CONSOLELOG_H
#define WRAPIDIOM_WRAP_IGNORELIST_CONSOLELOG_H

#include "Common.h"

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
  std::string Address;    // a trap report's raw address, when unsymbolized
  bool Truncated = false; // log ended (or a new report began) before the end
};

struct LogStats {
  unsigned OtherReports = 0; // UBSan reports of kinds wrap-idiom ignores
};

/// The message of a console line: log level, timestamp and caller id cut.
llvm::StringRef consoleMessage(llvm::StringRef Line);

/// Append Path's wrap reports to Out. A "UBSAN:" line that cannot be read
/// is an error; a report cut short is a warning.
void parseConsoleLog(llvm::StringRef Path, llvm::StringRef Text,
                     std::vector<UbsanReport> &Out, Diagnostics &Diags,
                     LogStats &Stats);

/// The names in a UBSan type string: "'u32' (aka 'unsigned int')" ->
/// {"u32", "unsigned int"}.
std::vector<std::string> typeNames(llvm::StringRef Type);

} // namespace wil

#endif
