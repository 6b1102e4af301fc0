/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-launch.c: tokenizer, element naming and rewriter for gst-launch-1.0
 * strings.
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
 *
 * Names: GStreamer names an unnamed object after its GType ("GstFooBar" ->
 * "foobar<N>", "foo2" -> "foo2-<N>") with one counter per type for the whole
 * process. gst_parse_launch () makes elements in the order bison reduces
 * them (an element when its properties end, a bin at its ')', the
 * top-level pipeline last), then performs the links in the order they were
 * reduced, and each link with caps makes one capsfilter per pad pair
 * (gst_element_link_pads_filtered ()). A link from an element with only
 * "sometimes" source pads fails first (its capsfilter is made and thrown
 * away) and is linked again when the pad appears, at run time.
 * GStreamer 1.22 passes the properties to the constructor, so "name=x"
 * uses up no number of the type's counter (checked by the tests). The API
 * for that came in 1.20; before, the element was made with a default name
 * and renamed, so there a named element does use up a number.
 */
#include "gp-launch.h"

#include <stdarg.h>
#include <string.h>

#include <gst/gst.h>

G_DEFINE_QUARK (gp-launch-error-quark, gp_launch_error)

/* deeper bins than this are refused, so that the parser's recursion has a
 * bound whatever the input */
#define GP_LAUNCH_MAX_DEPTH 128

/* ------------------------------------------------------------------------ */
/* character classes, as flex sees them in the C locale                      */

static inline gboolean
is_space (guchar c)
{
  return c == ' ' || (c >= '\t' && c <= '\r');
}

static inline gboolean
is_ident_first (guchar c)
{
  return g_ascii_isalnum (c) || c == '_';
}

static inline gboolean
is_ident_char (guchar c)
{
  return g_ascii_isalnum (c) || c == '-' || c == '_' || c == '%' || c == ':';
}

static inline gboolean
is_mime_char (guchar c)
{
  return g_ascii_isalnum (c) || c == '-';
}

/* [[:alnum:]+-\.]: the '+-\.' is a range, '+' to '.', so ',' is in it */
static inline gboolean
is_proto_char (guchar c)
{
  return g_ascii_isalnum (c) || (c >= '+' && c <= '.');
}

/* ["."{_identifier}]: a bracket expression, i.e. one of these characters */
static inline gboolean
is_url_prefix_char (guchar c)
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
} TokKind;

typedef struct
{
  TokKind kind;
  gsize start, end;
  gsize value;                  /* assignment/preset: start of the value */
  gboolean unterminated;        /* the value opens a quote it never closes */
  guint seg;                    /* first segment made from it */
} Tok;

/* the input of the lexer; last_dq/last_sq: 1 + the offset of the last
 * '"' / '\'' (0: none), so that an unclosed quote fails at once instead
 * of scanning to the end for every value that opens one */
typedef struct
{
  const gchar *s;
  gsize n;
  gsize last_dq, last_sq;
} Src;

static gsize
ident_end (const gchar * s, gsize n, gsize p)
{
  gsize i;

  if (p >= n || !is_ident_first (s[p]))
    return p;
  for (i = p + 1; i < n && is_ident_char (s[i]); i++);
  return i;
}

/* {_char}+ with _char = "\\". | [^[:space:]]. A backslash may stand alone
 * or escape the next character, so the reachable ends are tracked as a set
 * (r0: this position, r1/r2: the next two). Returns the longest end, or p. */
static gsize
match_bare (const gchar * s, gsize n, gsize p)
{
  gsize i, best = p;
  gboolean r0 = TRUE, r1 = FALSE, r2 = FALSE;

  for (i = p;; i++) {
    if (r0) {
      if (i > p)
        best = i;
      if (i < n && !is_space (s[i]))
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
match_quoted (const Src * src, gsize p, gchar q)
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
match_string (const Src * src, gsize p, gboolean * unterminated)
{
  const gchar *s = src->s;
  gsize n = src->n, best = match_bare (s, n, p), e;

  e = match_quoted (src, p, '"');
  best = MAX (best, e);
  if (p < n && s[p] == '"' && e == p && unterminated)
    *unterminated = TRUE;
  e = match_quoted (src, p, '\'');
  best = MAX (best, e);
  if (p < n && s[p] == '\'' && e == p && unterminated)
    *unterminated = TRUE;
  return best;
}

/* {_assign}{_string} from p: [[:space:]]*"="[[:space:]]* then a value. A
 * value never starts with a space, so it starts after all of them. */
static gsize
match_assign_value (const Src * src, gsize p, gsize * value,
    gboolean * unterminated)
{
  const gchar *s = src->s;
  gsize n = src->n, q = p, e;

  while (q < n && is_space (s[q]))
    q++;
  if (q >= n || s[q] != '=')
    return p;
  q++;
  while (q < n && is_space (s[q]))
    q++;
  e = match_string (src, q, unterminated);
  if (e == q)
    return p;
  *value = q;
  return e;
}

/* caps-in-link automaton states (see match_link) */
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
match_link (const gchar * s, gsize n, gsize p)
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

      if ((cur & L_LEAD) && is_space (c))
        nxt |= L_LEAD;
      if ((cur & (L_LEAD | L_TYPE | L_SEMI)) && is_mime_char (c))
        nxt |= L_TYPE;
      if ((cur & L_TYPE) && c == '/')
        nxt |= L_SLASH;
      if ((cur & L_SLASH) && is_mime_char (c))
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
        if (is_space (c))
          nxt |= L_GAP;
        else if (c == ';')
          nxt |= L_SEMI;
        else if (c == '!' || c == ':')
          best = i + 1;
      }
      if ((cur & L_SEMI) && is_space (c))
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
match_url (const Src * src, gsize p)
{
  const gchar *s = src->s;
  gsize n = src->n, best = p, e, q;

  if (p < n && g_ascii_isalpha (s[p])) {
    for (e = p + 1; e < n && is_proto_char (s[e]); e++);
    if (e + 3 <= n && strncmp (s + e, "://", 3) == 0) {
      q = e + 3;
      best = MAX (best, q);
      best = MAX (best, match_string (src, q, NULL));
    }
  }
  q = p;
  if (q + 1 < n && is_url_prefix_char (s[q]) && s[q + 1] == '/')
    q++;
  if (q < n && s[q] == '/') {
    e = match_string (src, q + 1, NULL);
    if (e > q + 1)
      best = MAX (best, e);
  }
  if (p < n && s[p] == '/') {
    e = match_string (src, p + 1, NULL);
    if (e > p + 1)
      best = MAX (best, e);
  }
  return best;
}

/* One token at p (p < n), chosen like flex: longest match, then the rule
 * that comes first in parse.l. */
static void
lex_one (const Src * src, gsize p, Tok * t)
{
  const gchar *s = src->s;
  gsize n = src->n, best = p, e, value = 0, q;
  gboolean unterminated = FALSE;
  TokKind kind = TOK_OTHER;

#define TRY(k, end) G_STMT_START { \
    e = (end); \
    if (e > best) { best = e; kind = (k); } \
  } G_STMT_END

  /* {_assignment} */
  e = ident_end (s, n, p);
  if (e > p) {
    gsize v = 0;
    gboolean u = FALSE;

    e = match_assign_value (src, e, &v, &u);
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

    e = match_assign_value (src, p + 7, &v, &u);
    if (e > best && v != 0) {
      best = e;
      kind = TOK_PRESET;
      value = v;
      unterminated = u;
    }
  }
  /* {_padref} */
  if (s[p] == '.') {
    e = ident_end (s, n, p + 1);
    if (e > p + 1)
      TRY (TOK_PADREF, e);
  }
  /* {_ref} and {_binref} */
  e = ident_end (s, n, p);
  if (e > p) {
    q = e;
    if (q < n && s[q] == '.')
      TRY (TOK_REF, ident_end (s, n, q + 1));
    while (q < n && is_space (s[q]))
      q++;
    if (q < n && s[q] == '.') {
      q++;
      while (q < n && is_space (s[q]))
        q++;
      if (q < n && s[q] == '(')
        TRY (TOK_BINREF, q + 1);
    }
    /* {_identifier} */
    TRY (TOK_IDENT, ident_end (s, n, p));
  }
  TRY (TOK_LINK, match_link (s, n, p));
  TRY (TOK_URL, match_url (src, p));
  if (strchr ("(){}.!:,;=", s[p]) != NULL)
    TRY (TOK_OP, p + 1);
  if (is_space (s[p])) {
    for (q = p + 1; q < n && is_space (s[q]); q++);
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

typedef struct
{
  GpLaunchElement pub;
  gint item;                    /* the chain item it is, -1 for caps */
  gint link;                    /* caps: the link it sits in */
  guint first_seg, last_seg;    /* its segments (bins: opener .. ')') */
  guint props_last_seg;         /* last segment of factory+properties (bins:
                                 * of the opener and its assignments) */
  gsize create_at;              /* where bison makes it (order of creation) */
  gchar *explicit_name;         /* value of its last name=, processed */
  gboolean name_assigned;       /* it has a name= (even name=NULL) */
  guint alias_n;                /* n-th element of its factory */
  gchar *ref_name;              /* a patch batch's names for it */
  gchar *ref_alias;
} LElement;

typedef struct
{
  gint element;                 /* -1 for a reference */
  gint ref_seg;                 /* the REF segment of a reference */
  gsize start, end;             /* sink pads .. src pads included */
  gsize el_end;                 /* end of the elementary itself */
  guint n_pads_in, n_pads_out;
  gint link_in, link_out;
} Item;

typedef struct
{
  gint src, sink;               /* items */
  gsize start, end;             /* opening [!:] .. closing [!:] */
  gint caps;                    /* element of its caps, -1 */
  gboolean all;                 /* ':' */
} Link;

struct _GpLaunch
{
  gchar *text;
  GPtrArray *segs;
  GArray *elements;
  GArray *items;
  GArray *links;
  gchar *toplevel;
};

#define ELEM(l, i) (&g_array_index ((l)->elements, LElement, (i)))
#define ITEM(l, i) (&g_array_index ((l)->items, Item, (i)))
#define LINK(l, i) (&g_array_index ((l)->links, Link, (i)))
#define SEG(l, i) ((GpLaunchSegment *) g_ptr_array_index ((l)->segs, (i)))

static void
segment_free (gpointer data)
{
  GpLaunchSegment *seg = data;

  g_free (seg->text);
  g_free (seg);
}

static void
element_clear (gpointer data)
{
  LElement *e = data;

  g_free (e->pub.factory);
  g_free (e->pub.name);
  g_free (e->explicit_name);
  g_free (e->ref_name);
  g_free (e->ref_alias);
}

static GpLaunch *
launch_new (const gchar * text)
{
  GpLaunch *l = g_new0 (GpLaunch, 1);

  l->text = g_strdup (text);
  l->segs = g_ptr_array_new_with_free_func (segment_free);
  l->elements = g_array_new (FALSE, TRUE, sizeof (LElement));
  g_array_set_clear_func (l->elements, element_clear);
  l->items = g_array_new (FALSE, TRUE, sizeof (Item));
  l->links = g_array_new (FALSE, TRUE, sizeof (Link));
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
add_segment (GpLaunch * l, GpLaunchSegKind kind, gsize start, gsize end)
{
  GpLaunchSegment *seg = g_new0 (GpLaunchSegment, 1);

  seg->kind = kind;
  seg->text = g_strndup (l->text + start, end - start);
  seg->offset = start;
  seg->element = -1;
  g_ptr_array_add (l->segs, seg);
  return l->segs->len - 1;
}

static gsize
seg_end (GpLaunch * l, guint i)
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
} Parser;

/* A short printable excerpt of the input for an error message: one line,
 * ASCII only. */
static gchar *
excerpt (const gchar * s, gsize start, gsize end)
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
static gchar *one_line_vprintf (const gchar * fmt, va_list args)
    G_GNUC_PRINTF (1, 0);

static gchar *
one_line_vprintf (const gchar * fmt, va_list args)
{
  gchar *msg = g_strdup_vprintf (fmt, args), *c;

  for (c = msg; *c != '\0'; c++)
    if ((guchar) * c < 0x20 || *c == 0x7f)
      *c = ' ';
  return msg;
}

static gboolean
parse_fail (Parser * p, gsize at, const gchar * fmt, ...) G_GNUC_PRINTF (3, 4);

static gboolean
parse_fail (Parser * p, gsize at, const gchar * fmt, ...)
{
  va_list args;
  gchar *msg;

  if (p->error == NULL || *p->error != NULL)
    return FALSE;
  va_start (args, fmt);
  msg = one_line_vprintf (fmt, args);
  va_end (args);
  g_set_error (p->error, GP_LAUNCH_ERROR, GP_LAUNCH_ERROR_SYNTAX,
      "launch string, column %" G_GSIZE_FORMAT ": %s", at + 1, msg);
  g_free (msg);
  return FALSE;
}

static const Tok *
peek (Parser * p)
{
  while (g_array_index (p->toks, Tok, p->pos).kind == TOK_SPACE)
    p->pos++;
  return &g_array_index (p->toks, Tok, p->pos);
}

static gboolean
tok_is_op (const Tok * t, const gchar * s, gchar c)
{
  return t->kind == TOK_OP && s[t->start] == c;
}

static gboolean
starts_elementary (Parser * p, const Tok * t)
{
  return t->kind == TOK_IDENT || t->kind == TOK_BINREF ||
      tok_is_op (t, p->s, '(');
}

static gboolean
unexpected (Parser * p, const Tok * t, const gchar * where)
{
  gchar *ex;
  gboolean ret;

  if (t->kind == TOK_EOF)
    return parse_fail (p, t->start, "the string ends %s", where);
  ex = excerpt (p->s, t->start, t->end);
  if (t->kind == TOK_ASSIGNMENT || t->kind == TOK_PRESET)
    ret = parse_fail (p, t->start, "property '%s' does not follow an "
        "element", ex);
  else if (t->kind == TOK_OTHER && (p->s[t->start] == '"' ||
          p->s[t->start] == '\''))
    ret = parse_fail (p, t->start, "stray quote (quotes belong to a "
        "property value)");
  else
    ret = parse_fail (p, t->start, "unexpected '%s' %s", ex, where);
  g_free (ex);
  return ret;
}

static gint
new_element (Parser * p, GpLaunchElementKind kind, gint parent)
{
  LElement e = { {0} };

  e.pub.kind = kind;
  e.pub.parent = parent;
  e.item = -1;
  e.link = -1;
  g_array_append_val (p->l->elements, e);
  return p->l->elements->len - 1;
}

static gint
new_item (Parser * p, gint element, gsize start)
{
  Item it = { 0 };

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
name_from_value (const gchar * v, gsize len)
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
static gchar *
prop_key (const gchar * text)
{
  gsize k = 0;

  while (text[k] != '\0' && !is_space (text[k]) && text[k] != '=')
    k++;
  return g_strndup (text, k);
}

static gboolean
keys_equal (const gchar * a, const gchar * b)
{
  for (; *a != '\0' && *b != '\0'; a++, b++) {
    gchar ca = *a == '_' ? '-' : *a, cb = *b == '_' ? '-' : *b;

    if (ca != cb)
      return FALSE;
  }
  return *a == *b;
}

/* Consumes an ASSIGNMENT or PRESET token as a segment of element el. */
static gboolean
take_property (Parser * p, gint el)
{
  const Tok *t = peek (p);
  GpLaunchSegment *seg = SEG (p->l, t->seg);
  LElement *e = ELEM (p->l, el);

  if (t->unterminated) {
    gchar *ex = excerpt (p->s, t->start, t->value);

    parse_fail (p, t->value, "unterminated %s quote in the value of '%s'",
        p->s[t->value] == '"' ? "double" : "single", ex);
    g_free (ex);
    return FALSE;
  }
  seg->kind = t->kind == TOK_PRESET ? GP_LAUNCH_SEG_PRESET :
      GP_LAUNCH_SEG_PROPERTY;
  if (t->kind == TOK_ASSIGNMENT) {
    gchar *key = prop_key (seg->text);

    if (strcmp (key, "name") == 0) {
      g_free (e->explicit_name);
      e->explicit_name = name_from_value (p->s + t->value, t->end - t->value);
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
parse_pads (Parser * p, guint * count, gsize * end)
{
  const Tok *t = peek (p);

  *count = 0;
  if (t->kind != TOK_PADREF)
    return TRUE;
  *count = 1;
  *end = t->end;
  p->pos++;
  return TRUE;
}

static gboolean
parse_morepads (Parser * p, guint * count, gsize * end)
{
  for (;;) {
    const Tok *t = peek (p);

    if (!tok_is_op (t, p->s, ','))
      return TRUE;
    SEG (p->l, t->seg)->kind = GP_LAUNCH_SEG_PAD_COMMA;
    p->pos++;
    t = peek (p);
    if (t->kind != TOK_IDENT)
      return unexpected (p, t, "where a pad name should follow ','");
    SEG (p->l, t->seg)->kind = GP_LAUNCH_SEG_PAD;
    *end = t->end;
    (*count)++;
    p->pos++;
  }
}

static gboolean
parse_pad_list (Parser * p, guint * count, gsize * end)
{
  if (!parse_pads (p, count, end))
    return FALSE;
  if (*count == 0)
    return TRUE;
  return parse_morepads (p, count, end);
}

static gint parse_chainlist (Parser * p, gint parent, gsize open_at);

static void
mark_segments (GpLaunch * l, guint first, guint last, gint el)
{
  guint i;

  for (i = first; i <= last; i++)
    SEG (l, i)->element = el;
}

/* elementary: IDENTIFIER (ASSIGNMENT | PRESET)* | bin. Returns the item. */
static gint
parse_elementary (Parser * p, gint parent, gsize item_start)
{
  const Tok *t = peek (p);
  gint el, item;
  LElement *e;

  if (t->kind == TOK_IDENT) {
    el = new_element (p, GP_LAUNCH_ELEMENT, parent);
    e = ELEM (p->l, el);
    e->pub.factory = g_strndup (p->s + t->start, t->end - t->start);
    e->first_seg = e->last_seg = e->props_last_seg = t->seg;
    p->pos++;
    for (;;) {
      t = peek (p);
      if (t->kind != TOK_ASSIGNMENT && t->kind != TOK_PRESET)
        break;
      if (!take_property (p, el))
        return -1;
    }
    e = ELEM (p->l, el);
    e->create_at = seg_end (p->l, e->last_seg);
  } else {
    gsize open_at = t->start;
    gint n;

    if (p->depth >= GP_LAUNCH_MAX_DEPTH) {
      parse_fail (p, t->start, "bins nested deeper than %d",
          GP_LAUNCH_MAX_DEPTH);
      return -1;
    }
    el = new_element (p, GP_LAUNCH_BIN, parent);
    e = ELEM (p->l, el);
    SEG (p->l, t->seg)->kind = GP_LAUNCH_SEG_BIN_OPEN;
    if (t->kind == TOK_BINREF) {
      gsize k = t->start;

      while (k < t->end && !is_space (p->s[k]) && p->s[k] != '.')
        k++;
      e->pub.factory = g_strndup (p->s + t->start, k - t->start);
    } else {
      e->pub.factory = g_strdup ("bin");
    }
    e->first_seg = e->props_last_seg = t->seg;
    p->pos++;
    for (;;) {
      t = peek (p);
      if (t->kind == TOK_PRESET) {
        unexpected (p, t, "in a bin (only properties may follow '(')");
        return -1;
      }
      if (t->kind != TOK_ASSIGNMENT)
        break;
      if (!take_property (p, el))
        return -1;
    }
    p->depth++;
    n = parse_chainlist (p, el, open_at);
    p->depth--;
    if (n < 0)
      return -1;
    t = peek (p);
    e = ELEM (p->l, el);
    e->last_seg = t->seg;
    e->create_at = t->end;
    p->pos++;
  }
  e = ELEM (p->l, el);
  mark_segments (p->l, e->first_seg, e->props_last_seg, el);
  SEG (p->l, e->last_seg)->element = el;
  e->pub.offset = SEG (p->l, e->first_seg)->offset;
  e->pub.length = seg_end (p->l, e->last_seg) - e->pub.offset;
  item = new_item (p, el, item_start);
  ITEM (p->l, item)->el_end = ITEM (p->l, item)->end =
      e->pub.offset + e->pub.length;
  e->item = item;
  return item;
}

/* URL as an element */
static gint
take_url (Parser * p, gint parent)
{
  const Tok *t = peek (p);
  gint el = new_element (p, GP_LAUNCH_URL, parent), item;
  LElement *e = ELEM (p->l, el);

  SEG (p->l, t->seg)->element = el;
  e->first_seg = e->last_seg = e->props_last_seg = t->seg;
  e->pub.offset = t->start;
  e->pub.length = t->end - t->start;
  e->create_at = t->end;
  item = new_item (p, el, t->start);
  ITEM (p->l, item)->el_end = ITEM (p->l, item)->end = t->end;
  e->item = item;
  p->pos++;
  return item;
}

/* reference: REF (',' IDENTIFIER)* */
static gint
take_reference (Parser * p)
{
  const Tok *t = peek (p);
  gint item = new_item (p, -1, t->start);
  gsize dot = t->start, end = t->end;
  guint pads = 0;

  while (p->s[dot] != '.')
    dot++;
  if (dot + 1 < t->end)
    pads = 1;
  ITEM (p->l, item)->ref_seg = t->seg;
  ITEM (p->l, item)->el_end = t->end;
  p->pos++;
  if (!parse_morepads (p, &pads, &end))
    return -1;
  ITEM (p->l, item)->end = end;
  ITEM (p->l, item)->n_pads_in = ITEM (p->l, item)->n_pads_out = pads;
  return item;
}

/* Consumes a LINK token: its segments were made by the lexer; a link with
 * caps gets a CAPS element. */
static gint
take_link (Parser * p, gint src, gint parent)
{
  const Tok *t = peek (p);
  Link lk = { 0 };
  guint i;

  lk.src = src;
  lk.sink = -1;
  lk.caps = -1;
  lk.start = t->start;
  lk.end = t->end;
  lk.all = p->s[t->start] == ':' || p->s[t->end - 1] == ':';
  for (i = t->seg; i < p->l->segs->len && SEG (p->l, i)->offset < t->end; i++) {
    if (SEG (p->l, i)->kind == GP_LAUNCH_SEG_CAPS) {
      gint el = new_element (p, GP_LAUNCH_CAPS, parent);
      LElement *e = ELEM (p->l, el);

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
connect_sink (Parser * p, gint link, gint sink)
{
  LINK (p->l, link)->sink = sink;
  ITEM (p->l, sink)->link_in = link;
}

/* chain: openchain [link (URL | reference)], where
 * openchain: (elementary pads | URL | reference)
 *            (link pads elementary pads)* */
static gboolean
parse_chain (Parser * p, gint parent)
{
  const Tok *t = peek (p);
  gint prev;
  gboolean prev_is_ref = FALSE;
  gsize pads_end = 0;

  if (t->kind == TOK_URL) {
    prev = take_url (p, parent);
  } else if (t->kind == TOK_REF) {
    prev = take_reference (p);
    prev_is_ref = TRUE;
  } else if (starts_elementary (p, t)) {
    guint n_out;

    prev = parse_elementary (p, parent, t->start);
    if (prev < 0)
      return FALSE;
    if (!parse_pad_list (p, &n_out, &pads_end))
      return FALSE;
    ITEM (p->l, prev)->n_pads_out = n_out;
    if (n_out > 0)
      ITEM (p->l, prev)->end = pads_end;
  } else if (t->kind == TOK_LINK) {
    return parse_fail (p, t->start, "'%c' has no element before it",
        p->s[t->start]);
  } else if (t->kind == TOK_PADREF) {
    return parse_fail (p, t->start, "pad reference with no element before "
        "it");
  } else {
    return unexpected (p, t, "where an element should start");
  }
  if (prev < 0)
    return FALSE;

  for (;;) {
    gint link, item;
    gsize link_at, sink_start;
    guint n_in = 0, n_out = 0;

    t = peek (p);
    if (t->kind != TOK_LINK)
      break;
    link_at = t->start;
    link = take_link (p, prev, parent);
    t = peek (p);
    if (t->kind == TOK_URL) {
      connect_sink (p, link, take_url (p, parent));
      return TRUE;
    }
    if (t->kind == TOK_REF) {
      item = take_reference (p);
      if (item < 0)
        return FALSE;
      connect_sink (p, link, item);
      return TRUE;
    }
    sink_start = t->start;
    if (t->kind == TOK_PADREF) {
      gsize e = 0;

      if (!parse_pad_list (p, &n_in, &e))
        return FALSE;
      t = peek (p);
    }
    if (!starts_elementary (p, t)) {
      if (t->kind == TOK_EOF || tok_is_op (t, p->s, ')'))
        return parse_fail (p, link_at, "'%c' links to nothing",
            p->s[link_at]);
      if (t->kind == TOK_LINK)
        return parse_fail (p, t->start, "two links in a row (nothing "
            "between the link at column %" G_GSIZE_FORMAT " and this one)",
            link_at + 1);
      return unexpected (p, t, "after a link");
    }
    item = parse_elementary (p, parent, sink_start);
    if (item < 0)
      return FALSE;
    ITEM (p->l, item)->n_pads_in = n_in;
    ITEM (p->l, item)->start = sink_start;
    if (!parse_pad_list (p, &n_out, &pads_end))
      return FALSE;
    ITEM (p->l, item)->n_pads_out = n_out;
    if (n_out > 0)
      ITEM (p->l, item)->end = pads_end;
    connect_sink (p, link, item);
    prev = item;
    prev_is_ref = FALSE;
  }

  if (prev_is_ref) {
    Item *it = ITEM (p->l, prev);
    gchar *ex = excerpt (p->s, it->start, it->end);

    parse_fail (p, it->start, "reference '%s' is not linked to anything",
        ex);
    g_free (ex);
    return FALSE;
  }
  if (ITEM (p->l, prev)->n_pads_out > 0)
    return parse_fail (p, ITEM (p->l, prev)->el_end, "pad reference after "
        "the last element of a chain (no link follows it)");
  return TRUE;
}

/* chain*; stops at EOF (top level) or ')' (in a bin). Returns the number
 * of chains, -1 on error. */
static gint
parse_chainlist (Parser * p, gint parent, gsize open_at)
{
  gint n = 0;

  for (;;) {
    const Tok *t = peek (p);

    if (t->kind == TOK_EOF) {
      if (parent >= 0) {
        parse_fail (p, open_at, "bin opened here is never closed with ')'");
        return -1;
      }
      break;
    }
    if (tok_is_op (t, p->s, ')')) {
      if (parent < 0) {
        parse_fail (p, t->start, "')' closes no bin");
        return -1;
      }
      break;
    }
    if (!parse_chain (p, parent))
      return -1;
    n++;
  }
  if (n == 0) {
    if (parent >= 0)
      parse_fail (p, open_at, "empty bin");
    else
      parse_fail (p, 0, "empty launch string");
    return -1;
  }
  return n;
}

/* Makes the segments of all tokens: a link with caps becomes
 * LINK [SPACE] CAPS [SPACE] LINK. */
static void
make_segments (GpLaunch * l, GArray * toks)
{
  guint i;

  for (i = 0; i < toks->len; i++) {
    Tok *t = &g_array_index (toks, Tok, i);
    GpLaunchSegKind kind = GP_LAUNCH_SEG_SPACE;

    if (t->kind == TOK_EOF)
      break;
    if (t->kind == TOK_LINK && t->end - t->start > 1) {
      gsize a = t->start + 1, b = t->end - 1;

      t->seg = add_segment (l, GP_LAUNCH_SEG_LINK, t->start, t->start + 1);
      while (a < b && is_space (l->text[a]))
        a++;
      while (b > a && is_space (l->text[b - 1]))
        b--;
      if (a > t->start + 1)
        add_segment (l, GP_LAUNCH_SEG_SPACE, t->start + 1, a);
      add_segment (l, GP_LAUNCH_SEG_CAPS, a, b);
      if (b < t->end - 1)
        add_segment (l, GP_LAUNCH_SEG_SPACE, b, t->end - 1);
      add_segment (l, GP_LAUNCH_SEG_LINK, t->end - 1, t->end);
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
    t->seg = add_segment (l, kind, t->start, t->end);
  }
}

/* ------------------------------------------------------------------------ */
/* names                                                                     */

/* Factories whose GType name is not their factory name and that are not
 * registered here, as seen in real captures (Jetson Orin NX, JetPack 6:
 * nvvidconv's type is "Gstnvvconv", so its elements are "nvvconv0"...). */
static const struct
{
  const gchar *factory, *type;
} known_types[] = {
  {"nvvidconv", "Gstnvvconv"},
};

typedef struct
{
  GHashTable *counters;         /* type name -> next number */
  GHashTable *types;            /* factory -> type name (or "") */
  gboolean registry;
} Namer;

static const gchar *
type_name_for (Namer * nm, const gchar * factory)
{
  const gchar *type;
  gchar *found = NULL;
  guint i;

  type = g_hash_table_lookup (nm->types, factory);
  if (type != NULL)
    return type;
  if (nm->registry) {
    GstElementFactory *f = gst_element_factory_find (factory);

    if (f != NULL) {
      GstPluginFeature *loaded = gst_plugin_feature_load (GST_PLUGIN_FEATURE
          (f));

      if (loaded != NULL) {
        GType t = gst_element_factory_get_element_type (GST_ELEMENT_FACTORY
            (loaded));

        if (t != G_TYPE_INVALID)
          found = g_strdup (g_type_name (t));
        gst_object_unref (loaded);
      }
      gst_object_unref (f);
    }
  }
  for (i = 0; found == NULL && i < G_N_ELEMENTS (known_types); i++)
    if (strcmp (known_types[i].factory, factory) == 0)
      found = g_strdup (known_types[i].type);
  if (found == NULL)
    found = g_strdup (factory);
  g_hash_table_insert (nm->types, g_strdup (factory), found);
  return found;
}

/* gst_object_set_name_default (): "GstFooBar" -> "foobar<N>", a type
 * name ending in a digit gets a '-' ("queue2-0") */
static gchar *
next_default_name (Namer * nm, const gchar * type)
{
  guint count = GPOINTER_TO_UINT (g_hash_table_lookup (nm->counters, type));
  const gchar *base = g_str_has_prefix (type, "Gst") ? type + 3 : type;
  gsize bl = strlen (base);
  gchar *name, *lower;

  g_hash_table_insert (nm->counters, g_strdup (type),
      GUINT_TO_POINTER (count + 1));
  if (bl > 0 && g_ascii_isdigit (base[bl - 1]))
    name = g_strdup_printf ("%s-%u", base, count);
  else
    name = g_strdup_printf ("%s%u", base, count);
  lower = g_ascii_strdown (name, -1);
  g_free (name);
  return lower;
}

/* the factory gst_element_make_from_uri () would pick: the highest rank
 * among URI handlers of that direction and protocol */
static gchar *
url_factory (Namer * nm, const gchar * uri, gboolean sink)
{
  GList *list, *walk;
  gchar *proto, *best = NULL;
  guint best_rank = 0;

  if (!nm->registry)
    return NULL;
  /* GStreamer before 1.20 asserts on a URI it cannot read */
  proto = gst_uri_is_valid (uri) ? gst_uri_get_protocol (uri) : NULL;
  if (proto == NULL)
    return NULL;
  list = gst_registry_get_feature_list (gst_registry_get (),
      GST_TYPE_ELEMENT_FACTORY);
  for (walk = list; walk != NULL; walk = walk->next) {
    GstElementFactory *f = walk->data;
    const gchar *const *protos;
    guint rank = gst_plugin_feature_get_rank (GST_PLUGIN_FEATURE (f));

    if (gst_element_factory_get_uri_type (f) !=
        (sink ? GST_URI_SINK : GST_URI_SRC))
      continue;
    protos = gst_element_factory_get_uri_protocols (f);
    for (; protos != NULL && *protos != NULL; protos++) {
      /* gst_plugin_feature_rank_compare_func (): rank, then name */
      if (g_ascii_strcasecmp (*protos, proto) == 0 &&
          (best == NULL || rank > best_rank || (rank == best_rank &&
                  strcmp (GST_OBJECT_NAME (f), best) < 0))) {
        g_free (best);
        best = g_strdup (GST_OBJECT_NAME (f));
        best_rank = rank;
      }
    }
  }
  gst_plugin_feature_list_free (list);
  g_free (proto);
  return best;
}

/* TRUE when linking from this element must wait for a pad that appears at
 * run time: its factory has "sometimes" source pads and no others. */
static gboolean
links_later (Namer * nm, const gchar * factory)
{
  GstElementFactory *f;
  const GList *walk;
  gboolean sometimes = FALSE, other = FALSE;

  if (!nm->registry || factory == NULL)
    return FALSE;
  f = gst_element_factory_find (factory);
  if (f == NULL)
    return FALSE;
  for (walk = gst_element_factory_get_static_pad_templates (f); walk;
      walk = walk->next) {
    GstStaticPadTemplate *tmpl = walk->data;

    if (tmpl->direction != GST_PAD_SRC)
      continue;
    if (tmpl->presence == GST_PAD_SOMETIMES)
      sometimes = TRUE;
    else
      other = TRUE;
  }
  gst_object_unref (f);
  return sometimes && !other;
}

static gint
compare_create_at (gconstpointer a, gconstpointer b, gpointer user_data)
{
  GpLaunch *l = user_data;
  gsize ca = ELEM (l, *(const gint *) a)->create_at;
  gsize cb = ELEM (l, *(const gint *) b)->create_at;

  return ca < cb ? -1 : ca > cb ? 1 : 0;
}

static gint
compare_link_order (gconstpointer a, gconstpointer b, gpointer user_data)
{
  GpLaunch *l = user_data;
  gsize ea = ITEM (l, LINK (l, *(const gint *) a)->sink)->end;
  gsize eb = ITEM (l, LINK (l, *(const gint *) b)->sink)->end;

  return ea < eb ? -1 : ea > eb ? 1 : 0;
}

static const gchar *
ref_name_of (GpLaunch * l, gint item, gchar ** tmp)
{
  const gchar *text = SEG (l, ITEM (l, item)->ref_seg)->text;
  const gchar *dot = strchr (text, '.');

  *tmp = g_strndup (text, dot - text);
  return *tmp;
}

static gint
element_by_name (GpLaunch * l, const gchar * name)
{
  guint i;

  for (i = 0; i < l->elements->len; i++)
    if (ELEM (l, i)->pub.name != NULL &&
        strcmp (ELEM (l, i)->pub.name, name) == 0)
      return i;
  return -1;
}

static void
predict_names (GpLaunch * l)
{
  Namer nm;
  GArray *order;
  GPtrArray *later;
  GHashTable *alias_counts;
  const gchar *caps_type;
  gboolean named_keeps_counter;
  guint i, n_top = 0;

  nm.registry = gst_is_initialized ();
  nm.counters = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  nm.types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  /* GStreamer before 1.20 made the element first and renamed it after */
  named_keeps_counter = TRUE;
  if (nm.registry) {
    guint major, minor, micro, nano;

    gst_version (&major, &minor, &micro, &nano);
    named_keeps_counter = major > 1 || minor >= 20;
  }

  alias_counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  order = g_array_new (FALSE, FALSE, sizeof (gint));
  for (i = 0; i < l->elements->len; i++) {
    LElement *e = ELEM (l, i);
    const gchar *key = e->pub.factory != NULL ? e->pub.factory : "";
    guint n = GPOINTER_TO_UINT (g_hash_table_lookup (alias_counts, key));

    e->alias_n = n;
    g_hash_table_insert (alias_counts, g_strdup (key),
        GUINT_TO_POINTER (n + 1));
    if (e->pub.kind != GP_LAUNCH_CAPS) {
      gint idx = i;

      g_array_append_val (order, idx);
      if (e->pub.parent < 0)
        n_top++;
    }
  }
  g_hash_table_unref (alias_counts);

  /* 1. elements, in the order bison makes them */
  g_array_sort_with_data (order, compare_create_at, l);
  for (i = 0; i < order->len; i++) {
    LElement *e = ELEM (l, g_array_index (order, gint, i));

    if (e->pub.kind == GP_LAUNCH_URL) {
      gboolean sink = ITEM (l, e->item)->link_in >= 0;

      g_free (e->pub.factory);
      e->pub.factory = url_factory (&nm, SEG (l, e->first_seg)->text, sink);
      if (e->pub.factory == NULL)
        continue;
    }
    if (e->pub.kind == GP_LAUNCH_ELEMENT && e->explicit_name != NULL &&
        named_keeps_counter) {
      e->pub.name = g_strdup (e->explicit_name);
    } else {
      e->pub.name = next_default_name (&nm, type_name_for (&nm,
              e->pub.factory));
      if (e->explicit_name != NULL) {
        g_free (e->pub.name);
        e->pub.name = g_strdup (e->explicit_name);
      } else if (e->name_assigned && !named_keeps_counter) {
        /* setting the name to NULL afterwards names it anew */
        g_free (e->pub.name);
        e->pub.name = next_default_name (&nm, type_name_for (&nm,
                e->pub.factory));
      }
    }
    e->pub.name_certain = TRUE;
  }
  g_array_unref (order);
  if (n_top > 1)
    l->toplevel = next_default_name (&nm, type_name_for (&nm, "pipeline"));

  /* 2. links, in the order bison reduced them; a link with caps makes a
   * capsfilter per pad pair, thrown away when the link has to wait */
  caps_type = type_name_for (&nm, "capsfilter");
  order = g_array_new (FALSE, FALSE, sizeof (gint));
  for (i = 0; i < l->links->len; i++) {
    gint idx = i;

    if (LINK (l, i)->sink >= 0)
      g_array_append_val (order, idx);
  }
  g_array_sort_with_data (order, compare_link_order, l);
  later = g_ptr_array_new ();
  for (i = 0; i < order->len; i++) {
    Link *lk = LINK (l, g_array_index (order, gint, i));
    Item *src = ITEM (l, lk->src), *sink = ITEM (l, lk->sink);
    LElement *caps, *from = NULL;
    guint calls, k;

    if (lk->caps < 0)
      continue;
    caps = ELEM (l, lk->caps);
    if (src->element >= 0) {
      from = ELEM (l, src->element);
    } else {
      gchar *tmp = NULL;
      gint found = element_by_name (l, ref_name_of (l, lk->src, &tmp));

      from = found >= 0 ? ELEM (l, found) : NULL;
      g_free (tmp);
    }
    if (src->n_pads_out > 0 && sink->n_pads_in > 0) {
      /* pad lists of different lengths fail before any capsfilter */
      calls = src->n_pads_out == sink->n_pads_in ? src->n_pads_out : 0;
    } else {
      calls = 1;
    }
    if (calls == 0)
      continue;
    if (from != NULL && from->pub.kind == GP_LAUNCH_ELEMENT &&
        links_later (&nm, from->pub.factory)) {
      for (k = 0; k < calls; k++)
        g_free (next_default_name (&nm, caps_type));
      g_ptr_array_add (later, caps);
      continue;
    }
    caps->pub.name = next_default_name (&nm, caps_type);
    caps->pub.name_certain = calls == 1 && !lk->all;
    for (k = 1; k < calls; k++)
      g_free (next_default_name (&nm, caps_type));
  }
  /* 3. the waiting links, when their pads appear: order unknown */
  for (i = 0; i < later->len; i++) {
    LElement *caps = g_ptr_array_index (later, i);

    caps->pub.name = next_default_name (&nm, caps_type);
    caps->pub.name_certain = FALSE;
  }
  g_ptr_array_unref (later);
  g_array_unref (order);
  g_hash_table_unref (nm.counters);
  g_hash_table_unref (nm.types);
}

/* ------------------------------------------------------------------------ */
/* public: parse and read                                                    */

GpLaunch *
gp_launch_parse (const gchar * launch, GError ** error)
{
  GpLaunch *l;
  GArray *toks;
  Parser p = { 0 };
  Src src = { 0 };
  gsize n, pos;
  Tok eof = { 0 };

  g_return_val_if_fail (launch != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  l = launch_new (launch);
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
  toks = g_array_new (FALSE, TRUE, sizeof (Tok));
  while (pos < n) {
    Tok t;

    lex_one (&src, pos, &t);
    g_array_append_val (toks, t);
    pos = t.end;
  }
  eof.kind = TOK_EOF;
  eof.start = eof.end = n;
  g_array_append_val (toks, eof);
  make_segments (l, toks);
  g_array_index (toks, Tok, toks->len - 1).seg = l->segs->len;

  p.s = launch;
  p.n = n;
  p.toks = toks;
  p.l = l;
  p.error = error;
  if (parse_chainlist (&p, -1, 0) < 0) {
    g_array_unref (toks);
    gp_launch_free (l);
    return NULL;
  }
  g_array_unref (toks);
  predict_names (l);
  return l;
}

GpLaunch *
gp_launch_copy (const GpLaunch * l)
{
  g_return_val_if_fail (l != NULL, NULL);
  return gp_launch_parse (l->text, NULL);
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

const gchar *
gp_launch_get_toplevel_name (const GpLaunch * l)
{
  return l->toplevel;
}

static gboolean
alias_matches (const gchar * factory, guint n, const gchar * name)
{
  gsize fl;
  gchar *end = NULL;
  guint64 v;

  if (factory == NULL || !g_str_has_prefix (name, factory))
    return FALSE;
  fl = strlen (factory);
  if (!g_ascii_isdigit (name[fl]))
    return FALSE;
  v = g_ascii_strtoull (name + fl, &end, 10);
  return *end == '\0' && v == n;
}

gint
gp_launch_find_element (const GpLaunch * l, const gchar * name)
{
  guint i;

  g_return_val_if_fail (l != NULL && name != NULL, -1);
  for (i = 0; i < l->elements->len; i++)
    if (ELEM (l, i)->pub.name != NULL &&
        strcmp (ELEM (l, i)->pub.name, name) == 0)
      return i;
  for (i = 0; i < l->elements->len; i++)
    if (alias_matches (ELEM (l, i)->pub.factory, ELEM (l, i)->alias_n, name))
      return i;
  return -1;
}

gint
gp_launch_caps_beside (const GpLaunch * l, gint el, gboolean before)
{
  LElement *e;
  Item *it;
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
  LElement *c;

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
  LElement *e;
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
    key = prop_key (seg->text);
    v = strchr (seg->text, '=') - seg->text + 1;
    while (is_space (seg->text[v]))
      v++;
    value = name_from_value (seg->text + v, strlen (seg->text) - v);
    json_object_set_string_member (props, key, value ? value : "NULL");
    g_free (value);
    g_free (key);
  }
  return props;
}

/* ------------------------------------------------------------------------ */
/* patches                                                                   */

typedef struct
{
  gsize off, del;
  gchar *ins;
} Edit;

static void
edit_clear (gpointer data)
{
  g_free (((Edit *) data)->ins);
}

static void
add_edit (GArray * edits, gsize off, gsize del, gchar * ins)
{
  Edit e = { off, del, ins };

  g_array_append_val (edits, e);
}

static gint
compare_edits (gconstpointer a, gconstpointer b)
{
  const Edit *ea = a, *eb = b;

  if (ea->off != eb->off)
    return ea->off < eb->off ? -1 : 1;
  /* an insertion before a deletion at the same place */
  return (ea->del > 0) - (eb->del > 0);
}

static gchar *
apply_edits (const gchar * text, GArray * edits)
{
  GString *out = g_string_new (NULL);
  gsize at = 0;
  guint i;

  g_array_sort (edits, compare_edits);
  for (i = 0; i < edits->len; i++) {
    Edit *e = &g_array_index (edits, Edit, i);

    g_assert (e->off >= at);
    g_string_append_len (out, text + at, e->off - at);
    g_string_append (out, e->ins != NULL ? e->ins : "");
    at = e->off + e->del;
  }
  g_string_append (out, text + at);
  return g_string_free (out, FALSE);
}

/* Where an offset of the old text is in the new one; FALSE if deleted. A
 * replacement that starts at the offset keeps it (a renamed factory is the
 * same element), a deletion that starts there removes it, an insertion
 * there pushes it right. */
static gboolean
map_offset (GArray * edits, gsize o, gsize * out)
{
  gssize delta = 0;
  guint i;

  for (i = 0; i < edits->len; i++) {
    Edit *e = &g_array_index (edits, Edit, i);
    gsize ins = e->ins != NULL ? strlen (e->ins) : 0;

    if (e->off > o)
      break;
    if (e->off == o && e->del > 0) {
      if (ins > 0)
        break;
      return FALSE;
    }
    if (e->off + e->del > o)
      return FALSE;
    delta += (gssize) ins - (gssize) e->del;
  }
  *out = o + delta;
  return TRUE;
}

static gboolean
patch_fail (GError ** error, guint index, const gchar * fmt, ...)
    G_GNUC_PRINTF (3, 4);

static gboolean
patch_fail (GError ** error, guint index, const gchar * fmt, ...)
{
  va_list args;
  gchar *msg;

  va_start (args, fmt);
  msg = one_line_vprintf (fmt, args);
  va_end (args);
  g_set_error (error, GP_LAUNCH_ERROR, GP_LAUNCH_ERROR_PATCH,
      "patch %u: %s", index, msg);
  g_free (msg);
  return FALSE;
}

static gboolean
is_identifier (const gchar * s)
{
  gsize n = strlen (s);

  return n > 0 && ident_end (s, n, 0) == n;
}

/* A value as GStreamer should receive it, written so the lexer and
 * gst_parse_split_assignment () give it back: bare when that is safe,
 * else double-quoted with '"' and '\' escaped. */
static gchar *
quote_value (const gchar * v)
{
  GString *q;
  const gchar *c;
  gboolean bare = *v != '\0';

  for (c = v; *c != '\0' && bare; c++)
    bare = g_ascii_isalnum (*c) || strchr ("_-+.:/,@%", *c) != NULL;
  if (bare)
    return g_strdup (v);
  q = g_string_new ("\"");
  for (c = v; *c != '\0'; c++) {
    if (*c == '"' || *c == '\\')
      g_string_append_c (q, '\\');
    g_string_append_c (q, *c);
  }
  g_string_append_c (q, '"');
  return g_string_free (q, FALSE);
}

gchar *
gp_launch_value_text (JsonNode * node)
{
  if (node == NULL || JSON_NODE_TYPE (node) != JSON_NODE_VALUE)
    return NULL;
  switch (json_node_get_value_type (node)) {
    case G_TYPE_STRING:
      return g_strdup (json_node_get_string (node));
    case G_TYPE_BOOLEAN:
      return g_strdup (json_node_get_boolean (node) ? "true" : "false");
    case G_TYPE_INT64:
      return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
    case G_TYPE_DOUBLE:{
      gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

      return g_strdup (g_ascii_dtostr (buf, sizeof buf,
              json_node_get_double (node)));
    }
    default:
      return NULL;
  }
}

static const gchar *
member_string (JsonObject * o, const gchar * key)
{
  JsonNode *n;

  if (!json_object_has_member (o, key))
    return NULL;
  n = json_object_get_member (o, key);
  if (JSON_NODE_TYPE (n) != JSON_NODE_VALUE ||
      json_node_get_value_type (n) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (n);
}

/* " key=value" for each member of props, checked; out may be NULL */
static gboolean
props_text (JsonObject * op, guint index, GString * out, GError ** error)
{
  JsonNode *pn;
  JsonObject *props;
  GList *members, *walk;
  gboolean ok = TRUE;

  if (!json_object_has_member (op, "props"))
    return TRUE;
  pn = json_object_get_member (op, "props");
  if (JSON_NODE_TYPE (pn) != JSON_NODE_OBJECT)
    return patch_fail (error, index, "\"props\" must be an object");
  props = json_node_get_object (pn);
  members = json_object_get_members (props);
  for (walk = members; walk != NULL && ok; walk = walk->next) {
    const gchar *key = walk->data;
    gchar *v = gp_launch_value_text (json_object_get_member (props, key)), *q;

    if (!is_identifier (key)) {
      ok = patch_fail (error, index, "property name \"%s\" is not valid", key);
    } else if (v == NULL) {
      ok = patch_fail (error, index, "property \"%s\" needs a string, number "
          "or boolean value", key);
    } else if (out != NULL) {
      q = quote_value (v);
      g_string_append_printf (out, " %s=%s", key, q);
      g_free (q);
    }
    g_free (v);
  }
  g_list_free (members);
  return ok;
}

static gboolean
props_check (JsonObject * op, guint index, GError ** error)
{
  return props_text (op, index, NULL, error);
}

/* the element a batch calls name, or -1 */
static gint
resolve (GpLaunch * l, const gchar * name)
{
  guint i;

  for (i = 0; i < l->elements->len; i++)
    if (ELEM (l, i)->ref_name != NULL &&
        strcmp (ELEM (l, i)->ref_name, name) == 0)
      return i;
  for (i = 0; i < l->elements->len; i++)
    if (ELEM (l, i)->ref_alias != NULL &&
        strcmp (ELEM (l, i)->ref_alias, name) == 0)
      return i;
  return -1;
}

static gint
resolve_member (GpLaunch * l, JsonObject * op, const gchar * key,
    guint index, GError ** error)
{
  const gchar *name = member_string (op, key);
  gint el;

  if (name == NULL) {
    patch_fail (error, index, "\"%s\" must name an element", key);
    return -1;
  }
  el = resolve (l, name);
  if (el < 0)
    patch_fail (error, index, "no element \"%s\" in the launch string", name);
  return el;
}

static const gchar *
label (GpLaunch * l, gint el)
{
  return ELEM (l, el)->ref_name != NULL ? ELEM (l, el)->ref_name :
      ELEM (l, el)->pub.factory;
}

/* the chain item (element, bin or URL) of a non-caps element */
static Item *
item_of (GpLaunch * l, gint el)
{
  return ELEM (l, el)->item >= 0 ? ITEM (l, ELEM (l, el)->item) : NULL;
}

/* where " key=value" goes at the end of an element's (or bin opener's)
 * properties */
static gsize
props_end (GpLaunch * l, gint el)
{
  return seg_end (l, ELEM (l, el)->props_last_seg);
}

/* the last property segment of el with this key, or -1 */
static gint
find_prop (GpLaunch * l, gint el, const gchar * key)
{
  LElement *e = ELEM (l, el);
  gint found = -1;
  guint i;

  for (i = e->first_seg; i <= e->props_last_seg; i++) {
    GpLaunchSegment *seg = SEG (l, i);
    gchar *k;

    if (seg->kind != GP_LAUNCH_SEG_PROPERTY)
      continue;
    k = prop_key (seg->text);
    if (keys_equal (k, key))
      found = i;
    g_free (k);
  }
  return found;
}

/* offset of the value in a property segment */
static gsize
prop_value_offset (GpLaunchSegment * seg)
{
  const gchar *eq = strchr (seg->text, '=');
  gsize v = eq - seg->text + 1;

  while (is_space (seg->text[v]))
    v++;
  return seg->offset + v;
}

static gboolean
op_insert (GpLaunch * l, JsonObject * op, guint index, GArray * edits,
    gsize * expect_at, GError ** error)
{
  const gchar *factory = member_string (op, "element");
  gboolean after = json_object_has_member (op, "after");
  gint el;
  GString *desc;
  gsize at;

  if (after == json_object_has_member (op, "before"))
    return patch_fail (error, index, "insert needs one of \"after\" or "
        "\"before\"");
  if (factory == NULL || !is_identifier (factory))
    return patch_fail (error, index, "insert needs \"element\": a factory "
        "name");
  el = resolve_member (l, op, after ? "after" : "before", index, error);
  if (el < 0)
    return FALSE;
  desc = g_string_new (factory);
  if (!props_text (op, index, desc, error)) {
    g_string_free (desc, TRUE);
    return FALSE;
  }
  if (ELEM (l, el)->pub.kind == GP_LAUNCH_CAPS) {
    /* after caps = before the element they feed, and the other way round */
    Link *lk = LINK (l, ELEM (l, el)->link);

    after = !after;
    at = after ? ITEM (l, lk->src)->end : ITEM (l, lk->sink)->start;
  } else {
    Item *it = item_of (l, el);

    if (after && it->link_out < 0) {
      g_string_free (desc, TRUE);
      return patch_fail (error, index, "\"%s\" has no link after it in its "
          "chain", label (l, el));
    }
    if (!after && it->link_in < 0) {
      g_string_free (desc, TRUE);
      return patch_fail (error, index, "\"%s\" has no link before it in its "
          "chain", label (l, el));
    }
    at = after ? it->end : it->start;
  }
  if (after) {
    *expect_at = at + 3;
    g_string_prepend (desc, " ! ");
  } else {
    *expect_at = at;
    g_string_append (desc, " ! ");
  }
  add_edit (edits, at, 0, g_string_free (desc, FALSE));
  return TRUE;
}

/* edits that set key=value on el: the value of its last key= replaced, or
 * " key=value" added at the end of its properties */
static void
set_edit (GpLaunch * l, gint el, const gchar * key, const gchar * value,
    GArray * edits)
{
  gint seg = find_prop (l, el, key);
  gchar *q = quote_value (value);

  if (seg >= 0) {
    gsize v = prop_value_offset (SEG (l, seg));

    add_edit (edits, v, seg_end (l, seg) - v, q);
  } else {
    add_edit (edits, props_end (l, el), 0, g_strdup_printf (" %s=%s", key,
            q));
    g_free (q);
  }
}

static gboolean
op_replace (GpLaunch * l, JsonObject * op, guint index, GArray * edits,
    GError ** error)
{
  const gchar *factory = member_string (op, "element");
  gboolean keep = FALSE;
  gint el;
  LElement *e;
  GString *extra;
  guint i;

  if (factory == NULL || !is_identifier (factory))
    return patch_fail (error, index, "replace needs \"element\": a factory "
        "name");
  if (json_object_has_member (op, "keep_props")) {
    JsonNode *k = json_object_get_member (op, "keep_props");

    if (JSON_NODE_TYPE (k) != JSON_NODE_VALUE ||
        json_node_get_value_type (k) != G_TYPE_BOOLEAN)
      return patch_fail (error, index, "\"keep_props\" must be true or "
          "false");
    keep = json_node_get_boolean (k);
  }
  el = resolve_member (l, op, "target", index, error);
  if (el < 0)
    return FALSE;
  e = ELEM (l, el);
  if (e->pub.kind != GP_LAUNCH_ELEMENT)
    return patch_fail (error, index, "\"%s\" is not an element with a "
        "factory (use \"caps\" for caps)", label (l, el));
  extra = g_string_new (NULL);
  if (!props_check (op, index, error)) {
    g_string_free (extra, TRUE);
    return FALSE;
  }
  add_edit (edits, e->pub.offset, strlen (SEG (l, e->first_seg)->text),
      g_strdup (factory));
  if (json_object_has_member (op, "props")) {
    JsonObject *props = json_object_get_object_member (op, "props");
    GList *members = json_object_get_members (props), *walk;

    for (walk = members; walk != NULL; walk = walk->next) {
      const gchar *key = walk->data;
      gchar *v = gp_launch_value_text (json_object_get_member (props, key));
      gint seg = find_prop (l, el, key);

      /* a property already there gets the new value (and is not dropped
       * below), others are added */
      if (seg >= 0) {
        gsize at = prop_value_offset (SEG (l, seg));

        add_edit (edits, at, seg_end (l, seg) - at, quote_value (v));
      } else {
        gchar *q = quote_value (v);

        g_string_append_printf (extra, " %s=%s", key, q);
        g_free (q);
      }
      g_free (v);
    }
    g_list_free (members);
  }
  for (i = e->first_seg + 1; i <= e->props_last_seg; i++) {
    GpLaunchSegment *seg = SEG (l, i);
    gchar *k;
    gboolean drop;

    if (seg->kind != GP_LAUNCH_SEG_PROPERTY && seg->kind !=
        GP_LAUNCH_SEG_PRESET)
      continue;
    k = prop_key (seg->text);
    /* name= stays: references and findings use it; a property given in
     * "props" is replaced, not dropped */
    drop = !keep && !(seg->kind == GP_LAUNCH_SEG_PROPERTY &&
        strcmp (k, "name") == 0);
    if (drop && seg->kind == GP_LAUNCH_SEG_PROPERTY &&
        json_object_has_member (op, "props")) {
      JsonObject *props = json_object_get_object_member (op, "props");
      GList *members = json_object_get_members (props), *walk;

      for (walk = members; walk != NULL && drop; walk = walk->next)
        if (keys_equal (walk->data, k) && (gint) i == find_prop (l, el, k))
          drop = FALSE;
      g_list_free (members);
    }
    g_free (k);
    if (drop) {
      /* with the whitespace before it */
      gsize from = SEG (l, i - 1)->kind == GP_LAUNCH_SEG_SPACE ?
          SEG (l, i - 1)->offset : seg->offset;

      add_edit (edits, from, seg_end (l, i) - from, NULL);
    }
  }
  if (extra->len > 0)
    add_edit (edits, props_end (l, el), 0, g_strdup (extra->str));
  g_string_free (extra, TRUE);
  return TRUE;
}

static gboolean
op_set (GpLaunch * l, JsonObject * op, guint index, GArray * edits,
    GError ** error)
{
  const gchar *key = member_string (op, "prop");
  gchar *value;
  gint el;

  if (key == NULL || !is_identifier (key))
    return patch_fail (error, index, "set needs \"prop\": a property name");
  value = json_object_has_member (op, "value") ?
      gp_launch_value_text (json_object_get_member (op, "value")) : NULL;
  if (value == NULL)
    return patch_fail (error, index, "set needs \"value\": a string, number "
        "or boolean");
  el = resolve_member (l, op, "target", index, error);
  if (el >= 0 && ELEM (l, el)->pub.kind != GP_LAUNCH_ELEMENT &&
      ELEM (l, el)->pub.kind != GP_LAUNCH_BIN) {
    patch_fail (error, index, "\"%s\" has no properties to set",
        label (l, el));
    el = -1;
  }
  if (el >= 0)
    set_edit (l, el, key, value, edits);
  g_free (value);
  return el >= 0;
}

static gboolean
op_caps (GpLaunch * l, JsonObject * op, guint index, GArray * edits,
    GError ** error)
{
  const gchar *caps_in = member_string (op, "caps");
  gchar *caps;
  gint el, target = -1;
  Item *it;
  Link *lk;
  gboolean after = json_object_has_member (op, "after");
  gboolean before = json_object_has_member (op, "before");
  gboolean ok = TRUE;

  if (caps_in == NULL)
    return patch_fail (error, index, "caps needs \"caps\": a caps string");
  caps = g_strstrip (g_strdup (caps_in));
  if (*caps == '\0') {
    g_free (caps);
    return patch_fail (error, index, "empty caps");
  }
  if (gst_is_initialized ()) {
    GstCaps *c = gst_caps_from_string (caps);

    if (c == NULL)
      ok = patch_fail (error, index, "\"%s\" is not a caps string", caps);
    else
      gst_caps_unref (c);
  }
  if (ok && (after + before + json_object_has_member (op, "target")) != 1)
    ok = patch_fail (error, index, "caps needs one of \"after\", \"before\" "
        "or \"target\"");
  if (!ok) {
    g_free (caps);
    return FALSE;
  }
  el = resolve_member (l, op, after ? "after" : before ? "before" : "target",
      index, error);
  if (el < 0) {
    g_free (caps);
    return FALSE;
  }
  if (ELEM (l, el)->pub.kind == GP_LAUNCH_CAPS) {
    if (!after && !before)
      target = el;
    else
      ok = patch_fail (error, index, "\"%s\" is caps: give it as "
          "\"target\"", label (l, el));
  } else if (!after && !before) {
    ok = patch_fail (error, index, "\"%s\" is not caps: use \"after\" or "
        "\"before\"", label (l, el));
  } else {
    it = item_of (l, el);
    if ((after ? it->link_out : it->link_in) < 0) {
      ok = patch_fail (error, index, "\"%s\" has no link %s it in its chain",
          label (l, el), after ? "after" : "before");
    } else {
      lk = LINK (l, after ? it->link_out : it->link_in);
      if (lk->caps >= 0)
        target = lk->caps;
      else if (after)
        add_edit (edits, it->end, 0, g_strdup_printf (" ! %s", caps));
      else
        add_edit (edits, it->start, 0, g_strdup_printf ("%s ! ", caps));
    }
  }
  if (ok && target >= 0)
    add_edit (edits, ELEM (l, target)->pub.offset,
        ELEM (l, target)->pub.length, g_strdup (caps));
  g_free (caps);
  return ok;
}

static gboolean
op_remove (GpLaunch * l, JsonObject * op, guint index, GArray * edits,
    GError ** error)
{
  gint el = resolve_member (l, op, "target", index, error);
  LElement *e;
  Item *it;
  guint i;

  if (el < 0)
    return FALSE;
  e = ELEM (l, el);
  if (e->pub.kind == GP_LAUNCH_CAPS) {
    /* "a ! caps ! b" -> "a ! b": the link keeps its opening character and
     * the space after it, and the kind of link it was */
    Link *lk = LINK (l, e->link);
    gsize ws = e->pub.offset - (lk->start + 1);

    add_edit (edits, lk->start, ITEM (l, lk->sink)->start - lk->start,
        g_strdup_printf ("%c%.*s", lk->all ? ':' : '!', (int) ws,
            l->text + lk->start + 1));
    return TRUE;
  }
  /* a reference to it would dangle */
  for (i = 0; e->pub.name != NULL && i < l->items->len; i++) {
    gchar *tmp = NULL;

    if (ITEM (l, i)->element < 0 &&
        strcmp (ref_name_of (l, i, &tmp), e->pub.name) == 0) {
      g_free (tmp);
      return patch_fail (error, index, "\"%s\" is referenced by name at "
          "column %" G_GSIZE_FORMAT, label (l, el), ITEM (l, i)->start + 1);
    }
    g_free (tmp);
  }
  it = item_of (l, el);
  if (it->link_out >= 0) {
    Item *next = ITEM (l, LINK (l, it->link_out)->sink);

    add_edit (edits, it->start, next->start - it->start, NULL);
  } else if (it->link_in >= 0) {
    Item *prev = ITEM (l, LINK (l, it->link_in)->src);

    add_edit (edits, prev->end, it->end - prev->end, NULL);
  } else {
    return patch_fail (error, index, "\"%s\" is alone in its chain; "
        "removing it would leave nothing to link", label (l, el));
  }
  return TRUE;
}

static void
set_batch_names (GpLaunch * l)
{
  guint i;

  for (i = 0; i < l->elements->len; i++) {
    LElement *e = ELEM (l, i);

    g_free (e->ref_name);
    g_free (e->ref_alias);
    e->ref_name = g_strdup (e->pub.name);
    e->ref_alias = e->pub.factory != NULL ?
        g_strdup_printf ("%s%u", e->pub.factory, e->alias_n) : NULL;
  }
}

/* batch names follow the elements through the edit */
static void
carry_batch_names (GpLaunch * from, GpLaunch * to, GArray * edits)
{
  guint i, j;

  for (i = 0; i < from->elements->len; i++) {
    LElement *e = ELEM (from, i);
    gsize at;

    if (!map_offset (edits, e->pub.offset, &at))
      continue;
    for (j = 0; j < to->elements->len; j++) {
      LElement *t = ELEM (to, j);

      if (t->pub.offset == at && t->pub.kind == e->pub.kind) {
        g_free (t->ref_name);
        g_free (t->ref_alias);
        t->ref_name = g_strdup (e->ref_name);
        t->ref_alias = g_strdup (e->ref_alias);
        break;
      }
    }
  }
}

static gboolean
apply_one (GpLaunch ** cur, JsonNode * node, guint index, GError ** error)
{
  GpLaunch *l = *cur, *nl;
  JsonObject *op;
  const gchar *kind;
  GArray *edits;
  gboolean ok;
  gsize expect_at = 0;
  gchar *text;
  GError *perr = NULL;

  if (node == NULL || JSON_NODE_TYPE (node) != JSON_NODE_OBJECT)
    return patch_fail (error, index, "not a JSON object");
  op = json_node_get_object (node);
  kind = member_string (op, "op");
  if (kind == NULL)
    return patch_fail (error, index, "no \"op\"");
  edits = g_array_new (FALSE, TRUE, sizeof (Edit));
  g_array_set_clear_func (edits, edit_clear);
  if (strcmp (kind, "insert") == 0)
    ok = op_insert (l, op, index, edits, &expect_at, error);
  else if (strcmp (kind, "replace") == 0)
    ok = op_replace (l, op, index, edits, error);
  else if (strcmp (kind, "set") == 0)
    ok = op_set (l, op, index, edits, error);
  else if (strcmp (kind, "caps") == 0)
    ok = op_caps (l, op, index, edits, error);
  else if (strcmp (kind, "remove") == 0)
    ok = op_remove (l, op, index, edits, error);
  else
    ok = patch_fail (error, index, "unknown op \"%s\" (insert, replace, set, "
        "caps or remove)", kind);
  if (!ok) {
    g_array_unref (edits);
    return FALSE;
  }

  text = apply_edits (l->text, edits);
  nl = gp_launch_parse (text, &perr);
  if (nl == NULL) {
    patch_fail (error, index, "%s would not parse: %s", kind, perr->message);
    g_clear_error (&perr);
    g_free (text);
    g_array_unref (edits);
    return FALSE;
  }
  carry_batch_names (l, nl, edits);
  if (strcmp (kind, "insert") == 0) {
    /* the new element must be what was asked for, where it was put */
    const gchar *factory = member_string (op, "element");
    gboolean found = FALSE;
    guint j;

    for (j = 0; j < nl->elements->len; j++)
      if (ELEM (nl, j)->pub.offset == expect_at &&
          ELEM (nl, j)->pub.kind == GP_LAUNCH_ELEMENT &&
          strcmp (ELEM (nl, j)->pub.factory, factory) == 0)
        found = TRUE;
    if (!found) {
      patch_fail (error, index, "inserting \"%s\" does not give an element "
          "there", factory);
      gp_launch_free (nl);
      g_free (text);
      g_array_unref (edits);
      return FALSE;
    }
  }
  g_free (text);
  g_array_unref (edits);
  gp_launch_free (l);
  *cur = nl;
  return TRUE;
}

gboolean
gp_launch_apply_patch (GpLaunch * l, JsonNode * patch, GError ** error)
{
  GpLaunch *cur, tmp;
  gboolean ok = TRUE;

  g_return_val_if_fail (l != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (patch == NULL)
    return patch_fail (error, 0, "no patch");
  cur = gp_launch_copy (l);
  if (cur == NULL)
    return patch_fail (error, 0, "the launch string does not parse");
  set_batch_names (cur);
  if (JSON_NODE_TYPE (patch) == JSON_NODE_ARRAY) {
    JsonArray *a = json_node_get_array (patch);
    guint i;

    for (i = 0; ok && i < json_array_get_length (a); i++)
      ok = apply_one (&cur, json_array_get_element (a, i), i, error);
  } else {
    ok = apply_one (&cur, patch, 0, error);
  }
  if (!ok) {
    gp_launch_free (cur);
    return FALSE;
  }
  /* swap the new contents in */
  tmp = *l;
  *l = *cur;
  *cur = tmp;
  for (guint i = 0; i < l->elements->len; i++) {
    g_clear_pointer (&ELEM (l, i)->ref_name, g_free);
    g_clear_pointer (&ELEM (l, i)->ref_alias, g_free);
  }
  gp_launch_free (cur);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* diff                                                                      */

typedef struct
{
  gsize start, end;
  gboolean link;
} Piece;

/* the non-space segments, an element's factory and properties as one */
static GArray *
pieces_of (GpLaunch * l)
{
  GArray *pieces = g_array_new (FALSE, FALSE, sizeof (Piece));
  guint i;

  for (i = 0; i < l->segs->len; i++) {
    GpLaunchSegment *seg = SEG (l, i);
    Piece pc;

    if (seg->kind == GP_LAUNCH_SEG_SPACE)
      continue;
    pc.start = seg->offset;
    pc.end = seg_end (l, i);
    pc.link = seg->kind == GP_LAUNCH_SEG_LINK;
    if (seg->kind == GP_LAUNCH_SEG_FACTORY && seg->element >= 0) {
      LElement *e = ELEM (l, seg->element);

      pc.end = seg_end (l, e->props_last_seg);
      i = e->props_last_seg;
    }
    g_array_append_val (pieces, pc);
  }
  return pieces;
}

static gboolean
piece_equal (const gchar * a, const Piece * pa, const gchar * b,
    const Piece * pb)
{
  return pa->end - pa->start == pb->end - pb->start &&
      memcmp (a + pa->start, b + pb->start, pa->end - pa->start) == 0;
}

typedef struct
{
  guint i0, i1, j0, j1;         /* changed pieces [i0, i1) and [j0, j1) */
} Hunk;

/* the nearest non-link piece before i (or -1) and at or after i (or len) */
static gint
context_before (GArray * p, gint i)
{
  for (i--; i >= 0 && g_array_index (p, Piece, i).link; i--);
  return i;
}

static gint
context_after (GArray * p, gint i)
{
  for (; i < (gint) p->len && g_array_index (p, Piece, i).link; i++);
  return i;
}

static void
append_slice (GString * out, const gchar * prefix, const gchar * text,
    GArray * p, guint i0, guint i1)
{
  gint a = context_before (p, i0), b = context_after (p, i1);
  gsize start, end;

  if (p->len == 0) {
    g_string_append_printf (out, "%s%s\n", prefix, text);
    return;
  }
  start = g_array_index (p, Piece, a >= 0 ? a : 0).start;
  end = g_array_index (p, Piece, b < (gint) p->len ? b : (gint) p->len - 1).end;
  g_string_append (out, prefix);
  if (end > start)
    g_string_append_len (out, text + start, end - start);
  g_string_append_c (out, '\n');
}

gchar *
gp_launch_diff (const gchar * before, const gchar * after)
{
  GpLaunch *lb, *la;
  GArray *pb, *pa, *hunks;
  GString *out;
  guint nb, na, i, j;
  guint32 *lcs;

  g_return_val_if_fail (before != NULL && after != NULL, NULL);
  if (strcmp (before, after) == 0)
    return g_strdup ("");
  lb = gp_launch_parse (before, NULL);
  la = gp_launch_parse (after, NULL);
  if (lb == NULL || la == NULL) {
    gp_launch_free (lb);
    gp_launch_free (la);
    return g_strdup_printf ("- %s\n+ %s\n", before, after);
  }
  pb = pieces_of (lb);
  pa = pieces_of (la);
  nb = pb->len;
  na = pa->len;
  gp_launch_free (lb);
  gp_launch_free (la);
  if ((guint64) (nb + 1) * (na + 1) > 4u * 1024 * 1024) {
    /* too long to align: the whole strings */
    g_array_unref (pb);
    g_array_unref (pa);
    return g_strdup_printf ("- %s\n+ %s\n", before, after);
  }

  /* longest common subsequence of the pieces, suffix table */
  lcs = g_new0 (guint32, (gsize) (nb + 1) * (na + 1));
#define LCS(x, y) lcs[(gsize) (x) * (na + 1) + (y)]
#define SAME(x, y) piece_equal (before, &g_array_index (pb, Piece, (x)), \
      after, &g_array_index (pa, Piece, (y)))
  for (i = nb; i-- > 0;)
    for (j = na; j-- > 0;)
      LCS (i, j) = SAME (i, j) ? LCS (i + 1, j + 1) + 1 :
          MAX (LCS (i + 1, j), LCS (i, j + 1));

  hunks = g_array_new (FALSE, FALSE, sizeof (Hunk));
  i = j = 0;
  while (i < nb || j < na) {
    Hunk h;

    if (i < nb && j < na && SAME (i, j)) {
      i++;
      j++;
      continue;
    }
    h.i0 = i;
    h.j0 = j;
    while ((i < nb || j < na) && !(i < nb && j < na && SAME (i, j))) {
      if (j >= na || (i < nb && LCS (i + 1, j) >= LCS (i, j + 1)))
        i++;
      else
        j++;
    }
    h.i1 = i;
    h.j1 = j;
    if (hunks->len > 0) {
      Hunk *prev = &g_array_index (hunks, Hunk, hunks->len - 1);

      /* contexts that touch make one hunk */
      if (context_before (pb, h.i0) <= context_after (pb, prev->i1)) {
        prev->i1 = h.i1;
        prev->j1 = h.j1;
        continue;
      }
    }
    g_array_append_val (hunks, h);
  }
#undef SAME
#undef LCS
  g_free (lcs);

  out = g_string_new (NULL);
  for (i = 0; i < hunks->len; i++) {
    Hunk *h = &g_array_index (hunks, Hunk, i);

    append_slice (out, "- ", before, pb, h->i0, h->i1);
    append_slice (out, "+ ", after, pa, h->j0, h->j1);
  }
  /* only whitespace differs: the whole strings */
  if (hunks->len == 0)
    g_string_append_printf (out, "- %s\n+ %s\n", before, after);
  g_array_unref (hunks);
  g_array_unref (pb);
  g_array_unref (pa);
  return g_string_free (out, FALSE);
}
