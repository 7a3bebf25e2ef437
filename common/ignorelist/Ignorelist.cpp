//===- Ignorelist.cpp - Sanitizer ignorelists for what no idiom can decide ===//
//
// Part of wrapidiom. See Ignorelist.h.
//
//===----------------------------------------------------------------------===//
#include "Ignorelist.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Regex.h"

#include <utility>

using namespace llvm;

namespace wrapidiom {

namespace {

// SpecialCaseList::inSectionBlame returns a line number up to LLVM 21 and a
// <file index, line> pair since; each of our lists holds a single file.
[[maybe_unused]] unsigned blameLine(unsigned Line) { return Line; }
[[maybe_unused]] unsigned
blameLine(std::pair<unsigned, unsigned> FileAndLine) {
  return FileAndLine.second;
}

/// SpecialCaseList reports "malformed line 3: 'x'" and kin; lift the line
/// number out so the message reads FILE:3: cause.
std::string locate(StringRef Path, StringRef Message) {
  SmallVector<StringRef, 2> Groups;
  static const Regex LineRE("line ([0-9]+)");
  if (LineRE.match(Message, &Groups))
    return (Path + ":" + Groups[1] + ": " + Message).str();
  return (Path + ": " + Message).str();
}

/// What a path that is not a regular file is instead, for the error.
StringRef describe(sys::fs::file_type Type) {
  switch (Type) {
  case sys::fs::file_type::directory_file:
    return "a directory";
  case sys::fs::file_type::fifo_file:
    return "a FIFO";
  case sys::fs::file_type::character_file:
    return "a character device";
  case sys::fs::file_type::block_file:
    return "a block device";
  case sys::fs::file_type::socket_file:
    return "a socket";
  default:
    return "of unknown type";
  }
}

/// Read one list. Only a regular file of bounded size: reading a FIFO
/// blocks until someone writes to it, /dev/zero never ends, and a directory
/// or device is a mistake on the command line. stat() neither blocks nor
/// reads, so the checks come before the file is opened.
Expected<std::unique_ptr<MemoryBuffer>> readList(const std::string &Path) {
  sys::fs::file_status Status;
  if (std::error_code EC = sys::fs::status(Path, Status))
    return createStringError(EC, "%s: cannot read: %s", Path.c_str(),
                             EC.message().c_str());
  if (!sys::fs::is_regular_file(Status))
    return createStringError(std::errc::invalid_argument,
                             "%s: not a regular file (%s)", Path.c_str(),
                             describe(Status.type()).data());
  if (Status.getSize() > Ignorelist::MaxFileSize)
    return createStringError(
        std::errc::file_too_large,
        "%s: too large: %llu bytes, the limit is %llu MiB", Path.c_str(),
        static_cast<unsigned long long>(Status.getSize()),
        static_cast<unsigned long long>(Ignorelist::MaxFileSize >> 20));
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return createStringError(Buffer.getError(), "%s: cannot read: %s",
                             Path.c_str(),
                             Buffer.getError().message().c_str());
  return std::move(*Buffer);
}

} // namespace

bool isScopeCategory(StringRef Category) {
  return Category.ends_with(".c") || Category.ends_with(".h");
}

namespace {

/// An entry's kind and category, as Ignorelist::List::Kinds holds them.
StringRef kindKey(StringRef Prefix, StringRef Category,
                  SmallVectorImpl<char> &Buf) {
  return (Prefix + "=" + Category).toStringRef(Buf);
}

/// What SpecialCaseList accepts but would make an entry do nothing, or
/// something else than written: an entry kind the lists are never asked
/// about (`fnu:foo`), a category that is neither `sanitize` nor, on a
/// `fun:` entry, the file the function is defined in. The first such line
/// is the error, "FILE:LINE: cause".
std::optional<std::string> checkEntries(StringRef Path,
                                        const MemoryBuffer &Buffer,
                                        StringSet<> &Kinds) {
  // SpecialCaseList reads up to the first NUL, as a C string.
  StringRef Text = Buffer.getBuffer();
  Text = Text.take_front(Text.find('\0'));
  SmallVector<StringRef, 0> Lines;
  Text.split(Lines, '\n');
  for (size_t I = 0; I < Lines.size(); ++I) {
    StringRef L = Lines[I].trim();
    if (L.empty() || L.starts_with("#") || L.starts_with("["))
      continue;
    auto [Kind, Rest] = L.split(':');
    auto [Pattern, Category] = Rest.split('=');
    std::string Where = (Path + ":" + Twine(I + 1) + ": ").str();
    if (!is_contained(EntryKinds, Kind))
      return Where + "unknown entry kind '" + Kind.str() +
             ":' (expected src:, fun:, type: or mainfile:)";
    SmallString<64> Buf;
    Kinds.insert(kindKey(Kind, Category, Buf));
    if (Category.empty() || Category == "sanitize")
      continue;
    if (Kind != "fun")
      return Where + "unknown category '=" + Category.str() + "' in '" +
             L.str() + "' (a " + Kind.str() +
             ": entry takes only '=sanitize')";
    if (!isScopeCategory(Category) || Category.starts_with("./") ||
        Category.starts_with("/"))
      return Where + "unknown category '=" + Category.str() + "' in '" +
             L.str() +
             "' (a fun: entry takes '=sanitize' or the file that defines "
             "the function, as a tree-relative path ending in .c or .h)";
  }
  return std::nullopt;
}

} // namespace

Expected<std::unique_ptr<Ignorelist>>
Ignorelist::load(ArrayRef<std::string> Paths) {
  auto Result = std::make_unique<Ignorelist>();
  for (const std::string &Path : Paths) {
    Expected<std::unique_ptr<MemoryBuffer>> Buffer = readList(Path);
    if (!Buffer)
      return Buffer.takeError();
    std::string Error;
    std::unique_ptr<SpecialCaseList> SCL =
        SpecialCaseList::create(Buffer->get(), Error);
    if (!SCL)
      return createStringError(inconvertibleErrorCode(), "%s",
                               locate(Path, Error).c_str());
    StringSet<> Kinds;
    if (std::optional<std::string> Bad = checkEntries(Path, **Buffer, Kinds))
      return createStringError(std::errc::invalid_argument, "%s",
                               Bad->c_str());
    for (const auto &K : Kinds)
      Result->AllKinds.insert(K.getKey());
    List L{Path, std::move(*Buffer), std::move(SCL), std::move(Kinds), {}};
    L.Buffer->getBuffer().split(L.Lines, '\n');
    Result->Lists.push_back(std::move(L));
  }
  Result->NoLines.assign(Result->Lists.size(), 0);
  return Result;
}

SmallVector<std::string, 2> typeNames(StringRef Rest) {
  SmallVector<std::string, 2> Names;
  while (true) {
    size_t Open = Rest.find('\'');
    if (Open == StringRef::npos)
      break;
    size_t Close = Rest.find('\'', Open + 1);
    if (Close == StringRef::npos)
      break;
    Names.push_back(Rest.slice(Open + 1, Close).str());
    Rest = Rest.drop_front(Close + 1);
  }
  return Names;
}

IgnorelistQuery IgnorelistQuery::forSite(StringRef Sanitizer, StringRef File,
                                         StringRef MainFile,
                                         ArrayRef<std::string> Functions,
                                         StringRef TypeString) {
  IgnorelistQuery Q;
  if (Sanitizer.consume_front("{") && Sanitizer.consume_back("}")) {
    SmallVector<StringRef, 2> Group;
    Sanitizer.split(Group, ',');
    for (StringRef S : Group)
      Q.Sanitizers.push_back(S.trim().str());
  } else {
    Q.Sanitizers.push_back(Sanitizer.str());
  }
  if (!File.empty()) {
    Q.Entries.push_back({"src", File.str()});
    StringRef Plain = File;
    if (Plain.consume_front("./"))
      Q.Entries.push_back({"src", Plain.str()});
  }
  if (!MainFile.empty())
    Q.Entries.push_back({"mainfile", MainFile.str()});
  for (const std::string &F : Functions)
    Q.Entries.push_back({"fun", F});
  for (std::string &T : typeNames(TypeString))
    Q.Entries.push_back({"type", std::move(T)});
  return Q;
}

const std::vector<unsigned> &Ignorelist::linesOf(StringRef Sanitizer,
                                                 StringRef Prefix,
                                                 StringRef Query,
                                                 StringRef Category) const {
  // A list without an entry of this kind and category cannot match: most
  // lists hold src: and fun: entries only, and most queries are of the
  // other kinds or categories (type:, mainfile:, =sanitize, a fun: scoped
  // to a file). No list has one: nothing to cache.
  SmallString<64> KindBuf;
  StringRef Kind = kindKey(Prefix, Category, KindBuf);
  if (!AllKinds.contains(Kind))
    return NoLines;
  SmallString<256> KeyBuf;
  StringRef Key = (Sanitizer + "\x1f" + Prefix + "\x1f" + Query + "\x1f" +
                   Category)
                      .toStringRef(KeyBuf);
  std::lock_guard<std::mutex> Guard(CacheLock);
  auto [It, New] = Cache.try_emplace(Key);
  if (New) {
    It->second.reserve(Lists.size());
    for (const List &L : Lists)
      It->second.push_back(
          L.Kinds.contains(Kind)
              ? blameLine(
                    L.SCL->inSectionBlame(Sanitizer, Prefix, Query, Category))
              : 0);
  }
  // StringMap values do not move when the map grows.
  return It->second;
}

std::optional<Ignorelist::Match>
Ignorelist::lookup(const IgnorelistQuery &Q) const {
  // The last matching entry decides: of a later list, or later in the same
  // list. A line is one entry with one category, so the order in which the
  // (sanitizer, entry, category) triples are tried does not matter.
  size_t BestFile = 0;
  unsigned BestLine = 0;
  bool BestSanitize = false;
  for (const std::string &Sanitizer : Q.Sanitizers) {
    for (const auto &[Prefix, Query] : Q.Entries) {
      // A fun: entry may be scoped to the file that defines the
      // function: `fun:hash=fs/inode.c` (the file as the check's source
      // or the translation unit).
      SmallVector<StringRef, 6> Categories = {StringRef(), "sanitize"};
      if (Prefix == "fun")
        for (const auto &[P, File] : Q.Entries)
          if (P == "src" || P == "mainfile")
            Categories.push_back(File);
      for (StringRef Category : Categories) {
        const std::vector<unsigned> &Lines =
            linesOf(Sanitizer, Prefix, Query, Category);
        for (size_t FileIdx = 0; FileIdx < Lists.size(); ++FileIdx) {
          unsigned Line = Lines[FileIdx];
          if (!Line)
            continue;
          bool Later = !BestLine || FileIdx > BestFile ||
                       (FileIdx == BestFile && Line > BestLine);
          if (!Later)
            continue;
          BestFile = FileIdx;
          BestLine = Line;
          BestSanitize = Category == "sanitize";
        }
      }
    }
  }
  if (!BestLine)
    return std::nullopt;
  const List &L = Lists[BestFile];
  StringRef Entry =
      BestLine <= L.Lines.size() ? L.Lines[BestLine - 1].trim() : "";
  return Match{BestSanitize, L.Path, BestLine, Entry.str()};
}

} // namespace wrapidiom
