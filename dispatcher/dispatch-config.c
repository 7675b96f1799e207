// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The dispatcher's configuration file: a table of keys with their
 * offsets and ranges, strict parsing with FILE:LINE messages, and the
 * ownership checks a root daemon owes the files it reads.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <selinux/selinux.h>

#include "dispatch-config.h"
#include "trusted-file.h"
#include "escape.h"
#include "store.h"

G_DEFINE_QUARK(ad-dispatch-error-quark, ad_dispatch_error)

/* ---- configuration ------------------------------------------------------------ */

static const char *const bus_names[] = { "none", "system", "session" };

const char *ad_bus_kind_name(AdBusKind b)
{
	return (guint)b < G_N_ELEMENTS(bus_names) ? bus_names[b] : "none";
}

gboolean ad_bus_kind_from_name(const char *name, AdBusKind *ret)
{
	for (guint i = 0; name && i < G_N_ELEMENTS(bus_names); i++)
		if (strcmp(name, bus_names[i]) == 0) {
			*ret = i;
			return TRUE;
		}
	return FALSE;
}

static const char *const log_names[] = { "syslog", "stderr", "both" };
static const char *const log_command_names[] = { "auto", "sealert", "avcdoctor" };

void ad_dispatch_config_init(AdDispatchConfig *c)
{
	memset(c, 0, sizeof(*c));
	c->db_path = g_strdup(AD_STORE_DEFAULT_PATH);
	c->max_alerts = 10000;
	c->max_age_days = 90;
	c->commit_interval_ms = 100;
	c->bus = AD_BUS_SYSTEM;
	c->admin_group = g_strdup("avcdoctor");
	c->update_interval_ms = 1000;
	c->file_checks = TRUE;
	c->event_timeout_ms = 25;
	c->queue_bytes = 16u << 20;
	c->memory_alerts = 4096;
	c->log = AD_LOG_SYSLOG;
	c->mail_per_hour = 10;
}

void ad_dispatch_config_clear(AdDispatchConfig *c)
{
	g_clear_pointer(&c->db_path, g_free);
	g_clear_pointer(&c->admin_group, g_free);
	g_clear_pointer(&c->policy, g_free);
	g_clear_pointer(&c->file_contexts, g_free);
	g_clear_pointer(&c->rules_dir, g_free);
	g_clear_pointer(&c->journal_socket, g_free);
	g_clear_pointer(&c->mail_recipients, g_free);
	g_clear_pointer(&c->sendmail, g_free);
}

void ad_dispatch_config_copy(AdDispatchConfig *dst, const AdDispatchConfig *src)
{
	*dst = *src;
	dst->db_path = g_strdup(src->db_path);
	dst->admin_group = g_strdup(src->admin_group);
	dst->policy = g_strdup(src->policy);
	dst->file_contexts = g_strdup(src->file_contexts);
	dst->rules_dir = g_strdup(src->rules_dir);
	dst->journal_socket = g_strdup(src->journal_socket);
	dst->mail_recipients = g_strdup(src->mail_recipients);
	dst->sendmail = g_strdup(src->sendmail);
}

typedef enum {
	KEY_STRING,		/* empty: the default (NULL) */
	KEY_STORE_PATH,		/* "none": no store */
	KEY_UINT,
	KEY_SIZE,
	KEY_BOOL,
	KEY_BUS,
	KEY_LOG,
	KEY_LOG_COMMAND,
	KEY_GROUP_NAME,
} KeyKind;

#define KEY(g, k, kind, field, min, max) \
	{ g, k, kind, G_STRUCT_OFFSET(AdDispatchConfig, field), min, max }

static const struct {
	const char *group, *key;
	KeyKind kind;
	gsize offset;
	guint64 min, max;
} config_keys[] = {
	KEY("store", "path", KEY_STORE_PATH, db_path, 0, 0),
	KEY("store", "max_alerts", KEY_UINT, max_alerts, 0, 10000000),
	KEY("store", "max_age_days", KEY_UINT, max_age_days, 0, 36500),
	KEY("store", "commit_interval_ms", KEY_UINT, commit_interval_ms, 10, 1000),
	KEY("bus", "type", KEY_BUS, bus, 0, 0),
	KEY("bus", "admin_group", KEY_GROUP_NAME, admin_group, 0, 0),
	KEY("bus", "update_interval_ms", KEY_UINT, update_interval_ms, 0, 3600000),
	KEY("analysis", "policy", KEY_STRING, policy, 0, 0),
	KEY("analysis", "file_contexts", KEY_STRING, file_contexts, 0, 0),
	KEY("analysis", "rules_dir", KEY_STRING, rules_dir, 0, 0),
	KEY("analysis", "file_checks", KEY_BOOL, file_checks, 0, 0),
	KEY("analysis", "event_timeout_ms", KEY_UINT, event_timeout_ms, 1, 10000),
	KEY("limits", "queue_bytes", KEY_SIZE, queue_bytes, 64u << 10, 1u << 30),
	KEY("limits", "memory_alerts", KEY_UINT, memory_alerts, 16, 1000000),
	KEY("log", "target", KEY_LOG, log, 0, 0),
	KEY("log", "journal_socket", KEY_STRING, journal_socket, 0, 0),
	KEY("log", "command", KEY_LOG_COMMAND, log_command, 0, 0),
	KEY("email", "recipients_file", KEY_STRING, mail_recipients, 0, 0),
	KEY("email", "sendmail", KEY_STRING, sendmail, 0, 0),
	KEY("email", "max_per_hour", KEY_UINT, mail_per_hour, 0, 10000),
};

#undef KEY

/* a group name as useradd accepts them: no colon, no slash, no control */
static gboolean valid_group_name(const char *s)
{
	if (!*s || strlen(s) > 32 || *s == '-')
		return FALSE;
	for (const char *p = s; *p; p++)
		if (!g_ascii_isalnum(*p) && *p != '_' && *p != '-' && *p != '.')
			return FALSE;
	return TRUE;
}

/* reads @path without following a symlink, from the descriptor that was checked */
static char *read_config_text(const char *path, gboolean as_root, gsize *ret_len,
			      GError **error)
{
	g_autoptr(GError) local = NULL;
	char *text = NULL;

	if (ad_file_read_trusted(AT_FDCWD, path, path, 1 << 20, as_root, &text, ret_len, &local))
		return text;
	if (g_error_matches(local, AD_FILE_ERROR, AD_FILE_ERROR_UNSAFE))
		g_set_error_literal(error, AD_DISPATCH_ERROR, AD_DISPATCH_ERROR_UNSAFE,
				    local->message);
	else if (g_error_matches(local, AD_FILE_ERROR, AD_FILE_ERROR_TOO_LARGE))
		g_set_error(error, AD_DISPATCH_ERROR, AD_DISPATCH_ERROR_CONFIG,
			    _("%s: larger than 1 MiB"), path);
	else
		g_set_error_literal(error, AD_DISPATCH_ERROR, AD_DISPATCH_ERROR_CONFIG,
				    local->message);
	return NULL;
}

/* the index of @value among @n @names (an enum's value) in @ret; FALSE when absent */
static gboolean name_index(const char *const *names, guint n, const char *value, guint *ret)
{
	for (guint i = 0; i < n; i++)
		if (strcmp(value, names[i]) == 0) {
			*ret = i;
			return TRUE;
		}
	return FALSE;
}

/* parses one value of @kf into @c; FALSE with an error naming file, group and key */
static gboolean config_apply_key(AdDispatchConfig *c, GKeyFile *kf, const char *path,
				 guint i, GError **error)
{
	const char *group = config_keys[i].group, *key = config_keys[i].key;
	gpointer field = G_STRUCT_MEMBER_P(c, config_keys[i].offset);
	g_autoptr(GError) local = NULL;
	g_autofree char *raw = g_key_file_get_string(kf, group, key, &local);
	char *value;

	if (!raw)
		goto bad;
	value = g_strstrip(raw);
	switch (config_keys[i].kind) {
	case KEY_STRING:
		g_free(*(char **)field);
		*(char **)field = *value ? g_strdup(value) : NULL;
		return TRUE;
	case KEY_STORE_PATH:
		if (*value && strcmp(value, "none") != 0 && !g_path_is_absolute(value)) {
			g_set_error(error, AD_DISPATCH_ERROR, AD_DISPATCH_ERROR_CONFIG,
				    _("%s: [%s] %s: an absolute path or \"none\", not \"%s\""),
				    path, group, key, value);
			return FALSE;
		}
		g_free(*(char **)field);
		*(char **)field = strcmp(value, "none") == 0 ? NULL
			: g_strdup(*value ? value : AD_STORE_DEFAULT_PATH);
		return TRUE;
	case KEY_GROUP_NAME:
		if (!valid_group_name(value)) {
			g_set_error(error, AD_DISPATCH_ERROR, AD_DISPATCH_ERROR_CONFIG,
				    _("%s: [%s] %s: not a group name"), path, group, key);
			return FALSE;
		}
		g_free(*(char **)field);
		*(char **)field = g_strdup(value);
		return TRUE;
	case KEY_BOOL: {
		gboolean b = g_key_file_get_boolean(kf, group, key, &local);

		if (local)
			goto bad;
		*(gboolean *)field = b;
		return TRUE;
	}
	case KEY_BUS:
		if (!ad_bus_kind_from_name(value, (AdBusKind *)field)) {
			g_set_error(error, AD_DISPATCH_ERROR, AD_DISPATCH_ERROR_CONFIG,
				    _("%s: [%s] %s: system, session or none"), path, group, key);
			return FALSE;
		}
		return TRUE;
	case KEY_LOG:
		if (name_index(log_names, G_N_ELEMENTS(log_names), value, (guint *)field))
			return TRUE;
		g_set_error(error, AD_DISPATCH_ERROR, AD_DISPATCH_ERROR_CONFIG,
			    _("%s: [%s] %s: syslog, stderr or both"), path, group, key);
		return FALSE;
	case KEY_LOG_COMMAND:
		if (name_index(log_command_names, G_N_ELEMENTS(log_command_names), value,
			       (guint *)field))
			return TRUE;
		g_set_error(error, AD_DISPATCH_ERROR, AD_DISPATCH_ERROR_CONFIG,
			    _("%s: [%s] %s: auto, sealert or avcdoctor"), path, group, key);
		return FALSE;
	case KEY_UINT:
	case KEY_SIZE: {
		guint64 v, mult = 1;
		char *end = NULL;
		gsize len = strlen(value);

		if (config_keys[i].kind == KEY_SIZE && len &&
		    strchr("KkMmGg", value[len - 1])) {
			char u = g_ascii_toupper(value[len - 1]);

			mult = u == 'K' ? 1024 : u == 'M' ? 1024 * 1024 : 1024 * 1024 * 1024;
			value[len - 1] = '\0';
		}
		if (!*value || !g_ascii_isdigit(*value))
			goto bad;
		errno = 0;
		v = g_ascii_strtoull(value, &end, 10);
		if (errno || *end || v > G_MAXUINT64 / mult)
			goto bad;
		v *= mult;
		if (v < config_keys[i].min || v > config_keys[i].max) {
			g_set_error(error, AD_DISPATCH_ERROR, AD_DISPATCH_ERROR_CONFIG,
				    _("%s: [%s] %s: %" PRIu64 " is out of range "
				      "%" PRIu64 "..%" PRIu64),
				    path, group, key, v, config_keys[i].min, config_keys[i].max);
			return FALSE;
		}
		if (config_keys[i].kind == KEY_SIZE)
			*(gsize *)field = v;
		else
			*(guint *)field = v;
		return TRUE;
	}
	}
bad:
	g_set_error(error, AD_DISPATCH_ERROR, AD_DISPATCH_ERROR_CONFIG,
		    _("%s: [%s] %s: not a valid value"), path, group, key);
	return FALSE;
}

gboolean ad_dispatch_config_load(AdDispatchConfig *c, const char *path, gboolean as_root,
				 GError **error)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(GError) local = NULL;
	g_auto(GStrv) groups = NULL;
	g_autofree char *text = NULL;
	AdDispatchConfig next;
	gsize len = 0;

	text = read_config_text(path, as_root, &len, error);
	if (!text)
		return FALSE;
	if (!g_key_file_load_from_data(kf, text, len, G_KEY_FILE_NONE, &local)) {
		g_set_error(error, AD_DISPATCH_ERROR, AD_DISPATCH_ERROR_CONFIG, "%s: %s", path,
			    local->message);
		return FALSE;
	}
	/* every group and key must be known: a misspelt key is not silently ignored */
	groups = g_key_file_get_groups(kf, NULL);
	for (char **g = groups; *g; g++) {
		g_auto(GStrv) keys = g_key_file_get_keys(kf, *g, NULL, NULL);

		for (char **k = keys; k && *k; k++) {
			gboolean known = FALSE;

			for (guint i = 0; i < G_N_ELEMENTS(config_keys) && !known; i++)
				known = strcmp(config_keys[i].group, *g) == 0 &&
					strcmp(config_keys[i].key, *k) == 0;
			if (!known) {
				g_autofree char *gk = ad_text_shown(*g);
				g_autofree char *kk = ad_text_shown(*k);

				g_set_error(error, AD_DISPATCH_ERROR, AD_DISPATCH_ERROR_CONFIG,
					    _("%s: [%s] %s: unknown key"), path, gk, kk);
				return FALSE;
			}
		}
	}
	ad_dispatch_config_copy(&next, c);
	for (guint i = 0; i < G_N_ELEMENTS(config_keys); i++) {
		if (!g_key_file_has_key(kf, config_keys[i].group, config_keys[i].key, NULL))
			continue;
		if (!config_apply_key(&next, kf, path, i, error)) {
			ad_dispatch_config_clear(&next);
			return FALSE;
		}
	}
	ad_dispatch_config_clear(c);
	*c = next;
	return TRUE;
}
