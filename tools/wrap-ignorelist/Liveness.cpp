//===- Liveness.cpp - Which checks each ignorelist entry decides ----------===//
//
// Part of wrapidiom. See Liveness.h.
//
//===----------------------------------------------------------------------===//
#include "Liveness.h"

#include "RemarkSchema.h"
#include "RemarksReader.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <map>

using namespace llvm;

namespace wil {

std::pair<std::string, unsigned> entryLocation(StringRef Text) {
  std::optional<wrapidiom::remark::EntryLocation> Loc =
      wrapidiom::remark::parseEntryText(Text);
  if (!Loc)
    return {"", 0};
  return {sys::path::filename(Loc->File).str(), Loc->Line};
}

namespace {

/// qemu-run's tree of a profile on x86_64: linux-6.12-NAME, and for tiny,
/// which keeps its old name, linux-6.12 (NAME may carry -arm64).
std::string treeOf(StringRef Name) {
  if (Name == "tiny")
    return "linux-6.12";
  if (Name.consume_front("tiny-"))
    return ("linux-6.12-" + Name).str();
  return ("linux-6.12-" + Name).str();
}

bool isRecord(StringRef Path) {
  return Path.ends_with(".opt.yaml");
}

struct Tally {
  unsigned Removed = 0, Kept = 0;
};

} // namespace

void checkLiveness(ArrayRef<std::unique_ptr<SCLFile>> Lists,
                   ArrayRef<std::string> Dirs, Diagnostics &D,
                   raw_ostream &OS) {
  // (list file name, line) -> what the entry decided. Lists are named by
  // their file name: the records carry the path the build passed.
  std::map<std::pair<std::string, unsigned>, Tally> Count;
  RemarkStats Stats;
  unsigned Records = 0;
  for (const std::string &Dir : Dirs) {
    unsigned Before = Records;
    std::error_code EC;
    for (sys::fs::recursive_directory_iterator It(Dir, EC), End;
         It != End && !EC; It.increment(EC)) {
      if (!isRecord(It->path()))
        continue;
      Expected<std::unique_ptr<MemoryBuffer>> Buf = readFile(It->path());
      if (!Buf) {
        D.error(It->path(), 0, toString(Buf.takeError()));
        continue;
      }
      ++Records;
      std::vector<WrapRemark> Remarks;
      readWrapRemarks(It->path(), (*Buf)->getBuffer(), Remarks, D, Stats);
      for (const WrapRemark &R : Remarks) {
        if (R.Entry.empty())
          continue;
        auto Key = entryLocation(R.Entry);
        if (!Key.second) {
          D.error(R.Source, R.SourceLine,
                  "wrap-idiom remark names an entry as '" + R.Entry +
                      "' (expected `ENTRY` (FILE:LINE))");
          continue;
        }
        Tally &T = Count[Key];
        if (R.Record == "removed")
          ++T.Removed;
        else if (R.Record == "kept")
          ++T.Kept;
      }
    }
    if (EC)
      D.error(Dir, 0, "cannot read the optimization records: " + EC.message());
    else if (Records == Before)
      D.error(Dir, 0,
              "no optimization records (*.opt.yaml) here: build the kernel "
              "with the plugin first (qemu-run writes them; make boot-test)");
  }
  // The kernels read, by the name qemu-run gives their tree
  // (linux-6.12-NAME): what `# lint: kernel NAME` refers to.
  std::vector<std::string> Kernels;
  for (const std::string &Dir : Dirs)
    Kernels.push_back(sys::path::filename(
        sys::path::remove_leading_dotslash(StringRef(Dir).rtrim('/'))).str());
  unsigned Live = 0, Dead = 0, Decided = 0, Unverified = 0;
  for (const auto &F : Lists) {
    std::string Name = sys::path::filename(F->path()).str();
    for (const SCLEntry &E : F->Entries) {
      auto It = Count.find({Name, E.Line});
      Tally T = It == Count.end() ? Tally() : It->second;
      bool Sanitize = E.Category == "sanitize";
      unsigned N = Sanitize ? T.Kept : T.Removed;
      const std::string &For = E.Kernel;
      OS << F->path() << ":" << E.Line << "\t" << N << "\t" << E.Text
         << (Sanitize ? "\t(checks kept)" : "")
         << (For.empty() ? "" : "\t(for " + treeOf(For) + ")") << "\n";
      Decided += N;
      if (N) {
        ++Live;
        continue;
      }
      if (!For.empty() && !is_contained(Kernels, treeOf(For))) {
        // Needed by a kernel make check does not build (defconfig): it
        // is checked when that tree is given too.
        ++Unverified;
        continue;
      }
      ++Dead;
      D.error(F->path(), E.Line,
              "dead entry '" + E.Text + "': it " +
                  (Sanitize ? "keeps" : "removes") + " no check in the " +
                  Twine(Records) +
                  " optimization records read; delete it (or say which "
                  "kernel needs it by building that one too)");
    }
  }
  OS << "wrap-ignorelist lint: liveness: " << Records << " record file(s), "
     << Live << " live entr" << (Live == 1 ? "y" : "ies") << " deciding "
     << Decided << " check(s), " << Dead << " dead";
  if (Unverified)
    OS << ", " << Unverified << " for a kernel not read";
  OS << "\n";
}

} // namespace wil
