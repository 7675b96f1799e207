// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Denials: one AVC / USER_AVC / SELINUX_ERR record with what the rest of
 * its event says (syscall, executable, full path, command line, address).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <arpa/inet.h>

#include <glib/gi18n.h>
#include <libaudit.h>

#include "denial.h"

AdDenial *ad_denial_ref(AdDenial *d)
{
	if (d)
		g_atomic_int_inc(&d->ref_count);
	return d;
}

void ad_denial_unref(AdDenial *d)
{
	if (!d || !g_atomic_int_dec_and_test(&d->ref_count))
		return;
	if (d->perms)
		g_ptr_array_unref(d->perms);
	g_free(d->invalid_context);
	g_free(d->err_text);
	g_free(d->perms_buf);
	g_free(d->saddr);
	g_free(d->suspect_reason);
	/* last: @d itself is in the event's memory */
	ad_event_unref(d->event);
}

double ad_denial_time(const AdDenial *d)
{
	return ad_event_time(d->event);
}

guint64 ad_denial_serial(const AdDenial *d)
{
	return d->event->serial;
}

const char *ad_denial_node(const AdDenial *d)
{
	return d->event->node;
}

const char *ad_denial_type_name(const AdDenial *d)
{
	return d->record_type;
}

char *ad_denial_sender(const AdDenial *d)
{
	g_autofree char *stype = NULL;
	const char *spid;

	if (d->type != AD_DENIAL_USER_AVC || !(stype = ad_context_type(d->scontext)))
		return NULL;
	spid = ad_record_get(d->record, "spid");
	if (spid && *spid && strspn(spid, "0123456789") == strlen(spid))
		/* TRANSLATORS: a denied domain and its process id: "staff_t (pid 6687)" */
		return g_strdup_printf(_("%s (pid %s)"), stype, spid);
	return g_steal_pointer(&stype);
}

char *ad_context_with_type(const char *context, const char *type)
{
	gsize len;
	const char *p = ad_context_type_span(context, &len);

	if (!p || !type)
		return NULL;
	return g_strdup_printf("%.*s%s%s", (int)(p - context), context, type, p + len);
}

/* the bytes of names (1) and of contexts (1, and 2 for the ':' and ',' between parts) */
static const guint8 ctx_char[256] = {
	['a' ... 'z'] = 1, ['A' ... 'Z'] = 1, ['0' ... '9'] = 1, ['_'] = 1, ['.'] = 1, ['-'] = 1,
	[':'] = 2, [','] = 2,
};

/* user:role:type[:level] with characters a policy can name */
static gboolean context_is_plausible(const char *c)
{
	guint colons = 0;
	const char *p;

	if (!c || !*c)
		return FALSE;
	for (p = c; ctx_char[(guchar)*p]; p++)
		colons += *p == ':';
	return !*p && colons >= 2 && p - c <= 4096;
}

static gboolean name_is_plausible_len(const char *s, gsize len)
{
	if (!len || len > 256)
		return FALSE;
	for (gsize i = 0; i < len; i++)
		if (ctx_char[(guchar)s[i]] != 1)
			return FALSE;
	return TRUE;
}

static gboolean name_is_plausible(const char *s)
{
	return s && name_is_plausible_len(s, strnlen(s, 257));
}

/* a field that is a whole decimal number (a leading '-' allowed), else -1 */
static gint64 field_int(const AdRecord *rec, const char *name)
{
	const char *v = rec ? ad_record_get(rec, name) : NULL;
	gboolean neg;
	guint64 n = 0;

	if (!v || !*v)
		return -1;
	neg = *v == '-';
	if (neg)
		v++;
	if (!*v)
		return -1;
	for (; *v; v++) {
		if (*v < '0' || *v > '9' || n > (guint64)G_MAXINT64 / 10)
			return -1;
		n = n * 10 + (*v - '0');
	}
	if (n > (guint64)G_MAXINT64)
		return -1;
	return neg ? -(gint64)n : (gint64)n;
}

static void set_suspect(AdDenial *d, const char *why)
{
	d->suspect = TRUE;
	if (!d->suspect_reason)
		d->suspect_reason = g_strdup(why);
}

/*
 * "avc:  denied  { read write } for ..." → result and permissions.
 * Returns NULL on success, else a message for the problem report.
 */
static const char *parse_avc_body(AdDenial *d, const char *body)
{
	const char *p = strstr(body, "avc:");
	const char *open, *close;

	if (!p)
		return N_("no \"avc:\" in the record");
	p += 4;
	while (*p == ' ')
		p++;
	if (g_str_has_prefix(p, "denied"))
		d->granted = FALSE;
	else if (g_str_has_prefix(p, "granted"))
		d->granted = TRUE;
	else
		return NULL; /* "received policyload notice" and the like: no denial */
	open = strchr(p, '{');
	if (!open)
		return N_("no permission list \"{ ... }\"");
	close = strchr(open, '}');
	if (!close)
		return N_("the permission list has no closing \"}\"");
	/* the names, NUL-terminated, in one buffer the denial keeps */
	d->perms = g_ptr_array_new();
	d->perms_buf = g_malloc(close - open);
	char *out = d->perms_buf;

	for (const char *w = open + 1; w < close;) {
		const char *e;
		gboolean dup = FALSE;

		while (w < close && (*w == ' ' || *w == '\t'))
			w++;
		for (e = w; e < close && *e != ' ' && *e != '\t'; e++)
			;
		if (e == w)
			break;
		gsize len = e - w;

		if (!name_is_plausible_len(w, len))
			return N_("a permission name holds characters no policy uses");
		for (guint i = 0; i < d->perms->len && !dup; i++) {
			const char *have = g_ptr_array_index(d->perms, i);

			dup = strncmp(have, w, len) == 0 && have[len] == '\0';
		}
		if (dup) {
			set_suspect(d, "a permission is listed twice");
		} else {
			memcpy(out, w, len);
			out[len] = '\0';
			g_ptr_array_add(d->perms, out);
			out += len + 1;
		}
		w = e;
	}
	if (d->perms->len == 0)
		return N_("the permission list \"{ }\" is empty");
	return "";
}

/* the word that starts at @p: up to a blank or @end, in @ev's memory */
static const char *copy_word(AdEvent *ev, const char *p, const char *end)
{
	const char *e = p;
	char *w;

	while (e < end && *e != ' ' && *e != '\t')
		e++;
	w = ad_event_alloc(ev, e - p + 1);
	memcpy(w, p, e - p);
	w[e - p] = '\0';
	return w;
}

/* the last " NAME=" in [@start, @end), found from the right; NULL when none */
static const char *last_field(const char *start, const char *end, const char *name)
{
	gsize len = strlen(name);

	for (const char *p = end - len; p > start; p--)
		if (p[-1] == ' ' && memcmp(p, name, len) == 0)
			return p + len;
	return NULL;
}

/*
 * The fields libselinux appends to a USER_AVC message, as it wrote them:
 * "scontext=S tcontext=T tclass=C permissive=P" near the end of msg='...'.
 * They are looked for from the right in the raw text, ignoring quotes: the
 * object manager's text before them may quote a caller's command line, and
 * a quote the caller opens there must not hide them.  FALSE when the
 * record does not hold them in that order.
 */
static gboolean trusted_user_fields(AdDenial *d, const AdRecord *rec, const char *ret[4])
{
	const char *body = rec->body;
	const char *m = strstr(body, "msg='");
	const char *end, *s, *t, *c, *perm;

	if (!m)
		return FALSE;
	m += 5;
	end = body + (rec->body_len ? rec->body_len : strlen(body));
	while (end > m && end[-1] != '\'')
		end--;
	if (end == m)	/* no closing quote: to the end of the record */
		end = body + (rec->body_len ? rec->body_len : strlen(body));
	else
		end--;
	c = last_field(m, end, "tclass=");
	t = c ? last_field(m, c, "tcontext=") : NULL;
	s = t ? last_field(m, t, "scontext=") : NULL;
	if (!s)
		return FALSE;
	/* one after the other, as avc_audit() writes them */
	if (s + strcspn(s, " ") + 1 + strlen("tcontext=") != t ||
	    t + strcspn(t, " ") + 1 + strlen("tclass=") != c)
		return FALSE;
	ret[0] = copy_word(d->event, s, end);
	ret[1] = copy_word(d->event, t, end);
	ret[2] = copy_word(d->event, c, end);
	perm = last_field(c, end, "permissive=");
	ret[3] = perm ? copy_word(d->event, perm, end) : NULL;
	return TRUE;
}

#define PLANTED_FIELDS "the record holds planted scontext/tcontext/tclass " \
		       "fields; the trailing, trusted ones were used"

/*
 * The subject/object fields of the denial record.  For USER_AVC the
 * trusted values are the last ones as libselinux wrote them (after the
 * object manager's own text, which may quote a caller's command line).
 */
static const char *take_contexts(AdDenial *d, const AdRecord *rec)
{
	gboolean user = d->type == AD_DENIAL_USER_AVC;
	const char *last[3] = { NULL, NULL, NULL };
	const char *trusted[4] = { NULL, NULL, NULL, NULL };
	guint seen[5] = { 0, 0, 0, 0, 0 };
	guint n_fields;
	const AdField *fields = ad_record_fields(rec, &n_fields);

	/* one pass: the last of each, how often each occurs, planted copies */
	for (guint i = 0; i < n_fields; i++) {
		const AdField *f = &fields[i];
		int k = -1;

		if (f->name[0] == 's' && strcmp(f->name, "scontext") == 0)
			k = 0;
		else if (f->name[0] == 't' && strcmp(f->name, "tcontext") == 0)
			k = 1;
		else if (f->name[0] == 't' && strcmp(f->name, "tclass") == 0)
			k = 2;
		else if (f->name[0] == 'p' && strcmp(f->name, "pid") == 0)
			k = 3;
		else if (f->name[0] == 'c' && strcmp(f->name, "comm") == 0)
			k = 4;
		if (k >= 0 && k < 3)
			last[k] = f->value;
		if (k >= 0)
			seen[k]++;
		/* fields planted inside another field's quoted text (cmdline="...") */
		if (user && strcmp(f->name, "msg") != 0 &&
		    (strstr(f->value, "scontext=") || strstr(f->value, "tcontext=") ||
		     strstr(f->value, "tclass=")))
			set_suspect(d, PLANTED_FIELDS);
	}
	/*
	 * The kernel writes each field of an AVC once: one written twice is a
	 * second record that the text ran into this one, where nothing told
	 * them apart (ausearch -i values hold blanks).  Read as one, it would
	 * be a denial made of the fields of two: refused.
	 */
	if (!user && (seen[0] > 1 || seen[1] > 1 || seen[2] > 1 || seen[3] > 1 || seen[4] > 1))
		return N_("a field appears twice in the record: two records run together "
			  "that cannot be told apart; skipped");
	if (seen[0] > 1 || seen[1] > 1 || seen[2] > 1)
		set_suspect(d, PLANTED_FIELDS);
	if (n_fields >= AD_MAX_FIELDS)
		set_suspect(d, "the record holds more fields than are read");
	if (user) {
		if (trusted_user_fields(d, rec, trusted)) {
			for (guint k = 0; k < 3; k++)
				if (!last[k] || strcmp(last[k], trusted[k]) != 0)
					set_suspect(d, PLANTED_FIELDS);
			memcpy(last, trusted, sizeof(last));
			d->permissive = trusted[3] ? strcmp(trusted[3], "1") == 0 : -1;
		} else {
			const char *perm = ad_record_get_last(rec, "permissive");

			set_suspect(d, "the trusted trailing scontext/tcontext/tclass fields "
				       "cannot be found");
			if (perm)
				d->permissive = strcmp(perm, "1") == 0;
		}
	}
	d->scontext = last[0];
	d->tcontext = last[1];
	d->tclass = last[2];
	if (!d->scontext)
		return N_("no scontext field");
	if (!d->tcontext)
		return N_("no tcontext field");
	if (!d->tclass)
		return N_("no tclass field");
	if (!context_is_plausible(d->scontext))
		return N_("scontext is not a security context");
	if (!context_is_plausible(d->tcontext))
		return N_("tcontext is not a security context");
	if (!name_is_plausible(d->tclass))
		return N_("tclass is not a class name");
	return NULL;
}

/* the last component of @b */
static AdBytes bytes_basename(AdBytes b)
{
	const char *slash = b.len ? memrchr(b.data, '/', b.len) : NULL;

	if (!slash)
		return b;
	return (AdBytes){ slash + 1, b.len - (slash + 1 - b.data) };
}

/* cwd + "/" + name, unless name is absolute; in @ev's memory */
static AdBytes join_path(AdEvent *ev, AdBytes cwd, AdBytes name)
{
	const char *n = name.data;
	gsize nlen = name.len;
	char *out, *o;

	if ((nlen && n[0] == '/') || !cwd.data)
		return name;
	o = out = ad_event_alloc(ev, cwd.len + nlen + 2);
	memcpy(o, cwd.data, cwd.len);
	o += cwd.len;
	if (nlen >= 2 && n[0] == '.' && n[1] == '/') {
		n += 2;
		nlen -= 2;
	}
	if (cwd.len == 0 || cwd.data[cwd.len - 1] != '/')
		*o++ = '/';
	memcpy(o, n, nlen);
	o += nlen;
	*o = '\0';
	return (AdBytes){ out, o - out };
}

/*
 * What the denials of one event look up in its other records, gathered in
 * one pass: an event of many denials costs time linear in its records.
 */
typedef struct {
	const AdRecord *sc, *cwd, *pt, *sa, *avc_path;	/* the first of each type */
	const AdRecord *only;	/* the last PATH record */
	guint n_paths;
	GHashTable *by_inode;	/* inode (gint64 in the event) -> first PATH record */
	GHashTable *by_base;	/* GBytes last component -> first non-PARENT PATH */
} EventIndex;

static void event_index_clear(EventIndex *x)
{
	if (x->by_inode)
		g_hash_table_unref(x->by_inode);
	if (x->by_base)
		g_hash_table_unref(x->by_base);
}

/* indexes the first @n records of @ev */
static void event_index_build(EventIndex *x, AdEvent *ev, guint n)
{
	memset(x, 0, sizeof(*x));
	x->by_inode = g_hash_table_new(g_int64_hash, g_int64_equal);
	x->by_base = g_hash_table_new_full(g_bytes_hash, g_bytes_equal,
					   (GDestroyNotify)g_bytes_unref, NULL);
	for (guint i = 0; i < n; i++) {
		const AdRecord *r = g_ptr_array_index(ev->records, i);
		const AdRecord **slot;

		switch (r->type) {
		case AD_REC_SYSCALL: slot = &x->sc; break;
		case AD_REC_CWD: slot = &x->cwd; break;
		case AD_REC_PROCTITLE: slot = &x->pt; break;
		case AD_REC_SOCKADDR: slot = &x->sa; break;
		case AD_REC_AVC_PATH: slot = &x->avc_path; break;
		case AD_REC_PATH: slot = NULL; break;
		default: continue;
		}
		if (slot) {
			if (!*slot)
				*slot = r;
			continue;
		}
		x->n_paths++;
		x->only = r;

		gint64 ino = field_int(r, "inode");
		const char *nametype = ad_record_get(r, "nametype");

		if (ino >= 0 && !g_hash_table_contains(x->by_inode, &ino)) {
			gint64 *key = ad_event_alloc(ev, sizeof(*key));

			*key = ino;
			g_hash_table_insert(x->by_inode, key, (gpointer)r);
		}
		if (!(nametype && strcmp(nametype, "PARENT") == 0)) {
			AdBytes pname = ad_record_bytes(r, "name");

			if (pname.data) {
				AdBytes base = bytes_basename(pname);
				GBytes *key = g_bytes_new_static(base.data, base.len);

				if (!g_hash_table_contains(x->by_base, key))
					g_hash_table_insert(x->by_base, key, (gpointer)r);
				else
					g_bytes_unref(key);
			}
		}
	}
}

/*
 * The PATH record that names the denial's object: same inode first, then
 * same last component (not the PARENT item), then the only item.
 */
static const AdRecord *matching_path(const EventIndex *x, const AdDenial *d)
{
	const AdRecord *r;

	if (!x->n_paths)
		return NULL;
	if (d->ino >= 0 && (r = g_hash_table_lookup(x->by_inode, &d->ino)))
		return r;
	if (d->name.data) {
		g_autoptr(GBytes) key = g_bytes_new_static(d->name.data, d->name.len);

		if ((r = g_hash_table_lookup(x->by_base, key)))
			return r;
	}
	return x->n_paths == 1 ? x->only : NULL;
}

/* SOCKADDR saddr=<hex>: family, address and port in words */
static void decode_sockaddr(AdDenial *d, const AdRecord *rec)
{
	AdBytes b;
	const guint8 *s;
	gsize len;
	char buf[INET6_ADDRSTRLEN];

	if (rec->interpreted) {
		const char *fam = ad_record_get(rec, "saddr_fam");

		if (!fam)
			fam = ad_record_get(rec, "fam");
		const char *addr = ad_record_get(rec, "laddr");
		const char *port = ad_record_get(rec, "lport");

		if (fam)
			d->saddr = g_strdup_printf("%s %s", fam, addr ? addr : "");
		if (port && d->port < 0)
			d->port = g_ascii_strtoll(port, NULL, 10);
		return;
	}
	b = ad_record_bytes(rec, "saddr");
	s = (const guint8 *)b.data;
	len = b.len;
	if (len < 2)
		return;
	/* sa_family is host order; audit logs come from little-endian hosts nearly always */
	guint family = s[0] | (s[1] << 8);

	if (family == AF_INET && len >= 8) {
		/* what inet_ntop() writes, without its sprintf() */
		char *o = strcpy(buf, "inet ") + 5;

		for (guint i = 0; i < 4; i++) {
			guint v = s[4 + i];

			if (v >= 100)
				*o++ = '0' + v / 100;
			if (v >= 10)
				*o++ = '0' + v / 10 % 10;
			*o++ = '0' + v % 10;
			*o++ = i < 3 ? '.' : '\0';
		}
		d->saddr = g_strdup(buf);
		if (d->port < 0)
			d->port = (s[2] << 8) | s[3];
	} else if (family == AF_INET6 && len >= 24) {
		inet_ntop(AF_INET6, s + 8, buf, sizeof(buf));
		d->saddr = g_strconcat("inet6 ", buf, NULL);
		if (d->port < 0)
			d->port = (s[2] << 8) | s[3];
	} else if (family == AF_UNIX) {
		GString *p = g_string_new(len > 2 && s[2] == 0 ? "unix @" : "unix ");

		for (gsize i = (len > 2 && s[2] == 0) ? 3 : 2; i < len && s[i]; i++)
			g_string_append_c(p, g_ascii_isprint(s[i]) ? s[i] : '?');
		d->saddr = g_string_free(p, FALSE);
	} else if (family == AF_NETLINK) {
		d->saddr = g_strdup("netlink");
	} else {
		d->saddr = g_strdup_printf("family %u", family);
	}
}

/* syscall number → name with the record's own arch, not the host's */
/* libaudit's name (static) or the record's own text: nothing to free */
static const char *syscall_name(const AdRecord *sc)
{
	const char *arch = ad_record_get(sc, "arch");
	const char *nr = ad_record_get(sc, "syscall");
	guint64 elf = 0, n = 0;
	const char *p;

	if (!nr)
		return NULL;
	if (sc->interpreted || !g_ascii_isdigit(nr[0]) || !arch || !*arch)
		return nr;
	/* strtoul() and strtol() were most of this function's time */
	for (p = arch; p - arch < 8; p++) {
		guint c = (guchar)*p, v = c - '0', lc = (c | 0x20) - 'a';

		if (v > 9 && lc > 5)
			break;
		elf = elf << 4 | (v <= 9 ? v : lc + 10);
	}
	if (*p)
		return nr;
	for (p = nr; g_ascii_isdigit(*p) && p - nr < 9; p++)
		n = n * 10 + (*p - '0');
	if (*p)
		return nr;

	int machine = audit_elf_to_machine(elf);
	const char *name = machine >= 0 ? audit_syscall_to_name(n, machine) : NULL;

	return name ? name : nr;
}

/* classes whose object a PATH record of the event names */
static gboolean is_file_class(const char *tclass)
{
	static const char *const classes[] = {
		"file", "dir", "lnk_file", "chr_file", "blk_file", "sock_file", "fifo_file",
		"anon_inode",
		/* dac_override & co: the file the capability was needed for */
		"capability", "capability2", "cap_userns", "cap2_userns",
	};

	for (guint i = 0; tclass && i < G_N_ELEMENTS(classes); i++)
		if (strcmp(classes[i], tclass) == 0)
			return TRUE;
	return FALSE;
}

/* fills subject and object details from the event's other records */
static void enrich(AdDenial *d, AdEvent *ev, const AdRecord *rec, const EventIndex *x)
{
	const AdRecord *sc = x->sc, *cwd = x->cwd, *pt = x->pt, *sa = x->sa;
	const AdRecord *avc_path = x->avc_path;
	AdBytes cwd_b = AD_BYTES_NONE;

	gboolean user = d->type == AD_DENIAL_USER_AVC;

	d->pid = field_int(rec, user ? "spid" : "pid");
	if (d->pid < 0)
		d->pid = field_int(rec, "pid");
	d->comm = ad_record_bytes(rec, "comm");
	if (user) {
		d->exe = ad_record_bytes(rec, "exe");
		d->uid = field_int(rec, "uid");
		d->auid = field_int(rec, "auid");
		/* systemd names the caller's command line */
		d->cmdline = ad_record_bytes(rec, "cmdline");
	}
	d->name = ad_record_bytes(rec, "name");
	d->dev = ad_record_get(rec, "dev");
	d->ino = field_int(rec, "ino");
	d->ioctlcmd = ad_record_get(rec, "ioctlcmd");
	d->capability = ad_record_get(rec, "capability");
	if (!user) {
		static const char *const port_fields[] = { "dest", "src", "lport" };

		for (guint i = 0; i < G_N_ELEMENTS(port_fields) && d->port < 0; i++)
			d->port = field_int(rec, port_fields[i]);
	}

	if (sc && !user) {
		const char *s = ad_record_get(sc, "success");

		d->syscall = syscall_name(sc);
		d->success = s ? (strcmp(s, "yes") == 0) : -1;
		d->exit = ad_record_get(sc, "exit");
		d->ppid = field_int(sc, "ppid");
		d->uid = sc->interpreted ? -1 : field_int(sc, "uid");
		d->auid = sc->interpreted ? -1 : field_int(sc, "auid");
		if (d->pid < 0)
			d->pid = field_int(sc, "pid");
		d->exe = ad_record_bytes(sc, "exe");
		if (!d->comm.data)
			d->comm = ad_record_bytes(sc, "comm");
	}
	if (pt && !d->cmdline.data) {
		AdBytes raw = ad_record_bytes(pt, "proctitle");

		/* argv is NUL-separated: shown with spaces, as ps does */
		while (raw.len && raw.data[raw.len - 1] == 0)
			raw.len--;
		if (raw.len && memchr(raw.data, 0, raw.len)) {
			char *b = ad_event_alloc(ev, raw.len + 1);

			for (gsize i = 0; i < raw.len; i++)
				b[i] = raw.data[i] ? raw.data[i] : ' ';
			b[raw.len] = '\0';
			raw.data = b;
		}
		d->cmdline = raw;
	}
	if (sa)
		decode_sockaddr(d, sa);

	/* the full path: AVC path=, AVC_PATH, or cwd + the matching PATH name */
	if (cwd)
		cwd_b = ad_record_bytes(cwd, "cwd");
	d->path = ad_record_bytes(rec, "path");
	if (!d->path.data && avc_path)
		d->path = ad_record_bytes(avc_path, "path");
	/* a PATH record names the object of file classes, not a socket's exe */
	if (!d->path.data && !user && is_file_class(d->tclass)) {
		const AdRecord *pr = matching_path(x, d);
		AdBytes pname = pr ? ad_record_bytes(pr, "name") : AD_BYTES_NONE;

		if (pname.data && !ad_bytes_equal_str(pname, "(null)"))
			d->path = join_path(ev, cwd_b, pname);
	}
}

static AdErrKind selinux_err_kind(const AdRecord *rec, const char *body)
{
	const char *op = ad_record_get(rec, "op");

	if (ad_record_get(rec, "invalid_context") || strstr(body, "invalid context"))
		return AD_ERR_INVALID_CONTEXT;
	if ((op && strcmp(op, "security_compute_av") == 0) ||
	    g_str_has_prefix(body, "security_compute_av"))
		return AD_ERR_BOUNDS;
	if ((op && strcmp(op, "security_bounded_transition") == 0) ||
	    g_str_has_prefix(body, "security_bounded_transition"))
		return AD_ERR_BOUNDED_TRANSITION;
	if ((op && strcmp(op, "security_validate_transition") == 0) ||
	    g_str_has_prefix(body, "security_validate_transition"))
		return AD_ERR_VALIDATETRANS;
	return AD_ERR_OTHER;
}

/*
 * SELINUX_ERR in its forms:
 *   op=security_compute_sid invalid_context="C" scontext= tcontext= tclass=
 *   security_compute_sid:  invalid context C for scontext= tcontext= tclass=
 *   op=security_compute_av reason=bounds scontext= tcontext= tclass= perms=a,b
 *   op=security_bounded_transition seresult=denied oldcontext= newcontext=
 *   op=security_validate_transition seresult=denied oldcontext= newcontext=
 *       taskcontext= tclass=
 */
static const char *build_selinux_err(AdDenial *d, const AdRecord *rec)
{
	const char *body = rec->body;
	const char *v;

	if (d->type == AD_DENIAL_USER_SELINUX_ERR) {
		const char *m = strstr(body, "msg='");

		if (m)
			body = m + 5;
	}
	d->err_kind = selinux_err_kind(rec, body);
	d->err_text = g_strdup(body);
	d->perms = g_ptr_array_new_with_free_func(g_free);

	switch (d->err_kind) {
	case AD_ERR_INVALID_CONTEXT:
		v = ad_record_get(rec, "invalid_context");
		if (v) {
			d->invalid_context = g_strdup(v);
		} else {
			const char *p = strstr(body, "invalid context ");
			const char *q;

			if (!p)
				return N_("the record names no invalid context");
			p += 16;
			while (*p == ' ')
				p++;
			q = strchr(p, ' ');
			d->invalid_context = q ? g_strndup(p, q - p) : g_strdup(p);
		}
		if (!context_is_plausible(d->invalid_context))
			return N_("the invalid context is not a security context");
		d->scontext = ad_record_get_last(rec, "scontext");
		d->tcontext = ad_record_get_last(rec, "tcontext");
		d->tclass = ad_record_get_last(rec, "tclass");
		if (d->tclass && g_str_equal(d->tclass, "process"))
			g_ptr_array_add(d->perms, g_strdup("transition"));
		break;
	case AD_ERR_BOUNDS:
		d->scontext = ad_record_get_last(rec, "scontext");
		d->tcontext = ad_record_get_last(rec, "tcontext");
		d->tclass = ad_record_get_last(rec, "tclass");
		v = ad_record_get(rec, "perms");
		if (v) {
			g_auto(GStrv) p = g_strsplit(v, ",", -1);

			for (char **w = p; *w; w++)
				if (**w && name_is_plausible(*w))
					g_ptr_array_add(d->perms, g_strdup(*w));
		}
		break;
	case AD_ERR_BOUNDED_TRANSITION:
		d->scontext = ad_record_get(rec, "oldcontext");
		d->tcontext = ad_record_get(rec, "newcontext");
		d->tclass = "process";
		g_ptr_array_add(d->perms, g_strdup("dyntransition"));
		break;
	case AD_ERR_VALIDATETRANS:
		d->scontext = ad_record_get(rec, "oldcontext");
		d->tcontext = ad_record_get(rec, "newcontext");
		d->tclass = ad_record_get(rec, "tclass");
		break;
	default:
		d->scontext = ad_record_get_last(rec, "scontext");
		d->tcontext = ad_record_get_last(rec, "tcontext");
		d->tclass = ad_record_get_last(rec, "tclass");
		break;
	}
	if (d->scontext && !context_is_plausible(d->scontext))
		return N_("scontext is not a security context");
	if (d->tcontext && !context_is_plausible(d->tcontext))
		return N_("tcontext is not a security context");
	if (d->tclass && !name_is_plausible(d->tclass))
		return N_("tclass is not a class name");
	return NULL;
}

static AdDenial *denial_new(AdEvent *ev, const AdRecord *rec, AdDenialType type)
{
	/* in the event's memory: the denial holds the event until it goes */
	AdDenial *d = ad_event_alloc(ev, sizeof(*d));

	memset(d, 0, sizeof(*d));
	d->ref_count = 1;
	d->event = ad_event_ref(ev);
	d->record = rec;
	d->type = type;
	d->record_type = rec->type_name;
	d->permissive = -1;
	d->pid = d->ppid = d->uid = d->auid = d->ino = d->port = -1;
	d->success = -1;
	return d;
}

/*
 * "msg='Unknown class dbus ...'": an object manager (dbus-broker) found a
 * class it needs missing from the policy it ran with.  A denial of no
 * permission by the sender's own context, so that the analysis says the
 * class is what the policy lacks.  NULL, or a message for the problem report.
 */
static const char *unknown_class(AdDenial *d, const AdRecord *rec, const char *name)
{
	gsize len = strcspn(name, " '\"");
	char *tclass;

	if (!name_is_plausible_len(name, len))
		return N_("tclass is not a class name");
	d->scontext = d->tcontext = ad_record_get_last(rec, "subj");
	if (!d->scontext)
		return N_("no scontext field");
	if (!context_is_plausible(d->scontext))
		return N_("scontext is not a security context");
	tclass = ad_event_alloc(d->event, len + 1);
	memcpy(tclass, name, len);
	tclass[len] = '\0';
	d->tclass = tclass;
	d->perms = g_ptr_array_new();
	return NULL;
}

/* a record carrying an avc body: AVC, USER_AVC, and FANOTIFY-style oddities */
static gboolean has_avc_body(const AdRecord *rec)
{
	if (rec->type == AD_REC_AVC || rec->type == AD_REC_USER_AVC)
		return TRUE;
	if (rec->type == AD_REC_SYSCALL || rec->type == AD_REC_PATH ||
	    rec->type == AD_REC_PROCTITLE)
		return FALSE;
	return g_str_has_prefix(rec->body, "avc:");
}

guint ad_event_build_denials(AdEvent *ev, GPtrArray *ret_denials,
			     AdDenialProblemFunc on_problem, gpointer user_data)
{
	guint n = 0, n_alone = 0;
	guint n_indexed = MIN(ev->records->len, AD_EVENT_MAX_RECORDS);
	EventIndex x, alone = { 0 };
	const AdRecord *first_alone = NULL;

	event_index_build(&x, ev, n_indexed);
	for (guint i = 0; i < ev->records->len; i++) {
		const AdRecord *rec = g_ptr_array_index(ev->records, i);
		g_autoptr(AdDenial) d = NULL;
		const char *err;

		if (has_avc_body(rec)) {
			const char *body = rec->body;

			d = denial_new(ev, rec, rec->type == AD_REC_USER_AVC ? AD_DENIAL_USER_AVC
									     : AD_DENIAL_AVC);
			if (d->type == AD_DENIAL_USER_AVC) {
				const char *m = strstr(body, "msg='");

				if (!m) {
					if (on_problem)
						on_problem(rec, _("USER_AVC without msg='...'"),
							   user_data);
					continue;
				}
				body = m + 5;
			}
			if (d->type == AD_DENIAL_USER_AVC && g_str_has_prefix(body, "Unknown class "))
				err = unknown_class(d, rec, body + 14);
			else if (!(err = parse_avc_body(d, body)))
				continue;	/* not a denial: policyload notice etc. */
			else if (!*err)
				err = take_contexts(d, rec);
			if (err && *err) {
				if (on_problem)
					on_problem(rec, _(err), user_data);
				continue;
			}
			const char *perm = ad_record_get_last(rec, "permissive");

			/* USER_AVC: take_contexts() read the trusted one */
			if (perm && d->type != AD_DENIAL_USER_AVC)
				d->permissive = strcmp(perm, "1") == 0;
		} else if (rec->type == AD_REC_SELINUX_ERR ||
			   rec->type == AD_REC_USER_SELINUX_ERR) {
			d = denial_new(ev, rec, rec->type == AD_REC_SELINUX_ERR
						? AD_DENIAL_SELINUX_ERR
						: AD_DENIAL_USER_SELINUX_ERR);
			err = build_selinux_err(d, rec);
			if (err) {
				if (on_problem)
					on_problem(rec, _(err), user_data);
				continue;
			}
		} else {
			continue;
		}
		/* past the cap: analysed as a record alone, without the event's others */
		if (i >= n_indexed) {
			if (!n_alone++)
				first_alone = rec;
			enrich(d, ev, rec, &alone);
		} else {
			enrich(d, ev, rec, &x);
		}
		g_ptr_array_add(ret_denials, g_steal_pointer(&d));
		n++;
	}
	event_index_clear(&x);
	if (n_alone && on_problem) {
		g_autofree char *msg = g_strdup_printf(
			ngettext("%u denial record past the first %u records of its event "
				 "was analysed alone",
				 "%u denial records past the first %u records of their event "
				 "were analysed alone", n_alone),
			n_alone, AD_EVENT_MAX_RECORDS);

		on_problem(first_alone, msg, user_data);
	}
	return n;
}

gboolean ad_event_has_denial_record(const AdEvent *ev)
{
	for (guint i = 0; i < ev->records->len; i++) {
		const AdRecord *rec = g_ptr_array_index(ev->records, i);

		if (has_avc_body(rec) || rec->type == AD_REC_SELINUX_ERR ||
		    rec->type == AD_REC_USER_SELINUX_ERR)
			return TRUE;
	}
	return FALSE;
}

gboolean ad_event_is_policy_load(const AdEvent *ev)
{
	return ad_event_find_record(ev, AD_REC_MAC_POLICY_LOAD) != NULL;
}

/* ------------------------------------------------------------ asking a denial */

char *ad_denial_path_str(const AdDenial *d)
{
	gsize len = d->path.len;
	const char *p = d->path.data;

	if (!len || p[0] != '/' || memchr(p, '\0', len))
		return NULL;
	return g_strndup(p, len);
}

gboolean ad_denial_has_perm(const AdDenial *d, const char *perm)
{
	for (guint i = 0; d->perms && i < d->perms->len; i++)
		if (strcmp(g_ptr_array_index(d->perms, i), perm) == 0)
			return TRUE;
	return FALSE;
}

gboolean ad_denial_has_any_perm(const AdDenial *d, const char *const *perms)
{
	for (guint i = 0; perms[i]; i++)
		if (ad_denial_has_perm(d, perms[i]))
			return TRUE;
	return FALSE;
}

char *ad_denial_stype(const AdDenial *d)
{
	return ad_context_type(d->scontext);
}

char *ad_denial_ttype(const AdDenial *d)
{
	return ad_context_type(d->tcontext);
}

gboolean ad_class_is_file(const char *tclass)
{
	for (const char *const *c = AD_FILE_CLASSES; tclass && *c; c++)
		if (strcmp(*c, tclass) == 0)
			return TRUE;
	return FALSE;
}
