//===- Maintainers.cpp - Which MAINTAINERS entry owns a file --------------===//
//
// Part of wrapidiom. See Maintainers.h.
//
//===----------------------------------------------------------------------===//
#include "Maintainers.h"
#include "KernelTree.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <climits>

using namespace llvm;

namespace wil {

namespace {

/// Does Pat match a prefix of S? '*' = any run (including '/'), '?' = one
/// character, [...] = a class; everything else literal.
bool prefixMatch(StringRef Pat, StringRef S) {
  while (!Pat.empty()) {
    char C = Pat.front();
    if (C == '*') {
      Pat = Pat.drop_while([](char X) { return X == '*'; });
      if (Pat.empty())
        return true;
      for (size_t I = 0; I <= S.size(); ++I)
        if (prefixMatch(Pat, S.drop_front(I)))
          return true;
      return false;
    }
    if (S.empty())
      return false;
    if (C == '?') {
      Pat = Pat.drop_front();
      S = S.drop_front();
      continue;
    }
    if (C == '[') {
      size_t Close = Pat.find(']', 2);
      if (Close != StringRef::npos) {
        StringRef Class = Pat.slice(1, Close);
        bool Negate = Class.consume_front("^");
        bool In = false;
        for (size_t I = 0; I < Class.size(); ++I) {
          if (I + 2 < Class.size() && Class[I + 1] == '-') {
            if (S.front() >= Class[I] && S.front() <= Class[I + 2])
              In = true;
            I += 2;
          } else if (Class[I] == S.front()) {
            In = true;
          }
        }
        if (In == Negate)
          return false;
        Pat = Pat.drop_front(Close + 1);
        S = S.drop_front();
        continue;
      }
    }
    if (C != S.front())
      return false;
    Pat = Pat.drop_front();
    S = S.drop_front();
  }
  return true;
}

bool hasWildcard(StringRef P) { return P.find_first_of("*?[") != StringRef::npos; }

} // namespace

bool maintainersPatternMatches(StringRef Pattern, bool Dir, StringRef File) {
  if (!prefixMatch(Pattern, File))
    return false;
  if (Dir)
    return true;
  return Pattern.count('/') == File.count('/');
}

Expected<std::unique_ptr<Maintainers>> Maintainers::load(StringRef Path,
                                                         KernelTree *Tree) {
  Expected<std::unique_ptr<MemoryBuffer>> Buf = readFile(Path);
  if (!Buf)
    return Buf.takeError();
  auto M = std::make_unique<Maintainers>();
  M->Path = Path.str();
  std::vector<StringRef> Lines = splitLines((*Buf)->getBuffer());

  // Entries follow the "Maintainers List" heading; a file without it (a
  // test fixture) is all entries.
  size_t Start = 0;
  for (size_t I = 0; I < Lines.size(); ++I)
    if (Lines[I].trim() == "Maintainers List") {
      Start = I + 1;
      break;
    }

  auto IsTag = [](StringRef L) {
    return L.size() >= 2 && L[0] >= 'A' && L[0] <= 'Z' && L[1] == ':';
  };
  StringRef Name;
  unsigned NameLine = 0;
  MaintainersEntry *Cur = nullptr;
  for (size_t I = Start; I < Lines.size(); ++I) {
    StringRef L = Lines[I];
    if (!IsTag(L)) {
      Cur = nullptr;
      StringRef T = L.trim();
      if (!T.empty() && !T.starts_with("-") && !T.starts_with("..") &&
          !L.starts_with(" ") && !L.starts_with("\t")) {
        Name = T;
        NameLine = I + 1;
      }
      continue;
    }
    if (!Cur) {
      if (Name.empty())
        continue; // tags without a heading
      M->Entries.emplace_back();
      Cur = &M->Entries.back();
      Cur->Name = Name.str();
      Cur->Line = NameLine;
      Name = StringRef();
    }
    char Tag = L[0];
    StringRef Value = L.drop_front(2).trim();
    switch (Tag) {
    case 'L': {
      StringRef Addr = Value.split(' ').first.split('\t').first;
      if (!Addr.empty())
        Cur->Lists.push_back(Addr.str());
      break;
    }
    case 'F':
    case 'X': {
      if (Value.empty())
        break;
      MaintainersEntry::Pattern P;
      P.Text = Value.str();
      P.Dir = Value.ends_with("/");
      if (!P.Dir && Tree && !hasWildcard(Value) && Tree->isDirectory(Value)) {
        P.Text += "/";
        P.Dir = true;
      }
      // get_maintainer.pl's rank: '/'s, +1 without a trailing '/', -1 for
      // a leading wildcard.
      P.Depth = StringRef(P.Text).count('/') + (P.Dir ? 0 : 1);
      if (Value.starts_with("*"))
        P.Depth = -1;
      (Tag == 'F' ? Cur->Files : Cur->Excludes).push_back(std::move(P));
      break;
    }
    case 'N': {
      // Perl /x regexes; those POSIX ERE cannot compile are skipped.
      std::string Compact;
      for (char C : Value)
        if (C != ' ' && C != '\t')
          Compact += C;
      auto R = std::make_shared<Regex>(Compact);
      std::string Err;
      if (R->isValid(Err))
        Cur->Regexes.push_back(std::move(R));
      break;
    }
    default:
      break;
    }
  }
  for (size_t I = 0; I < M->Entries.size(); ++I)
    M->ByName.try_emplace(M->Entries[I].Name, I);
  return M;
}

std::vector<const MaintainersEntry *>
Maintainers::owners(StringRef Rel) const {
  std::vector<const MaintainersEntry *> Best;
  int BestRank = INT_MIN;
  for (const MaintainersEntry &E : Entries) {
    bool Excluded = any_of(E.Excludes, [&](const MaintainersEntry::Pattern &P) {
      return maintainersPatternMatches(P.Text, P.Dir, Rel);
    });
    if (Excluded)
      continue;
    int Rank = INT_MIN;
    for (const MaintainersEntry::Pattern &P : E.Files)
      if (P.Depth > Rank && maintainersPatternMatches(P.Text, P.Dir, Rel))
        Rank = P.Depth;
    if (Rank < 0)
      for (const std::shared_ptr<Regex> &R : E.Regexes)
        if (R->match(Rel)) {
          Rank = 0;
          break;
        }
    if (Rank == INT_MIN)
      continue;
    if (Rank > BestRank) {
      BestRank = Rank;
      Best.clear();
    }
    if (Rank == BestRank)
      Best.push_back(&E);
  }
  return Best;
}

bool MaintainersEntry::covers(StringRef Rel) const {
  for (const Pattern &P : Excludes)
    if (maintainersPatternMatches(P.Text, P.Dir, Rel))
      return false;
  for (const Pattern &P : Files)
    if (maintainersPatternMatches(P.Text, P.Dir, Rel))
      return true;
  for (const std::shared_ptr<Regex> &R : Regexes)
    if (R->match(Rel))
      return true;
  return false;
}

const MaintainersEntry *Maintainers::find(StringRef Name) const {
  auto It = ByName.find(Name);
  return It == ByName.end() ? nullptr : &Entries[It->second];
}

} // namespace wil
