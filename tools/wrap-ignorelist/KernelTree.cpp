//===- KernelTree.cpp - A kernel source tree: its files and functions -----===//
//
// Part of wrapidiom. See KernelTree.h.
//
//===----------------------------------------------------------------------===//
#include "KernelTree.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstring>

using namespace llvm;

namespace wil {

namespace {

bool isIdentStart(char C) { return isAlpha(C) || C == '_'; }
bool isIdentChar(char C) { return isAlnum(C) || C == '_'; }

bool isKeyword(StringRef Name) {
  static const StringSet<> Keywords = {
      "if",      "while",         "for",      "switch",  "return",
      "sizeof",  "typeof",        "__typeof__", "_Static_assert",
      "static_assert", "__attribute__", "asm", "__asm__", "defined",
      "do",      "else",          "case",     "goto",    "alignof",
      "_Alignof", "__builtin_expect"};
  return Keywords.contains(Name);
}

/// Skip a /* comment */ starting at P; returns the position after it.
const char *skipBlockComment(const char *P, const char *E) {
  const char *End = P + 2;
  while (End + 1 < E && !(End[0] == '*' && End[1] == '/'))
    ++End;
  return End + 1 < E ? End + 2 : E;
}

/// P points at '('; return the position after the matching ')', or null if
/// it does not close within a reasonable distance.
const char *matchParen(const char *P, const char *E) {
  const char *Limit = E - P > 16384 ? P + 16384 : E;
  int Depth = 0;
  while (P < Limit) {
    char C = *P;
    if (C == '/' && P + 1 < Limit && P[1] == '*') {
      P = skipBlockComment(P, Limit);
      continue;
    }
    if (C == '(')
      ++Depth;
    else if (C == ')') {
      if (--Depth == 0)
        return P + 1;
    } else if (C == ';' || C == '{' || C == '}')
      return nullptr; // a statement, not a parameter list
    ++P;
  }
  return nullptr;
}

/// After a parameter list: skip blanks, comments and attribute macros
/// (`__acquires(x)`, `__attribute__((...))`, any `__name` with optional
/// parenthesised arguments). Returns the first other character.
const char *skipAttributes(const char *P, const char *E) {
  while (P < E) {
    char C = *P;
    if (C == ' ' || C == '\t' || C == '\n' || C == '\r') {
      ++P;
      continue;
    }
    if (C == '/' && P + 1 < E && P[1] == '*') {
      P = skipBlockComment(P, E);
      continue;
    }
    if (C == '/' && P + 1 < E && P[1] == '/') {
      while (P < E && *P != '\n')
        ++P;
      continue;
    }
    if (C == '_' && P + 1 < E && P[1] == '_') {
      while (P < E && isIdentChar(*P))
        ++P;
      const char *Q = P;
      while (Q < E && (*Q == ' ' || *Q == '\t'))
        ++Q;
      if (Q < E && *Q == '(') {
        const char *After = matchParen(Q, E);
        if (!After)
          return Q;
        P = After;
      }
      continue;
    }
    return P;
  }
  return P;
}

} // namespace

std::vector<FunctionDef> scanFunctionDefinitions(StringRef Text) {
  std::vector<FunctionDef> Defs;
  const char *P = Text.begin(), *E = Text.end();
  unsigned LineNo = 0;
  size_t Open = SIZE_MAX; // index of the definition whose body is open
  const char *HeaderEnd = P; // the '{' of the last definition found
  while (P < E) {
    ++LineNo;
    const char *NL = static_cast<const char *>(std::memchr(P, '\n', E - P));
    const char *LineEnd = NL ? NL : E;
    char First = *P;
    if (P < HeaderEnd) {
      // Inside the last definition's header: `__must_hold(x)` on a line
      // of its own is an attribute, not a definition.
    } else if (First == '}' && Open != SIZE_MAX) {
      Defs[Open].EndLine = LineNo;
      Open = SIZE_MAX;
    } else if (isIdentStart(First)) {
      const char *Paren =
          static_cast<const char *>(std::memchr(P, '(', LineEnd - P));
      StringRef Head(P, Paren ? Paren - P : 0);
      if (Paren && Head.find_first_of("=;\"'") == StringRef::npos) {
        const char *Q = Paren;
        while (Q > P && (Q[-1] == ' ' || Q[-1] == '\t'))
          --Q;
        const char *NameEnd = Q;
        while (Q > P && isIdentChar(Q[-1]))
          --Q;
        StringRef Name(Q, NameEnd - Q);
        // `__printf(2, 3) int foo(...)`: the name is at a later '('.
        while (Name.starts_with("__") && Name != "__attribute__") {
          const char *Close = matchParen(Paren, E);
          const char *Next =
              Close && Close < LineEnd
                  ? static_cast<const char *>(
                        std::memchr(Close, '(', LineEnd - Close))
                  : nullptr;
          if (!Next)
            break;
          Paren = Next;
          Q = Paren;
          while (Q > Close && (Q[-1] == ' ' || Q[-1] == '\t'))
            --Q;
          NameEnd = Q;
          while (Q > Close && isIdentChar(Q[-1]))
            --Q;
          Name = StringRef(Q, NameEnd - Q);
        }
        if (!Name.empty() && isIdentStart(Name[0]) && !isKeyword(Name)) {
          if (const char *Close = matchParen(Paren, E)) {
            const char *Body = skipAttributes(Close, E);
            if (Body < E && *Body == '{') {
              if (Open != SIZE_MAX && !Defs[Open].EndLine)
                Defs[Open].EndLine = LineNo - 1;
              FunctionDef D;
              D.Name = Name.str();
              D.Line = LineNo;
              Defs.push_back(std::move(D));
              Open = Defs.size() - 1;
              HeaderEnd = Body;
            }
          }
        }
      }
    }
    P = NL ? NL + 1 : E;
  }
  return Defs;
}

Expected<std::unique_ptr<KernelTree>> KernelTree::load(StringRef Root) {
  if (!sys::fs::is_directory(Root))
    return createStringError(std::make_error_code(std::errc::not_a_directory),
                             "kernel tree '%s' is not a directory",
                             Root.str().c_str());
  auto T = std::make_unique<KernelTree>();
  T->Root = absolutePath(Root);
  T->Name = Root.str();
  return T;
}

const std::vector<std::string> &KernelTree::files() {
  if (Walked)
    return Files;
  Walked = true;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator
           It(Root, EC, /*follow_symlinks=*/false),
       End;
       It != End && !EC; It.increment(EC)) {
    StringRef Path = It->path();
    StringRef Name = sys::path::filename(Path);
    sys::fs::file_type Type = It->type();
    if (Type == sys::fs::file_type::directory_file) {
      if (Name.starts_with("."))
        It.no_push();
      continue;
    }
    if (Type != sys::fs::file_type::regular_file)
      continue;
    StringRef Rel = Path.drop_front(Root.size());
    Rel.consume_front("/");
    Files.push_back(Rel.str());
  }
  if (EC)
    WalkError = EC.message();
  llvm::sort(Files);
  return Files;
}

bool KernelTree::isDirectory(StringRef Rel) const {
  SmallString<256> P(Root);
  sys::path::append(P, Rel);
  return sys::fs::is_directory(P);
}

const std::vector<FunctionDef> &KernelTree::definitionsIn(StringRef Rel) {
  auto It = PerFile.find(Rel);
  if (It != PerFile.end())
    return It->second;
  std::vector<FunctionDef> Defs;
  SmallString<256> P(Root);
  sys::path::append(P, Rel);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(
      P, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (Buf) {
    Defs = scanFunctionDefinitions((*Buf)->getBuffer());
    ++Scanned;
  }
  return PerFile.try_emplace(Rel, std::move(Defs)).first->second;
}

const KernelTree::NameIndex &KernelTree::allDefinedNames() {
  if (Indexed)
    return AllNames;
  Indexed = true;
  auto Add = [&](StringRef Name, unsigned FileIdx) {
    SmallVector<unsigned, 1> &In = AllNames[Name];
    if (In.empty() || In.back() != FileIdx)
      In.push_back(FileIdx);
  };
  const std::vector<std::string> &All = files();
  for (unsigned Idx = 0; Idx < All.size(); ++Idx) {
    StringRef R(All[Idx]);
    if (!R.ends_with(".c") && !R.ends_with(".h"))
      continue;
    // Host programs and user-space tools: never built into the kernel.
    if (R.starts_with("tools/") || R.starts_with("scripts/"))
      continue;
    auto It = PerFile.find(R);
    if (It != PerFile.end()) {
      for (const FunctionDef &D : It->second)
        Add(D.Name, Idx);
      continue;
    }
    // Not kept per file: the whole tree would cost too much memory.
    SmallString<256> P(Root);
    sys::path::append(P, R);
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(
        P, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!Buf)
      continue;
    ++Scanned;
    for (FunctionDef &D : scanFunctionDefinitions((*Buf)->getBuffer()))
      Add(D.Name, Idx);
  }
  return AllNames;
}

std::optional<std::string> KernelTree::enclosingFunction(StringRef Rel,
                                                         unsigned Line) {
  const std::vector<FunctionDef> &Defs = definitionsIn(Rel);
  for (auto It = Defs.rbegin(); It != Defs.rend(); ++It) {
    if (It->Line > Line)
      continue;
    if (It->EndLine && Line <= It->EndLine)
      return It->Name;
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace wil
