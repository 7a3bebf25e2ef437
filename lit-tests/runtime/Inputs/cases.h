/*
 * Runtime cases: each function runs one wrap on inputs that really wrap.
 * IDIOM cases are intentional, handled wrap tests the plugin must silence;
 * KEEP cases are real wraps that must still be reported. RECHECK cases
 * (recheck.c) wrap as unsigned arithmetic while the signed quantity it
 * encodes is in range, or correct a circular difference that wrapped: the
 * plugin re-checks them (SignedRecheck.h, CircularDifference.cpp) and must
 * stay silent. OUT cases (recheck.c) are out of range as signed
 * quantities although the unsigned arithmetic does not wrap: clang's plain
 * check misses them (baseline.test), the re-check must report them. The
 * inputs come through volatile globals so no compiler can fold them.
 */
#ifndef CASES_H
#define CASES_H

#include <stddef.h>
#include <stdint.h>

extern volatile size_t big;   /* SIZE_MAX - 1 */
extern volatile size_t two;   /* 2 */
extern volatile size_t one;   /* 1 */
extern volatile size_t zero;  /* 0 */
extern volatile int int_max;  /* INT_MAX */
extern volatile long long ll_max; /* LLONG_MAX */
extern volatile unsigned u32_max; /* UINT32_MAX */
extern char *volatile top_ptr; /* a pointer near the top of the address space */

void sink(size_t);

#define CASES(X)                                                               \
	X(add_lt, IDIOM) X(add_le, IDIOM) X(add_gt_reversed, IDIOM)            \
	X(add_ge_reversed, IDIOM) X(add_other_addend, IDIOM)                   \
	X(add_gt, IDIOM) X(add_macro_unlikely, IDIOM) X(add_widened, IDIOM)    \
	X(add_two_tests, IDIOM) X(add_fields, IDIOM)                           \
	X(add_local_only_tested, IDIOM) X(sub_gt, IDIOM)                       \
	X(sub_lt_reversed, IDIOM) X(signed_add, IDIOM) X(signed_loff, IDIOM)   \
	X(signed_sub, IDIOM) X(signed_add_negative, IDIOM) X(ptr_char, IDIOM) X(ptr_struct, IDIOM)           \
	X(guarded_use, IDIOM) X(guarded_unlikely, IDIOM) X(pretested, IDIOM)   \
	X(bounds_and_wrap, IDIOM) X(mul_div, IDIOM) X(mul_div_other, IDIOM)    \
	X(loop_while, IDIOM) X(loop_for, IDIOM) X(loop_do, IDIOM)              \
	X(loop_gt, IDIOM) X(loop_each_element, IDIOM)                          \
	X(modular_bitmap, IDIOM) X(modular_trunc, IDIOM)                       \
	X(modular_urem, IDIOM) X(carry_select, IDIOM) X(neg_const, IDIOM)      \
	X(neg_const_mask, IDIOM) X(serial_compare, IDIOM) X(add_back, IDIOM)                      \
	X(keep_return, KEEP) X(keep_bounds_only, KEEP)                         \
	X(keep_other_value, KEEP) X(keep_two_sums, KEEP)                       \
	X(keep_array_bytes, KEEP) X(keep_payload, KEEP) X(keep_negate, KEEP)   \
	X(keep_used_before_test, KEEP) X(keep_returned_on_wrap, KEEP)          \
	X(keep_page_align, KEEP) X(keep_signed_return, KEEP)                   \
	X(keep_ptr_used, KEEP) X(keep_while_escapes, KEEP)                     \
	X(keep_pre_decrement, KEEP) X(keep_bounds_then_effect, KEEP)           \
	X(keep_mul_untested, KEEP) X(keep_neg_var, KEEP)                       \
	X(keep_high_bits, KEEP) X(keep_guarded_signed_inexact, KEEP)              \
	X(keep_serial_used, KEEP) X(keep_sub_used_added_back, KEEP)          \
	X(keep_signed_loff_any, KEEP) X(keep_signed_sub_any, KEEP)             \
	X(keep_ptr_signed_offset, KEEP) X(keep_carry_wide, KEEP)                \
	X(keep_carry_short, KEEP) X(keep_guard_falls_through, KEEP)          \
	X(keep_wrap_side_decides, KEEP) X(keep_mul_div_wrong_factor, KEEP)   \
	X(mem_unrelated_field, IDIOM) X(keep_mem_may_alias, KEEP)            \
	X(helper_pure, IDIOM) X(helper_reads, IDIOM)                          \
	X(helper_between_loads, IDIOM) X(keep_helper_writes, KEEP)            \
	X(keep_helper_writes_between, KEEP)                                    \
	X(caller_handled, IDIOM) X(keep_caller_unchecked, KEEP)                \
	X(caller_handled_field, IDIOM) X(keep_caller_field_moved, KEEP)        \
	X(end_inclusive, IDIOM) X(keep_end_len_unknown, KEEP)                 \
	X(end_around_carry, IDIOM) X(keep_carry_wrong_test, KEEP)             \
	X(align_zero, IDIOM) X(keep_align_short_mask, KEEP)                   \
	X(peer_deref, IDIOM) X(peer_nested_struct, IDIOM)                      \
	X(peer_constants, IDIOM) X(peer_sub_lt, IDIOM) X(peer_doubled, IDIOM)  \
	X(peer_call_pure, IDIOM) X(keep_peer_call_writes, KEEP)                \
	X(keep_peer_three_terms, KEEP) X(keep_peer_equal, KEEP)                \
	X(keep_peer_two_calls, KEEP) X(keep_align_one_over, KEEP)              \
	X(dead_unused, IDIOM) X(dead_reset, IDIOM)                            \
	X(keep_dead_read_between, KEEP) X(serial_sum, IDIOM)                   \
	X(dead_freed, IDIOM) X(keep_dead_freed_read, KEEP)                     \
	X(keep_serial_sum_used, KEEP) X(serial_sum_helper, IDIOM)             \
	X(keep_serial_helper_used, KEEP) X(signed_test, IDIOM)                \
	X(keep_signed_test_any, KEEP) X(serial_ulong_cmp, IDIOM)              \
	X(serial_uint_cmp, IDIOM) X(keep_serial_quarter, KEEP)               \
	X(serial_seq_started, IDIOM) X(serial_seq_new_gp, IDIOM)             \
	X(serial_seq_done_exact, IDIOM) X(keep_serial_shifted, KEEP)         \
	X(keep_serial_masked_used, KEEP) X(neg_const_sub, IDIOM)             \
	X(keep_neg_sub_local, KEEP) X(keep_sub_const_nonzero, KEEP)  \
	X(addr_end, IDIOM)                                                     \
	X(addr_end_pgd, IDIOM) X(keep_addr_end_used, KEEP)                    \
	X(keep_addr_end_picks_boundary, KEEP) X(keep_addr_end_half_mask, KEEP) \
	X(keep_addr_end_double, KEEP) X(keep_addr_end_le, KEEP)               \
	X(keep_addr_end_signed, KEEP) X(keep_align_bound, KEEP)              \
	X(keep_bound_lower, KEEP) X(keep_sign_wrap_down, KEEP)                \
	X(keep_sign_no_use, KEEP) X(keep_sign_select_no_use, KEEP)            \
	X(rotate_fold, IDIOM) X(keep_rotate_fold_whole, KEEP)                 \
	X(end_around_carry_branch, IDIOM) X(keep_carry_branch_wrong_side, KEEP) \
	X(sign_guard, IDIOM) X(keep_sign_guard_over_half, KEEP)              \
	X(recheck_offset_add, RECHECK) X(recheck_offset_sub, RECHECK)         \
	X(recheck_offset_assign, RECHECK) X(recheck_offset_local, RECHECK)    \
	X(recheck_difference, RECHECK)                                         \
	X(out_offset_below, OUT) X(keep_recheck_offset_above, KEEP)           \
	X(out_offset_sub_above, OUT) X(out_difference_far, OUT)               \
	X(keep_recheck_difference_far_below, KEEP)                             \
	X(keep_recheck_difference_used, KEEP) X(keep_recheck_same_width, KEEP) \
	X(recheck_offset_two_sext, RECHECK) X(out_offset_two_sext, OUT)       \
	X(recheck_offset_ashr, RECHECK)                                        \
	X(recheck_final_empty_resource, RECHECK) X(recheck_final_round_up, RECHECK) \
	X(recheck_final_gap_top, RECHECK) X(recheck_final_node_max, RECHECK)   \
	X(keep_final_empty_end, KEEP) X(keep_final_round_down, KEEP)           \
	X(aligned_step_top, IDIOM) X(keep_unaligned_step, KEEP)                 \
	X(keep_recheck_two_signed, KEEP)                                      \
	X(recheck_circular, RECHECK) X(recheck_circular_long, RECHECK)         \
	X(recheck_circular_ternary, RECHECK) X(keep_circular_overrun, KEEP)    \
	X(keep_circular_used, KEEP) X(sign_test_file_range, IDIOM)           \
	X(sign_test_both, IDIOM) X(keep_sign_test_one_known, KEEP)             \
	X(keep_sign_test_wrong_side, KEEP) X(local_struct_range, IDIOM)        \
	X(keep_local_struct_escaped, KEEP) X(keep_out_param_range, KEEP)     \
	X(align_bound_between, IDIOM) X(keep_align_effect_between, KEEP)      \
	X(file_range_both, IDIOM) X(file_range_fallocate, IDIOM)               \
	X(fadvise_range, IDIOM) X(keep_file_range_used_first, KEEP)            \
	X(keep_file_range_len_one_path, KEEP)                                 \
	X(range_and_wrap, IDIOM) X(keep_range_or_wrap, KEEP)                   \
	X(keep_range_and_then_use, KEEP)                                       \
	X(keep_cannot_bound_elsewhere, KEEP) X(keep_cannot_loop_le, KEEP)      \
	X(keep_cannot_reread, KEEP) X(bound_to_leave, IDIOM)                   \
	X(keep_bound_used_leaving, KEEP) X(keep_bound_decides, KEEP)           \
	X(keep_bound_lets_through, KEEP)

#define DECLARE(name, kind) int name(void);
CASES(DECLARE)
#undef DECLARE

#endif
