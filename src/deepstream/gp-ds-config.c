/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ds-config.c: the line-preserving editor of DeepStream's INI and YAML
 * (gp-ds-config.h). The text is kept whole; every edit replaces or
 * inserts bytes, then the lines it touched are parsed again and the key
 * read back, so an edit that would leave a file this editor (or DeepStream)
 * reads differently is undone and refused rather than written. The text
 * and its lines are gap buffers (GpDsGap): a run of edits down a file of
 * 10,000 groups moves each byte about once, not the whole tail at each
 * edit.
 */
#include "gp-ds-config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "core/gp-file.h"

G_DEFINE_QUARK (gp-ds-config-error-quark, gp_ds_config_error);

/* The largest config read (docs/commands.md): DeepStream's are a few kB,
 * and one with 4,000 sources is 200 kB; past this it is not a config, and
 * its lines would cost memory in proportion. */
#define GP_DS_CONFIG_MAX_BYTES (16 * 1024 * 1024)

/* ------------------------------------------------------------------------ */
/* gap buffers                                                               */

/* @len elements of @size bytes with a hole of @hole elements at @gap:
 * an edit at the hole costs its own size, and moving the hole costs the
 * distance moved, so edits that go down a file cost the file once. */
typedef struct
{
  guint8 *buf;
  gsize size;                   /* bytes per element */
  gsize len;                    /* elements held */
  gsize gap;                    /* where the hole starts */
  gsize hole;                   /* its length, in elements */
} GpDsGap;

/* Element @i's address. */
#define GAP_AT(g, i) \
  ((g)->buf + ((gsize) (i) < (g)->gap ? (gsize) (i) : \
          (gsize) (i) + (g)->hole) * (g)->size)

/* Takes @n elements of @size bytes at @data (g_malloc'ed), the hole at
 * their end. */
static void
gp_ds_gap_init (GpDsGap * g, gpointer data, gsize n, gsize size)
{
  g->buf = data;
  g->size = size;
  g->len = g->gap = n;
  g->hole = 0;
}

static void
gp_ds_gap_move (GpDsGap * g, gsize to)
{
  gsize sz = g->size;

  if (to < g->gap)
    memmove (g->buf + (to + g->hole) * sz, g->buf + to * sz,
        (g->gap - to) * sz);
  else if (to > g->gap)
    memmove (g->buf + g->gap * sz, g->buf + (g->gap + g->hole) * sz,
        (to - g->gap) * sz);
  g->gap = to;
}

/* A hole of at least @n elements, one more kept spare (a NUL after the
 * text). Grown by half the length, so growth is amortized too. */
static void
gp_ds_gap_reserve (GpDsGap * g, gsize n)
{
  gsize hole, tail = g->len - g->gap;

  if (g->hole >= n + 1)
    return;
  hole = n + 1 + g->len / 2 + 64;
  g->buf = g_realloc (g->buf, (g->len + hole) * g->size);
  memmove (g->buf + (g->gap + hole) * g->size,
      g->buf + (g->gap + g->hole) * g->size, tail * g->size);
  g->hole = hole;
}

/* Replaces the @n_del elements at @at with the @n_ins at @ins; the hole
 * ends right after them. */
static void
gp_ds_gap_splice (GpDsGap * g, gsize at, gsize n_del, gconstpointer ins,
    gsize n_ins)
{
  gp_ds_gap_move (g, at + n_del);
  g->gap = at;
  g->hole += n_del;
  g->len -= n_del;
  gp_ds_gap_reserve (g, n_ins);
  if (n_ins > 0)
    memcpy (g->buf + at * g->size, ins, n_ins * g->size);
  g->gap += n_ins;
  g->hole -= n_ins;
  g->len += n_ins;
}

/* The elements in one piece (the hole moved to the end), followed by a
 * zeroed element. */
static gpointer
gp_ds_gap_flat (GpDsGap * g)
{
  gp_ds_gap_move (g, g->len);
  gp_ds_gap_reserve (g, 0);
  memset (g->buf + g->len * g->size, 0, g->size);
  return g->buf;
}

/* ------------------------------------------------------------------------ */
/* the config                                                                */

typedef enum
{
  GP_DS_LINE_BLANK,
  GP_DS_LINE_COMMENT,
  GP_DS_LINE_GROUP,             /* INI [group] */
  GP_DS_LINE_KEY,               /* key=value, key: value, - key: value */
  GP_DS_LINE_ITEM,              /* YAML - scalar */
  GP_DS_LINE_DOC,               /* YAML --- */
} GpDsLineKind;

typedef struct
{
  GpDsLineKind kind;
  guint number;                 /* 1-based */
  gsize start, end;             /* content, without the '\n' */
  gsize next;                   /* where the next line starts */
  gsize key_start, key_end;
  gsize val_start, val_end;     /* the value as written, quotes included */
  gint indent;                  /* YAML: the key's column */
  gboolean container;           /* YAML: a key whose value is the lines
                                 * below (a mapping or a list) */
  gchar *group;                 /* INI group, YAML parent path */
  gchar *key;
} GpDsLine;

struct _GpDsConfig
{
  gchar *origin;
  GpDsConfigFormat format;
  GpDsGap text;                 /* bytes; the gap only at a line's start */
  gchar *loaded;                /* the text as loaded or last saved */
  gsize loaded_len;
  GpDsGap lines;                /* GpDsLine*, in the text's order */
  /* INI only, kept with every edit (gp_ds_config_index ()): */
  GHashTable *keys;             /* "group\x1fkey" -> its last GpDsLine */
  GHashTable *key_lines;        /* "group\x1fkey" -> its lines' count */
  GHashTable *groups;           /* group -> GpDsIniGroup */
  /* An INI edit moves the lines below it; they are moved when next looked
   * at (gp_ds_config_settle ()), not at each edit, so that a run of edits
   * down the file is one pass over its lines: lines [0, settled) have
   * their offsets and numbers, the rest lag by pend_bytes and pend_lines
   * (one shift for all of them). */
  guint settled;
  gssize pend_bytes;
  gssize pend_lines;
};

/* ------------------------------------------------------------------------ */
/* lines                                                                     */

static void
gp_ds_line_free (gpointer p)
{
  GpDsLine *l = p;

  g_free (l->group);
  g_free (l->key);
  g_free (l);
}

static GPtrArray *
gp_ds_lines_new (void)
{
  return g_ptr_array_new_with_free_func (gp_ds_line_free);
}

/* a line of a parse's array */
#define PARSED(a, i) ((GpDsLine *) g_ptr_array_index ((a), (i)))
/* line @i of config @c */
#define LINE(c, i) (*(GpDsLine **) GAP_AT (&(c)->lines, (i)))
/* the text of config @c from byte @pos (to the end of its line at least) */
#define TEXT(c, pos) ((const gchar *) GAP_AT (&(c)->text, (pos)))

static void gp_ds_config_index (GpDsConfig * c);

/* The lines of a parse become @c's, settled. */
static void
gp_ds_config_take_lines (GpDsConfig * c, GPtrArray * lines)
{
  guint n = lines->len;

  g_ptr_array_set_free_func (lines, NULL);
  gp_ds_gap_init (&c->lines, g_ptr_array_free (lines, FALSE), n,
      sizeof (gpointer));
  c->settled = n;
  c->pend_bytes = c->pend_lines = 0;
}

static void
gp_ds_config_drop_lines (GpDsConfig * c)
{
  gsize i;

  for (i = 0; i < c->lines.len; i++)
    gp_ds_line_free (LINE (c, i));
  g_clear_pointer (&c->lines.buf, g_free);
}

/* Replaces the text's bytes [@from, @to) with @n bytes at @with, and puts
 * the hole at the start of the line after them, so that every line, and
 * the lines an edit touched, read in one piece (TEXT ()). */
static void
gp_ds_config_replace (GpDsConfig * c, gsize from, gsize to,
    const gchar * with, gsize n)
{
  GpDsGap *t = &c->text;
  const guint8 *after, *nl;

  gp_ds_gap_splice (t, from, to - from, with, n);
  after = t->buf + t->gap + t->hole;
  nl = memchr (after, '\n', t->len - t->gap);
  gp_ds_gap_move (t, nl != NULL ? t->gap + (gsize) (nl - after) + 1 : t->len);
}

static gboolean
gp_ds_is_space (gchar c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static gboolean
gp_ds_fail (GError ** error, const gchar * origin, guint line,
    const gchar * reason)
{
  g_set_error (error, GP_DS_CONFIG_ERROR, GP_DS_CONFIG_ERROR_PARSE,
      "%s:%u: %s", origin, line, reason);
  return FALSE;
}

/* @n bytes and a NUL */
static gchar *
gp_ds_dup (const gchar * p, gsize n)
{
  gchar *d = g_malloc (n + 1);

  memcpy (d, p, n);
  d[n] = '\0';
  return d;
}

static gchar *
gp_ds_join (const gchar * parent, const gchar * child)
{
  return *parent ? g_strconcat (parent, "/", child, NULL) : g_strdup (child);
}

/* ------------------------------------------------------------------------ */
/* INI, as GKeyFile reads it                                                 */

static gboolean
gp_ds_ini_line (const gchar * t, GpDsLine * l, gchar ** group,
    const gchar * origin, GError ** error)
{
  gsize p = l->start, e = l->end, q;

  while (p < e && gp_ds_is_space (t[p]))
    p++;
  if (p == e) {
    l->kind = GP_DS_LINE_BLANK;
    return TRUE;
  }
  if (t[p] == '#') {
    l->kind = GP_DS_LINE_COMMENT;
    return TRUE;
  }
  if (t[p] == '[') {
    for (q = p + 1; q < e && t[q] != ']'; q++)
      if (t[q] == '[' || (guchar) t[q] < 0x20)
        return gp_ds_fail (error, origin, l->number,
            "a group name with '[' or a control character");
    if (q == e)
      return gp_ds_fail (error, origin, l->number, "a group without ']'");
    if (q == p + 1)
      return gp_ds_fail (error, origin, l->number, "an empty group name");
    l->kind = GP_DS_LINE_GROUP;
    l->key_start = p + 1;
    l->key_end = q;
    for (q++; q < e; q++)
      if (!gp_ds_is_space (t[q]))
        return gp_ds_fail (error, origin, l->number,
            "text after a group's ']'");
    g_free (*group);
    *group = g_strndup (t + l->key_start, l->key_end - l->key_start);
    l->group = g_strdup (*group);
    return TRUE;
  }
  for (q = p; q < e && t[q] != '='; q++);
  if (q == e)
    return gp_ds_fail (error, origin, l->number,
        "not a group, a comment or key=value");
  if (*group == NULL)
    return gp_ds_fail (error, origin, l->number, "a key before any group");
  l->kind = GP_DS_LINE_KEY;
  l->key_start = p;
  l->key_end = q;
  while (l->key_end > p && gp_ds_is_space (t[l->key_end - 1]))
    l->key_end--;
  if (l->key_end == p)
    return gp_ds_fail (error, origin, l->number, "an empty key name");
  l->val_start = q + 1;
  while (l->val_start < e && gp_ds_is_space (t[l->val_start]))
    l->val_start++;
  l->val_end = e;
  while (l->val_end > l->val_start && gp_ds_is_space (t[l->val_end - 1]))
    l->val_end--;
  l->group = g_strdup (*group);
  l->key = g_strndup (t + l->key_start, l->key_end - l->key_start);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* YAML, the subset DeepStream's files use                                   */

typedef struct
{
  gint indent;                  /* the key's or the dash's column; -1 top */
  gchar *path;
  gboolean item;                /* a mapping in a list */
  gint child_indent;            /* -1 until a child is seen */
  gint children;                /* 0 none yet, 1 keys, 2 list items */
  guint n_items;
  guint line;                   /* index of the key's line, G_MAXUINT top */
} GpDsYamlLevel;

/* @end, just past a closing quote or bracket, when only spaces and a
 * comment follow it; else 0 with @why */
static gsize
gp_ds_yaml_closed (const gchar * t, gsize end, gsize e, const gchar * what,
    const gchar ** why)
{
  gsize q;

  for (q = end; q < e && gp_ds_is_space (t[q]); q++);
  if (q < e && (t[q] != '#' || q == end)) {
    *why = what;
    return 0;
  }
  return end;
}

/* the end of a scalar starting at @p (before its comment and trailing
 * spaces), or 0 with @why */
static gsize
gp_ds_yaml_scalar (const gchar * t, gsize p, gsize e, const gchar ** why)
{
  gsize q, end;

  if (t[p] == '"' || t[p] == '\'') {
    gchar quote = t[p];

    for (q = p + 1; q < e; q++) {
      if (quote == '"' && t[q] == '\\') {
        q++;
        continue;
      }
      if (t[q] == quote) {
        if (quote == '\'' && q + 1 < e && t[q + 1] == '\'') {
          q++;
          continue;
        }
        break;
      }
    }
    if (q >= e) {
      *why = "a quoted scalar that does not end on its line";
      return 0;
    }
    return gp_ds_yaml_closed (t, q + 1, e, "text after a quoted scalar",
        why);
  }
  if (strchr ("|>", t[p])) {
    *why = "a block scalar (| or >)";
    return 0;
  }
  if (strchr ("&*!", t[p])) {
    *why = "an anchor, alias or tag";
    return 0;
  }
  if (strchr ("%@`", t[p])) {
    *why = "a reserved indicator";
    return 0;
  }
  if (strchr ("-?:,", t[p]) && (p + 1 == e || gp_ds_is_space (t[p + 1]))) {
    *why = "an indicator where a value should be";
    return 0;
  }
  if (t[p] == '[' || t[p] == '{') {
    gint depth = 0;
    gchar in_quote = 0;

    for (q = p; q < e; q++) {
      if (in_quote) {
        if (t[q] == in_quote)
          in_quote = 0;
      } else if (t[q] == '"' || t[q] == '\'') {
        in_quote = t[q];
      } else if (t[q] == '[' || t[q] == '{') {
        depth++;
      } else if (t[q] == ']' || t[q] == '}') {
        if (--depth == 0)
          break;
      }
    }
    if (q >= e) {
      *why = "a flow collection that does not end on its line";
      return 0;
    }
    return gp_ds_yaml_closed (t, q + 1, e, "text after a flow collection",
        why);
  }
  /* a plain scalar: up to " #", spaces off its end */
  for (q = p; q < e; q++) {
    if (t[q] == '#' && q > p && gp_ds_is_space (t[q - 1]))
      break;
    if (t[q] == ':' && (q + 1 == e || gp_ds_is_space (t[q + 1]))) {
      *why = "': ' inside a plain value";
      return 0;
    }
  }
  end = q;
  while (end > p && gp_ds_is_space (t[end - 1]))
    end--;
  return end;
}

/* a "key:" at @p: TRUE with the key's end and the ':' in @colon */
static gboolean
gp_ds_yaml_key_at (const gchar * t, gsize p, gsize e, gsize * key_end,
    gsize * colon)
{
  gsize q;

  if (strchr ("-?:,[]{}#&*!|>'\"%@`", t[p]))
    return FALSE;
  for (q = p; q < e; q++) {
    if (t[q] == '#' && gp_ds_is_space (t[q - 1]))
      return FALSE;
    if (t[q] == ':' && (q + 1 == e || gp_ds_is_space (t[q + 1])))
      break;
  }
  if (q == e)
    return FALSE;
  *colon = q;
  while (q > p && gp_ds_is_space (t[q - 1]))
    q--;
  *key_end = q;
  return q > p;
}

/* key: value from @p; fills @l's key and value */
static gboolean
gp_ds_yaml_key_value (const gchar * t, gsize p, gsize e, GpDsLine * l,
    gboolean * empty, const gchar ** why)
{
  gsize key_end, colon, v;

  if (!gp_ds_yaml_key_at (t, p, e, &key_end, &colon)) {
    *why = strchr ("?'\"", t[p]) ? "a quoted or complex key" :
        "not key: value";
    return FALSE;
  }
  l->kind = GP_DS_LINE_KEY;
  l->key_start = p;
  l->key_end = key_end;
  l->key = g_strndup (t + p, key_end - p);
  if (strchr (l->key, '/') != NULL) {
    *why = "a key with '/'";
    return FALSE;
  }
  for (v = colon + 1; v < e && gp_ds_is_space (t[v]); v++);
  if (v == e || t[v] == '#') {
    l->val_start = l->val_end = colon + 1;
    *empty = TRUE;
    return TRUE;
  }
  *empty = FALSE;
  l->val_start = v;
  l->val_end = gp_ds_yaml_scalar (t, v, e, why);
  return l->val_end != 0;
}

static void
gp_ds_yaml_level_free (gpointer p)
{
  GpDsYamlLevel *lv = p;

  g_free (lv->path);
  g_free (lv);
}

static GpDsYamlLevel *
gp_ds_yaml_level_new (gint indent, gchar * path, gboolean item, guint line)
{
  GpDsYamlLevel *lv = g_new0 (GpDsYamlLevel, 1);

  lv->indent = indent;
  lv->path = path;
  lv->item = item;
  lv->child_indent = -1;
  lv->line = line;
  return lv;
}

/* @lv gets a child of kind @children at @col; FALSE with @why */
static gboolean
gp_ds_yaml_adopt (GpDsYamlLevel * lv, GPtrArray * lines, gint children,
    gint col, const gchar ** why)
{
  if (lv->children != 0 && lv->children != children) {
    *why = "keys and list items in one mapping";
    return FALSE;
  }
  if (lv->child_indent != -1 && lv->child_indent != col) {
    *why = "indentation that does not line up with its siblings'";
    return FALSE;
  }
  lv->children = children;
  lv->child_indent = col;
  if (lv->line != G_MAXUINT)
    PARSED (lines, lv->line)->container = TRUE;
  return TRUE;
}

typedef struct
{
  GPtrArray *stack;             /* GpDsYamlLevel */
  GHashTable *seen;             /* "path\x1fkey" */
  gboolean content;             /* a key or item came already */
} GpDsYamlState;

static gboolean
gp_ds_yaml_line (const gchar * t, GPtrArray * lines, guint index,
    GpDsYamlState * st, const gchar ** why)
{
  GpDsLine *l = PARSED (lines, index);
  gsize p = l->start, e = l->end;
  GpDsYamlLevel *top;
  gboolean dash, empty = FALSE;
  gint col;
  gchar *seen;

  while (p < e && t[p] == ' ')
    p++;
  col = (gint) (p - l->start);
  {
    gsize q = p;

    while (q < e && gp_ds_is_space (t[q]))
      q++;
    if (q == e) {
      l->kind = GP_DS_LINE_BLANK;
      return TRUE;
    }
    if (t[q] == '#') {
      l->kind = GP_DS_LINE_COMMENT;
      return TRUE;
    }
  }
  if (t[p] == '\t') {
    *why = "a tab in the indentation";
    return FALSE;
  }
  if (col == 0 && e - p >= 3 && strncmp (t + p, "---", 3) == 0 &&
      (e - p == 3 || gp_ds_is_space (t[p + 3]))) {
    gsize q = p + 3;

    while (q < e && gp_ds_is_space (t[q]))
      q++;
    if (st->content || (q < e && t[q] != '#')) {
      *why = st->content ? "a second document" : "text after '---'";
      return FALSE;
    }
    l->kind = GP_DS_LINE_DOC;
    return TRUE;
  }
  if (col == 0 && e - p >= 3 && strncmp (t + p, "...", 3) == 0) {
    *why = "a document end marker";
    return FALSE;
  }
  if (t[p] == '%') {
    *why = "a directive";
    return FALSE;
  }
  st->content = TRUE;
  dash = t[p] == '-' && (p + 1 == e || gp_ds_is_space (t[p + 1]));
  while (st->stack->len > 1) {
    top = g_ptr_array_index (st->stack, st->stack->len - 1);
    if (top->indent > col || (top->indent == col && (top->item || !dash)))
      g_ptr_array_set_size (st->stack, st->stack->len - 1);
    else
      break;
  }
  top = g_ptr_array_index (st->stack, st->stack->len - 1);
  l->indent = col;
  if (dash) {
    gsize c = p + 1;
    GpDsYamlLevel *item;

    while (c < e && t[c] == ' ')
      c++;
    if (c == e || t[c] == '#' || t[c] == '\t') {
      *why = "a list item without its value on its line";
      return FALSE;
    }
    if (t[c] == '-' && (c + 1 == e || gp_ds_is_space (t[c + 1]))) {
      *why = "a list in a list on one line";
      return FALSE;
    }
    if (top->indent == -1) {
      *why = "a list at the top level";
      return FALSE;
    }
    if (!gp_ds_yaml_adopt (top, lines, 2, col, why))
      return FALSE;
    {
      gsize ke, colon;

      if (!gp_ds_yaml_key_at (t, c, e, &ke, &colon)) {
        l->kind = GP_DS_LINE_ITEM;
        l->group = g_strdup (top->path);
        l->val_start = c;
        l->val_end = gp_ds_yaml_scalar (t, c, e, why);
        top->n_items++;
        return l->val_end != 0;
      }
    }
    item = gp_ds_yaml_level_new (col,
        gp_ds_join (top->path, (seen = g_strdup_printf ("%u",
                    top->n_items++))), TRUE, G_MAXUINT);
    g_free (seen);
    g_ptr_array_add (st->stack, item);
    item->children = 1;
    item->child_indent = (gint) (c - l->start);
    l->indent = item->child_indent;
    top = item;
    p = c;
  } else {
    if (!gp_ds_yaml_adopt (top, lines, 1, col, why))
      return FALSE;
  }
  l->group = g_strdup (top->path);
  if (!gp_ds_yaml_key_value (t, p, e, l, &empty, why))
    return FALSE;
  seen = g_strconcat (l->group, "\x1f", l->key, NULL);
  if (!g_hash_table_add (st->seen, seen)) {
    *why = "a key twice in one mapping";
    return FALSE;
  }
  if (empty)
    g_ptr_array_add (st->stack, gp_ds_yaml_level_new (l->indent,
            gp_ds_join (l->group, l->key), FALSE, index));
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* parse                                                                     */

static GPtrArray *
gp_ds_config_parse_lines (const gchar * origin, const gchar * t, gsize len,
    GpDsConfigFormat format, GError ** error)
{
  GPtrArray *lines = gp_ds_lines_new ();
  gchar *group = NULL;
  GpDsYamlState st = { NULL, NULL, FALSE };
  const gchar *bad;
  gsize p = 0;
  guint number = 0;
  gboolean ok = TRUE;

  if (memchr (t, '\0', len) != NULL || !g_utf8_validate (t, len, &bad)) {
    guint at = 1;
    const gchar *c;

    if (memchr (t, '\0', len) != NULL)
      bad = memchr (t, '\0', len);
    for (c = t; c < bad; c++)
      at += *c == '\n';
    gp_ds_fail (error, origin, at, "not UTF-8 text");
    g_ptr_array_unref (lines);
    return NULL;
  }
  if (format == GP_DS_CONFIG_YAML) {
    st.stack = g_ptr_array_new_with_free_func (gp_ds_yaml_level_free);
    st.seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
    g_ptr_array_add (st.stack, gp_ds_yaml_level_new (-1, g_strdup (""),
            FALSE, G_MAXUINT));
  }
  while (ok && p < len) {
    GpDsLine line = { 0 };
    const gchar *nl = memchr (t + p, '\n', len - p);
    const gchar *why = NULL;

    line.number = ++number;
    line.start = p;
    line.end = nl ? (gsize) (nl - t) : len;
    line.next = nl ? line.end + 1 : len;
    {
      GpDsLine *copy = g_new (GpDsLine, 1);

      *copy = line;
      g_ptr_array_add (lines, copy);
    }
    if (format == GP_DS_CONFIG_INI) {
      ok = gp_ds_ini_line (t, PARSED (lines, lines->len - 1), &group, origin,
          error);
    } else {
      ok = gp_ds_yaml_line (t, lines, lines->len - 1, &st, &why);
      if (!ok)
        gp_ds_fail (error, origin, number, why);
    }
    p = line.next;
  }
  g_free (group);
  if (st.stack != NULL) {
    g_ptr_array_unref (st.stack);
    g_hash_table_unref (st.seen);
  }
  if (!ok) {
    g_ptr_array_unref (lines);
    return NULL;
  }
  return lines;
}

GpDsConfigFormat
gp_ds_config_format_for (const gchar * path)
{
  return g_str_has_suffix (path, ".yml") || g_str_has_suffix (path, ".yaml")
      ? GP_DS_CONFIG_YAML : GP_DS_CONFIG_INI;
}

GpDsConfig *
gp_ds_config_parse (const gchar * origin, const gchar * text, gsize len,
    GpDsConfigFormat format, GError ** error)
{
  GpDsConfig *c;
  GPtrArray *lines = gp_ds_config_parse_lines (origin, text, len, format,
      error);

  if (lines == NULL)
    return NULL;
  c = g_new0 (GpDsConfig, 1);
  c->origin = g_strdup (origin);
  c->format = format;
  gp_ds_gap_init (&c->text, gp_ds_dup (text, len), len, 1);
  c->loaded = gp_ds_dup (text, len);
  c->loaded_len = len;
  gp_ds_config_take_lines (c, lines);
  gp_ds_config_index (c);
  return c;
}

GpDsConfig *
gp_ds_config_load (const gchar * path, GError ** error)
{
  gchar *text;
  gsize len = 0;
  GError *err = NULL;
  GpDsConfig *c;

  text = gp_file_read_capped (path, GP_DS_CONFIG_MAX_BYTES,
      "a DeepStream config", &len, &err);
  if (text == NULL) {
    g_set_error_literal (error, GP_DS_CONFIG_ERROR, GP_DS_CONFIG_ERROR_IO,
        err->message);
    g_error_free (err);
    return NULL;
  }
  c = gp_ds_config_parse (path, text, len, gp_ds_config_format_for (path),
      error);
  g_free (text);
  return c;
}

void
gp_ds_config_free (GpDsConfig * c)
{
  if (c == NULL)
    return;
  g_free (c->origin);
  g_free (c->text.buf);
  g_free (c->loaded);
  gp_ds_config_drop_lines (c);
  g_clear_pointer (&c->keys, g_hash_table_unref);
  g_clear_pointer (&c->key_lines, g_hash_table_unref);
  g_clear_pointer (&c->groups, g_hash_table_unref);
  g_free (c);
}

const gchar *
gp_ds_config_origin (const GpDsConfig * c)
{
  return c->origin;
}

GpDsConfigFormat
gp_ds_config_get_format (const GpDsConfig * c)
{
  return c->format;
}

const gchar *
gp_ds_config_text (const GpDsConfig * c, gsize * len)
{
  /* logically const: the text is the same, only its hole moves */
  GpDsGap *text = (GpDsGap *) & c->text;

  if (len != NULL)
    *len = text->len;
  return gp_ds_gap_flat (text);
}

gboolean
gp_ds_config_changed (const GpDsConfig * c)
{
  const GpDsGap *t = &c->text;

  return t->len != c->loaded_len ||
      memcmp (t->buf, c->loaded, t->gap) != 0 ||
      memcmp (t->buf + t->gap + t->hole, c->loaded + t->gap,
      t->len - t->gap) != 0;
}

/* ------------------------------------------------------------------------ */
/* the INI index                                                             */

/* An INI group's lines that edits and lookups ask for: its last header and
 * its last key line (NULL when it has none). */
/* Moves @l by @bytes, its number to @number. */
static void
gp_ds_line_move (GpDsLine * l, gssize bytes, guint number)
{
  l->number = number;
  l->start += bytes;
  l->end += bytes;
  l->next += bytes;
  l->key_start += bytes;
  l->key_end += bytes;
  l->val_start += bytes;
  l->val_end += bytes;
}

/* Lines up to @i (G_MAXUINT: all) given the moves the edits above them
 * left pending. */
static void
gp_ds_config_settle (GpDsConfig * c, guint i)
{
  for (; c->settled <= i && c->settled < c->lines.len; c->settled++)
    gp_ds_line_move (LINE (c, c->settled), c->pend_bytes,
        c->settled + 1);
  if (c->settled >= c->lines.len)
    c->pend_bytes = c->pend_lines = 0;
}

/* Line @i as it is, without settling the lines above it (a read far
 * below the edits must not move them all): a copy, its strings
 * borrowed. */
static GpDsLine
gp_ds_config_peek (const GpDsConfig * c, guint i)
{
  GpDsLine l = *LINE (c, i);

  if (i >= c->settled)
    gp_ds_line_move (&l, c->pend_bytes, i + 1);
  return l;
}

/* The lines from @i on back among the pending ones (an edit above the
 * settled lines' end: one shift must hold for all lines below it). */
static void
gp_ds_config_unsettle (GpDsConfig * c, guint i)
{
  if (c->pend_bytes == 0 && c->pend_lines == 0) {
    c->settled = MIN (c->settled, i);
    return;
  }
  for (; c->settled > i; c->settled--)
    gp_ds_line_move (LINE (c, c->settled - 1), -c->pend_bytes,
        (guint) ((gssize) c->settled - c->pend_lines));
}

/* The index of line @l: its number, or its number moved by the pending
 * lines when it lies below the settled ones. */
static guint
gp_ds_config_index_of (const GpDsConfig * c, const GpDsLine * l)
{
  guint i = l->number - 1;

  if (i < c->settled && LINE (c, i) == l)
    return i;
  return (guint) ((gssize) i + c->pend_lines);
}

typedef struct
{
  GpDsLine *header;
  GpDsLine *last_key;
} GpDsIniGroup;

static gchar *
gp_ds_key_id (const gchar * group, const gchar * key)
{
  return g_strconcat (group, "\x1f", key, NULL);
}

/* How many lines key @id has (INI). */
static guint
gp_ds_config_key_lines (const GpDsConfig * c, const gchar * id)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (c->key_lines, id));
}

/* @l, at @i, into the index: the last line of its key and of its group
 * are the ones furthest down. */
static void
gp_ds_config_index_line (GpDsConfig * c, GpDsLine * l, guint i)
{
  GpDsIniGroup *g;

  if (l->group == NULL || (l->kind != GP_DS_LINE_KEY &&
          l->kind != GP_DS_LINE_GROUP))
    return;
  g = g_hash_table_lookup (c->groups, l->group);
  if (g == NULL) {
    g = g_new0 (GpDsIniGroup, 1);
    g_hash_table_insert (c->groups, g_strdup (l->group), g);
  }
  if (l->kind == GP_DS_LINE_GROUP) {
    if (g->header == NULL || gp_ds_config_index_of (c, g->header) <= i)
      g->header = l;
    return;
  }
  if (g->last_key == NULL || gp_ds_config_index_of (c, g->last_key) <= i)
    g->last_key = l;
  {
    gchar *id = gp_ds_key_id (l->group, l->key);
    GpDsLine *was = g_hash_table_lookup (c->keys, id);

    g_hash_table_insert (c->key_lines, g_strdup (id),
        GUINT_TO_POINTER (gp_ds_config_key_lines (c, id) + 1));
    if (was == NULL || gp_ds_config_index_of (c, was) <= i)
      g_hash_table_insert (c->keys, id, l);
    else
      g_free (id);
  }
}

/* The index of an INI's lines, built again from them (a YAML has none:
 * its lookups scan). Linear in the lines. */
static void
gp_ds_config_index (GpDsConfig * c)
{
  guint i;

  g_clear_pointer (&c->keys, g_hash_table_unref);
  g_clear_pointer (&c->key_lines, g_hash_table_unref);
  g_clear_pointer (&c->groups, g_hash_table_unref);
  if (c->format != GP_DS_CONFIG_INI)
    return;
  c->keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  c->key_lines = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  c->groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      g_free);
  for (i = 0; i < c->lines.len; i++)
    gp_ds_config_index_line (c, LINE (c, i), i);
}

/* ------------------------------------------------------------------------ */
/* lookups                                                                   */

/* the line index of @key in @group (the last one), or -1 */
static gint
gp_ds_config_find (const GpDsConfig * c, const gchar * group,
    const gchar * key)
{
  gint i, found = -1;

  if (c->keys != NULL) {
    gchar *id = gp_ds_key_id (group, key);
    GpDsLine *l = g_hash_table_lookup (c->keys, id);

    g_free (id);
    return l ? (gint) gp_ds_config_index_of (c, l) : -1;
  }
  for (i = 0; i < (gint) c->lines.len; i++) {
    GpDsLine *l = LINE (c, i);

    if (l->kind == GP_DS_LINE_KEY && strcmp (l->group, group) == 0 &&
        strcmp (l->key, key) == 0)
      found = i;
  }
  return found;
}

gboolean
gp_ds_config_has_group (const GpDsConfig * c, const gchar * group)
{
  guint i;

  if (c->format == GP_DS_CONFIG_YAML && *group == '\0')
    return TRUE;
  if (c->groups != NULL) {
    GpDsIniGroup *g = g_hash_table_lookup (c->groups, group);

    return g != NULL && g->header != NULL;
  }
  for (i = 0; i < c->lines.len; i++) {
    GpDsLine *l = LINE (c, i);

    if (c->format == GP_DS_CONFIG_INI) {
      if (l->kind == GP_DS_LINE_GROUP && strcmp (l->group, group) == 0)
        return TRUE;
    } else if (l->group != NULL && strcmp (l->group, group) == 0) {
      return TRUE;
    } else if (l->kind == GP_DS_LINE_KEY && l->container) {
      gchar *path = gp_ds_join (l->group, l->key);
      gboolean same = strcmp (path, group) == 0;

      g_free (path);
      if (same)
        return TRUE;
    }
  }
  return FALSE;
}

GpDsConfigKind
gp_ds_config_kind (const GpDsConfig * c)
{
  gboolean yaml = c->format == GP_DS_CONFIG_YAML;
  gboolean pipeline = gp_ds_config_has_group (c, "streammux")
      || gp_ds_config_has_group (c, "primary-gie");

  if (gp_ds_config_has_group (c, "property")
      && !gp_ds_config_has_group (c, "primary-gie"))
    return GP_DS_KIND_INFER;
  if (!yaml && (pipeline || gp_ds_config_has_group (c, "application")))
    return GP_DS_KIND_APP;
  if (yaml && (pipeline || gp_ds_config_has_group (c, "source")
          || gp_ds_config_has_group (c, "source-list")))
    return GP_DS_KIND_TESTAPP;
  if (yaml && gp_ds_config_has_group (c, "tracker"))
    return GP_DS_KIND_TRACKER;
  return GP_DS_KIND_UNKNOWN;
}

gchar **
gp_ds_config_testapp_sources (const GpDsConfig * c)
{
  GPtrArray *out = g_ptr_array_new ();
  gchar *list = gp_ds_config_get (c, "source-list", "list");
  gchar *one = list ? NULL : gp_ds_config_get (c, "source", "location");
  gchar **uris = g_strsplit (list ? list : one ? one : "", ";", -1);
  guint k;

  for (k = 0; uris[k] != NULL; k++)
    if (*g_strstrip (uris[k]) != '\0')
      g_ptr_array_add (out, g_strdup (uris[k]));
  g_ptr_array_add (out, NULL);
  g_strfreev (uris);
  g_free (list);
  g_free (one);
  return (gchar **) g_ptr_array_free (out, FALSE);
}

gchar **
gp_ds_config_groups (const GpDsConfig * c)
{
  GPtrArray *out = g_ptr_array_new ();
  GHashTable *seen = g_hash_table_new (g_str_hash, g_str_equal);
  guint i;

  for (i = 0; i < c->lines.len; i++) {
    GpDsLine *l = LINE (c, i);
    const gchar *name = NULL;

    if (c->format == GP_DS_CONFIG_INI && l->kind == GP_DS_LINE_GROUP)
      name = l->group;
    else if (c->format == GP_DS_CONFIG_YAML && l->kind == GP_DS_LINE_KEY &&
        l->container && *l->group == '\0')
      name = l->key;
    if (name != NULL && g_hash_table_add (seen, (gpointer) name))
      g_ptr_array_add (out, g_strdup (name));
  }
  g_hash_table_unref (seen);
  g_ptr_array_add (out, NULL);
  return (gchar **) g_ptr_array_free (out, FALSE);
}

gchar **
gp_ds_config_keys (const GpDsConfig * c, const gchar * group)
{
  GPtrArray *out = g_ptr_array_new ();
  guint i, j;

  for (i = 0; i < c->lines.len; i++) {
    GpDsLine *l = LINE (c, i);

    if (l->kind != GP_DS_LINE_KEY || strcmp (l->group, group) != 0)
      continue;
    for (j = 0; j < out->len; j++)
      if (strcmp (g_ptr_array_index (out, j), l->key) == 0)
        break;
    if (j == out->len)
      g_ptr_array_add (out, g_strdup (l->key));
  }
  g_ptr_array_add (out, NULL);
  return (gchar **) g_ptr_array_free (out, FALSE);
}

gchar *
gp_ds_config_line_text (const GpDsConfig * c, guint number)
{
  GpDsLine l;

  if (number == 0 || number > c->lines.len)
    return NULL;
  l = gp_ds_config_peek (c, number - 1);
  return g_strndup (TEXT (c, l.start), l.end - l.start);
}

static gchar *
gp_ds_yaml_unquote (const gchar * v, gsize n)
{
  GString *s;
  gsize i;

  if (n < 2 || (v[0] != '"' && v[0] != '\''))
    return g_strndup (v, n);
  s = g_string_new (NULL);
  for (i = 1; i + 1 < n; i++) {
    if (v[0] == '\'' && v[i] == '\'' && v[i + 1] == '\'')
      i++;
    else if (v[0] == '"' && v[i] == '\\' && i + 2 < n) {
      i++;
      g_string_append_c (s, v[i] == 'n' ? '\n' : v[i] == 't' ? '\t' : v[i]);
      continue;
    }
    g_string_append_c (s, v[i]);
  }
  return g_string_free (s, FALSE);
}

gchar *
gp_ds_config_get (const GpDsConfig * c, const gchar * group,
    const gchar * key)
{
  gint i = gp_ds_config_find (c, group, key);
  GpDsLine l;

  if (i < 0)
    return NULL;
  l = gp_ds_config_peek (c, i);
  if (l.container)
    return NULL;
  if (c->format == GP_DS_CONFIG_YAML)
    return gp_ds_yaml_unquote (TEXT (c, l.val_start),
        l.val_end - l.val_start);
  return g_strndup (TEXT (c, l.val_start), l.val_end - l.val_start);
}

guint
gp_ds_config_line (const GpDsConfig * c, const gchar * group,
    const gchar * key)
{
  gint i = gp_ds_config_find (c, group, key);

  return i < 0 ? 0 : (guint) i + 1;
}

/* ------------------------------------------------------------------------ */
/* edits                                                                     */

static gboolean
gp_ds_edit_fail (GError ** error, const GpDsConfig * c, const gchar * what,
    const gchar * text, const gchar * why)
{
  g_set_error (error, GP_DS_CONFIG_ERROR, GP_DS_CONFIG_ERROR_EDIT,
      "%s: cannot write %s '%s': %s", c->origin, what, text, why);
  return FALSE;
}

/* what @format cannot hold as written, or NULL */
static const gchar *
gp_ds_config_refuse (GpDsConfigFormat format, const gchar * s,
    gboolean value)
{
  gsize n = strlen (s);

  if (strpbrk (s, "\n\r") != NULL)
    return "a line break";
  if (!g_utf8_validate (s, -1, NULL))
    return "not UTF-8";
  if (n > 0 && (gp_ds_is_space (s[0]) || gp_ds_is_space (s[n - 1])))
    return "spaces at its ends";
  if (format == GP_DS_CONFIG_INI) {
    if (value)
      return strchr (s, '\\') ? "a backslash (GKeyFile's escapes)" : NULL;
    if (n == 0)
      return "empty";
    if (strpbrk (s, "=[]") != NULL || s[0] == '#')
      return "'=', '[', ']' or a leading '#'";
    return NULL;
  }
  if (n == 0)
    return value ? "empty (a null, not a value)" : "empty";
  if (strchr ("?:,[]{}#&*!|>'\"%@`", s[0]) ||
      (s[0] == '-' && (n == 1 || gp_ds_is_space (s[1]))))
    return "a leading YAML indicator";
  if (strstr (s, ": ") || strstr (s, " #") || strstr (s, "\t#") ||
      s[n - 1] == ':')
    return "': ', ' #' or a trailing ':'";
  if (!value && (strchr (s, ':') || strchr (s, '#') || strchr (s, '/')))
    return "':', '#' or '/'";
  return NULL;
}

/* The index of the line holding byte @pos (the last line for the text's
 * end); the lines are in the text's order, so halving finds it. */
static guint
gp_ds_config_line_at (GpDsConfig * c, gsize pos)
{
  guint lo = 0, hi;

  /* past the settled lines' end: the lines up to @pos settled first */
  while (c->settled < c->lines.len && (c->settled == 0 ||
          pos >= LINE (c, c->settled - 1)->next))
    gp_ds_config_settle (c, c->settled);
  hi = c->settled;

  while (hi - lo > 1) {
    guint mid = lo + (hi - lo) / 2;

    if (LINE (c, mid)->start <= pos)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/* The INI group in force after line @i (before any line for -1). */
static const gchar *
gp_ds_ini_group_after (const GpDsConfig * c, gint i)
{
  for (; i >= 0; i--)
    if (LINE (c, i)->group != NULL)
      return LINE (c, i)->group;
  return NULL;
}

/* Takes @l (about to go) out of the index; the places it held (its key's,
 * its group's header or last key) go into @held ("k" + key id, "h" or
 * "l" + group), for gp_ds_config_refilled (). */
static void
gp_ds_config_unindex_line (GpDsConfig * c, GpDsLine * l, GPtrArray * held)
{
  GpDsIniGroup *g = l->group ? g_hash_table_lookup (c->groups, l->group) :
      NULL;

  if (g != NULL && g->header == l) {
    g->header = NULL;
    g_ptr_array_add (held, g_strconcat ("h", l->group, NULL));
  }
  if (g != NULL && g->last_key == l) {
    g->last_key = NULL;
    g_ptr_array_add (held, g_strconcat ("l", l->group, NULL));
  }
  if (l->kind == GP_DS_LINE_KEY) {
    gchar *id = gp_ds_key_id (l->group, l->key);
    guint n = gp_ds_config_key_lines (c, id);

    if (n > 1)
      g_hash_table_insert (c->key_lines, g_strdup (id),
          GUINT_TO_POINTER (n - 1));
    else
      g_hash_table_remove (c->key_lines, id);
    if (g_hash_table_lookup (c->keys, id) == l) {
      g_hash_table_remove (c->keys, id);
      g_ptr_array_add (held, g_strconcat ("k", id, NULL));
    }
    g_free (id);
  }
}

/* Whether every place in @held has a line again (the new lines took them:
 * a value replaced is the same key on the same line). */
static gboolean
gp_ds_config_refilled (GpDsConfig * c, GPtrArray * held)
{
  guint i;

  for (i = 0; i < held->len; i++) {
    const gchar *h = g_ptr_array_index (held, i);
    GpDsIniGroup *g = h[0] != 'k' ? g_hash_table_lookup (c->groups, h + 1) :
        NULL;

    if (h[0] == 'k' ? !g_hash_table_contains (c->keys, h + 1) :
        g == NULL || (h[0] == 'h' ? g->header : g->last_key) == NULL)
      return FALSE;
  }
  return TRUE;
}

/* After an INI's text changed in [@from, @from + @new_len) (it was
 * [@from, @old_to)): only the lines that held the change are parsed again,
 * those after it moved, and the index kept. FALSE (no error) when the
 * change reaches past its lines (a group header added or taken away that
 * moves the lines below into another group): the caller parses it all. */
static gboolean
gp_ds_ini_reparse_around (GpDsConfig * c, gsize from, gsize old_to,
    gsize new_len, GError ** error)
{
  /* the lines it reads end where the hole is (gp_ds_config_replace ()),
   * and before the hole, a byte's place is its offset */
  const gchar *t = (const gchar *) c->text.buf;
  gssize delta = (gssize) new_len - (gssize) (old_to - from);
  guint a, b, i, number, n_new, n_old;
  gsize p, end;
  gchar *group;
  GPtrArray *fresh, *held;
  gboolean ok = TRUE;

  if (c->lines.len == 0)
    return FALSE;
  a = gp_ds_config_line_at (c, from);
  b = MAX (a, gp_ds_config_line_at (c, old_to));
  gp_ds_config_settle (c, b);
  p = LINE (c, a)->start;
  end = LINE (c, b)->next + delta;
  if (end > c->text.gap)
    return FALSE;
  number = LINE (c, a)->number;
  group = g_strdup (gp_ds_ini_group_after (c, (gint) a - 1));
  if (memchr (t + p, '\0', end - p) != NULL ||
      !g_utf8_validate (t + p, end - p, NULL)) {
    g_free (group);
    return FALSE;
  }
  fresh = g_ptr_array_new ();
  while (ok && p < end) {
    GpDsLine line = { 0 };
    const gchar *nl = memchr (t + p, '\n', end - p);
    GpDsLine *l;

    line.number = number++;
    line.start = p;
    line.end = nl ? (gsize) (nl - t) : end;
    line.next = nl ? line.end + 1 : end;
    l = g_new (GpDsLine, 1);
    *l = line;
    g_ptr_array_add (fresh, l);
    ok = gp_ds_ini_line (t, l, &group, c->origin, error);
    p = line.next;
  }
  /* the group in force below must not change */
  if (ok && g_strcmp0 (group, gp_ds_ini_group_after (c, (gint) b)) != 0)
    ok = FALSE;
  g_free (group);
  if (!ok) {
    g_ptr_array_set_free_func (fresh, gp_ds_line_free);
    g_ptr_array_unref (fresh);
    return FALSE;
  }
  n_old = b - a + 1;
  n_new = fresh->len;
  held = g_ptr_array_new_with_free_func (g_free);
  for (i = a; i <= b; i++)
    gp_ds_config_unindex_line (c, LINE (c, i), held);
  /* the lines below move by delta bytes and n_new - n_old lines, with
   * those already pending: left pending together */
  gp_ds_config_unsettle (c, b + 1);
  for (i = a; i <= b; i++)
    gp_ds_line_free (LINE (c, i));
  gp_ds_gap_splice (&c->lines, a, n_old, fresh->pdata, n_new);
  g_ptr_array_unref (fresh);
  c->settled = a + n_new;
  c->pend_bytes += delta;
  c->pend_lines += (gssize) n_new - (gssize) n_old;
  for (i = a; i < a + n_new; i++)
    gp_ds_config_index_line (c, LINE (c, i), i);
  /* a place the lines taken away held and the new ones did not fill (a
   * key line removed, the one above it now the last): all of it again */
  if (!gp_ds_config_refilled (c, held))
    gp_ds_config_index (c);
  g_ptr_array_unref (held);
  return TRUE;
}

/* the text's lines parsed again whole; FALSE with @error (and the lines
 * as they were) when they do not parse */
static gboolean
gp_ds_config_reparse (GpDsConfig * c, GError ** error)
{
  GPtrArray *lines = gp_ds_config_parse_lines (c->origin,
      gp_ds_gap_flat (&c->text), c->text.len, c->format, error);

  if (lines == NULL)
    return FALSE;
  gp_ds_config_drop_lines (c);
  gp_ds_config_take_lines (c, lines);
  gp_ds_config_index (c);
  return TRUE;
}

/* replaces [@from, @to) with @with, parses again (an INI only around the
 * change), reads @key back; undone when it does not read as @value */
static gboolean
gp_ds_config_splice (GpDsConfig * c, gsize from, gsize to,
    const gchar * with, const gchar * group, const gchar * key,
    const gchar * value, GError ** error)
{
  gchar *was = g_strndup (TEXT (c, from), to - from);
  gsize with_len = strlen (with);
  GError *err = NULL;
  gboolean parsed;
  gchar *back = NULL;

  gp_ds_config_replace (c, from, to, with, with_len);
  parsed = c->format == GP_DS_CONFIG_INI &&
      gp_ds_ini_reparse_around (c, from, to, with_len, &err);
  if (!parsed && err == NULL)
    parsed = gp_ds_config_reparse (c, &err);
  if (parsed) {
    back = gp_ds_config_get (c, group, key);
    if (g_strcmp0 (back, value) == 0) {
      g_free (back);
      g_free (was);
      return TRUE;
    }
  }
  g_free (back);
  /* undone: the text as it was, and its lines */
  gp_ds_config_replace (c, from, from + with_len, was, to - from);
  g_free (was);
  if (parsed) {
    GError *again = NULL;

    if (!gp_ds_config_reparse (c, &again))
      g_clear_error (&again);
  }
  gp_ds_edit_fail (error, c, "key", key, err ? err->message :
      "it would not read back as written");
  g_clear_error (&err);
  return FALSE;
}

static const gchar *
gp_ds_config_eol (const GpDsConfig * c)
{
  const GpDsGap *t = &c->text;
  const guint8 *nl = memchr (t->buf, '\n', t->gap);
  gsize at;

  if (nl != NULL)
    at = (gsize) (nl - t->buf);
  else if ((nl = memchr (t->buf + t->gap + t->hole, '\n',
              t->len - t->gap)) != NULL)
    at = t->gap + (gsize) (nl - (t->buf + t->gap + t->hole));
  else
    return "\n";
  return at > 0 && *TEXT (c, at - 1) == '\r' ? "\r\n" : "\n";
}

/* where a line inserted after line @i starts, and the break it needs
 * before it when line @i is the last and has none */
static gsize
gp_ds_config_after (const GpDsConfig * c, guint i, GString * prefix)
{
  GpDsLine *l = LINE (c, i);

  if (l->next == l->end)
    g_string_append (prefix, gp_ds_config_eol (c));
  return l->next;
}

/* the INI key's addition: after the group's last key line (its header
 * when it has none), spaced like that key line */
static gboolean
gp_ds_ini_add (GpDsConfig * c, const gchar * group, const gchar * key,
    const gchar * value, GError ** error)
{
  GString *add = g_string_new (NULL);
  const gchar *eol = gp_ds_config_eol (c);
  gint at = -1, like = -1;
  gsize pos;
  gboolean ok;

  /* after the group's last key line, else its last header (the index
   * holds both) */
  {
    GpDsIniGroup *g = g_hash_table_lookup (c->groups, group);

    if (g != NULL && g->last_key != NULL)
      at = like = (gint) gp_ds_config_index_of (c, g->last_key);
    else if (g != NULL && g->header != NULL)
      at = (gint) gp_ds_config_index_of (c, g->header);
    if (at >= 0)
      gp_ds_config_settle (c, at);
  }
  if (at < 0) {
    pos = c->text.len;
    if (pos > 0 && *TEXT (c, pos - 1) != '\n')
      g_string_append (add, eol);
    if (pos > 0)
      g_string_append (add, eol);
    g_string_append_printf (add, "[%s]%s", group, eol);
  } else {
    pos = gp_ds_config_after (c, at, add);
  }
  g_string_append (add, key);
  if (like >= 0) {
    GpDsLine *l = LINE (c, like);

    g_string_append_len (add, TEXT (c, l->key_end),
        l->val_start - l->key_end);
  } else {
    g_string_append_c (add, '=');
  }
  g_string_append_printf (add, "%s%s", value, eol);
  ok = gp_ds_config_splice (c, pos, pos, add->str, group, key, value, error);
  g_string_free (add, TRUE);
  return ok;
}

/* the line of the YAML mapping @path (its key line), -1 for the top,
 * -2 when missing; a scalar with a value is refused */
static gint
gp_ds_yaml_mapping (const GpDsConfig * c, const gchar * path)
{
  guint i;

  if (*path == '\0')
    return -1;
  for (i = 0; i < c->lines.len; i++) {
    GpDsLine *l = LINE (c, i);
    gchar *p;
    gboolean same;

    if (l->kind != GP_DS_LINE_KEY)
      continue;
    p = gp_ds_join (l->group, l->key);
    same = strcmp (p, path) == 0;
    g_free (p);
    if (same)
      return (gint) i;
  }
  return -2;
}

static gboolean
gp_ds_yaml_under (const gchar * group, const gchar * path)
{
  gsize n = strlen (path);

  return n == 0 || (strncmp (group, path, n) == 0 && (group[n] == '\0' ||
          group[n] == '/'));
}

static gboolean
gp_ds_yaml_add (GpDsConfig * c, const gchar * group, const gchar * key,
    const gchar * value, GError ** error)
{
  GString *add = g_string_new (NULL);
  const gchar *eol = gp_ds_config_eol (c);
  gchar **parts = *group ? g_strsplit (group, "/", -1) : g_new0 (gchar *, 1);
  gchar *have = g_strdup ("");
  guint n_have = 0, k, i;
  gint head = -1, last = -1, indent = 0, child = -1;
  gsize pos;
  gboolean ok;

  /* the deepest mapping of the path that is there */
  for (k = 0; parts[k] != NULL; k++) {
    gchar *next = gp_ds_join (have, parts[k]);
    gint at = gp_ds_yaml_mapping (c, next);

    if (at == -2) {
      g_free (next);
      break;
    }
    g_free (have);
    have = next;
    head = at;
    n_have = k + 1;
  }
  if (head >= 0) {
    GpDsLine *h = LINE (c, head);

    if (!h->container && h->val_end > h->val_start) {
      g_strfreev (parts);
      g_free (have);
      g_string_free (add, TRUE);
      return gp_ds_edit_fail (error, c, "group", group, "it is a scalar");
    }
    indent = h->indent + 2;
    last = head;
  }
  for (i = 0; i < c->lines.len; i++) {
    GpDsLine *l = LINE (c, i);

    if ((l->kind != GP_DS_LINE_KEY && l->kind != GP_DS_LINE_ITEM) ||
        !gp_ds_yaml_under (l->group, have))
      continue;
    last = (gint) i;
    if (strcmp (l->group, have) == 0) {
      if (l->kind == GP_DS_LINE_ITEM) {
        g_strfreev (parts);
        g_free (have);
        g_string_free (add, TRUE);
        return gp_ds_edit_fail (error, c, "group", group, "it is a list");
      }
      child = l->indent;
    }
  }
  if (child >= 0)
    indent = child;
  if (last < 0) {
    pos = c->text.len;
    if (pos > 0 && *TEXT (c, pos - 1) != '\n')
      g_string_append (add, eol);
  } else {
    pos = gp_ds_config_after (c, last, add);
  }
  /* the missing levels, then the key */
  for (; parts[n_have] != NULL; n_have++) {
    if (indent == 0 && pos > 0)
      g_string_append (add, eol);
    g_string_append_printf (add, "%*s%s:%s", indent, "", parts[n_have], eol);
    indent += 2;
  }
  g_string_append_printf (add, "%*s%s: %s%s", indent, "", key, value, eol);
  ok = gp_ds_config_splice (c, pos, pos, add->str, group, key, value, error);
  g_strfreev (parts);
  g_free (have);
  g_string_free (add, TRUE);
  return ok;
}

gboolean
gp_ds_config_set (GpDsConfig * c, const gchar * group, const gchar * key,
    const gchar * value, gboolean * changed, GError ** error)
{
  const gchar *why;
  gchar *now;
  gint i, stop;

  if (changed != NULL)
    *changed = FALSE;
  if (c->format == GP_DS_CONFIG_YAML && *group != '\0') {
    gchar **parts = g_strsplit (group, "/", -1);
    guint k;

    for (k = 0, why = NULL; parts[k] != NULL && why == NULL; k++)
      if (!g_ascii_isdigit (parts[k][0]))
        why = gp_ds_config_refuse (c->format, parts[k], FALSE);
    g_strfreev (parts);
  } else {
    why = c->format == GP_DS_CONFIG_INI ?
        (*group == '\0' || strpbrk (group, "[]\n\r") ? "empty, '[', ']' or "
        "a line break" : NULL) : NULL;
  }
  if (why != NULL)
    return gp_ds_edit_fail (error, c, "group", group, why);
  if ((why = gp_ds_config_refuse (c->format, key, FALSE)) != NULL)
    return gp_ds_edit_fail (error, c, "key", key, why);
  if ((why = gp_ds_config_refuse (c->format, value, TRUE)) != NULL)
    return gp_ds_edit_fail (error, c, "value", value, why);

  i = gp_ds_config_find (c, group, key);
  if (i < 0) {
    if (!(c->format == GP_DS_CONFIG_INI ? gp_ds_ini_add (c, group, key,
                value, error) : gp_ds_yaml_add (c, group, key, value, error)))
      return FALSE;
    if (changed != NULL)
      *changed = TRUE;
    return TRUE;
  }
  if (LINE (c, i)->container)
    return gp_ds_edit_fail (error, c, "key", key, "it is a mapping or list");
  now = gp_ds_config_get (c, group, key);
  if (strcmp (now, value) == 0) {
    g_free (now);
    return TRUE;
  }
  g_free (now);
  /* every line of the key (INI may have it twice: the index counts
   * them, so a key once is its line alone), last first so the earlier
   * offsets hold */
  stop = -1;
  if (c->key_lines != NULL) {
    gchar *id = gp_ds_key_id (group, key);

    if (gp_ds_config_key_lines (c, id) <= 1)
      stop = i - 1;
    g_free (id);
  }
  for (; i > stop; i--) {
    GpDsLine *l = LINE (c, i);
    gchar *with;
    gboolean ok;

    if (l->kind != GP_DS_LINE_KEY || strcmp (l->group, group) != 0 ||
        strcmp (l->key, key) != 0)
      continue;
    gp_ds_config_settle (c, i);
    with = c->format == GP_DS_CONFIG_YAML && l->val_start == l->val_end ?
        g_strconcat (" ", value, NULL) : g_strdup (value);
    ok = gp_ds_config_splice (c, l->val_start, l->val_end, with, group, key,
        value, error);
    g_free (with);
    if (!ok)
      return FALSE;
  }
  if (changed != NULL)
    *changed = TRUE;
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* saving                                                                    */

static gboolean
gp_ds_config_write (const gchar * path, const gchar * data, gsize len,
    gint mode, GError ** error)
{
  GpAtomicFile *f = gp_atomic_file_open (path, error);

  if (f == NULL)
    return FALSE;
  if (mode >= 0 && fchmod (fileno (f->fp), (mode_t) mode) != 0) {
    g_set_error (error, GP_DS_CONFIG_ERROR, GP_DS_CONFIG_ERROR_IO,
        "%s: cannot write: %s", path, g_strerror (errno));
    gp_atomic_file_abort (f);
    return FALSE;
  }
  if (len > 0 && fwrite (data, 1, len, f->fp) != len) {
    g_set_error (error, GP_DS_CONFIG_ERROR, GP_DS_CONFIG_ERROR_IO,
        "%s: cannot write: %s", path, g_strerror (errno));
    gp_atomic_file_abort (f);
    return FALSE;
  }
  return gp_atomic_file_commit (f, error);
}

gboolean
gp_ds_config_save (GpDsConfig * c, gboolean * wrote, GError ** error)
{
  gchar *bak, *disk = NULL;
  gsize disk_len = 0;
  GStatBuf st;
  gint mode = -1;

  if (wrote != NULL)
    *wrote = FALSE;
  if (!gp_ds_config_changed (c))
    return TRUE;
  if (g_stat (c->origin, &st) == 0)
    mode = st.st_mode & 07777;
  bak = g_strconcat (c->origin, ".bak", NULL);
  if (!g_file_test (bak, G_FILE_TEST_EXISTS) &&
      g_file_get_contents (c->origin, &disk, &disk_len, NULL) &&
      !gp_ds_config_write (bak, disk, disk_len, mode, error)) {
    g_free (disk);
    g_free (bak);
    return FALSE;
  }
  g_free (disk);
  g_free (bak);
  if (!gp_ds_config_write (c->origin, gp_ds_gap_flat (&c->text),
          c->text.len, mode, error))
    return FALSE;
  g_free (c->loaded);
  c->loaded = gp_ds_dup ((const gchar *) c->text.buf, c->text.len);
  c->loaded_len = c->text.len;
  if (wrote != NULL)
    *wrote = TRUE;
  return TRUE;
}

gboolean
gp_ds_config_save_as (GpDsConfig * c, const gchar * path, GError ** error)
{
  return gp_ds_config_write (path, gp_ds_gap_flat (&c->text), c->text.len,
      -1, error);
}
