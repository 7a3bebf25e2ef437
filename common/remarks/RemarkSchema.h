//===- RemarkSchema.h - The wrap-idiom remarks, for writer and reader -----===//
//
// Part of wrapidiom. The rows of RemarkSchema.def as constants, and the one
// way a remark names an ignorelist entry. The plugin writes with them
// (llvm-pass), wrap-ignorelist reads with them (RemarksReader.cpp,
// Liveness.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_REMARKSCHEMA_H
#define WRAPIDIOM_REMARKSCHEMA_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <optional>
#include <string>

namespace wrapidiom::remark {

#define WRAP_REMARK_PASS(Name) constexpr char PassName[] = Name;
#include "RemarkSchema.def"

/// Remark names: remark::name::CheckRemoved.
namespace name {
#define WRAP_REMARK(Enum, Name) constexpr char Enum[] = Name;
#include "RemarkSchema.def"
} // namespace name

/// Argument keys: remark::key::Sanitizer.
namespace key {
#define WRAP_REMARK_KEY(Enum, Key) constexpr char Enum[] = Key;
#include "RemarkSchema.def"
} // namespace key

/// Fixed texts in argument values: remark::tag::Ignorelist.
namespace tag {
#define WRAP_REMARK_TAG(Enum, Text) constexpr char Enum[] = Text;
#include "RemarkSchema.def"
} // namespace tag

/// How a remark names the ignorelist entry that decided a check (the Entry
/// argument; a Reason tag::KeptBy followed by it): "`fun:jhash` (FILE:12)".
inline std::string entryText(llvm::StringRef Entry, llvm::StringRef File,
                             unsigned Line) {
  return ("`" + Entry + "` (" + File + ":" + llvm::Twine(Line) + ")").str();
}

/// Does Text start as an entryText()?
inline bool isEntryText(llvm::StringRef Text) { return Text.starts_with("`"); }

/// The list file and line of an entryText(), or nothing if Text is not one.
struct EntryLocation {
  llvm::StringRef File;
  unsigned Line = 0;
};
inline std::optional<EntryLocation> parseEntryText(llvm::StringRef Text) {
  // The entry text is quoted with backticks and contains no "` (".
  size_t Open = Text.find("` (");
  if (!isEntryText(Text) || Open == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef Loc = Text.drop_front(Open + 3);
  Loc = Loc.take_until([](char C) { return C == ')'; });
  auto [Path, LineStr] = Loc.rsplit(':');
  unsigned Line = 0;
  if (Path.empty() || LineStr.getAsInteger(10, Line) || !Line)
    return std::nullopt;
  return EntryLocation{Path, Line};
}

} // namespace wrapidiom::remark

#endif
