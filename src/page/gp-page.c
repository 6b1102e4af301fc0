/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-page.c: a report page gathered from a session: what ran, the
 * verdict, the findings with their diffs, the pictures drawn in memory
 * (the graph by the export room, the curves and the roofline by the plot
 * room) and the tables (gp-page-tables.c).
 */
#include "gp-page.h"
#include "gp-page-private.h"
#include "core/gp-launch.h"
#include "core/gp-session-query.h"
#include "export/gp-export.h"
#include "plot/gp-plot.h"
#include "report/gp-verdict.h"
#include "telemetry/gp-membw.h"

#include <math.h>
#include <string.h>

G_DEFINE_QUARK (gp-page-error-quark, gp_page_error);

static void gp_page_facts (GpPage * p);
static void gp_page_findings (GpPage * p);
static void gp_page_graph (GpPage * p, const GpPageOptions * o);
static void gp_page_curves (GpPage * p, const GpPageOptions * o);
static gboolean gp_page_roofline (GpPage * p, const GpPageOptions * o,
    GError ** error);

GpPage *
gp_page_new (GpSession * s, const gchar * note, const GpPageOptions * o,
    GError ** error)
{
  GpPage *p = g_new0 (GpPage, 1);

  p->s = s;
  p->redacted = o->redacted;
  p->facts = g_ptr_array_new_with_free_func (g_free);
  p->findings = g_ptr_array_new_with_free_func (gp_page_finding_free);
  p->pictures = g_ptr_array_new_with_free_func (gp_page_picture_free);
  p->tables = g_ptr_array_new_with_free_func (gp_page_table_free);
  gp_page_facts (p);
  p->verdict = gp_verdict_format (s, note, GP_VERDICT_PLAIN);
  gp_page_findings (p);
  gp_page_graph (p, o);
  gp_page_curves (p, o);
  gp_page_tables (p);
  if (!gp_page_roofline (p, o, error)) {
    gp_page_free (p);
    return NULL;
  }
  return p;
}

void
gp_page_free (GpPage * p)
{
  if (p == NULL)
    return;
  g_free (p->title);
  g_ptr_array_unref (p->facts);
  g_free (p->verdict);
  g_ptr_array_unref (p->findings);
  g_ptr_array_unref (p->pictures);
  g_ptr_array_unref (p->tables);
  g_free (p);
}

/* ------------------------------------------------------------------ */
/* what ran                                                             */
/* ------------------------------------------------------------------ */

static void
gp_page_fact (GpPage * p, const gchar * what, gchar * value)
{
  g_ptr_array_add (p->facts, g_strdup (what));
  g_ptr_array_add (p->facts, value);
}

static void
gp_page_facts (GpPage * p)
{
  GpSession *s = p->s;

  p->title = g_strdup (s->elements->len ? "gstprof report" :
      "gstprof report: the machine");
  if (s->launch)
    gp_page_fact (p, "pipeline", g_strdup (s->launch));
  if (s->import_schema)
    gp_page_fact (p, "read from", g_strdup (s->import_schema));
  else if (s->mode)
    gp_page_fact (p, "mode", g_strdup (s->mode));
  if (s->started)
    gp_page_fact (p, "started", g_strdup (s->started));
  if (s->duration_s > 0)
    gp_page_fact (p, "duration", g_strdup_printf ("%.1f s", s->duration_s));
  if (s->gstreamer)
    gp_page_fact (p, "GStreamer", g_strdup (s->gstreamer));
  if (s->platform)
    gp_page_fact (p, "platform", g_strdup (s->platform));
  gp_page_fact (p, "redaction", g_strdup (p->redacted ?
          "credentials and private locations masked (--no-redact keeps "
          "them)" : "none (--no-redact)"));
}

/* ------------------------------------------------------------------ */
/* findings                                                             */
/* ------------------------------------------------------------------ */

void
gp_page_finding_free (gpointer data)
{
  GpPageFinding *pf = data;

  g_free (pf->evidence);
  g_free (pf->diff);
  g_free (pf->basis);
  g_free (pf);
}

/* The launch string with @f's edit applied, as a diff; NULL when it has
 * none or it does not apply. */
static gchar *
gp_page_diff (GpSession * s, GpFinding * f)
{
  const GpLaunch *before = gp_session_parsed_launch (s);
  GpLaunch *after;
  gchar *text, *diff = NULL;

  if (before == NULL || f->fix_patch == NULL || f->fix_patch->len == 0)
    return NULL;
  after = gp_launch_copy (before);
  if (gp_launch_apply_patch (after, f->fix_patch, NULL)) {
    text = gp_launch_to_string (after);
    diff = gp_launch_diff (s->launch, text);
    g_free (text);
  }
  gp_launch_free (after);
  if (diff && *diff == '\0')
    g_clear_pointer (&diff, g_free);
  return diff;
}

static void
gp_page_findings (GpPage * p)
{
  guint i;

  for (i = 0; i < p->s->findings->len; i++) {
    GpFinding *f = g_ptr_array_index (p->s->findings, i);
    GpPageFinding *pf = g_new0 (GpPageFinding, 1);
    GString *ev = g_string_new (NULL);
    GList *members = f->evidence ? json_object_get_members (f->evidence) :
        NULL, *l;

    pf->f = f;
    for (l = members; l; l = l->next) {
      gchar *item = gp_verdict_evidence_item (l->data,
          json_object_get_member (f->evidence, l->data));

      g_string_append_printf (ev, "%s%s", ev->len ? "\n" : "", item);
      g_free (item);
    }
    g_list_free (members);
    pf->evidence = g_string_free (ev, FALSE);
    pf->diff = gp_page_diff (p->s, f);
    if (f->verified_on && *f->verified_on)
      pf->basis = g_strdup_printf ("verified on %s", f->verified_on);
    else
      pf->basis = g_strdup (f->heuristic ? "heuristic: not yet verified "
          "on a bench pair" : "measured");
    g_ptr_array_add (p->findings, pf);
  }
}

/* ------------------------------------------------------------------ */
/* pictures                                                             */
/* ------------------------------------------------------------------ */

void
gp_page_picture_free (gpointer data)
{
  GpPagePicture *pic = data;

  g_free (pic->id);
  g_free (pic->title);
  if (pic->svg)
    g_bytes_unref (pic->svg);
  if (pic->png)
    g_bytes_unref (pic->png);
  g_free (pic->absent);
  g_free (pic->caption);
  g_free (pic);
}

static GpPagePicture *
gp_page_add_picture (GpPage * p, const gchar * id, const gchar * title)
{
  GpPagePicture *pic = g_new0 (GpPagePicture, 1);

  pic->id = g_strdup (id);
  pic->title = g_strdup (title);
  g_ptr_array_add (p->pictures, pic);
  return pic;
}

/* A picture's absence, from the error that made it so. */
static void
gp_page_absent (GpPagePicture * pic, GError * err)
{
  pic->absent = g_strdup (err ? err->message : "nothing to draw");
  g_clear_error (&err);
}

static void
gp_page_graph (GpPage * p, const GpPageOptions * o)
{
  GpPagePicture *pic;
  GError *err = NULL;

  if (p->s->elements->len == 0)
    return;
  pic = gp_page_add_picture (p, "graph", "The pipeline graph");
  pic->caption = g_strdup ("Each element is filled by its share of the self "
      "time (white none, the deepest red the largest; queues grey: their "
      "time is waiting); each link is labelled with its rate, caps and "
      "memory.");
  pic->svg = gp_export_graph_data (p->s, GP_EXPORT_GRAPH_SVG, "the graph",
      &err);
  if (pic->svg && o->png)
    pic->png = gp_export_graph_data (p->s, GP_EXPORT_GRAPH_PNG, "the graph",
        &err);
  if (err)
    gp_page_absent (pic, err);
}

/* @plot drawn into @pic (and freed); its notes become the caption. */
static void
gp_page_draw (GpPagePicture * pic, GpPlot * plot, const GpPageOptions * o)
{
  GError *err = NULL;
  GString *caption = g_string_new (pic->caption);
  guint i;

  for (i = 0; i < plot->notes->len; i++)
    g_string_append_printf (caption, "%s%s", caption->len ? "\n" : "",
        (const gchar *) g_ptr_array_index (plot->notes, i));
  g_free (pic->caption);
  pic->caption = caption->len ? g_string_free (caption, FALSE) : NULL;
  if (pic->caption == NULL)
    g_string_free (caption, TRUE);
  pic->svg = gp_plot_draw (plot, GP_PLOT_SVG, &err);
  if (pic->svg && o->png)
    pic->png = gp_plot_draw (plot, GP_PLOT_PNG, &err);
  if (err)
    gp_page_absent (pic, err);
  gp_plot_free (plot);
}

static void
gp_page_curves (GpPage * p, const GpPageOptions * o)
{
  GpPagePicture *pic = gp_page_add_picture (p, "curves",
      "The curves over time");
  GError *err = NULL;
  GpPlot *plot = gp_plot_machine_layout (NULL, p->s, &err);

  if (plot == NULL)
    gp_page_absent (pic, err);
  else
    gp_page_draw (pic, plot, o);
}

/* The accelerator's roofline when one is asked or the machine shows its
 * memory traffic; NULL with the reason in @why otherwise. */
static GpRoofline *
gp_page_accel (GpPage * p, const GpPageOptions * o, gchar ** caption,
    GError ** why)
{
  const GpMachine *m = p->s->machine;
  gdouble fps = gp_session_video_fps (p->s);

  if (!o->asked && !(m && gp_machine_find (m, GP_MACHINE_MEMBW_LOAD, NULL)))
    return NULL;
  return gp_roofline_of_machine (o->ask, m, fps, caption, why);
}

/* The CPU roofline of the session's software elements. */
static GpRoofline *
gp_page_cpu (GpPage * p, gchar ** caption, GError ** why)
{
  GpMembw *bw = gp_membw_get (FALSE, why);
  GpRoofline *r;
  gchar *copy;

  if (bw == NULL)
    return NULL;
  r = gp_roofline_cpu (p->s, bw, NULL);
  copy = gp_roofline_format (bw->copy_1, "B/s");
  *caption = g_strdup_printf ("memory roof: this machine's copy on one "
      "thread, %s (%s)", copy, bw->cached ? "measured earlier this boot" :
      "measured now");
  g_free (copy);
  gp_membw_free (bw);
  return r;
}

static gboolean
gp_page_roofline (GpPage * p, const GpPageOptions * o, GError ** error)
{
  GpPagePicture *pic;
  GError *why = NULL;
  gchar *caption = NULL;
  GpRoofline *r;
  GpPlot *plot;

  r = gp_page_accel (p, o, &caption, &why);
  if (r == NULL && why && o->asked) {
    g_propagate_error (error, why);
    return FALSE;
  }
  if (r == NULL && o->cpu_roofline && p->s->elements->len > 0) {
    g_clear_error (&why);
    r = gp_page_cpu (p, &caption, &why);
  }
  if (r == NULL && why == NULL)
    return TRUE;
  pic = gp_page_add_picture (p, "roofline", "The roofline");
  pic->caption = caption;
  if (r == NULL) {
    gp_page_absent (pic, why);
    return TRUE;
  }
  gp_page_roofline_table (p, r);
  plot = gp_plot_roofline_layout (r, &why);
  if (plot == NULL)
    gp_page_absent (pic, why);
  else
    gp_page_draw (pic, plot, o);
  gp_roofline_free (r);
  return TRUE;
}
