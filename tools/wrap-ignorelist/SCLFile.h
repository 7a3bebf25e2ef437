//===- SCLFile.h - One ignorelist file, as SpecialCaseList and as lines ---===//
//
// Part of wrapidiom. An ignorelist is clang's sanitizer special case list;
// llvm::SpecialCaseList decides whether it parses and what it matches. The
// project's conventions (header, justification comments) live in comments,
// which SpecialCaseList drops, so this class also keeps the file's lines and
// re-reads them with SpecialCaseList's own rules:
//   - a line whose first character is '#' is a comment (an indented '#' is
//     NOT a comment for SpecialCaseList);
//   - a line that is empty after trimming is blank;
//   - "[name]" opens a section, the name a glob;
//   - anything else is "prefix:pattern[=category]".
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_WRAP_IGNORELIST_SCLFILE_H
#define WRAPIDIOM_WRAP_IGNORELIST_SCLFILE_H

#include "Common.h"

#include "llvm/Support/SpecialCaseList.h"

#include <optional>

namespace wil {

struct SCLSection {
  unsigned Line = 0;        // 0 for the implicit section before any header
  std::string Name;         // text between the brackets ("*" if implicit)
  std::vector<std::string> Sanitizers; // what the name stands for
  std::string Problem;      // why the name is not acceptable, or empty
};

struct SCLEntry {
  unsigned Line = 0;
  unsigned Section = 0;     // index into SCLFile::Sections
  std::string Kind;         // "src", "fun", ...
  std::string Pattern;
  std::string Category;     // "" or "sanitize"
  std::string Text;         // the line, trimmed
  /// The comment lines directly above the entry (nearest last), without
  /// their '#'; empty if a blank line, an entry or a section is above it.
  std::vector<std::string> Comments;
  /// The `# lint: ...` directives among Comments, read once here:
  /// `no-tree-check` (no definition check against the kernel tree) and
  /// `kernel NAME` (the kernel the entry is for, when make check does not
  /// build it); any other is kept whole for lint to refuse.
  bool NoTreeCheck = false;
  std::string Kernel;
  std::vector<std::string> BadDirectives;
};

/// Is a comment line (without its '#') a `lint:` directive?
bool isLintDirective(llvm::StringRef Comment);

class SCLFile {
public:
  /// Read Path; the error names the file and the cause.
  static llvm::Expected<std::unique_ptr<SCLFile>> load(llvm::StringRef Path);

  /// Parse with llvm::SpecialCaseList; on failure add its error as
  /// `FILE:LINE: error: ...` and return false. On success fill Sections,
  /// Entries and the header fields.
  bool parse(Diagnostics &Diags);

  const std::string &path() const { return Path; }
  const llvm::SpecialCaseList &scl() const { return *SCL; }
  llvm::StringRef line(unsigned N) const {
    return N && N <= Lines.size() ? Lines[N - 1] : llvm::StringRef();
  }
  unsigned numLines() const { return Lines.size(); }

  std::vector<SCLSection> Sections;
  std::vector<SCLEntry> Entries;
  /// "# Subsystem: NAME" and "# List: ADDR[, ADDR]" from the leading
  /// comment block.
  std::optional<std::string> Subsystem;
  unsigned SubsystemLine = 0;
  std::vector<std::string> Lists;
  unsigned ListLine = 0;
  /// Lines starting with whitespace and then '#': SpecialCaseList does not
  /// take them as comments.
  std::vector<unsigned> IndentedComments;
  /// The "#!special-case-list-vN" header, if any.
  std::string VersionHeader;

private:
  std::string Path;
  std::unique_ptr<llvm::MemoryBuffer> Buffer;
  std::vector<llvm::StringRef> Lines;
  std::unique_ptr<llvm::SpecialCaseList> SCL;
};

/// What a section name stands for: the sanitizers it names (one name, or a
/// brace group "{a,b}" of names). On an unacceptable name, Problem says why.
SCLSection describeSection(llvm::StringRef Name, unsigned Line);

/// SpecialCaseList::inSectionBlame's line (its return type changed from
/// `unsigned` to `pair<file index, line>` in LLVM 20).
[[maybe_unused]] inline unsigned blameLine(unsigned Line) { return Line; }
[[maybe_unused]] inline unsigned
blameLine(std::pair<unsigned, unsigned> FileAndLine) {
  return FileAndLine.second;
}

} // namespace wil

#endif
