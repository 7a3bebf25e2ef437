//===- Common.cpp - Diagnostics and small helpers for wrap-ignorelist -----===//
//
// Part of wrapidiom. See README.md beside this file.
//
//===----------------------------------------------------------------------===//
#include "Common.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace llvm;

namespace wil {

char CommandError::ID;

Error usageError(const Twine &Msg) {
  return make_error<CommandError>(Msg.str(), /*Usage=*/true);
}

Error fatalError(const Twine &Msg) {
  return make_error<CommandError>(Msg.str(), /*Usage=*/false);
}

void Diagnostics::add(StringRef File, unsigned Line, Severity Sev,
                      const Twine &Msg) {
  Diag D;
  D.File = File.str();
  D.Line = Line;
  D.Sev = Sev;
  D.Message = Msg.str();
  D.Order = Diags.size();
  Diags.push_back(std::move(D));
  if (Sev == Severity::Error)
    ++NumErrors;
  else
    ++NumWarnings;
}

void Diagnostics::error(StringRef File, unsigned Line, const Twine &Msg) {
  add(File, Line, Severity::Error, Msg);
}

void Diagnostics::warning(StringRef File, unsigned Line, const Twine &Msg) {
  add(File, Line, Severity::Warning, Msg);
}

void Diagnostics::print(raw_ostream &OS, ArrayRef<std::string> FileOrder) {
  StringMap<unsigned> Rank;
  for (const std::string &F : FileOrder)
    Rank.try_emplace(F, Rank.size());
  for (const Diag &D : Diags)
    Rank.try_emplace(D.File, Rank.size());
  std::vector<const Diag *> Sorted;
  for (const Diag &D : Diags)
    Sorted.push_back(&D);
  std::stable_sort(Sorted.begin(), Sorted.end(),
                   [&](const Diag *A, const Diag *B) {
                     unsigned RA = Rank[A->File], RB = Rank[B->File];
                     if (RA != RB)
                       return RA < RB;
                     if (A->Line != B->Line)
                       return A->Line < B->Line;
                     return A->Order < B->Order;
                   });
  for (const Diag *D : Sorted) {
    OS << D->File;
    if (D->Line)
      OS << ":" << D->Line;
    OS << (D->Sev == Severity::Error ? ": error: " : ": warning: ")
       << D->Message << "\n";
  }
}

Expected<std::unique_ptr<MemoryBuffer>> readFile(StringRef Path) {
  // Only regular files: a FIFO or a device would block or never end.
  sys::fs::file_status St;
  if (!sys::fs::status(Path, St)) {
    if (sys::fs::is_directory(St))
      return createStringError(std::make_error_code(std::errc::is_a_directory),
                               "cannot read '%s': it is a directory",
                               Path.str().c_str());
    if (!sys::fs::is_regular_file(St))
      return createStringError(
          std::make_error_code(std::errc::invalid_argument),
          "cannot read '%s': not a regular file", Path.str().c_str());
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buf)
    return createStringError(Buf.getError(), "cannot read '%s': %s",
                             Path.str().c_str(),
                             Buf.getError().message().c_str());
  return std::move(*Buf);
}

std::vector<StringRef> splitLines(StringRef Text) {
  std::vector<StringRef> Lines;
  while (!Text.empty()) {
    size_t NL = Text.find('\n');
    StringRef Line = Text.substr(0, NL);
    Line.consume_back("\r");
    Lines.push_back(Line);
    if (NL == StringRef::npos)
      break;
    Text = Text.substr(NL + 1);
  }
  return Lines;
}

std::string slugify(StringRef Name) {
  std::string Slug;
  bool Dash = false;
  for (char C : Name) {
    if (isAlnum(C)) {
      if (Dash && !Slug.empty())
        Slug += '-';
      Dash = false;
      Slug += toLower(C);
    } else {
      Dash = true;
    }
  }
  return Slug;
}

std::string normalizeSourcePath(StringRef Path, StringRef TreeRoot) {
  if (!TreeRoot.empty() && sys::path::is_absolute(Path)) {
    SmallString<256> Root(TreeRoot);
    sys::path::remove_dots(Root, /*remove_dot_dot=*/true);
    StringRef R = Root.str();
    R.consume_back("/");
    if (Path.starts_with(R) && Path.size() > R.size() && Path[R.size()] == '/')
      Path = Path.drop_front(R.size() + 1);
  }
  while (Path.consume_front("./"))
    ;
  return Path.str();
}

ArrayRef<StringRef> overflowSanitizers() {
  static const StringRef Names[] = {"pointer-overflow",
                                    "signed-integer-overflow",
                                    "unsigned-integer-overflow"};
  return Names;
}

bool isOverflowSanitizer(StringRef Name) {
  return is_contained(overflowSanitizers(), Name);
}

std::string csvField(StringRef Field) {
  if (Field.find_first_of(",\"\r\n") == StringRef::npos)
    return Field.str();
  std::string Out = "\"";
  for (char C : Field) {
    if (C == '"')
      Out += '"';
    Out += C;
  }
  Out += '"';
  return Out;
}

unsigned lineOfSCLError(StringRef Message) {
  // SpecialCaseList says "malformed line 3: ...", "malformed section header
  // on line 3: ...", "malformed section at line 3: ...", "malformed glob in
  // line 3: ...".
  for (StringRef Marker : {"line "}) {
    size_t Pos = 0;
    while ((Pos = Message.find(Marker, Pos)) != StringRef::npos) {
      StringRef Rest = Message.drop_front(Pos + Marker.size());
      unsigned Line;
      StringRef Digits = Rest.take_while(isDigit);
      if (!Digits.empty() && !Digits.getAsInteger(10, Line))
        return Line;
      Pos += Marker.size();
    }
  }
  return 0;
}

std::string absolutePath(StringRef Path) {
  SmallString<256> Abs(Path);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return Abs.str().str();
}

} // namespace wil
