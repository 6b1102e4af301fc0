/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-launch-parse.c: the lexer and parser of gst-launch-1.0 strings, and
 * the readers of what they make (gp-launch-private.h).
 *
 * The lexer follows GStreamer's flex rules (gst/parse/parse.l as in 1.22,
 * without the '#' comments of later versions) closely, because the
 * rewriter must agree with gst_parse_launch () on where one thing ends and
 * the next begins: flex takes the longest
 * match over all rules and the earliest rule on a tie, so each rule below
 * returns the longest match it allows at a position and the lexer picks
 * the winner the same way. A few of those rules are surprising and are kept
 * on purpose: identifiers may contain ':' and '%' ("sink_0::xpos=1"), a
 * value runs to the next whitespace unless quoted ("a!b" is one value),
 * caps in a link are part of the link token and end at the next unescaped
 * '!' (or the last ':'), and "["."{_identifier}]" in the URL rule is a
 * character class, so "e/foo" is a URI while "x/foo" is not.
 *
 * The parser is a recursive-descent copy of grammar.y's language (chains,
 * links, pad lists, references, bins); it rejects everything bison would
 * only recover from, since gst_parse_launch () reports those as errors.
 */
#include "gp-launch-private.h"

#include <stdarg.h>
#include <string.h>

G_DEFINE_QUARK (gp-launch-error-quark, gp_launch_error)

/* deeper bins than this are refused, so that the parser's recursion has a
 * bound whatever the input */
#define GP_LAUNCH_MAX_DEPTH 128

/* ------------------------------------------------------------------------ */
/* character classes, as flex sees them in the C locale                      */

/* the space class, which the other files use too: gp_launch_is_space ()
 * in gp-launch-private.h */

static inline gboolean
gp_launch_is_ident_first (guchar c)
{
  return g_ascii_isalnum (c) || c == '_';
}

static inline gboolean
gp_launch_is_ident_char (guchar c)
{
  return g_ascii_isalnum (c) || c == '-' || c == '_' || c == '%' || c == ':';
}

static inline gboolean
gp_launch_is_mime_char (guchar c)
{
  return g_ascii_isalnum (c) || c == '-';
}

/* [[:alnum:]+-\.]: the '+-\.' is a range, '+' to '.', so ',' is in it */
static inline gboolean
gp_launch_is_proto_char (guchar c)
{
  return g_ascii_isalnum (c) || (c >= '+' && c <= '.');
}

/* ["."{_identifier}]: a bracket expression, i.e. one of these characters */
static inline gboolean
gp_launch_is_url_prefix_char (guchar c)
{
  return c != '\0' && strchr ("\".{_identfr}", c) != NULL;
}

/* ------------------------------------------------------------------------ */
/* lexer                                                                     */

typedef enum
{
  TOK_EOF,
  TOK_SPACE,
  TOK_ASSIGNMENT,
  TOK_PRESET,
  TOK_PADREF,
  TOK_REF,
  TOK_BINREF,
  TOK_IDENT,
  TOK_LINK,
  TOK_URL,
  TOK_OP,
  TOK_OTHER,
} GpLaunchTokKind;

typedef struct
{
  GpLaunchTokKind kind;
  gsize start, end;
  gsize value;                  /* assignment/preset: start of the value */
  gboolean unterminated;        /* the value opens a quote it never closes */
  guint seg;                    /* first segment made from it */
} GpLaunchTok;

/* the input of the lexer; last_dq/last_sq: 1 + the offset of the last
 * '"' / '\'' (0: none), so that an unclosed quote fails at once instead
 * of scanning to the end for every value that opens one */
typedef struct
{
  const gchar *s;
  gsize n;
  gsize last_dq, last_sq;
} GpLaunchSrc;

static gsize
gp_launch_ident_end (const gchar * s, gsize n, gsize p)
{
  gsize i;

  if (p >= n || !gp_launch_is_ident_first (s[p]))
    return p;
  for (i = p + 1; i < n && gp_launch_is_ident_char (s[i]); i++);
  return i;
}

gboolean
gp_launch_is_identifier (const gchar * s)
{
  gsize n = strlen (s);

  return n > 0 && gp_launch_ident_end (s, n, 0) == n;
}

/* {_char}+ with _char = "\\". | [^[:space:]]. A backslash may stand alone
 * or escape the next character, so the reachable ends are tracked as a set
 * (r0: this position, r1/r2: the next two). Returns the longest end, or p. */
static gsize
gp_launch_match_bare (const gchar * s, gsize n, gsize p)
{
  gsize i, best = p;
  gboolean r0 = TRUE, r1 = FALSE, r2 = FALSE;

  for (i = p;; i++) {
    if (r0) {
      if (i > p)
        best = i;
      if (i < n && !gp_launch_is_space (s[i]))
        r1 = TRUE;
      if (i + 1 < n && s[i] == '\\' && s[i + 1] != '\n')
        r2 = TRUE;
    }
    r0 = r1;
    r1 = r2;
    r2 = FALSE;
    if (!r0 && !r1)
      break;
  }
  return best;
}

/* q ([^q] | "\\"q)* q. Returns the longest end, or p. */
static gsize
gp_launch_match_quoted (const GpLaunchSrc * src, gsize p, gchar q)
{
  const gchar *s = src->s;
  gsize n = src->n, i, best = p;
  gboolean r0 = TRUE, r1 = FALSE, r2 = FALSE;

  if (p >= n || s[p] != q)
    return p;
  /* the first quote after p always closes: none, no match */
  if ((q == '"' ? src->last_dq : src->last_sq) <= p + 1)
    return p;
  for (i = p + 1;; i++) {
    if (r0 && i < n) {
      if (s[i] == q) {
        best = i + 1;
      } else {
        r1 = TRUE;
        if (s[i] == '\\' && i + 1 < n && s[i + 1] == q)
          r2 = TRUE;
      }
    }
    r0 = r1;
    r1 = r2;
    r2 = FALSE;
    if (!r0 && !r1)
      break;
  }
  return best;
}

static gsize
gp_launch_match_string (const GpLaunchSrc * src, gsize p,
    gboolean * unterminated)
{
  const gchar *s = src->s;
  gsize n = src->n, best = gp_launch_match_bare (s, n, p), e;

  e = gp_launch_match_quoted (src, p, '"');
  best = MAX (best, e);
  if (p < n && s[p] == '"' && e == p && unterminated)
    *unterminated = TRUE;
  e = gp_launch_match_quoted (src, p, '\'');
  best = MAX (best, e);
  if (p < n && s[p] == '\'' && e == p && unterminated)
    *unterminated = TRUE;
  return best;
}

/* {_assign}{_string} from p: [[:space:]]*"="[[:space:]]* then a value. A
 * value never starts with a space, so it starts after all of them. */
static gsize
gp_launch_match_assign_value (const GpLaunchSrc * src, gsize p, gsize * value,
    gboolean * unterminated)
{
  const gchar *s = src->s;
  gsize n = src->n, q = p, e;

  while (q < n && gp_launch_is_space (s[q]))
    q++;
  if (q >= n || s[q] != '=')
    return p;
  q++;
  while (q < n && gp_launch_is_space (s[q]))
    q++;
  e = gp_launch_match_string (src, q, unterminated);
  if (e == q)
    return p;
  *value = q;
  return e;
}

/* caps-in-link automaton states (see gp_launch_match_link) */
enum
{
  L_LEAD = 1 << 0,              /* spaces after the opening [!:] */
  L_TYPE = 1 << 1,              /* in the media type before '/' */
  L_SLASH = 1 << 2,             /* after '/', a type character must follow */
  L_CAPS = 1 << 3,              /* in caps; the caps may end here */
  L_GAP = 1 << 4,               /* after caps: spaces, ';', closing [!:] */
  L_SEMI = 1 << 5,              /* after ';': spaces, then the next caps */
};

/* _link: [!:] alone, or [!:] spaces caps (spaces ; spaces caps)* spaces
 * [!:], with caps = type/subtype (","[^!] | ("\\". | [^;!])+)*. Returns the
 * longest end, or p. */
static gsize
gp_launch_match_link (const gchar * s, gsize n, gsize p)
{
  guint cur = L_LEAD, nxt = 0, nxt2 = 0;
  gsize i, best;

  if (p >= n || (s[p] != '!' && s[p] != ':'))
    return p;
  best = p + 1;
  for (i = p + 1;; i++) {
    if (cur & L_CAPS)
      cur |= L_GAP;
    if (cur != 0 && i < n) {
      guchar c = s[i];

      if ((cur & L_LEAD) && gp_launch_is_space (c))
        nxt |= L_LEAD;
      if ((cur & (L_LEAD | L_TYPE | L_SEMI)) && gp_launch_is_mime_char (c))
        nxt |= L_TYPE;
      if ((cur & L_TYPE) && c == '/')
        nxt |= L_SLASH;
      if ((cur & L_SLASH) && gp_launch_is_mime_char (c))
        nxt |= L_CAPS;
      if (cur & L_CAPS) {
        if (c != ';' && c != '!')
          nxt |= L_CAPS;
        if (c == '\\' && i + 1 < n && s[i + 1] != '\n')
          nxt2 |= L_CAPS;
        if (c == ',' && i + 1 < n && s[i + 1] != '!')
          nxt2 |= L_CAPS;
      }
      if (cur & L_GAP) {
        if (gp_launch_is_space (c))
          nxt |= L_GAP;
        else if (c == ';')
          nxt |= L_SEMI;
        else if (c == '!' || c == ':')
          best = i + 1;
      }
      if ((cur & L_SEMI) && gp_launch_is_space (c))
        nxt |= L_SEMI;
    }
    cur = nxt;
    nxt = nxt2;
    nxt2 = 0;
    if (cur == 0 && nxt == 0)
      break;
  }
  return best;
}

/* _url: protocol "://" [string] | [one of ".{_identfr}] "/" string */
static gsize
gp_launch_match_url (const GpLaunchSrc * src, gsize p)
{
  const gchar *s = src->s;
  gsize n = src->n, best = p, e, q;

  if (p < n && g_ascii_isalpha (s[p])) {
    for (e = p + 1; e < n && gp_launch_is_proto_char (s[e]); e++);
    if (e + 3 <= n && strncmp (s + e, "://", 3) == 0) {
      q = e + 3;
      best = MAX (best, q);
      best = MAX (best, gp_launch_match_string (src, q, NULL));
    }
  }
  q = p;
  if (q + 1 < n && gp_launch_is_url_prefix_char (s[q]) && s[q + 1] == '/')
    q++;
  if (q < n && s[q] == '/') {
    e = gp_launch_match_string (src, q + 1, NULL);
    if (e > q + 1)
      best = MAX (best, e);
  }
  if (p < n && s[p] == '/') {
    e = gp_launch_match_string (src, p + 1, NULL);
    if (e > p + 1)
      best = MAX (best, e);
  }
  return best;
}

/* One token at p (p < n), chosen like flex: longest match, then the rule
 * that comes first in parse.l. */
static void
gp_launch_lex_one (const GpLaunchSrc * src, gsize p, GpLaunchTok * t)
{
  const gchar *s = src->s;
  gsize n = src->n, best = p, e, value = 0, q;
  gboolean unterminated = FALSE;
  GpLaunchTokKind kind = TOK_OTHER;

#define TRY(k, end) G_STMT_START { \
    e = (end); \
    if (e > best) { best = e; kind = (k); } \
  } G_STMT_END

  /* {_assignment} */
  e = gp_launch_ident_end (s, n, p);
  if (e > p) {
    gsize v = 0;
    gboolean u = FALSE;

    e = gp_launch_match_assign_value (src, e, &v, &u);
    if (e > best && v != 0) {
      best = e;
      kind = TOK_ASSIGNMENT;
      value = v;
      unterminated = u;
    }
  }
  /* {_preset} */
  if (n - p >= 7 && strncmp (s + p, "@preset", 7) == 0) {
    gsize v = 0;
    gboolean u = FALSE;

    e = gp_launch_match_assign_value (src, p + 7, &v, &u);
    if (e > best && v != 0) {
      best = e;
      kind = TOK_PRESET;
      value = v;
      unterminated = u;
    }
  }
  /* {_padref} */
  if (s[p] == '.') {
    e = gp_launch_ident_end (s, n, p + 1);
    if (e > p + 1)
      TRY (TOK_PADREF, e);
  }
  /* {_ref} and {_binref} */
  e = gp_launch_ident_end (s, n, p);
  if (e > p) {
    q = e;
    if (q < n && s[q] == '.')
      TRY (TOK_REF, gp_launch_ident_end (s, n, q + 1));
    while (q < n && gp_launch_is_space (s[q]))
      q++;
    if (q < n && s[q] == '.') {
      q++;
      while (q < n && gp_launch_is_space (s[q]))
        q++;
      if (q < n && s[q] == '(')
        TRY (TOK_BINREF, q + 1);
    }
    /* {_identifier} */
    TRY (TOK_IDENT, gp_launch_ident_end (s, n, p));
  }
  TRY (TOK_LINK, gp_launch_match_link (s, n, p));
  TRY (TOK_URL, gp_launch_match_url (src, p));
  if (strchr ("(){}.!:,;=", s[p]) != NULL)
    TRY (TOK_OP, p + 1);
  if (gp_launch_is_space (s[p])) {
    for (q = p + 1; q < n && gp_launch_is_space (s[q]); q++);
    TRY (TOK_SPACE, q);
  }
  TRY (TOK_OTHER, p + 1);
#undef TRY

  t->kind = kind;
  t->start = p;
  t->end = best;
  t->value = kind == TOK_ASSIGNMENT || kind == TOK_PRESET ? value : 0;
  t->unterminated = (kind == TOK_ASSIGNMENT || kind == TOK_PRESET) &&
      unterminated;
  t->seg = 0;
}

/* ------------------------------------------------------------------------ */
/* model                                                                     */

/* (its structs are in gp-launch-private.h) */

static void
gp_launch_segment_free (gpointer data)
{
  GpLaunchSegment *seg = data;

  g_free (seg->text);
  g_free (seg);
}

static void
gp_launch_element_clear (gpointer data)
{
  GpLaunchElementPriv *e = data;

  g_free (e->pub.factory);
  g_free (e->pub.name);
  g_free (e->explicit_name);
  g_free (e->ref_name);
  g_free (e->ref_alias);
}

static GpLaunch *
gp_launch_new (const gchar * text)
{
  GpLaunch *l = g_new0 (GpLaunch, 1);

  l->text = g_strdup (text);
  l->segs = g_ptr_array_new_with_free_func (gp_launch_segment_free);
  l->elements = g_array_new (FALSE, TRUE, sizeof (GpLaunchElementPriv));
  g_array_set_clear_func (l->elements, gp_launch_element_clear);
  l->items = g_array_new (FALSE, TRUE, sizeof (GpLaunchItem));
  l->links = g_array_new (FALSE, TRUE, sizeof (GpLaunchLink));
  return l;
}

void
gp_launch_free (GpLaunch * l)
{
  if (l == NULL)
    return;
  g_free (l->text);
  g_ptr_array_unref (l->segs);
  g_array_unref (l->elements);
  g_array_unref (l->items);
  g_array_unref (l->links);
  g_free (l->toplevel);
  g_free (l);
}

static guint
gp_launch_add_segment (GpLaunch * l, GpLaunchSegKind kind, gsize start,
    gsize end)
{
  GpLaunchSegment *seg = g_new0 (GpLaunchSegment, 1);

  seg->kind = kind;
  seg->text = g_strndup (l->text + start, end - start);
  seg->offset = start;
  seg->element = -1;
  g_ptr_array_add (l->segs, seg);
  return l->segs->len - 1;
}

gsize
gp_launch_seg_end (GpLaunch * l, guint i)
{
  GpLaunchSegment *seg = SEG (l, i);

  return seg->offset + strlen (seg->text);
}

/* ------------------------------------------------------------------------ */
/* parser                                                                    */

typedef struct
{
  const gchar *s;
  gsize n;
  GArray *toks;
  guint pos;
  GpLaunch *l;
  GError **error;
  guint depth;
} GpLaunchParser;

/* A short printable excerpt of the input for an error message: one line,
 * ASCII only. */
static gchar *
gp_launch_excerpt (const gchar * s, gsize start, gsize end)
{
  GString *out = g_string_new (NULL);
  gsize i;

  for (i = start; i < end && out->len < 24; i++) {
    guchar c = s[i];

    g_string_append_c (out, c >= 0x20 && c < 0x7f ? (gchar) c : '?');
  }
  if (i < end)
    g_string_append (out, "...");
  return g_string_free (out, FALSE);
}

/* Errors are one line whatever the launch string's names and values hold
 * (a quoted name may span lines): control characters become spaces. */
gchar *
gp_launch_one_line_vprintf (const gchar * fmt, va_list args)
{
  gchar *msg = g_strdup_vprintf (fmt, args), *c;

  for (c = msg; *c != '\0'; c++)
    if ((guchar) * c < 0x20 || *c == 0x7f)
      *c = ' ';
  return msg;
}

static gboolean
gp_launch_parse_fail (GpLaunchParser * p, gsize at, const gchar * fmt, ...)
    G_GNUC_PRINTF (3, 4);

static gboolean
gp_launch_parse_fail (GpLaunchParser * p, gsize at, const gchar * fmt, ...)
{
  va_list args;
  gchar *msg;

  if (p->error == NULL || *p->error != NULL)
    return FALSE;
  va_start (args, fmt);
  msg = gp_launch_one_line_vprintf (fmt, args);
  va_end (args);
  g_set_error (p->error, GP_LAUNCH_ERROR, GP_LAUNCH_ERROR_SYNTAX,
      "launch string, column %" G_GSIZE_FORMAT ": %s", at + 1, msg);
  g_free (msg);
  return FALSE;
}

static const GpLaunchTok *
gp_launch_peek (GpLaunchParser * p)
{
  while (g_array_index (p->toks, GpLaunchTok, p->pos).kind == TOK_SPACE)
    p->pos++;
  return &g_array_index (p->toks, GpLaunchTok, p->pos);
}

static gboolean
gp_launch_tok_is_op (const GpLaunchTok * t, const gchar * s, gchar c)
{
  return t->kind == TOK_OP && s[t->start] == c;
}

static gboolean
gp_launch_starts_elementary (GpLaunchParser * p, const GpLaunchTok * t)
{
  return t->kind == TOK_IDENT || t->kind == TOK_BINREF ||
      gp_launch_tok_is_op (t, p->s, '(');
}

static gboolean
gp_launch_unexpected (GpLaunchParser * p, const GpLaunchTok * t,
    const gchar * where)
{
  gchar *ex;
  gboolean ret;

  if (t->kind == TOK_EOF)
    return gp_launch_parse_fail (p, t->start, "the string ends %s", where);
  ex = gp_launch_excerpt (p->s, t->start, t->end);
  if (t->kind == TOK_ASSIGNMENT || t->kind == TOK_PRESET)
    ret = gp_launch_parse_fail (p, t->start, "property '%s' does not follow an "
        "element", ex);
  else if (t->kind == TOK_OTHER && (p->s[t->start] == '"' ||
          p->s[t->start] == '\''))
    ret = gp_launch_parse_fail (p, t->start, "stray quote (quotes belong to a "
        "property value)");
  else
    ret = gp_launch_parse_fail (p, t->start, "unexpected '%s' %s", ex, where);
  g_free (ex);
  return ret;
}

static gint
gp_launch_new_element (GpLaunchParser * p, GpLaunchElementKind kind,
    gint parent)
{
  GpLaunchElementPriv e = { {0} };

  e.pub.kind = kind;
  e.pub.parent = parent;
  e.item = -1;
  e.link = -1;
  g_array_append_val (p->l->elements, e);
  return p->l->elements->len - 1;
}

static gint
gp_launch_new_item (GpLaunchParser * p, gint element, gsize start)
{
  GpLaunchItem it = { 0 };

  it.element = element;
  it.ref_seg = -1;
  it.start = start;
  it.link_in = it.link_out = -1;
  g_array_append_val (p->l->items, it);
  return p->l->items->len - 1;
}

/* gst_parse_split_assignment () + gst_parse_unescape () + the string
 * deserializer, for the value of name= (what the element will be called). */
static gchar *
gp_launch_name_from_value (const gchar * v, gsize len)
{
  gchar *s = g_strndup (v, len), *r, *w;
  gboolean in_quotes = FALSE;
  gsize sl;

  sl = strlen (s);
  if (sl >= 2 && s[0] == '"' && s[sl - 1] == '"') {
    memmove (s, s + 1, sl - 2);
    s[sl - 2] = '\0';
  }
  for (r = w = s; *r != '\0'; r++) {
    if (*r == '\\' && !in_quotes) {
      r++;
      if (*r == '\0')
        break;
    } else if (*r == '"' && (!in_quotes || r == s || r[-1] != '\\')) {
      in_quotes = !in_quotes;
    }
    *w++ = *r;
  }
  *w = '\0';
  if (strcmp (s, "NULL") == 0) {
    g_free (s);
    return NULL;
  }
  sl = strlen (s);
  if (sl >= 2 && s[0] == '"' && s[sl - 1] == '"') {
    /* a quoted GStreamer string: backslash escapes, \ooo octal */
    GString *u = g_string_new (NULL);

    for (r = s + 1; r < s + sl - 1; r++) {
      if (*r == '\\' && r + 1 < s + sl - 1) {
        r++;
        if (r + 2 < s + sl - 1 && r[0] >= '0' && r[0] <= '3' &&
            r[1] >= '0' && r[1] <= '7' && r[2] >= '0' && r[2] <= '7') {
          g_string_append_c (u, (gchar) (((r[0] - '0') << 6) |
                  ((r[1] - '0') << 3) | (r[2] - '0')));
          r += 2;
          continue;
        }
      }
      g_string_append_c (u, *r);
    }
    g_free (s);
    return g_string_free (u, FALSE);
  }
  return s;
}

/* the key of key=value: up to the first space or '=' */
gchar *
gp_launch_prop_key (const gchar * text)
{
  gsize k = 0;

  while (text[k] != '\0' && !gp_launch_is_space (text[k]) && text[k] != '=')
    k++;
  return g_strndup (text, k);
}

/* Consumes an ASSIGNMENT or PRESET token as a segment of element el. */
static gboolean
gp_launch_take_property (GpLaunchParser * p, gint el)
{
  const GpLaunchTok *t = gp_launch_peek (p);
  GpLaunchSegment *seg = SEG (p->l, t->seg);
  GpLaunchElementPriv *e = ELEM (p->l, el);

  if (t->unterminated) {
    gchar *ex = gp_launch_excerpt (p->s, t->start, t->value);

    gp_launch_parse_fail (p, t->value,
        "unterminated %s quote in the value of '%s'",
        p->s[t->value] == '"' ? "double" : "single", ex);
    g_free (ex);
    return FALSE;
  }
  seg->kind = t->kind == TOK_PRESET ? GP_LAUNCH_SEG_PRESET :
      GP_LAUNCH_SEG_PROPERTY;
  if (t->kind == TOK_ASSIGNMENT) {
    gchar *key = gp_launch_prop_key (seg->text);

    if (strcmp (key, "name") == 0) {
      g_free (e->explicit_name);
      e->explicit_name =
          gp_launch_name_from_value (p->s + t->value, t->end - t->value);
      e->pub.named = e->explicit_name != NULL;
      e->name_assigned = TRUE;
    }
    g_free (key);
  }
  e->last_seg = e->props_last_seg = t->seg;
  p->pos++;
  return TRUE;
}

/* pads: PADREF (',' IDENTIFIER)*; returns FALSE on error */
static gboolean
gp_launch_parse_pads (GpLaunchParser * p, guint * count, gsize * end)
{
  const GpLaunchTok *t = gp_launch_peek (p);

  *count = 0;
  if (t->kind != TOK_PADREF)
    return TRUE;
  *count = 1;
  *end = t->end;
  p->pos++;
  return TRUE;
}

static gboolean
gp_launch_parse_morepads (GpLaunchParser * p, guint * count, gsize * end)
{
  for (;;) {
    const GpLaunchTok *t = gp_launch_peek (p);

    if (!gp_launch_tok_is_op (t, p->s, ','))
      return TRUE;
    SEG (p->l, t->seg)->kind = GP_LAUNCH_SEG_PAD_COMMA;
    p->pos++;
    t = gp_launch_peek (p);
    if (t->kind != TOK_IDENT)
      return gp_launch_unexpected (p, t, "where a pad name should follow ','");
    SEG (p->l, t->seg)->kind = GP_LAUNCH_SEG_PAD;
    *end = t->end;
    (*count)++;
    p->pos++;
  }
}

static gboolean
gp_launch_parse_pad_list (GpLaunchParser * p, guint * count, gsize * end)
{
  if (!gp_launch_parse_pads (p, count, end))
    return FALSE;
  if (*count == 0)
    return TRUE;
  return gp_launch_parse_morepads (p, count, end);
}

static gint gp_launch_parse_chainlist (GpLaunchParser * p, gint parent,
    gsize open_at);

static void
gp_launch_mark_segments (GpLaunch * l, guint first, guint last, gint el)
{
  guint i;

  for (i = first; i <= last; i++)
    SEG (l, i)->element = el;
}

/* elementary: IDENTIFIER (ASSIGNMENT | PRESET)* | bin. Returns the item. */
static gint
gp_launch_parse_elementary (GpLaunchParser * p, gint parent, gsize item_start)
{
  const GpLaunchTok *t = gp_launch_peek (p);
  gint el, item;
  GpLaunchElementPriv *e;

  if (t->kind == TOK_IDENT) {
    el = gp_launch_new_element (p, GP_LAUNCH_ELEMENT, parent);
    e = ELEM (p->l, el);
    e->pub.factory = g_strndup (p->s + t->start, t->end - t->start);
    e->first_seg = e->last_seg = e->props_last_seg = t->seg;
    p->pos++;
    for (;;) {
      t = gp_launch_peek (p);
      if (t->kind != TOK_ASSIGNMENT && t->kind != TOK_PRESET)
        break;
      if (!gp_launch_take_property (p, el))
        return -1;
    }
    e = ELEM (p->l, el);
    e->create_at = gp_launch_seg_end (p->l, e->last_seg);
  } else {
    gsize open_at = t->start;
    gint n;

    if (p->depth >= GP_LAUNCH_MAX_DEPTH) {
      gp_launch_parse_fail (p, t->start, "bins nested deeper than %d",
          GP_LAUNCH_MAX_DEPTH);
      return -1;
    }
    el = gp_launch_new_element (p, GP_LAUNCH_BIN, parent);
    e = ELEM (p->l, el);
    SEG (p->l, t->seg)->kind = GP_LAUNCH_SEG_BIN_OPEN;
    if (t->kind == TOK_BINREF) {
      gsize k = t->start;

      while (k < t->end && !gp_launch_is_space (p->s[k]) && p->s[k] != '.')
        k++;
      e->pub.factory = g_strndup (p->s + t->start, k - t->start);
    } else {
      e->pub.factory = g_strdup ("bin");
    }
    e->first_seg = e->props_last_seg = t->seg;
    p->pos++;
    for (;;) {
      t = gp_launch_peek (p);
      if (t->kind == TOK_PRESET) {
        gp_launch_unexpected (p, t,
            "in a bin (only properties may follow '(')");
        return -1;
      }
      if (t->kind != TOK_ASSIGNMENT)
        break;
      if (!gp_launch_take_property (p, el))
        return -1;
    }
    p->depth++;
    n = gp_launch_parse_chainlist (p, el, open_at);
    p->depth--;
    if (n < 0)
      return -1;
    t = gp_launch_peek (p);
    e = ELEM (p->l, el);
    e->last_seg = t->seg;
    e->create_at = t->end;
    p->pos++;
  }
  e = ELEM (p->l, el);
  gp_launch_mark_segments (p->l, e->first_seg, e->props_last_seg, el);
  SEG (p->l, e->last_seg)->element = el;
  e->pub.offset = SEG (p->l, e->first_seg)->offset;
  e->pub.length = gp_launch_seg_end (p->l, e->last_seg) - e->pub.offset;
  item = gp_launch_new_item (p, el, item_start);
  ITEM (p->l, item)->el_end = ITEM (p->l, item)->end =
      e->pub.offset + e->pub.length;
  e->item = item;
  return item;
}

/* URL as an element */
static gint
gp_launch_take_url (GpLaunchParser * p, gint parent)
{
  const GpLaunchTok *t = gp_launch_peek (p);
  gint el = gp_launch_new_element (p, GP_LAUNCH_URL, parent), item;
  GpLaunchElementPriv *e = ELEM (p->l, el);

  SEG (p->l, t->seg)->element = el;
  e->first_seg = e->last_seg = e->props_last_seg = t->seg;
  e->pub.offset = t->start;
  e->pub.length = t->end - t->start;
  e->create_at = t->end;
  item = gp_launch_new_item (p, el, t->start);
  ITEM (p->l, item)->el_end = ITEM (p->l, item)->end = t->end;
  e->item = item;
  p->pos++;
  return item;
}

/* reference: REF (',' IDENTIFIER)* */
static gint
gp_launch_take_reference (GpLaunchParser * p)
{
  const GpLaunchTok *t = gp_launch_peek (p);
  gint item = gp_launch_new_item (p, -1, t->start);
  gsize dot = t->start, end = t->end;
  guint pads = 0;

  while (p->s[dot] != '.')
    dot++;
  if (dot + 1 < t->end)
    pads = 1;
  ITEM (p->l, item)->ref_seg = t->seg;
  ITEM (p->l, item)->el_end = t->end;
  p->pos++;
  if (!gp_launch_parse_morepads (p, &pads, &end))
    return -1;
  ITEM (p->l, item)->end = end;
  ITEM (p->l, item)->n_pads_in = ITEM (p->l, item)->n_pads_out = pads;
  return item;
}

/* Consumes a LINK token: its segments were made by the lexer; a link with
 * caps gets a CAPS element. */
static gint
gp_launch_take_link (GpLaunchParser * p, gint src, gint parent)
{
  const GpLaunchTok *t = gp_launch_peek (p);
  GpLaunchLink lk = { 0 };
  guint i;

  lk.src = src;
  lk.sink = -1;
  lk.caps = -1;
  lk.start = t->start;
  lk.end = t->end;
  lk.all = p->s[t->start] == ':' || p->s[t->end - 1] == ':';
  for (i = t->seg; i < p->l->segs->len && SEG (p->l, i)->offset < t->end; i++) {
    if (SEG (p->l, i)->kind == GP_LAUNCH_SEG_CAPS) {
      gint el = gp_launch_new_element (p, GP_LAUNCH_CAPS, parent);
      GpLaunchElementPriv *e = ELEM (p->l, el);

      e->pub.factory = g_strdup ("capsfilter");
      e->pub.offset = SEG (p->l, i)->offset;
      e->pub.length = strlen (SEG (p->l, i)->text);
      e->first_seg = e->last_seg = e->props_last_seg = i;
      e->link = p->l->links->len;
      SEG (p->l, i)->element = el;
      lk.caps = el;
    }
  }
  g_array_append_val (p->l->links, lk);
  ITEM (p->l, src)->link_out = p->l->links->len - 1;
  p->pos++;
  return p->l->links->len - 1;
}

static void
gp_launch_connect_sink (GpLaunchParser * p, gint link, gint sink)
{
  LINK (p->l, link)->sink = sink;
  ITEM (p->l, sink)->link_in = link;
}

/* chain: openchain [link (URL | reference)], where
 * openchain: (elementary pads | URL | reference)
 *            (link pads elementary pads)* */
static gboolean
gp_launch_parse_chain (GpLaunchParser * p, gint parent)
{
  const GpLaunchTok *t = gp_launch_peek (p);
  gint prev;
  gboolean prev_is_ref = FALSE;
  gsize pads_end = 0;

  if (t->kind == TOK_URL) {
    prev = gp_launch_take_url (p, parent);
  } else if (t->kind == TOK_REF) {
    prev = gp_launch_take_reference (p);
    prev_is_ref = TRUE;
  } else if (gp_launch_starts_elementary (p, t)) {
    guint n_out;

    prev = gp_launch_parse_elementary (p, parent, t->start);
    if (prev < 0)
      return FALSE;
    if (!gp_launch_parse_pad_list (p, &n_out, &pads_end))
      return FALSE;
    ITEM (p->l, prev)->n_pads_out = n_out;
    if (n_out > 0)
      ITEM (p->l, prev)->end = pads_end;
  } else if (t->kind == TOK_LINK) {
    return gp_launch_parse_fail (p, t->start, "'%c' has no element before it",
        p->s[t->start]);
  } else if (t->kind == TOK_PADREF) {
    return gp_launch_parse_fail (p, t->start,
        "pad reference with no element before it");
  } else {
    return gp_launch_unexpected (p, t, "where an element should start");
  }
  if (prev < 0)
    return FALSE;

  for (;;) {
    gint link, item;
    gsize link_at, sink_start;
    guint n_in = 0, n_out = 0;

    t = gp_launch_peek (p);
    if (t->kind != TOK_LINK)
      break;
    link_at = t->start;
    link = gp_launch_take_link (p, prev, parent);
    t = gp_launch_peek (p);
    if (t->kind == TOK_URL) {
      gp_launch_connect_sink (p, link, gp_launch_take_url (p, parent));
      return TRUE;
    }
    if (t->kind == TOK_REF) {
      item = gp_launch_take_reference (p);
      if (item < 0)
        return FALSE;
      gp_launch_connect_sink (p, link, item);
      return TRUE;
    }
    sink_start = t->start;
    if (t->kind == TOK_PADREF) {
      gsize e = 0;

      if (!gp_launch_parse_pad_list (p, &n_in, &e))
        return FALSE;
      t = gp_launch_peek (p);
    }
    if (!gp_launch_starts_elementary (p, t)) {
      if (t->kind == TOK_EOF || gp_launch_tok_is_op (t, p->s, ')'))
        return gp_launch_parse_fail (p, link_at, "'%c' links to nothing",
            p->s[link_at]);
      if (t->kind == TOK_LINK)
        return gp_launch_parse_fail (p, t->start, "two links in a row (nothing "
            "between the link at column %" G_GSIZE_FORMAT " and this one)",
            link_at + 1);
      return gp_launch_unexpected (p, t, "after a link");
    }
    item = gp_launch_parse_elementary (p, parent, sink_start);
    if (item < 0)
      return FALSE;
    ITEM (p->l, item)->n_pads_in = n_in;
    ITEM (p->l, item)->start = sink_start;
    if (!gp_launch_parse_pad_list (p, &n_out, &pads_end))
      return FALSE;
    ITEM (p->l, item)->n_pads_out = n_out;
    if (n_out > 0)
      ITEM (p->l, item)->end = pads_end;
    gp_launch_connect_sink (p, link, item);
    prev = item;
    prev_is_ref = FALSE;
  }

  if (prev_is_ref) {
    GpLaunchItem *it = ITEM (p->l, prev);
    gchar *ex = gp_launch_excerpt (p->s, it->start, it->end);

    gp_launch_parse_fail (p, it->start,
        "reference '%s' is not linked to anything", ex);
    g_free (ex);
    return FALSE;
  }
  if (ITEM (p->l, prev)->n_pads_out > 0)
    return gp_launch_parse_fail (p, ITEM (p->l, prev)->el_end,
        "pad reference after "
        "the last element of a chain (no link follows it)");
  return TRUE;
}

/* chain*; stops at EOF (top level) or ')' (in a bin). Returns the number
 * of chains, -1 on error. */
static gint
gp_launch_parse_chainlist (GpLaunchParser * p, gint parent, gsize open_at)
{
  gint n = 0;

  for (;;) {
    const GpLaunchTok *t = gp_launch_peek (p);

    if (t->kind == TOK_EOF) {
      if (parent >= 0) {
        gp_launch_parse_fail (p, open_at,
            "bin opened here is never closed with ')'");
        return -1;
      }
      break;
    }
    if (gp_launch_tok_is_op (t, p->s, ')')) {
      if (parent < 0) {
        gp_launch_parse_fail (p, t->start, "')' closes no bin");
        return -1;
      }
      break;
    }
    if (!gp_launch_parse_chain (p, parent))
      return -1;
    n++;
  }
  if (n == 0) {
    if (parent >= 0)
      gp_launch_parse_fail (p, open_at, "empty bin");
    else
      gp_launch_parse_fail (p, 0, "empty launch string");
    return -1;
  }
  return n;
}

/* Makes the segments of all tokens: a link with caps becomes
 * LINK [SPACE] CAPS [SPACE] LINK. */
static void
gp_launch_make_segments (GpLaunch * l, GArray * toks)
{
  guint i;

  for (i = 0; i < toks->len; i++) {
    GpLaunchTok *t = &g_array_index (toks, GpLaunchTok, i);
    GpLaunchSegKind kind = GP_LAUNCH_SEG_SPACE;

    if (t->kind == TOK_EOF)
      break;
    if (t->kind == TOK_LINK && t->end - t->start > 1) {
      gsize a = t->start + 1, b = t->end - 1;

      t->seg =
          gp_launch_add_segment (l, GP_LAUNCH_SEG_LINK, t->start, t->start + 1);
      while (a < b && gp_launch_is_space (l->text[a]))
        a++;
      while (b > a && gp_launch_is_space (l->text[b - 1]))
        b--;
      if (a > t->start + 1)
        gp_launch_add_segment (l, GP_LAUNCH_SEG_SPACE, t->start + 1, a);
      gp_launch_add_segment (l, GP_LAUNCH_SEG_CAPS, a, b);
      if (b < t->end - 1)
        gp_launch_add_segment (l, GP_LAUNCH_SEG_SPACE, b, t->end - 1);
      gp_launch_add_segment (l, GP_LAUNCH_SEG_LINK, t->end - 1, t->end);
      continue;
    }
    switch (t->kind) {
      case TOK_SPACE:
        kind = GP_LAUNCH_SEG_SPACE;
        break;
      case TOK_ASSIGNMENT:
        kind = GP_LAUNCH_SEG_PROPERTY;
        break;
      case TOK_PRESET:
        kind = GP_LAUNCH_SEG_PRESET;
        break;
      case TOK_PADREF:
        kind = GP_LAUNCH_SEG_PADREF;
        break;
      case TOK_REF:
        kind = GP_LAUNCH_SEG_REF;
        break;
      case TOK_BINREF:
        kind = GP_LAUNCH_SEG_BIN_OPEN;
        break;
      case TOK_IDENT:
        kind = GP_LAUNCH_SEG_FACTORY;
        break;
      case TOK_LINK:
        kind = GP_LAUNCH_SEG_LINK;
        break;
      case TOK_URL:
        kind = GP_LAUNCH_SEG_URL;
        break;
      case TOK_OP:
        kind = l->text[t->start] == ')' ? GP_LAUNCH_SEG_BIN_CLOSE :
            GP_LAUNCH_SEG_BIN_OPEN;
        break;
      default:
        /* only reached in strings that fail to parse */
        kind = GP_LAUNCH_SEG_FACTORY;
        break;
    }
    t->seg = gp_launch_add_segment (l, kind, t->start, t->end);
  }
}

/* ------------------------------------------------------------------------ */
/* public: parse and read                                                    */

GpLaunch *
gp_launch_parse (const gchar * launch, GError ** error)
{
  GpLaunch *l;
  GArray *toks;
  GpLaunchParser p = { 0 };
  GpLaunchSrc src = { 0 };
  gsize n, pos;
  GpLaunchTok eof = { 0 };

  g_return_val_if_fail (launch != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  l = gp_launch_new (launch);
  n = strlen (launch);
  src.s = launch;
  src.n = n;
  for (pos = 0; pos < n; pos++) {
    if (launch[pos] == '"')
      src.last_dq = pos + 1;
    else if (launch[pos] == '\'')
      src.last_sq = pos + 1;
  }
  pos = 0;
  toks = g_array_new (FALSE, TRUE, sizeof (GpLaunchTok));
  while (pos < n) {
    GpLaunchTok t;

    gp_launch_lex_one (&src, pos, &t);
    g_array_append_val (toks, t);
    pos = t.end;
  }
  eof.kind = TOK_EOF;
  eof.start = eof.end = n;
  g_array_append_val (toks, eof);
  gp_launch_make_segments (l, toks);
  g_array_index (toks, GpLaunchTok, toks->len - 1).seg = l->segs->len;

  p.s = launch;
  p.n = n;
  p.toks = toks;
  p.l = l;
  p.error = error;
  if (gp_launch_parse_chainlist (&p, -1, 0) < 0) {
    g_array_unref (toks);
    gp_launch_free (l);
    return NULL;
  }
  g_array_unref (toks);
  gp_launch_predict_names (l);
  return l;
}

GpLaunch *
gp_launch_copy (const GpLaunch * l)
{
  GpLaunch *c;
  guint i;

  g_return_val_if_fail (l != NULL, NULL);
  /* the same form without parsing again: the structs, then their strings */
  c = gp_launch_new (l->text);
  for (i = 0; i < l->segs->len; i++) {
    GpLaunchSegment *seg = g_new (GpLaunchSegment, 1);

    *seg = *SEG (l, i);
    seg->text = g_strdup (seg->text);
    g_ptr_array_add (c->segs, seg);
  }
  g_array_append_vals (c->elements, l->elements->data, l->elements->len);
  for (i = 0; i < c->elements->len; i++) {
    GpLaunchElementPriv *e = ELEM (c, i);

    e->pub.factory = g_strdup (e->pub.factory);
    e->pub.name = g_strdup (e->pub.name);
    e->explicit_name = g_strdup (e->explicit_name);
    e->ref_name = g_strdup (e->ref_name);
    e->ref_alias = g_strdup (e->ref_alias);
  }
  g_array_append_vals (c->items, l->items->data, l->items->len);
  g_array_append_vals (c->links, l->links->data, l->links->len);
  c->toplevel = g_strdup (l->toplevel);
  return c;
}

gchar *
gp_launch_to_string (const GpLaunch * l)
{
  GString *out;
  guint i;

  g_return_val_if_fail (l != NULL, NULL);
  out = g_string_sized_new (strlen (l->text) + 1);
  for (i = 0; i < l->segs->len; i++)
    g_string_append (out, SEG (l, i)->text);
  return g_string_free (out, FALSE);
}

guint
gp_launch_get_n_segments (const GpLaunch * l)
{
  return l->segs->len;
}

const GpLaunchSegment *
gp_launch_get_segment (const GpLaunch * l, guint i)
{
  g_return_val_if_fail (i < l->segs->len, NULL);
  return SEG (l, i);
}

guint
gp_launch_get_n_elements (const GpLaunch * l)
{
  return l->elements->len;
}

const GpLaunchElement *
gp_launch_get_element (const GpLaunch * l, guint i)
{
  g_return_val_if_fail (i < l->elements->len, NULL);
  return &ELEM (l, i)->pub;
}

gint
gp_launch_caps_beside (const GpLaunch * l, gint el, gboolean before)
{
  GpLaunchElementPriv *e;
  GpLaunchItem *it;
  gint lk;

  g_return_val_if_fail (l != NULL, -1);
  if (el < 0 || (guint) el >= l->elements->len)
    return -1;
  e = ELEM (l, el);
  if (e->item < 0)
    return -1;
  it = ITEM (l, e->item);
  lk = before ? it->link_in : it->link_out;
  return lk >= 0 ? LINK (l, lk)->caps : -1;
}

gint
gp_launch_caps_feeds (const GpLaunch * l, gint caps)
{
  GpLaunchElementPriv *c;

  g_return_val_if_fail (l != NULL, -1);
  if (caps < 0 || (guint) caps >= l->elements->len)
    return -1;
  c = ELEM (l, caps);
  if (c->pub.kind != GP_LAUNCH_CAPS || c->link < 0)
    return -1;
  return ITEM (l, LINK (l, c->link)->sink)->element;
}

JsonObject *
gp_launch_element_props (const GpLaunch * l, gint el)
{
  JsonObject *props = json_object_new ();
  GpLaunchElementPriv *e;
  guint i;

  g_return_val_if_fail (l != NULL, props);
  if (el < 0 || (guint) el >= l->elements->len)
    return props;
  e = ELEM (l, el);
  for (i = e->first_seg; i <= e->props_last_seg && i < l->segs->len; i++) {
    GpLaunchSegment *seg = SEG (l, i);
    gchar *key, *value;
    gsize v;

    if (seg->kind != GP_LAUNCH_SEG_PROPERTY || seg->element != el)
      continue;
    key = gp_launch_prop_key (seg->text);
    v = strchr (seg->text, '=') - seg->text + 1;
    while (gp_launch_is_space (seg->text[v]))
      v++;
    value = gp_launch_name_from_value (seg->text + v, strlen (seg->text) - v);
    json_object_set_string_member (props, key, value ? value : "NULL");
    g_free (value);
    g_free (key);
  }
  return props;
}

/* ------------------------------------------------------------------------ */
/* gst-launch-1.0's command line                                             */

gchar *
gp_launch_from_gst_launch (const gchar * const *argv, gchar ** dropped)
{
  GString *launch, *left_out;
  gchar *base;
  gboolean is_launch;
  guint i;

  if (dropped)
    *dropped = NULL;
  if (argv == NULL || argv[0] == NULL)
    return NULL;
  base = g_path_get_basename (argv[0]);
  is_launch = g_str_has_prefix (base, "gst-launch");
  g_free (base);
  if (!is_launch)
    return NULL;
  launch = g_string_new (NULL);
  left_out = g_string_new (argv[0]);
  for (i = 1; argv[i] != NULL; i++) {
    const gchar *arg = argv[i];
    const gchar *c;

    if (*arg == '\0')
      continue;
    if (launch->len == 0 && arg[0] == '-') {
      g_string_append_printf (left_out, " %s", arg);
      /* the options that take the next argument as their value */
      if ((!strcmp (arg, "-o") || !strcmp (arg, "--output") ||
              !strcmp (arg, "-X") || !strcmp (arg, "--exclude")) &&
          argv[i + 1] != NULL)
        g_string_append_printf (left_out, " %s", argv[++i]);
      continue;
    }
    if (launch->len > 0)
      g_string_append_c (launch, ' ');
    for (c = arg; *c; c++) {
      if (*c == ' ')
        g_string_append_c (launch, '\\');
      g_string_append_c (launch, *c);
    }
  }
  if (dropped)
    *dropped = g_string_free (left_out, FALSE);
  else
    g_string_free (left_out, TRUE);
  return g_string_free (launch, FALSE);
}
