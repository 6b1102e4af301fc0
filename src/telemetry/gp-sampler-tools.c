/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-sampler-tools: the vendors' tools as children of the sampler's
 * thread, one per tool: tegrastats and an nvidia-smi query loop, each
 * asked for a sample a window, read line by line as the lines arrive,
 * stopped and reaped at the end (gp-sampler.h). */
#include "gp-sampler-private.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gp-telemetry.h"

/* The end of a child's stderr kept for its source's detail. */
#define GP_TOOL_STDERR_KEEP 2048
/* What of it, and of a failure's stdout, the detail quotes. */
#define GP_TOOL_DETAIL_QUOTE 400
/* A stdout line longer than this is no line of these tools: dropped. */
#define GP_TOOL_LINE_MAX (64 * 1024)
/* After SIGTERM, how long a child has to end before SIGKILL: both tools
 * end at once on it. */
#define GP_TOOL_STOP_WAIT_MS 500
/* A child that closed its stdout has this long to be reaped before it is
 * killed. */
#define GP_TOOL_EXIT_WAIT_MS 1000
/* How often a field-refusing nvidia-smi is asked again, at most: once per
 * field asked for, and the old spellings tried. */
#define GP_TOOL_RESPAWN_MAX 32

enum
{
  GP_TOOL_TEGRASTATS,
  GP_TOOL_NVSMI,
};

static const gchar *const gp_tool_names[GP_SAMPLER_N_TOOLS] = {
  "tegrastats", "nvidia-smi",
};

/* What the query asks nvidia-smi for (docs/session-schema.md, machine):
 * what gp-telemetry maps into the machine, the throttle reasons by their
 * name since driver 535, the identity the peaks are looked up by. */
static const gchar *const gp_tool_nvsmi_fields[] = {
  "index", "utilization.gpu", "utilization.memory", "utilization.encoder",
  "utilization.decoder", "clocks.sm", "clocks.mem", "clocks.max.sm",
  "clocks.max.memory", "temperature.gpu", "power.draw", "power.limit",
  "memory.used", "memory.total",
  "clocks_event_reasons.hw_thermal_slowdown",
  "clocks_event_reasons.sw_thermal_slowdown",
  "clocks_event_reasons.sw_power_cap",
  "clocks_event_reasons.hw_power_brake_slowdown",
  "name", "compute_cap", "pcie.link.gen.max", "pcie.link.width.max",
};

#define GP_TOOL_NEW_REASONS "clocks_event_reasons."
#define GP_TOOL_OLD_REASONS "clocks_throttle_reasons."

struct _GpSamplerTool
{
  guint kind;
  const gchar *name;
  gchar *path;
  GPtrArray *fields;            /* nvidia-smi: gchar*, what it is asked */
  GString *dropped;             /* the fields it refused */
  guint spawns;
  GPid pid;                     /* 0: none running */
  gint out_fd, err_fd;          /* -1: closed */
  GString *line;                /* stdout since its last newline */
  gboolean skipping;            /* inside a line past GP_TOOL_LINE_MAX */
  GString *said;                /* stdout that was no sample */
  GString *err;                 /* stderr's end */
  gboolean ended;               /* ended on its own, not asked again */
  gint status;
  GpMachine *scratch;           /* one line's samples, before the merge */
  GHashTable *routes;           /* series name -> GpMachineSeries*, or
                                 * the table itself: left out */
  GString *left_out;
  guint64 bad;
  gchar *first_bad;
  gint last_gpu;
  gdouble first_t, last_t;
};

/* ------------------------------------------------------------------ */
/* text for the detail                                                  */
/* ------------------------------------------------------------------ */

/* @text as one line of printable ASCII, at most @max bytes of it (its
 * end when @tail). */
static gchar *
gp_tool_quote (const gchar * text, gsize len, gsize max, gboolean tail)
{
  GString *out = g_string_new (NULL);
  gsize i, from = 0, to;
  gboolean cut_head = FALSE, cut_tail = FALSE;

  while (len > 0 && g_ascii_isspace (text[len - 1]))
    len--;
  to = len;
  if (len > max) {
    cut_head = tail;
    cut_tail = !tail;
    if (tail)
      from = len - max;
    else
      to = max;
  }
  if (cut_head)
    g_string_append (out, "...");
  for (i = from; i < to; i++) {
    guchar c = text[i];

    if (c == '\n') {
      if (out->len > 0 && !g_str_has_suffix (out->str, " / "))
        g_string_append (out, " / ");
    } else
      g_string_append_c (out, g_ascii_isprint (c) ? c : '?');
  }
  if (cut_tail)
    g_string_append (out, "...");
  return g_string_free (out, FALSE);
}

static void
gp_tool_keep_tail (GString * buf, const gchar * data, gsize n, gsize keep)
{
  g_string_append_len (buf, data, n);
  if (buf->len > keep)
    g_string_erase (buf, 0, buf->len - keep);
}

/* ------------------------------------------------------------------ */
/* the child                                                            */
/* ------------------------------------------------------------------ */

/* In the child: a process group of its own, so that the terminal's Ctrl-C
 * reaches gstprof and not it (gstprof stops it after the capture), and
 * killed with the sampler's thread should gstprof die first. */
static void
gp_tool_child_setup (gpointer data)
{
  setpgid (0, 0);
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static gchar **
gp_tool_argv (GpSampler * s, GpSamplerTool * t)
{
  GPtrArray *argv = g_ptr_array_new ();
  guint ms = s->opts.window_ms;

  g_ptr_array_add (argv, g_strdup (t->path));
  if (t->kind == GP_TOOL_TEGRASTATS) {
    g_ptr_array_add (argv, g_strdup ("--interval"));
    g_ptr_array_add (argv, g_strdup_printf ("%u", ms));
  } else {
    GString *q = g_string_new ("--query-gpu=");
    guint i;

    for (i = 0; i < t->fields->len; i++)
      g_string_append_printf (q, "%s%s", i ? "," : "",
          (gchar *) g_ptr_array_index (t->fields, i));
    g_ptr_array_add (argv, g_string_free (q, FALSE));
    g_ptr_array_add (argv, g_strdup ("--format=csv,noheader,nounits"));
    g_ptr_array_add (argv, g_strdup ("-lms"));
    g_ptr_array_add (argv, g_strdup_printf ("%u", ms));
  }
  g_ptr_array_add (argv, NULL);
  return (gchar **) g_ptr_array_free (argv, FALSE);
}

static gboolean
gp_tool_spawn (GpSampler * s, GpSamplerTool * t)
{
  gchar **argv = gp_tool_argv (s, t);
  GError *err = NULL;
  gboolean ok;

  t->spawns++;
  g_string_truncate (t->said, 0);
  g_string_truncate (t->err, 0);
  g_string_truncate (t->line, 0);
  t->last_gpu = G_MAXINT;
  ok = g_spawn_async_with_pipes (NULL, argv, NULL,
      G_SPAWN_DO_NOT_REAP_CHILD, gp_tool_child_setup, NULL, &t->pid, NULL,
      &t->out_fd, &t->err_fd, &err);
  g_strfreev (argv);
  if (!ok) {
    gchar *d = g_strdup_printf ("%s: %s", t->path, err->message);

    gp_machine_source_set (s->m, t->name, GP_MACHINE_FAILED, d);
    g_free (d);
    g_clear_error (&err);
    t->pid = 0;
    t->ended = TRUE;
    return FALSE;
  }
  fcntl (t->out_fd, F_SETFL, fcntl (t->out_fd, F_GETFL) | O_NONBLOCK);
  fcntl (t->err_fd, F_SETFL, fcntl (t->err_fd, F_GETFL) | O_NONBLOCK);
  fcntl (t->out_fd, F_SETFD, FD_CLOEXEC);
  fcntl (t->err_fd, F_SETFD, FD_CLOEXEC);
  return TRUE;
}

static void
gp_tool_add_rusage (GpSampler * s, const struct rusage *ru)
{
  s->children_cpu_s += ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6 +
      ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6;
}

/* Reaps the child within @wait_ms, else kills it and reaps it; its CPU
 * time goes to the cost. */
static void
gp_tool_reap (GpSampler * s, GpSamplerTool * t, guint wait_ms)
{
  struct rusage ru;
  gint64 until = g_get_monotonic_time () + wait_ms * 1000;
  pid_t r;

  if (t->pid == 0)
    return;
  while ((r = wait4 (t->pid, &t->status, WNOHANG, &ru)) == 0
      && g_get_monotonic_time () < until)
    g_usleep (10 * 1000);
  if (r == 0) {
    kill (t->pid, SIGKILL);
    while ((r = wait4 (t->pid, &t->status, 0, &ru)) < 0 && errno == EINTR);
  }
  if (r == t->pid)
    gp_tool_add_rusage (s, &ru);
  t->pid = 0;
}

static void
gp_tool_close (gint * fd)
{
  if (*fd >= 0)
    close (*fd);
  *fd = -1;
}

/* ------------------------------------------------------------------ */
/* its lines                                                            */
/* ------------------------------------------------------------------ */

/* A series of @quantity the kernel's readers give (a source that is no
 * tool): tegrastats reads the same kernel, its copy is left out. */
static gboolean
gp_tool_quantity_taken (GpMachine * m, const gchar * quantity)
{
  GPtrArray *all = gp_machine_find_all (m, quantity);
  gboolean taken = FALSE;
  guint i, k;

  for (i = 0; i < all->len && !taken; i++) {
    const gchar *src = ((GpMachineSeries *) all->pdata[i])->source;

    taken = TRUE;
    for (k = 0; k < GP_SAMPLER_N_TOOLS; k++)
      taken = taken && strcmp (src, gp_tool_names[k]) != 0;
  }
  g_ptr_array_unref (all);
  return taken;
}

static void
gp_tool_left_out (GpSamplerTool * t, const gchar * what)
{
  gchar *needle = g_strdup_printf (" %s,", what);
  gchar *hay = g_strdup_printf (" %s,", t->left_out->str);

  if (strstr (hay, needle) == NULL)
    g_string_append_printf (t->left_out, "%s%s", t->left_out->len ? ", " :
        "", what);
  g_free (needle);
  g_free (hay);
}

/* Where a series of the tool's goes in the machine: its own series, or
 * none when another source has the name (nvidia-smi) or the quantity
 * (tegrastats, whose CPU, memory, zones and rails the kernel gives too). */
static GpMachineSeries *
gp_tool_route (GpSampler * s, GpSamplerTool * t, GpMachineSeries * ms)
{
  gpointer hit = g_hash_table_lookup (t->routes, ms->name);
  gchar *q;
  GpMachineSeries *dst;

  if (hit != NULL)
    return hit == (gpointer) t->routes ? NULL : hit;
  q = gp_machine_series_quantity (ms);
  dst = gp_machine_find (s->m, q, gp_machine_series_instance (ms));
  if (t->kind == GP_TOOL_TEGRASTATS && (dst == NULL
          || strcmp (dst->source, t->name) != 0)
      && gp_tool_quantity_taken (s->m, q)) {
    gp_tool_left_out (t, q);
    dst = NULL;
  } else if (dst != NULL && strcmp (dst->source, t->name) != 0) {
    gp_tool_left_out (t, ms->name);
    dst = NULL;
  } else if (dst == NULL)
    dst = gp_machine_series (s->m, q, gp_machine_series_instance (ms),
        ms->unit, t->name);
  g_hash_table_insert (t->routes, g_strdup (ms->name), dst ? (gpointer) dst
      : (gpointer) t->routes);
  g_free (q);
  return dst;
}

/* The scratch machine's samples into the sampler's, then emptied. */
static void
gp_tool_merge (GpSampler * s, GpSamplerTool * t)
{
  guint i, j;

  for (i = 0; i < t->scratch->series->len; i++) {
    GpMachineSeries *ms = g_ptr_array_index (t->scratch->series, i);
    GpMachineSeries *dst;

    if (ms->t->len == 0)
      continue;
    dst = gp_tool_route (s, t, ms);
    if (dst != NULL && !isnan (ms->limit))
      dst->limit = ms->limit;
    for (j = 0; dst != NULL && j < ms->t->len; j++)
      gp_sampler_append (s, dst, g_array_index (ms->t, gdouble, j),
          g_array_index (ms->v, gdouble, j));
    g_array_set_size (ms->t, 0);
    g_array_set_size (ms->v, 0);
  }
  for (i = 0; i + 1 < t->scratch->facts->len; i += 2)
    gp_machine_set_fact (s->m, t->scratch->facts->pdata[i],
        t->scratch->facts->pdata[i + 1]);
}

static void
gp_tool_bad_line (GpSamplerTool * t, const gchar * line, gsize len)
{
  t->bad++;
  if (t->first_bad == NULL)
    t->first_bad = gp_tool_quote (line, len, 80, FALSE);
}

static void
gp_tool_counted (GpSampler * s, GpSamplerTool * t, gdouble now)
{
  GpMachineSource *src = gp_machine_source (s->m, t->name);

  if (src->samples == 0)
    t->first_t = now;
  t->last_t = now;
  src->samples++;
}

static void
gp_tool_tegra_line (GpSampler * s, GpSamplerTool * t, const gchar * line,
    gsize len)
{
  gchar *text = g_strndup (line, len);
  GpTegraSample *sample = gp_tegrastats_parse_line (text, NULL);
  gdouble now = gp_sampler_now (s);

  if (sample == NULL)
    gp_tool_bad_line (t, line, len);
  else {
    gp_telemetry_add_tegra (t->scratch, t->name, now, sample);
    gp_tool_merge (s, t);
    gp_tool_counted (s, t, now);
    gp_tegra_sample_free (sample);
  }
  g_free (text);
}

static void
gp_tool_nvsmi_line (GpSampler * s, GpSamplerTool * t, const gchar * line,
    gsize len)
{
  gchar **fields;
  GpNvsmiTable *table;
  gdouble now = gp_sampler_now (s);
  guint r;

  /* the driver's refusal, and any other failure, come on stdout */
  if (g_strstr_len (line, len, "is not a valid field to query") != NULL) {
    g_string_append_len (t->said, line, len);
    g_string_append_c (t->said, '\n');
    return;
  }
  g_ptr_array_add (t->fields, NULL);
  fields = (gchar **) t->fields->pdata;
  table = gp_nvsmi_parse_query (line, len, (const gchar * const *) fields,
      t->name, NULL);
  g_ptr_array_remove_index (t->fields, t->fields->len - 1);
  if (table == NULL || table->rows->len == 0) {
    if (gp_machine_source (s->m, t->name)->samples == 0)
      gp_tool_keep_tail (t->said, line, len, GP_TOOL_STDERR_KEEP);
    gp_tool_bad_line (t, line, len);
  }
  for (r = 0; table != NULL && r < table->rows->len; r++) {
    GpNvsmiRow *row = g_ptr_array_index (table->rows, r);

    /* a sample is one row per GPU: a new one starts when the index does
     * not grow */
    if (row->gpu <= t->last_gpu)
      gp_tool_counted (s, t, now);
    t->last_gpu = row->gpu;
    gp_telemetry_add_nvsmi (t->scratch, t->name, now, table, r);
  }
  if (table != NULL) {
    gp_tool_merge (s, t);
    gp_nvsmi_table_free (table);
  }
}

static void
gp_tool_line (GpSampler * s, GpSamplerTool * t, const gchar * line,
    gsize len)
{
  while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == ' '))
    len--;
  if (len == 0)
    return;
  if (t->kind == GP_TOOL_TEGRASTATS)
    gp_tool_tegra_line (s, t, line, len);
  else
    gp_tool_nvsmi_line (s, t, line, len);
}

/* Whole lines of @data into the samples, the rest kept for the next
 * read. */
static void
gp_tool_feed (GpSampler * s, GpSamplerTool * t, const gchar * data, gsize n)
{
  const gchar *p = data, *end = data + n;

  while (p < end) {
    const gchar *nl = memchr (p, '\n', end - p);
    gsize part = (nl ? nl : end) - p;

    if (!t->skipping && t->line->len + part > GP_TOOL_LINE_MAX) {
      gp_tool_bad_line (t, t->line->str, t->line->len);
      g_string_truncate (t->line, 0);
      t->skipping = TRUE;
    }
    if (!t->skipping)
      g_string_append_len (t->line, p, part);
    if (nl == NULL)
      break;
    if (!t->skipping)
      gp_tool_line (s, t, t->line->str, t->line->len);
    g_string_truncate (t->line, 0);
    t->skipping = FALSE;
    p = nl + 1;
  }
}

/* Reads @fd until it would block: FALSE at its end. */
static gboolean
gp_tool_drain (GpSampler * s, GpSamplerTool * t, gint fd, gboolean out)
{
  gchar chunk[4096];

  while (TRUE) {
    gssize n = read (fd, chunk, sizeof chunk);

    if (n > 0) {
      if (out)
        gp_tool_feed (s, t, chunk, n);
      else
        gp_tool_keep_tail (t->err, chunk, n, GP_TOOL_STDERR_KEEP);
      continue;
    }
    if (n < 0 && errno == EINTR)
      continue;
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
  }
}

static gchar *
gp_tool_exit_text (gint status)
{
  if (WIFEXITED (status))
    return g_strdup_printf ("exited with status %d", WEXITSTATUS (status));
  if (WIFSIGNALED (status))
    return g_strdup_printf ("killed by signal %d", WTERMSIG (status));
  return g_strdup ("ended");
}

/* A child that ended on its own: a refused field asks again without it
 * (and for an event reason, with its name before driver 535); anything
 * else fails the source with what the child said. */
static void
gp_tool_ended (GpSampler * s, GpSamplerTool * t)
{
  gchar *dropped = NULL, *how, *said, *d;

  gp_tool_close (&t->out_fd);
  if (t->err_fd >= 0)
    gp_tool_drain (s, t, t->err_fd, FALSE);
  gp_tool_close (&t->err_fd);
  if (t->line->len > 0)
    gp_tool_line (s, t, t->line->str, t->line->len);
  g_string_truncate (t->line, 0);
  gp_tool_reap (s, t, GP_TOOL_EXIT_WAIT_MS);
  if (t->kind == GP_TOOL_NVSMI && t->said->len > 0
      && t->spawns < GP_TOOL_RESPAWN_MAX
      && gp_nvsmi_drop_unknown_field (t->fields, t->said->str, &dropped,
          NULL)) {
    g_string_append_printf (t->dropped, "%s%s", t->dropped->len ? ", " : "",
        dropped);
    if (g_str_has_prefix (dropped, GP_TOOL_NEW_REASONS)) {
      gchar *old = g_strconcat (GP_TOOL_OLD_REASONS,
          dropped + strlen (GP_TOOL_NEW_REASONS), NULL);

      g_string_append_printf (t->dropped, " (asked again as %s)", old);
      g_ptr_array_add (t->fields, old);
    }
    g_free (dropped);
    gp_tool_spawn (s, t);
    return;
  }
  t->ended = TRUE;
  how = gp_tool_exit_text (t->status);
  said = t->err->len > 0 ? gp_tool_quote (t->err->str, t->err->len,
      GP_TOOL_DETAIL_QUOTE, TRUE) : t->said->len > 0 ?
      gp_tool_quote (t->said->str, t->said->len, GP_TOOL_DETAIL_QUOTE,
      FALSE) : g_strdup ("nothing on stderr");
  d = g_strdup_printf ("%s %s after %" G_GUINT64_FORMAT " samples: %s",
      t->path, how, gp_machine_source (s->m, t->name)->samples, said);
  gp_machine_source_set (s->m, t->name, GP_MACHINE_FAILED, d);
  g_free (d);
  g_free (said);
  g_free (how);
}

/* ------------------------------------------------------------------ */

GpSamplerTool *
gp_sampler_tool_new (GpSampler * s, guint i)
{
  const gchar *name = gp_tool_names[i];
  gchar *path = g_find_program_in_path (name);
  GpSamplerTool *t;
  guint k;

  gp_machine_source (s->m, name)->interval_s = s->opts.window_ms / 1000.0;
  if (path == NULL) {
    gchar *d = g_strdup_printf ("no %s in PATH", name);

    gp_machine_source_set (s->m, name, GP_MACHINE_ABSENT, d);
    g_free (d);
    return NULL;
  }
  t = g_new0 (GpSamplerTool, 1);
  t->kind = i;
  t->name = name;
  t->path = path;
  t->out_fd = t->err_fd = -1;
  t->fields = g_ptr_array_new_with_free_func (g_free);
  if (i == GP_TOOL_NVSMI)
    for (k = 0; k < G_N_ELEMENTS (gp_tool_nvsmi_fields); k++)
      g_ptr_array_add (t->fields, g_strdup (gp_tool_nvsmi_fields[k]));
  t->dropped = g_string_new (NULL);
  t->line = g_string_new (NULL);
  t->said = g_string_new (NULL);
  t->err = g_string_new (NULL);
  t->left_out = g_string_new (NULL);
  t->scratch = gp_machine_new ();
  t->routes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gp_tool_spawn (s, t);
  return t;
}

guint
gp_sampler_tool_fds (GpSamplerTool * t, struct pollfd *fds)
{
  guint n = 0;

  if (t->out_fd >= 0) {
    fds[n].fd = t->out_fd;
    fds[n++].events = POLLIN;
  }
  if (t->err_fd >= 0) {
    fds[n].fd = t->err_fd;
    fds[n++].events = POLLIN;
  }
  return n;
}

void
gp_sampler_tool_read (GpSampler * s, GpSamplerTool * t)
{
  if (t->err_fd >= 0 && !gp_tool_drain (s, t, t->err_fd, FALSE))
    gp_tool_close (&t->err_fd);
  if (t->out_fd >= 0 && !gp_tool_drain (s, t, t->out_fd, TRUE))
    gp_tool_ended (s, t);
}

void
gp_sampler_tool_stop (GpSampler * s, GpSamplerTool * t)
{
  GpMachineSource *src = gp_machine_source (s->m, t->name);
  GString *d;

  /* what arrived before the stop is the run's */
  gp_sampler_tool_read (s, t);
  if (t->pid != 0) {
    kill (t->pid, SIGTERM);
    gp_tool_reap (s, t, GP_TOOL_STOP_WAIT_MS);
  }
  gp_tool_close (&t->out_fd);
  gp_tool_close (&t->err_fd);
  if (t->ended)
    return;
  d = g_string_new (t->path);
  if (t->kind == GP_TOOL_TEGRASTATS)
    g_string_append_printf (d, " --interval %u", s->opts.window_ms);
  else
    g_string_append_printf (d, " --query-gpu (%u fields) -lms %u",
        t->fields->len, s->opts.window_ms);
  if (src->samples > 1)
    g_string_append_printf (d, "; a sample every %.3f s",
        (t->last_t - t->first_t) / (src->samples - 1));
  if (t->dropped->len)
    g_string_append_printf (d, "; refused by the driver, dropped: %s",
        t->dropped->str);
  if (t->left_out->len)
    g_string_append_printf (d, "; left out, another source's kept: %s",
        t->left_out->str);
  if (t->bad)
    g_string_append_printf (d, "; %" G_GUINT64_FORMAT " lines not read "
        "(first: \"%s\")", t->bad, t->first_bad);
  if (t->err->len) {
    gchar *q = gp_tool_quote (t->err->str, t->err->len, GP_TOOL_DETAIL_QUOTE,
        TRUE);

    g_string_append_printf (d, "; stderr: %s", q);
    g_free (q);
  }
  if (src->samples == 0 && src->state == NULL)
    src->state = g_strdup (GP_MACHINE_FAILED);
  g_free (src->detail);
  src->detail = g_string_free (d, FALSE);
}

void
gp_sampler_tool_free (GpSamplerTool * t)
{
  if (t == NULL)
    return;
  g_free (t->path);
  g_ptr_array_unref (t->fields);
  g_string_free (t->dropped, TRUE);
  g_string_free (t->line, TRUE);
  g_string_free (t->said, TRUE);
  g_string_free (t->err, TRUE);
  g_string_free (t->left_out, TRUE);
  g_free (t->first_bad);
  gp_machine_free (t->scratch);
  g_hash_table_unref (t->routes);
  g_free (t);
}
