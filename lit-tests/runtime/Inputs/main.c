/* Driver: runs every case once, framing its UBSan reports on stderr. Each
 * case runs in its own process: the minimal runtime reports at most a fixed
 * number of distinct sites per process, and a case that dies must not take
 * the others with it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cases.h"
/* Another set of cases: -DCASE_LIST=FACTS_CASES -include facts.h. */
#ifndef CASE_LIST
#define CASE_LIST CASES
#endif

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
static const struct entry cases[] = { CASE_LIST(ENTRY) };

int main(int argc, char **argv)
{
	size_t n = sizeof(cases) / sizeof(cases[0]);

	/* --list: the cases, "<name> <kind>" a line, for tabulate.sh to say
	 * which of them gave no verdict. */
	if (argc > 1 && !strcmp(argv[1], "--list")) {
		for (size_t i = 0; i < n; i++)
			printf("%s %s\n", cases[i].name, cases[i].kind);
		return 0;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	for (size_t i = 0; i < n; i++) {
		int status;
		fprintf(stderr, "CASE %s %s\n", cases[i].name, cases[i].kind);
		pid_t pid = fork();
		if (pid < 0) {
			perror("fork");
			return 2;
		}
		if (pid == 0)
			_exit(cases[i].fn() & 0x7f);
		if (waitpid(pid, &status, 0) != pid) {
			perror("waitpid");
			return 2;
		}
		/* No END for a case that died: tabulate.sh says "crashed". */
		if (WIFEXITED(status))
			fprintf(stderr, "END %s %d\n", cases[i].name, WEXITSTATUS(status));
	}
	return 0;
}
