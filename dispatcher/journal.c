// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * New alerts as structured journal entries, written in journald's native
 * protocol (datagrams of fields on a Unix socket; no libsystemd needed):
 * `journalctl MESSAGE_ID=...` finds them, and the log shippers an
 * administrator already runs forward them with their fields.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <gio/gio.h>

#include "journal.h"

struct _AdJournal {
	int fd;
	struct sockaddr_un addr;
	socklen_t addr_len;
};

AdJournal *ad_journal_new(const char *path)
{
	struct stat st;
	AdJournal *j;

	if (!path || !*path || strlen(path) >= sizeof(((struct sockaddr_un *)0)->sun_path))
		return NULL;
	if (stat(path, &st) < 0 || !S_ISSOCK(st.st_mode))
		return NULL;
	j = g_new0(AdJournal, 1);
	j->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (j->fd < 0) {
		g_free(j);
		return NULL;
	}
	j->addr.sun_family = AF_UNIX;
	strcpy(j->addr.sun_path, path);
	j->addr_len = offsetof(struct sockaddr_un, sun_path) + strlen(path) + 1;
	return j;
}

void ad_journal_free(AdJournal *j)
{
	if (!j)
		return;
	close(j->fd);
	g_free(j);
}

/*
 * One field: "NAME=value\n" when the value has no newline, else the
 * binary-safe "NAME\n" + 64-bit little-endian length + value + "\n".
 * Control bytes other than newline are kept as they are: journald stores
 * bytes, and journalctl escapes them when it shows them.
 */
static void add_field(GByteArray *b, const char *name, const char *value, gsize len)
{
	if (!memchr(value, '\n', len)) {
		g_byte_array_append(b, (const guint8 *)name, strlen(name));
		g_byte_array_append(b, (const guint8 *)"=", 1);
		g_byte_array_append(b, (const guint8 *)value, len);
	} else {
		guint64 le = GUINT64_TO_LE((guint64)len);

		g_byte_array_append(b, (const guint8 *)name, strlen(name));
		g_byte_array_append(b, (const guint8 *)"\n", 1);
		g_byte_array_append(b, (const guint8 *)&le, sizeof(le));
		g_byte_array_append(b, (const guint8 *)value, len);
	}
	g_byte_array_append(b, (const guint8 *)"\n", 1);
}

static void add_str(GByteArray *b, const char *name, const char *value)
{
	add_field(b, name, value ? value : "", value ? strlen(value) : 0);
}

static gint cmp_str(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

GBytes *ad_journal_alert_entry(const AdAlert *a, const char *summary)
{
	g_autoptr(GByteArray) b = g_byte_array_new();
	g_autoptr(GPtrArray) hosts = g_ptr_array_new();
	g_autoptr(GString) perms = g_string_new(NULL);
	g_autofree char *count = g_strdup_printf("%" G_GUINT64_FORMAT, a->count);
	GHashTableIter it;
	gpointer key;

	add_str(b, "MESSAGE", summary);
	add_str(b, "MESSAGE_ID", AD_JOURNAL_MESSAGE_ID);
	add_str(b, "PRIORITY", a->level == AD_LEVEL_RED ? "2" : "4");
	add_str(b, "SYSLOG_IDENTIFIER", "avcdoctor");
	add_str(b, "AVCDOCTOR_ALERT_ID", a->id);
	add_str(b, "AVCDOCTOR_LEVEL", ad_level_name(a->level));
	add_str(b, "AVCDOCTOR_SOURCE", a->stype);
	add_str(b, "AVCDOCTOR_TARGET", a->ttype);
	add_str(b, "AVCDOCTOR_CLASS", a->tclass);
	for (guint i = 0; a->perms && i < a->perms->len; i++)
		g_string_append_printf(perms, "%s%s", i ? " " : "",
				       (char *)g_ptr_array_index(a->perms, i));
	add_str(b, "AVCDOCTOR_PERMISSIONS", perms->str);
	/* one field per host: the journal keeps repeated fields */
	if (a->hosts) {
		g_hash_table_iter_init(&it, a->hosts);
		while (g_hash_table_iter_next(&it, &key, NULL))
			g_ptr_array_add(hosts, key);
		g_ptr_array_sort(hosts, cmp_str);
	}
	for (guint i = 0; i < hosts->len; i++)
		add_str(b, "AVCDOCTOR_HOST", g_ptr_array_index(hosts, i));
	add_str(b, "AVCDOCTOR_COUNT", count);
	return g_byte_array_free_to_bytes(g_steal_pointer(&b));
}

gboolean ad_journal_send_alert(AdJournal *j, const AdAlert *a, const char *summary,
			       GError **error)
{
	g_autoptr(GBytes) entry = ad_journal_alert_entry(a, summary);
	gsize len;
	const void *data = g_bytes_get_data(entry, &len);
	ssize_t n;

	do
		n = sendto(j->fd, data, len, MSG_NOSIGNAL | MSG_DONTWAIT,
			   (struct sockaddr *)&j->addr, j->addr_len);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		int e = errno;

		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(e), "%s: %s",
			    j->addr.sun_path, g_strerror(e));
		return FALSE;
	}
	return TRUE;
}
