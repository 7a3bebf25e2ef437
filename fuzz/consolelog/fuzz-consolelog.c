/* libFuzzer target: the console-log reader and the verdict on arbitrary
 * input (common/consolelog/, qemu-run/src/ktap.c, parse.c), as `qemu-run parse
 * --strict` runs them. Any crash, sanitizer report, leak, hang (-timeout)
 * or memory blow-up (-rss_limit_mb, -malloc_limit_mb) fails. CMake builds
 * it (CMakeLists.txt beside it), run.sh runs it. */
#include "parse.h"
#include "qemu_run.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct expect *none;
	char *text = malloc(size + 1);

	if (!none)
		none = expect_load("none");
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	result_free(parse_text("fuzz.log", text, size, none, 1, NULL, NULL));
	return 0;
}
