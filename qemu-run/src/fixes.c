/* qemu-run run --expect-fail-without-fixes: the reproducers of the fixes
 * sub-series must be able to fail. On the kernel built --without-fixes
 * every case of the findings suites must FAIL; on the kernel with the
 * fixes the expectations (suite lines) require them to pass. */
#define _GNU_SOURCE
#include "parse.h"
#include "qemu_run.h"

#include <stdio.h>

/* The user-space reproducers (qemu-run/init, workload step findings) and
 * the KUnit ones (kernel/patches: lib/wrap_findings_kunit.c). */
static const char *const findings_suites[] = { "findings", "wrap_findings" };

int check_findings_fail(const struct result *nofix)
{
	int bad = 0;

	for (size_t s = 0; s < sizeof(findings_suites) / sizeof(findings_suites[0]); s++) {
		const char *name = findings_suites[s];
		struct ktest *t = find_suite(nofix, name);
		int failed = 0;

		if (!t) {
			qr_err("the kernel without the fixes did not run the %s suite: its "
			       "reproducers cannot show that they fail", name);
			bad = 1;
			continue;
		}
		if (t->nsub == 0) {
			qr_err("the %s suite has no cases on the kernel without the fixes", name);
			bad = 1;
			continue;
		}
		for (size_t i = 0; i < t->nsub; i++) {
			const struct ktest *c = t->sub[i];
			if (c->status == KT_FAILURE) {
				failed++;
				continue;
			}
			qr_err("%s.%s %s on the kernel without the fixes; a reproducer must FAIL "
			       "there", name, c->name, kt_status_str(c->status));
			bad = 1;
		}
		qr_msg("%s: %d of %zu cases FAIL on the kernel without the fixes%s", name, failed,
		       t->nsub, (size_t)failed == t->nsub ? ", as they must" : "");
	}
	return bad;
}
