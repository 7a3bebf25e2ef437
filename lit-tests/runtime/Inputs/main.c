/* Driver: runs every case once, framing its UBSan reports on stderr. */
#include <stdint.h>
#include <stdio.h>
#include <limits.h>

#include "cases.h"

volatile size_t big = SIZE_MAX - 1;
volatile size_t two = 2;
volatile size_t one = 1;
volatile size_t zero = 0;
volatile int int_max = INT_MAX;
volatile long long ll_max = LLONG_MAX;
volatile unsigned u32_max = UINT32_MAX;
char *volatile top_ptr = (char *)(UINTPTR_MAX - 15);

volatile size_t sunk;
void sink(size_t v) { sunk = v; }

struct entry {
	const char *name, *kind;
	int (*fn)(void);
};

#define ENTRY(name, kind) { #name, #kind, name },
static const struct entry cases[] = { CASES(ENTRY) };

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fprintf(stderr, "CASE %s %s\n", cases[i].name, cases[i].kind);
		int r = cases[i].fn();
		fprintf(stderr, "END %s %d\n", cases[i].name, r);
	}
	return 0;
}
