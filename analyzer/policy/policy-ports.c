// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Port labels from the policy's portcon entries (ocontexts[OCON_PORT]),
 * read the way the kernel reads them (security_port_sid(): the first
 * entry covering the port wins; none: the "port" initial SID).
 *
 * Answers are cached in the policy's query cache (p->types_allowed, whose
 * values are GPtrArrays of type names borrowed from the policydb) under
 * keys starting with "port:", which the "%u:%u:%x:%u" keys of
 * ad_policy_types_allowed() never do: the cache lives and dies with the
 * policy and is bounded by AD_TYPES_ALLOWED_CACHE_MAX, so a policy loaded
 * again after `semanage port -a` never sees stale answers.
 */
#include "config.h"

#include <netinet/in.h>
#include <string.h>

#include "policy-ports.h"
#include "policy/policy-private.h"

/* Linux's initial SID numbers (security/selinux/include/initial_sid_to_string.h) */
#define AD_SECINITSID_PORT 9
/* a portcon range this long or longer labels "any port": its type is generic */
#define AD_GENERIC_RANGE_MIN 256

const char *ad_port_protocol_of_class(const char *tclass)
{
	static const char *const map[][2] = {
		{ "tcp_socket", "tcp" },
		{ "udp_socket", "udp" },
		{ "sctp_socket", "sctp" },
		{ "dccp_socket", "dccp" },
	};

	for (guint i = 0; tclass && i < G_N_ELEMENTS(map); i++)
		if (strcmp(map[i][0], tclass) == 0)
			return map[i][1];
	return NULL;
}

/* IPPROTO_* of "tcp" etc., 0 when unknown */
static int protocol_number(const char *protocol)
{
	if (!protocol)
		return 0;
	if (strcmp(protocol, "tcp") == 0)
		return IPPROTO_TCP;
	if (strcmp(protocol, "udp") == 0)
		return IPPROTO_UDP;
	if (strcmp(protocol, "sctp") == 0)
		return IPPROTO_SCTP;
	if (strcmp(protocol, "dccp") == 0)
		return IPPROTO_DCCP;
	return 0;
}

static const char *type_name(AdPolicy *p, guint32 value)
{
	if (!value || value > p->db.p_types.nprim)
		return NULL;
	return p->db.p_type_val_to_name[value - 1];
}

/* the type of the "port" initial SID (port_t), borrowed; NULL when the policy has none */
static const char *initial_port_type(AdPolicy *p)
{
	for (ocontext_t *c = p->db.ocontexts[OCON_ISID]; c; c = c->next)
		if (c->sid[0] == AD_SECINITSID_PORT)
			return type_name(p, c->context[0].type);
	return NULL;
}

/* cache access: a borrowed array, or NULL when @key was not computed yet */
static GPtrArray *cache_get(AdPolicy *p, const char *key)
{
	return g_hash_table_lookup(p->types_allowed, key);
}

static void cache_put(AdPolicy *p, const char *key, GPtrArray *names)
{
	if (g_hash_table_size(p->types_allowed) >= AD_TYPES_ALLOWED_CACHE_MAX)
		g_hash_table_remove_all(p->types_allowed);
	g_hash_table_insert(p->types_allowed, g_strdup(key), names);
}

/*
 * The cached answer for one port: [type] or [type, type] when a portcon
 * entry names exactly this port, [] when nothing labels it (a policy
 * without the initial SID).  Borrowed; NULL for an unknown protocol.
 */
static GPtrArray *port_lookup(AdPolicy *p, const char *protocol, guint port)
{
	int proto = protocol_number(protocol);
	char key[48];
	GPtrArray *names;
	const char *type = NULL;
	gboolean exact = FALSE;

	g_return_val_if_fail(p != NULL, NULL);
	if (!proto || port > 65535)
		return NULL;
	g_snprintf(key, sizeof(key), "port:%d:%u", proto, port);
	names = cache_get(p, key);
	if (names)
		return names;

	for (ocontext_t *c = p->db.ocontexts[OCON_PORT]; c; c = c->next) {
		if (c->u.port.protocol != proto || port < c->u.port.low_port ||
		    port > c->u.port.high_port)
			continue;
		type = type_name(p, c->context[0].type);
		exact = c->u.port.low_port == port && c->u.port.high_port == port;
		break;
	}
	if (!type)
		type = initial_port_type(p);

	names = g_ptr_array_new();
	if (type) {
		g_ptr_array_add(names, (gpointer)type);
		if (exact)
			g_ptr_array_add(names, (gpointer)type);
	}
	cache_put(p, key, names);
	return names;
}

char *ad_policy_port_type(AdPolicy *p, const char *protocol, guint port)
{
	GPtrArray *names = port_lookup(p, protocol, port);

	return names && names->len ? g_strdup(names->pdata[0]) : NULL;
}

gboolean ad_policy_port_is_defined(AdPolicy *p, const char *protocol, guint port)
{
	GPtrArray *names = port_lookup(p, protocol, port);

	return names && names->len == 2;
}

static int name_cmp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

gboolean ad_policy_port_type_is_generic(AdPolicy *p, const char *type)
{
	static const char key[] = "port:generic";
	GPtrArray *generic;

	g_return_val_if_fail(p != NULL, FALSE);
	if (!type)
		return FALSE;
	generic = cache_get(p, key);
	if (!generic) {
		const char *isid = initial_port_type(p);

		generic = g_ptr_array_new();
		if (isid)
			g_ptr_array_add(generic, (gpointer)isid);
		for (ocontext_t *c = p->db.ocontexts[OCON_PORT]; c; c = c->next) {
			const char *t = type_name(p, c->context[0].type);
			guint len = (guint)c->u.port.high_port - c->u.port.low_port + 1;

			if (t && c->u.port.high_port >= c->u.port.low_port &&
			    len >= AD_GENERIC_RANGE_MIN && !g_ptr_array_find_with_equal_func(
				    generic, t, g_str_equal, NULL))
				g_ptr_array_add(generic, (gpointer)t);
		}
		g_ptr_array_sort(generic, name_cmp);
		cache_put(p, key, generic);
	}
	return g_ptr_array_find_with_equal_func(generic, type, g_str_equal, NULL);
}

guint ad_policy_port_type_distance(AdPolicy *p, const char *protocol, const char *type,
				   guint port, guint *ret_low, guint *ret_high)
{
	int proto = protocol_number(protocol);
	guint best = G_MAXUINT;

	g_return_val_if_fail(p != NULL, G_MAXUINT);
	if (!proto || !type)
		return G_MAXUINT;
	for (ocontext_t *c = p->db.ocontexts[OCON_PORT]; c; c = c->next) {
		const char *t = type_name(p, c->context[0].type);
		guint low = c->u.port.low_port, high = c->u.port.high_port, dist;

		if (c->u.port.protocol != proto || !t || strcmp(t, type) != 0 || high < low)
			continue;
		dist = port < low ? low - port : port > high ? port - high : 0;
		if (dist < best) {
			best = dist;
			if (ret_low)
				*ret_low = low;
			if (ret_high)
				*ret_high = high;
		}
	}
	return best;
}
