/* qemu-run variants: one kernel of a command (built with the plugin or
 * without), resolved once from the options and the profile, so that no
 * stage completes the options as it runs (struct variant, qemu_run.h). */
#define _GNU_SOURCE
#include "qemu_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* tiny on x86_64 keeps the names it always had; other profiles and
 * architectures add theirs: -workload, -arm64, -workload-arm64. */
static char *suffix_of(const char *profile, const struct qr_arch *arch)
{
	char buf[256];
	int p = strcmp(profile, QR_DEFAULT_PROFILE) != 0;
	int a = strcmp(arch->name, QR_DEFAULT_ARCH) != 0;

	snprintf(buf, sizeof(buf), "%s%s%s%s", p ? "-" : "", p ? profile : "", a ? "-" : "",
		 a ? arch->name : "");
	return xstrdup(buf);
}

void variant_init(struct variant *v, const struct qr_opts *o, const struct qr_profile *prof,
		  const char *prof_error, int use_plugin)
{
	memset(v, 0, sizeof(*v));
	v->prof_error = prof_error;
	v->use_plugin = use_plugin;
	v->name = use_plugin ? "plugin" : "noplugin";
	v->arch = o->arch;
	v->profile = o->profile;
	v->prof = prof;
	v->suffix = suffix_of(o->profile, o->arch);
	if (o->tree) {
		v->tree = abs_path(o->tree);
	} else {
		/* the tree a profile with a 'kernel' line shares with that
		 * profile (stress boots the workload kernel) */
		char *t = suffix_of(prof && prof->kernel ? prof->kernel : o->profile, o->arch);
		v->tree = xasprintf("%s/linux-6.12%s%s", o->build_root, t, use_plugin ? "" : "-noplugin");
		free(t);
	}
	if (o->without_fixes)
		variant_without_fixes(v, o);
	v->timeout = !o->timeout_set && prof && prof->timeout > 0 ? prof->timeout : o->timeout;
	v->memory_mb = !o->memory_set && prof && prof->memory_mb > 0 ? prof->memory_mb : o->memory_mb;
	if (o->expect)
		v->expect = o->expect;
	else if (prof)
		v->expect = prof->expect ? prof->expect
					 : xasprintf("%s/qemu-run/expect/default.expect", o->src_root);
}

/* --tree names the tree as it is; the default tree gets -nofixes. */
void variant_without_fixes(struct variant *v, const struct qr_opts *o)
{
	char *t = v->tree;

	if (v->without_fixes)
		return;
	v->without_fixes = 1;
	v->name = v->use_plugin ? "plugin-nofixes" : "noplugin-nofixes";
	if (!o->tree) {
		v->tree = xasprintf("%s-nofixes", t);
		free(t);
	}
}

const struct qr_profile *variant_profile(const struct variant *v)
{
	if (!v->prof && v->prof_error)
		qr_die(QR_EXIT_USAGE, "%s", v->prof_error);
	return v->prof;
}

const char *variant_expect(const struct variant *v)
{
	if (!v->expect)
		variant_profile(v);
	return v->expect;
}

void variant_free(struct variant *v)
{
	free(v->suffix);
	free(v->tree);
	memset(v, 0, sizeof(*v));
}
