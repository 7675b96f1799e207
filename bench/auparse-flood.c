/*
 * auparse-flood: time libauparse's event assembly on a denial flood.
 *
 * Feeds N single-record AVC events through libauparse in feed mode
 * (auparse_init(AUSOURCE_FEED) + auparse_add_callback + auparse_feed +
 * auparse_flush_feed), counting the events it hands back, twice for each N:
 *   same-second: every event has the timestamp second 1700000000 (distinct
 *                serials, milliseconds rising), as in a denial storm;
 *   spread:      event i has its own second 1700000000+i.
 * Only the feed/flush is timed; the text is generated beforehand.
 *
 * It documents why avcdoctor assembles events itself: libauparse 3.0.9 keeps
 * a list of open events and scans it for every record, so events that cannot
 * be aged out (same second) make the run quadratic.
 *
 * Build: gcc -O2 -Wall -o auparse-flood auparse-flood.c -lauparse -laudit
 * Usage: auparse-flood [N ...]        (default 5000 10000 20000 40000)
 */
#define _POSIX_C_SOURCE 200809L
#include <auparse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static unsigned long events_seen;

static void on_event(auparse_state_t *au, auparse_cb_event_t type, void *data)
{
	(void)au;
	(void)data;
	if (type == AUPARSE_CB_EVENT_READY)
		events_seen++;
}

static char *make_log(unsigned long n, int same_second, size_t *len_out)
{
	size_t cap = n * 320 + 1, len = 0;
	char *buf = malloc(cap);
	if (!buf) {
		perror("malloc");
		exit(2);
	}
	for (unsigned long i = 0; i < n; i++) {
		unsigned long sec = same_second ? 1700000000UL : 1700000000UL + i;
		unsigned long msec = same_second ? (i * 1000) / n : 0;
		int w = snprintf(buf + len, cap - len,
			"type=AVC msg=audit(%lu.%03lu:%lu): avc:  denied  { read } for  "
			"pid=%lu comm=\"apache2\" name=\"index.html\" dev=\"sda1\" ino=%lu "
			"scontext=system_u:system_r:httpd_t:s0 "
			"tcontext=staff_u:object_r:user_home_t:s0 tclass=file permissive=0\n",
			sec, msec, 1000 + i, 2000 + (i % 64), 100000 + i);
		if (w < 0 || (size_t)w >= cap - len) {
			fprintf(stderr, "buffer too small\n");
			exit(2);
		}
		len += (size_t)w;
	}
	*len_out = len;
	return buf;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Returns seconds; *events gets the number of events libauparse completed. */
static double run(unsigned long n, int same_second, unsigned long *events)
{
	size_t len;
	char *text = make_log(n, same_second, &len);
	auparse_state_t *au = auparse_init(AUSOURCE_FEED, NULL);
	if (!au) {
		perror("auparse_init");
		exit(2);
	}
	events_seen = 0;
	auparse_add_callback(au, on_event, NULL, NULL);
	double t0 = now();
	const size_t chunk = 64 * 1024;
	for (size_t off = 0; off < len; off += chunk) {
		size_t k = len - off < chunk ? len - off : chunk;
		if (auparse_feed(au, text + off, k) != 0) {
			fprintf(stderr, "auparse_feed failed\n");
			exit(2);
		}
	}
	auparse_flush_feed(au);
	double t = now() - t0;
	auparse_destroy(au);
	free(text);
	*events = events_seen;
	return t;
}

int main(int argc, char **argv)
{
	unsigned long def[] = { 5000, 10000, 20000, 40000 };
	int count = argc > 1 ? argc - 1 : (int)(sizeof def / sizeof def[0]);

	printf("| N events | same second: time | events out | spread (1 s apart): time | events out | same/spread |\n");
	printf("| ---: | ---: | ---: | ---: | ---: | ---: |\n");
	fflush(stdout);
	for (int i = 0; i < count; i++) {
		unsigned long n = argc > 1 ? strtoul(argv[i + 1], NULL, 10) : def[i];
		unsigned long ev_same, ev_spread;
		double t_same = run(n, 1, &ev_same);
		double t_spread = run(n, 0, &ev_spread);
		printf("| %lu | %.3f s | %lu | %.3f s | %lu | %.0fx |\n", n, t_same, ev_same,
		       t_spread, ev_spread, t_spread > 0 ? t_same / t_spread : 0.0);
		fflush(stdout);
	}
	return 0;
}
