/* The console log as lines (consolelog.h), shared by the log's readers
 * (parse.c: sites, expectations, verdict; ktap.c: KUnit results). */
#ifndef QR_LOGPARSE_H
#define QR_LOGPARSE_H

#include "consolelog.h"
#include "parse.h"

/* Every top-level KTAP block of L into r's suites (ktap.c). */
void parse_ktap(struct result *r, struct lines *L);

#endif
