/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-sampler: the sampler's thread, its ticks and its cost
 * (gp-sampler.h). */
#include "gp-sampler-private.h"

#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define GP_SAMPLER_DEFAULT_WINDOW_MS 250

void
gp_sampler_options_init (GpSamplerOptions * opts)
{
  memset (opts, 0, sizeof *opts);
  opts->window_ms = GP_SAMPLER_DEFAULT_WINDOW_MS;
  opts->tools = TRUE;
}

gdouble
gp_sampler_now (const GpSampler * s)
{
  return (g_get_monotonic_time () - s->opts.start_us) / 1e6;
}

gssize
gp_sampler_read (const gchar * path, gchar * buf, gsize size)
{
  gint fd = open (path, O_RDONLY | O_CLOEXEC);
  gsize got = 0;
  gint saved;

  if (fd < 0)
    return -1;
  while (got + 1 < size) {
    gssize n = read (fd, buf + got, size - 1 - got);

    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      saved = errno;
      close (fd);
      errno = saved;
      return -1;
    }
    if (n == 0)
      break;
    got += n;
  }
  close (fd);
  buf[got] = '\0';
  return got;
}

void
gp_sampler_append (GpSampler * s, GpMachineSeries * series, gdouble t,
    gdouble v)
{
  gp_machine_series_append (s->m, series, t, v);
  if (series->t->len >= GP_SAMPLER_SERIES_MAX)
    gp_machine_series_thin (series);
}

static gdouble
gp_sampler_thread_cpu_s (void)
{
  struct timespec ts;

  if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
    return NAN;
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The descriptors to wait on: the stop pipe, then the tools'. */
static guint
gp_sampler_fds (GpSampler * s, struct pollfd *fds, guint * owner)
{
  guint n = 1, i, k, got;

  fds[0].fd = s->wake[0];
  fds[0].events = POLLIN;
  fds[0].revents = 0;
  for (i = 0; i < GP_SAMPLER_N_TOOLS; i++) {
    if (s->tools[i] == NULL)
      continue;
    got = gp_sampler_tool_fds (s->tools[i], fds + n);
    for (k = 0; k < got; k++) {
      owner[n + k] = i;
      fds[n + k].revents = 0;
    }
    n += got;
  }
  return n;
}

/* The ticks on a grid from the session's start (start + k window), a late
 * one not repeated; the tools' lines whenever they come. */
static gpointer
gp_sampler_thread (gpointer data)
{
  GpSampler *s = data;
  gint64 window_us = (gint64) s->opts.window_ms * 1000, next;
  struct pollfd fds[1 + 2 * GP_SAMPLER_N_TOOLS];
  guint owner[1 + 2 * GP_SAMPLER_N_TOOLS];
  gboolean stop = FALSE;
  guint i;

  s->began_us = g_get_monotonic_time ();
  g_mutex_lock (&s->lock);
  s->sys = gp_sampler_sys_new (s);
  if (s->opts.tools)
    for (i = 0; i < GP_SAMPLER_N_TOOLS; i++)
      s->tools[i] = gp_sampler_tool_new (s, i);
  g_mutex_unlock (&s->lock);
  next = s->opts.start_us + ((g_get_monotonic_time () - s->opts.start_us) /
      window_us + 1) * window_us;
  while (!stop) {
    gint64 now = g_get_monotonic_time ();
    guint n = gp_sampler_fds (s, fds, owner), k;
    gint timeout = now >= next ? 0 : (gint) ((next - now + 999) / 1000);
    gboolean ready[GP_SAMPLER_N_TOOLS] = { FALSE };

    if (poll (fds, n, timeout) < 0 && errno != EINTR)
      break;
    if (fds[0].revents)
      stop = TRUE;
    for (k = 1; k < n; k++)
      if (fds[k].revents)
        ready[owner[k]] = TRUE;
    g_mutex_lock (&s->lock);
    for (i = 0; i < GP_SAMPLER_N_TOOLS; i++)
      if (ready[i])
        gp_sampler_tool_read (s, s->tools[i]);
    now = g_get_monotonic_time ();
    if (!stop && now >= next) {
      gp_sampler_sys_tick (s, s->sys);
      while (next <= now)
        next += window_us;
    }
    g_mutex_unlock (&s->lock);
  }
  g_mutex_lock (&s->lock);
  for (i = 0; i < GP_SAMPLER_N_TOOLS; i++)
    if (s->tools[i] != NULL)
      gp_sampler_tool_stop (s, s->tools[i]);
  gp_sampler_sys_free (s, s->sys);
  s->sys = NULL;
  g_mutex_unlock (&s->lock);
  s->thread_cpu_s = gp_sampler_thread_cpu_s ();
  s->ended_us = g_get_monotonic_time ();
  return NULL;
}

static gchar *
gp_sampler_root (const gchar * var)
{
  const gchar *root = g_getenv (var);
  gchar *r;

  if (root == NULL || *root == '\0')
    return g_strdup ("");
  r = g_strdup (root);
  /* "/" and "/tree/" are "" and "/tree": paths add their own '/' */
  while (*r && r[strlen (r) - 1] == '/')
    r[strlen (r) - 1] = '\0';
  return r;
}

GpSampler *
gp_sampler_start (GpMachine * m, const GpSamplerOptions * opts,
    GError ** error)
{
  GpSampler *s = g_new0 (GpSampler, 1);

  s->m = m;
  s->opts = *opts;
  if (s->opts.window_ms == 0)
    s->opts.window_ms = GP_SAMPLER_DEFAULT_WINDOW_MS;
  if (s->opts.start_us == 0)
    s->opts.start_us = g_get_monotonic_time ();
  g_mutex_init (&s->lock);
  s->proc_root = gp_sampler_root ("GP_PROC_ROOT");
  s->sys_root = gp_sampler_root ("GP_SYSFS_ROOT");
  if (!g_unix_open_pipe (s->wake, FD_CLOEXEC, error)) {
    g_free (s->proc_root);
    g_free (s->sys_root);
    g_free (s);
    return NULL;
  }
  s->thread = g_thread_try_new ("gstprof-sampler", gp_sampler_thread, s,
      error);
  if (s->thread == NULL) {
    close (s->wake[0]);
    close (s->wake[1]);
    g_free (s->proc_root);
    g_free (s->sys_root);
    g_free (s);
    return NULL;
  }
  return s;
}

void
gp_sampler_stop (GpSampler * s)
{
  gdouble wall_s;
  guint i;

  if (s == NULL)
    return;
  while (write (s->wake[1], "x", 1) < 0 && errno == EINTR);
  g_thread_join (s->thread);
  wall_s = (s->ended_us - s->began_us) / 1e6;
  if (wall_s > 0 && !isnan (s->thread_cpu_s))
    s->m->cost_pct = (s->thread_cpu_s + s->children_cpu_s) / wall_s * 100;
  for (i = 0; i < GP_SAMPLER_N_TOOLS; i++)
    gp_sampler_tool_free (s->tools[i]);
  close (s->wake[0]);
  close (s->wake[1]);
  g_free (s->proc_root);
  g_free (s->sys_root);
  g_mutex_clear (&s->lock);
  g_free (s);
}

void
gp_sampler_lock (GpSampler * s)
{
  g_mutex_lock (&s->lock);
}

void
gp_sampler_unlock (GpSampler * s)
{
  g_mutex_unlock (&s->lock);
}
