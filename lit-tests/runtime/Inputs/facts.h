/*
 * Cases decided by facts of the source, not of the IR's shapes.
 *
 * declared-wrap (llvm-pass/analysis/DeclaredWrap.h): a field, variable or
 * parameter declared to wrap (__wraps); IDIOM cases wrap through such an
 * operand and must be silent, KEEP cases wrap with no declared operand.
 *
 * signed-meaning cases (llvm-pass/idioms/SignedMeaning.h): built with
 * -fsanitize=implicit-integer-sign-change, whose checks tell the plugin
 * which operand is a signed C value and which result is read as one.
 * RECHECK: the unsigned operation wraps, the true result (operands read by
 * their C signedness) fits the type it is read as: silent with the plugin.
 * OUT: the true result does not fit although the unsigned operation does
 * not wrap: clang's plain check is silent, and so is the re-check (the
 * plugin decides clang's reports, it adds none). KEEP:
 * out of range both ways, or a shape with no fact: reported either way.
 */
#ifndef FACTS_H
#define FACTS_H

#define FACTS_CASES(X)                                                       \
	X(meaning_add_long, RECHECK) X(meaning_sub_long, RECHECK)              \
	X(meaning_neg_arg, RECHECK) X(meaning_diff_stored, RECHECK)            \
	X(meaning_compound_long, RECHECK) X(meaning_compound_int, RECHECK)     \
	X(meaning_diff_to_int, RECHECK) X(meaning_offset_assign, RECHECK)      \
	X(out_meaning_add_below, OUT) X(keep_meaning_neg_too_big, KEEP)          \
	X(out_meaning_diff_far, OUT) X(out_meaning_compound_above, OUT)        \
	X(out_meaning_sum_read_signed, OUT)                                    \
	X(keep_meaning_unsigned, KEEP) X(keep_meaning_stored_unsigned, KEEP)   \
	X(keep_meaning_both_unsigned_diff, KEEP)                                \
	X(meaning_cast_read_signed, RECHECK) X(keep_meaning_cast_far, KEEP)     \
	X(meaning_mul_signed, RECHECK) X(out_meaning_mul_below, OUT)           \
	X(declared_field_sum, IDIOM) X(declared_end, IDIOM)                    \
	X(declared_param, IDIOM) X(keep_declared_not_operand, KEEP)            \
	X(keep_declared_stored_only, KEEP)

#define DECLARE(name, kind) int name(void);
FACTS_CASES(DECLARE)
#undef DECLARE

#endif
