// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Texts translated when they are read (msg.h): messages of msgids and
 * typed arguments, their JSON, and the one renderer every reader uses.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include <glib/gi18n.h>

#include "escape.h"
#include "msg.h"

/* what a message read from JSON may hold: a store may come from anywhere */
#define MSG_MAX_DEPTH	4	/* messages inside arguments inside messages */
#define MSG_MAX_PIECES	256
#define MSG_MAX_ARGS	32
#define MSG_MAX_FIELD	1024	/* a conversion's width or precision */
#define MSG_MAX_TEXT	(1024 * 1024)	/* a rendered text */

typedef enum {
	ARG_STR,
	ARG_INT,
	ARG_DOUBLE,
	ARG_MSG,
} ArgType;

typedef struct {
	ArgType type;
	char *s;
	gint64 i;
	double d;
	AdMsg *m;
} Arg;

typedef enum {
	PIECE_TEXT,	/* text: as it is */
	PIECE_MSG,	/* text: the msgid; plural and n; args */
	PIECE_TEMPLATE,	/* text: the template; names and values */
} PieceType;

/*
 * One block: the piece, its arguments and its text (a message is built
 * for nearly every text the analysis writes: few allocations pay)
 */
typedef struct {
	PieceType type;
	/*
	 * PIECE_MSG: its original format reads exactly its arguments, each
	 * once and in order (built from a va_list): rendering it untranslated
	 * needs no check
	 */
	gboolean checked;
	char *text;		/* in the block, after args */
	char *plural;		/* NULL: no plural form */
	guint64 n;
	GPtrArray *names;	/* char*: PIECE_TEMPLATE, with values */
	GPtrArray *values;
	guint n_args;
	Arg args[];		/* PIECE_MSG */
} Piece;

struct _AdMsg {
	GPtrArray *pieces;	/* Piece* */
};

static void arg_clear(Arg *a)
{
	g_free(a->s);
	ad_msg_free(a->m);
}

static void piece_free(Piece *p)
{
	for (guint i = 0; i < p->n_args; i++)
		arg_clear(&p->args[i]);
	g_free(p->plural);
	if (p->names)
		g_ptr_array_unref(p->names);
	if (p->values)
		g_ptr_array_unref(p->values);
	g_free(p);
}

AdMsg *ad_msg_new(void)
{
	AdMsg *m = g_new0(AdMsg, 1);

	m->pieces = g_ptr_array_new_with_free_func((GDestroyNotify)piece_free);
	return m;
}

void ad_msg_free(AdMsg *m)
{
	if (!m)
		return;
	g_ptr_array_unref(m->pieces);
	g_free(m);
}

gboolean ad_msg_is_empty(const AdMsg *m)
{
	return !m || !m->pieces->len;
}

/* a piece of @text with @n_args arguments, each zero (a string, NULL) */
static Piece *piece_new(PieceType type, const char *text, guint n_args)
{
	gsize len = strlen(text) + 1;
	Piece *p = g_malloc0(sizeof(Piece) + n_args * sizeof(Arg) + len);

	p->type = type;
	p->n_args = n_args;
	p->text = (char *)&p->args[n_args];
	memcpy(p->text, text, len);
	if (type == PIECE_TEMPLATE) {
		p->names = g_ptr_array_new_with_free_func(g_free);
		p->values = g_ptr_array_new_with_free_func(g_free);
	}
	return p;
}

static Piece *piece_copy(const Piece *p)
{
	Piece *c = piece_new(p->type, p->text, p->n_args);

	c->plural = g_strdup(p->plural);
	c->n = p->n;
	c->checked = p->checked;
	for (guint i = 0; i < p->n_args; i++) {
		c->args[i] = p->args[i];
		c->args[i].s = g_strdup(p->args[i].s);
		c->args[i].m = p->args[i].m ? ad_msg_copy(p->args[i].m) : NULL;
	}
	for (guint i = 0; p->names && i < p->names->len; i++) {
		g_ptr_array_add(c->names, g_strdup(g_ptr_array_index(p->names, i)));
		g_ptr_array_add(c->values, g_strdup(g_ptr_array_index(p->values, i)));
	}
	return c;
}

AdMsg *ad_msg_copy(const AdMsg *m)
{
	AdMsg *c = ad_msg_new();

	ad_msg_add_msg(c, m);
	return c;
}

void ad_msg_add_msg(AdMsg *m, const AdMsg *other)
{
	for (guint i = 0; other && i < other->pieces->len; i++)
		g_ptr_array_add(m->pieces, piece_copy(g_ptr_array_index(other->pieces, i)));
}

void ad_msg_add_text(AdMsg *m, const char *text)
{
	if (text && *text)
		g_ptr_array_add(m->pieces, piece_new(PIECE_TEXT, text, 0));
}

/* ------------------------------------------------------------ conversions */

enum { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_J, LEN_Z, LEN_T, LEN_BIG_L };

/* one printf conversion, as written after its '%' */
typedef struct {
	guint pos;		/* N of "%N$", 0 when none */
	char flags[8];
	int width;		/* -1 when none */
	int prec;		/* -1 when none */
	int length;
	char conv;
	gboolean star;		/* a '*' width or precision */
	gsize len;		/* its bytes after the '%' */
} Spec;

/* digits at *@p, at most MSG_MAX_FIELD; -1 when none, -2 when too large */
static int read_number(const char **p)
{
	int n = -1;

	while (g_ascii_isdigit(**p)) {
		n = (n < 0 ? 0 : n) * 10 + (**p - '0');
		(*p)++;
		if (n > MSG_MAX_FIELD)
			return -2;
	}
	return n;
}

/* parses the conversion after a '%'; FALSE when it is not one */
static gboolean parse_spec(const char *start, Spec *sp)
{
	const char *p = start, *q;
	guint nf = 0;
	int n;

	memset(sp, 0, sizeof(*sp));
	sp->width = sp->prec = -1;
	q = p;
	n = read_number(&q);
	if (n > 0 && *q == '$') {
		sp->pos = n;
		p = q + 1;
	} else if (n == -2) {
		return FALSE;
	}
	while (*p && strchr("-+ #0'", *p) && nf < sizeof(sp->flags) - 1)
		sp->flags[nf++] = *p++;
	if (*p == '*') {
		sp->star = TRUE;
		p++;
	} else if ((sp->width = read_number(&p)) == -2) {
		return FALSE;
	}
	if (*p == '.') {
		p++;
		if (*p == '*') {
			sp->star = TRUE;
			p++;
		} else if ((sp->prec = read_number(&p)) == -2) {
			return FALSE;
		} else if (sp->prec < 0) {
			sp->prec = 0;
		}
	}
	if (p[0] == 'h' && p[1] == 'h')
		sp->length = LEN_HH, p += 2;
	else if (p[0] == 'l' && p[1] == 'l')
		sp->length = LEN_LL, p += 2;
	else if (*p == 'h')
		sp->length = LEN_H, p++;
	else if (*p == 'l')
		sp->length = LEN_L, p++;
	else if (*p == 'q')
		sp->length = LEN_LL, p++;
	else if (*p == 'j')
		sp->length = LEN_J, p++;
	else if (*p == 'z')
		sp->length = LEN_Z, p++;
	else if (*p == 't')
		sp->length = LEN_T, p++;
	else if (*p == 'L')
		sp->length = LEN_BIG_L, p++;
	if (!*p)
		return FALSE;
	sp->conv = *p++;
	sp->len = p - start;
	return TRUE;
}

/* the argument type of a conversion; FALSE for '%' and those not handled */
static gboolean conv_type(const Spec *sp, ArgType *ret)
{
	if (sp->star)
		return FALSE;
	if (sp->conv == 's' && sp->length == LEN_NONE)
		*ret = ARG_STR;
	else if (strchr("diouxXc", sp->conv) && sp->length != LEN_BIG_L)
		*ret = ARG_INT;
	else if (strchr("fFeEgGaA", sp->conv) && sp->length == LEN_NONE)
		*ret = ARG_DOUBLE;
	else
		return FALSE;
	return TRUE;
}

/*
 * The next conversion of a format from *@p on, *@p left after it; the
 * text before it is appended to @lit (when not NULL), a "%%" as '%'.  1
 * with @sp and @type filled, 0 at the end, -1 for a conversion the
 * formatter does not take.
 */
static int next_conversion(const char **p, GString *lit, Spec *sp, ArgType *type)
{
	for (; **p; (*p)++) {
		if (**p != '%') {
			/* the text up to the next '%' in one go */
			gsize run = strcspn(*p, "%");

			if (lit)
				g_string_append_len(lit, *p, run);
			*p += run - 1;
			continue;
		}
		if (!parse_spec(*p + 1, sp))
			return -1;
		*p += sp->len;
		if (sp->conv != '%') {
			(*p)++;
			return conv_type(sp, type) ? 1 : -1;
		}
		if (sp->len != 1)
			return -1;
		if (lit)
			g_string_append_c(lit, '%');
	}
	return 0;
}

/*
 * What a conversion reads, finer than its ArgType: 's' a string, 'd' a
 * signed integer, 'u' an unsigned one, 'c' a character, 'f' a double
 */
static char conv_class(const Spec *sp)
{
	if (sp->conv == 's')
		return 's';
	if (sp->conv == 'd' || sp->conv == 'i')
		return 'd';
	if (sp->conv == 'c')
		return 'c';
	if (strchr("ouxX", sp->conv))
		return 'u';
	return 'f';
}

/*
 * The arguments @fmt reads, of @nargs: @use[i] the class of argument i's
 * conversions (0 when none reads it).  FALSE when a conversion is not one
 * the formatter takes, reads past @nargs, mixes "%N$" with plain
 * conversions, reads one argument as two classes, or, with @args (an
 * original, untrusted), reads a message argument twice: each reading
 * renders all of it again, and nested four deep a stored message of a few
 * kilobytes would be rendered billions of times (a catalog's translation
 * is trusted with that: its few readings cannot grow with the store).
 */
static gboolean scan_format(const char *fmt, guint nargs, const Arg *args, char *use)
{
	guint next = 0;
	int positional = -1;

	const char *p = fmt;
	Spec sp;
	ArgType type;
	int r;

	memset(use, 0, nargs);
	while ((r = next_conversion(&p, NULL, &sp, &type)) > 0) {
		guint index;
		char c;

		if (positional >= 0 && positional != (sp.pos > 0))
			return FALSE;
		positional = sp.pos > 0;
		index = sp.pos ? sp.pos - 1 : next++;
		if (index >= nargs)
			return FALSE;
		c = conv_class(&sp);
		if (use[index] && (use[index] != c || (args && args[index].type == ARG_MSG)))
			return FALSE;
		use[index] = c;
	}
	return r == 0;
}

/* takes the argument of @sp from @ap into @a */
static void arg_from_va(Arg *a, const Spec *sp, ArgType type, va_list *ap)
{
	gboolean is_signed = sp->conv == 'd' || sp->conv == 'i';

	a->type = type;
	if (type == ARG_STR) {
		const char *s = va_arg(*ap, const char *);

		a->s = g_strdup(s ? s : "(null)");
	} else if (type == ARG_DOUBLE) {
		a->d = va_arg(*ap, double);
	} else if (sp->conv == 'c') {
		a->i = va_arg(*ap, int);
	} else {
		switch (sp->length) {
		case LEN_L:
			a->i = is_signed ? (gint64)va_arg(*ap, long)
					 : (gint64)va_arg(*ap, unsigned long);
			break;
		case LEN_LL:
			a->i = is_signed ? (gint64)va_arg(*ap, long long)
					 : (gint64)va_arg(*ap, unsigned long long);
			break;
		case LEN_J:
			a->i = is_signed ? (gint64)va_arg(*ap, intmax_t)
					 : (gint64)va_arg(*ap, uintmax_t);
			break;
		case LEN_Z:
			a->i = is_signed ? (gint64)va_arg(*ap, ssize_t) : (gint64)va_arg(*ap, size_t);
			break;
		case LEN_T:
			a->i = (gint64)va_arg(*ap, ptrdiff_t);
			break;
		default:	/* int, and what is promoted to int */
			a->i = is_signed ? (gint64)va_arg(*ap, int)
					 : (gint64)va_arg(*ap, unsigned int);
			break;
		}
	}
}

/*
 * The conversions of @fmt, each reading the next argument; -1 when one
 * is not a conversion the formatter takes (or is a "%N$" one)
 */
static int count_args(const char *fmt)
{
	const char *p = fmt;
	Spec sp;
	ArgType type;
	int r, n = 0;

	while ((r = next_conversion(&p, NULL, &sp, &type)) > 0 && !sp.pos)
		n++;
	return r == 0 ? n : -1;
}

/* the arguments of @fmt (count_args() of them) from @ap into @args, in order */
static void capture_args(const char *fmt, va_list ap, Arg *args)
{
	const char *p = fmt;
	Spec sp;
	ArgType type;
	va_list aq;

	va_copy(aq, ap);
	for (guint i = 0; next_conversion(&p, NULL, &sp, &type) > 0; i++)
		arg_from_va(&args[i], &sp, type, &aq);
	va_end(aq);
}

static void add_plural_v(AdMsg *m, const char *msgid, const char *plural, gulong n,
			 va_list ap)
{
	const char *fmt = plural && n != 1 ? plural : msgid;
	int n_args;
	Piece *p;

	if (!*msgid)
		return;
	n_args = count_args(fmt);
	if (n_args < 0) {
		/* G_GNUC_PRINTF checked it: a conversion this formatter does not take */
		g_autofree char *t = g_strdup_vprintf(plural ? g_dngettext(GETTEXT_PACKAGE, msgid,
									 plural, n)
						    : g_dgettext(GETTEXT_PACKAGE, msgid), ap);

		ad_msg_add_text(m, t);
		return;
	}
	p = piece_new(PIECE_MSG, msgid, n_args);
	capture_args(fmt, ap, p->args);
	p->plural = g_strdup(plural);
	p->n = n;
	p->checked = TRUE;
	g_ptr_array_add(m->pieces, p);
}

void ad_msg_addv(AdMsg *m, const char *msgid, va_list ap)
{
	add_plural_v(m, msgid, NULL, 0, ap);
}

void ad_msg_add(AdMsg *m, const char *msgid, ...)
{
	va_list ap;

	va_start(ap, msgid);
	add_plural_v(m, msgid, NULL, 0, ap);
	va_end(ap);
}

void ad_msg_add_plural(AdMsg *m, const char *msgid, const char *plural, gulong n, ...)
{
	va_list ap;

	va_start(ap, n);
	add_plural_v(m, msgid, plural, n, ap);
	va_end(ap);
}

static char *render_at(const AdMsg *m, guint depth);

gboolean ad_msg_set_arg(AdMsg *m, guint index, AdMsg *arg)
{
	Piece *p = m->pieces->len ? g_ptr_array_index(m->pieces, m->pieces->len - 1) : NULL;
	gboolean given = arg != NULL, same;
	g_autofree char *r = NULL;
	Arg *a;

	if (!p || p->type != PIECE_MSG || index >= p->n_args || p->args[index].type != ARG_STR) {
		g_critical("ad_msg_set_arg: no string argument %u", index);
		ad_msg_free(arg);
		return TRUE;
	}
	a = &p->args[index];
	if (!arg) {
		arg = ad_msg_new();
		if (*a->s)
			g_ptr_array_add(arg->pieces, piece_new(PIECE_MSG, a->s, 0));
	}
	/*
	 * The message must say what the string said, in the writer's language:
	 * a message that says something else is a plugin's mistake (the wrong
	 * argument replaced), which only a reader in another language would see.
	 * An empty string is a place kept for the message (not rendered here:
	 * unless empty, it is taken to say more).  Rendered as it is inside @m
	 * (one level down): when it says the same, so does @m.
	 */
	if (*a->s) {
		r = render_at(arg, 1);
		same = g_strcmp0(r, a->s) == 0;
		if (given && !same)
			g_critical("ad_msg_set_arg: argument %u was \"%s\", its message says \"%s\"",
				   index, a->s, r ? r : "(null)");
	} else {
		same = ad_msg_is_empty(arg);
	}
	g_clear_pointer(&a->s, g_free);
	a->type = ARG_MSG;
	a->m = arg;
	return same;
}

void ad_msg_add_template(AdMsg *m, const char *tmpl, const char *const *names,
			 const char *const *values, guint n)
{
	Piece *p = piece_new(PIECE_TEMPLATE, tmpl, 0);

	for (guint i = 0; i < n; i++) {
		if (!values[i])
			continue;
		g_ptr_array_add(p->names, g_strdup(names[i]));
		g_ptr_array_add(p->values, g_strdup(values[i]));
	}
	g_ptr_array_add(m->pieces, p);
}

/* ------------------------------------------------------------ rendering */

static gboolean render_into(GString *out, const AdMsg *m, guint depth);

/*
 * Appends @fmt with @args, each conversion checked against its argument's
 * type; printf sees only one conversion at a time, rebuilt here from the
 * parts it was checked for (hence not a literal format)
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static gboolean format_into(GString *out, const char *fmt, const Arg *args, guint n_args,
			    guint depth)
{
	const char *p = fmt;
	guint next = 0;
	Spec sp;
	ArgType type;
	int r;

	while ((r = next_conversion(&p, out, &sp, &type)) > 0) {
		g_autoptr(GString) spec = NULL;
		const Arg *a;
		guint index;

		index = sp.pos ? sp.pos - 1 : next++;
		if (index >= n_args)
			return FALSE;
		a = &args[index];
		if (a->type != type && !(type == ARG_STR && a->type == ARG_MSG))
			return FALSE;
		/* a plain %s, nearly every conversion: the text as it is, no printf */
		if (type == ARG_STR && !sp.flags[0] && sp.width < 0 && sp.prec < 0) {
			if (a->type == ARG_MSG ? !render_into(out, a->m, depth + 1)
					       : (g_string_append(out, a->s), FALSE))
				return FALSE;
			if (out->len > MSG_MAX_TEXT)
				return FALSE;
			continue;
		}
		spec = g_string_new("%");
		g_string_append(spec, sp.flags);
		if (sp.width >= 0)
			g_string_append_printf(spec, "%d", sp.width);
		if (sp.prec >= 0)
			g_string_append_printf(spec, ".%d", sp.prec);
		if (type == ARG_INT && sp.conv != 'c')
			g_string_append(spec, "ll");
		g_string_append_c(spec, sp.conv);
		if (a->type == ARG_MSG) {
			g_autoptr(GString) inner = g_string_new(NULL);

			if (!render_into(inner, a->m, depth + 1))
				return FALSE;
			g_string_append_printf(out, spec->str, inner->str);
		} else if (type == ARG_STR) {
			g_string_append_printf(out, spec->str, a->s);
		} else if (type == ARG_DOUBLE) {
			g_string_append_printf(out, spec->str, a->d);
		} else if (sp.conv == 'c') {
			/* a character of the text: never a NUL, never beyond ASCII */
			if (a->i < 1 || a->i > 127)
				return FALSE;
			g_string_append_printf(out, spec->str, (int)a->i);
		} else if (sp.conv == 'd' || sp.conv == 'i') {
			g_string_append_printf(out, spec->str, (long long)a->i);
		} else {
			g_string_append_printf(out, spec->str, (unsigned long long)a->i);
		}
		if (out->len > MSG_MAX_TEXT)
			return FALSE;
	}
	return r == 0;
}
#pragma GCC diagnostic pop

/* TRUE when every {placeholder} of @t is one of @orig's */
static gboolean placeholders_within(const char *t, const char *orig)
{
	for (const char *p = t; *p; p++) {
		const char *end;
		g_autofree char *ph = NULL;

		if ((*p == '{' && p[1] == '{') || (*p == '}' && p[1] == '}')) {
			p++;
			continue;
		}
		if (*p != '{')
			continue;
		if (!(end = strchr(p + 1, '}')))
			break;
		ph = g_strndup(p, end - p + 1);
		if (!strstr(orig, ph))
			return FALSE;
		p = end;
	}
	return TRUE;
}

/*
 * ad_template_expand(), stopping with FALSE as soon as @out is longer than
 * @max: a template may name one long value many times
 */
static gboolean expand_bounded(GString *out, const char *tmpl, const char *const *names,
			       const char *const *values, guint n, gsize max)
{
	/* once no '}' follows, none follows any later '{' (no search each time) */
	gboolean closed = TRUE;

	for (const char *p = tmpl; *p; p++) {
		const char *end = NULL;
		gsize len;

		if ((*p == '{' && p[1] == '{') || (*p == '}' && p[1] == '}')) {
			g_string_append_c(out, *p);
			p++;
			continue;
		}
		if (*p == '{' && closed && !(end = strchr(p + 1, '}')))
			closed = FALSE;
		if (!end) {
			g_string_append_c(out, *p);
			continue;
		}
		len = end - p - 1;
		for (guint i = 0; i < n; i++) {
			/* no strlen(): a hostile name as long as the template would make it quadratic */
			if (values[i] && !strncmp(names[i], p + 1, len) && names[i][len] == '\0') {
				g_string_append(out, values[i]);
				break;
			}
		}
		if (out->len > max)
			return FALSE;
		p = end;
	}
	return TRUE;
}

void ad_template_expand(GString *out, const char *tmpl, const char *const *names,
			const char *const *values, guint n)
{
	expand_bounded(out, tmpl, names, values, n, G_MAXSIZE);
}

/*
 * A rule's text: its template translated as the rule book translates it
 * (the original when a translation would add a placeholder), the
 * placeholders filled ("{{" and "}}" are braces, an unknown one is left
 * out); FALSE when it would be longer than a text may be
 */
static gboolean render_template(GString *out, const Piece *pc)
{
	const char *tr = *pc->text ? g_dgettext(GETTEXT_PACKAGE, pc->text) : pc->text;
	g_autofree char *orig = g_strchomp(g_strdup(pc->text));
	g_autofree char *t = tr != pc->text ? g_strchomp(g_strdup(tr)) : NULL;
	/* (a template no catalog knows is not searched: it may be long) */
	const char *s = t && placeholders_within(t, orig) ? t : orig;

	return expand_bounded(out, s, (const char *const *)pc->names->pdata,
			      (const char *const *)pc->values->pdata, pc->names->len,
			      MSG_MAX_TEXT);
}

/*
 * The format a message piece is rendered with: its translation when that
 * reads only arguments its original reads, each as the same class (a
 * catalog may reorder or leave out arguments, never read another one or
 * read one as something else), else the original.  NULL when the original
 * itself does not read exactly the arguments the piece holds, or reads a
 * message argument twice.
 */
static const char *piece_format(const Piece *p)
{
	const char *orig = p->plural && p->n != 1 ? p->plural : p->text;
	const char *t = orig;
	guint n = p->n_args;
	char obuf[MSG_MAX_ARGS + 1], tbuf[MSG_MAX_ARGS + 1];
	g_autofree char *oheap = n > MSG_MAX_ARGS ? g_malloc(n + 1) : NULL;
	g_autofree char *theap = n > MSG_MAX_ARGS ? g_malloc(n + 1) : NULL;
	char *ouse = oheap ? oheap : obuf, *tuse = theap ? theap : tbuf;

	/* "" is no msgid: gettext would answer with the catalog's header */
	if (*p->text)
		t = p->plural ? g_dngettext(GETTEXT_PACKAGE, p->text, p->plural, p->n)
			      : g_dgettext(GETTEXT_PACKAGE, p->text);
	if (t == orig && p->checked)
		return orig;
	if (!scan_format(orig, n, p->args, ouse))
		return NULL;
	for (guint i = 0; i < n; i++) {
		if (!ouse[i])
			return NULL;
	}
	if (t == orig || !scan_format(t, n, NULL, tuse))
		return orig;
	for (guint i = 0; i < n; i++) {
		if (tuse[i] && tuse[i] != ouse[i])
			return orig;
	}
	return t;
}

static gboolean render_into(GString *out, const AdMsg *m, guint depth)
{
	if (depth > MSG_MAX_DEPTH)
		return FALSE;
	for (guint i = 0; i < m->pieces->len; i++) {
		const Piece *p = g_ptr_array_index(m->pieces, i);
		gsize mark = out->len;
		const char *fmt, *orig;

		switch (p->type) {
		case PIECE_TEXT:
			g_string_append(out, p->text);
			break;
		case PIECE_TEMPLATE:
			if (!render_template(out, p))
				return FALSE;
			break;
		case PIECE_MSG:
			if (!(fmt = piece_format(p)))
				return FALSE;
			if (format_into(out, fmt, p->args, p->n_args, depth))
				break;
			/* a translation that does not fit its arguments' values: the original */
			orig = p->plural && p->n != 1 ? p->plural : p->text;
			g_string_truncate(out, mark);
			if (fmt == orig || !format_into(out, orig, p->args, p->n_args, depth))
				return FALSE;
			break;
		}
		if (out->len > MSG_MAX_TEXT)
			return FALSE;
	}
	return TRUE;
}

/* ad_msg_render() of @m as it renders @depth levels down inside another message */
static char *render_at(const AdMsg *m, guint depth)
{
	g_autoptr(GString) out = g_string_sized_new(128);

	if (!m || !render_into(out, m, depth) || !ad_utf8_valid(out->str, out->len))
		return NULL;
	return g_string_free(g_steal_pointer(&out), FALSE);
}

char *ad_msg_render(const AdMsg *m)
{
	return render_at(m, 0);
}

/* ------------------------------------------------------------ JSON */

static json_object *arg_to_json(const Arg *a)
{
	switch (a->type) {
	case ARG_STR:
		return json_object_new_string(a->s);
	case ARG_INT:
		return json_object_new_int64(a->i);
	case ARG_DOUBLE:
		return json_object_new_double(a->d);
	case ARG_MSG:
		return ad_msg_to_json(a->m);
	}
	return NULL;
}

json_object *ad_msg_to_json(const AdMsg *m)
{
	json_object *arr = json_object_new_array();

	for (guint i = 0; m && i < m->pieces->len; i++) {
		const Piece *p = g_ptr_array_index(m->pieces, i);
		json_object *o;

		if (p->type == PIECE_TEXT) {
			json_object_array_add(arr, json_object_new_string(p->text));
			continue;
		}
		o = json_object_new_object();
		if (p->type == PIECE_TEMPLATE) {
			json_object *v = json_object_new_object();

			json_object_object_add(o, "template", json_object_new_string(p->text));
			for (guint j = 0; j < p->names->len; j++)
				json_object_object_add(v, g_ptr_array_index(p->names, j),
						       json_object_new_string(g_ptr_array_index(
							       p->values, j)));
			json_object_object_add(o, "values", v);
		} else {
			json_object_object_add(o, "msgid", json_object_new_string(p->text));
			if (p->plural) {
				json_object_object_add(o, "plural", json_object_new_string(p->plural));
				json_object_object_add(o, "n", json_object_new_uint64(p->n));
			}
			if (p->n_args) {
				json_object *args = json_object_new_array();

				for (guint j = 0; j < p->n_args; j++)
					json_object_array_add(args, arg_to_json(&p->args[j]));
				json_object_object_add(o, "args", args);
			}
		}
		json_object_array_add(arr, o);
	}
	return arr;
}

/* a string of untrusted JSON: valid UTF-8 without NUL, else NULL */
static const char *json_text(json_object *j)
{
	const char *s;
	int len;

	if (!j || !json_object_is_type(j, json_type_string))
		return NULL;
	s = json_object_get_string(j);
	len = json_object_get_string_len(j);
	if (!s || len < 0 || memchr(s, '\0', len) || !g_utf8_validate(s, len, NULL))
		return NULL;
	return s;
}

static json_object *member(json_object *o, const char *key)
{
	json_object *v = NULL;

	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static AdMsg *from_json(json_object *j, guint depth, guint *budget);

/* @a (zero) from untrusted JSON; FALSE when it is no argument */
static gboolean arg_from_json(Arg *a, json_object *j, guint depth, guint *budget)
{
	const char *s;

	if ((s = json_text(j))) {
		a->type = ARG_STR;
		a->s = g_strdup(s);
	} else if (j && json_object_is_type(j, json_type_int)) {
		a->type = ARG_INT;
		a->i = json_object_get_int64(j);
	} else if (j && json_object_is_type(j, json_type_double)) {
		a->type = ARG_DOUBLE;
		a->d = json_object_get_double(j);
	} else if ((a->m = from_json(j, depth + 1, budget))) {
		a->type = ARG_MSG;
	} else {
		return FALSE;
	}
	return TRUE;
}

static Piece *piece_from_json(json_object *j, guint depth, guint *budget)
{
	const char *s;
	json_object *args, *values, *n;
	Piece *p;

	if ((s = json_text(j)))
		return piece_new(PIECE_TEXT, s, 0);
	if (!j || !json_object_is_type(j, json_type_object))
		return NULL;
	if ((s = json_text(member(j, "template")))) {
		values = member(j, "values");
		if (values && !json_object_is_type(values, json_type_object))
			return NULL;
		p = piece_new(PIECE_TEMPLATE, s, 0);
		if (values) {
			json_object_object_foreach(values, k, v) {
				const char *vs = json_text(v);

				if (!vs || p->names->len >= MSG_MAX_ARGS || !g_utf8_validate(k, -1, NULL)) {
					piece_free(p);
					return NULL;
				}
				g_ptr_array_add(p->names, g_strdup(k));
				g_ptr_array_add(p->values, g_strdup(vs));
			}
		}
		return p;
	}
	if (!(s = json_text(member(j, "msgid"))))
		return NULL;
	args = member(j, "args");
	if (args && (!json_object_is_type(args, json_type_array) ||
		     json_object_array_length(args) > MSG_MAX_ARGS))
		return NULL;
	p = piece_new(PIECE_MSG, s, args ? json_object_array_length(args) : 0);
	if (member(j, "plural")) {
		n = member(j, "n");
		if (!(s = json_text(member(j, "plural"))) || !n ||
		    !json_object_is_type(n, json_type_int) || json_object_get_int64(n) < 0) {
			piece_free(p);
			return NULL;
		}
		p->plural = g_strdup(s);
		p->n = json_object_get_uint64(n);
	}
	for (guint i = 0; i < p->n_args; i++) {
		if (!arg_from_json(&p->args[i], json_object_array_get_idx(args, i), depth,
				   budget)) {
			piece_free(p);
			return NULL;
		}
	}
	return p;
}

/* @budget: the pieces a whole message may still hold */
static AdMsg *from_json(json_object *j, guint depth, guint *budget)
{
	g_autoptr(AdMsg) m = NULL;

	if (depth > MSG_MAX_DEPTH || !j || !json_object_is_type(j, json_type_array))
		return NULL;
	m = ad_msg_new();
	for (gsize i = 0; i < json_object_array_length(j); i++) {
		Piece *p;

		if (!*budget)
			return NULL;
		(*budget)--;
		if (!(p = piece_from_json(json_object_array_get_idx(j, i), depth, budget)))
			return NULL;
		g_ptr_array_add(m->pieces, p);
	}
	return g_steal_pointer(&m);
}

AdMsg *ad_msg_from_json(json_object *j)
{
	guint budget = MSG_MAX_PIECES;

	return from_json(j, 0, &budget);
}

char *ad_msg_render_json(json_object *j)
{
	g_autoptr(AdMsg) m = ad_msg_from_json(j);

	return m && m->pieces->len ? ad_msg_render(m) : NULL;
}
