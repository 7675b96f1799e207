// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * avcdoctor-dispatch: the audit dispatcher plugin (auditd-plugins(5)).
 * auditd starts it from /etc/audit/plugins.d/avcdoctor-dispatch.conf and
 * writes every event to its stdin (format = string).  main() only wires
 * things up: options and configuration, signals as audit's own plugins
 * handle them, privileges, the bus; the work is in pipeline.c.
 */
#include "config.h"

#include <cap-ng.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include <glib-unix.h>
#include <glib/gi18n.h>

#include "dbus-service.h"
#include "paths.h"
#include "stdfds.h"
#include "log.h"
#include "pipeline.h"

#ifndef AD_DISPATCH_CONFIG
#define AD_DISPATCH_CONFIG "/etc/avcdoctor/avcdoctor.conf"
#endif

enum { EXIT_USAGE = 1, EXIT_NO_POLICY = 2 };

/* what a signal handler passes to the main loop: the signal and who sent it */
typedef struct {
	int signo;
	pid_t pid;
} SignalNote;

static int signal_pipe[2] = { -1, -1 };

static void on_signal(int signo, siginfo_t *info, void *unused)
{
	int saved = errno;
	SignalNote n = { signo, info ? info->si_pid : 0 };

	/* async-signal-safe: the main loop reads it; a full pipe loses nothing that matters */
	if (write(signal_pipe[1], &n, sizeof(n)) < 0)
		n.signo = 0;
	errno = saved;
}

typedef struct {
	char *config;
	char *db;
	char *bus;
	gboolean stdout_mode;
	char *policy;
	char *rules_dir;
	gboolean version;
} Options;

typedef struct {
	Options opt;
	gboolean as_root;
	GMainLoop *loop;
	AdDispatch *d;
	gboolean stopping;
} Main;

/*
 * The configuration: defaults, then the file (--config, or the installed
 * one when it exists), then the command line.  FALSE with @error.
 */
static gboolean build_config(Main *m, AdDispatchConfig *c, GError **error)
{
	const char *path = m->opt.config ? m->opt.config : AD_DISPATCH_CONFIG;

	ad_dispatch_config_init(c);
	if (m->opt.config || g_file_test(path, G_FILE_TEST_EXISTS)) {
		if (!ad_dispatch_config_load(c, path, m->as_root, error))
			return FALSE;
	}
	if (m->opt.stdout_mode) {
		/*
		 * Analysis only, unless asked for more (--db, --bus, or a --config
		 * naming them): `avcdoctor-dispatch --stdout < log` must not write
		 * into the system's store or announce on the system bus.
		 */
		if (!m->opt.config) {
			g_clear_pointer(&c->db_path, g_free);
			c->bus = AD_BUS_NONE;
		}
		if (c->log == AD_LOG_SYSLOG)
			c->log = AD_LOG_STDERR;
	}
	if (m->opt.db) {
		g_free(c->db_path);
		c->db_path = strcmp(m->opt.db, "none") == 0 ? NULL : g_strdup(m->opt.db);
	}
	if (m->opt.bus && !ad_bus_kind_from_name(m->opt.bus, &c->bus)) {
		g_set_error(error, AD_DISPATCH_ERROR, AD_DISPATCH_ERROR_CONFIG,
			    _("--bus: system, session or none"));
		return FALSE;
	}
	if (m->opt.policy) {
		g_free(c->policy);
		c->policy = g_strdup(m->opt.policy);
	}
	if (m->opt.rules_dir) {
		g_free(c->rules_dir);
		c->rules_dir = g_strdup(m->opt.rules_dir);
	}
	return TRUE;
}

/*
 * Keeps only what the analysis needs.  The dispatcher stays uid 0 (the
 * kernel's policy file and the store are root's, reloading them on SIGHUP
 * needs no capability then) but holds no capability, except, when the
 * plugins may look at this host's files (file_checks), CAP_DAC_READ_SEARCH:
 * it lets them stat() and read the label of a file named in a denial
 * inside a user's private directory; it grants no write access.
 * Capabilities are per thread: this runs before any thread exists.
 */
static void drop_privileges(gboolean keep_read_search)
{
	guint n_tasks = 0;
	GDir *dir;

	if (geteuid() != 0)
		return;
	dir = g_dir_open("/proc/self/task", 0, NULL);
	while (dir && g_dir_read_name(dir))
		n_tasks++;
	if (dir)
		g_dir_close(dir);
	if (n_tasks > 1)
		ad_dispatch_log(LOG_ERR, "capabilities dropped with %u threads running: only this "
				"one is affected", n_tasks);
	capng_clear(CAPNG_SELECT_BOTH);
	if (keep_read_search)
		capng_update(CAPNG_ADD, CAPNG_EFFECTIVE | CAPNG_PERMITTED, CAP_DAC_READ_SEARCH);
	/* the bounding set needs CAP_SETPCAP, which a container may not give */
	if (capng_apply(CAPNG_SELECT_BOTH) < 0 && capng_apply(CAPNG_SELECT_CAPS) < 0)
		ad_dispatch_log(LOG_ERR, "%s", _("cannot drop capabilities"));
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		ad_dispatch_log(LOG_WARNING, "PR_SET_NO_NEW_PRIVS: %s", g_strerror(errno));
}

static void stop(Main *m)
{
	gint64 until = g_get_monotonic_time() + G_USEC_PER_SEC;
	guint64 left;

	if (m->stopping)
		return;
	m->stopping = TRUE;
	/* what auditd already handed over is analysed, within a second */
	while (ad_dispatch_drain(m->d, 100000) && g_get_monotonic_time() < until)
		;
	/* the rest is counted with what was shed: the summary accounts for it */
	left = ad_dispatch_queue_discard(ad_dispatch_queue(m->d));
	if (left)
		ad_dispatch_log(LOG_WARNING, ngettext("stopping: %" PRIu64 " queued denial "
						      "not analysed",
						      "stopping: %" PRIu64 " queued denials "
						      "not analysed", left), left);
	g_main_loop_quit(m->loop);
}

static gboolean on_signal_pipe(int fd, GIOCondition cond, gpointer user_data)
{
	Main *m = user_data;
	SignalNote n;

	while (read(fd, &n, sizeof(n)) == sizeof(n)) {
		if (n.signo == SIGTERM || n.signo == SIGINT) {
			/* audit's plugins: only auditd, our parent, stops us */
			if (m->opt.stdout_mode || (n.signo == SIGTERM && n.pid == getppid())) {
				stop(m);
			} else {
				ad_dispatch_log(LOG_WARNING,
						_("ignoring signal %d from pid %d: only auditd "
						  "(the parent) stops the dispatcher"),
						n.signo, (int)n.pid);
			}
		} else if (n.signo == SIGHUP) {
			AdDispatchConfig c;
			g_autoptr(GError) error = NULL;

			if (!build_config(m, &c, &error)) {
				ad_dispatch_log(LOG_ERR, _("SIGHUP: %s; keeping the configuration "
							   "in force"), error->message);
			} else if (!ad_dispatch_reload(m->d, &c, &error)) {
				ad_dispatch_log(LOG_ERR, _("SIGHUP: %s"), error->message);
			} else {
				ad_dispatch_log(LOG_INFO, "%s", _("SIGHUP: configuration, policy "
							    "and rules reloaded"));
			}
			ad_dispatch_config_clear(&c);
		}
	}
	return G_SOURCE_CONTINUE;
}

static gboolean on_eof(gpointer user_data)
{
	Main *m = user_data;

	g_main_loop_quit(m->loop);
	return G_SOURCE_REMOVE;
}

static gboolean setup_signals(void)
{
	struct sigaction sa = { 0 };

	if (pipe2(signal_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		return FALSE;
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	return TRUE;
}

int main(int argc, char **argv)
{
	Main m = { 0 };
	GOptionEntry entries[] = {
		/* the descriptions of --config and --db name their defaults: set below */
		{ "config", 'c', 0, G_OPTION_ARG_FILENAME, &m.opt.config, NULL, N_("FILE") },
		{ "db", 0, 0, G_OPTION_ARG_FILENAME, &m.opt.db, NULL, N_("PATH") },
		{ "bus", 0, 0, G_OPTION_ARG_STRING, &m.opt.bus,
		  N_("Where to offer org.avcdoctor.Daemon: system, session or none"),
		  N_("BUS") },
		{ "stdout", 0, 0, G_OPTION_ARG_NONE, &m.opt.stdout_mode,
		  N_("New and updated alerts as JSON Lines on standard output (no store and no "
		     "bus unless --db, --bus or --config names them)"), NULL },
		{ "policy", 'p', 0, G_OPTION_ARG_FILENAME, &m.opt.policy,
		  N_("Binary policy (default: the kernel's, else the newest installed "
		     "policy.N)"), N_("FILE") },
		{ "rules-dir", 0, 0, G_OPTION_ARG_FILENAME, &m.opt.rules_dir,
		  N_("Directory of *.rules files (default: the installed rules)"), N_("DIR") },
		{ "version", 0, 0, G_OPTION_ARG_NONE, &m.opt.version,
		  N_("Show the version and exit"), NULL },
		{ NULL }
	};
	g_autoptr(GOptionContext) octx = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(AdDbusService) service = NULL;
	g_autofree char *summary = NULL;
	g_autofree char *config_help = NULL, *db_help = NULL;
	AdDispatchConfig cfg;
	struct stat st;

	/* before anything opens a file: fd 0 must be the input, never our own pipe */
	ad_std_fds_open();
	setlocale(LC_ALL, "");
	bindtextdomain(GETTEXT_PACKAGE, ad_default_localedir());
	bind_textdomain_codeset(GETTEXT_PACKAGE, "UTF-8");
	textdomain(GETTEXT_PACKAGE);

	config_help = g_strdup_printf(_("Configuration file (default: %s)"), AD_DISPATCH_CONFIG);
	db_help = g_strdup_printf(_("Alert store, or \"none\" (default: %s)"),
				  AD_STORE_DEFAULT_PATH);
	entries[0].description = config_help;
	entries[1].description = db_help;
	octx = g_option_context_new(NULL);
	g_option_context_set_translation_domain(octx, GETTEXT_PACKAGE);
	g_option_context_set_summary(octx, _("The avcdoctor audit dispatcher plugin: analyses "
					     "SELinux denials as auditd\nwrites them to standard "
					     "input, stores the alerts and announces them on "
					     "D-Bus."));
	g_option_context_set_description(octx, _(
		"auditd starts it from plugins.d (see avcdoctor-dispatch(8)); SIGHUP reloads the "
		"configuration,\nthe policy and the rules; SIGTERM from auditd stops it.\n\n"
		"Exit status: 0 done, 1 bad usage or configuration, 2 no policy."));
	g_option_context_add_main_entries(octx, entries, GETTEXT_PACKAGE);
	if (!g_option_context_parse(octx, &argc, &argv, &error)) {
		fprintf(stderr, "avcdoctor-dispatch: %s %s\n", error->message, _("(see --help)"));
		return EXIT_USAGE;
	}
	if (m.opt.version) {
		printf("avcdoctor-dispatch %s\n", VERSION);
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "avcdoctor-dispatch: %s\n", _("no arguments besides options"));
		return EXIT_USAGE;
	}

	openlog("avcdoctor", LOG_PID, LOG_DAEMON);
	umask(077);
	m.as_root = geteuid() == 0;
	ad_dispatch_log_set_target(m.opt.stdout_mode ? AD_LOG_STDERR : AD_LOG_SYSLOG);
	if (!build_config(&m, &cfg, &error)) {
		ad_dispatch_log(LOG_ERR, "%s", error->message);
		return EXIT_USAGE;
	}
	ad_dispatch_log_set_target(cfg.log);
	if (!setup_signals()) {
		ad_dispatch_log(LOG_ERR, "signal pipe: %s", g_strerror(errno));
		return EXIT_USAGE;
	}
	/* a bigger pipe absorbs bursts while the reader thread is scheduled out */
	if (fstat(STDIN_FILENO, &st) == 0 && S_ISFIFO(st.st_mode))
		(void)fcntl(STDIN_FILENO, F_SETPIPE_SZ, 1 << 20);

	m.d = ad_dispatch_new(&cfg, m.opt.stdout_mode ? stdout : NULL, &error);
	if (!m.d) {
		ad_dispatch_log(LOG_ERR, "%s", error->message);
		ad_dispatch_config_clear(&cfg);
		return EXIT_NO_POLICY;
	}
	/* the policy and the store are open: nothing later needs a capability */
	drop_privileges(cfg.file_checks);
	if (chdir("/") < 0)
		ad_dispatch_log(LOG_WARNING, "chdir /: %s", g_strerror(errno));

	m.loop = g_main_loop_new(NULL, FALSE);
	if (cfg.bus != AD_BUS_NONE) {
		service = ad_dbus_service_new(m.d, cfg.bus);
		ad_dbus_service_start(service);
	}
	g_unix_fd_add(signal_pipe[0], G_IO_IN, on_signal_pipe, &m);
	ad_dispatch_start(m.d, STDIN_FILENO, on_eof, &m);
	ad_dispatch_log(LOG_INFO, _("avcdoctor-dispatch %s started: store %s, bus %s"), VERSION,
			cfg.db_path ? cfg.db_path : "none", ad_bus_kind_name(cfg.bus));
	g_main_loop_run(m.loop);

	ad_dispatch_finish(m.d);
	summary = ad_dispatch_summary(m.d);
	if (m.opt.stdout_mode)
		fprintf(stderr, "%s.\n", summary);
	else
		ad_dispatch_log(LOG_INFO, "%s", summary);
	g_clear_pointer(&service, ad_dbus_service_free);
	ad_dispatch_free(m.d);
	g_main_loop_unref(m.loop);
	ad_dispatch_config_clear(&cfg);
	g_free(m.opt.config);
	g_free(m.opt.db);
	g_free(m.opt.bus);
	g_free(m.opt.policy);
	g_free(m.opt.rules_dir);
	closelog();
	return 0;
}
