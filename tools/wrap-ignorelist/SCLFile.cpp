//===- SCLFile.cpp - One ignorelist file, as SpecialCaseList and as lines -===//
//
// Part of wrapidiom. See SCLFile.h.
//
//===----------------------------------------------------------------------===//
#include "SCLFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace wil {

Expected<std::unique_ptr<SCLFile>> SCLFile::load(StringRef Path) {
  Expected<std::unique_ptr<MemoryBuffer>> Buf = readFile(Path);
  if (!Buf)
    return Buf.takeError();
  auto F = std::unique_ptr<SCLFile>(new SCLFile());
  F->Path = Path.str();
  F->Buffer = std::move(*Buf);
  F->Lines = splitLines(F->Buffer->getBuffer());
  return F;
}

SCLSection describeSection(StringRef Name, unsigned Line) {
  SCLSection S;
  S.Line = Line;
  S.Name = Name.str();
  StringRef Inner = Name;
  bool Group = Inner.consume_front("{");
  if (Group && !Inner.consume_back("}")) {
    S.Problem = "unbalanced '{' in section name '" + Name.str() + "'";
    return S;
  }
  SmallVector<StringRef, 4> Parts;
  if (Group)
    Inner.split(Parts, ',');
  else
    Parts.push_back(Inner);
  for (StringRef P : Parts) {
    if (!isOverflowSanitizer(P)) {
      S.Problem = "unknown section '" + Name.str() + "'";
      if (Group)
        S.Problem += " ('" + P.str() + "' is not a sanitizer";
      S.Problem += Group ? "; " : " (";
      S.Problem += "expected pointer-overflow, signed-integer-overflow, "
                   "unsigned-integer-overflow or a {a,b} group of them)";
      S.Sanitizers.clear();
      return S;
    }
    if (!is_contained(S.Sanitizers, P.str()))
      S.Sanitizers.push_back(P.str());
  }
  llvm::sort(S.Sanitizers);
  return S;
}

bool isLintDirective(StringRef Comment) {
  return Comment.trim().starts_with("lint:");
}

namespace {

void readDirectives(SCLEntry &E) {
  for (const std::string &C : E.Comments) {
    StringRef T = StringRef(C).trim();
    if (!T.consume_front("lint:"))
      continue;
    T = T.trim();
    if (T == "no-tree-check")
      E.NoTreeCheck = true;
    else if (T.consume_front("kernel ") && !T.trim().empty())
      E.Kernel = T.trim().str();
    else
      E.BadDirectives.push_back(StringRef(C).trim().str());
  }
}

} // namespace

bool SCLFile::parse(Diagnostics &Diags) {
  // SpecialCaseList is the authority on what parses.
  std::string Error;
  SCL = SpecialCaseList::create(Buffer.get(), Error);
  if (!SCL) {
    Diags.error(Path, lineOfSCLError(Error), Error);
    return false;
  }

  Sections.clear();
  Entries.clear();
  SCLSection Implicit;
  Implicit.Name = "*";
  Implicit.Problem = "entry outside any section applies to every sanitizer";
  Sections.push_back(Implicit);

  if (!Lines.empty() && Lines[0].starts_with("#!special-case-list-v"))
    VersionHeader = Lines[0].str();

  // The leading block of comments and blank lines is the header.
  bool InHeader = true;
  std::vector<std::string> Pending; // comment block above the current line
  for (unsigned I = 0; I < Lines.size(); ++I) {
    unsigned LineNo = I + 1;
    StringRef Raw = Lines[I];
    if (Raw.starts_with("#")) {
      StringRef Text = Raw.drop_front().trim();
      Pending.push_back(Text.str());
      if (InHeader) {
        if (Text.consume_front("Subsystem:")) {
          if (!Subsystem) {
            Subsystem = Text.trim().str();
            SubsystemLine = LineNo;
          }
        } else if (Text.consume_front("List:")) {
          if (!ListLine)
            ListLine = LineNo;
          SmallVector<StringRef, 2> Addrs;
          Text.split(Addrs, ',', -1, /*KeepEmpty=*/false);
          for (StringRef A : Addrs)
            if (!A.trim().empty())
              Lists.push_back(A.trim().str());
        }
      }
      continue;
    }
    StringRef Line = Raw.trim();
    if (Line.empty()) {
      Pending.clear();
      continue;
    }
    if (Line.starts_with("#"))
      IndentedComments.push_back(LineNo);
    InHeader = false;
    if (Line.starts_with("[")) {
      // SpecialCaseList accepted it, so it ends with ']'.
      Sections.push_back(
          describeSection(Line.drop_front().drop_back(), LineNo));
      Pending.clear();
      continue;
    }
    auto [Prefix, Postfix] = Line.split(':');
    auto [Pattern, Category] = Postfix.split('=');
    SCLEntry E;
    E.Line = LineNo;
    E.Section = Sections.size() - 1;
    E.Kind = Prefix.str();
    E.Pattern = Pattern.str();
    E.Category = Category.str();
    E.Text = Line.str();
    E.Comments = std::move(Pending);
    Pending.clear();
    readDirectives(E);
    Entries.push_back(std::move(E));
  }
  return true;
}

} // namespace wil
