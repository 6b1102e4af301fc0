/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rule-cpu.c: CPU, a streaming thread that uses (nearly) a whole core:
 * it cannot go faster on this machine however the rest of the pipeline is
 * tuned, and it names the elements it runs. Thresholds and their reasons:
 * docs/rules.md.
 */
#include "gp-rules-private.h"

/* Mean CPU of the thread over its life, % of one core. A thread cannot use
 * more than one core; 90 % leaves room for the scheduler and the moments
 * it waits for a lock or the next buffer. */
#define GP_CPU_SATURATED_PCT 90.0
/* A thread that never idles (busy >= 90 %) counts as saturated when at
 * least this much of it is CPU: the core is full, shared with other
 * processes. Below it the thread mostly waits (sleeps, locks, I/O). */
#define GP_CPU_MIN_CPU_WHEN_BUSY_PCT 60.0

/* Software elements that can spread their work over several cores with a
 * property, and the value that asks for one thread per core. */
static const struct
{
  const gchar *factory;
  const gchar *prop;
  gint64 all_cores;
} gp_cpu_threads_prop[] = {
  {"videoconvert", "n-threads", 0},
  {"videoscale", "n-threads", 0},
  {"videoconvertscale", "n-threads", 0},
  {"avdec_h264", "max-threads", 0},
  {"avdec_h265", "max-threads", 0},
  {"x264enc", "threads", 0},
};

static GPtrArray *
gp_cpu_threads_patch (GpSession * s, const gchar * name, gchar ** prop_out)
{
  GpElement *e = gp_session_find_element (s, name);
  GPtrArray *patch;
  gint64 v;
  guint i;

  for (i = 0; e && i < G_N_ELEMENTS (gp_cpu_threads_prop); i++) {
    if (g_strcmp0 (e->factory, gp_cpu_threads_prop[i].factory) != 0)
      continue;
    /* Only when the recorded value really limits it to one thread. */
    if (!gp_element_get_prop_int (e, gp_cpu_threads_prop[i].prop, &v) ||
        v != 1)
      return NULL;
    patch = gp_launch_patch_new ();
    g_ptr_array_add (patch, gp_launch_op_set_int (name,
        gp_cpu_threads_prop[i].prop,
        gp_cpu_threads_prop[i].all_cores));
    *prop_out = g_strdup (gp_cpu_threads_prop[i].prop);
    return patch;
  }
  return NULL;
}

void
gp_rule_cpu (GpSession * s, const GpRule * rule)
{
  guint i, j;

  for (i = 0; s->threads && i < s->threads->len; i++) {
    GpThreadSummary *t = g_ptr_array_index (s->threads, i);
    GpElementSummary *hot;
    GpAppWork app;
    GString *names, *on;
    GpFinding *f;
    gchar *title, *prop = NULL;
    gdouble hot_busy = -1, busy;
    const gchar *basis;
    guint n_work = 0;

    /* Only GStreamer streaming threads: an element's own workers (x264's)
     * are its business, and their element list is empty. */
    if (t->worker || t->elements == NULL || t->elements->len == 0)
      continue;
    busy = gp_session_thread_busy_pct (s, t);
    /* Saturated: a core's worth of CPU; or never idle (busy in its
     * elements >= 90 % of the run) while computing most of that time, the
     * rest of the core taken by other processes on a loaded machine. A
     * thread that sleeps in its elements has a high busy and a low CPU. */
    if (t->cpu_pct_mean >= GP_CPU_SATURATED_PCT)
      basis = "cpu";
    else if (busy >= GP_CPU_SATURATED_PCT &&
        t->cpu_pct_mean >= GP_CPU_MIN_CPU_WHEN_BUSY_PCT)
      basis = "busy";
    else
      continue;

    names = g_string_new (NULL);
    for (j = 0; j < t->elements->len; j++) {
      const gchar *name = g_ptr_array_index (t->elements, j);
      GpElementSummary *es = gp_session_find_elem_summary (s, name);

      g_string_append_printf (names, "%s%s", j ? ", " : "", name);
      if (es && gp_session_work_busy_pct (s, es) > 1.0)
        n_work++;
    }
    hot = gp_session_hottest_on_thread (s, t);
    /* the application's probes or handlers outweigh every element's
     * own work */
    gp_session_thread_app (s, t, &app);
    if (app.id && hot && app.busy_pct <= gp_session_work_busy_pct (s, hot))
      app.id = NULL;
    if (app.id)
      hot = NULL;
    on = g_string_new (NULL);
    if (app.id) {
      gchar *what = gp_app_work_words (&app);

      g_string_printf (on, "the application's work: %s, %.0f%% of the run",
          what, app.busy_pct);
      g_free (what);
    } else
      g_string_assign (on, hot ? hot->name : names->str);

    title = g_strdup_printf ("thread %s is saturated: %.0f%% of a core, "
        "busy %.0f%% (%s)", t->name, t->cpu_pct_mean, MAX (busy, 0), on->str);
    g_string_free (on, TRUE);
    f = gp_rule_add_finding (s, rule, GP_SEVERITY_INFO, title);
    g_free (title);
    for (j = 0; j < t->elements->len; j++)
      gp_finding_add_target (f, g_ptr_array_index (t->elements, j));
    /* No gain can be estimated from CPU alone: rank by how full the core
     * is. */
    f->rank_value = MIN (t->cpu_pct_mean, 100.0);

    gp_finding_set_string (f, "thread", t->name);
    gp_finding_set_double (f, "cpu_mean_pct", t->cpu_pct_mean);
    if (t->cpu_pct_max >= 0)
      gp_finding_set_double (f, "cpu_max_pct", t->cpu_pct_max);
    if (busy >= 0)
      gp_finding_set_double (f, "thread_busy_pct", busy);
    gp_finding_set_string (f, "basis", basis);
    gp_finding_set_string (f, "elements", names->str);
    if (hot) {
      hot_busy = gp_session_work_busy_pct (s, hot);
      gp_finding_set_string (f, "hottest", hot->name);
      if (hot_busy >= 0)
        gp_finding_set_double (f, "hottest_busy_pct", hot_busy);
      if (hot->self_ms.p50 >= 0)
        gp_finding_set_double (f, "hottest_self_p50_ms", hot->self_ms.p50);
    }
    if (app.id) {
      gp_finding_set_string (f, app.handlers ? "handlers_element" :
          "probe_link", app.id);
      gp_finding_set_double (f, app.handlers ? "handlers_busy_pct" :
          "probe_busy_pct", app.busy_pct);
    }
    if (s->process.measured && s->process.cpu_pct_mean >= 0)
      gp_finding_set_double (f, "process_cpu_pct", s->process.cpu_pct_mean);
    if (s->process.measured && s->process.n_cpus > 0)
      gp_finding_set_int (f, "n_cpus", s->process.n_cpus);

    g_free (f->why);
    f->why = g_strdup_printf ("A streaming thread runs on one core at a "
        "time; at %.0f%% it has no time left, so every element on it (%s) "
        "waits for the others and the thread's rate is the pipeline's "
        "ceiling on this machine.", t->cpu_pct_mean, names->str);

    if (hot && !gp_rules_attach_patch (s, f, gp_cpu_threads_patch (s,
                hot->name, &prop)))
      g_clear_pointer (&prop, g_free);
    g_free (f->fix);
    if (app.id) {
      gchar *what = gp_app_work_words (&app);

      what[0] = g_ascii_toupper (what[0]);
      f->fix = g_strdup_printf ("%s are the application's work on this "
          "thread: take it off the streaming thread (copy what it needs and "
          "hand it to a worker of its own).", what);
      g_free (what);
    } else if (prop)
      f->fix = g_strdup_printf ("%s runs with %s=1: set %s=0 (one thread "
          "per core) to spread its work.", hot->name, prop, prop);
    else if (hot && n_work >= 2)
      f->fix = g_strdup_printf ("Make %s cheaper (its settings, a smaller "
          "format upstream, a hardware element), or put a queue before it so "
          "its work and the rest of %s's run on two cores (see QUEUE).",
          hot->name, t->name);
    else
      f->fix = g_strdup_printf ("Make %s cheaper: its settings, a smaller "
          "or simpler format upstream, or a hardware element for the same "
          "job; a queue gains nothing here, the thread does little else.",
          hot ? hot->name : names->str);
    g_free (prop);
    g_string_free (names, TRUE);
  }
}

/* CROWD: the machine's CPUs full, a good part of them taken by other
 * processes. Busy at this share of all the CPUs (the machine's mean over
 * the span) nothing is left for a burst: a thread that wakes waits for a
 * core; */
#define GP_CROWD_FULL_PCT 90.0
/* and other processes held at least this share of all of them: a quarter
 * of the machine (half a core of two) is more than a desktop's or a
 * server's background ever takes, and as much as a thread of the pipeline
 * could have had. */
#define GP_CROWD_OTHERS_PCT 25.0

/* The symptom a lack of CPU makes, as the rules before this one found it:
 * a stream below its rate or real time. NULL when none. */
static GpFinding *
gp_crowd_short (GpSession * s)
{
  static const gchar *const felt[] = { "BEHIND", "SLOW", "BUDGET", NULL };
  guint i;

  for (i = 0; felt[i]; i++) {
    GpFinding *f = gp_session_find_finding (s, felt[i], NULL);

    if (f != NULL)
      return f;
  }
  return NULL;
}

/* The streaming thread that waited for a core the longest share of its
 * life (the kernel's run-queue wait), or NULL when none is known. */
static GpThreadSummary *
gp_crowd_most_delayed (GpSession * s)
{
  GpThreadSummary *worst = NULL;
  guint i;

  for (i = 0; s->threads && i < s->threads->len; i++) {
    GpThreadSummary *t = g_ptr_array_index (s->threads, i);

    if (!t->worker && t->run_delay_pct >= 0 &&
        (worst == NULL || t->run_delay_pct > worst->run_delay_pct))
      worst = t;
  }
  return worst;
}

void
gp_rule_crowd (GpSession * s, const GpRule * rule)
{
  GpMachineCpu mc;
  GpFinding *f, *shortf;
  GpThreadSummary *delayed;
  const gchar *stream;
  gchar *title, *waited;

  if (!gp_session_machine_cpu (s, GP_RULES_MACHINE_MIN_SAMPLES, &mc) ||
      mc.busy_pct < GP_CROWD_FULL_PCT || mc.others_pct < GP_CROWD_OTHERS_PCT)
    return;
  shortf = gp_crowd_short (s);
  stream = shortf && shortf->targets && shortf->targets->len > 0 ?
      g_ptr_array_index (shortf->targets, shortf->targets->len - 1) : NULL;
  title = g_strdup_printf ("other processes took %.0f%% of the %u CPUs "
      "(this pipeline %.0f%%, the machine %.0f%% busy)%s%s%s%s%s",
      mc.others_pct, mc.n_cpus, mc.own_pct, mc.busy_pct,
      shortf ? " while " : "", shortf ? (stream ? stream : "a stream") : "",
      shortf ? " fell short (" : "", shortf ? shortf->rule : "",
      shortf ? ")" : "");
  f = gp_rule_add_finding (s, rule, shortf ? GP_SEVERITY_MEDIUM :
      GP_SEVERITY_INFO, title);
  g_free (title);
  f->rank_value = mc.others_pct;
  gp_finding_set_double (f, "machine_busy_pct", mc.busy_pct);
  gp_finding_set_double (f, "process_pct", mc.own_pct);
  gp_finding_set_double (f, "others_pct", mc.others_pct);
  gp_finding_set_double (f, "idle_pct", mc.idle_pct);
  gp_finding_set_int (f, "n_cpus", mc.n_cpus);
  gp_finding_set_double (f, "process_cpu_pct", s->process.cpu_pct_mean);
  if (shortf)
    gp_finding_set_string (f, "falls_short", shortf->rule);
  if (stream)
    gp_finding_add_target (f, stream);
  delayed = gp_crowd_most_delayed (s);
  if (delayed) {
    gp_finding_set_string (f, "most_delayed_thread", delayed->name);
    gp_finding_set_double (f, "run_delay_pct", delayed->run_delay_pct);
    waited = g_strdup_printf (" (%s was ready to run but waited for one "
        "%.0f%% of its time, by the kernel's run queue)", delayed->name,
        delayed->run_delay_pct);
  } else {
    waited = g_strdup ("");
  }

  g_free (f->why);
  f->why = g_strdup_printf ("Every thread of the pipeline waited for a "
      "core while other processes ran%s: its elements' times include that "
      "wait, and %s. What the pipeline itself needs cannot be read from a "
      "run that did not get it.", waited, shortf ? "the stream fell short "
      "of its rate because of it, in part or in all" : "it kept up this "
      "time, with no room left for a burst");
  g_free (waited);
  g_free (f->fix);
  f->fix = g_strdup ("Give the pipeline the CPUs it needs: stop or renice "
      "the other processes, keep them off its cores (taskset, a cpuset), or "
      "run it on a machine with cores free; then measure again before "
      "tuning an element, whose numbers here carry the wait.");
}
