/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-page-md.c: the page as Markdown (gp_page_write_markdown): the same
 * parts in the same order, the verdict, evidence and diffs in fenced
 * blocks, the tables as pipe tables, and each picture a PNG file beside
 * the Markdown, linked by its name. Text outside the fences is escaped so
 * that a name is never read as markup or HTML (a '<' is "&lt;", a '|' or
 * '*' gets a backslash).
 */
#include "gp-page-private.h"
#include "core/gp-file.h"

#include <string.h>

/* Markdown's characters that make markup, escaped by a backslash */
#define GP_PAGE_MD_MARKUP "\\`*_[]|~"

static void
gp_page_md_text (GString * out, const gchar * text)
{
  const gchar *p;

  for (p = text ? text : ""; *p; p++) {
    if (*p == '<')
      g_string_append (out, "&lt;");
    else if (*p == '>')
      g_string_append (out, "&gt;");
    else if (*p == '&')
      g_string_append (out, "&amp;");
    else if (*p == '\n')
      g_string_append_c (out, ' ');
    else {
      if (strchr (GP_PAGE_MD_MARKUP, *p))
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p);
    }
  }
}

/* A fenced block: a fence longer than any run of backticks inside. */
static void
gp_page_md_block (GString * out, const gchar * lang, const gchar * text)
{
  guint run = 0, longest = 0;
  const gchar *p;
  gchar *fence;

  for (p = text; *p; p++) {
    run = *p == '`' ? run + 1 : 0;
    longest = MAX (longest, run);
  }
  fence = g_strnfill (MAX (3, longest + 1), '`');
  g_string_append_printf (out, "%s%s\n%s%s%s\n\n", fence, lang, text,
      g_str_has_suffix (text, "\n") ? "" : "\n", fence);
  g_free (fence);
}

static void
gp_page_md_finding (GString * out, guint n, const GpPageFinding * pf)
{
  GpFinding *f = pf->f;
  guint i;

  g_string_append_printf (out, "### %u\\. \\[", n);
  gp_page_md_text (out, f->severity);
  g_string_append (out, "\\] ");
  gp_page_md_text (out, f->rule);
  g_string_append (out, ": ");
  gp_page_md_text (out, f->title);
  g_string_append (out, "\n\n");
  if (f->targets && f->targets->len) {
    g_string_append (out, "- **on**: ");
    for (i = 0; i < f->targets->len; i++) {
      g_string_append (out, i ? ", " : "");
      gp_page_md_text (out, g_ptr_array_index (f->targets, i));
    }
    g_string_append_c (out, '\n');
  }
  if (f->why && *f->why) {
    g_string_append (out, "- **why**: ");
    gp_page_md_text (out, f->why);
    g_string_append_c (out, '\n');
  }
  if (f->fix && *f->fix) {
    g_string_append (out, "- **fix**: ");
    gp_page_md_text (out, f->fix);
    g_string_append_c (out, '\n');
  }
  g_string_append (out, "- ");
  gp_page_md_text (out, pf->basis);
  g_string_append (out, "\n\n");
  if (pf->evidence && *pf->evidence)
    gp_page_md_block (out, "text", pf->evidence);
  if (pf->diff)
    gp_page_md_block (out, "diff", pf->diff);
}

static void
gp_page_md_table (GString * out, const GpPageTable * t)
{
  guint i, j;

  g_string_append (out, "### ");
  gp_page_md_text (out, t->title);
  g_string_append (out, "\n\n");
  if (t->rows->len > 0) {
    for (j = 0; t->columns[j]; j++) {
      g_string_append (out, "| ");
      gp_page_md_text (out, t->columns[j]);
      g_string_append_c (out, ' ');
    }
    g_string_append (out, "|\n");
    for (j = 0; t->columns[j]; j++)
      g_string_append (out, "|---");
    g_string_append (out, "|\n");
  }
  for (i = 0; i < t->rows->len; i++) {
    gchar **row = g_ptr_array_index (t->rows, i);

    for (j = 0; row[j]; j++) {
      g_string_append (out, "| ");
      gp_page_md_text (out, row[j]);
      g_string_append_c (out, ' ');
    }
    g_string_append (out, "|\n");
  }
  if (t->note) {
    g_string_append (out, t->rows->len ? "\n" : "");
    gp_page_md_text (out, t->note);
    g_string_append_c (out, '\n');
  }
  g_string_append_c (out, '\n');
}

gchar *
gp_page_picture_path (const gchar * path, const GpPagePicture * pic)
{
  const gchar *dot = strrchr (path, '.');
  const gchar *slash = strrchr (path, '/');
  gsize stem = dot && (slash == NULL || dot > slash) ? (gsize) (dot - path)
      : strlen (path);

  return g_strdup_printf ("%.*s-%s.png", (gint) stem, path, pic->id);
}

/* Picture @pic written beside @path and linked; its absence said. */
static gboolean
gp_page_md_picture (GString * out, const gchar * path,
    const GpPagePicture * pic, GError ** error)
{
  gchar *file, *name;

  g_string_append (out, "## ");
  gp_page_md_text (out, pic->title);
  g_string_append (out, "\n\n");
  if (pic->png == NULL) {
    gp_page_md_text (out, pic->absent ? pic->absent :
        "(no PNG of it was drawn)");
    g_string_append (out, "\n\n");
    return TRUE;
  }
  file = gp_page_picture_path (path, pic);
  if (!gp_atomic_file_write (file, g_bytes_get_data (pic->png, NULL),
          g_bytes_get_size (pic->png), error)) {
    g_free (file);
    return FALSE;
  }
  name = g_path_get_basename (file);
  g_string_append_printf (out, "![%s](%s)\n\n", pic->id, name);
  if (pic->caption) {
    gp_page_md_text (out, pic->caption);
    g_string_append (out, "\n\n");
  }
  g_free (name);
  g_free (file);
  return TRUE;
}

gboolean
gp_page_write_markdown (const GpPage * p, const gchar * path,
    GError ** error)
{
  GString *out = g_string_new ("# ");
  gboolean ok = TRUE;
  guint i;

  gp_page_md_text (out, p->title);
  g_string_append (out, "\n\n");
  for (i = 0; i + 1 < p->facts->len; i += 2) {
    g_string_append (out, "- **");
    gp_page_md_text (out, g_ptr_array_index (p->facts, i));
    g_string_append (out, "**: ");
    gp_page_md_text (out, g_ptr_array_index (p->facts, i + 1));
    g_string_append_c (out, '\n');
  }
  g_string_append (out, "\n## Verdict\n\n");
  gp_page_md_block (out, "text", p->verdict);
  g_string_append_printf (out, "## Findings (%u), strongest first\n\n",
      p->findings->len);
  for (i = 0; i < p->findings->len; i++)
    gp_page_md_finding (out, i + 1, g_ptr_array_index (p->findings, i));
  for (i = 0; ok && i < p->pictures->len; i++)
    ok = gp_page_md_picture (out, path, g_ptr_array_index (p->pictures, i),
        error);
  g_string_append (out, "## Tables\n\n");
  for (i = 0; i < p->tables->len; i++)
    gp_page_md_table (out, g_ptr_array_index (p->tables, i));
  if (ok)
    ok = gp_atomic_file_write (path, out->str, out->len, error);
  g_string_free (out, TRUE);
  return ok;
}
