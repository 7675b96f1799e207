// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Possible intrusions (red alerts): accesses that confined programs never
 * need and that an attacker needs to take over the kernel or SELinux
 * itself.  One file, five causes, setroubleshoot's names and one of ours:
 *
 *   sys_module      load a kernel module (capability sys_module, system
 *                   module_load)
 *   kernel_modules  change kernel modules or what boots (modules_object_t,
 *                   modules_dep_t, modules_conf_t, kmod_exec_t, boot_t,
 *                   system_map_t)
 *   selinuxpolicy   change the SELinux policy, its configuration or the
 *                   programs that load and apply it
 *   setenforce      switch SELinux off or load a policy (security class),
 *                   or write to selinuxfs (security_t)
 *   credentials     change credential files: password and group files,
 *                   sudoers, PAM, SSH host keys and others' authorized_keys,
 *                   the policy's authentication and security file types
 *                   (see ad_safety_credential_target())
 *
 * The type lists are checked against the loaded policy (a name it lacks
 * is skipped).  The alert is red unless the policy itself foresees the
 * access: a boolean grants it to this domain (the admin's lock-down
 * secure_mode_insmod / secure_mode_policyload is named as such), or the
 * domain may already change other files of the same kind (a policy or
 * boot tool missing one rule: a bug, not an attack), or the domain is a
 * login user's whose SELinux user may take an administrator's role in
 * which it would be allowed (an administrator in the wrong role, or a
 * setuid helper run from a user's session such as grub2-set-bootflag).
 */
#include <string.h>
#include <sys/stat.h>

#include <glib/gi18n.h>

#include "analysis/safety.h"
#include "plugins.h"

/* permissions that change a file or its directory entry */
static const char *const write_perms[] = {
	"write", "append", "create", "setattr", "unlink", "rename", "link", "add_name",
	"remove_name", "rmdir", "reparent", "relabelfrom", "relabelto", "mounton", NULL,
};

typedef struct {
	const char *id;
	/* capability-like checks: the class and permissions that match alone */
	const char *const *classes;
	const char *const *perms;
	/* file checks: write_perms on these types */
	const char *const *types;
	/* or on the files this says are of the kind (static text naming it, or NULL) */
	const char *(*target)(AdPluginEnv *ctx, const AdDenial *d, const char *ttype);
	const char *lockdown;		/* the boolean that locks this down, or NULL */
	gboolean unsure;		/* not enough to call it an attack: yellow */
	gboolean own_check;		/* a boolean granting the access does not make it safe */
	const char *what;		/* "load a kernel module" */
	const char *then_text;		/* the red explanation */
} Indicator;

static const char *const cap_classes[] = { "capability", "cap_userns", NULL };
static const char *const sys_module_perms[] = { "sys_module", NULL };
static const char *const system_classes[] = { "system", NULL };
static const char *const module_load_perms[] = { "module_load", NULL };
static const char *const security_classes[] = { "security", NULL };
static const char *const security_perms[] = {
	"setenforce", "load_policy", "setbool", "setsecparam", "setcheckreqprot", NULL,
};
static const char *const module_types[] = {
	"modules_object_t", "modules_dep_t", "modules_conf_t", "kmod_exec_t", "insmod_exec_t",
	"boot_t", "system_map_t", NULL,
};
static const char *const policy_types[] = {
	"selinux_config_t", "default_context_t", "file_context_t", "policy_config_t",
	"policy_src_t", "semanage_store_t", "semanage_read_lock_t", "semanage_trans_lock_t",
	"selinux_var_lib_t", "load_policy_exec_t", "setfiles_exec_t", "checkpolicy_exec_t",
	"semanage_exec_t", "setsebool_exec_t", "newrole_exec_t", "run_init_exec_t",
	"restorecond_exec_t", NULL,
};
static const char *const selinuxfs_types[] = { "security_t", NULL };

static const Indicator sys_module = {
	.id = "sys_module",
	.classes = cap_classes,
	.perms = sys_module_perms,
	.lockdown = "secure_mode_insmod",
	.what = N_("load a kernel module"),
	.then_text = N_("Then treat this as a possible intrusion: a module runs with the "
			"kernel's full power, and confined programs that need one are "
			"allowed it by the policy already. Find out what ran (command line, "
			"executable, parent process, the module asked for), check the system, "
			"and do not allow it."),
};
static const Indicator module_load = {
	.id = "sys_module",
	.classes = system_classes,
	.perms = module_load_perms,
	.lockdown = "secure_mode_insmod",
	.what = N_("load a kernel module from this file"),
	.then_text = N_("Then treat this as a possible intrusion: the module file has a "
			"label kernel modules never have, and a module runs with the kernel's "
			"full power. Find the file and what ran, check the system, and do not "
			"allow it."),
};
static const Indicator kernel_modules = {
	.id = "kernel_modules",
	.types = module_types,
	.what = N_("change kernel modules or boot files"),
	.then_text = N_("Then treat this as a possible intrusion: changing the kernel's "
			"modules or what the machine boots lets a program take over the "
			"kernel; confined programs other than the package manager and the "
			"boot loader tools never need it. Find out what ran, check the "
			"system, and do not allow it."),
};
static const Indicator selinuxpolicy = {
	.id = "selinuxpolicy",
	.types = policy_types,
	.what = N_("change the SELinux policy or its tools"),
	.then_text = N_("Then treat this as a possible intrusion: changing the policy, its "
			"configuration or the programs that load and apply it turns SELinux "
			"off in all but name; only the policy management tools may do it. "
			"Find out what ran, check the system, and do not allow it."),
};
static const Indicator setenforce = {
	.id = "setenforce",
	.classes = security_classes,
	.perms = security_perms,
	.lockdown = "secure_mode_policyload",
	.what = N_("switch SELinux to permissive mode or load a policy"),
	.then_text = N_("Then treat this as a possible intrusion: the program tried to turn "
			"SELinux off or to replace its policy. Find out what ran, check the "
			"system, and do not allow it."),
};
/*
 * Writing a selinuxfs node needs write on security_t, which booleans grant
 * for policy queries (allow_kerberos): for the enforce, load or booleans
 * nodes that is no excuse.
 */
static const Indicator selinuxfs = {
	.id = "setenforce",
	.types = selinuxfs_types,
	.own_check = TRUE,
	.what = N_("write to the SELinux file system"),
	.then_text = N_("Then treat this as a possible intrusion: writing to /sys/fs/selinux "
			"switches enforcing mode, booleans or the policy. Find out what ran, "
			"check the system, and do not allow it."),
};

/* what a credential file is, by the policy's attributes, the type's name or the path */
static const char *credential_target(AdPluginEnv *ctx, const AdDenial *d, const char *ttype)
{
	g_autofree char *path = ad_denial_path_str(d);

	if (!ad_class_is_file(d->tclass))
		return NULL;
	return ad_safety_credential_target(ctx->policy, ttype, path);
}

static const Indicator credentials = {
	.id = "credentials",
	.types = ad_safety_credential_types,
	.target = credential_target,
	.what = N_("change password, sudo, PAM or SSH credential files"),
	.then_text = N_("Then treat this as a possible intrusion: whoever can change these "
			"files can log in as anybody or become root, and confined services "
			"never need to. Find out what ran (command line, executable, the "
			"request that led to it), check the file and the system, and do not "
			"allow it, nor relabel the file for the program."),
};

/* a write to selinuxfs whose node the record does not name: a query or a switch */
static const Indicator selinuxfs_unnamed = {
	.id = "setenforce",
	.types = selinuxfs_types,
	.unsure = TRUE,
	.what = N_("write to the SELinux file system"),
	.then_text = N_("Then find out which file it wrote: SELinux-aware programs write to "
			"/sys/fs/selinux/context or access to ask the policy questions, "
			"which is harmless, but writing enforce, load or booleans switches "
			"SELinux, which is an intrusion unless an administrator's tool did it."),
};

static gboolean in_list(const char *const *list, const char *s)
{
	for (guint i = 0; list && list[i]; i++)
		if (g_strcmp0(list[i], s) == 0)
			return TRUE;
	return FALSE;
}

/* the first denied permission of @list, or NULL */
static const char *denied_in(const AdDenial *d, const char *const *list)
{
	for (guint i = 0; d->perms && i < d->perms->len; i++)
		if (in_list(list, g_ptr_array_index(d->perms, i)))
			return g_ptr_array_index(d->perms, i);
	return NULL;
}

/* Is turning @lockdown off one of the verdict's ways to allow the access? */
static gboolean locked_down(const AdVerdict *v, const char *lockdown)
{
	if (!lockdown || !v->booleans || !v->booleans->len)
		return FALSE;
	for (guint i = 0; i < v->booleans->len; i++) {
		GPtrArray *alt = g_ptr_array_index(v->booleans, i);

		for (guint j = 0; j < alt->len; j++) {
			AdBoolSetting *b = g_ptr_array_index(alt, j);

			if (strcmp(b->name, lockdown) == 0 && !b->value)
				return TRUE;
		}
	}
	return FALSE;
}

/*
 * A type of @types other than @ttype that @stype may already change with
 * @perm on @tclass: the domain is a tool that manages such files.
 * Borrowed from @types, or NULL.
 */
static const char *manages_kind(AdPolicy *p, const char *stype, const char *tclass,
				const char *perm, const char *const *types, const char *ttype)
{
	const char *perms[] = { perm };
	g_autoptr(GPtrArray) allowed = ad_policy_types_allowed(p, stype, tclass, perms, 1, NULL);

	for (guint i = 0; allowed && types[i]; i++)
		if (strcmp(types[i], ttype) != 0 &&
		    g_ptr_array_find_with_equal_func(allowed, types[i], g_str_equal, NULL))
			return types[i];
	return NULL;
}

/*
 * May @domain have @perm of @tclass on @target?  @target may be an alias
 * (Fedora's policy_config_t of semanage_store_t): the policy answers with
 * primary names.
 */
static gboolean domain_may(AdPolicy *p, const char *domain, const char *tclass, const char *perm,
			   const char *target)
{
	const char *perms[] = { perm };
	g_autoptr(GPtrArray) t = ad_policy_types_allowed(p, domain, tclass, perms, 1, NULL);
	const char *primary = ad_policy_type_primary(p, target);

	return t && g_ptr_array_find_with_equal_func(t, primary ? primary : target, g_str_equal,
						     NULL);
}

/*
 * A login user's domain (attribute userdomain) denied what an
 * administrator's role allows: the SELinux user of @d may take another
 * role whose own domain (sysadm_r: sysadm_t), or a domain it starts in
 * that role (semanage_t, bootloader_t), may do it.  That is an
 * administrator who did not change role, or a setuid helper run from a
 * user's session, not an intruder.  Returns the role (owned) and sets
 * @ret_domain, or NULL.  On the domain itself (capabilities), the target
 * is each candidate domain.
 */
static char *admin_role_may(AdPluginEnv *actx, const AdDenial *d, const char *stype,
			    const char *ttype, const char *perm, char **ret_domain)
{
	AdPolicy *p = actx->policy;
	g_auto(GStrv) ctx = d->scontext ? g_strsplit(d->scontext, ":", 4) : NULL;
	g_autoptr(GPtrArray) roles = NULL;
	g_autofree char *own = ad_denial_program_domain(actx, d, NULL);
	gboolean self = strcmp(stype, ttype) == 0;
	const char *trans[] = { "transition" };

	if (!ctx || g_strv_length(ctx) < 3 || !ad_policy_type_has_attribute(p, stype, "userdomain"))
		return NULL;
	roles = ad_policy_user_roles(p, ctx[0]);
	for (guint i = 0; roles && i < roles->len; i++) {
		const char *role = g_ptr_array_index(roles, i);
		g_autofree char *main = NULL;
		g_autoptr(GPtrArray) started = NULL;

		if (strcmp(role, ctx[1]) == 0 || strcmp(role, "system_r") == 0 ||
		    !g_str_has_suffix(role, "_r"))
			continue;
		main = g_strdup_printf("%.*s_t", (int)strlen(role) - 2, role);
		if (!ad_policy_role_has_type(p, role, main))
			continue;
		started = ad_policy_types_allowed(p, main, "process", trans, 1, NULL);
		/* the program's own domain first: load_policy_t for load_policy */
		if (own && started && ad_policy_role_has_type(p, role, own) &&
		    g_ptr_array_find_with_equal_func(started, own, g_str_equal, NULL) &&
		    domain_may(p, own, d->tclass, perm, self ? own : ttype)) {
			*ret_domain = g_steal_pointer(&own);
			return g_strdup(role);
		}
		if (domain_may(p, main, d->tclass, perm, self ? main : ttype)) {
			*ret_domain = g_steal_pointer(&main);
			return g_strdup(role);
		}
		for (guint j = 0; started && j < started->len; j++) {
			const char *t = g_ptr_array_index(started, j);

			if (ad_policy_role_has_type(p, role, t) &&
			    domain_may(p, t, d->tclass, perm, self ? t : ttype)) {
				*ret_domain = g_strdup(t);
				return g_strdup(role);
			}
		}
	}
	return NULL;
}

/* "If you did not expect httpd_t to load kernel modules": the deed translated where read */
static void set_if_unexpected(AdSuggestion *s, const char *stype, const Indicator *ind)
{
	AdMsg *m = ad_msg_new();

	ad_msg_add(m, N_("If you did not expect %s to %s"), stype, ind->what);
	ad_msg_set_arg(m, 1, NULL);
	ad_suggestion_take_if(s, m);
}

static int analyze_indicator(const Indicator *ind, const AdDenial *d, const AdVerdict *v,
			     AdPluginEnv *ctx, GPtrArray *ret)
{
	g_autofree char *stype = NULL, *ttype = NULL;
	g_autofree char *admin_role = NULL, *admin_domain = NULL;
	const char *perm, *peer = NULL;
	AdSuggestion *s;
	AdMsg *m;

	if (!d->tclass)
		return 0;
	stype = ad_denial_stype(d);
	ttype = ad_denial_ttype(d);
	if (!stype || !ttype)
		return 0;
	if (ind->classes) {
		if (!in_list(ind->classes, d->tclass) || !(perm = denied_in(d, ind->perms)))
			return 0;
	} else if (ind->target) {
		if (!ind->target(ctx, d, ttype) || !(perm = denied_in(d, write_perms)))
			return 0;
		peer = manages_kind(ctx->policy, stype, d->tclass, perm, ind->types, ttype);
	} else {
		if (!in_list(ind->types, ttype) || !ad_policy_has_type(ctx->policy, ttype) ||
		    !(perm = denied_in(d, write_perms)))
			return 0;
		peer = manages_kind(ctx->policy, stype, d->tclass, perm, ind->types, ttype);
	}

	if (locked_down(v, ind->lockdown)) {
		s = ad_note_new(ind->id, 0.5);
		ad_suggestion_set_if(s, N_("If %s was denied %s although it is a program that may "
					  "do this"), stype, perm);
		ad_suggestion_set_then(s, N_("Then know that %s is on: the administrator locked "
					    "this down for every domain, so it stays denied until "
					    "the boolean is turned off (if it can be: it may be "
					    "locked until the next boot)."), ind->lockdown);
		g_ptr_array_add(ret, s);
		return 1;
	}
	if (v->booleans && v->booleans->len && !ind->own_check) {
		s = ad_note_new(ind->id, 0.35);
		set_if_unexpected(s, stype, ind);
		ad_suggestion_set_then(s, N_("Then be careful with the boolean above: this access "
					    "is how intruders take over the kernel or SELinux, "
					    "although this policy foresees it for %s when the "
					    "boolean is on. Turn it on only if you know why %s "
					    "needs %s."), stype, stype, perm);
		g_ptr_array_add(ret, s);
		return 1;
	}
	if (peer) {
		s = ad_suggestion_new(ind->id, AD_FIX_REPORT_BUG, 0.4, AD_LEVEL_YELLOW);
		set_if_unexpected(s, stype, ind);
		ad_suggestion_set_then(s, N_("Then check what ran, but this is probably a missing "
					    "rule rather than an attack: %s may already %s files "
					    "labelled %s, so it is a tool that manages such files. "
					    "Report it against the policy."), stype, perm, peer);
		g_ptr_array_add(ret, s);
		return 1;
	}
	admin_role = admin_role_may(ctx, d, stype, ttype, perm, &admin_domain);
	if (admin_role) {
		s = ad_suggestion_new(ind->id, AD_FIX_CONFIG, 0.5, AD_LEVEL_YELLOW);
		/* the policy keeps this from user domains on purpose: no module for it */
		s->expected = TRUE;
		ad_suggestion_set_if(s, N_("If an administrator ran this as %s"), stype);
		m = ad_msg_new();
		ad_msg_add(m, N_("Then run it in the administrator's role: %s, a login "
				 "user's domain, may not %s, but the SELinux user may "
				 "take the role %s, in which %s may (sudo -r %s, or "
				 "newrole -r %s first). This is what an administrator "
				 "who did not change role, or a setuid helper started "
				 "from a user's session, looks like. If nobody meant to "
				 "%s, find out what ran: then it may be an intrusion."),
			   stype, ind->what, admin_role, admin_domain, admin_role,
			   admin_role, ind->what);
		ad_msg_set_arg(m, 1, NULL);
		ad_msg_set_arg(m, 6, NULL);
		ad_suggestion_take_then(s, m);
		g_ptr_array_add(ret, s);
		return 1;
	}
	/* a boolean that grants the access for another purpose must not come first */
	s = ad_suggestion_new(ind->id, AD_FIX_ATTACK,
			      ind->unsure ? 0.4 : v->booleans && v->booleans->len ? 0.95 : 0.7,
			      ind->unsure ? AD_LEVEL_YELLOW : AD_LEVEL_RED);
	set_if_unexpected(s, stype, ind);
	m = ad_msg_new();
	if (v->booleans && v->booleans->len) {
		ad_msg_add(m, N_("%s A boolean grants this access for another purpose: "
				 "do not turn it on for this."), ind->then_text);
		ad_msg_set_arg(m, 0, NULL);
	} else {
		ad_msg_add(m, "%s", ind->then_text);
		ad_msg_set_arg(m, 0, NULL);
	}
	ad_suggestion_take_then(s, m);
	g_ptr_array_add(ret, s);
	return 1;
}

static int analyze_sys_module(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx,
			      GPtrArray *ret)
{
	int r = analyze_indicator(&sys_module, d, v, ctx, ret);

	return r ? r : analyze_indicator(&module_load, d, v, ctx, ret);
}

static int analyze_kernel_modules(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx,
				  GPtrArray *ret)
{
	return analyze_indicator(&kernel_modules, d, v, ctx, ret);
}

static int analyze_selinuxpolicy(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx,
				 GPtrArray *ret)
{
	return analyze_indicator(&selinuxpolicy, d, v, ctx, ret);
}

/*
 * What a write to selinuxfs (security_t) is for, from the node's name:
 * 1 for switching SELinux (enforce, load, booleans, ...), 0 for policy
 * queries every SELinux-aware program makes (context, access, create,
 * ...), -1 when the record does not name the node.
 */
static int selinuxfs_write_is_switch(const AdDenial *d)
{
	static const char *const switches[] = {
		"enforce", "load", "commit_pending_bools", "checkreqprot", "disable", NULL,
	};
	g_autofree char *path = ad_denial_path_str(d);
	g_autofree char *name = NULL;

	if (path && strstr(path, "/booleans/"))
		return 1;
	if (path)
		name = g_path_get_basename(path);
	else if (d->name.data)
		name = g_strndup(d->name.data, d->name.len);
	if (!name || !*name)
		return -1;
	return in_list(switches, name) ? 1 : 0;
}

static int analyze_setenforce(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx,
			      GPtrArray *ret)
{
	int r = analyze_indicator(&setenforce, d, v, ctx, ret);

	if (r)
		return r;
	switch (selinuxfs_write_is_switch(d)) {
	case 1:
		return analyze_indicator(&selinuxfs, d, v, ctx, ret);
	case 0:
		return 0;
	default:
		return analyze_indicator(&selinuxfs_unnamed, d, v, ctx, ret);
	}
}

static int analyze_credentials(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx,
			       GPtrArray *ret)
{
	return analyze_indicator(&credentials, d, v, ctx, ret);
}

const AdPlugin ad_plugin_credentials = {
	.id = "credentials",
	.priority = 10,
	.classes = AD_FILE_CLASSES,
	.reasons = AD_REASONS_RULE,
	.analyze = analyze_credentials,
};

const AdPlugin ad_plugin_sys_module = {
	.id = "sys_module",
	.priority = 100,
	.reasons = AD_REASONS_RULE,
	.analyze = analyze_sys_module,
};

const AdPlugin ad_plugin_kernel_modules = {
	.id = "kernel_modules",
	.priority = 10,
	.reasons = AD_REASONS_RULE,
	.analyze = analyze_kernel_modules,
};

const AdPlugin ad_plugin_selinuxpolicy = {
	.id = "selinuxpolicy",
	.priority = 10,
	.reasons = AD_REASONS_RULE,
	.analyze = analyze_selinuxpolicy,
};

const AdPlugin ad_plugin_setenforce = {
	.id = "setenforce",
	.priority = 10,
	.reasons = AD_REASONS_RULE,
	.analyze = analyze_setenforce,
};
