/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>
#include <json-c/json.h>

#include "occurrences.h"

G_BEGIN_DECLS

/*
 * The alert document: the JSON object of `avcdoctor analyze --json`, which
 * the store rewrites, D-Bus carries (ListAlerts, GetAlert) and the browser,
 * the notifier, Cockpit's interface, `show`/`list` and the fix helper read.
 * Its key names are spelled here once, for the writers and the readers,
 * and AdAlertDoc is the document parsed once from untrusted text (records
 * are attacker-controlled, a store may come from elsewhere, a broken
 * daemon could send anything): a bad document is an error, never a crash.
 */

/* ------------------------------------------------------------ key names */

/* an alert's */
#define AD_KEY_ID		"id"
#define AD_KEY_COUNT		"count"
#define AD_KEY_BLOCKED		"blocked"
#define AD_KEY_LOGGED_ONLY	"logged_only"
#define AD_KEY_FIRST_SEEN	"first_seen"
#define AD_KEY_LAST_SEEN	"last_seen"
#define AD_KEY_LEVEL		"level"
#define AD_KEY_IGNORED		"ignored"
#define AD_KEY_FILTER		"filter"
#define AD_KEY_SUMMARY		"summary"
#define AD_KEY_SUMMARY_MSG	"summary_msg"	/* the summary as a message (msg.h): stored alerts */
#define AD_KEY_DENIAL		"denial"
#define AD_KEY_REPORTED_BY	"reported_by"
#define AD_KEY_RECORDS		"records"
#define AD_KEY_SUGGESTIONS	"suggestions"
#define AD_KEY_NOTES		"notes"
#define AD_KEY_PATHS		"paths"
#define AD_KEY_COMMANDS		"commands"	/* the store's list of commands, and a suggestion's */
#define AD_KEY_HOSTS		"hosts"
#define AD_KEY_HOSTS_HEX	"hosts_hex"
#define AD_KEY_HOST_COUNTS	"host_counts"
#define AD_KEY_FIX_APPLIED	"fix_applied"
#define AD_KEY_TIMELINE		"timeline"	/* the denials in time buckets (occurrences.h) */

/* its denial's */
#define AD_KEY_TYPE		"type"
#define AD_KEY_SCONTEXT		"scontext"
#define AD_KEY_TCONTEXT		"tcontext"
#define AD_KEY_TCLASS		"tclass"
#define AD_KEY_PERMISSIONS	"permissions"
#define AD_KEY_COMM		"comm"
#define AD_KEY_EXE		"exe"
#define AD_KEY_PATH		"path"
#define AD_KEY_PATH_HEX		"path_hex"	/* the path's bytes, when it is not clean */
#define AD_KEY_NAME		"name"
#define AD_KEY_REASON		"reason"
#define AD_KEY_DETAIL		"detail"
#define AD_KEY_CONSTRAINT	"constraint"
#define AD_KEY_PERMISSIVE	"permissive"
#define AD_KEY_SUSPECT		"suspect"
#define AD_KEY_SUSPECT_REASON	"suspect_reason"
#define AD_KEY_CMDLINE		"cmdline"
#define AD_KEY_PID		"pid"
#define AD_KEY_SYSCALL		"syscall"
#define AD_KEY_PORT		"port"
#define AD_KEY_FILE		"file"		/* the log file and line of the record */
#define AD_KEY_LINE		"line"

/* a suggestion's (a note has plugin, if and then) */
#define AD_KEY_PLUGIN		"plugin"
#define AD_KEY_KIND		"kind"
#define AD_KEY_CONFIDENCE	"confidence"
#define AD_KEY_IF		"if"
#define AD_KEY_THEN		"then"
#define AD_KEY_IF_MSG		"if_msg"	/* "if" and "then" as messages (msg.h) */
#define AD_KEY_THEN_MSG		"then_msg"
#define AD_KEY_COMMANDS_HEX	"commands_hex"
#define AD_KEY_SHELL		"shell"
#define AD_KEY_VERIFIED		"verified"
#define AD_KEY_STILL_DENIED	"still_denied"
#define AD_KEY_STILL_DENIED_MSG	"still_denied_msg"	/* it as a message (msg.h) */
#define AD_KEY_SCOPE		"scope"
#define AD_KEY_ACCESSES		"accesses"
#define AD_KEY_DOMAINS		"domains"
#define AD_KEY_EXAMPLES		"examples"
#define AD_KEY_GENERIC_TYPE	"generic_type"
#define AD_KEY_TYPE_PATHS	"type_paths"
#define AD_KEY_APPLY		"apply"
#define AD_KEY_APPLY_REASON	"apply_reason"

/* ------------------------------------------------------------ small words */

/*
 * alert level: green = configuration issue with a known fix that can be
 * applied as shown (a by-hand fix that changes the system is yellow, see
 * ad_safety_judge()), red = possible attack
 */
typedef enum {
	AD_LEVEL_GREEN,
	AD_LEVEL_YELLOW,
	AD_LEVEL_RED,
} AdLevel;

/* "red": JSON, D-Bus, logs; "yellow" for a value out of range */
const char *ad_level_name(AdLevel l);
gboolean ad_level_from_name(const char *name, AdLevel *ret);
/*
 * --level, as every program takes it: "red", "yellow,green", "all", each
 * element of @args a comma-separated list; the levels asked for as bits
 * (1 << AdLevel) in @ret, 0 for none given.  FALSE for an unknown level.
 */
gboolean ad_levels_parse(char **args, guint *ret);
#define AD_LEVELS_ALL ((1u << AD_LEVEL_GREEN) | (1u << AD_LEVEL_YELLOW) | (1u << AD_LEVEL_RED))

/* TRUE for an alert id as the core makes them: 16 lowercase hex digits */
gboolean ad_alert_id_is_valid(const char *id);

/*
 * The type of a security context: "httpd_t" of
 * "system_u:system_r:httpd_t:s0" (the text between the second and the
 * third colon, or to the end), in place with its length; NULL when the
 * context has fewer than two colons.
 */
const char *ad_context_type_span(const char *context, gsize *ret_len);
/* the same, owned; NULL when there is none */
char *ad_context_type(const char *context);

/* ------------------------------------------------------------ the parsed document */

/*
 * Every string of the document is what the JSON said, checked to be valid
 * UTF-8 without NUL (a string holding "\u0000" is taken as absent): it is
 * still attacker-controlled text, shown only through ad_text_shown() (one
 * line) or ad_clean_text() (several), and never to a shell unquoted.
 */

/* one command of a suggestion */
typedef struct {
	/* the arguments as the JSON spells them (escaped where not UTF-8); NULL when malformed */
	GStrv argv;
	/* "commands_hex" has an entry for this command: an argument is not UTF-8 */
	gboolean has_hex;
	/* the exact arguments, decoded from that entry when it is one a word; else NULL */
	GStrv exact;
} AdCommandDoc;

/*
 * A suggestion, or a note (which has only plugin, if and then).  An entry
 * of the array that is not an object keeps its place (the fix helper
 * names a suggestion by its index), all its members absent.
 */
typedef struct {
	json_object *json;	/* the entry itself, borrowed from the document; NULL built in memory */
	gboolean not_object;
	char *plugin;		/* NULL when absent, as every string below */
	char *kind;
	AdLevel level;		/* yellow when absent */
	double confidence;	/* 0 to 1 */
	char *if_text;
	char *then_text;
	char *shell;		/* the commands quoted by the analyzer */
	/* "commands": AdCommandDoc, in order; NULL when absent or not an array */
	GPtrArray *commands;
	/* "commands" is there but not an array, or a command not a list of strings (exact ones) */
	gboolean commands_malformed;
	gboolean inexact;	/* "commands_hex" is there: an argument could only be stored escaped */
	/* 1 proved, 0 not enough (or not a boolean: taken as not proved), -1 no policy change */
	int verified;
	char *still_denied;
	gint64 accesses;	/* the scope: -1 when not counted */
	gint64 domains;
	char *example;		/* the scope's first example */
	char *generic_type;	/* the generic type a module opens whole, or NULL */
	gint64 type_paths;	/* how many paths file_contexts gives it: -1 unknown */
	gboolean has_apply;	/* "apply" is there (whatever its value) */
	char *apply;		/* "one-click", "confirm", ...; NULL when not a string */
	char *apply_reason;
} AdSuggestionDoc;

/* the latest denial of an alert */
typedef struct {
	json_object *json;	/* the denial object, borrowed from the document */
	char *type;		/* "AVC", "USER_AVC", ... */
	char *scontext;
	char *tcontext;
	char *stype;		/* their types, NULL when none */
	char *ttype;
	char *tclass;
	GStrv permissions;	/* never NULL; the string members only */
	gboolean has_permissions;	/* "permissions" is an array (empty for a SELINUX_ERR) */
	char *comm;
	char *exe;
	char *path;
	/* the path's bytes: "path_hex" decoded when there (NULL when it does not decode), else path */
	char *path_exact;
	char *name;
	char *reason;
	char *detail;
	char *constraint;
	gboolean permissive;
	gboolean has_permissive;	/* "permissive" is a boolean: the record said (else unknown) */
	gboolean suspect;
	char *suspect_reason;
	char *cmdline;
	gint64 pid;		/* -1 when absent or not an integer, as the numbers below */
	char *syscall;
	gint64 port;
	char *file;		/* where the record was read (a log analysed offline) */
	gint64 line;
} AdDenialDoc;

/* one entry of "host_counts": the records seen on a host ("" the daemon's own) */
typedef struct {
	char *host;
	guint64 count;		/* 0 when not an integer or negative */
} AdHostCountDoc;

typedef struct {
	json_object *json;	/* the whole object (a reference), for what is not typed here */
	char *id;		/* never NULL nor empty */
	AdLevel level;		/* yellow when absent or unknown */
	char *level_name;	/* "level" as sent, NULL when absent or not a string */
	gboolean has_level;	/* "level" is there, whatever its value */
	char *summary;		/* "" when absent */
	guint64 count;		/* 0 when absent or negative */
	gboolean has_modes;	/* both "blocked" and "logged_only" are there */
	guint64 blocked;
	guint64 logged_only;
	double first_seen;	/* 0 when absent */
	double last_seen;	/* 0 when absent */
	gboolean ignored;
	char *filter;
	char *reported_by;
	GStrv hosts;		/* the named hosts: never NULL, no empty names */
	AdDenialDoc *denial;	/* NULL when absent or not an object */
	gboolean has_suggestions;	/* "suggestions" is an array */
	GPtrArray *suggestions;	/* AdSuggestionDoc, best first, one an entry; never NULL */
	GPtrArray *notes;	/* AdSuggestionDoc: facts beside the fixes; never NULL */
	GStrv records;		/* the raw records (string entries); never NULL */
	GStrv paths;		/* the store's lists; never NULL */
	GStrv commands;
	/* "host_counts" (the daemon's): AdHostCountDoc in order; NULL when absent or not an object */
	GPtrArray *host_counts;
	double fix_applied;	/* when a fix of it was applied (the daemon's), 0 when none */
	AdOccurrences *occurrences;	/* "timeline", NULL when absent or malformed */
} AdAlertDoc;

#define AD_ALERT_DOC_ERROR (ad_alert_doc_error_quark())
GQuark ad_alert_doc_error_quark(void);

/* parses the text of one alert; NULL with @error when it is not an alert object */
AdAlertDoc *ad_alert_doc_parse(const char *text, GError **error);
/* the same from a parsed object (which the document references); NULL with @error */
AdAlertDoc *ad_alert_doc_new(json_object *o, GError **error);
void ad_alert_doc_free(AdAlertDoc *doc);

/*
 * A document built in memory, for a writer that has the alert and wants
 * its text without going through JSON (the analyzer's text report): the
 * members are what a document without them has (no suggestions, no
 * denial, counts 0, numbers -1 where absent is -1; a suggestion has its
 * empty list of commands, a note none), the "json" members and a
 * suggestion's "shell" stay NULL (the text report needs neither), and
 * the builder fills the rest as the JSON would have said it, strings
 * through ad_alert_doc_text().
 */
AdAlertDoc *ad_alert_doc_new_empty(void);
AdDenialDoc *ad_denial_doc_new(void);
/* a suggestion or a note; added to @doc's suggestions (or notes with @note) */
AdSuggestionDoc *ad_alert_doc_add_suggestion(AdAlertDoc *doc, gboolean note);
/* a command of @s: @argv as JSON would hold it, @exact its bytes when they differ (both taken) */
void ad_suggestion_doc_add_command(AdSuggestionDoc *s, GStrv argv, GStrv exact);
void ad_alert_doc_add_host_count(AdAlertDoc *doc, const char *host, guint64 count);
/* @s as a document holds a string (owned): NULL when @s is NULL or not UTF-8 */
char *ad_alert_doc_text(const char *s);

/*
 * @hex ("2f6574...": a "_hex" member), decoded, NUL-terminated (a NUL in
 * it ends the text); NULL when not an even number of hex digits
 */
char *ad_unhex(const char *hex);

/* suggestion @index of @doc, or NULL */
const AdSuggestionDoc *ad_alert_doc_suggestion(const AdAlertDoc *doc, guint index);

/* @s made safe to show on several lines: each line as it is when clean, else escaped; "" for NULL */
char *ad_clean_text(const char *s);

/*
 * Puts an alert's texts in the caller's language: "summary", and "if"
 * and "then" of each suggestion and note, rendered from "summary_msg",
 * "if_msg" and "then_msg" where those are messages (an alert stored
 * before texts were kept as messages keeps its texts).  With @strip the
 * message keys are removed (what `show --json` prints keeps the keys it
 * always had).  @alert is changed in place; nothing happens when it is
 * not an object.
 */
void ad_alert_json_localize(json_object *alert, gboolean strip);

/*
 * @o (an alert's JSON object) as text for a message (D-Bus), at most @max bytes:
 * when longer, entries are dropped from the ends of "records" (the raw
 * lines of its latest event), then of "paths", "commands" and "hosts"
 * (with "hosts_hex"), and "<key>_left_out" says how many of each.  NULL
 * when even that is too long.  @o is changed.
 */
char *ad_alert_json_text(json_object *o, gsize max);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdAlertDoc, ad_alert_doc_free)

G_END_DECLS
