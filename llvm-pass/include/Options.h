//===- Options.h - The -wrap-idiom-* command-line options -----------------===//
//
// Part of wrapidiom. With clang 22 these are given as
//   clang -fpass-plugin=WrapIdiom.so -mllvm -wrap-idiom-mode=report ...
// (older clang also needs -fplugin=WrapIdiom.so so that the options exist
// when -mllvm is parsed; see README.md).
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_OPTIONS_H
#define WRAPIDIOM_OPTIONS_H

#include "IdiomMatcher.h"

namespace wrapidiom {

enum class Mode {
  Remove, // fold recognised checks away (default)
  Report, // recognise and tag, but keep every check
};

Mode mode();
bool idiomEnabled(Idiom I);
/// -wrap-idiom-signed-wrap: signed arithmetic wraps in this build (-fwrapv,
/// -fno-strict-overflow). Without it a signed wrap test relies on undefined
/// behaviour, which the sanitizer exists to report, so its check stays.
bool signedWrapDefined();
/// -wrap-idiom-pointer-wrap: accept `p + n < p`. Pointer wrap is undefined
/// in C and an inbounds GEP lets the optimiser fold the test away, so the
/// pass also drops the GEP's no-wrap flags to keep the test meaningful.
bool pointerWrapDefined();
/// -wrap-idiom-wrapv-pointer: the file is built with -fno-wrapv-pointer only
/// so that clang emits pointer-overflow checks; WrapvPointerPass drops every
/// GEP's no-wrap flags at pipeline start (WrapvPointer.h). Implies
/// pointerWrapDefined().
bool wrapvPointer();
/// -wrap-idiom-null-offset=allow: PointerNullPass lets a null base take an
/// offset in pointer-overflow checks (PointerNull.h). Default: check.
bool nullOffsetAllowed();
/// -wrap-idiom-budget (hidden, default 4096): the work one check may take,
/// counted as instructions followed on the wrapped value's paths and,
/// separately, as other computations of the value compared with it. A
/// check that needs more is kept, with a remark saying so: a budget never
/// removes a check, it only bounds the time a huge function takes.
unsigned budget();

} // namespace wrapidiom

#endif
