/*
 * fuzz/wrapmath.h - csmith arithmetic that really wraps (csmith-diff.sh).
 *
 * Force-included (clang -include wrapmath.h) into a csmith program built
 * with -fwrapv.  csmith routes + - * and unary minus through
 * safe_<op>_func_<type>(); its own versions avoid every overflow with
 * pre-checks, so the wrap sanitizers have little to see.  The function-like
 * macros below redirect the program's calls (not csmith's definitions:
 * safe_math.h defines them through `(safe_##x)`, where the name is followed
 * by `)`, so it is not expanded) to versions that compute first and test the
 * result afterwards -- the wrap tests wrap-idiom is meant to recognise.
 *
 *   default        same values as csmith's safe_math.h (on signed overflow
 *                  the first operand is returned, like csmith does), but
 *                  found by a post-wrap test; unsigned wraps are counted by
 *                  post-wrap tests too and printed at exit
 *                  ("wrap events = N"), so the tests stay live at -O2.
 *                  Some forms are idioms wrap-idiom removes the check of
 *                  (`a + b < a` as the condition itself), some are forms it
 *                  keeps (the wrapped value reaches a phi or a return), so
 *                  both its removal and its refusal run on real wraps.
 *   -DWRAPMATH_RAW  the plain operation: signed arithmetic wraps (defined
 *                  under -fwrapv) and the program computes with the wrapped
 *                  value
 *
 * Division, modulo and shifts keep csmith's safe versions: they stay free of
 * undefined behaviour, so every variant of a program must print the same.
 */
#ifndef WRAPMATH_H
#define WRAPMATH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long wrapmath_events;

static void wrapmath_report(void)
{
	printf("wrap events = %lu\n", wrapmath_events);
}

__attribute__((constructor)) static void wrapmath_init(void)
{
	atexit(wrapmath_report);
}

#ifdef WRAPMATH_RAW

#define WM_SIGNED(T, MIN)                                                     \
	static inline T wm_add_##T(T a, T b) { return a + b; }                \
	static inline T wm_sub_##T(T a, T b) { return a - b; }                \
	static inline T wm_mul_##T(T a, T b) { return a * b; }                \
	static inline T wm_neg_##T(T a) { return -a; }

WM_SIGNED(int32_t, INT32_MIN)
WM_SIGNED(int64_t, INT64_MIN)

#else /* post-wrap tests, csmith's values */

/* int32_t: the test on the operation itself, `b > 0 && a + b < a` */
static inline int32_t wm_add_int32_t(int32_t a, int32_t b)
{
	if (b > 0 && a + b < a)
		return a;
	if (b < 0 && a + b > a)
		return a;
	return a + b;
}

static inline int32_t wm_sub_int32_t(int32_t a, int32_t b)
{
	if (b > 0 && a - b > a)
		return a;
	if (b < 0 && a - b < a)
		return a;
	return a - b;
}

/* int64_t: the sign-compare form `(b < 0) != (s < a)` */
static inline int64_t wm_add_int64_t(int64_t a, int64_t b)
{
	int64_t s = a + b;
	if ((b < 0) != (s < a))
		return a;
	return s;
}

static inline int64_t wm_sub_int64_t(int64_t a, int64_t b)
{
	int64_t d = a - b;
	if ((b < 0) != (d > a))
		return a;
	return d;
}

/* a * b / a != b; a == -1 is tested first so the division cannot trap */
#define WM_MUL(T, MIN)                                                        \
	static inline T wm_mul_##T(T a, T b)                                  \
	{                                                                     \
		T p = a * b;                                                  \
		if (a == -1 ? b == MIN : (a != 0 && p / a != b))              \
			return a;                                             \
		return p;                                                     \
	}                                                                     \
	static inline T wm_neg_##T(T a)                                       \
	{                                                                     \
		T n = -a;                                                     \
		if (a < 0 && n < 0)                                           \
			return a;                                             \
		return n;                                                     \
	}

WM_MUL(int32_t, INT32_MIN)
WM_MUL(int64_t, INT64_MIN)

#endif /* WRAPMATH_RAW */

/* Unsigned: csmith's values (the wrapped result), wraps counted. */
static inline uint32_t wm_add_uint32_t(uint32_t a, uint32_t b)
{
	if (a + b < a)
		wrapmath_events++;
	return a + b;
}

static inline uint32_t wm_sub_uint32_t(uint32_t a, uint32_t b)
{
	if (a - b > a)
		wrapmath_events++;
	return a - b;
}

/* the wrapped value only on the no-wrap path; the builtin has no check */
static inline uint64_t wm_add_uint64_t(uint64_t a, uint64_t b)
{
	uint64_t s = a + b;
	if (s < a) {
		wrapmath_events++;
		__builtin_add_overflow(a, b, &s);
	}
	return s;
}

static inline uint64_t wm_sub_uint64_t(uint64_t a, uint64_t b)
{
	uint64_t d = a - b;
	if (d > a)
		wrapmath_events++;
	return d;
}

static inline uint32_t wm_mul_uint32_t(uint32_t a, uint32_t b)
{
	uint32_t p = a * b;
	if (a && p / a != b)
		wrapmath_events++;
	return p;
}

static inline uint64_t wm_mul_uint64_t(uint64_t a, uint64_t b)
{
	uint64_t p = a * b;
	if (b != 0 && p / b != a)
		wrapmath_events++;
	return p;
}

#define safe_add_func_int32_t_s_s(a, b) wm_add_int32_t(a, b)
#define safe_sub_func_int32_t_s_s(a, b) wm_sub_int32_t(a, b)
#define safe_mul_func_int32_t_s_s(a, b) wm_mul_int32_t(a, b)
#define safe_unary_minus_func_int32_t_s(a) wm_neg_int32_t(a)
#define safe_add_func_int64_t_s_s(a, b) wm_add_int64_t(a, b)
#define safe_sub_func_int64_t_s_s(a, b) wm_sub_int64_t(a, b)
#define safe_mul_func_int64_t_s_s(a, b) wm_mul_int64_t(a, b)
#define safe_unary_minus_func_int64_t_s(a) wm_neg_int64_t(a)
#define safe_add_func_uint32_t_u_u(a, b) wm_add_uint32_t(a, b)
#define safe_sub_func_uint32_t_u_u(a, b) wm_sub_uint32_t(a, b)
#define safe_mul_func_uint32_t_u_u(a, b) wm_mul_uint32_t(a, b)
#define safe_add_func_uint64_t_u_u(a, b) wm_add_uint64_t(a, b)
#define safe_sub_func_uint64_t_u_u(a, b) wm_sub_uint64_t(a, b)
#define safe_mul_func_uint64_t_u_u(a, b) wm_mul_uint64_t(a, b)

#endif /* WRAPMATH_H */
