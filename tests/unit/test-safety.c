// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for analysis/safety.c: the one decision whether a suggestion
 * may be applied with one click.  Tables: every protected path class with
 * every kind of label fix for every class of domain (never, with the
 * reason), the site paths that stay one-click file context fixes, ports,
 * modules, booleans, red alerts, hidden characters, the package database
 * (a stand-in), the query read back from a stored alert's JSON, and the
 * credential and password types of the reference policy and Fedora's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "analysis/safety.h"
#include "policy/policy.h"

#define DEBIAN_POLICY "/etc/selinux/default/policy/policy.33"
/* Fedora's targeted policy, where it is present (the test skips those checks otherwise) */
#define FEDORA_POLICY "/work/shared/policies/fedora-41-targeted/policy/policy.33"

static AdPolicy *debian;

static int setup(void **state)
{
	(void)state;
	if (g_file_test(DEBIAN_POLICY, G_FILE_TEST_EXISTS))
		debian = ad_policy_load(DEBIAN_POLICY, NULL);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	g_clear_pointer(&debian, ad_policy_free);
	return 0;
}

#define NEED_POLICY()                                                                       \
	do {                                                                               \
		if (!debian) {                                                             \
			skip();                                                            \
			return;                                                            \
		}                                                                          \
	} while (0)

/* a suggestion's commands from argument vectors, each NULL-terminated, the list too */
static GPtrArray *commands(const char *const *const *argvs)
{
	GPtrArray *c = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);

	for (guint i = 0; argvs[i]; i++)
		g_ptr_array_add(c, g_strdupv((char **)argvs[i]));
	return c;
}

static GPtrArray *perm_list(const char *perms)
{
	g_auto(GStrv) p = g_strsplit(perms, ",", -1);
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; p[i]; i++)
		g_ptr_array_add(a, g_strdup(p[i]));
	return a;
}

/* the decision for one suggestion, its reason checked to hold @why (when given) */
static AdApply decide(AdPolicy *pol, gboolean local, AdFixKind kind, AdProof proof,
		      GPtrArray *cmds, AdLevel level, const char *stype, const char *ttype,
		      const char *tclass, const char *perms, const char *path, const char *why)
{
	AdSafetyEnv env = { .policy = pol, .local = local };
	g_autoptr(GPtrArray) p = perm_list(perms);
	AdSafetyQuery q = {
		.kind = kind, .proof = proof, .commands = cmds, .alert_level = level,
		.stype = stype, .ttype = ttype, .tclass = tclass, .perms = p, .path = path,
	};
	g_autofree char *reason = NULL;
	AdApply a = ad_safety_decide(&env, &q, &reason);

	assert_non_null(reason);
	assert_true(*reason);
	if (why && !strstr(reason, why))
		fail_msg("%s: reason \"%s\" does not say \"%s\"", path ? path : "-", reason, why);
	return a;
}

/* the domain classes: a daemon, a login user, an administrator, an unconfined one */
static const struct {
	const char *domain;
	const char *own_type;
} domains[] = {
	{ "httpd_t", "httpd_sys_rw_content_t" },
	{ "user_t", "user_home_t" },
	{ "sysadm_t", "admin_home_t" },
	{ "unconfined_t", "etc_t" },
};

/* each protected class, with what the reason calls it */
static const struct {
	const char *path;
	const char *what;
} protected[] = {
	{ "/etc/passwd", "password" }, { "/etc/shadow", "password" },
	{ "/etc/group", "password" }, { "/etc/gshadow", "password" },
	{ "/etc/login.defs", "login" }, { "/etc/sudoers", "sudo" },
	{ "/etc/sudoers.d/90-cloud", "sudo" }, { "/etc/pam.d/sshd", "PAM" },
	{ "/etc/security/limits.conf", "PAM" }, { "/etc/ssh/sshd_config", "SSH" },
	{ "/etc/ssh/ssh_host_ed25519_key", "SSH" }, { "/home/ann/.ssh/authorized_keys", "SSH" },
	{ "/etc/selinux/config", "SELinux" }, { "/var/lib/selinux/default/active", "SELinux" },
	{ "/etc/fstab", "system configuration" }, { "/etc/crypttab", "system configuration" },
	{ "/etc/ld.so.preload", "system configuration" },
	{ "/etc/systemd/system/evil.service", "systemd" },
	{ "/usr/lib/systemd/system/sshd.service", "systemd" },
	{ "/etc/crontab", "cron" }, { "/etc/cron.d/backup", "cron" },
	{ "/var/spool/cron/crontabs/root", "cron" },
	{ "/boot/grub/grub.cfg", "boot" }, { "/boot", "boot" },
	{ "/lib/modules/6.1.0-13-amd64/kernel/fs/ext4/ext4.ko", "kernel modules" },
	{ "/usr/lib/modules/6.1.0/kernel/x.ko", "kernel modules" },
	{ "/usr/bin/passwd", "system programs" }, { "/usr/lib/x86_64-linux-gnu/libc.so.6",
						      "system programs" },
	{ "/bin/sh", "system programs" }, { "/sbin/init", "system programs" },
	{ "/lib64/ld-linux-x86-64.so.2", "system programs" },
	{ "/var/lib/dpkg/status", "package database" }, { "/var/log/audit/audit.log", "audit" },
	{ "/etc/avcdoctor/avcdoctor.conf", "avcdoctor" },
	{ "/var/lib/avcdoctor/alerts.db", "avcdoctor" }, { "/root/.bashrc", "administrator" },
	/* written oddly: the same files */
	{ "/etc//sudoers", "sudo" }, { "/etc/pam.d//su", "PAM" },
};

/* the site's own data: file context fixes stay one click */
static const char *const site_paths[] = {
	"/srv/www/uploads", "/srv/app", "/data/app/cache", "/opt/myapp/var", "/opt/gitea/data",
	"/var/www/html/uploads", "/var/www/example.org/cache", "/var/lib/myapp",
	"/web/site/files", "/export/share", "/home/ann/public_html", "/mnt/media/photos",
	"/etcetera/x", "/usrdata/app", "/srv/etc/shadow",
};

/* the three kinds of label fix on @path giving @type: file context, its tree, chcon */
static const char *const fix_names[] = { "fcontext", "fcontext tree", "chcon" };
static const AdFixKind fix_kinds[] = { AD_FIX_FCONTEXT, AD_FIX_FCONTEXT, AD_FIX_RELABEL };

static GPtrArray *label_fix(guint which, const char *path, const char *type)
{
	g_autofree char *tree = g_strdup_printf("%s(/.*)?", path);

	switch (which) {
	case 0:
		return commands((const char *const *const[]){
			(const char *const[]){ "semanage", "fcontext", "-a", "-t", type, "--", path,
					       NULL },
			(const char *const[]){ "restorecon", "-v", "--", path, NULL }, NULL });
	case 1:
		return commands((const char *const *const[]){
			(const char *const[]){ "semanage", "fcontext", "-a", "-t", type, "--", tree,
					       NULL },
			(const char *const[]){ "restorecon", "-R", "-v", "--", path, NULL }, NULL });
	default:
		return commands((const char *const *const[]){
			(const char *const[]){ "chcon", "-t", type, "--", path, NULL }, NULL });
	}
}

/* protected class x label fix x domain class: never, with the class in the reason */
static void test_protected_paths(void **state)
{
	(void)state;
	for (guint p = 0; p < G_N_ELEMENTS(protected); p++) {
		for (guint d = 0; d < G_N_ELEMENTS(domains); d++) {
			for (guint f = 0; f < G_N_ELEMENTS(fix_names); f++) {
				g_autoptr(GPtrArray) c = label_fix(f, protected[p].path,
								   domains[d].own_type);
				AdApply a = decide(debian, FALSE, fix_kinds[f], AD_PROOF_OK, c,
						   AD_LEVEL_GREEN, domains[d].domain,
						   "etc_t", "file", "write", protected[p].path,
						   protected[p].what);

				if (a != AD_APPLY_NEVER)
					fail_msg("%s for %s on %s: %s, not never", fix_names[f],
						 domains[d].domain, protected[p].path,
						 ad_apply_name(a));
			}
		}
		/* restoring the label file_contexts gives takes nothing from anybody */
		{
			g_autoptr(GPtrArray) c = commands((const char *const *const[]){
				(const char *const[]){ "restorecon", "-v", "--", protected[p].path,
						       NULL }, NULL });

			assert_int_equal(decide(debian, FALSE, AD_FIX_RELABEL, AD_PROOF_OK, c,
						AD_LEVEL_GREEN, "httpd_t", "etc_t", "file", "read",
						protected[p].path, NULL),
					 AD_APPLY_ONE_CLICK);
		}
		assert_non_null(ad_safety_protected_path(protected[p].path));
	}
}

/* a file context whose specification covers a protected tree */
static void test_covering_specs(void **state)
{
	static const char *const specs[] = {
		"/etc(/.*)?", "/etc/.*", "/(.*)?", "/usr(/.*)?", "/boot.*", "/etc/ss[h]",
		"/home/[^/]+/\\.ssh(/.*)?",
	};

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(specs); i++) {
		g_autoptr(GPtrArray) c = commands((const char *const *const[]){
			(const char *const[]){ "semanage", "fcontext", "-a", "-t", "httpd_sys_rw_content_t",
					       "--", specs[i], NULL }, NULL });
		AdApply a = decide(debian, FALSE, AD_FIX_FCONTEXT, AD_PROOF_OK, c, AD_LEVEL_GREEN,
				   "httpd_t", "default_t", "dir", "write", "/srv", NULL);

		if (a != AD_APPLY_NEVER)
			fail_msg("%s: %s, not never", specs[i], ad_apply_name(a));
	}
}

/* the negative table: site data paths stay one-click file context fixes, for every domain */
static void test_site_paths(void **state)
{
	(void)state;
	for (guint p = 0; p < G_N_ELEMENTS(site_paths); p++) {
		assert_null(ad_safety_protected_path(site_paths[p]));
		for (guint d = 0; d < G_N_ELEMENTS(domains); d++) {
			for (guint f = 0; f < 2; f++) {
				g_autoptr(GPtrArray) c = label_fix(f, site_paths[p],
								   domains[d].own_type);
				AdApply a = decide(debian, FALSE, fix_kinds[f], AD_PROOF_OK, c,
						   AD_LEVEL_GREEN, domains[d].domain, "default_t",
						   "dir", "write", site_paths[p], NULL);

				if (a != AD_APPLY_ONE_CLICK)
					fail_msg("%s for %s on %s: %s, not one-click",
						 fix_names[f], domains[d].domain, site_paths[p],
						 ad_apply_name(a));
			}
			/* chcon lasts until the next relabel: by hand, never one click */
			{
				g_autoptr(GPtrArray) c = label_fix(2, site_paths[p],
								   domains[d].own_type);

				assert_int_equal(decide(debian, FALSE, AD_FIX_RELABEL, AD_PROOF_OK,
							c, AD_LEVEL_GREEN, domains[d].domain,
							"default_t", "dir", "write",
							site_paths[p], "chcon"),
						 AD_APPLY_BY_HAND);
			}
		}
	}
}

/* the rest of /etc and /usr/local: a person judges, the command stays shown */
static void test_by_hand_paths(void **state)
{
	static const char *const paths[] = { "/etc/myapp/state.conf", "/etc/nginx/cache",
					     "/usr/local/etc/auto.map", "/usr/local/bin/tool" };

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(paths); i++) {
		g_autoptr(GPtrArray) c = commands((const char *const *const[]){
			(const char *const[]){ "semanage", "fcontext", "-a", "-t", "bin_t", "--",
					       paths[i], NULL },
			(const char *const[]){ "restorecon", "-v", "--", paths[i], NULL }, NULL });

		assert_int_equal(decide(debian, FALSE, AD_FIX_FCONTEXT, AD_PROOF_OK, c,
					AD_LEVEL_GREEN, "automount_t", "etc_t", "file", "execute",
					paths[i], NULL),
				 AD_APPLY_BY_HAND);
	}
}

static char *stand_in_owner(const char *path, gpointer data)
{
	(void)data;
	if (strcmp(path, "/srv/pkg/shipped.conf") == 0)
		return g_strdup("somepkg");
	if (strcmp(path, "/srv/unknown") == 0)
		return NULL;
	return g_strdup("");
}

/* on the live host a package's file is never relabelled; one nobody owns is */
static void test_package_files(void **state)
{
	static const struct {
		const char *path;
		AdApply want;
	} cases[] = {
		{ "/srv/pkg/shipped.conf", AD_APPLY_NEVER },
		{ "/srv/pkg/data", AD_APPLY_ONE_CLICK },
		{ "/srv/unknown", AD_APPLY_ONE_CLICK },
	};

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		AdSafetyEnv env = { .policy = debian, .local = TRUE, .owner_func = stand_in_owner };
		g_autoptr(GPtrArray) c = commands((const char *const *const[]){
			(const char *const[]){ "semanage", "fcontext", "-a", "-t",
					       "httpd_sys_rw_content_t", "--", cases[i].path, NULL },
			NULL });
		AdSafetyQuery q = { .kind = AD_FIX_FCONTEXT, .proof = AD_PROOF_OK, .commands = c,
				    .alert_level = AD_LEVEL_GREEN, .stype = "httpd_t",
				    .ttype = "default_t", .tclass = "file", .path = cases[i].path };
		g_autofree char *reason = NULL;

		assert_int_equal(ad_safety_decide(&env, &q, &reason), cases[i].want);
		if (cases[i].want == AD_APPLY_NEVER)
			assert_non_null(strstr(reason, "somepkg"));
		/* not from this host: the package database says nothing about the log's host */
		env.local = FALSE;
		g_clear_pointer(&reason, g_free);
		assert_int_equal(ad_safety_decide(&env, &q, &reason), AD_APPLY_ONE_CLICK);
	}
}

/* ports: only a generic port may be given to a service */
static void test_ports(void **state)
{
	static const struct {
		const char *flag, *type, *proto, *port;
		AdApply want;
		const char *why;
	} cases[] = {
		/* sshd's port: the web server would take it at sshd's next restart */
		{ "-m", "http_port_t", "tcp", "22", AD_APPLY_NEVER,
		  "tcp/22 belongs to sshd (ssh_port_t): pick another port for httpd" },
		{ "-a", "http_port_t", "tcp", "22", AD_APPLY_NEVER, "belongs to sshd" },
		{ "-m", "http_port_t", "tcp", "8080", AD_APPLY_NEVER,
		  "belongs to squid (http_cache_port_t)" },
		{ "-m", "dns_port_t", "udp", "123", AD_APPLY_NEVER, "belongs to ntpd (ntp_port_t)" },
		{ "-a", "http_port_t", "tcp", "25", AD_APPLY_NEVER, "(smtp_port_t)" },
		{ "-a", "http_port_t", "tcp", "53", AD_APPLY_NEVER, "belongs to named (dns_port_t)" },
		{ "-a", "http_port_t", "tcp", "3306", AD_APPLY_NEVER,
		  "belongs to mysqld (mysqld_port_t)" },
		{ "-a", "http_port_t", "tcp", "5432", AD_APPLY_NEVER,
		  "belongs to postgresql (postgresql_port_t)" },
		/* nobody's port */
		{ "-a", "http_port_t", "tcp", "40123", AD_APPLY_ONE_CLICK, NULL },
		{ "-a", "http_port_t", "tcp", "1011", AD_APPLY_ONE_CLICK, NULL },
		/* already what the fix gives */
		{ "-a", "http_port_t", "tcp", "80", AD_APPLY_ONE_CLICK, NULL },
		{ "-a", "http_port_t", "tcp", "70000", AD_APPLY_BY_HAND, "number" },
		{ "-d", "http_port_t", "tcp", "40123", AD_APPLY_BY_HAND, NULL },
	};

	NEED_POLICY();
	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GPtrArray) c = commands((const char *const *const[]){
			(const char *const[]){ "semanage", "port", cases[i].flag, "-t", cases[i].type,
					       "-p", cases[i].proto, cases[i].port, NULL }, NULL });
		AdApply a = decide(debian, FALSE, AD_FIX_PORT, AD_PROOF_OK, c, AD_LEVEL_GREEN,
				   "httpd_t", "unreserved_port_t", "tcp_socket", "name_bind", NULL,
				   cases[i].why);

		if (a != cases[i].want)
			fail_msg("semanage port %s %s/%s: %s", cases[i].flag, cases[i].proto,
				 cases[i].port, ad_apply_name(a));
	}
	/* the owner as the policy tells it, Fedora's too; "another service" when it does not */
	{
		g_autofree char *smtp = ad_safety_port_taken(debian, "tcp", 25, "smtp_port_t",
							    "httpd_t");
		g_autofree char *unknown = ad_safety_port_taken(debian, "tcp", 9, "nobody_port_t",
							       NULL);
		g_autofree char *none = ad_safety_port_taken(NULL, "tcp", 22, "ssh_port_t",
							    "httpd_t");

		assert_non_null(strstr(smtp, "tcp/25 belongs to "));
		assert_null(strstr(smtp, "another service"));
		assert_non_null(strstr(unknown, "tcp/9 belongs to another service (nobody_port_t): "
					       "pick another port for the program"));
		assert_non_null(strstr(none, "another service (ssh_port_t)"));
		if (g_file_test(FEDORA_POLICY, G_FILE_TEST_EXISTS)) {
			g_autoptr(AdPolicy) fedora = ad_policy_load(FEDORA_POLICY, NULL);
			g_autofree char *ssh = NULL, *dns = NULL;

			assert_non_null(fedora);
			ssh = ad_safety_port_taken(fedora, "tcp", 22, "ssh_port_t", "httpd_t");
			dns = ad_safety_port_taken(fedora, "udp", 53, "dns_port_t", "httpd_t");
			assert_non_null(strstr(ssh, "tcp/22 belongs to sshd (ssh_port_t): pick "
						    "another port for httpd"));
			assert_non_null(strstr(dns, "belongs to named (dns_port_t)"));
		}
	}
	/* a module granting name_bind on another service's port names the owner too */
	{
		g_autoptr(GPtrArray) c = commands((const char *const *const[]){
			(const char *const[]){ "avcdoctor", "allow", "-M", "avcdoctor_httpd_t_01234567",
					       NULL }, NULL });

		assert_int_equal(decide(debian, FALSE, AD_FIX_MODULE, AD_PROOF_OK, c, AD_LEVEL_GREEN,
					"httpd_t", "ssh_port_t", "tcp_socket", "name_bind", NULL,
					"the ports of sshd (ssh_port_t)"), AD_APPLY_BY_HAND);
	}
	/* without the policy, whose port it is cannot be told */
	{
		g_autoptr(GPtrArray) c = commands((const char *const *const[]){
			(const char *const[]){ "semanage", "port", "-a", "-t", "http_port_t", "-p",
					       "tcp", "40123", NULL }, NULL });

		assert_int_equal(decide(NULL, FALSE, AD_FIX_PORT, AD_PROOF_OK, c, AD_LEVEL_GREEN,
					"httpd_t", "unreserved_port_t", "tcp_socket", "name_bind",
					NULL, NULL),
				 AD_APPLY_BY_HAND);
	}
}

/* local modules: what they open decides */
static void test_modules(void **state)
{
	static const struct {
		const char *stype, *ttype, *tclass, *perms, *path;
		gboolean dontaudit;
		AdApply want;
	} cases[] = {
		{ "httpd_t", "var_lib_t", "file", "read,open", "/var/lib/x", FALSE, AD_APPLY_ONE_CLICK },
		{ "httpd_t", "httpd_t", "capability", "net_admin", NULL, FALSE, AD_APPLY_BY_HAND },
		{ "httpd_t", "httpd_t", "process", "execmem", NULL, FALSE, AD_APPLY_BY_HAND },
		{ "httpd_t", "user_home_t", "file", "execute", "/home/a/x", FALSE, AD_APPLY_BY_HAND },
		{ "httpd_t", "shadow_t", "file", "write", "/etc/shadow", FALSE, AD_APPLY_NEVER },
		{ "httpd_t", "etc_t", "file", "write", "/etc/sudoers", FALSE, AD_APPLY_NEVER },
		{ "httpd_t", "shadow_t", "file", "read", "/etc/shadow", FALSE, AD_APPLY_BY_HAND },
		{ "httpd_t", "etc_t", "file", "write", "/etc/motd", FALSE, AD_APPLY_BY_HAND },
		{ "httpd_t", "ssh_port_t", "tcp_socket", "name_bind", NULL, FALSE, AD_APPLY_BY_HAND },
		{ "httpd_t", "http_cache_port_t", "tcp_socket", "name_connect", NULL, FALSE,
		  AD_APPLY_ONE_CLICK },
		{ "user_t", "var_lib_t", "file", "read", "/var/lib/x", FALSE, AD_APPLY_BY_HAND },
		/* a dontaudit module allows nothing, but never hides a credential write */
		{ "local_login_t", "shadow_t", "file", "read", "/etc/shadow", TRUE,
		  AD_APPLY_ONE_CLICK },
		{ "httpd_t", "shadow_t", "file", "write", "/etc/shadow", TRUE, AD_APPLY_NEVER },
	};

	NEED_POLICY();
	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		const char *const build[] = { "avcdoctor", "allow", "--alert", "0123456789abcdef",
					      cases[i].dontaudit ? "-D" : "--verify", "-M",
					      "avcdoctor_x_01234567", NULL };
		g_autoptr(GPtrArray) c = commands((const char *const *const[]){
			build, (const char *const[]){ "semodule", "-X", "300", "-i",
						      "avcdoctor_x_01234567.pp", NULL }, NULL });
		AdApply a = decide(debian, FALSE,
				   cases[i].dontaudit ? AD_FIX_DONTAUDIT : AD_FIX_MODULE,
				   cases[i].dontaudit ? AD_PROOF_NONE : AD_PROOF_OK, c,
				   AD_LEVEL_YELLOW, cases[i].stype, cases[i].ttype,
				   cases[i].tclass, cases[i].perms, cases[i].path, NULL);

		if (a != cases[i].want)
			fail_msg("module %s %s:%s %s: %s", cases[i].stype, cases[i].ttype,
				 cases[i].tclass, cases[i].perms, ad_apply_name(a));
	}
}

/* booleans, red alerts, proofs, hidden characters, programs the helper does not run */
static void test_general(void **state)
{
	g_autoptr(GPtrArray) on = commands((const char *const *const[]){
		(const char *const[]){ "setsebool", "-P", "httpd_can_network_connect=1", NULL },
		NULL });
	g_autoptr(GPtrArray) off = commands((const char *const *const[]){
		(const char *const[]){ "setsebool", "-P", "deny_ptrace=0", NULL }, NULL });
	g_autoptr(GPtrArray) hidden = commands((const char *const *const[]){
		(const char *const[]){ "restorecon", "-v", "--", "/srv/a\xe2\x80\xae" "b", NULL },
		NULL });
	g_autoptr(GPtrArray) other = commands((const char *const *const[]){
		(const char *const[]){ "touch", "/.autorelabel", NULL }, NULL });
	g_autoptr(GPtrArray) none = g_ptr_array_new();
	g_autoptr(GPtrArray) root = commands((const char *const *const[]){
		(const char *const[]){ "restorecon", "-R", "-v", "--", "/", NULL }, NULL });

	(void)state;
	assert_int_equal(decide(debian, FALSE, AD_FIX_BOOLEAN, AD_PROOF_OK, on, AD_LEVEL_GREEN,
				"httpd_t", "http_port_t", "tcp_socket", "name_connect", NULL,
				"Proved"), AD_APPLY_ONE_CLICK);
	assert_int_equal(decide(debian, FALSE, AD_FIX_BOOLEAN, AD_PROOF_OK, off, AD_LEVEL_GREEN,
				"httpd_t", "httpd_t", "process", "ptrace", NULL, "boolean off"),
			 AD_APPLY_BY_HAND);
	/* a red alert: nothing is applied, whatever the fix */
	assert_int_equal(decide(debian, FALSE, AD_FIX_BOOLEAN, AD_PROOF_OK, on, AD_LEVEL_RED,
				"httpd_t", "http_port_t", "tcp_socket", "name_connect", NULL,
				"intrusion"), AD_APPLY_NEVER);
	assert_int_equal(decide(debian, FALSE, AD_FIX_BOOLEAN, AD_PROOF_FAILED, on,
				AD_LEVEL_GREEN, "httpd_t", "http_port_t", "tcp_socket",
				"name_connect", NULL, "would not stop"), AD_APPLY_BY_HAND);
	assert_int_equal(decide(debian, FALSE, AD_FIX_RELABEL, AD_PROOF_OK, hidden,
				AD_LEVEL_GREEN, "httpd_t", "default_t", "file", "read", NULL,
				"cannot be shown"), AD_APPLY_BY_HAND);
	assert_int_equal(decide(debian, FALSE, AD_FIX_RELABEL, AD_PROOF_NONE, other,
				AD_LEVEL_GREEN, "httpd_t", "unlabeled_t", "file", "read", NULL,
				"touch"), AD_APPLY_BY_HAND);
	assert_int_equal(decide(debian, FALSE, AD_FIX_RELABEL, AD_PROOF_OK, root,
				AD_LEVEL_GREEN, "httpd_t", "unlabeled_t", "file", "read", NULL,
				"all of /"), AD_APPLY_BY_HAND);
	assert_int_equal(decide(debian, FALSE, AD_FIX_CONFIG, AD_PROOF_NONE, none,
				AD_LEVEL_GREEN, "httpd_t", "etc_t", "file", "write", NULL,
				"Nothing to run"), AD_APPLY_BY_HAND);
	assert_int_equal(decide(debian, FALSE, AD_FIX_CONFIG, AD_PROOF_NONE, NULL,
				AD_LEVEL_RED, "httpd_t", "etc_t", "file", "write", NULL,
				"Nothing to run"), AD_APPLY_BY_HAND);
}

/*
 * One character of each class that does not show as it is, in a fix's
 * argument: never one click (by hand, shown escaped), from the analysis
 * and from the stored JSON the fix helper decides from, whether the
 * JSON string holds the character itself or commands_hex spells it
 */
/*
 * @alert (a stored alert's JSON object without its id, taken) with its
 * id and @sugg (taken) its one suggestion, as an alert document
 */
static AdAlertDoc *stored_alert(json_object *alert, json_object *sugg)
{
	json_object *list = json_object_new_array();
	AdAlertDoc *doc;

	json_object_object_add(alert, AD_KEY_ID, json_object_new_string("0123456789abcdef"));
	json_object_array_add(list, sugg);
	json_object_object_add(alert, AD_KEY_SUGGESTIONS, list);
	doc = ad_alert_doc_new(alert, NULL);
	json_object_put(alert);
	return doc;
}

static void test_hidden_classes(void **state)
{
	static const struct {
		const char *what, *utf8;
	} classes[] = {
		{ "bidi override U+202E", "\xe2\x80\xae" },
		{ "Arabic letter mark U+061C", "\xd8\x9c" },
		{ "soft hyphen U+00AD", "\xc2\xad" },
		{ "Mongolian vowel separator U+180E", "\xe1\xa0\x8e" },
		{ "deprecated format U+206A", "\xe2\x81\xaa" },
		{ "zero width space U+200B", "\xe2\x80\x8b" },
		{ "line separator U+2028", "\xe2\x80\xa8" },
		{ "paragraph separator U+2029", "\xe2\x80\xa9" },
		{ "no-break space U+00A0", "\xc2\xa0" },
		{ "Hangul filler U+3164", "\xe3\x85\xa4" },
		{ "variation selector U+FE0F", "\xef\xb8\x8f" },
		{ "tag U+E0041", "\xf3\xa0\x81\x81" },
		{ "private use U+E000", "\xee\x80\x80" },
		{ "unassigned U+0378", "\xcd\xb8" },
		{ "C1 control U+0085", "\xc2\x85" },
		{ "newline", "\n" },
		{ "escape", "\x1b" },
		{ "invalid UTF-8", "\xff" },
	};

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(classes); i++) {
		g_autofree char *path = g_strdup_printf("/srv/www/a%sb", classes[i].utf8);
		const char *argv[] = { "restorecon", "-v", "--", path, NULL };
		g_autoptr(GPtrArray) cmds = commands((const char *const *const[]){ argv, NULL });
		g_autofree char *hex = NULL;
		g_autofree char *sugg_hex = NULL;
		AdApply a;

		a = decide(debian, FALSE, AD_FIX_RELABEL, AD_PROOF_OK, cmds, AD_LEVEL_GREEN,
			   "httpd_t", "default_t", "file", "read", "/srv/www/x", "cannot be shown");
		if (a != AD_APPLY_BY_HAND)
			fail_msg("%s: %s from the analysis", classes[i].what, ad_apply_name(a));

		/* the stored form: the bytes that run in commands_hex */
		{
			GString *h = g_string_new("[[");

			for (guint j = 0; argv[j]; j++) {
				g_autofree char *x = NULL;
				GString *b = g_string_new(NULL);

				for (const guchar *c = (const guchar *)argv[j]; *c; c++)
					g_string_append_printf(b, "%02x", *c);
				x = g_string_free(b, FALSE);
				g_string_append_printf(h, "%s\"%s\"", j ? "," : "", x);
			}
			g_string_append(h, "]]");
			hex = g_string_free(h, FALSE);
		}
		sugg_hex = g_strdup_printf("{\"kind\":\"relabel\",\"verified\":true,\"commands\":"
					   "[[\"restorecon\",\"-v\",\"--\",\"/srv/www/ab\"]],"
					   "\"commands_hex\":%s}", hex);
		for (guint form = 0; form < 2; form++) {
			json_object *s = NULL, *alert = json_tokener_parse("{\"level\":\"green\"}");
			AdSafetyEnv env = { .policy = debian };
			g_autoptr(AdAlertDoc) doc = NULL;
			g_auto(AdSafetyQuery) q = { 0 };
			g_autofree char *reason = NULL;

			if (form == 0) {
				s = json_tokener_parse(sugg_hex);
			} else {
				/* the character itself in the JSON string, where JSON can hold it */
				json_object *argvj = json_object_new_array();
				json_object *list = json_object_new_array();

				if (!g_utf8_validate(path, -1, NULL)) {
					json_object_put(argvj);
					json_object_put(list);
					json_object_put(alert);
					continue;
				}
				for (guint j = 0; argv[j]; j++)
					json_object_array_add(argvj, json_object_new_string(argv[j]));
				json_object_array_add(list, argvj);
				s = json_object_new_object();
				json_object_object_add(s, "kind", json_object_new_string("relabel"));
				json_object_object_add(s, "verified", json_object_new_boolean(TRUE));
				json_object_object_add(s, "commands", list);
			}
			assert_non_null(s);
			doc = stored_alert(alert, s);
			assert_non_null(doc);
			assert_true(ad_safety_query_init_doc(&q, ad_alert_doc_suggestion(doc, 0), doc));
			a = ad_safety_decide(&env, &q, &reason);
			if (a != AD_APPLY_BY_HAND || !strstr(reason, "cannot be shown"))
				fail_msg("%s: %s from the stored %s (%s)", classes[i].what,
					 ad_apply_name(a), form ? "text" : "hex", reason);
		}
	}
}

/*
 * The level follows the decision: a fix that changes the system but must
 * be run by hand is never green, so that an alert is green only when its
 * first fix can be taken as shown; advice keeps its level
 */
static void test_level_by_hand(void **state)
{
	AdPluginEnv ctx = { .policy = debian };
	g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func(
		(GDestroyNotify)ad_suggestion_free);
	AdSuggestion *relabel = ad_suggestion_new("t1", AD_FIX_RELABEL, 0.9, AD_LEVEL_GREEN);
	AdSuggestion *advice = ad_suggestion_new("t2", AD_FIX_CONFIG, 0.8, AD_LEVEL_GREEN);
	AdSuggestion *boolean = ad_suggestion_new("t3", AD_FIX_BOOLEAN, 0.7, AD_LEVEL_GREEN);

	(void)state;
	ad_suggestion_add_command(relabel, "touch", "/.autorelabel", NULL);
	ad_suggestion_add_command(advice, "seinfo", "-a", "file_type", "-x", NULL);
	ad_suggestion_add_command(boolean, "setsebool", "-P", "httpd_can_network_connect=1",
				  NULL);
	g_ptr_array_add(list, relabel);
	g_ptr_array_add(list, advice);
	g_ptr_array_add(list, boolean);
	ad_safety_judge(&ctx, NULL, list);
	assert_int_equal(relabel->apply, AD_APPLY_BY_HAND);
	assert_int_equal(relabel->level, AD_LEVEL_YELLOW);
	assert_int_equal(advice->apply, AD_APPLY_BY_HAND);
	assert_int_equal(advice->level, AD_LEVEL_GREEN);
	assert_int_equal(boolean->apply, AD_APPLY_ONE_CLICK);
	assert_int_equal(boolean->level, AD_LEVEL_GREEN);
	/* the order is the ranking's, untouched; the alert's level is its first fix's */
	assert_ptr_equal(g_ptr_array_index(list, 0), relabel);
	assert_int_equal(ad_suggestions_level(list), AD_LEVEL_YELLOW);
	g_ptr_array_remove_index(list, 0);
	assert_int_equal(ad_suggestions_level(list), AD_LEVEL_GREEN);
}

/* the decision from a stored alert is the decision from the analysis */
static void test_json(void **state)
{
	static const struct {
		const char *sugg, *alert;
		gboolean ok;
		AdApply want;
	} cases[] = {
		{ "{\"kind\":\"fcontext\",\"verified\":true,\"commands\":[[\"semanage\",\"fcontext\","
		  "\"-a\",\"-t\",\"httpd_cache_t\",\"--\",\"/etc/sudoers\"]]}",
		  "{\"level\":\"green\",\"denial\":{\"scontext\":\"system_u:system_r:httpd_t:s0\","
		  "\"tcontext\":\"system_u:object_r:etc_t:s0\",\"tclass\":\"file\","
		  "\"permissions\":[\"write\"],\"path\":\"/etc/sudoers\"}}", TRUE, AD_APPLY_NEVER },
		{ "{\"kind\":\"fcontext\",\"verified\":true,\"commands\":[[\"semanage\",\"fcontext\","
		  "\"-a\",\"-t\",\"httpd_sys_rw_content_t\",\"--\",\"/srv/www(/.*)?\"],"
		  "[\"restorecon\",\"-R\",\"-v\",\"--\",\"/srv/www\"]]}",
		  "{\"level\":\"green\",\"denial\":{\"scontext\":\"system_u:system_r:httpd_t:s0\","
		  "\"tcontext\":\"system_u:object_r:default_t:s0\",\"tclass\":\"dir\","
		  "\"permissions\":[\"write\"],\"path\":\"/srv/www\"}}", TRUE, AD_APPLY_ONE_CLICK },
		/* the bytes that run are the hex ones: "/etc" spelled in hex, shown otherwise */
		{ "{\"kind\":\"fcontext\",\"verified\":true,\"commands\":[[\"semanage\",\"fcontext\","
		  "\"-a\",\"-t\",\"t\",\"--\",\"/srv/x\"]],\"commands_hex\":[[\"73656d616e616765\","
		  "\"66636f6e74657874\",\"2d61\",\"2d74\",\"74\",\"2d2d\",\"2f6574632f736861646f77\"]]}",
		  "{\"level\":\"green\"}", TRUE, AD_APPLY_NEVER },
		{ "{\"kind\":\"boolean\",\"verified\":true,\"commands\":[[\"setsebool\",\"-P\","
		  "\"b=1\"]]}", "{\"level\":\"red\"}", TRUE, AD_APPLY_NEVER },
		{ "{\"kind\":\"boolean\",\"commands\":[[\"setsebool\",1]]}", "{}", FALSE, 0 },
		{ "{\"kind\":\"nonsense\",\"commands\":[]}", "{}", FALSE, 0 },
		{ "{\"kind\":\"boolean\",\"commands\":[]}", "{\"level\":\"purple\"}", FALSE, 0 },
		{ "[]", "{}", FALSE, 0 },
		/* a level that is not a name, commands that are not a list */
		{ "{\"kind\":\"boolean\",\"commands\":[]}", "{\"level\":3}", FALSE, 0 },
		{ "{\"kind\":\"boolean\",\"commands\":\"setsebool\"}", "{}", FALSE, 0 },
		{ "{\"kind\":\"boolean\",\"commands\":null}", "{}", TRUE, AD_APPLY_BY_HAND },
		/* the path that is judged is the one in path_hex: "/etc/shadow" */
		{ "{\"kind\":\"fcontext\",\"verified\":true,\"commands\":[[\"semanage\",\"fcontext\","
		  "\"-a\",\"-t\",\"httpd_sys_rw_content_t\",\"--\",\"/srv/www(/.*)?\"],"
		  "[\"restorecon\",\"-R\",\"-v\",\"--\",\"/srv/www\"]]}",
		  "{\"level\":\"green\",\"denial\":{\"scontext\":\"system_u:system_r:httpd_t:s0\","
		  "\"tcontext\":\"system_u:object_r:default_t:s0\",\"tclass\":\"dir\","
		  "\"permissions\":[\"write\"],\"path\":\"/srv/www\","
		  "\"path_hex\":\"2f6574632f736861646f77\"}}", TRUE, AD_APPLY_NEVER },
	};

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(AdAlertDoc) doc = stored_alert(json_tokener_parse(cases[i].alert),
							 json_tokener_parse(cases[i].sugg));
		AdSafetyEnv env = { .policy = debian };
		g_auto(AdSafetyQuery) q = { 0 };
		g_autofree char *reason = NULL;

		assert_non_null(doc);
		if (ad_safety_query_init_doc(&q, ad_alert_doc_suggestion(doc, 0), doc) !=
		    cases[i].ok)
			fail_msg("case %u: %s", i, cases[i].ok ? "refused" : "accepted");
		if (cases[i].ok && ad_safety_decide(&env, &q, &reason) != cases[i].want)
			fail_msg("case %u: %s", i, reason);
	}
}

/* credential and password targets, from the policies' own attributes */
static void test_credentials(void **state)
{
	g_autoptr(AdPolicy) fedora = NULL;

	(void)state;
	/* by the path, whatever the label (etc_t on Debian) */
	assert_non_null(ad_safety_credential_target(NULL, "etc_t", "/etc/passwd"));
	assert_non_null(ad_safety_credential_target(NULL, "etc_t", "/etc/sudoers.d/x"));
	assert_non_null(ad_safety_credential_target(NULL, "user_home_t",
						    "/home/a/.ssh/authorized_keys"));
	assert_null(ad_safety_credential_target(NULL, "etc_t", "/etc/motd"));
	assert_null(ad_safety_credential_target(NULL, "etc_t", NULL));
	if (debian) {
		assert_non_null(ad_safety_credential_target(debian, "shadow_t", NULL));
		/* the reference policy: lacking non_security_file_type */
		assert_non_null(ad_safety_credential_target(debian, "krb5_keytab_t", NULL));
		assert_non_null(ad_safety_credential_target(debian, "policy_config_t", NULL));
		assert_null(ad_safety_credential_target(debian, "httpd_sys_content_t", NULL));
		assert_null(ad_safety_credential_target(debian, "passwd_file_t", NULL));
		assert_true(ad_safety_password_type(debian, "shadow_t"));
		assert_false(ad_safety_password_type(debian, "etc_t"));
		assert_false(ad_safety_password_type(debian, "proc_net_t"));
		assert_false(ad_safety_password_type(debian, "var_log_t"));
	}
	if (!g_file_test(FEDORA_POLICY, G_FILE_TEST_EXISTS))
		return;
	fedora = ad_policy_load(FEDORA_POLICY, NULL);
	assert_non_null(fedora);
	/* Fedora: security_file_type */
	assert_non_null(ad_safety_credential_target(fedora, "selinux_config_t", NULL));
	assert_non_null(ad_safety_credential_target(fedora, "passwd_file_t", NULL));
	assert_null(ad_safety_credential_target(fedora, "etc_t", NULL));
	assert_true(ad_safety_password_type(fedora, "passwd_file_t"));
	assert_true(ad_safety_password_type(fedora, "shadow_t"));
	assert_false(ad_safety_password_type(fedora, "etc_t"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_protected_paths),
		cmocka_unit_test(test_covering_specs),
		cmocka_unit_test(test_site_paths),
		cmocka_unit_test(test_by_hand_paths),
		cmocka_unit_test(test_package_files),
		cmocka_unit_test(test_hidden_classes),
		cmocka_unit_test(test_level_by_hand),
		cmocka_unit_test(test_ports),
		cmocka_unit_test(test_modules),
		cmocka_unit_test(test_general),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_credentials),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
