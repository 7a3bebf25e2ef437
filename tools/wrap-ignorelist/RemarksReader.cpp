//===- RemarksReader.cpp - wrap-idiom remarks from -fsave-optimization-record//
//
// Part of wrapidiom. See RemarksReader.h.
//
//===----------------------------------------------------------------------===//
#include "RemarksReader.h"

#include "RemarkSchema.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Remarks/Remark.h"
#include "llvm/Remarks/RemarkFormat.h"
#include "llvm/Remarks/RemarkParser.h"

using namespace llvm;
namespace remark = wrapidiom::remark;

namespace wil {

namespace {

/// "YAML:3:5: error: msg\n<source>\n  ^" -> line 3, "msg".
std::pair<unsigned, std::string> splitYAMLError(StringRef Msg) {
  StringRef First = Msg.split('\n').first.trim();
  StringRef Rest = First;
  if (Rest.consume_front("YAML:")) {
    auto [LineStr, AfterLine] = Rest.split(':');
    unsigned Line = 0;
    if (!LineStr.getAsInteger(10, Line)) {
      StringRef Tail = AfterLine.split(':').second.trim(); // after column
      Tail.consume_front("error:");
      return {Line, Tail.trim().str()};
    }
  }
  return {0, First.str()};
}

/// The 1-based line of every YAML document start ("--- "), in order: the
/// YAML remark parser yields one remark per document.
std::vector<unsigned> documentLines(StringRef Text) {
  std::vector<unsigned> Starts;
  std::vector<StringRef> Lines = splitLines(Text);
  for (unsigned I = 0; I < Lines.size(); ++I)
    if (Lines[I].starts_with("---"))
      Starts.push_back(I + 1);
  return Starts;
}

/// The YAML remark parser strips a single-quoted scalar's quotes but keeps
/// its escaped quotes doubled ('by ''call''' -> by ''call''): undouble.
std::string unquote(StringRef Val) {
  std::string Out;
  for (size_t I = 0; I < Val.size(); ++I) {
    Out += Val[I];
    if (Val[I] == '\'' && I + 1 < Val.size() && Val[I + 1] == '\'')
      ++I;
  }
  return Out;
}

} // namespace

void readWrapRemarks(StringRef Path, StringRef Text,
                     std::vector<WrapRemark> &Out, Diagnostics &Diags,
                     RemarkStats &Stats) {
  // A unit without remarks may leave an empty record file.
  if (Text.trim().empty())
    return;
  Expected<std::unique_ptr<remarks::RemarkParser>> Parser =
      remarks::createRemarkParser(remarks::Format::YAML, Text);
  if (!Parser) {
    auto [Line, Msg] = splitYAMLError(toString(Parser.takeError()));
    Diags.error(Path, Line, "bad optimization record: " + Msg);
    return;
  }
  std::vector<unsigned> Docs = documentLines(Text);
  std::vector<WrapRemark> Mine;
  unsigned Index = 0;
  while (true) {
    Expected<std::unique_ptr<remarks::Remark>> R = (*Parser)->next();
    if (!R) {
      Error E = R.takeError();
      if (E.isA<remarks::EndOfFileError>()) {
        consumeError(std::move(E));
        break;
      }
      auto [Line, Msg] = splitYAMLError(toString(std::move(E)));
      if (!Line && Index < Docs.size())
        Line = Docs[Index];
      Diags.error(Path, Line, "bad optimization record: " + Msg);
      return; // nothing from a file that does not parse
    }
    unsigned DocLine = Index < Docs.size() ? Docs[Index] : 0;
    ++Index;
    ++Stats.Total;
    const remarks::Remark &Rem = **R;
    if (Rem.PassName != remark::PassName)
      continue;
    ++Stats.Wrap;
    WrapRemark W;
    if (Rem.RemarkName == remark::name::CheckRemoved)
      W.Record = "removed";
    else if (Rem.RemarkName == remark::name::CheckKept)
      W.Record = "kept";
    else if (Rem.RemarkName == remark::name::CheckRecognised)
      W.Record = "recognised";
    else
      continue; // statistics and future remarks
    W.Source = Path.str();
    W.SourceLine = DocLine;
    W.Function = Rem.FunctionName.str();
    std::string Site;
    for (const remarks::Argument &A : Rem.Args) {
      std::string Val = unquote(A.Val);
      if (A.Key == remark::key::Sanitizer)
        W.Sanitizer = Val;
      else if (A.Key == remark::key::Op)
        W.Op = Val;
      else if (A.Key == remark::key::Idiom)
        W.Idiom = Val;
      else if (A.Key == remark::key::Reason)
        W.Reason = Val;
      else if (A.Key == remark::key::Site)
        Site = Val;
      else if (A.Key == remark::key::Entry)
        W.Entry = Val;
    }
    // Site, when there, is where the runtime report of this check points
    // (the handler data); it wins over the debug location, which inside a
    // macro names the operator rather than the expansion.
    if (!Site.empty()) {
      StringRef S(Site);
      auto [Rest, Col] = S.rsplit(':');
      auto [File, Line] = Rest.rsplit(':');
      if (File.empty() || Line.getAsInteger(10, W.Line) ||
          Col.getAsInteger(10, W.Column)) {
        Diags.error(Path, DocLine,
                    "wrap-idiom remark " + Rem.RemarkName +
                        " has a malformed Site '" + Site +
                        "' (expected file:line:column)");
        return;
      }
      W.File = File.str();
    } else if (Rem.Loc) {
      W.File = Rem.Loc->SourceFilePath.str();
      W.Line = Rem.Loc->SourceLine;
      W.Column = Rem.Loc->SourceColumn;
    }
    StringRef KeptBy = W.Reason;
    if (W.Record == "kept" && KeptBy.consume_front(remark::tag::KeptBy) &&
        remark::isEntryText(KeptBy))
      W.Entry = KeptBy.str();
    std::vector<std::string> Missing;
    if (W.Sanitizer.empty())
      Missing.push_back(remark::key::Sanitizer);
    if (W.Op.empty())
      Missing.push_back(remark::key::Op);
    if (W.File.empty())
      Missing.push_back(std::string("DebugLoc or ") + remark::key::Site);
    if (!Missing.empty()) {
      Diags.error(Path, DocLine,
                  "wrap-idiom remark " + Rem.RemarkName + " in function '" +
                      W.Function + "' lacks " + join(Missing, ", "));
      return;
    }
    Mine.push_back(std::move(W));
  }
  for (WrapRemark &W : Mine)
    Out.push_back(std::move(W));
}

} // namespace wil
