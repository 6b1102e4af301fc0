/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-page-html.c: the page as one HTML file (gp_page_write_html): the
 * skeleton and CSS of the GResource, filled with the page's parts. Every
 * name and value goes through g_markup_escape_text (); the pictures are
 * inline SVG cleaned of what a page must not hold (their XML prolog,
 * doctype and comments, their namespace URLs) with their ids prefixed by
 * the picture's, so that two charts' glyphs and clips never clash. No
 * script.
 */
#include "gp-page-private.h"
#include "core/gp-file.h"
#include "core/gp-version.h"

#include <string.h>

/* The GResource compiled from gp-page.gresource.xml (meson), registered
 * by hand: a constructor in a static library may be left out by the
 * linker. */
void gp_page_register_resource (void);
GResource *gp_page_get_resource (void);

#define GP_PAGE_RESOURCE_PREFIX "/org/gstprof/page/"

gchar *
gp_page_resource_text (const gchar * name)
{
  static gsize registered;
  gchar *path = g_strconcat (GP_PAGE_RESOURCE_PREFIX, name, NULL);
  GBytes *b;
  gchar *text;

  if (g_once_init_enter (&registered)) {
    gp_page_register_resource ();
    g_once_init_leave (&registered, 1);
  }
  b = g_resource_lookup_data (gp_page_get_resource (), path, 0, NULL);
  g_assert (b != NULL);
  text = g_strndup (g_bytes_get_data (b, NULL), g_bytes_get_size (b));
  g_bytes_unref (b);
  g_free (path);
  return text;
}

static void
gp_page_html_text (GString * out, const gchar * text)
{
  gchar *esc = g_markup_escape_text (text ? text : "", -1);

  g_string_append (out, esc);
  g_free (esc);
}

/* <TAG class="CLASS">text</TAG> */
static void
gp_page_html_element (GString * out, const gchar * tag, const gchar * cls,
    const gchar * text)
{
  if (cls)
    g_string_append_printf (out, "<%s class=\"%s\">", tag, cls);
  else
    g_string_append_printf (out, "<%s>", tag);
  gp_page_html_text (out, text);
  g_string_append_printf (out, "</%s>\n", tag);
}

/* ------------------------------------------------------------------ */
/* inline SVG                                                           */
/* ------------------------------------------------------------------ */

/* @svg without its prolog, doctype, comments and xmlns attributes, and
 * with @prefix before every id and every reference to one (NULL: ids
 * kept: the graph's are the elements' names). A '<' or '>' inside an
 * attribute's value is written as a reference: graphviz 2.42 on Debian 11
 * writes a node's id with its name's '<' as it is (an element named
 * `<img src=x onerror=alert(1)>`), which a browser reads as text there but
 * a page should not hold. */
static gchar *
gp_page_html_svg (GBytes * svg, const gchar * prefix)
{
  gchar *text = g_strndup (g_bytes_get_data (svg, NULL),
      g_bytes_get_size (svg));
  const gchar *p = strstr (text, "<svg");
  GString *out = g_string_new (NULL);
  gboolean in_tag = FALSE, in_value = FALSE;

  while (p && *p) {
    if (!in_tag && g_str_has_prefix (p, "<!--")) {
      const gchar *end = strstr (p, "-->");

      p = end ? end + 3 : p + strlen (p);
    } else if (in_tag && !in_value && g_str_has_prefix (p, " xmlns")) {
      const gchar *q = strchr (p, '"');

      q = q ? strchr (q + 1, '"') : NULL;
      p = q ? q + 1 : p + strlen (p);
    } else if (in_tag && !in_value && prefix && g_str_has_prefix (p,
            "id=\"")) {
      g_string_append_printf (out, "id=\"%s-", prefix);
      in_value = TRUE;
      p += 4;
    } else if (in_tag && !in_value && prefix && g_str_has_prefix (p,
            "href=\"#")) {
      g_string_append_printf (out, "href=\"#%s-", prefix);
      in_value = TRUE;
      p += 7;
    } else if (in_value && prefix && g_str_has_prefix (p, "url(#")) {
      g_string_append_printf (out, "url(#%s-", prefix);
      p += 5;
    } else if (in_value && (*p == '<' || *p == '>')) {
      g_string_append (out, *p == '<' ? "&lt;" : "&gt;");
      p++;
    } else {
      if (in_tag && *p == '"')
        in_value = !in_value;
      else if (!in_tag && *p == '<')
        in_tag = TRUE;
      else if (in_tag && !in_value && *p == '>')
        in_tag = FALSE;
      g_string_append_c (out, *p++);
    }
  }
  g_free (text);
  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------ */
/* the parts                                                            */
/* ------------------------------------------------------------------ */

static void
gp_page_html_head (GString * out, const GpPage * p)
{
  guint i;

  gp_page_html_element (out, "h1", NULL, p->title);
  g_string_append (out, "<dl class=\"facts\">\n");
  for (i = 0; i + 1 < p->facts->len; i += 2) {
    gp_page_html_element (out, "dt", NULL, g_ptr_array_index (p->facts, i));
    gp_page_html_element (out, "dd", NULL, g_ptr_array_index (p->facts,
            i + 1));
  }
  g_string_append (out, "</dl>\n<nav><a href=\"#gp-verdict\">Verdict</a>"
      "<a href=\"#gp-findings\">Findings</a>");
  for (i = 0; i < p->pictures->len; i++) {
    GpPagePicture *pic = g_ptr_array_index (p->pictures, i);

    g_string_append_printf (out, "<a href=\"#gp-%s\">", pic->id);
    gp_page_html_text (out, pic->title);
    g_string_append (out, "</a>");
  }
  g_string_append (out, "<a href=\"#gp-tables\">Tables</a></nav>\n");
}

static void
gp_page_html_diff (GString * out, const gchar * diff)
{
  gchar **lines = g_strsplit (diff, "\n", -1);
  guint i;

  g_string_append (out, "<pre class=\"diff\">");
  for (i = 0; lines[i]; i++) {
    const gchar *cls = lines[i][0] == '+' ? "add" : lines[i][0] == '-' ?
        "del" : NULL;

    if (*lines[i] == '\0' && lines[i + 1] == NULL)
      break;
    if (cls)
      g_string_append_printf (out, "<span class=\"%s\">", cls);
    gp_page_html_text (out, lines[i]);
    g_string_append (out, cls ? "</span>" : "\n");
  }
  g_string_append (out, "</pre>\n");
  g_strfreev (lines);
}

static void
gp_page_html_finding (GString * out, const GpPageFinding * pf)
{
  GpFinding *f = pf->f;
  gchar *head = g_strdup_printf ("%s: %s", f->rule, f->title);
  guint i;

  g_string_append_printf (out, "<li class=\"%s\">\n<h3><span class=\"sev\">",
      g_strcmp0 (f->severity, "high") == 0 ? "high" :
      g_strcmp0 (f->severity, "medium") == 0 ? "medium" : "info");
  gp_page_html_text (out, f->severity);
  g_string_append (out, "</span> ");
  gp_page_html_text (out, head);
  g_string_append (out, "</h3>\n");
  if (f->targets && f->targets->len) {
    g_string_append (out, "<p><b>on</b> ");
    for (i = 0; i < f->targets->len; i++) {
      g_string_append (out, i ? ", <code>" : "<code>");
      gp_page_html_text (out, g_ptr_array_index (f->targets, i));
      g_string_append (out, "</code>");
    }
    g_string_append (out, "</p>\n");
  }
  if (pf->evidence && *pf->evidence)
    gp_page_html_element (out, "pre", "evidence", pf->evidence);
  if (f->why && *f->why) {
    g_string_append (out, "<p><b>why</b> ");
    gp_page_html_text (out, f->why);
    g_string_append (out, "</p>\n");
  }
  if (f->fix && *f->fix) {
    g_string_append (out, "<p><b>fix</b> ");
    gp_page_html_text (out, f->fix);
    g_string_append (out, "</p>\n");
  }
  if (pf->diff)
    gp_page_html_diff (out, pf->diff);
  gp_page_html_element (out, "p", "basis", pf->basis);
  g_string_append (out, "</li>\n");
  g_free (head);
}

static void
gp_page_html_findings (GString * out, const GpPage * p)
{
  gchar *head = g_strdup_printf ("Findings (%u), strongest first",
      p->findings->len);
  guint i;

  g_string_append (out, "<section id=\"gp-findings\">\n");
  gp_page_html_element (out, "h2", NULL, head);
  if (p->findings->len == 0)
    gp_page_html_element (out, "p", "note", "No finding.");
  g_string_append (out, "<ol class=\"findings\">\n");
  for (i = 0; i < p->findings->len; i++)
    gp_page_html_finding (out, g_ptr_array_index (p->findings, i));
  g_string_append (out, "</ol>\n</section>\n");
  g_free (head);
}

static void
gp_page_html_picture (GString * out, const GpPagePicture * pic)
{
  g_string_append_printf (out, "<figure id=\"gp-%s\">\n", pic->id);
  gp_page_html_element (out, "h2", NULL, pic->title);
  if (pic->svg) {
    gchar *svg = gp_page_html_svg (pic->svg, strcmp (pic->id, "graph") ?
        pic->id : NULL);

    g_string_append (out, svg);
    g_string_append_c (out, '\n');
    g_free (svg);
  } else
    gp_page_html_element (out, "p", "note", pic->absent);
  if (pic->caption)
    gp_page_html_element (out, "figcaption", NULL, pic->caption);
  g_string_append (out, "</figure>\n");
}

/* a cell that is a number (or unknown) is aligned right */
static gboolean
gp_page_html_is_number (const gchar * cell)
{
  gchar *end = NULL;

  if (strcmp (cell, "-") == 0)
    return TRUE;
  g_ascii_strtod (cell, &end);
  return end != cell && *end == '\0';
}

static void
gp_page_html_table (GString * out, const GpPageTable * t)
{
  guint i, j;

  g_string_append_printf (out, "<h3 id=\"gp-table-%s\">", t->id);
  gp_page_html_text (out, t->title);
  g_string_append (out, "</h3>\n");
  if (t->rows->len == 0 && t->note) {
    gp_page_html_element (out, "p", "note", t->note);
    return;
  }
  g_string_append (out, "<table>\n<thead><tr>");
  for (j = 0; t->columns[j]; j++)
    gp_page_html_element (out, "th", NULL, t->columns[j]);
  g_string_append (out, "</tr></thead>\n<tbody>\n");
  for (i = 0; i < t->rows->len; i++) {
    gchar **row = g_ptr_array_index (t->rows, i);

    g_string_append (out, "<tr>");
    for (j = 0; row[j]; j++) {
      g_string_append (out, j > 0 && gp_page_html_is_number (row[j]) ?
          "<td class=\"num\">" : "<td>");
      gp_page_html_text (out, row[j]);
      g_string_append (out, "</td>");
    }
    g_string_append (out, "</tr>\n");
  }
  g_string_append (out, "</tbody>\n</table>\n");
  if (t->note)
    gp_page_html_element (out, "p", "note", t->note);
}

static gchar *
gp_page_html_body (const GpPage * p)
{
  GString *out = g_string_new (NULL);
  guint i;

  gp_page_html_head (out, p);
  g_string_append (out, "<section id=\"gp-verdict\">\n");
  gp_page_html_element (out, "h2", NULL, "Verdict");
  gp_page_html_element (out, "pre", "verdict", p->verdict);
  g_string_append (out, "</section>\n");
  gp_page_html_findings (out, p);
  for (i = 0; i < p->pictures->len; i++)
    gp_page_html_picture (out, g_ptr_array_index (p->pictures, i));
  g_string_append (out, "<section id=\"gp-tables\">\n");
  gp_page_html_element (out, "h2", NULL, "Tables");
  for (i = 0; i < p->tables->len; i++)
    gp_page_html_table (out, g_ptr_array_index (p->tables, i));
  g_string_append (out, "</section>\n");
  return g_string_free (out, FALSE);
}

/* @tmpl with each "@KEY@" of @keys replaced by its value (@keys: key,
 * value, ..., NULL); what is put in is not looked at again. */
static gchar *
gp_page_html_fill (const gchar * tmpl, const gchar * const *keys)
{
  GString *out = g_string_new (NULL);
  const gchar *p = tmpl;

  while (*p) {
    guint i;
    gboolean hit = FALSE;

    for (i = 0; *p == '@' && keys[i]; i += 2) {
      gsize n = strlen (keys[i]);

      if (strncmp (p + 1, keys[i], n) == 0 && p[n + 1] == '@') {
        g_string_append (out, keys[i + 1]);
        p += n + 2;
        hit = TRUE;
        break;
      }
    }
    if (!hit)
      g_string_append_c (out, *p++);
  }
  return g_string_free (out, FALSE);
}

gboolean
gp_page_write_html (const GpPage * p, const gchar * path, GError ** error)
{
  gchar *tmpl = gp_page_resource_text ("gp-page.html");
  gchar *style = gp_page_resource_text ("gp-page.css");
  gchar *title = g_markup_escape_text (p->title, -1);
  gchar *body = gp_page_html_body (p);
  const gchar *keys[] = { "VERSION", gp_version (), "TITLE", title,
    "STYLE", style, "BODY", body, NULL
  };
  gchar *html = gp_page_html_fill (tmpl, keys);
  gboolean ok = gp_atomic_file_write (path, html, strlen (html), error);

  g_free (html);
  g_free (body);
  g_free (title);
  g_free (style);
  g_free (tmpl);
  return ok;
}
