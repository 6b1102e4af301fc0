/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-lines.c: lines out of blocks of text. A line wholly inside a block is
 * given where it lies (no copy: the readers' throughput is memchr's); only
 * the unfinished end of a block is kept, and a line stops being kept once
 * it passes the bound, so memory stays at the bound whatever the text.
 */
#include <string.h>

#include "gp-lines.h"

struct _GpLines
{
  gsize max_length;
  GpLineFunc func;
  gpointer user_data;
  /* the line begun by earlier blocks (at most max_length bytes) */
  GString *partial;
  /* inside a line given as GP_LINE_LONG, up to its newline */
  gboolean skipping;
  gboolean stopped;
  guint64 n_long;
};

gboolean
gp_lines_binary (const gchar * head, gsize length)
{
  return memchr (head, '\0', MIN (length, GP_LINES_BINARY_BYTES)) != NULL;
}

GpLines *
gp_lines_new (gsize max_length, GpLineFunc func, gpointer user_data)
{
  GpLines *l;

  g_return_val_if_fail (func != NULL && max_length > 0, NULL);

  l = g_new0 (GpLines, 1);
  l->max_length = max_length;
  l->func = func;
  l->user_data = user_data;
  l->partial = g_string_new (NULL);
  return l;
}

void
gp_lines_free (GpLines * l)
{
  if (l == NULL)
    return;
  g_string_free (l->partial, TRUE);
  g_free (l);
}

static gboolean
gp_lines_give (GpLines * l, const gchar * line, gsize length,
    GpLineFlags flags)
{
  if (length > l->max_length) {
    flags |= GP_LINE_LONG;
    line = "";
    length = 0;
  }
  if (flags & GP_LINE_LONG)
    l->n_long++;
  if (!l->func (line, length, flags, l->user_data)) {
    /* nothing more is given, nor said to be pending */
    l->stopped = TRUE;
    l->skipping = FALSE;
    g_string_truncate (l->partial, 0);
  }
  return !l->stopped;
}

gboolean
gp_lines_feed (GpLines * l, const gchar * data, gsize length)
{
  const gchar *p = data, *end = data + length, *nl;

  g_return_val_if_fail (l != NULL && (data != NULL || length == 0), FALSE);

  if (l->stopped)
    return FALSE;
  if (l->skipping) {
    nl = memchr (p, '\n', end - p);
    if (nl == NULL)
      return TRUE;
    l->skipping = FALSE;
    p = nl + 1;
  }
  if (l->partial->len > 0 && p < end) {
    gsize take;

    nl = memchr (p, '\n', end - p);
    take = (nl ? nl : end) - p;
    if (l->partial->len + take > l->max_length) {
      g_string_truncate (l->partial, 0);
      if (!gp_lines_give (l, "", 0, GP_LINE_LONG))
        return FALSE;
      if (nl == NULL) {
        l->skipping = TRUE;
        return TRUE;
      }
    } else {
      g_string_append_len (l->partial, p, take);
      if (nl == NULL)
        return TRUE;
      if (!gp_lines_give (l, l->partial->str, l->partial->len,
              GP_LINE_WHOLE))
        return FALSE;
      g_string_truncate (l->partial, 0);
    }
    p = nl + 1;
  }
  while (p < end && (nl = memchr (p, '\n', end - p)) != NULL) {
    if (!gp_lines_give (l, p, nl - p, GP_LINE_WHOLE))
      return FALSE;
    p = nl + 1;
  }
  if ((gsize) (end - p) > l->max_length) {
    l->skipping = TRUE;
    return gp_lines_give (l, "", 0, GP_LINE_LONG);
  }
  g_string_append_len (l->partial, p, end - p);
  return TRUE;
}

gboolean
gp_lines_finish (GpLines * l)
{
  g_return_val_if_fail (l != NULL, FALSE);

  if (l->stopped)
    return FALSE;
  if (l->partial->len == 0)
    return TRUE;
  if (!gp_lines_give (l, l->partial->str, l->partial->len, GP_LINE_CUT))
    return FALSE;
  g_string_truncate (l->partial, 0);
  return TRUE;
}

gboolean
gp_lines_pending (const GpLines * l)
{
  return l->partial->len > 0 || l->skipping;
}

guint64
gp_lines_n_long (const GpLines * l)
{
  return l->n_long;
}

void
gp_lines_skip (GpLinesSkips * k, const gchar * why)
{
  k->skipped++;
  /* (a damaged line's text may be quoted in @why: kept as valid UTF-8,
   * for a terminal and session.json alike) */
  if (k->first == NULL)
    k->first = g_utf8_make_valid (why, -1);
}

gchar *
gp_lines_skips_text (const GpLinesSkips * k)
{
  if (k->skipped == 0)
    return NULL;
  return g_strdup_printf ("%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
      " line%s skipped, first at %s", k->skipped, k->lines,
      k->lines == 1 ? "" : "s", k->first);
}

void
gp_lines_skips_clear (GpLinesSkips * k)
{
  g_clear_pointer (&k->first, g_free);
  k->lines = k->skipped = 0;
}
