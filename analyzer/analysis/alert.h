/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>
#include <json-c/json.h>

#include "read/denial.h"
#include "analysis/plugin.h"
#include "policy/policy.h"
#include "analysis/suggest.h"
#include "analysis/alert-text.h"

G_BEGIN_DECLS

#define AD_ALERT_MAX_PATHS 32		/* distinct paths / commands kept per alert */

/*
 * An alert: one signature (source type, target type, class, permission
 * set), the same problem hit on many files or hosts.  The permissions a
 * process loses on an exec into another domain (siginh, rlimitinh,
 * noatsecure) make one signature: the kernel checks them one by one in
 * one execve, and they have one cause.
 */
typedef struct {
	char *id;			/* stable hex digest of the signature */
	char *stype, *ttype, *tclass;
	GPtrArray *perms;		/* char*, sorted */
	guint64 count;
	guint64 blocked;		/* denials with permissive=0: the access failed */
	guint64 logged_only;		/* denials with permissive=1: only logged */
	/*
	 * The denial added last belonged to the occurrence counted before (the
	 * other inheritance checks of one exec): not counted again.
	 */
	gboolean repeat;
	double first_seen, last_seen;
	GHashTable *hosts;		/* node ("" = the local or unnamed host) -> count */
	GPtrArray *paths;		/* GBytes*, distinct, at most AD_ALERT_MAX_PATHS */
	GPtrArray *comms;		/* GBytes*, distinct, at most AD_ALERT_MAX_PATHS */
	AdDenial *latest;		/* the last full event */
	const AdVerdict *verdict;	/* of the latest denial; a reference (ad_verdict_ref) */
	GPtrArray *suggestions;		/* AdSuggestion*, ranked fixes; NULL until analysed */
	GPtrArray *notes;		/* AdSuggestion* with .note: facts; NULL until analysed */
	AdLevel level;
} AdAlert;


typedef struct _AdAlertSet AdAlertSet;

AdAlertSet *ad_alert_set_new(void);
void ad_alert_set_free(AdAlertSet *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdAlertSet, ad_alert_set_free)

/*
 * Files a denial under its alert; returns it (borrowed) and sets
 * @ret_new when the alert was created.  Granted records are not alerts:
 * NULL.
 */
AdAlert *ad_alert_set_add(AdAlertSet *s, AdDenial *d, const AdVerdict *v, gboolean *ret_new);
/* alerts in order of first appearance; borrowed */
GPtrArray *ad_alert_set_alerts(AdAlertSet *s);

/* runs the plugins on the latest denial and sets suggestions and level */
void ad_alert_analyse(AdAlert *a, AdPluginEnv *ctx);
/*
 * Lets go of what an alert holds of its latest denial (the whole event),
 * its verdict and its suggestions, once written out: counts, hosts, paths
 * and level stay.  A denial filed after that becomes the latest again.
 */
void ad_alert_release(AdAlert *a);

/* "SELinux is preventing /usr/sbin/httpd from read access on the file /home/ann/index.html." */
char *ad_alert_summary(const AdAlert *a);
/* the same as a message, which each reader renders in its language (msg.h); owned */
AdMsg *ad_alert_summary_msg(const AdAlert *a);
/* the `analyze --json` object (avcdoctor(1)) */
json_object *ad_alert_to_json(const AdAlert *a);
/*
 * The part of ad_alert_to_json() that depends on the analysis only (id,
 * level, summary, suggestions, in that order), not on the latest denial
 * or the counts: what the store keeps as an alert's analysis.  Beside the
 * texts rendered in the writer's language it holds them as messages
 * ("summary_msg", a suggestion's or note's "if_msg" and "then_msg").
 */
json_object *ad_alert_analysis_to_json(const AdAlert *a);
/*
 * The alert document (alert-doc.h) of ad_alert_to_json() with the per-host
 * counts ("host_counts"), built without JSON: what the text report renders
 */
AdAlertDoc *ad_alert_to_doc(const AdAlert *a);
/* the setroubleshoot-style report of one alert */
void ad_alert_render(GString *out, const AdAlert *a);

G_END_DECLS
