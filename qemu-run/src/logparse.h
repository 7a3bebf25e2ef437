/* The console log as lines, shared by the log's readers (parse.c: UBSan
 * reports, expectations, verdict; ktap.c: KUnit results). */
#ifndef QR_LOGPARSE_H
#define QR_LOGPARSE_H

#include "parse.h"

#include <stddef.h>

struct lines {
	char **s;        /* timestamp-stripped text */
	int *no;         /* 1-based log line */
	size_t n;
};

/* Every top-level KTAP block of L into r's suites (ktap.c). */
void parse_ktap(struct result *r, struct lines *L);

#endif
