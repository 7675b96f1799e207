// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Running the programs of the allow-list, the one way avcdoctor-fixit runs
 * anything: no shell, a clean environment, bounded output and time.  Both
 * applying a fix (apply.c) and taking it back (undo.c) run through here.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fixit-client.h"
#include "escape.h"
#include "run.h"

void ad_fixit_config_clear(AdFixitConfig *c)
{
	g_clear_pointer(&c->store_path, g_free);
	g_clear_pointer(&c->policy, g_free);
	g_clear_pointer(&c->file_contexts, g_free);
	g_clear_pointer(&c->rules_dir, g_free);
	g_clear_pointer(&c->bin_dir, g_free);
}

/* ------------------------------------------------------------ running a program */

/* the allow-list: each program the helper runs, by absolute path */
static const struct {
	const char *name;
	const char *dir;
} programs[] = {
	{ "restorecon", "/usr/sbin" },
	{ "setsebool", "/usr/sbin" },
	{ "getsebool", "/usr/sbin" },	/* a boolean's value before a change, to undo it */
	{ "semanage", "/usr/sbin" },
	{ "semodule", "/usr/sbin" },
	{ "checkmodule", "/usr/bin" },
	{ "semodule_package", "/usr/bin" },
};

char *ad_fixit_program_path(const AdFixitConfig *cfg, const char *name)
{
	for (guint i = 0; i < G_N_ELEMENTS(programs); i++)
		if (strcmp(programs[i].name, name) == 0)
			return g_build_filename(cfg->bin_dir ? cfg->bin_dir : programs[i].dir,
						name, NULL);
	return NULL;
}

/* the child's side: never returns */
static void G_GNUC_NORETURN child(const char *path, char *const *argv, int out_fd, pid_t parent)
{
	static char *const envp[] = { "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C", NULL };
	int null_fd;

	setsid();
	/* a helper killed mid-fix takes the command with it */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (null_fd < 0 || dup2(null_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(out_fd, 2) < 0)
		_exit(127);
	close_range(3, ~0U, 0);
	umask(022);
	if (chdir("/") < 0)
		_exit(127);
	execve(path, argv, envp);
	_exit(127);
}

/* what a command printed, each line escaped (valid UTF-8, no control characters) */
static void append_output(GString *out, const char *buf, gsize len)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		gsize n = (nl ? nl : end) - p;

		ad_escape_append(out, p, n);
		if (nl)
			g_string_append_c(out, '\n');
		p += n + (nl ? 1 : 0);
	}
}

gboolean ad_fixit_run(const char *path, char *const *argv, guint timeout_s, GString *out,
		      GError **error)
{
	g_autofree char *line = ad_shell_join((const char *const *)argv);
	/* errors go over D-Bus and into logs: the command escaped, valid UTF-8 */
	g_autofree char *shown = ad_escape_str(line);
	g_autoptr(GString) raw = g_string_new(NULL);
	gint64 deadline = g_get_monotonic_time() + (gint64)timeout_s * G_USEC_PER_SEC;
	gboolean timed_out = FALSE, truncated = FALSE;
	pid_t parent = getpid(), pid;
	int fds[2], status = 0;

	if (pipe2(fds, O_CLOEXEC) < 0) {
		g_set_error(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_FAILED, "%s: pipe: %s", shown,
			    g_strerror(errno));
		return FALSE;
	}
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(fds[0]);
		close(fds[1]);
		g_set_error(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_FAILED, "%s: fork: %s", shown,
			    g_strerror(e));
		return FALSE;
	}
	if (pid == 0) {
		close(fds[0]);
		child(path, argv, fds[1], parent);
	}
	close(fds[1]);
	for (;;) {
		struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
		gint64 left = deadline - g_get_monotonic_time();
		char buf[4096];
		ssize_t n;
		int r;

		if (left <= 0) {
			timed_out = TRUE;
			break;
		}
		r = poll(&pfd, 1, (int)MIN(left / 1000 + 1, 1000));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		n = read(fds[0], buf, sizeof(buf));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			break;
		if (raw->len < AD_FIXIT_MAX_OUTPUT)
			g_string_append_len(raw, buf, MIN((gsize)n, AD_FIXIT_MAX_OUTPUT - raw->len));
		if (raw->len >= AD_FIXIT_MAX_OUTPUT)
			truncated = TRUE;
	}
	close(fds[0]);
	if (timed_out) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	append_output(out, raw->str, raw->len);
	if (truncated)
		g_string_append(out, "[output truncated]\n");
	if (timed_out) {
		g_set_error(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_TIMED_OUT,
			    "%s: killed after %u seconds\n%s", shown, timeout_s, out->str);
		return FALSE;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		g_autofree char *how = WIFEXITED(status)
			? g_strdup_printf("exit status %d", WEXITSTATUS(status))
			: g_strdup_printf("killed by signal %d", WTERMSIG(status));

		g_set_error(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_FAILED, "%s failed (%s)\n%s",
			    shown, how, out->str);
		return FALSE;
	}
	return TRUE;
}

