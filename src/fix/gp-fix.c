/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-fix.c: the loop from a finding to a verified fix. A plan gathers the
 * launch-string edits the findings carry (fix_patch), in rank order,
 * leaves out the ones that conflict with a better-ranked edit, and applies
 * the rest to session.launch (src/core/gp-launch); gp_fix_apply () runs the
 * patched pipeline the way the original was measured, so that the two
 * sessions compare (src/report/gp-compare).
 */
#include "gp-fix.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gst/gst.h>

#include "core/gp-caps.h"
#include "core/gp-launch.h"
#include "rules/gp-rules.h"

/* One edit of the plan: a single patch op and the findings it serves. */
typedef struct
{
  GpLaunchOp *op;
  GArray *findings;             /* guint: indexes in s->findings */
} GpFixEdit;

typedef struct
{
  guint finding;
  gchar *reason;
} GpFixSkip;

struct _GpFixPlan
{
  GpSession *s;                 /* borrowed */
  gchar *before;
  GpLaunch *parsed;             /* before, parsed once for every try */
  gchar *after;                 /* == before when no edit applies */
  GPtrArray *edits;             /* GpFixEdit* */
  GArray *skips;                /* GpFixSkip */
  GArray *unfixable;            /* guint: findings without a fix_patch */
  gchar *checker;               /* the gstprof program asked, or NULL */
  /* why the patched strings cannot be built here to see that they link
   * (the original does not build here either), NULL when they can */
  gchar *unchecked;
};

static void
gp_fix_fix_edit_free (gpointer p)
{
  GpFixEdit *e = p;

  gp_launch_op_free (e->op);
  g_array_unref (e->findings);
  g_free (e);
}

static void
gp_fix_fix_skip_clear (gpointer p)
{
  g_free (((GpFixSkip *) p)->reason);
}

void
gp_fix_plan_free (GpFixPlan * p)
{
  if (p == NULL)
    return;
  g_free (p->before);
  gp_launch_free (p->parsed);
  g_free (p->after);
  g_ptr_array_unref (p->edits);
  g_array_unref (p->skips);
  g_array_unref (p->unfixable);
  g_free (p->unchecked);
  g_free (p->checker);
  g_free (p);
}

static void
gp_fix_add_skip (GpFixPlan * p, guint finding, gchar * reason)
{
  GpFixSkip sk = { finding, reason };

  g_array_append_val (p->skips, sk);
}

GpFixLinks
gp_fix_links_here (const gchar * launch, gchar ** why)
{
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch_full (launch, NULL,
      GST_PARSE_FLAG_FATAL_ERRORS, &err);
  GpFixLinks links = GP_FIX_LINKS_OK;

  *why = NULL;
  if (pipe == NULL || err != NULL) {
    links = g_error_matches (err, GST_PARSE_ERROR,
        GST_PARSE_ERROR_NO_SUCH_ELEMENT) ? GP_FIX_LINKS_UNKNOWN :
        GP_FIX_LINKS_REFUSED;
    *why = g_strdup (err ? err->message : "it does not parse");
  }
  g_clear_error (&err);
  if (pipe)
    gst_object_unref (pipe);
  return links;
}

/* How long a check may take: starting gstprof and building a pipeline is
 * a fraction of a second, unless an element's set-up hangs on a device. */
#define GP_FIX_CHECK_TIMEOUT_MS 10000

/* The verdict of `CHECKER check LAUNCH` from its first line of output
 * (gp-cmd-check.c writes it); @why: the rest of the line. */
static GpFixLinks
gp_fix_links_from_line (const gchar * line, gchar ** why)
{
  static const struct
  {
    const gchar *prefix;
    GpFixLinks links;
  } answers[] = {
    {GP_FIX_LINKS_SAID_NO, GP_FIX_LINKS_REFUSED},
    {GP_FIX_LINKS_SAID_UNKNOWN, GP_FIX_LINKS_UNKNOWN},
    {GP_FIX_LINKS_SAID_YES, GP_FIX_LINKS_OK},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (answers); i++)
    if (g_str_has_prefix (line, answers[i].prefix)) {
      *why = answers[i].links == GP_FIX_LINKS_OK ? NULL :
          g_strndup (line + strlen (answers[i].prefix),
          strcspn (line + strlen (answers[i].prefix), "\n"));
      return answers[i].links;
    }
  *why = g_strdup ("the check gave no answer");
  return GP_FIX_LINKS_UNKNOWN;
}

/* gp_fix_links_here () asked of a fresh gstprof process (@checker check
 * LAUNCH), so that the elements it makes use up none of this process's
 * element numbers (the patched run that may follow here must get the names
 * a fresh process gives, the names the findings use; a forked copy of this
 * process could hang on a lock another thread held), and an element that
 * hangs or crashes while being made costs the check, not gstprof. */
static GpFixLinks
gp_fix_check_links (const gchar * checker, const gchar * launch,
    gchar ** why)
{
  const gchar *argv[] = { checker, "check", launch, NULL };
  GString *got = g_string_new (NULL);
  gint64 deadline = g_get_monotonic_time () +
      GP_FIX_CHECK_TIMEOUT_MS * G_TIME_SPAN_MILLISECOND;
  GpFixLinks links = GP_FIX_LINKS_UNKNOWN;
  GError *err = NULL;
  gint out, status = 0;
  GPid pid;

  *why = NULL;
  if (!g_spawn_async_with_pipes (NULL, (gchar **) argv, NULL,
          G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
          &pid, NULL, &out, NULL, &err)) {
    *why = g_strdup_printf ("cannot start the check: %s", err->message);
    g_error_free (err);
    g_string_free (got, TRUE);
    return GP_FIX_LINKS_UNKNOWN;
  }
  for (;;) {
    GPollFD pfd = { out, G_IO_IN | G_IO_HUP, 0 };
    gint64 left = (deadline - g_get_monotonic_time ()) / 1000;
    gchar buf[512];
    gssize n;

    if (left <= 0 || g_poll (&pfd, 1, (gint) left) == 0) {
      kill (pid, SIGKILL);
      *why = g_strdup_printf ("building it took over %d s",
          GP_FIX_CHECK_TIMEOUT_MS / 1000);
      break;
    }
    n = read (out, buf, sizeof buf);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    g_string_append_len (got, buf, n);
  }
  close (out);
  while (waitpid (pid, &status, 0) < 0 && errno == EINTR);
  g_spawn_close_pid (pid);
  if (*why == NULL && WIFSIGNALED (status))
    *why = g_strdup_printf ("building it crashed (signal %d)",
        WTERMSIG (status));
  else if (*why == NULL)
    links = gp_fix_links_from_line (got->str, why);
  g_string_free (got, TRUE);
  return links;
}

/* The op of the plan's edit @i. */
static GpLaunchOp *
gp_fix_edit_op (GpFixPlan * p, guint i)
{
  return ((GpFixEdit *) g_ptr_array_index (p->edits, i))->op;
}

/* Every accepted op plus @extra, applied in one call on the original
 * launch string, so that element names are all those of the session. */
static gchar *
gp_fix_try_apply (GpFixPlan * p, GPtrArray * extra, GError ** error)
{
  GpLaunch *l = gp_launch_copy (p->parsed);
  GPtrArray *all = g_ptr_array_new ();   /* borrowed ops */
  gchar *out = NULL;
  guint i;

  for (i = 0; i < p->edits->len; i++)
    g_ptr_array_add (all, gp_fix_edit_op (p, i));
  for (i = 0; extra != NULL && i < extra->len; i++)
    g_ptr_array_add (all, g_ptr_array_index (extra, i));
  if (gp_launch_apply_patch (l, all, error))
    out = gp_launch_to_string (l);
  g_ptr_array_unref (all);
  gp_launch_free (l);
  return out;
}

/* Sorts finding @fi's ops into @fresh (new edits) and @dups (indexes of
 * the plan's edits that already make the same change). A better-ranked
 * finding's edit wins: another change of the same place, or an edit next
 * to an element another edit replaces or removes, is a conflict; NULL, or
 * the reason the finding is skipped. */
static gchar *
gp_fix_claim (GpFixPlan * p, GPtrArray * patch, GPtrArray * fresh,
    GArray * dups)
{
  gchar *reason = NULL, *desc;
  guint i, j;

  for (i = 0; i < patch->len && reason == NULL; i++) {
    GpLaunchOp *op = g_ptr_array_index (patch, i);
    GpLaunchOpClash clash = GP_LAUNCH_OP_APART;

    for (j = 0; j < p->edits->len; j++) {
      clash = gp_launch_op_clash (gp_fix_edit_op (p, j), op);
      if (clash != GP_LAUNCH_OP_APART)
        break;
    }
    if (clash == GP_LAUNCH_OP_APART) {
      g_ptr_array_add (fresh, op);
    } else if (clash == GP_LAUNCH_OP_SAME) {
      g_array_append_val (dups, j);
    } else {
      desc = gp_launch_op_describe (gp_fix_edit_op (p, j));
      reason = g_strdup_printf ("conflicts with edit %u (%s) of a "
          "better-ranked finding", j + 1, desc);
      g_free (desc);
    }
  }
  return reason;
}

/* Adds finding @fi's ops to the plan, or records why not. */
static void
gp_fix_plan_finding (GpFixPlan * p, guint fi)
{
  GpFinding *f = g_ptr_array_index (p->s->findings, fi);
  GPtrArray *fresh = g_ptr_array_new ();        /* borrowed from f */
  GArray *dups = g_array_new (FALSE, FALSE, sizeof (guint));
  GError *err = NULL;
  gchar *reason = gp_fix_claim (p, f->fix_patch, fresh, dups), *result;
  guint i;

  if (reason != NULL) {
    gp_fix_add_skip (p, fi, reason);
    goto out;
  }
  if (fresh->len > 0) {
    gchar *why = NULL;
    GpFixLinks links;

    result = gp_fix_try_apply (p, fresh, &err);
    if (result == NULL) {
      gp_fix_add_skip (p, fi, g_strdup_printf ("does not apply: %s", err ?
              err->message : "unknown error"));
      g_clear_error (&err);
      goto out;
    }
    if (p->unchecked == NULL && (links = gp_fix_check_links (p->checker,
                result, &why)) != GP_FIX_LINKS_OK) {
      gp_fix_add_skip (p, fi, g_strdup_printf ("%s: %s",
              links == GP_FIX_LINKS_REFUSED ? "does not link" :
              "cannot be built here", why));
      g_free (why);
      g_free (result);
      goto out;
    }
    g_free (p->after);
    p->after = result;
    for (i = 0; i < fresh->len; i++) {
      GpFixEdit *e = g_new0 (GpFixEdit, 1);

      e->op = gp_launch_op_copy (g_ptr_array_index (fresh, i));
      e->findings = g_array_new (FALSE, FALSE, sizeof (guint));
      g_array_append_val (e->findings, fi);
      g_ptr_array_add (p->edits, e);
    }
  }
  for (i = 0; i < dups->len; i++) {
    GpFixEdit *e = g_ptr_array_index (p->edits, g_array_index (dups, guint, i));

    g_array_append_val (e->findings, fi);
  }

out:
  g_ptr_array_unref (fresh);
  g_array_unref (dups);
}

GpFixPlan *
gp_fix_plan_new (GpSession * s, const gchar * checker, GError ** error)
{
  GpFixPlan *p;
  GpLaunch *l;
  guint i;

  if (s->launch == NULL || *s->launch == '\0') {
    g_set_error (error, GP_LAUNCH_ERROR, GP_LAUNCH_ERROR_SYNTAX,
        "the session has no launch string (%s), so there is nothing to "
        "patch", s->import_schema ? "an import from another tool" :
        "a wrapped application");
    return NULL;
  }
  l = gp_launch_parse (s->launch, error);
  if (l == NULL)
    return NULL;

  p = g_new0 (GpFixPlan, 1);
  p->s = s;
  p->before = g_strdup (s->launch);
  p->parsed = l;
  p->after = g_strdup (s->launch);
  p->edits = g_ptr_array_new_with_free_func (gp_fix_fix_edit_free);
  p->skips = g_array_new (FALSE, FALSE, sizeof (GpFixSkip));
  g_array_set_clear_func (p->skips, gp_fix_fix_skip_clear);
  p->unfixable = g_array_new (FALSE, FALSE, sizeof (guint));
  /* a patched string is built and its links asked before it is taken,
   * when the original builds here and passes the same check */
  p->checker = g_strdup (checker);
  if (checker == NULL)
    p->unchecked = g_strdup ("no gstprof program was given to ask");
  else if (gp_fix_check_links (checker, p->before, &p->unchecked) ==
      GP_FIX_LINKS_OK)
    g_clear_pointer (&p->unchecked, g_free);
  /* s->findings is ranked: the best-ranked finding claims its edits
   * first */
  for (i = 0; i < s->findings->len; i++) {
    if (((GpFinding *) g_ptr_array_index (s->findings, i))->fix_patch)
      gp_fix_plan_finding (p, i);
    else
      g_array_append_val (p->unfixable, i);
  }
  return p;
}

const gchar *
gp_fix_plan_get_launch (GpFixPlan * p)
{
  return p->after;
}

guint
gp_fix_plan_get_n_edits (GpFixPlan * p)
{
  return p->edits->len;
}

guint
gp_fix_plan_get_measures (GpFixPlan * p)
{
  guint measures = 0, i, k;

  for (i = 0; i < p->edits->len; i++) {
    GpFixEdit *e = g_ptr_array_index (p->edits, i);

    for (k = 0; k < e->findings->len; k++) {
      GpFinding *f = g_ptr_array_index (p->s->findings,
          g_array_index (e->findings, guint, k));
      const GpRule *rule = gp_rules_find (f->rule);

      if (rule != NULL)
        measures |= rule->measure;
    }
  }
  return measures;
}

static void
gp_fix_append_finding (GString * out, GpSession * s, guint fi,
    const gchar * indent)
{
  GpFinding *f = g_ptr_array_index (s->findings, fi);

  g_string_append_printf (out, "%s%s %s: %s\n", indent, f->rule, f->severity,
      f->title);
}

gchar *
gp_fix_plan_format (GpFixPlan * p)
{
  GString *out = g_string_new (NULL);
  guint i, j;

  if (p->edits->len == 0) {
    g_string_append (out, p->skips->len > 0 ?
        "No launch-string edit could be applied; the launch string stays as "
        "it is.\n" :
        "No finding carries a launch-string edit; nothing to change.\n");
  } else {
    gchar *diff = gp_launch_diff (p->before, p->after);

    g_string_append_printf (out, "Patched launch (%u edit%s):\n  %s\n\n",
        p->edits->len, p->edits->len == 1 ? "" : "s", p->after);
    if (p->unchecked != NULL)
      g_string_append_printf (out, "Not checked that it links: %s%s.\n\n",
          p->checker ? "the original launch does not build here either: " :
          "", p->unchecked);
    g_string_append_printf (out, "Diff:\n%s\n", diff);
    g_free (diff);
    g_string_append (out, "Edits, and the findings each addresses:\n");
    for (i = 0; i < p->edits->len; i++) {
      GpFixEdit *e = g_ptr_array_index (p->edits, i);
      gchar *d = gp_launch_op_describe (e->op);

      g_string_append_printf (out, "  %u. %s\n", i + 1, d);
      g_free (d);
      for (j = 0; j < e->findings->len; j++)
        gp_fix_append_finding (out, p->s, g_array_index (e->findings, guint, j),
            "       for ");
    }
  }
  if (p->skips->len > 0) {
    g_string_append (out, "\nSkipped:\n");
    for (i = 0; i < p->skips->len; i++) {
      GpFixSkip *sk = &g_array_index (p->skips, GpFixSkip, i);

      gp_fix_append_finding (out, p->s, sk->finding, "  ");
      g_string_append_printf (out, "    %s\n", sk->reason);
    }
  }
  if (p->unfixable->len > 0) {
    g_string_append (out, "\nNo launch-string edit (see the verdict's fix "
        "text):\n");
    for (i = 0; i < p->unfixable->len; i++)
      gp_fix_append_finding (out, p->s, g_array_index (p->unfixable, guint, i),
          "  ");
  }
  return g_string_free (out, FALSE);
}

void
gp_fix_capture_options (GpSession * before, GpCaptureOptions * opts)
{
  guint i;

  /* The duration asked for, not the one measured (that has the EOS drain
   * on top): when gstprof stopped it, the time it asked it to stop; when it
   * ended on its own, until it ends again. */
  if ((g_strcmp0 (before->end, "duration") == 0 ||
          g_strcmp0 (before->end, "interrupt") == 0) && before->stop_s > 0)
    opts->duration_s = round (before->stop_s * 1000.0) / 1000.0;
  else if (g_strcmp0 (before->end, "eos") == 0)
    opts->duration_s = 0;
  else
    opts->duration_s = before->duration_s;
  if (before->window_s > 0)
    opts->window_ms = (guint) (before->window_s * 1000.0 + 0.5);
  for (i = 0; i < before->elem_summaries->len; i++)
    if (((GpElementSummary *) g_ptr_array_index (before->elem_summaries,
                i))->cpu_ms >= 0)
      opts->cpu = TRUE;
}

GpSession *
gp_fix_apply (GpSession * before, const gchar * launch, gboolean progress,
    gboolean * pipeline_failed, GError ** error)
{
  GpCaptureOptions opts;
  GpCaptureEnd end = GP_CAPTURE_END_EOS;
  GpSession *after;

  gp_capture_options_init (&opts);
  gp_fix_capture_options (before, &opts);
  opts.launch = launch;
  opts.progress = progress;
  after = gp_capture_run (&opts, &end, error);
  if (pipeline_failed != NULL)
    *pipeline_failed = after != NULL && end == GP_CAPTURE_END_ERROR;
  return after;
}

/* What the link into sink @name of @s carries, in words
 * (gp_caps_stream_words), or NULL when nothing reached it. */
static gchar *
gp_fix_sink_stream (GpSession * s, const gchar * name)
{
  GpLink *l = gp_session_link_into (s, name);

  return l && l->caps ? gp_caps_stream_words (l->caps) : NULL;
}

gchar *
gp_fix_delivery_changes (GpSession * before, GpSession * after)
{
  GString *out = g_string_new (NULL);
  guint i;

  for (i = 0; before->sinks && i < before->sinks->len; i++) {
    GpSinkSummary *sk = g_ptr_array_index (before->sinks, i);
    gchar *was = gp_fix_sink_stream (before, sk->name);
    gchar *now = gp_fix_sink_stream (after, sk->name);

    if (was != NULL && now == NULL)
      g_string_append_printf (out, "  %s: received nothing after (before: "
          "%s)\n", sk->name, was);
    else if (was != NULL && strcmp (was, now) != 0)
      g_string_append_printf (out, "  %s: %s -> %s\n", sk->name, was, now);
    g_free (was);
    g_free (now);
  }
  if (out->len == 0) {
    g_string_free (out, TRUE);
    return NULL;
  }
  return g_string_free (out, FALSE);
}
