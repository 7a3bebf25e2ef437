//===- ConsoleLog.cpp - UBSan wrap reports in kernel console logs ---------===//
//
// Part of wrapidiom. See ConsoleLog.h.
//
//===----------------------------------------------------------------------===//
#include "ConsoleLog.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <optional>

using namespace llvm;

namespace wil {

namespace {

bool allOf(StringRef S, function_ref<bool(char)> P) {
  return !S.empty() && llvm::all_of(S, P);
}

bool isTimestamp(StringRef Inner) {
  auto [Sec, Frac] = Inner.split('.');
  return allOf(Sec, isDigit) && allOf(Frac, isDigit);
}

bool isCallerId(StringRef Inner) {
  return Inner.size() >= 2 && (Inner[0] == 'T' || Inner[0] == 'C') &&
         allOf(Inner.drop_front(), isDigit);
}

/// "foo+0x12/0x34 [mod]" or "? foo+0x12/0x34": the symbol, or "".
StringRef frameSymbol(StringRef Line, bool &Reliable) {
  StringRef T = Line.trim();
  Reliable = !T.consume_front("? ");
  size_t Plus = T.find("+0x");
  if (Plus == StringRef::npos || Plus == 0)
    return {};
  StringRef Sym = T.take_front(Plus);
  if (!all_of(Sym, [](char C) {
        return isAlnum(C) || C == '_' || C == '.' || C == '$';
      }))
    return {};
  StringRef Off = T.drop_front(Plus + 3);
  StringRef Hex = Off.take_while(isHexDigit);
  if (Hex.empty() || !Off.drop_front(Hex.size()).starts_with("/0x"))
    return {};
  return Sym;
}

/// Frames of the report machinery, above the function that overflowed.
bool isMachineryFrame(StringRef Sym) {
  return Sym.starts_with("dump_stack") || Sym.starts_with("__dump_stack") ||
         Sym.starts_with("show_stack") || Sym.starts_with("dump_backtrace") ||
         Sym.starts_with("ubsan_") || Sym.starts_with("__ubsan_") ||
         Sym == "handle_overflow" || Sym == "handle_null_ptr_deref" ||
         Sym == "handle_misaligned_access" || Sym == "handle_object_size_mismatch";
}

/// "foo.constprop.0" / "foo.isra.0" / "foo.cold" -> "foo".
StringRef sourceName(StringRef Sym) { return Sym.split('.').first; }

struct Pending {
  UbsanReport R;
  bool Active = false;
  bool InTrace = false;
  bool HaveDetail = false;
  bool NeedsDetail = true;
  std::string Fallback; // first unreliable ("? ") frame
};

/// Split "kind in file:line:col".
bool parseWarningLine(StringRef T, UbsanReport &R) {
  size_t In = T.find(" in ");
  if (In == StringRef::npos)
    return false;
  StringRef Kind = T.take_front(In);
  StringRef Loc = T.drop_front(In + 4).trim();
  if (!allOf(Kind, [](char C) { return isLower(C) || isDigit(C) || C == '-'; }))
    return false;
  auto [Rest, Col] = Loc.rsplit(':');
  auto [File, Line] = Rest.rsplit(':');
  if (File.empty() || !allOf(Line, isDigit) || !allOf(Col, isDigit) ||
      File.contains(' '))
    return false;
  R.Kind = Kind.str();
  R.File = File.str();
  Line.getAsInteger(10, R.Line);
  Col.getAsInteger(10, R.Column);
  return true;
}

/// The detail line of an overflow report; fills Op/Values/Type.
bool parseDetail(StringRef T, UbsanReport &R) {
  const StringRef Marker = " cannot be represented in type ";
  size_t M = T.find(Marker);
  if (M != StringRef::npos) {
    StringRef Left = T.take_front(M);
    StringRef Type = T.drop_front(M + Marker.size()).trim();
    Type.consume_back(":");
    if (Left.consume_front("negation of ")) {
      R.Op = "negation";
      R.Values = Left.str();
    } else if (Left.consume_front("division of ")) {
      if (!Left.ends_with(" by -1"))
        return false;
      R.Op = "division";
      R.Values = (Left.drop_back(6) + " / -1").str();
    } else {
      auto [A, Rest] = Left.split(' ');
      if (Rest.size() < 3 || Rest[1] != ' ' || !StringRef("+-*").contains(Rest[0]))
        return false;
      R.Op = std::string(1, Rest[0]);
      R.Values = Left.str();
      (void)A;
    }
    R.Type = Type.str();
    R.Detail = T.str();
    return true;
  }
  // Pointer overflow: the kernel's wording (" wrapped around to ") or
  // compiler-rt's (" overflowed to "), and the NULL pointer cases.
  if (T.contains(" wrapped around to ") || T.contains(" overflowed to ") ||
      (T.starts_with("applying ") && T.contains(" offset ") &&
       T.contains("pointer"))) {
    R.Op = "pointer";
    R.Values = T.str();
    R.Detail = T.str();
    return true;
  }
  return false;
}

// CONFIG_UBSAN_TRAP: message, op, kind, section. The integer traps do not
// say whether the type was signed.
const char *const IntegerGroup =
    "{signed-integer-overflow,unsigned-integer-overflow}";
const StringRef TrapKinds[][4] = {
    {"integer addition overflow", "+", "trap:add-overflow", IntegerGroup},
    {"integer subtraction overflow", "-", "trap:sub-overflow", IntegerGroup},
    {"integer multiplication overflow", "*", "trap:mul-overflow",
     IntegerGroup},
    {"integer negation overflow", "negation", "trap:negation-overflow",
     IntegerGroup},
    {"pointer overflow", "pointer", "trap:pointer-overflow",
     "pointer-overflow"},
};

const StringRef OtherTrapKinds[] = {
    "array index out of bounds", "shift out of bounds",
    "divide/remainder overflow", "unreachable code",
    "loading invalid value",     "alignment assumption",
    "type mismatch",             "unrecognized failure code"};

} // namespace

StringRef consoleMessage(StringRef L) {
  if (L.starts_with("<")) {
    size_t C = L.find('>');
    if (C != StringRef::npos && C > 1 && C <= 4 && allOf(L.slice(1, C), isDigit))
      L = L.drop_front(C + 1);
  }
  for (int I = 0; I < 2 && L.starts_with("["); ++I) {
    size_t C = L.find(']');
    if (C == StringRef::npos)
      break;
    StringRef Inner = L.slice(1, C).trim();
    if (!(I == 0 ? isTimestamp(Inner) || isCallerId(Inner) : isCallerId(Inner)))
      break;
    L = L.drop_front(C + 1);
  }
  L.consume_front(" ");
  return L;
}

std::vector<std::string> typeNames(StringRef Type) {
  std::vector<std::string> Names;
  while (true) {
    size_t Open = Type.find('\'');
    if (Open == StringRef::npos)
      break;
    size_t Close = Type.find('\'', Open + 1);
    if (Close == StringRef::npos)
      break;
    Names.push_back(Type.slice(Open + 1, Close).str());
    Type = Type.drop_front(Close + 1);
  }
  return Names;
}

void parseConsoleLog(StringRef Path, StringRef Text,
                     std::vector<UbsanReport> &Out, Diagnostics &Diags,
                     LogStats &Stats) {
  std::vector<StringRef> Lines = splitLines(Text);
  Pending P;

  auto Finish = [&](bool Complete) {
    if (!P.Active)
      return;
    P.Active = false;
    UbsanReport &R = P.R;
    R.Truncated = !Complete;
    if (R.Function.empty() && !P.Fallback.empty())
      R.Function = P.Fallback;
    // division-overflow also reports division by zero; only INT_MIN / -1
    // is a signed-integer-overflow check.
    if (R.Kind == "division-overflow" && R.Op != "division") {
      ++Stats.OtherReports;
      return;
    }
    if (R.Kind == "negation-overflow")
      R.Sanitizer = StringRef(R.Values).starts_with("-")
                        ? "signed-integer-overflow"
                        : "unsigned-integer-overflow";
    std::string Where = R.File.empty()
                            ? "report"
                            : "report for " + R.File + ":" +
                                  std::to_string(R.Line) + ":" +
                                  std::to_string(R.Column);
    std::vector<std::string> Missing;
    if (P.NeedsDetail && !P.HaveDetail)
      Missing.push_back("no detail line");
    if (R.Function.empty() && R.Address.empty())
      Missing.push_back("no call trace frame outside UBSan");
    if (!Missing.empty())
      Diags.warning(Path, R.LogLine,
                    Where + (R.Truncated ? " is cut short: " : " is incomplete: ") +
                        join(Missing, ", "));
    Out.push_back(std::move(R));
  };

  for (unsigned I = 0; I < Lines.size(); ++I) {
    unsigned LineNo = I + 1;
    StringRef Msg = consoleMessage(Lines[I]);
    StringRef T = Msg.trim();

    if (Msg.starts_with("UBSAN: ")) {
      Finish(/*Complete=*/false);
      StringRef Rest = Msg.drop_front(7).trim();
      UbsanReport R;
      R.Log = Path.str();
      R.LogLine = LineNo;
      if (parseWarningLine(Rest, R)) {
        StringRef K = R.Kind;
        if (K == "signed-integer-overflow" || K == "unsigned-integer-overflow" ||
            K == "pointer-overflow") {
          R.Sanitizer = R.Kind;
        } else if (K == "negation-overflow" || K == "division-overflow") {
          R.Sanitizer = "signed-integer-overflow";
        } else {
          ++Stats.OtherReports; // shift-out-of-bounds and the like
          continue;
        }
        P = Pending();
        P.R = std::move(R);
        P.Active = true;
        continue;
      }
      // CONFIG_UBSAN_TRAP: "UBSAN: integer addition overflow at sym+0x../0x.."
      auto [What, At] = Rest.split(" at ");
      std::optional<StringRef> TrapOp, TrapKind, TrapSection;
      for (const auto &TK : TrapKinds)
        if (What == TK[0]) {
          TrapOp = TK[1];
          TrapKind = TK[2];
          TrapSection = TK[3];
        }
      if (TrapOp) {
        bool Reliable;
        StringRef Sym = frameSymbol(At, Reliable);
        StringRef Addr = At.trim().split(' ').first;
        bool IsAddr = Addr.size() > 2 && Addr.starts_with("0x") &&
                      allOf(Addr.drop_front(2), isHexDigit);
        if (Sym.empty() && !IsAddr) {
          Diags.error(Path, LineNo,
                      "cannot parse UBSAN trap report '" + T +
                          "': expected 'at <function>+0x<offset>/0x<size>'");
          continue;
        }
        R.Kind = TrapKind->str();
        R.Sanitizer = TrapSection->str();
        R.Op = TrapOp->str();
        R.Detail = (What + " at " + At.trim()).str();
        if (!Sym.empty()) {
          R.Function = sourceName(Sym).str();
        } else {
          // %pS without kallsyms prints the bare address.
          R.Address = Addr.str();
          Diags.warning(Path, LineNo,
                        "trap report at " + Addr +
                            " has no symbol (kernel without kallsyms?): "
                            "no ignorelist entry can be proposed");
        }
        P = Pending();
        P.R = std::move(R);
        P.Active = true;
        P.NeedsDetail = false;
        continue;
      }
      if (!At.empty() && is_contained(OtherTrapKinds, What)) {
        ++Stats.OtherReports;
        continue;
      }
      Diags.error(Path, LineNo,
                  "cannot parse UBSAN report '" + T +
                      "': expected 'UBSAN: <kind> in <file>:<line>:<column>'");
      continue;
    }
    if (!P.Active)
      continue;
    if (T.starts_with("---[ end trace")) {
      Finish(/*Complete=*/true);
      continue;
    }
    if (T == "------------[ cut here ]------------") {
      Finish(/*Complete=*/false);
      continue;
    }
    if (T == "Call Trace:" || T == "Call trace:") {
      P.InTrace = true;
      continue;
    }
    if (!P.InTrace) {
      if (!P.HaveDetail && P.NeedsDetail && parseDetail(T, P.R))
        P.HaveDetail = true;
      continue;
    }
    if (!P.R.Function.empty())
      continue;
    bool Reliable;
    StringRef Sym = frameSymbol(T, Reliable);
    if (Sym.empty() || isMachineryFrame(Sym))
      continue;
    if (Reliable)
      P.R.Function = sourceName(Sym).str();
    else if (P.Fallback.empty())
      P.Fallback = sourceName(Sym).str();
  }
  Finish(/*Complete=*/false);
}

} // namespace wil
