/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib-object.h>
#include <json-c/json.h>

#include "alert-doc.h"
#include "analysis/suggest.h"
#include "occurrences.h"

G_BEGIN_DECLS

/*
 * One alert as the browser shows it: the JSON object of `avcdoctor analyze
 * --json` (the daemon's ListAlerts/GetAlert give the same keys), parsed
 * once, with the list columns pulled out.  Every string a getter returns is
 * valid UTF-8 without control characters other than newline and tab: it
 * came from a record and may only ever be shown as plain text.
 */
#define AD_TYPE_ALERT_ITEM (ad_alert_item_get_type())
G_DECLARE_FINAL_TYPE(AdAlertItem, ad_alert_item, AD, ALERT_ITEM, GObject)

#define AD_ALERT_ITEM_ERROR (ad_alert_item_error_quark())
GQuark ad_alert_item_error_quark(void);

/* parses one alert; NULL with @error when the text is not an alert object */
AdAlertItem *ad_alert_item_new_from_json(const char *text, GError **error);

const char *ad_alert_item_get_id(AdAlertItem *a);
AdLevel ad_alert_item_get_level(AdAlertItem *a);
const char *ad_alert_item_get_summary(AdAlertItem *a);
/*
 * the list's line, what tells alerts apart first: "httpd: read /etc/shadow
 * (file)" (program, permissions, object, class); the summary when the
 * alert holds no denial
 */
const char *ad_alert_item_get_headline(AdAlertItem *a);
/* source and target types (httpd_t), "" when the record has none */
const char *ad_alert_item_get_source(AdAlertItem *a);
const char *ad_alert_item_get_target(AdAlertItem *a);
const char *ad_alert_item_get_tclass(AdAlertItem *a);
/* the denied permissions, "read write" (clean text) */
const char *ad_alert_item_get_perms(AdAlertItem *a);
guint64 ad_alert_item_get_count(AdAlertItem *a);
double ad_alert_item_get_first_seen(AdAlertItem *a);
double ad_alert_item_get_last_seen(AdAlertItem *a);
/*
 * when its denials happened ("timeline": the daemon's store and the file
 * source keep them in bounded buckets); NULL for an alert without (stored
 * before they were kept).  Borrowed.
 */
const AdOccurrences *ad_alert_item_get_occurrences(AdAlertItem *a);
/* named hosts (never empty strings); an alert of the local host has none */
const char *const *ad_alert_item_get_hosts(AdAlertItem *a);
/* the hosts for display: "web1, web2", or "" */
const char *ad_alert_item_get_hosts_text(AdAlertItem *a);
gboolean ad_alert_item_get_ignored(AdAlertItem *a);
/* the alert as the one reader of alert JSON read it (alert-doc.h), borrowed */
const AdAlertDoc *ad_alert_item_get_doc(AdAlertItem *a);
/* casefolded text the search box matches against */
const char *ad_alert_item_get_haystack(AdAlertItem *a);

/* one ranked suggestion of an alert, as the detail pane shows it */
typedef struct {
	char *plugin;
	char *kind;
	double confidence;
	char *if_text;
	char *then_text;
	char *shell;		/* the commands, already quoted for a shell; "" for none */
	int verified;		/* 1 proved, 0 would not stop the denial, -1 changes no policy */
	char *proof;		/* "Checked against the policy: ..." with the scope, or NULL */
} AdSuggestionView;

void ad_suggestion_view_free(AdSuggestionView *s);
/* the suggestions, best first (owned array, free func set) */
GPtrArray *ad_alert_item_get_suggestions(AdAlertItem *a);
/* the notes: facts beside the fixes, no commands (owned array, free func set) */
GPtrArray *ad_alert_item_get_notes(AdAlertItem *a);

/* the plain-language explanation of the alert's reason (owned, translated) */
char *ad_alert_item_explain(AdAlertItem *a);

/* the level in words, translated: "Red" */
const char *ad_level_label(AdLevel level);

/* "2023-11-14 22:13:20" in local time, or "" for 0 */
char *ad_format_time(double t);

G_END_DECLS
