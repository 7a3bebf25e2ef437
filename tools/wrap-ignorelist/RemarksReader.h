//===- RemarksReader.h - wrap-idiom remarks from -fsave-optimization-record ===//
//
// Part of wrapidiom. Reads clang's YAML optimization records (*.opt.yaml)
// with LLVM's remarks library and keeps the wrap-idiom pass's remarks (their
// names and keys: common/remarks/RemarkSchema.def):
//   CheckRemoved    (!Passed)   Sanitizer, Op, Idiom[, Site]
//   CheckKept       (!Missed)   Sanitizer, Op, Reason[, Site]
//   CheckRecognised (!Analysis) Sanitizer, Op, Idiom[, Site]
// The site is the remark's DebugLoc; without one (no -g), the Site argument
// ("file:line:col", the location clang put in the UBSan handler data).
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_WRAP_IGNORELIST_REMARKSREADER_H
#define WRAPIDIOM_WRAP_IGNORELIST_REMARKSREADER_H

#include "Common.h"

namespace wil {

struct WrapRemark {
  std::string Record; // removed, kept, recognised
  std::string Source; // the .opt.yaml file
  unsigned SourceLine = 0;
  std::string File;   // as recorded
  unsigned Line = 0, Column = 0;
  std::string Function;
  std::string Sanitizer, Op;
  std::string Idiom;  // removed/recognised
  std::string Reason; // kept
  /// The ignorelist entry that decided it: removed by an entry ("Entry"),
  /// or kept by a `=sanitize` one (its Reason). Written "`TEXT` (FILE:LINE)".
  std::string Entry;
};

struct RemarkStats {
  unsigned Total = 0; // remarks of every pass
  unsigned Wrap = 0;  // wrap-idiom's
};

/// Append the wrap-idiom remarks of the YAML records in Text (read from
/// Path) to Out. Malformed YAML, or a wrap-idiom remark without Sanitizer
/// or Op, is an error (FILE:LINE).
void readWrapRemarks(llvm::StringRef Path, llvm::StringRef Text,
                     std::vector<WrapRemark> &Out, Diagnostics &Diags,
                     RemarkStats &Stats);

} // namespace wil

#endif
