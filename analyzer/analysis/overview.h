/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>
#include <json-c/json.h>

#include "analysis/alert.h"

G_BEGIN_DECLS

/* one line of a "top" list: a domain, a target type or a host */
typedef struct {
	char *name;			/* "" for the host of a record without node= */
	guint alerts;
	guint64 records;
} AdOverviewEntry;

/*
 * Many alerts at a glance: counts by level and by the kind of each
 * alert's first fix, the domains, targets and hosts with the most denial
 * records, and the time span.  Built from analysed alerts.
 */
typedef struct {
	guint alerts;
	guint64 records;
	guint alerts_by_level[AD_LEVEL_RED + 1];
	guint64 records_by_level[AD_LEVEL_RED + 1];
	guint alerts_by_fix[AD_FIX_INFO + 2];	/* kind of the first fix; last: none */
	GPtrArray *sources;		/* AdOverviewEntry*, most records first */
	GPtrArray *targets;
	GPtrArray *hosts;
	double first_seen, last_seen;	/* 0 when no record had a time */
	GHashTable *index[3];		/* private: name -> entry of sources, targets, hosts */
} AdOverview;

/*
 * An empty overview, one ad_overview_add_alert() per analysed alert (its
 * suggestions decide the fix counts) or ad_overview_add() per alert held
 * in another form (a front end's parsed JSON), then ad_overview_finish()
 * to rank the lists.  @fix: the AdFixKind of the
 * alert's first suggestion, -1 for none; @hosts: host name ("" for records
 * without node=) -> its records (GSIZE_TO_POINTER), or NULL.
 */
AdOverview *ad_overview_new_empty(void);
void ad_overview_add(AdOverview *o, AdLevel level, int fix, const char *stype,
		     const char *ttype, guint64 records, double first_seen, double last_seen,
		     GHashTable *hosts);
void ad_overview_add_alert(AdOverview *o, const AdAlert *a);
void ad_overview_finish(AdOverview *o);
void ad_overview_free(AdOverview *o);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdOverview, ad_overview_free)

/*
 * {"type": "summary", "alerts": N, "records": N, "levels": {"red": {"alerts":
 * N, "records": N}, ...}, "fixes": {"relabel": N, ..., "none": N},
 * "sources": [{"name", "alerts", "records"}...], "targets": [...],
 * "hosts": [...], "first_seen": T|null, "last_seen": T|null}, with at most
 * @top entries per list.
 */
json_object *ad_overview_to_json(const AdOverview *o, guint top);
/* a level in words, for people (the JSON keeps the English value) */
const char *ad_overview_level_text(AdLevel l);
/* an index of alerts_by_fix in words ("restore a label"; the last: "no fix") */
const char *ad_overview_fix_text(guint k);
/* the text for a terminal, translated; at most @top entries per list */
void ad_overview_render(GString *out, const AdOverview *o, guint top);

G_END_DECLS
