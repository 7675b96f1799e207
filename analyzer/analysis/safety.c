// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The safety policy for fixes: which suggestion may be applied with one
 * click, which must be done by hand, which is never suggested.  See
 * safety.h.  A fix that is proved to stop a denial is not yet a fix that
 * is right: relabelling /etc/sudoers for a web server stops its denial
 * and hands it the machine.  The rules here are the allow-list the
 * analysis, every front end and the fix helper share.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "config.h"
#include "escape.h"
#include "analysis/safety.h"
#include "policy/policy-ports.h"
#include "read/denial.h"

/* ------------------------------------------------------------ protected paths */

/*
 * A protected path: @path itself, and everything under it when it ends
 * in "/".  @never: no label fix at all; otherwise one by hand only (a
 * configuration file that may be the site's own).
 */
typedef struct {
	const char *path;
	const char *what;
	gboolean never;
} Protected;

#define CRED N_("a password, group or login file")
#define SUDO N_("sudo's configuration")
#define PAM N_("the PAM configuration")
#define SSH N_("SSH's configuration or keys")
#define SELINUX N_("SELinux's configuration or policy")
#define SYSCONF N_("a system configuration file")
#define UNITS N_("systemd's units or configuration")
#define CRON N_("a cron table")
#define BOOT N_("the boot loader's or the kernel's files")
#define KMOD N_("kernel modules")
#define PROGS N_("system programs and libraries")
#define LOCAL N_("the site's own programs under /usr/local")
#define PKGDB N_("the package database")
#define AUDIT N_("the audit logs or rules")
#define OWN N_("avcdoctor's own files")
#define ROOTHOME N_("the administrator's home directory")

static const Protected protected_paths[] = {
	{ "/etc/passwd", CRED, TRUE }, { "/etc/passwd-", CRED, TRUE },
	{ "/etc/shadow", CRED, TRUE }, { "/etc/shadow-", CRED, TRUE },
	{ "/etc/group", CRED, TRUE }, { "/etc/group-", CRED, TRUE },
	{ "/etc/gshadow", CRED, TRUE }, { "/etc/gshadow-", CRED, TRUE },
	{ "/etc/npasswd", CRED, TRUE }, { "/etc/nshadow", CRED, TRUE },
	{ "/etc/ngroup", CRED, TRUE }, { "/etc/ptmp", CRED, TRUE },
	{ "/etc/.pwd.lock", CRED, TRUE }, { "/etc/subuid", CRED, TRUE },
	{ "/etc/subgid", CRED, TRUE }, { "/etc/login.defs", CRED, TRUE },
	{ "/etc/securetty", CRED, TRUE }, { "/etc/shells", CRED, TRUE },
	{ "/etc/sudoers", SUDO, TRUE }, { "/etc/sudoers.d/", SUDO, TRUE },
	{ "/etc/sudo.conf", SUDO, TRUE },
	{ "/etc/pam.d/", PAM, TRUE }, { "/etc/pam.conf", PAM, TRUE },
	{ "/etc/security/", PAM, TRUE },
	{ "/etc/ssh/", SSH, TRUE },
	{ "/etc/selinux/", SELINUX, TRUE }, { "/var/lib/selinux/", SELINUX, TRUE },
	{ "/etc/fstab", SYSCONF, TRUE }, { "/etc/crypttab", SYSCONF, TRUE },
	{ "/etc/mtab", SYSCONF, TRUE }, { "/etc/nsswitch.conf", SYSCONF, TRUE },
	{ "/etc/ld.so.conf", SYSCONF, TRUE }, { "/etc/ld.so.conf.d/", SYSCONF, TRUE },
	{ "/etc/ld.so.preload", SYSCONF, TRUE }, { "/etc/ld.so.cache", SYSCONF, TRUE },
	{ "/etc/profile", SYSCONF, TRUE }, { "/etc/profile.d/", SYSCONF, TRUE },
	{ "/etc/environment", SYSCONF, TRUE }, { "/etc/sysctl.conf", SYSCONF, TRUE },
	{ "/etc/sysctl.d/", SYSCONF, TRUE }, { "/etc/modprobe.d/", SYSCONF, TRUE },
	{ "/etc/modules-load.d/", SYSCONF, TRUE }, { "/etc/modules", SYSCONF, TRUE },
	{ "/etc/default/", SYSCONF, TRUE }, { "/etc/polkit-1/", SYSCONF, TRUE },
	{ "/etc/dbus-1/", SYSCONF, TRUE }, { "/etc/init.d/", SYSCONF, TRUE },
	{ "/etc/rc.local", SYSCONF, TRUE }, { "/etc/hosts", SYSCONF, TRUE },
	{ "/etc/resolv.conf", SYSCONF, TRUE }, { "/etc/machine-id", SYSCONF, TRUE },
	{ "/etc/systemd/", UNITS, TRUE }, { "/run/systemd/", UNITS, TRUE },
	{ "/etc/crontab", CRON, TRUE }, { "/etc/anacrontab", CRON, TRUE },
	{ "/etc/cron.d/", CRON, TRUE }, { "/etc/cron.hourly/", CRON, TRUE },
	{ "/etc/cron.daily/", CRON, TRUE }, { "/etc/cron.weekly/", CRON, TRUE },
	{ "/etc/cron.monthly/", CRON, TRUE }, { "/var/spool/cron/", CRON, TRUE },
	{ "/etc/audit/", AUDIT, TRUE }, { "/var/log/audit/", AUDIT, TRUE },
	{ "/etc/avcdoctor/", OWN, TRUE }, { "/var/lib/avcdoctor/", OWN, TRUE },
	{ "/boot/", BOOT, TRUE }, { "/efi/", BOOT, TRUE },
	{ "/lib/modules/", KMOD, TRUE }, { "/usr/lib/modules/", KMOD, TRUE },
	{ "/usr/lib/systemd/", UNITS, TRUE }, { "/lib/systemd/", UNITS, TRUE },
	{ "/var/lib/dpkg/", PKGDB, TRUE }, { "/var/lib/rpm/", PKGDB, TRUE },
	/* the site's own programs and configuration: a person judges */
	{ "/usr/local/", LOCAL, FALSE },
	{ "/usr/", PROGS, TRUE }, { "/bin/", PROGS, TRUE }, { "/sbin/", PROGS, TRUE },
	{ "/lib/", PROGS, TRUE }, { "/lib32/", PROGS, TRUE }, { "/lib64/", PROGS, TRUE },
	{ "/libx32/", PROGS, TRUE },
	{ "/root/", ROOTHOME, TRUE },
	/* the rest of /etc: a package's or the site's configuration, judged by a person */
	{ "/etc/", SYSCONF, FALSE },
};

/* a user's ~/.ssh, wherever the home directory is */
static const Protected ssh_anywhere = { "/.ssh/", SSH, TRUE };

/* @path is @prefix ("/etc/ssh/": the tree, "/etc/ssh" included) or in it */
static gboolean path_in(const char *path, const char *prefix)
{
	gsize n = strlen(prefix);

	if (prefix[n - 1] != '/')
		return strcmp(path, prefix) == 0;
	/* "/etc/ssh" is the tree "/etc/ssh/" too */
	if (strncmp(path, prefix, n - 1) != 0)
		return FALSE;
	return path[n - 1] == '\0' || path[n - 1] == '/';
}

/*
 * @p is among what a tree spec starting with @prefix covers: a regular
 * expression may go on after any character ("/bo.*" covers /boot), so
 * any path @prefix starts.
 */
static gboolean under(const char *p, const char *prefix)
{
	return strncmp(p, prefix, strlen(prefix)) == 0;
}

/*
 * The protected entry for @path, or NULL.  @tree: the fix covers the
 * whole tree under @path (restorecon -R, a "(/.*)?" file context): then a
 * protected path inside it counts too ("/etc" holds /etc/shadow).
 */
static const Protected *find_protected(const char *path, gboolean tree)
{
	const Protected *match = NULL, *inside = NULL;

	for (guint i = 0; i < G_N_ELEMENTS(protected_paths); i++) {
		const Protected *p = &protected_paths[i];

		if (!match && path_in(path, p->path))
			match = p;
		if (tree && !inside && p->never && under(p->path, path))
			inside = p;
	}
	/* a user's SSH keys and configuration, wherever the home is */
	if (!match && (strstr(path, "/.ssh/") || g_str_has_suffix(path, "/.ssh")))
		match = &ssh_anywhere;
	if (tree && strcmp(path, "/") == 0)
		return &protected_paths[0];
	/* a tree that holds a protected path counts as that one when it is worse */
	if (inside && (!match || !match->never))
		return inside;
	return match;
}

/* a cleaned absolute path ("//", "/./" and a trailing "/" dropped); NULL with ".." or relative */
static char *clean_path(const char *path)
{
	g_auto(GStrv) parts = NULL;
	GString *out;

	if (!path || path[0] != '/')
		return NULL;
	out = g_string_new(NULL);
	parts = g_strsplit(path, "/", -1);
	for (char **p = parts; *p; p++) {
		if (!**p || strcmp(*p, ".") == 0)
			continue;
		if (strcmp(*p, "..") == 0) {
			g_string_free(out, TRUE);
			return NULL;
		}
		g_string_append_c(out, '/');
		g_string_append(out, *p);
	}
	if (!out->len)
		g_string_append_c(out, '/');
	return g_string_free(out, FALSE);
}

const char *ad_safety_protected_path(const char *path)
{
	g_autofree char *clean = clean_path(path);
	const Protected *p = clean ? find_protected(clean, FALSE) : NULL;

	return p ? _(p->what) : NULL;
}

/* ------------------------------------------------------------ credential targets */

/* types whose files hold credentials, by the names both policies use */
const char *const ad_safety_credential_types[] = {
	"shadow_t", "passwd_file_t", "sshd_key_t", "ssh_home_t", "krb5_keytab_t",
	"systemd_homed_record_t", NULL,
};

/* the paths whose writing is an intrusion indicator, whatever their label */
static const Protected credential_paths[] = {
	{ "/etc/passwd", CRED, TRUE }, { "/etc/passwd-", CRED, TRUE },
	{ "/etc/shadow", CRED, TRUE }, { "/etc/shadow-", CRED, TRUE },
	{ "/etc/group", CRED, TRUE }, { "/etc/group-", CRED, TRUE },
	{ "/etc/gshadow", CRED, TRUE }, { "/etc/gshadow-", CRED, TRUE },
	{ "/etc/npasswd", CRED, TRUE }, { "/etc/nshadow", CRED, TRUE },
	{ "/etc/ngroup", CRED, TRUE }, { "/etc/subuid", CRED, TRUE },
	{ "/etc/subgid", CRED, TRUE },
	{ "/etc/sudoers", SUDO, TRUE }, { "/etc/sudoers.d/", SUDO, TRUE },
	{ "/etc/pam.d/", PAM, TRUE }, { "/etc/pam.conf", PAM, TRUE },
	{ "/etc/security/", PAM, TRUE }, { "/etc/ssh/", SSH, TRUE },
	{ "/root/.ssh/", SSH, TRUE },
};

/*
 * Is @ttype a file type the policy itself sets apart as holding
 * authentication or security data?  Fedora's policy names them with the
 * attributes security_file_type (and shadow_t with auth files); the
 * reference policy keeps only the complements non_auth_file_type and
 * non_security_file_type, given to every other file type.
 */
static gboolean policy_security_type(AdPolicy *p, const char *ttype)
{
	static const char *const pairs[][2] = {
		{ "security_file_type", NULL },
		{ NULL, "non_security_file_type" },
		{ NULL, "non_auth_file_type" },
	};

	if (!p || !ad_policy_has_type(p, ttype) ||
	    !ad_policy_type_has_attribute(p, ttype, "file_type"))
		return FALSE;
	for (guint i = 0; i < G_N_ELEMENTS(pairs); i++) {
		const char *has = pairs[i][0], *lacks = pairs[i][1];

		if (has && ad_policy_type_is_attribute(p, has) &&
		    ad_policy_type_has_attribute(p, ttype, has))
			return TRUE;
		if (lacks && ad_policy_type_is_attribute(p, lacks) &&
		    !ad_policy_type_has_attribute(p, ttype, lacks))
			return TRUE;
	}
	return FALSE;
}

gboolean ad_safety_password_type(AdPolicy *policy, const char *ttype)
{
	if (!ttype || !policy || !ad_policy_has_type(policy, ttype))
		return FALSE;
	if (strcmp(ttype, "shadow_t") == 0 || strcmp(ttype, "passwd_file_t") == 0)
		return TRUE;
	return ad_policy_type_is_attribute(policy, "non_auth_file_type") &&
	       ad_policy_type_has_attribute(policy, ttype, "file_type") &&
	       !ad_policy_type_has_attribute(policy, ttype, "non_auth_file_type");
}

const char *ad_safety_credential_target(AdPolicy *policy, const char *ttype, const char *path)
{
	g_autofree char *clean = clean_path(path);

	if (ttype && g_strv_contains(ad_safety_credential_types, ttype) &&
	    (!policy || ad_policy_has_type(policy, ttype)))
		return strcmp(ttype, "sshd_key_t") == 0 || strcmp(ttype, "ssh_home_t") == 0
			       ? _(SSH) : _(CRED);
	if (ttype && policy_security_type(policy, ttype))
		return _("a file the policy keeps for authentication or security data");
	for (guint i = 0; clean && i < G_N_ELEMENTS(credential_paths); i++)
		if (path_in(clean, credential_paths[i].path))
			return _(credential_paths[i].what);
	if (clean && (g_str_has_suffix(clean, "/.ssh/authorized_keys") ||
		      g_str_has_suffix(clean, "/.ssh/authorized_keys2")))
		return _(SSH);
	return NULL;
}

/* ------------------------------------------------------------ package database */

#define OWNER_TIMEOUT_MS 5000
#define OWNER_MAX_OUTPUT (16 * 1024)
#define OWNER_CACHE_MAX 4096
#define OWNER_CACHE_AGE_US (10 * G_USEC_PER_SEC * 60)

typedef struct {
	char *owner;	/* "" none, NULL unknown */
	gint64 when;
} OwnerEntry;

static void owner_entry_free(OwnerEntry *e)
{
	g_free(e->owner);
	g_free(e);
}

G_LOCK_DEFINE_STATIC(owners);
static GHashTable *owners;

static void on_timeout_cancel(gpointer data)
{
	g_cancellable_cancel(data);
}

static gboolean fire_cancel(gpointer data)
{
	on_timeout_cancel(data);
	return G_SOURCE_REMOVE;
}

static void on_communicated(GObject *src, GAsyncResult *res, gpointer data)
{
	GAsyncResult **ret = data;

	(void)src;
	*ret = g_object_ref(res);
}

/*
 * Runs @argv (an absolute program path first) without a shell, with a
 * clean environment and no input, for at most OWNER_TIMEOUT_MS; its
 * standard output (at most OWNER_MAX_OUTPUT bytes), or NULL when it did
 * not end well.  @ok_status: the exit status that still counts as an
 * answer (dpkg-query says 1 for "not found").
 */
static char *run_bounded(const char *const *argv, int *ret_status)
{
	g_autoptr(GSubprocessLauncher) l = g_subprocess_launcher_new(
		G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE |
		G_SUBPROCESS_FLAGS_STDIN_INHERIT);
	g_autoptr(GMainContext) mc = g_main_context_new();
	g_autoptr(GCancellable) cancel = g_cancellable_new();
	g_autoptr(GSubprocess) proc = NULL;
	g_autoptr(GAsyncResult) res = NULL;
	g_autoptr(GBytes) out = NULL;
	g_autoptr(GSource) timer = NULL;
	const char *const env[] = { "LC_ALL=C", "PATH=/usr/sbin:/usr/bin:/sbin:/bin", NULL };
	gsize len;

	g_subprocess_launcher_set_environ(l, (char **)env);
	g_subprocess_launcher_set_flags(l, G_SUBPROCESS_FLAGS_STDOUT_PIPE |
					   G_SUBPROCESS_FLAGS_STDERR_SILENCE);
	proc = g_subprocess_launcher_spawnv(l, argv, NULL);
	if (!proc)
		return NULL;
	g_main_context_push_thread_default(mc);
	timer = g_timeout_source_new(OWNER_TIMEOUT_MS);
	g_source_set_callback(timer, fire_cancel, cancel, NULL);
	g_source_attach(timer, mc);
	g_subprocess_communicate_async(proc, NULL, cancel, on_communicated, &res);
	while (!res)
		g_main_context_iteration(mc, TRUE);
	g_source_destroy(timer);
	if (!g_subprocess_communicate_finish(proc, res, &out, NULL, NULL)) {
		g_subprocess_force_exit(proc);
		/* reaped here, so that no child is left behind */
		g_clear_object(&res);
		g_subprocess_wait_async(proc, NULL, on_communicated, &res);
		while (!res)
			g_main_context_iteration(mc, TRUE);
		g_main_context_pop_thread_default(mc);
		return NULL;
	}
	g_main_context_pop_thread_default(mc);
	*ret_status = g_subprocess_get_if_exited(proc) ? g_subprocess_get_exit_status(proc) : -1;
	len = out ? g_bytes_get_size(out) : 0;
	if (len > OWNER_MAX_OUTPUT)
		len = OWNER_MAX_OUTPUT;
	return g_strndup(out ? g_bytes_get_data(out, NULL) : "", len);
}

/*
 * Asks the package database who owns @path: dpkg-query -S (its answer
 * "pkg1, pkg2: /path"), else rpm -qf --qf '%{NAME}\n'.  A name with
 * characters dpkg takes for a pattern is not asked.
 */
static char *ask_package_db(const char *path)
{
	g_autofree char *out = NULL;
	int status = -1;

	if (strpbrk(path, "*?[]\\\n") || path[0] != '/')
		return NULL;
	if (g_file_test("/var/lib/dpkg/status", G_FILE_TEST_IS_REGULAR) &&
	    g_file_test("/usr/bin/dpkg-query", G_FILE_TEST_IS_EXECUTABLE)) {
		const char *argv[] = { "/usr/bin/dpkg-query", "-S", path, NULL };
		char *colon;

		out = run_bounded(argv, &status);
		if (!out || (status != 0 && status != 1))
			return NULL;
		if (status == 1)
			return g_strdup("");
		/* "diversion by ...", then the owners; the first "pkg: /path" line */
		for (char *line = out; line && *line;) {
			char *nl = strchr(line, '\n');

			if (nl)
				*nl = '\0';
			colon = strstr(line, ": /");
			if (colon && !g_str_has_prefix(line, "diversion ")) {
				*colon = '\0';
				return g_strdup(line);
			}
			line = nl ? nl + 1 : NULL;
		}
		return g_strdup("");
	}
	if (g_file_test("/usr/bin/rpm", G_FILE_TEST_IS_EXECUTABLE) &&
	    (g_file_test("/var/lib/rpm", G_FILE_TEST_IS_DIR) ||
	     g_file_test("/usr/lib/sysimage/rpm", G_FILE_TEST_IS_DIR))) {
		const char *argv[] = { "/usr/bin/rpm", "-qf", "--qf", "%{NAME}\\n", "--", path,
				       NULL };

		out = run_bounded(argv, &status);
		if (!out)
			return NULL;
		if (status != 0)
			return g_strdup("");
		g_strchomp(out);
		if (strchr(out, '\n'))
			*strchr(out, '\n') = '\0';
		return g_strdup(out);
	}
	return NULL;
}

char *ad_safety_package_owner(const char *path, gpointer unused)
{
	gint64 now = g_get_monotonic_time();
	OwnerEntry *e;
	char *owner;

	(void)unused;
	G_LOCK(owners);
	if (!owners)
		owners = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					       (GDestroyNotify)owner_entry_free);
	e = g_hash_table_lookup(owners, path);
	if (e && now - e->when < OWNER_CACHE_AGE_US) {
		owner = g_strdup(e->owner);
		G_UNLOCK(owners);
		return owner;
	}
	G_UNLOCK(owners);

	owner = ask_package_db(path);

	G_LOCK(owners);
	if (g_hash_table_size(owners) >= OWNER_CACHE_MAX)
		g_hash_table_remove_all(owners);
	e = g_new0(OwnerEntry, 1);
	e->owner = g_strdup(owner);
	e->when = now;
	g_hash_table_insert(owners, g_strdup(path), e);
	G_UNLOCK(owners);
	return owner;
}

/* ------------------------------------------------------------ the decision */

/* the programs the fix helper runs */
static const char *const helper_programs[] = {
	"restorecon", "setsebool", "semanage", "avcdoctor", "semodule", NULL,
};

/* classes whose permissions are operations on the system, not on one object */
static const char *const system_classes[] = {
	"capability", "capability2", "cap_userns", "cap2_userns", "process", "process2",
	"security", "system", "kernel_service", "bpf", "perf_event", "key", "service",
	"filesystem", NULL,
};

/* permissions that run code, change labels or mount: a person judges those */
static const char *const sensitive_perms[] = {
	"execute", "execute_no_trans", "entrypoint", "execmod", "execmem", "execstack",
	"execheap", "transition", "dyntransition", "relabelfrom", "relabelto", "mounton",
	"ptrace", "setexec", "setcurrent", "module_load", "associate", NULL,
};

/* permissions that change a file or its directory entry */
static const char *const write_perms[] = {
	"write", "append", "create", "setattr", "unlink", "rename", "link", "add_name",
	"remove_name", "rmdir", "reparent", "relabelfrom", "relabelto", "mounton", NULL,
};

/* the types of the base system's own files, which local modules should not open for writing */
static const char *const system_file_types[] = {
	"etc_t", "etc_runtime_t", "bin_t", "sbin_t", "lib_t", "ld_so_t", "ld_so_cache_t",
	"textrel_shlib_t", "shlib_t", "usr_t", "root_t", "boot_t", "default_t", "device_t",
	"proc_t", "sysfs_t", "sysctl_t", "shell_exec_t", "exec_t", "locale_t", "man_t",
	"systemd_unit_file_t", "init_exec_t", "cert_t", NULL,
};

static gboolean perms_have(GPtrArray *list, const char *perm)
{
	for (guint i = 0; list && i < list->len; i++)
		if (strcmp(g_ptr_array_index(list, i), perm) == 0)
			return TRUE;
	return FALSE;
}

static gboolean any_in(GPtrArray *list, const char *const *set)
{
	for (guint i = 0; list && i < list->len; i++)
		if (g_strv_contains(set, g_ptr_array_index(list, i)))
			return TRUE;
	return FALSE;
}

/* the argument after option @opt in @argv, or NULL */
static const char *opt_value(char **argv, const char *opt)
{
	for (guint i = 1; argv[i]; i++) {
		if (strcmp(argv[i], "--") == 0)
			return NULL;
		if (strcmp(argv[i], opt) == 0)
			return argv[i + 1];
	}
	return NULL;
}

static gboolean has_opt(char **argv, const char *opt)
{
	for (guint i = 1; argv[i]; i++) {
		if (strcmp(argv[i], "--") == 0)
			return FALSE;
		if (strcmp(argv[i], opt) == 0)
			return TRUE;
	}
	return FALSE;
}

/* the operands after "--" (or the last argument when there is no "--") */
static void operands(char **argv, GPtrArray *ret)
{
	guint i;

	for (i = 1; argv[i]; i++) {
		if (strcmp(argv[i], "--") == 0) {
			for (i++; argv[i]; i++)
				g_ptr_array_add(ret, argv[i]);
			return;
		}
	}
	if (i > 1 && argv[i - 1][0] == '/')
		g_ptr_array_add(ret, argv[i - 1]);
}

/*
 * The path a file context specification starts with: its characters up
 * to the first regular expression operator, "\." read as ".".  @tree:
 * the specification covers more than that one path.
 */
static char *spec_prefix(const char *spec, gboolean *tree)
{
	GString *s = g_string_new(NULL);
	const char *p;

	*tree = FALSE;
	for (p = spec; *p; p++) {
		if (*p == '\\' && p[1]) {
			g_string_append_c(s, *++p);
			continue;
		}
		if (strchr("()[]*+?^$|{}.", *p)) {
			*tree = TRUE;
			break;
		}
		g_string_append_c(s, *p);
	}
	/* "/srv/app(/.*)?": the directory and what is in it; "/srv/a.*": any name after */
	return g_string_free(s, FALSE);
}

typedef struct {
	const AdSafetyEnv *env;
	const AdSafetyQuery *q;
	char *reason;
} Decision;

static AdApply decide(Decision *dc, AdApply a, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static AdApply decide(Decision *dc, AdApply a, const char *fmt, ...)
{
	va_list ap;

	g_free(dc->reason);
	va_start(ap, fmt);
	dc->reason = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	return a;
}

/*
 * Why a label fix on @path (a relabel's, a file context's or chcon's
 * target) must not be offered: NULL when it may be, else the reason,
 * owned, with @ret_never saying whether even by hand it is wrong.
 */
static char *protected_reason(const AdSafetyEnv *env, const char *path, gboolean tree,
			      gboolean *ret_never)
{
	g_autofree char *clean = clean_path(path);
	const Protected *p;

	*ret_never = TRUE;
	if (!clean)
		return g_strdup_printf(_("%s is not a plain absolute path: check what it names "
					 "before changing its label."), path);
	p = find_protected(clean, tree);
	if (p && p->path && tree && !path_in(clean, p->path) && !under(clean, p->path)) {
		*ret_never = p->never;
		return g_strdup_printf(_("A file context for %s and what is under it covers %s, "
					 "which is %s: a confined program should not get it as "
					 "its own."), clean, p->path, _(p->what));
	}
	if (p) {
		*ret_never = p->never;
		return g_strdup_printf(_("%s is %s: a confined program should not get it as its "
					 "own, whatever the denial says; if the program needs "
					 "it, its configuration points at the wrong file."),
				       clean, _(p->what));
	}
	if (env->local) {
		/* what the path names on this host: a link into /etc counts as /etc */
		char real[PATH_MAX];
		g_autofree char *owner = NULL;

		if (realpath(clean, real) && strcmp(real, clean) != 0 &&
		    (p = find_protected(real, tree))) {
			*ret_never = p->never;
			return g_strdup_printf(_("%s leads to %s, which is %s: a confined program "
						 "should not get it as its own."), clean, real,
					       _(p->what));
		}
		owner = env->owner_func ? env->owner_func(clean, env->owner_data)
					: ad_safety_package_owner(clean, NULL);
		if (owner && *owner)
			return g_strdup_printf(_("%s belongs to the package %s: its label is the "
						 "distribution's, and a confined program should not "
						 "get it as its own; if the program needs it, its "
						 "configuration points at the wrong file."),
					       clean, owner);
	}
	return NULL;
}

/* the file label commands of a suggestion, each path judged */
static AdApply decide_labels(Decision *dc, char **argv, gboolean *ret_labels)
{
	g_autoptr(GPtrArray) paths = g_ptr_array_new();
	gboolean tree = FALSE, restore_only = FALSE;
	const char *prog = argv[0];

	if (strcmp(prog, "restorecon") == 0) {
		tree = has_opt(argv, "-R") || has_opt(argv, "-r");
		restore_only = TRUE;
		operands(argv, paths);
	} else if (strcmp(prog, "chcon") == 0) {
		tree = has_opt(argv, "-R");
		operands(argv, paths);
	} else if (strcmp(prog, "semanage") == 0 && argv[1] && strcmp(argv[1], "fcontext") == 0) {
		g_autoptr(GPtrArray) specs = g_ptr_array_new();

		operands(argv, specs);
		for (guint i = 0; i < specs->len; i++) {
			const char *spec = g_ptr_array_index(specs, i);
			gboolean t;
			char *prefix;

			/* a pattern naming .ssh anywhere ("/home/[^/]+/\.ssh") is SSH's keys */
			if (strstr(spec, ".ssh"))
				return decide(dc, AD_APPLY_NEVER, _("%s names %s: a confined "
					      "program should not get it as its own."), spec, _(SSH));
			prefix = spec_prefix(spec, &t);

			tree |= t;
			g_ptr_array_add(paths, prefix);
		}
		g_ptr_array_set_free_func(paths, g_free);
	} else {
		return AD_APPLY_ONE_CLICK;
	}
	*ret_labels = TRUE;
	/* the denied file itself, when a new label is given: the operands may be its directory */
	if (!restore_only && dc->q->path) {
		gboolean never;
		g_autofree char *why = protected_reason(dc->env, dc->q->path, FALSE, &never);

		if (why && never)
			return decide(dc, AD_APPLY_NEVER, "%s", why);
	}
	for (guint i = 0; i < paths->len; i++) {
		const char *path = g_ptr_array_index(paths, i);
		gboolean never;
		g_autofree char *why = NULL;

		/* restoring the label file_contexts gives takes nothing from anybody */
		if (restore_only) {
			g_autofree char *clean = clean_path(path);

			if (!clean)
				return decide(dc, AD_APPLY_BY_HAND, _("%s is not a plain absolute "
					      "path: check what it names first."), path);
			if (tree && (strcmp(clean, "/") == 0 || find_protected(clean, FALSE) ==
				     &protected_paths[G_N_ELEMENTS(protected_paths) - 1] ||
				     strchr(clean + 1, '/') == NULL))
				return decide(dc, AD_APPLY_BY_HAND, _("This relabels all of %s, "
					      "which takes long and touches much: run it when "
					      "it suits you."), clean);
			continue;
		}
		why = protected_reason(dc->env, path, tree, &never);
		if (why)
			return decide(dc, never ? AD_APPLY_NEVER : AD_APPLY_BY_HAND, "%s", why);
	}
	if (strcmp(prog, "chcon") == 0)
		return decide(dc, AD_APPLY_BY_HAND, _("chcon changes a label until the next "
			      "relabel, which puts it back: make it lasting with a file "
			      "context instead."));
	return AD_APPLY_ONE_CLICK;
}

/*
 * The domains that own a port type although their names do not say so
 * (the port type's name gives the others: ssh_port_t is sshd_t's)
 */
static const char *const port_owners[][2] = {
	{ "smtp_port_t", "postfix_master_t" }, { "smtp_port_t", "sendmail_t" },
	{ "smtp_port_t", "exim_t" }, { "dns_port_t", "named_t" },
	{ "dns_port_t", "dnsmasq_t" }, { "rndc_port_t", "named_t" },
	{ "ldap_port_t", "slapd_t" }, { "kerberos_port_t", "krb5kdc_t" },
	{ "kerberos_admin_port_t", "kadmind_t" }, { "http_cache_port_t", "squid_t" },
	{ "pop_port_t", "dovecot_t" }, { "ipp_port_t", "cupsd_t" },
	{ "printer_port_t", "lpd_t" }, { "amqp_port_t", "rabbitmq_t" },
	{ "mail_port_t", "dovecot_t" }, { "ntp_port_t", "ntpd_t" },
	{ "ntp_port_t", "chronyd_t" }, { "syslogd_port_t", "syslogd_t" },
	{ "dhcpd_port_t", "dhcpd_t" }, { "dhcpc_port_t", "dhcpc_t" },
	{ "nfs_port_t", "nfsd_t" }, { "portmap_port_t", "rpcbind_t" },
	{ "smbd_port_t", "smbd_t" }, { "xserver_port_t", "xserver_t" },
};

/* may domain @domain bind @port_type on @proto's socket class? */
static gboolean binds(AdPolicy *pol, const char *domain, const char *port_type,
		      const char *proto)
{
	g_autofree char *tclass = g_strdup_printf("%s_socket", proto);
	const char *const perms[] = { "name_bind" };
	g_autoptr(GPtrArray) types = NULL;

	if (!ad_policy_has_type(pol, domain) || ad_policy_type_is_attribute(pol, domain) ||
	    !ad_policy_has_class(pol, tclass) ||
	    !ad_policy_type_has_attribute(pol, domain, "domain"))
		return FALSE;
	types = ad_policy_types_allowed(pol, domain, tclass, perms, 1, "port_type");
	for (guint i = 0; types && i < types->len; i++)
		if (strcmp(g_ptr_array_index(types, i), port_type) == 0)
			return TRUE;
	return FALSE;
}

/*
 * The service whose port type @port_type is, as the policy says it: the
 * domain that binds it ("sshd" for ssh_port_t), its name without "_t";
 * owned, NULL when no domain named after the type or in port_owners
 * binds it.  A domain that binds every port (an unconfined one) is never
 * a candidate: the candidates come from the type's name.
 */
static char *port_owner(AdPolicy *pol, const char *port_type, const char *proto)
{
	g_autofree char *base = NULL;
	const char *const suffixes[] = { "d_t", "_t", "_server_t", "d_server_t" };

	if (!pol || !g_str_has_suffix(port_type, "_port_t"))
		return NULL;
	for (guint i = 0; i < G_N_ELEMENTS(port_owners); i++)
		if (strcmp(port_owners[i][0], port_type) == 0 &&
		    binds(pol, port_owners[i][1], port_type, proto))
			return g_strndup(port_owners[i][1], strlen(port_owners[i][1]) - 2);
	base = g_strndup(port_type, strlen(port_type) - strlen("_port_t"));
	for (guint i = 0; i < G_N_ELEMENTS(suffixes); i++) {
		g_autofree char *domain = g_strconcat(base, suffixes[i], NULL);

		if (binds(pol, domain, port_type, proto))
			return g_strndup(domain, strlen(domain) - 2);
	}
	return NULL;
}

/* "httpd" for httpd_t; "the program" when the domain is not known */
static char *service_of(const char *domain)
{
	if (!domain || !*domain)
		return g_strdup(_("the program"));
	if (g_str_has_suffix(domain, "_t") && strlen(domain) > 2)
		return g_strndup(domain, strlen(domain) - 2);
	return g_strdup(domain);
}

/*
 * Why a port of another service is not given to @domain: the owner named
 * when the policy tells it ("tcp/22 belongs to sshd (ssh_port_t): ...").
 * Owned.
 */
char *ad_safety_port_taken(AdPolicy *pol, const char *proto, guint port, const char *port_type,
			   const char *domain)
{
	g_autofree char *owner = port_owner(pol, port_type, proto);
	g_autofree char *me = service_of(domain);

	if (owner)
		return g_strdup_printf(_("%s/%u belongs to %s (%s): pick another port for %s, "
					 "or if %s must have this one, stop %s from using it "
					 "first. Relabelling it would take it from %s at its "
					 "next start."), proto, port, owner, port_type, me, me,
				       owner, owner);
	return g_strdup_printf(_("%s/%u belongs to another service (%s): pick another port "
				 "for %s. Relabelling it would take it from that service at "
				 "its next start."), proto, port, port_type, me);
}

/* semanage port: only a generic port may be given to a service */
static AdApply decide_port(Decision *dc, char **argv)
{
	AdPolicy *pol = dc->env->policy;
	const char *type = opt_value(argv, "-t");
	const char *proto = opt_value(argv, "-p");
	g_autoptr(GPtrArray) ops = g_ptr_array_new();
	g_autofree char *cur = NULL;
	gboolean modify = has_opt(argv, "-m");
	guint64 port;

	for (guint i = 2; argv[i]; i++)
		if (argv[i][0] != '-' && (i == 0 || argv[i - 1][0] != '-'))
			g_ptr_array_add(ops, argv[i]);
	if (!has_opt(argv, "-a") && !modify)
		return decide(dc, AD_APPLY_BY_HAND, _("This semanage port command does not "
			      "add or change a port's label: run it by hand."));
	if (!type || !proto || !ops->len ||
	    !g_ascii_string_to_unsigned(g_ptr_array_index(ops, ops->len - 1), 10, 0, 65535,
					&port, NULL))
		return decide(dc, AD_APPLY_BY_HAND, _("The port this command labels is not one "
			      "number: check it by hand."));
	if (!pol)
		return decide(dc, AD_APPLY_BY_HAND, _("Without the policy, which service port "
			      "%s/%u belongs to cannot be checked."), proto,
			      (guint)port);
	cur = ad_policy_port_type(pol, proto, (guint)port);
	if (!cur)
		return decide(dc, AD_APPLY_BY_HAND, _("The policy does not know the protocol "
			      "%s."), proto);
	if (strcmp(cur, type) == 0)
		return AD_APPLY_ONE_CLICK;
	if (!ad_policy_port_type_is_generic(pol, cur)) {
		g_autofree char *why = ad_safety_port_taken(pol, proto, (guint)port, cur,
							   dc->q->stype);

		return decide(dc, AD_APPLY_NEVER, "%s", why);
	}
	if (modify)
		return decide(dc, AD_APPLY_BY_HAND, _("%s/%u is defined by "
			      "the policy itself (%s): changing it with -m is a decision for a "
			      "person."), proto, (guint)port, cur);
	return AD_APPLY_ONE_CLICK;
}

/* a local module: what it opens decides */
static AdApply decide_module(Decision *dc, gboolean dontaudit)
{
	const AdSafetyQuery *q = dc->q;
	AdPolicy *pol = dc->env->policy;
	const char *cred;

	cred = q->ttype ? ad_safety_credential_target(pol, q->ttype, q->path) : NULL;
	if (cred && any_in(q->perms, write_perms))
		return decide(dc, AD_APPLY_NEVER, _("A module letting %s change %s (%s) hands "
			      "it the system: investigate why it tried."), q->stype, q->ttype,
			      cred);
	if (dontaudit)
		return AD_APPLY_ONE_CLICK;
	if (q->tclass && g_strv_contains(system_classes, q->tclass))
		return decide(dc, AD_APPLY_BY_HAND, _("This module grants %s a %s permission, "
			      "an operation on the whole system: only a person who knows why "
			      "it needs it should load it."), q->stype, q->tclass);
	if (q->ttype && pol && perms_have(q->perms, "name_bind") &&
	    ad_policy_type_has_attribute(pol, q->ttype, "port_type") &&
	    !ad_policy_port_type_is_generic(pol, q->ttype)) {
		const char *proto = q->tclass ? ad_port_protocol_of_class(q->tclass) : NULL;
		g_autofree char *owner = proto ? port_owner(pol, q->ttype, proto) : NULL;

		if (owner)
			return decide(dc, AD_APPLY_BY_HAND, _("This module lets %s use the ports "
				      "of %s (%s): configure the program to use a port of its "
				      "own instead, or load it after checking why."), q->stype,
				      owner, q->ttype);
		return decide(dc, AD_APPLY_BY_HAND, _("This module lets %s use the ports of "
			      "another service (%s): configure the program to use a port of "
			      "its own instead, or load it after checking why."), q->stype,
			      q->ttype);
	}
	if (any_in(q->perms, sensitive_perms))
		return decide(dc, AD_APPLY_BY_HAND, _("This module lets %s run programs, change "
			      "labels or mount: only a person who knows why it needs it should "
			      "load it."), q->stype);
	if (cred)
		return decide(dc, AD_APPLY_BY_HAND, _("This module opens %s (%s) to %s: only a "
			      "person who knows why it needs it should load it."), q->ttype,
			      cred, q->stype);
	if (q->ttype && g_strv_contains(system_file_types, q->ttype) &&
	    any_in(q->perms, write_perms))
		return decide(dc, AD_APPLY_BY_HAND, _("This module lets %s change %s files, "
			      "which belong to the system as a whole: give the program its "
			      "own files instead, or load it after checking why."), q->stype,
			      q->ttype);
	if (q->stype && pol && ad_policy_type_has_attribute(pol, q->stype, "userdomain"))
		return decide(dc, AD_APPLY_BY_HAND, _("This module widens what every login user "
			      "of %s may do: a person should decide that."), q->stype);
	return AD_APPLY_ONE_CLICK;
}

AdApply ad_safety_decide(const AdSafetyEnv *env, const AdSafetyQuery *q, char **ret_reason)
{
	Decision dc = { .env = env, .q = q };
	AdApply a = AD_APPLY_ONE_CLICK, worst = AD_APPLY_ONE_CLICK;
	g_autofree char *worst_reason = NULL;
	gboolean labels = FALSE, module = FALSE, dontaudit = FALSE;

	if (!q->commands || !q->commands->len) {
		a = decide(&dc, AD_APPLY_BY_HAND, _("Nothing to run: what this says is done by "
			   "a person."));
		goto out;
	}
	if (q->alert_level == AD_LEVEL_RED) {
		a = decide(&dc, AD_APPLY_NEVER, _("This alert is a possible intrusion: find out "
			   "what happened before anything is loosened."));
		goto out;
	}
	for (guint i = 0; i < q->commands->len; i++) {
		char **argv = g_ptr_array_index(q->commands, i);

		if (!argv || !argv[0]) {
			a = decide(&dc, AD_APPLY_NEVER, _("An empty command."));
			goto out;
		}
		for (guint j = 0; argv[j]; j++) {
			/* the one test of what is seen being what runs (common/escape.c) */
			if (ad_text_has_hidden(argv[j])) {
				a = decide(&dc, AD_APPLY_BY_HAND, _("An argument holds characters "
					   "that cannot be shown as they are: check it by hand, "
					   "byte by byte."));
				goto out;
			}
		}
	}
	for (guint i = 0; i < q->commands->len && worst != AD_APPLY_NEVER; i++) {
		char **argv = g_ptr_array_index(q->commands, i);
		AdApply c = AD_APPLY_ONE_CLICK;

		g_clear_pointer(&dc.reason, g_free);
		if (strcmp(argv[0], "semanage") == 0 && argv[1] && strcmp(argv[1], "port") == 0)
			c = decide_port(&dc, argv);
		else
			c = decide_labels(&dc, argv, &labels);
		if (strcmp(argv[0], "avcdoctor") == 0 && argv[1] && strcmp(argv[1], "allow") == 0) {
			const char *target = opt_value(argv, "--target");

			module = TRUE;
			dontaudit |= has_opt(argv, "-D");
			/* a module for the label a relabel gives: from the denials that follow it */
			if (c == AD_APPLY_ONE_CLICK && target && q->ttype &&
			    strcmp(target, q->ttype) != 0)
				c = decide(&dc, AD_APPLY_BY_HAND, _("This module is for the label "
					   "%s the file gets back: build it from the denials "
					   "logged after the relabel, if the program is still "
					   "denied, and check what it allows."), target);
		}
		if (c == AD_APPLY_ONE_CLICK && !g_strv_contains(helper_programs, argv[0]) &&
		    strcmp(argv[0], "chcon") != 0)
			c = decide(&dc, AD_APPLY_BY_HAND, _("The fix helper does not run %s: run "
				   "it by hand."), argv[0]);
		if (c > worst) {
			worst = c;
			g_free(worst_reason);
			worst_reason = g_steal_pointer(&dc.reason);
		}
	}
	g_clear_pointer(&dc.reason, g_free);
	if (worst != AD_APPLY_ONE_CLICK) {
		a = worst;
		dc.reason = g_steal_pointer(&worst_reason);
		goto out;
	}
	if (q->proof == AD_PROOF_FAILED) {
		a = decide(&dc, AD_APPLY_BY_HAND, _("The policy shows this would not stop the "
			   "denial: see what would still be denied."));
		goto out;
	}
	if (module || q->kind == AD_FIX_MODULE) {
		a = decide_module(&dc, dontaudit || q->kind == AD_FIX_DONTAUDIT);
		if (a != AD_APPLY_ONE_CLICK)
			goto out;
	}
	for (guint i = 0; i < q->commands->len; i++) {
		char **argv = g_ptr_array_index(q->commands, i);

		if (strcmp(argv[0], "setsebool") != 0 &&
		    !(strcmp(argv[0], "semanage") == 0 && argv[1] &&
		      strcmp(argv[1], "boolean") == 0))
			continue;
		for (guint j = 1; argv[j]; j++) {
			const char *eq = strchr(argv[j], '=');

			if ((eq && (g_ascii_strcasecmp(eq + 1, "0") == 0 ||
				    g_ascii_strcasecmp(eq + 1, "off") == 0 ||
				    g_ascii_strcasecmp(eq + 1, "false") == 0)) ||
			    strcmp(argv[j], "--off") == 0 || strcmp(argv[j], "-0") == 0) {
				a = decide(&dc, AD_APPLY_BY_HAND, _("Turning a boolean off changes "
					   "what every domain it covers may do: a person should "
					   "decide that."));
				goto out;
			}
		}
	}
	(void)labels;
	a = decide(&dc, AD_APPLY_ONE_CLICK, q->proof == AD_PROOF_OK
		   ? _("Proved against the policy, and it changes nothing the system's safety "
		       "rests on.")
		   : _("It changes nothing the system's safety rests on."));
out:
	if (ret_reason)
		*ret_reason = dc.reason ? g_steal_pointer(&dc.reason) : g_strdup("");
	g_free(dc.reason);
	return a;
}

/* ------------------------------------------------------------ queries */

void ad_safety_query_clear(AdSafetyQuery *q)
{
	g_clear_pointer(&q->owned, g_ptr_array_unref);
	g_clear_pointer(&q->owned_commands, g_ptr_array_unref);
	g_clear_pointer(&q->owned_perms, g_ptr_array_unref);
}

/* @s (owned) kept with the query until it is cleared */
static const char *keep(AdSafetyQuery *q, char *s)
{
	if (!s)
		return NULL;
	if (!q->owned)
		q->owned = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(q->owned, s);
	return s;
}

void ad_safety_query_init(AdSafetyQuery *q, const AdSuggestion *s, const AdDenial *d,
			  AdLevel alert_level)
{
	memset(q, 0, sizeof(*q));
	q->kind = s->kind;
	q->proof = s->proof;
	q->commands = s->commands;
	q->alert_level = alert_level;
	if (!d)
		return;
	q->stype = keep(q, ad_denial_stype(d));
	q->ttype = keep(q, ad_denial_ttype(d));
	q->tclass = d->tclass;
	q->perms = d->perms;
	q->path = keep(q, ad_denial_path_str(d));
}

gboolean ad_safety_query_init_doc(AdSafetyQuery *q, const AdSuggestionDoc *sugg,
				  const AdAlertDoc *alert)
{
	const AdDenialDoc *d = alert ? alert->denial : NULL;

	memset(q, 0, sizeof(*q));
	if (!sugg || sugg->not_object || !ad_fix_kind_from_name(sugg->kind, &q->kind))
		return FALSE;
	q->proof = sugg->verified > 0 ? AD_PROOF_OK
		   : sugg->verified == 0 ? AD_PROOF_FAILED : AD_PROOF_NONE;
	q->alert_level = AD_LEVEL_YELLOW;
	if (alert && alert->has_level && !ad_level_from_name(alert->level_name, &q->alert_level))
		return FALSE;
	if (sugg->commands_malformed)
		return FALSE;
	q->owned_commands = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
	q->commands = q->owned_commands;
	for (guint i = 0; sugg->commands && i < sugg->commands->len; i++) {
		const AdCommandDoc *c = g_ptr_array_index(sugg->commands, i);

		/* as they would run: the exact bytes where the JSON holds them escaped */
		g_ptr_array_add(q->owned_commands, g_strdupv(c->exact ? c->exact : c->argv));
	}
	if (!d)
		return TRUE;
	q->stype = d->stype;
	q->ttype = d->ttype;
	q->tclass = d->tclass;
	q->path = d->path_exact;
	if (d->has_permissions) {
		q->owned_perms = g_ptr_array_new_with_free_func(g_free);
		for (guint i = 0; d->permissions[i]; i++)
			g_ptr_array_add(q->owned_perms, g_strdup(d->permissions[i]));
		q->perms = q->owned_perms;
	}
	return TRUE;
}

/* makes @s an explanation of why its fix is not offered */
static void make_explanation(AdSuggestion *s)
{
	/* the reason stays in the writer's language: it is a text of its own */
	ad_suggestion_set_then(s, N_("Then do not change the label or the policy for this: %s"),
			       s->apply_reason);
	s->kind = AD_FIX_CONFIG;
	g_ptr_array_set_size(s->commands, 0);
	g_clear_pointer(&s->set_booleans, g_ptr_array_unref);
	g_clear_pointer(&s->new_type, g_free);
	ad_suggestion_set_still_denied(s, NULL);
	g_clear_pointer(&s->scope.examples, g_ptr_array_unref);
	s->adds_rules = FALSE;
	s->hides_rules = FALSE;
	s->proof = AD_PROOF_NONE;
	s->scope.accesses = -1;
	s->scope.domains = -1;
	if (s->level == AD_LEVEL_GREEN)
		s->level = AD_LEVEL_YELLOW;
	g_free(s->apply_reason);
	s->apply = AD_APPLY_BY_HAND;
	s->apply_reason = g_strdup(_("Nothing to run: what this says is done by a person."));
}

/* a fix of this kind changes the system's labels, booleans or policy */
static gboolean changes_system(AdFixKind k)
{
	return k == AD_FIX_BOOLEAN || k == AD_FIX_RELABEL || k == AD_FIX_FCONTEXT ||
	       k == AD_FIX_PORT || k == AD_FIX_MODULE || k == AD_FIX_DONTAUDIT;
}

void ad_safety_judge(AdPluginEnv *ctx, const AdDenial *d, GPtrArray *suggestions)
{
	AdSafetyEnv env = { .policy = ctx->policy, .local = ctx->local };
	AdLevel level = ad_suggestions_level(suggestions);
	gboolean changed = FALSE;

	for (guint i = 0; i < suggestions->len;) {
		AdSuggestion *s = g_ptr_array_index(suggestions, i);
		g_auto(AdSafetyQuery) q = { 0 };

		ad_safety_query_init(&q, s, d, level);
		g_free(s->apply_reason);
		s->apply = ad_safety_decide(&env, &q, &s->apply_reason);
		if (s->apply != AD_APPLY_NEVER) {
			i++;
			continue;
		}
		changed = TRUE;
		if (level == AD_LEVEL_RED) {
			g_ptr_array_remove_index(suggestions, i);
			continue;
		}
		make_explanation(s);
		/* the same reason twice (a plugin and a rule on one path) is said once */
		for (guint j = 0; j < i; j++) {
			const AdSuggestion *o = g_ptr_array_index(suggestions, j);

			if (o->kind == AD_FIX_CONFIG && g_strcmp0(o->then_text, s->then_text) == 0) {
				g_ptr_array_remove_index(suggestions, i--);
				break;
			}
		}
		i++;
	}
	if (changed)
		ad_suggestions_sort(suggestions);
	/*
	 * Green promises a configuration issue with a fix that can be taken
	 * as it is shown.  A fix that runs commands but must be judged and run
	 * by a person (a chcon, a module opening something sensitive, a
	 * boolean turned off, a hidden character) is yellow, so that the
	 * alert's level, which its first fix gives, never says "green" over a
	 * fix no front end applies.  Advice (a configuration to change, with
	 * perhaps a command that only looks something up) keeps its level.
	 * After the ranking: the level does not move the fix.
	 */
	for (guint i = 0; i < suggestions->len; i++) {
		AdSuggestion *s = g_ptr_array_index(suggestions, i);

		if (s->level == AD_LEVEL_GREEN && s->apply != AD_APPLY_ONE_CLICK &&
		    changes_system(s->kind) && s->commands && s->commands->len)
			s->level = AD_LEVEL_YELLOW;
	}
}
