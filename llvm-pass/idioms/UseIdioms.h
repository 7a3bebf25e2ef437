//===- UseIdioms.h - Proofs from the uses of the wrapped value ------------===//
//
// Part of wrapidiom. The rows whose proof reads the operation and the uses
// of its value (UseIdioms.cpp): neg-const, dead-value, add-compare,
// sub-compare, ptr-compare, signed-test, modular. What other files use of
// them is declared here.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_USEIDIOMS_H
#define WRAPIDIOM_USEIDIOMS_H

#include "analysis/WrapTest.h"

#include <string>

namespace wrapidiom {

/// Every use of the result (through order-preserving casts) is a
/// comparison with the right operand in the direction wrap flips, and there
/// is at least one: the wrapped value never reaches anything else. Why
/// says what else it reaches.
bool onlyUsedByWrapTests(const WrappingOp &Op, std::string &Why);

} // namespace wrapidiom

#endif
