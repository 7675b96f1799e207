// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Input files read in a thread of their own (see inputs.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "read/denial.h"
#include "inputs.h"
#include "read/reader.h"

#define BATCH_ITEMS	128	/* items handed over at once: one lock per batch; small */
				/* batches stay in the caches (1024 was slower) */
#define BATCH_RECORDS	2048	/* ... or records: events cut at 4096 records stay few */
#define QUEUE_BATCHES	4	/* batches waiting before the reading thread waits */
#define SPLIT_AHEAD	2	/* batches waiting from which the thread splits fields */
#define BUILD_AHEAD	4	/* ... and from which it builds the denials too */

struct _AdInputs {
	GThread *thread;
	char **files;

	GMutex lock;
	GCond cond;		/* a batch was queued or taken, or the end */
	GQueue batches;		/* of GArray* of AdInput, oldest first */
	gint queued;		/* batches.length (0 once cancelled), also read without the lock */
	GQueue used;		/* batches the consumer is done with: freed by the thread */
	gboolean done;		/* the thread has queued its last batch */
	gboolean cancel;	/* the consumer is gone: stop reading */
	/* who sleeps on cond: a wake-up is a system call, made only for a sleeper */
	gboolean producer_waits, consumer_waits;
	gboolean chunk_flush;	/* hand over after each chunk: a pipe or terminal */

	/* the thread's own account, for the debug log */
	guint64 n_events, n_split, n_built;

	GArray *filling;	/* the thread's batch */
	guint filling_records;	/* records of its events */
	GArray *current;	/* the consumer's batch */
	guint pos;		/* next item of current */
};

static void input_clear(AdInput *it)
{
	g_clear_pointer(&it->ev, ad_event_unref);
	g_clear_pointer(&it->denials, g_ptr_array_unref);
	g_clear_pointer(&it->message, g_free);
}

static GArray *batch_new(void)
{
	GArray *b = g_array_sized_new(FALSE, TRUE, sizeof(AdInput), BATCH_ITEMS);

	g_array_set_clear_func(b, (GDestroyNotify)input_clear);
	return b;
}

/* the records that ad_event_build_denials() reads */
static gboolean wanted_record(int type)
{
	switch (type) {
	case AD_REC_AVC:
	case AD_REC_USER_AVC:
	case AD_REC_SELINUX_ERR:
	case AD_REC_USER_SELINUX_ERR:
	case AD_REC_SYSCALL:
	case AD_REC_PATH:
	case AD_REC_CWD:
	case AD_REC_PROCTITLE:
	case AD_REC_SOCKADDR:
	case AD_REC_AVC_PATH:
		return TRUE;
	default:
		return FALSE;
	}
}

/* splits the fields of the records of @ev that ad_event_build_denials() reads */
static void split_event(AdInputs *in, const AdEvent *ev)
{
	gboolean split = FALSE;

	if (!ad_event_has_denial_record(ev))
		return;
	for (guint i = 0; i < ev->records->len; i++) {
		const AdRecord *rec = g_ptr_array_index(ev->records, i);
		guint n;

		if (wanted_record(rec->type) && !rec->fields) {
			ad_record_fields(rec, &n);
			split = TRUE;
		}
	}
	in->n_split += split;
}

static void split_batch(AdInputs *in, GArray *batch)
{
	for (guint i = 0; i < batch->len; i++) {
		const AdInput *it = &g_array_index(batch, AdInput, i);

		if (it->kind == AD_INPUT_EVENT && !it->denials)
			split_event(in, it->ev);
	}
}

/* hands the thread's batch over; FALSE when the consumer has gone */
static gboolean flush(AdInputs *in)
{
	GQueue used = G_QUEUE_INIT;
	gboolean go_on;

	/* about to wait for the consumer: split what it would split itself */
	if (g_atomic_int_get(&in->queued) >= QUEUE_BATCHES)
		split_batch(in, in->filling);
	g_mutex_lock(&in->lock);
	used = in->used;
	g_queue_init(&in->used);
	if (in->filling->len) {
		while (in->batches.length >= QUEUE_BATCHES && !in->cancel) {
			in->producer_waits = TRUE;
			/* only ad_inputs_wait_ahead() waits for a full queue */
			if (in->consumer_waits)
				g_cond_broadcast(&in->cond);
			g_cond_wait(&in->cond, &in->lock);
		}
		in->producer_waits = FALSE;
		if (!in->cancel) {
			g_queue_push_tail(&in->batches, in->filling);
			g_atomic_int_set(&in->queued, in->batches.length);
			in->filling = NULL;
			if (in->consumer_waits)
				g_cond_broadcast(&in->cond);
		}
	}
	go_on = !in->cancel;
	g_mutex_unlock(&in->lock);
	/*
	 * The events are freed in this thread, which allocated them: glibc's
	 * malloc makes a free from another thread's arena costly.
	 */
	while (used.length)
		g_array_unref(g_queue_pop_head(&used));
	if (!in->filling)
		in->filling = batch_new();
	else
		g_array_set_size(in->filling, 0);
	in->filling_records = 0;
	return go_on;
}

static void push(AdInputs *in, const AdInput *it)
{
	g_array_append_vals(in->filling, it, 1);
	if (it->ev)
		in->filling_records += it->ev->records->len;
	/* what waits between the threads is bounded in records too, not in events only */
	if (in->filling->len >= BATCH_ITEMS || in->filling_records >= BATCH_RECORDS)
		flush(in);
}

static void push_item(AdInputs *in, AdInputKind kind, const char *file, guint line,
		      const char *message)
{
	AdInput it = {
		.kind = kind,
		.file = file,
		.line = line,
		.message = g_strdup(message),
	};

	push(in, &it);
}

static void push_problem(AdInputs *in, const char *file, guint line, const char *message)
{
	push_item(in, AD_INPUT_PROBLEM, file, line, message);
}

static void on_note(const char *file, guint line, const char *message, gpointer user_data)
{
	push_item(user_data, AD_INPUT_NOTE, file, line, message);
}

/*
 * A record ad_event_build_denials() rejected: reported before its event.
 * The push may hand the batch over and wait for room, in the middle of a
 * build: the event is in no batch yet and the reader holds it.
 */
static void on_build_problem(const AdRecord *rec, const char *message, gpointer user_data)
{
	push_problem(user_data, rec->file, rec->line, message);
}

/*
 * Splitting fields and building denials are some 40% of the work on an
 * event (callgrind), and either thread can do them.  The reading thread does them
 * while the consumer is behind: it splits from SPLIT_AHEAD batches
 * waiting, and builds the denials too from BUILD_AHEAD; while the consumer
 * waits for events it leaves both to the consumer.  So the work goes to
 * whichever thread has time, and neither idles while the other is the
 * bottleneck, also when one of them runs on a slower or shared core.  The
 * handover through the lock makes what was built visible to the consumer.
 */
static void on_event(AdEvent *ev, gpointer user_data)
{
	AdInputs *in = user_data;
	AdInput it = { .kind = AD_INPUT_EVENT };
	gint queued = g_atomic_int_get(&in->queued);

	in->n_events++;
	if (queued >= BUILD_AHEAD && ad_event_has_denial_record(ev)) {
		in->n_built++;
		it.denials = g_ptr_array_new_with_free_func((GDestroyNotify)ad_denial_unref);
		ad_event_build_denials(ev, it.denials, on_build_problem, in);
	} else if (queued >= SPLIT_AHEAD) {
		split_event(in, ev);
	}
	it.ev = ad_event_ref(ev);
	push(in, &it);
}

static void on_problem(const char *file, guint line, const char *message, gpointer user_data)
{
	push_problem(user_data, file, line, message);
}

/*
 * After each chunk read: a pipe or terminal may not have more for a while,
 * so what was read is handed over now; a regular file is handed over by
 * the full batch (each handover may wake a thread, which costs).
 */
static gboolean on_chunk(gpointer user_data)
{
	AdInputs *in = user_data;
	gboolean cancel;

	if (in->chunk_flush)
		return flush(in);
	g_mutex_lock(&in->lock);
	cancel = in->cancel;
	g_mutex_unlock(&in->lock);
	return !cancel;
}

static gboolean is_regular_file(const char *path)
{
	struct stat st;

	return strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* a rotation's place: -1 not a log; audit.log is 0, audit.log.N is N, dated ones 1 << 30 */
static gint64 rotation_of(const char *name)
{
	static const char *const suffixes[] = { "", ".gz", ".xz", ".zst" };
	const char *p;
	char *e;
	gint64 n;

	if (!g_str_has_prefix(name, "audit.log"))
		return -1;
	p = name + 9;
	if (*p == '-' && g_ascii_isdigit(p[1]))
		return G_GINT64_CONSTANT(1) << 30;
	if (*p == '\0')
		return 0;
	if (*p != '.' || !g_ascii_isdigit(p[1]))
		return -1;
	n = g_ascii_strtoll(p + 1, &e, 10);
	for (guint i = 0; i < G_N_ELEMENTS(suffixes); i++)
		if (strcmp(e, suffixes[i]) == 0)
			return n > 0 && n < (1 << 30) ? n : -1;
	return -1;
}

static int compare_rotations(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	gint64 rx = rotation_of(x), ry = rotation_of(y);

	/* oldest first: the highest number, then the dated ones by date, then audit.log */
	if (rx != ry)
		return rx == 0 ? 1 : ry == 0 ? -1 : rx > ry ? -1 : 1;
	return strcmp(x, y);
}

char **ad_audit_log_files(const char *dir, GError **error)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, error);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) paths = g_ptr_array_new();
	const char *name;

	if (!d)
		return NULL;
	while ((name = g_dir_read_name(d)) != NULL)
		if (rotation_of(name) >= 0)
			g_ptr_array_add(names, g_strdup(name));
	if (!names->len) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
			    _("%s: no audit.log or rotation of it in this directory"), dir);
		return NULL;
	}
	qsort(names->pdata, names->len, sizeof(char *), compare_rotations);
	for (guint i = 0; i < names->len; i++)
		g_ptr_array_add(paths, g_build_filename(dir, names->pdata[i], NULL));
	g_ptr_array_add(paths, NULL);
	return (char **)g_ptr_array_free(g_steal_pointer(&paths), FALSE);
}

/* @fd when it is open on a regular file, made blocking again; else closed, -1 and @error */
static int regular_or_close(int fd, const char *path, GError **error)
{
	struct stat st;

	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    _("%s: not a regular file (a FIFO, a device or a directory): not read"),
			    path);
		return -1;
	}
	/* O_NONBLOCK only kept the open from waiting on a FIFO: reads of a file block */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int ad_open_rotation(int dirfd, const char *dir, const char *name, GError **error)
{
	const int flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
	g_autofree char *path = g_build_filename(dir, name, NULL);
	char target[256];
	ssize_t n;
	int fd = openat(dirfd, name, flags);

	if (fd >= 0)
		return regular_or_close(fd, path, error);
	if (errno != ELOOP) {
		int e = errno;

		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "%s: %s", path,
			    g_strerror(e));
		return -1;
	}
	/* a symbolic link: followed one step, to a name of the same directory only */
	n = readlinkat(dirfd, name, target, sizeof(target) - 1);
	if (n <= 0 || n >= (ssize_t)sizeof(target) - 1 || memchr(target, '/', n) ||
	    (n == 1 && target[0] == '.') || (n == 2 && target[0] == '.' && target[1] == '.')) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    _("%s: a symbolic link out of its directory: not read"), path);
		return -1;
	}
	target[n] = '\0';
	fd = openat(dirfd, target, flags);
	if (fd < 0) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    _("%s: a symbolic link to %s, which is not a file of the directory: "
			      "not read"), path, target);
		return -1;
	}
	return regular_or_close(fd, path, error);
}

static void push_error(AdInputs *in, const GError *error)
{
	AdInput it = { .kind = AD_INPUT_ERROR, .message = g_strdup(error->message) };

	push(in, &it);
}

/* reads one input, or every log of a directory */
static void read_input(AdInputs *in, AdReader *reader, const char *file)
{
	g_autoptr(GError) error = NULL;
	g_auto(GStrv) files = NULL;
	struct stat st;
	int dirfd;

	if (strcmp(file, "-") == 0 || stat(file, &st) != 0 || !S_ISDIR(st.st_mode)) {
		in->chunk_flush = !is_regular_file(file);
		if (!ad_reader_read_file(reader, file, &error))
			push_error(in, error);
		return;
	}
	files = ad_audit_log_files(file, &error);
	if (!files) {
		push_error(in, error);
		return;
	}
	dirfd = open(file, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		int e = errno;

		g_set_error(&error, G_FILE_ERROR, g_file_error_from_errno(e), "%s: %s", file,
			    g_strerror(e));
		push_error(in, error);
		return;
	}
	/* what the directory holds may be anything: only its regular files are read */
	in->chunk_flush = FALSE;
	for (guint i = 0; files[i]; i++) {
		g_autoptr(GError) e = NULL;
		g_autofree char *name = g_path_get_basename(files[i]);
		int fd = ad_open_rotation(dirfd, file, name, &e);

		if (fd < 0 || !ad_reader_read_fd(reader, fd, files[i], &e))
			push_error(in, e);
		if (fd >= 0)
			close(fd);
	}
	close(dirfd);
}

static gpointer reading_thread(gpointer data)
{
	AdInputs *in = data;
	g_autoptr(AdReader) reader = ad_reader_new(on_event, on_problem, in);

	ad_reader_set_chunk_func(reader, on_chunk, in);
	ad_reader_set_note_func(reader, on_note);
	for (guint i = 0; in->files[i]; i++) {
		read_input(in, reader, in->files[i]);
		g_mutex_lock(&in->lock);
		gboolean cancel = in->cancel;

		g_mutex_unlock(&in->lock);
		if (cancel)
			break;
	}
	g_clear_pointer(&reader, ad_reader_free);	/* emits what is still open */
	flush(in);
	g_debug("reading thread: %" G_GUINT64_FORMAT " events; the denials of %" G_GUINT64_FORMAT
		" built and the fields of %" G_GUINT64_FORMAT " more split here",
		in->n_events, in->n_built, in->n_split);
	g_mutex_lock(&in->lock);
	in->done = TRUE;
	g_cond_broadcast(&in->cond);	/* rare: always */
	g_mutex_unlock(&in->lock);
	return NULL;
}

AdInputs *ad_inputs_start(const char *const *files)
{
	AdInputs *in = g_new0(AdInputs, 1);

	in->files = g_strdupv((char **)files);
	g_mutex_init(&in->lock);
	g_cond_init(&in->cond);
	g_queue_init(&in->batches);
	g_queue_init(&in->used);
	in->filling = batch_new();
	in->thread = g_thread_new("avcdoctor-read", reading_thread, in);
	return in;
}

const AdInput *ad_inputs_next(AdInputs *in)
{
	if (in->current && in->pos < in->current->len)
		return &g_array_index(in->current, AdInput, in->pos++);
	g_mutex_lock(&in->lock);
	if (in->current)
		g_queue_push_tail(&in->used, g_steal_pointer(&in->current));
	while (!in->batches.length && !in->done) {
		in->consumer_waits = TRUE;
		g_cond_wait(&in->cond, &in->lock);
	}
	in->consumer_waits = FALSE;
	in->current = g_queue_pop_head(&in->batches);
	g_atomic_int_set(&in->queued, in->batches.length);
	if (in->producer_waits)
		g_cond_broadcast(&in->cond);
	g_mutex_unlock(&in->lock);
	in->pos = 0;
	if (!in->current || !in->current->len)
		return NULL;
	return &g_array_index(in->current, AdInput, in->pos++);
}

void ad_inputs_wait_ahead(AdInputs *in)
{
	g_mutex_lock(&in->lock);
	/* producer_waits alone may be stale: the thread was woken and has not run yet */
	while (!(in->producer_waits && in->batches.length >= QUEUE_BATCHES) && !in->done &&
	       !in->cancel) {
		in->consumer_waits = TRUE;
		g_cond_wait(&in->cond, &in->lock);
	}
	in->consumer_waits = FALSE;
	g_mutex_unlock(&in->lock);
}

void ad_inputs_free(AdInputs *in)
{
	if (!in)
		return;
	g_mutex_lock(&in->lock);
	in->cancel = TRUE;
	/* nobody will take the rest: no splitting or building ahead for it */
	g_atomic_int_set(&in->queued, 0);
	g_cond_broadcast(&in->cond);
	g_mutex_unlock(&in->lock);
	g_thread_join(in->thread);
	while (in->batches.length)
		g_array_unref(g_queue_pop_head(&in->batches));
	while (in->used.length)
		g_array_unref(g_queue_pop_head(&in->used));
	g_clear_pointer(&in->current, g_array_unref);
	g_clear_pointer(&in->filling, g_array_unref);
	g_strfreev(in->files);
	g_mutex_clear(&in->lock);
	g_cond_clear(&in->cond);
	g_free(in);
}
