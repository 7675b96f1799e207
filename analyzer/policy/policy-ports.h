/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * Port labels of the loaded policy (its portcon statements): what type a
 * port number has, whether `semanage port -a` or `-m` is the command that
 * changes it, and which port types are the generic ones that label whole
 * ranges.  For the bind_ports / connect_ports plugins.
 */
#include <glib.h>

#include "policy/policy.h"

G_BEGIN_DECLS

/* "tcp" for tcp_socket, "udp", "sctp", "dccp"; NULL for classes without port numbers */
const char *ad_port_protocol_of_class(const char *tclass);

/*
 * The type of @port of @protocol ("tcp", "udp", "sctp", "dccp") in the
 * policy: the first portcon entry that covers it, as the kernel picks
 * (the policy lists single ports before the ranges that hold them), else
 * the type of the "port" initial SID (port_t).  8080/tcp → http_cache_port_t,
 * 40000/tcp → unreserved_port_t in refpolicy.  Cached per policy.  Owned;
 * NULL for an unknown protocol or a port above 65535.
 */
char *ad_policy_port_type(AdPolicy *p, const char *protocol, guint port);

/*
 * TRUE when a portcon entry names exactly this one port (not a range
 * holding it).  `semanage port -a` refuses such a port ("already
 * defined"): only `semanage port -m` changes its type.
 */
gboolean ad_policy_port_is_defined(AdPolicy *p, const char *protocol, guint port);

/*
 * TRUE when @type is a generic port type: the type of the "port" initial
 * SID or of a portcon range of 256 ports or more (reserved_port_t,
 * hi_reserved_port_t, unreserved_port_t, ephemeral_port_t).  A program
 * denied such a port uses one that no service claims: labelling it for
 * the program takes nothing from anybody.
 */
gboolean ad_policy_port_type_is_generic(AdPolicy *p, const char *type);

/*
 * How far @port lies from the nearest port the policy labels @type on
 * @protocol (0: inside one of its portcon entries), and that entry's
 * range in @ret_low and @ret_high (may be NULL).  G_MAXUINT when no
 * portcon entry gives @type.
 */
guint ad_policy_port_type_distance(AdPolicy *p, const char *protocol, const char *type,
				   guint port, guint *ret_low, guint *ret_high);

G_END_DECLS
