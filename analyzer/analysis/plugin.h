/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

#include "read/denial.h"
#include "analysis/plugin-env.h"
#include "analysis/suggest.h"

G_BEGIN_DECLS


/*
 * A cause plugin: recognises one known cause of a denial and appends
 * AdSuggestion* to @ret.  Returns 1 when it matched, 0 when not, a
 * negative errno on failure (the others still run).  Plugins never run
 * programs and never touch the file system beyond stat()-like checks.
 */
typedef struct {
	const char *id;			/* "restorecon" */
	int priority;			/* breaks ties in the ranking (see ad_suggestions_sort()) */
	/*
	 * What the plugin looks at: the host calls it only for denials of one
	 * of @classes, with at least one of @perms denied, explained by one of
	 * @reasons (AD_REASON_BIT() of each); NULL or 0 accept anything.  The
	 * host never calls a plugin for a granted record or one without a
	 * verdict.  The suggestions it appends are stamped with its id.
	 */
	const char *const *classes;
	const char *const *perms;
	guint reasons;
	int (*analyze)(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx, GPtrArray *ret);
} AdPlugin;

#define AD_REASON_BIT(r) (1u << (r))
/* a missing allow rule, or one that a boolean switches off */
#define AD_REASONS_RULE (AD_REASON_BIT(AD_REASON_TE_RULE) | AD_REASON_BIT(AD_REASON_BOOLEAN))
/* every reason but "allowed" and "dontaudit": the current policy really denies it */
#define AD_REASONS_DENIED (~(AD_REASON_BIT(AD_REASON_ALLOWED) | AD_REASON_BIT(AD_REASON_DONTAUDIT)))
/* a NULL-terminated list for AdPlugin.classes and .perms */
#define AD_NAMES(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* TRUE when @p declares an interest in @d explained by @v (see AdPlugin) */
gboolean ad_plugin_wants(const AdPlugin *p, const AdDenial *d, const AdVerdict *v);

/* the static table of every plugin (plugins/plugins.c), NULL-terminated */
extern const AdPlugin *const ad_plugin_table[];
const AdPlugin *ad_plugin_find(const char *id);

/*
 * Runs every plugin and the rule book on one denial, proves what they
 * suggest against the policy (ad_suggestions_prove()); returns the
 * suggestions ranked best first, the notes after every fix (owned; free
 * func set; ad_suggestions_take_notes() parts them).  Failures of single
 * plugins are counted in @ret_failures when non-NULL.
 */
GPtrArray *ad_analyze_denial(AdPluginEnv *ctx, const AdDenial *d, const AdVerdict *v,
			     guint *ret_failures);

/* helpers for plugins */
/*
 * TRUE when @d's source domain runs inside a container, so that the paths
 * its records name (path=, name=, exe=) are the container's view, not the
 * host's: a relabel or a file context for them is no fix (a volume's
 * label is the container engine's, :Z).  By the policy's attributes of
 * container domains (container-selinux's container_domain,
 * svirt_sandbox_domain and sandbox_net_domain); with a policy that has
 * none of them, by the domains' names (container_t, container_init_t,
 * container_engine_t, container_kvm_t, container_userns_t and the
 * older svirt_lxc_net_t).
 */
gboolean ad_denial_in_container(AdPluginEnv *ctx, const AdDenial *d);
/*
 * The domain @d's program runs in when started properly (its file type
 * FOO_exec_t names FOO_t); owned or NULL, @ret_exec_type the file type
 */
char *ad_denial_program_domain(AdPluginEnv *ctx, const AdDenial *d, char **ret_exec_type);
/*
 * The name of a local module fix for @d's alert: "avcdoctor_httpd_853997c3"
 * for httpd_t (the domain without "_t", at most AD_MODULE_NAME_DOMAIN_MAX
 * bytes, then the first 8 characters of the alert's id), + @suffix.  One
 * name per alert, so that applying the fix of one alert never replaces
 * the module of another (nor an administrator's own "my_httpd"); a
 * name checkmodule accepts.  Owned.
 */
#define AD_MODULE_NAME_DOMAIN_MAX 48
char *ad_module_name(const AdDenial *d, const char *suffix);
/*
 * Adds the `avcdoctor allow` command that builds rules for @d's alert and
 * nothing else: `--alert ID` when the alerts are stored (the dispatcher),
 * else filters on @d's source and target type, class and permissions over
 * the files analysed (ctx->input_files, or the default audit log).
 * @options (NULL-terminated: "--verify", "-M", NAME) come before the
 * files.  TRUE when a file is "-": the text should say that the command
 * reads standard input again.
 */
gboolean ad_suggestion_add_allow_command(AdSuggestion *s, const AdDenial *d, AdPluginEnv *ctx,
					 const char *const *options);
#define AD_DEFAULT_AUDIT_LOG "/var/log/audit/audit.log"

G_END_DECLS
