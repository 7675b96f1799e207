// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bind_ports / connect_ports: a domain may not bind or connect to a port
 * because of the port's label.  The fix labels the port with a type the
 * domain may use (`semanage port`), preferring the type named after the
 * domain (http_port_t for httpd_t); when none is, the type of the
 * service the program is named after (redis_port_t for redis-server) or
 * of the ports next to this one (within AD_PORT_NEAR), and without such
 * evidence no type: the commands that show the port's label and the
 * types the domain may use.  Both plugins share this file: they
 * differ only in the permission (name_bind, name_connect) and the words.
 *
 * A client connecting to a port that belongs to a service (a specific port
 * type the policy gives it, not a generic one) is not told to relabel it:
 * a note says so, and the boolean or the local module for the connection
 * comes first.
 *
 * Everything comes from the policy: the port's type and whether a portcon
 * entry names it exactly (then `semanage port -a` fails with "already
 * defined" and `-m` is needed), the generic types labelling whole ranges,
 * and the port types the domain may use with the current booleans.
 */
#include <inttypes.h>
#include <string.h>

#include <glib/gi18n.h>

#include "plugins.h"
#include "policy/policy-ports.h"

/* candidates named in the text besides the one in the command */
#define AD_PORT_TYPES_SHOWN 8

typedef struct {
	const char *id;
	const char *perm;
} PortCause;

/* "httpd" → "http": daemons often carry a "d" their port type does not */
static gboolean word_matches(const char *word, const char *type_word)
{
	gsize len = strlen(word);

	if (len < 3)
		return FALSE;
	if (strcmp(word, type_word) == 0)
		return TRUE;
	return len > 3 && word[len - 1] == 'd' && strlen(type_word) == len - 1 &&
	       strncmp(word, type_word, len - 1) == 0;
}

/*
 * How well the port type @type fits the domain @stype: 3 for
 * "<domain>_port_t" (httpd_t: httpd_port_t or http_port_t), 2 when the
 * type's first word is the domain's first word (http_cache_port_t), 1 when
 * it is another word of the domain's name (smtp_port_t for
 * postfix_smtpd_t), 0 otherwise.
 */
static int domain_score(const char *stype, const char *type)
{
	g_autofree char *prefix = g_strdup(stype);
	g_autofree char *tprefix = g_strdup(type);
	g_auto(GStrv) words = NULL;
	gsize len = strlen(prefix);
	char *us;

	if (len > 2 && g_str_has_suffix(prefix, "_t"))
		prefix[len - 2] = '\0';
	if (!g_str_has_suffix(tprefix, "_port_t"))
		return 0;
	tprefix[strlen(tprefix) - strlen("_port_t")] = '\0';
	if (word_matches(prefix, tprefix))
		return 3;
	us = strchr(tprefix, '_');
	if (us)
		*us = '\0';
	words = g_strsplit(prefix, "_", -1);
	for (guint i = 0; words[i]; i++)
		if (word_matches(words[i], tprefix))
			return i == 0 ? 2 : 1;
	return 0;
}

typedef struct {
	const char *stype;
} SortData;

static int candidate_cmp(gconstpointer a, gconstpointer b, gpointer user_data)
{
	const SortData *sd = user_data;
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int sx = domain_score(sd->stype, x), sy = domain_score(sd->stype, y);

	if (sx != sy)
		return sy - sx;
	return strcmp(x, y);
}

/* "a, b and c" of @types[from..from+max), with "and N more" */
static char *type_list(GPtrArray *types, guint from, guint max)
{
	g_autoptr(GString) s = g_string_new(NULL);
	guint end = MIN(types->len, from + max);

	for (guint i = from; i < end; i++) {
		if (i > from)
			g_string_append(s, i + 1 == end && end == types->len ? _(" and ") : ", ");
		g_string_append(s, g_ptr_array_index(types, i));
	}
	if (end < types->len)
		g_string_append_printf(s, ngettext(" and %u more", " and %u more",
						   types->len - end), types->len - end);
	return g_string_free(g_steal_pointer(&s), FALSE);
}

/* a port this near one the policy gives a type counts as a neighbour of them */
#define AD_PORT_NEAR 10

/* does a word of the program's name (comm, or exe's last name) name @type's service? */
static gboolean program_names(const AdDenial *d, const char *type)
{
	g_autofree char *tword = g_strdup(type);
	const AdBytes *names[] = { &d->comm, &d->exe };
	char *us = strchr(tword, '_');

	if (us)
		*us = '\0';
	for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
		g_autofree char *name = NULL;
		g_auto(GStrv) words = NULL;
		const char *base;

		if (!names[i]->data || !names[i]->len)
			continue;
		name = g_strndup(names[i]->data, names[i]->len);
		base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
		words = g_strsplit_set(base, "-_.", -1);
		if (words[0] && word_matches(words[0], tword))
			return TRUE;
	}
	return FALSE;
}

/*
 * None of the port types the domain may use is named after it: the one
 * the evidence points to, index into @candidates, or -1: a type whose
 * service the program's name names (redis_port_t for redis-server), else
 * the type of the nearest ports the policy labels (8081 beside
 * http_cache_port_t's 8080), within AD_PORT_NEAR.  @ret_why: the
 * evidence in words, owned.
 */
static int evidence_type(AdPluginEnv *ctx, const AdDenial *d, const char *protocol,
			 GPtrArray *candidates, char **ret_why)
{
	guint best = G_MAXUINT, low = 0, high = 0;
	int pick = -1;

	*ret_why = NULL;
	for (guint i = 0; i < candidates->len; i++) {
		if (program_names(d, g_ptr_array_index(candidates, i))) {
			g_autofree char *comm = g_strndup(d->comm.data ? d->comm.data : "",
							  d->comm.len);

			*ret_why = g_strdup_printf(_("the port type of the service the program "
						     "(%s) is named after"), comm);
			return (int)i;
		}
	}
	for (guint i = 0; i < candidates->len; i++) {
		guint l = 0, h = 0;
		guint dist = ad_policy_port_type_distance(ctx->policy, protocol,
							  g_ptr_array_index(candidates, i),
							  (guint)d->port, &l, &h);

		if (dist <= AD_PORT_NEAR && dist < best) {
			best = dist;
			pick = (int)i;
			low = l;
			high = h;
		}
	}
	if (pick >= 0)
		*ret_why = low == high ? g_strdup_printf(_("the type the policy gives port %u, "
							   "next to it"), low)
				       : g_strdup_printf(_("the type the policy gives ports "
							   "%u-%u, next to it"), low, high);
	return pick;
}

static int analyze_port(const PortCause *cause, const AdDenial *d, const AdVerdict *v,
			AdPluginEnv *ctx, GPtrArray *ret)
{
	const char *protocol = ad_port_protocol_of_class(d->tclass);
	const char *perms[] = { cause->perm };
	gboolean bind = strcmp(cause->perm, "name_bind") == 0;
	g_autofree char *stype = NULL, *cur = NULL, *in_policy = NULL, *port = NULL;
	g_autofree char *others = NULL, *why = NULL;
	g_autoptr(GPtrArray) allowed = NULL;
	g_autoptr(GPtrArray) candidates = NULL;
	g_autoptr(AdMsg) then = ad_msg_new();
	SortData sd;
	const char *best;
	gboolean defined, generic, named;
	int near = -1;
	const char *flag, *verb;
	AdSuggestion *s;
	double conf;

	if (!protocol || !ad_denial_has_perm(d, cause->perm))
		return 0;
	if (d->port < 0 || d->port > 65535)
		return 0; /* the record does not say which port: nothing to label */
	stype = ad_denial_stype(d);
	cur = ad_denial_ttype(d);
	if (!stype || !cur)
		return 0;

	allowed = ad_policy_types_allowed(ctx->policy, stype, d->tclass, perms, 1, "port_type");
	if (!allowed)
		return 0;
	/* generic types are not offered: labelling a service's port "any port" helps nobody */
	candidates = g_ptr_array_new();
	for (guint i = 0; i < allowed->len; i++) {
		const char *t = g_ptr_array_index(allowed, i);

		if (strcmp(t, cur) != 0 && !ad_policy_port_type_is_generic(ctx->policy, t))
			g_ptr_array_add(candidates, (gpointer)t);
	}
	if (!candidates->len)
		return 0;
	sd.stype = stype;
	g_ptr_array_sort_with_data(candidates, candidate_cmp, &sd);
	best = g_ptr_array_index(candidates, 0);
	named = domain_score(stype, best) > 0;
	if (!named && (near = evidence_type(ctx, d, protocol, candidates, &why)) >= 0)
		best = g_ptr_array_index(candidates, near);

	port = g_strdup_printf("%" PRId64, d->port);
	defined = ad_policy_port_is_defined(ctx->policy, protocol, (guint)d->port);
	generic = ad_policy_port_type_is_generic(ctx->policy, cur);
	in_policy = ad_policy_port_type(ctx->policy, protocol, (guint)d->port);
	flag = defined ? "-m" : "-a";
	verb = bind ? N_("bind to") : N_("connect to");	/* msgids: translated where read */

	if (in_policy && strcmp(in_policy, cur) != 0 &&
	    g_ptr_array_find_with_equal_func(allowed, in_policy, g_str_equal, NULL)) {
		/* relabelled since it was logged (or on another machine): nothing to do here */
		s = ad_suggestion_new(cause->id, AD_FIX_INFO, 0.6, AD_LEVEL_GREEN);
		ad_suggestion_set_if(s, N_("If this was logged before port %s/%s was relabelled"),
				     port, protocol);
		ad_suggestion_set_then(s, N_("Then nothing needs to be done: this policy labels the "
					    "port %s, which %s may %s; it was %s when this was "
					    "logged."), in_policy, stype, verb, cur);
		ad_suggestion_then_arg_msgid(s, 2);
		g_ptr_array_add(ret, s);
		return 1;
	}
	if (!bind && !generic && in_policy && strcmp(in_policy, cur) == 0) {
		/*
		 * The port belongs to a service and the domain connects to it: it
		 * is that service's client.  The fix allows the client (the
		 * boolean, or the local module, above); relabelling the port would
		 * take it from the service at its next start.
		 */
		s = ad_note_new(cause->id, 0.3);
		ad_suggestion_set_if(s, N_("If you thought of relabelling port %s/%s for %s"), port,
				     protocol, stype);
		ad_suggestion_set_then(s, N_("Then know that the port belongs to a service: the "
					    "policy labels it %s, and %s connects to it as that "
					    "service's client. Allow the connection (a boolean or the "
					    "local module above); relabelling the port would take it "
					    "from the service."), cur, stype);
		g_ptr_array_add(ret, s);
		return 1;
	}
	if (!named && !generic && v->reason == AD_REASON_BOOLEAN) {
		/* another service's port, usable under a boolean: the boolean is the fix */
		others = type_list(candidates, 0, AD_PORT_TYPES_SHOWN);
		s = ad_note_new(cause->id, 0.3);
		ad_suggestion_set_if(s, N_("If you want to allow %s to %s port %s/%s"), stype, verb,
				     port, protocol);
		ad_suggestion_if_arg_msgid(s, 1);
		ad_suggestion_set_then(s, N_("Then use a boolean above rather than relabelling the "
					    "port: it has the type %s of another service, which %s "
					    "may %s when the boolean is on, and none of the port "
					    "types it may %s now is named after it (%s)."),
				       cur, stype, verb, verb, others);
		ad_suggestion_then_arg_msgid(s, 2);
		ad_suggestion_then_arg_msgid(s, 3);
		g_ptr_array_add(ret, s);
		return 1;
	}

	if (named)
		conf = generic ? 0.85 : 0.6;
	else
		conf = generic ? 0.3 : 0.2;
	if (v->reason == AD_REASON_BOOLEAN)
		conf = MIN(conf, 0.5); /* the boolean plugin's answer comes first */
	s = ad_suggestion_new(cause->id, named || near >= 0 ? AD_FIX_PORT : AD_FIX_CONFIG, conf,
			      named && generic && !defined ? AD_LEVEL_GREEN : AD_LEVEL_YELLOW);
	ad_suggestion_set_if(s, N_("If you want to allow %s to %s port %s/%s"), stype, verb, port,
			     protocol);
	ad_suggestion_if_arg_msgid(s, 1);
	if (named) {
		ad_msg_add(then, N_("Then label port %s/%s with %s, the port type "
					       "named after %s."), port, protocol, best, stype);
		if (candidates->len > 1) {
			others = type_list(candidates, 1, AD_PORT_TYPES_SHOWN);
			ad_msg_add(then, N_(" Other port types it may %s: %s."), verb,
				   others);
			ad_msg_set_arg(then, 0, NULL);
		}
	} else if (near >= 0) {
		ad_msg_add(then, N_("Then label port %s/%s with %s, %s, if the port "
					       "belongs to that service: none of the port types "
					       "%s may %s is named after it."),
				       port, protocol, best, why, stype, verb);
		ad_msg_set_arg(then, 5, NULL);
		if (candidates->len > 1) {
			g_autoptr(GPtrArray) rest = g_ptr_array_new();

			for (guint i = 0; i < candidates->len; i++)
				if ((int)i != near)
					g_ptr_array_add(rest, g_ptr_array_index(candidates, i));
			others = type_list(rest, 0, AD_PORT_TYPES_SHOWN);
			ad_msg_add(then, N_(" Other port types it may %s: %s."), verb,
				   others);
			ad_msg_set_arg(then, 0, NULL);
		}
	} else {
		/* nothing to go by: a guessed type could give the port to the wrong service */
		others = type_list(candidates, 0, AD_PORT_TYPES_SHOWN);
		ad_msg_add(then, N_("Then label the port with the type of the service "
					       "it belongs to, if %s may %s that type (semanage "
					       "port %s). The port types %s may %s are %s; none is "
					       "named after it, after the program, or given to ports "
					       "next to this one. The commands below show how the "
					       "policy labels this port, and the rules that let %s "
					       "%s ports, with their types."),
				       stype, verb, flag, stype, verb, others, stype, verb);
		ad_msg_set_arg(then, 1, NULL);
		ad_msg_set_arg(then, 4, NULL);
		ad_msg_set_arg(then, 7, NULL);
	}
	if (generic)
		ad_msg_add(then, N_(" The port has the generic type %s now: no "
					       "service claims it."), cur);
	else
		ad_msg_add(then, N_(" The port is labelled %s now: programs that use "
					       "it as %s lose it when it changes."), cur, cur);
	if (defined)
		ad_msg_add(then, N_(" The policy defines port %s/%s itself, so "
					       "\"semanage port -a\" would fail with \"already "
					       "defined\": -m changes its type."), port, protocol);
	if (in_policy && strcmp(in_policy, cur) != 0)
		ad_msg_add(then, N_(" This policy labels the port %s, not %s as logged: "
					       "it was changed since, or the log comes from "
					       "another machine."), in_policy, cur);
	if (v->reason == AD_REASON_BOOLEAN)
		ad_msg_add(then, N_(" A boolean would allow %s on %s as it is "
					       "(see above): labelling the port is the narrower "
					       "change."), cause->perm, cur);
	ad_suggestion_take_then(s, g_steal_pointer(&then));
	if (named || near >= 0) {
		ad_suggestion_add_command(s, "semanage", "port", flag, "-t", best, "-p", protocol,
					  port, NULL);
	} else {
		ad_suggestion_add_command(s, "seinfo", "--portcon", port, NULL);
		ad_suggestion_add_command(s, "sesearch", "-A", "-s", stype, "-c", d->tclass,
					  "-p", cause->perm, NULL);
	}
	g_ptr_array_add(ret, s);
	return 1;
}

static const PortCause bind_cause = { "bind_ports", "name_bind" };
static const PortCause connect_cause = { "connect_ports", "name_connect" };

static int analyze_bind(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx, GPtrArray *ret)
{
	return analyze_port(&bind_cause, d, v, ctx, ret);
}

static int analyze_connect(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx,
			   GPtrArray *ret)
{
	return analyze_port(&connect_cause, d, v, ctx, ret);
}

const AdPlugin ad_plugin_bind_ports = {
	.id = "bind_ports",
	.priority = 100,
	.perms = AD_NAMES("name_bind"),
	.reasons = AD_REASONS_RULE,
	.analyze = analyze_bind,
};

const AdPlugin ad_plugin_connect_ports = {
	.id = "connect_ports",
	.priority = 100,
	.perms = AD_NAMES("name_connect"),
	.reasons = AD_REASONS_RULE,
	.analyze = analyze_connect,
};
