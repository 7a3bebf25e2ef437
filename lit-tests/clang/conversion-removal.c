// With -wrap-idiom-conversion-facts the file is built with
// -fsanitize=implicit-integer-sign-change only for the plugin (the
// kernel's Kbuild wiring): every implicit-conversion check goes, also those
// that give no fact about an unsigned operation: a signed -> signed
// narrowing (`(src < 0) xor (dst < 0)`: an int passed as an s16, a long
// stored to a signed char). The kernel has no handler for them: one left
// is an undefined symbol at link time (init/main.c do_initcall_level()).
// llvm-pass/analysis/ConversionFacts.h.
//
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow,implicit-integer-sign-change \
// RUN:   -mllvm -wrap-idiom-conversion-facts -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow,implicit-integer-sign-change \
// RUN:   -mllvm -wrap-idiom-conversion-facts -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow,implicit-integer-sign-change -fsanitize-minimal-runtime \
// RUN:   -mllvm -wrap-idiom-conversion-facts -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow,implicit-integer-sign-change -fsanitize-trap=all \
// RUN:   -mllvm -wrap-idiom-conversion-facts -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow,implicit-integer-sign-change -fsanitize-trap=all \
// RUN:   -mllvm -wrap-idiom-conversion-facts -S -emit-llvm %s -o - | FileCheck %s
//
// Without the option (a user who asked for the checks) they all stay:
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow,implicit-integer-sign-change \
// RUN:   -S -emit-llvm %s -o - | FileCheck --check-prefix=KEPT %s

// CHECK-NOT: call {{.*}}@__ubsan_handle_implicit_conversion
// CHECK-NOT: call void @llvm.ubsantrap(i8 7)
// KEPT-COUNT-4: call void @__ubsan_handle_implicit_conversion

typedef short s16;
extern int parse(s16 level, unsigned char u);

int do_level(int level, long l, unsigned int x)
{
	signed char c = l;		/* long -> signed char */
	unsigned char u = level;	/* int -> unsigned char */
	int r = x;			/* unsigned -> int */

	return parse(level, u) + c + r;	/* int -> s16 */
}
