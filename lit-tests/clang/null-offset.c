// -wrap-idiom-null-offset: clang's pointer-overflow check also reports a
// non-zero offset applied to a null pointer, which is no wrap (and which
// code built with -fno-delete-null-pointer-checks does on purpose). With
// =allow, a null base may take an offset; a wrap, also from a null base
// (NULL - n), and a non-null base producing null stay reported. The
// default, check, keeps clang's check. Runs each case on inputs that do it.
//
// RUN: %clang_plugin -O2 -fsanitize=pointer-overflow -fsanitize-recover=pointer-overflow %s -o %t.check
// RUN: %clang_plugin -O2 -fsanitize=pointer-overflow -fsanitize-recover=pointer-overflow \
// RUN:   -mllvm -wrap-idiom-null-offset=check %s -o %t.check2
// RUN: %clang_plugin -O2 -fsanitize=pointer-overflow -fsanitize-recover=pointer-overflow \
// RUN:   -mllvm -wrap-idiom-null-offset=allow %s -o %t.allow
// RUN: %clang_plugin -O0 -fsanitize=pointer-overflow -fsanitize-recover=pointer-overflow \
// RUN:   -mllvm -wrap-idiom-null-offset=allow %s -o %t.allow0
// RUN: %t.check 2 2>&1 | FileCheck --check-prefixes=ALL,CHECK %s
// RUN: %t.check2 2 2>&1 | FileCheck --check-prefixes=ALL,CHECK %s
// RUN: %t.allow 2 2>&1 | FileCheck --check-prefixes=ALL,ALLOW %s
// RUN: %t.allow0 2 2>&1 | FileCheck --check-prefixes=ALL,ALLOW %s
// RUN: %clang_plugin -O2 -fsanitize=pointer-overflow -mllvm -wrap-idiom-null-offset=allow \
// RUN:   -Rpass-analysis=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK %s
// REMARK: remark: pointer-overflow check: a null base may take an offset
// RUN: not %clang_plugin -mllvm -wrap-idiom-null-offset=maybe -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck --check-prefix=BAD %s
// BAD: for the --wrap-idiom-null-offset option: Cannot find option named 'maybe'!
//
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	long n = atol(argv[1]);
	char *volatile zero = 0;
	/* null + n: no wrap */
	// CHECK: null-offset.c:[[@LINE+2]]:{{.*}}applying non-zero offset 2 to null pointer
	// ALLOW-NOT: applying non-zero offset 2 to null pointer
	char *q = zero + n;
	char *volatile top = (char *)-1L;
	/* wraps past the top */
	// ALL: null-offset.c:[[@LINE+1]]:{{.*}}pointer index expression with base 0xffffffffffffffff overflowed
	char *w = top + n;
	char *volatile low = (char *)16;
	long sixteen = 8 * n;
	/* non-null produced null */
	// ALL: null-offset.c:[[@LINE+1]]:{{.*}}applying non-zero offset to non-null pointer 0x000000000010 produced null pointer
	char *nn = low - sixteen;
	char *volatile zero2 = 0;
	/* wraps below null (the runtime words it as an offset to null) */
	// ALL: null-offset.c:[[@LINE+1]]:{{.*}}applying non-zero offset 18446744073709551614 to null pointer
	char *under = zero2 - n;

	// ALL: done
	printf("%p %p %p %p\ndone\n", q, w, nn, under);
	return 0;
}
