/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-sampler-sys: the kernel's own numbers, one reading a tick: /proc
 * (CPU, threads, memory, RSS) and sysfs (thermal zones, cpufreq, devfreq,
 * INA3221 rails), every path under the sampler's roots (gp-sampler.h). */
#include "gp-sampler-private.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gp-procfs.h"
#include "gp-telemetry.h"

/* /proc/stat: 64 KiB holds a hundred cores and the interrupt counts; the
 * buffer doubles up to this for bigger machines. */
#define GP_SYS_STAT_MAX (4 * 1024 * 1024)
/* A sysfs attribute or a small /proc file. */
#define GP_SYS_SMALL 4096
/* A zone's trip points looked at, at most (Jetson zones have 2 to 6). */
#define GP_SYS_TRIPS_MAX 32
/* Channels per INA3221 (3) and the hwmon driver's numbering, with room. */
#define GP_SYS_RAIL_CHANNELS 8
/* Below this a zone reads as no sensor: Jetson's offline zones read
 * -256000 (tegrastats prints -256C). */
#define GP_SYS_TEMP_MISSING_MC (-255000)

typedef struct
{
  guint64 busy, total;
  gboolean have;
  guint64 seen;                 /* the last reading that had its line */
  GpMachineSeries *series;
} GpSysCpu;

typedef struct
{
  guint64 ns;
  gint64 at_us;
  gboolean have;                /* a reading to take the next one from */
  gchar comm[GP_PROCFS_COMM_MAX];
  GpMachineSeries *series;
} GpSysThread;

typedef struct
{
  gchar *path;                  /* the value's attribute */
  gchar *path2;                 /* a second one (a rail's current; a
                                 * policy's scaling_max_freq) */
  gdouble max;                  /* cpufreq: the hardware's max, kHz */
  gboolean input;               /* a rail carrying the board's input */
  GpMachineSeries *series;
} GpSysValue;

struct _GpSamplerSys
{
  gchar *stat_path, *meminfo_path, *status_path, *task_dir;
  gchar *buf;
  gsize buf_size;
  GPtrArray *cpus;              /* GpSysCpu*, [0] the machine, [N+1] cpuN */
  guint64 readings;             /* of /proc/stat */
  gboolean stat_fresh;          /* the probe read it: the first tick
                                 * does not */
  GHashTable *threads;          /* tid -> GpSysThread* */
  GHashTable *not_kept;         /* tids beyond GP_SAMPLER_THREADS_MAX */
  gboolean ticks_only;          /* no schedstat: utime + stime */
  gint64 clk_tck;
  GpMachineSeries *ram, *swap, *rss;
  GPtrArray *zones, *freqs, *devfreqs, *rails;  /* GpSysValue* */
  GPtrArray *cooling;           /* gchar*: cpufreq cooling cur_state */
  GpMachineSeries *throttle, *board;
  GpMachineSeries *reference;
};

static void
gp_sys_value_free (gpointer p)
{
  GpSysValue *v = p;

  g_free (v->path);
  g_free (v->path2);
  g_free (v);
}

static gboolean
gp_sys_number (const gchar * path, gint64 * v)
{
  gchar buf[64];
  gssize n = gp_sampler_read (path, buf, sizeof buf);

  return n > 0 && gp_procfs_number (buf, n, v);
}

static gboolean
gp_sys_word (const gchar * path, gchar * out, gsize size)
{
  gchar buf[256];
  gssize n = gp_sampler_read (path, buf, sizeof buf);

  return n > 0 && gp_procfs_word (buf, n, out, size);
}

/* The entries of @dir that start with @prefix, sorted (numerically where
 * the rest is a number), or an empty array. */
static gint
gp_sys_cmp_names (gconstpointer a, gconstpointer b)
{
  const gchar *x = *(const gchar **) a, *y = *(const gchar **) b;
  gsize i = 0;

  while (x[i] && x[i] == y[i] && !g_ascii_isdigit (x[i]))
    i++;
  if (g_ascii_isdigit (x[i]) && g_ascii_isdigit (y[i])) {
    guint64 nx = g_ascii_strtoull (x + i, NULL, 10);
    guint64 ny = g_ascii_strtoull (y + i, NULL, 10);

    if (nx != ny)
      return nx < ny ? -1 : 1;
  }
  return strcmp (x, y);
}

static GPtrArray *
gp_sys_list (const gchar * dir, const gchar * prefix)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (name, prefix))
      g_ptr_array_add (out, g_strdup (name));
  if (d != NULL)
    g_dir_close (d);
  g_ptr_array_sort (out, gp_sys_cmp_names);
  return out;
}

/* @name, or name#2, name#3... when a series of @quantity has it. */
static gchar *
gp_sys_unique (GpMachine * m, const gchar * quantity, const gchar * name)
{
  gchar *u = g_strdup (name);
  guint k = 2;

  while (gp_machine_find (m, quantity, u) != NULL) {
    g_free (u);
    u = g_strdup_printf ("%s#%u", name, k++);
  }
  return u;
}

static void
gp_sys_absent (GpSampler * s, const gchar * source, const gchar * what)
{
  gchar *d = g_strdup_printf ("no %s", what);

  gp_machine_source_set (s->m, source, GP_MACHINE_ABSENT, d);
  g_free (d);
}

static void
gp_sys_interval (GpSampler * s, const gchar * source)
{
  gp_machine_source (s->m, source)->interval_s = s->opts.window_ms / 1000.0;
}

/* ------------------------------------------------------------------ */
/* /proc                                                                */
/* ------------------------------------------------------------------ */

/* /proc/stat whole into sys->buf (grown as needed): its length, or -1. */
static gssize
gp_sys_read_stat (GpSamplerSys * sys)
{
  gssize n;

  while ((n = gp_sampler_read (sys->stat_path, sys->buf, sys->buf_size)) >= 0
      && (gsize) n + 1 >= sys->buf_size && sys->buf_size < GP_SYS_STAT_MAX) {
    sys->buf_size *= 2;
    sys->buf = g_realloc (sys->buf, sys->buf_size);
  }
  return n;
}

static GpSysCpu *
gp_sys_cpu (GpSampler * s, GpSamplerSys * sys, gint cpu)
{
  guint i = cpu + 1;
  GpSysCpu *c;
  gchar inst[16];

  if (i >= sys->cpus->len)
    g_ptr_array_set_size (sys->cpus, i + 1);
  c = g_ptr_array_index (sys->cpus, i);
  if (c == NULL) {
    c = g_new0 (GpSysCpu, 1);
    if (cpu < 0)
      g_strlcpy (inst, "all", sizeof inst);
    else
      g_snprintf (inst, sizeof inst, "%d", cpu);
    c->series = gp_machine_series (s->m, GP_MACHINE_CPU_LOAD, inst,
        GP_UNIT_PCT, "proc");
    sys->cpus->pdata[i] = c;
  }
  return c;
}

/* Each cpu line's busy share since the last tick; a core gone offline
 * (no line) is missing. */
static gboolean
gp_sys_tick_stat (GpSampler * s, GpSamplerSys * sys, gdouble t)
{
  gssize n = gp_sys_read_stat (sys);
  const gchar *p = sys->buf, *end;
  guint i;

  if (n < 0)
    return FALSE;
  end = sys->buf + n;
  sys->readings++;
  while (p < end) {
    const gchar *nl = memchr (p, '\n', end - p);
    const gchar *eol = nl ? nl : end;
    guint64 busy, total;
    gint cpu;

    if (gp_procfs_stat_cpu (p, eol - p, &cpu, &busy, &total)) {
      GpSysCpu *c = gp_sys_cpu (s, sys, cpu);

      if (c->have && total > c->total && busy >= c->busy)
        gp_sampler_append (s, c->series, t, 100.0 * (busy - c->busy) /
            (total - c->total));
      else if (c->have)
        gp_sampler_append (s, c->series, t, NAN);
      c->busy = busy;
      c->total = total;
      c->have = TRUE;
      c->seen = sys->readings;
    } else if (p != sys->buf && !g_str_has_prefix (p, "cpu"))
      break;                    /* the cpu lines come first */
    p = nl ? nl + 1 : end;
  }
  for (i = 0; i < sys->cpus->len; i++) {
    GpSysCpu *c = g_ptr_array_index (sys->cpus, i);

    if (c != NULL && c->seen != sys->readings && c->have) {
      gp_sampler_append (s, c->series, t, NAN);
      c->have = FALSE;
    }
  }
  return TRUE;
}

static void
gp_sys_tick_memory (GpSampler * s, GpSamplerSys * sys, gdouble t)
{
  gchar buf[GP_SYS_SMALL * 2];
  gssize n = gp_sampler_read (sys->meminfo_path, buf, sizeof buf);
  guint64 total, avail, sw_total, sw_free, free_kib, buffers, cached;

  if (n <= 0 || !gp_procfs_kib (buf, n, "MemTotal", &total))
    return;
  /* MemAvailable since Linux 3.14; before it, free + buffers + cache */
  if (!gp_procfs_kib (buf, n, "MemAvailable", &avail)) {
    if (!gp_procfs_kib (buf, n, "MemFree", &free_kib) ||
        !gp_procfs_kib (buf, n, "Buffers", &buffers) ||
        !gp_procfs_kib (buf, n, "Cached", &cached))
      return;
    avail = free_kib + buffers + cached;
  }
  if (sys->ram == NULL)
    sys->ram = gp_machine_series (s->m, GP_MACHINE_MEM_USED, "ram",
        GP_UNIT_MIB, "proc");
  sys->ram->limit = total / 1024.0;
  gp_sampler_append (s, sys->ram, t, avail <= total ?
      (total - avail) / 1024.0 : NAN);
  if (gp_procfs_kib (buf, n, "SwapTotal", &sw_total) && sw_total > 0 &&
      gp_procfs_kib (buf, n, "SwapFree", &sw_free)) {
    if (sys->swap == NULL)
      sys->swap = gp_machine_series (s->m, GP_MACHINE_MEM_USED, "swap",
          GP_UNIT_MIB, "proc");
    sys->swap->limit = sw_total / 1024.0;
    gp_sampler_append (s, sys->swap, t, sw_free <= sw_total ?
        (sw_total - sw_free) / 1024.0 : NAN);
  }
}

static void
gp_sys_tick_rss (GpSampler * s, GpSamplerSys * sys, gdouble t)
{
  gchar buf[GP_SYS_SMALL * 2];
  gssize n;
  guint64 kib;

  if (sys->status_path == NULL)
    return;
  n = gp_sampler_read (sys->status_path, buf, sizeof buf);
  if (n <= 0 || !gp_procfs_kib (buf, n, "VmRSS", &kib))
    return;
  if (sys->rss == NULL) {
    gchar inst[16];

    g_snprintf (inst, sizeof inst, "%d", s->opts.pid);
    sys->rss = gp_machine_series (s->m, GP_MACHINE_RSS, inst, GP_UNIT_MIB,
        "proc");
  }
  gp_sampler_append (s, sys->rss, t, kib / 1024.0);
}

/* A thread's CPU time in ns and its name; FALSE when it is gone. */
static gboolean
gp_sys_thread_read (GpSamplerSys * sys, const gchar * tid, guint64 * ns,
    gchar comm[GP_PROCFS_COMM_MAX])
{
  gchar path[512], buf[1024];
  guint64 ticks, sched;
  gssize n;

  g_snprintf (path, sizeof path, "%s/%s/stat", sys->task_dir, tid);
  n = gp_sampler_read (path, buf, sizeof buf);
  if (n <= 0 || !gp_procfs_task_stat (buf, n, comm, &ticks))
    return FALSE;
  *ns = ticks * (1000000000 / sys->clk_tck);
  if (sys->ticks_only)
    return TRUE;
  /* schedstat: the same clock the thread's CPU clock reads, in ns */
  g_snprintf (path, sizeof path, "%s/%s/schedstat", sys->task_dir, tid);
  n = gp_sampler_read (path, buf, sizeof buf);
  if (n > 0 && gp_procfs_schedstat (buf, n, &sched))
    *ns = sched;
  else
    sys->ticks_only = TRUE;
  return TRUE;
}

static void
gp_sys_thread_name (GpSampler * s, GpSysThread * th, gint tid,
    const gchar * comm)
{
  if (th->series != NULL && strcmp (th->comm, comm) == 0)
    return;
  /* a thread is often named after it starts (GStreamer's streaming
   * threads): the series takes the name it has now */
  g_strlcpy (th->comm, comm, sizeof th->comm);
  if (th->series == NULL) {
    gchar *inst = g_strdup_printf ("%d %s", tid, comm);

    th->series = gp_machine_series (s->m, GP_MACHINE_THREAD_CPU, inst,
        GP_UNIT_PCT, "proc");
    g_free (inst);
  } else {
    g_free (th->series->name);
    th->series->name = g_strdup_printf ("%s/%d %s", GP_MACHINE_THREAD_CPU,
        tid, comm);
  }
}

static void
gp_sys_tick_threads (GpSampler * s, GpSamplerSys * sys, gdouble t,
    gint64 now_us)
{
  GDir *d;
  const gchar *name;

  if (sys->task_dir == NULL || (d = g_dir_open (sys->task_dir, 0, NULL))
      == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL) {
    gint tid = atoi (name);
    GpSysThread *th;
    gchar comm[GP_PROCFS_COMM_MAX];
    guint64 ns;

    if (tid <= 0)
      continue;
    th = g_hash_table_lookup (sys->threads, GINT_TO_POINTER (tid));
    if (th == NULL) {
      if (g_hash_table_size (sys->threads) >= GP_SAMPLER_THREADS_MAX) {
        g_hash_table_add (sys->not_kept, GINT_TO_POINTER (tid));
        continue;
      }
      th = g_new0 (GpSysThread, 1);
      g_hash_table_insert (sys->threads, GINT_TO_POINTER (tid), th);
    }
    if (!gp_sys_thread_read (sys, name, &ns, comm)) {
      th->have = FALSE;
      continue;
    }
    if (th->have && now_us > th->at_us && ns >= th->ns) {
      gp_sys_thread_name (s, th, tid, comm);
      gp_sampler_append (s, th->series, t, (ns - th->ns) / 10.0 /
          (now_us - th->at_us));
    }
    th->ns = ns;
    th->at_us = now_us;
    th->have = TRUE;
  }
  g_dir_close (d);
}

static void
gp_sys_proc_new (GpSampler * s, GpSamplerSys * sys)
{
  gint64 tck = sysconf (_SC_CLK_TCK);

  sys->clk_tck = tck > 0 ? tck : 100;
  sys->stat_path = g_strdup_printf ("%s/proc/stat", s->proc_root);
  sys->meminfo_path = g_strdup_printf ("%s/proc/meminfo", s->proc_root);
  sys->buf_size = 64 * 1024;
  sys->buf = g_malloc (sys->buf_size);
  sys->cpus = g_ptr_array_new_with_free_func (g_free);
  sys->threads = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  sys->not_kept = g_hash_table_new (NULL, NULL);
  gp_sys_interval (s, "proc");
  if (s->opts.pid > 0) {
    sys->status_path = g_strdup_printf ("%s/proc/%d/status", s->proc_root,
        s->opts.pid);
    sys->task_dir = g_strdup_printf ("%s/proc/%d/task", s->proc_root,
        s->opts.pid);
  }
  /* the first readings: the machine's series exist from the start, so a
   * tool's line that comes first does not take their names */
  if (!gp_sys_tick_stat (s, sys, gp_sampler_now (s)))
    gp_sys_absent (s, "proc", sys->stat_path);
  sys->stat_fresh = TRUE;
}

static void
gp_sys_proc_detail (GpSampler * s, GpSamplerSys * sys)
{
  GpMachineSource *src = gp_machine_find_source (s->m, "proc");
  GString *d;

  if (src == NULL || g_strcmp0 (src->state, GP_MACHINE_ABSENT) == 0)
    return;
  d = g_string_new (NULL);
  g_string_append_printf (d, "%s, %s", sys->stat_path, sys->meminfo_path);
  if (s->opts.pid > 0) {
    g_string_append_printf (d, "; process %d: %s, %u threads (%s)",
        s->opts.pid, sys->rss ? "VmRSS" : "no VmRSS",
        g_hash_table_size (sys->threads), sys->ticks_only ?
        "utime + stime, clock ticks" : "schedstat, ns");
    if (g_hash_table_size (sys->not_kept) > 0)
      g_string_append_printf (d, ", %u more not kept (at most %d)",
          g_hash_table_size (sys->not_kept), GP_SAMPLER_THREADS_MAX);
  }
  g_free (src->detail);
  src->detail = g_string_free (d, FALSE);
}

/* ------------------------------------------------------------------ */
/* thermal zones                                                        */
/* ------------------------------------------------------------------ */

/* The lowest passive or hot trip point of @zone, in C; NAN when none. */
static gdouble
gp_sys_zone_trip (const gchar * zone)
{
  gdouble best = NAN;
  guint k;

  for (k = 0; k < GP_SYS_TRIPS_MAX; k++) {
    gchar *tp = g_strdup_printf ("%s/trip_point_%u_type", zone, k);
    gchar *tt = g_strdup_printf ("%s/trip_point_%u_temp", zone, k);
    gchar type[32];
    gint64 mc;
    gboolean have = gp_sys_word (tp, type, sizeof type);

    if (have && (strcmp (type, "passive") == 0 || strcmp (type, "hot") == 0)
        && gp_sys_number (tt, &mc) && mc > 0 && (isnan (best)
            || mc / 1000.0 < best))
      best = mc / 1000.0;
    g_free (tp);
    g_free (tt);
    if (!have)
      break;
  }
  return best;
}

static void
gp_sys_thermal_new (GpSampler * s, GpSamplerSys * sys)
{
  gchar *dir = g_strdup_printf ("%s/sys/class/thermal", s->sys_root);
  GPtrArray *names = gp_sys_list (dir, "thermal_zone");
  guint i;

  sys->zones = g_ptr_array_new_with_free_func (gp_sys_value_free);
  gp_sys_interval (s, "thermal");
  for (i = 0; i < names->len; i++) {
    gchar *zone = g_build_filename (dir, names->pdata[i], NULL);
    gchar *tpath = g_build_filename (zone, "type", NULL);
    gchar type[64], *lower, *inst;
    GpSysValue *v;

    if (gp_sys_word (tpath, type, sizeof type)) {
      lower = g_ascii_strdown (type, -1);
      inst = gp_sys_unique (s->m, GP_MACHINE_TEMP, lower);
      v = g_new0 (GpSysValue, 1);
      v->path = g_build_filename (zone, "temp", NULL);
      v->series = gp_machine_series (s->m, GP_MACHINE_TEMP, inst, GP_UNIT_C,
          "thermal");
      v->series->limit = gp_sys_zone_trip (zone);
      g_ptr_array_add (sys->zones, v);
      g_free (lower);
      g_free (inst);
    }
    g_free (tpath);
    g_free (zone);
  }
  if (sys->zones->len == 0) {
    gchar *what = g_strdup_printf ("%s/thermal_zone*", dir);

    gp_sys_absent (s, "thermal", what);
    g_free (what);
  } else {
    gchar *d = g_strdup_printf ("%u zones under %s", sys->zones->len, dir);

    gp_machine_source_set (s->m, "thermal", NULL, d);
    g_free (d);
  }
  /* the cooling devices that lower the CPUs' clocks */
  sys->cooling = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_unref (names);
  names = gp_sys_list (dir, "cooling_device");
  for (i = 0; i < names->len; i++) {
    gchar *cd = g_build_filename (dir, names->pdata[i], NULL);
    gchar *tpath = g_build_filename (cd, "type", NULL);
    gchar type[64];

    if (gp_sys_word (tpath, type, sizeof type)
        && g_str_has_prefix (type, "cpufreq"))
      g_ptr_array_add (sys->cooling, g_build_filename (cd, "cur_state",
              NULL));
    g_free (tpath);
    g_free (cd);
  }
  g_ptr_array_unref (names);
  g_free (dir);
}

static gboolean
gp_sys_tick_thermal (GpSampler * s, GpSamplerSys * sys, gdouble t)
{
  guint i;

  for (i = 0; i < sys->zones->len; i++) {
    GpSysValue *v = g_ptr_array_index (sys->zones, i);
    gint64 mc;

    gp_sampler_append (s, v->series, t, gp_sys_number (v->path, &mc) &&
        mc > GP_SYS_TEMP_MISSING_MC ? mc / 1000.0 : NAN);
  }
  return sys->zones->len > 0;
}

/* ------------------------------------------------------------------ */
/* cpufreq                                                              */
/* ------------------------------------------------------------------ */

static void
gp_sys_cpufreq_new (GpSampler * s, GpSamplerSys * sys)
{
  gchar *dir = g_strdup_printf ("%s/sys/devices/system/cpu", s->sys_root);
  GPtrArray *names = gp_sys_list (dir, "cpu");
  guint i;

  sys->freqs = g_ptr_array_new_with_free_func (gp_sys_value_free);
  gp_sys_interval (s, "cpufreq");
  for (i = 0; i < names->len; i++) {
    const gchar *name = names->pdata[i];
    gchar *freq, *cur, *hw, *inst;
    gint64 khz, hw_khz = 0;
    GpSysValue *v;

    if (!g_ascii_isdigit (name[3]) || strspn (name + 3, "0123456789") !=
        strlen (name + 3))
      continue;
    freq = g_build_filename (dir, name, "cpufreq", NULL);
    cur = g_build_filename (freq, "scaling_cur_freq", NULL);
    if (!gp_sys_number (cur, &khz)) {
      g_free (cur);
      cur = g_build_filename (freq, "cpuinfo_cur_freq", NULL);
    }
    hw = g_build_filename (freq, "cpuinfo_max_freq", NULL);
    if (gp_sys_number (cur, &khz)) {
      v = g_new0 (GpSysValue, 1);
      v->path = cur;
      cur = NULL;
      v->path2 = g_build_filename (freq, "scaling_max_freq", NULL);
      v->max = gp_sys_number (hw, &hw_khz) && hw_khz > 0 ? hw_khz : NAN;
      inst = g_strdup (name + 3);
      v->series = gp_machine_series (s->m, GP_MACHINE_CPU_FREQ, inst,
          GP_UNIT_MHZ, "cpufreq");
      v->series->limit = v->max / 1000.0;
      g_ptr_array_add (sys->freqs, v);
      g_free (inst);
    }
    g_free (cur);
    g_free (hw);
    g_free (freq);
  }
  if (sys->freqs->len == 0) {
    gchar *what = g_strdup_printf ("%s/cpuN/cpufreq/scaling_cur_freq", dir);

    gp_sys_absent (s, "cpufreq", what);
    g_free (what);
  } else {
    gchar *d = g_strdup_printf ("%u CPUs under %s; throttle/cpu: "
        "scaling_max_freq below cpuinfo_max_freq (thermal when a cpufreq "
        "cooling device is engaged)", sys->freqs->len, dir);

    sys->throttle = gp_machine_series (s->m, GP_MACHINE_THROTTLE, "cpu",
        GP_UNIT_NONE, "cpufreq");
    gp_machine_source_set (s->m, "cpufreq", NULL, d);
    g_free (d);
  }
  g_ptr_array_unref (names);
  g_free (dir);
}

static gboolean
gp_sys_tick_cpufreq (GpSampler * s, GpSamplerSys * sys, gdouble t)
{
  gboolean held = FALSE, known = FALSE, cooled = FALSE;
  guint i;

  for (i = 0; i < sys->freqs->len; i++) {
    GpSysValue *v = g_ptr_array_index (sys->freqs, i);
    gint64 khz, max;

    gp_sampler_append (s, v->series, t, gp_sys_number (v->path, &khz) &&
        khz > 0 ? khz / 1000.0 : NAN);
    if (!isnan (v->max) && gp_sys_number (v->path2, &max) && max > 0) {
      known = TRUE;
      held = held || max < v->max;
    }
  }
  for (i = 0; held && i < sys->cooling->len; i++) {
    gint64 state;

    if (gp_sys_number (g_ptr_array_index (sys->cooling, i), &state)
        && state > 0)
      cooled = TRUE;
  }
  if (sys->throttle != NULL)
    gp_sampler_append (s, sys->throttle, t, !known ? NAN : !held ? 0 :
        cooled ? GP_MACHINE_THROTTLE_THERMAL : GP_MACHINE_THROTTLE_OTHER);
  return sys->freqs->len > 0;
}

/* ------------------------------------------------------------------ */
/* devfreq: a Jetson's GPU and EMC                                      */
/* ------------------------------------------------------------------ */

/* The GPU's devfreq device on every Jetson: 57000000.gpu (TX1, Nano),
 * 17000000.gp10b (TX2), 17000000.gv11b (Xavier), 17000000.ga10b (Orin),
 * and a bare gpu. */
static gboolean
gp_sys_devfreq_is_gpu (const gchar * name)
{
  static const gchar *const suffixes[] = {
    ".gpu", ".gm20b", ".gp10b", ".gv11b", ".ga10b", ".gb10b",
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (suffixes); i++)
    if (g_str_has_suffix (name, suffixes[i]))
      return TRUE;
  return g_str_has_prefix (name, "gpu");
}

static gboolean
gp_sys_devfreq_is_emc (const gchar * name)
{
  return strstr (name, "emc") != NULL
      || strstr (name, "external-memory-controller") != NULL;
}

static void
gp_sys_devfreq_new (GpSampler * s, GpSamplerSys * sys)
{
  gchar *dir = g_strdup_printf ("%s/sys/class/devfreq", s->sys_root);
  GPtrArray *names = gp_sys_list (dir, "");
  GString *others = g_string_new (NULL);
  guint i, gpus = 0;
  GString *d;

  sys->devfreqs = g_ptr_array_new_with_free_func (gp_sys_value_free);
  gp_sys_interval (s, "devfreq");
  for (i = 0; i < names->len; i++) {
    const gchar *name = names->pdata[i];
    gboolean gpu = gp_sys_devfreq_is_gpu (name);
    gboolean emc = !gpu && gp_sys_devfreq_is_emc (name) &&
        gp_machine_find (s->m, GP_MACHINE_MEM_FREQ, "emc") == NULL;
    gchar *cur = g_build_filename (dir, name, "cur_freq", NULL);
    gchar *max = g_build_filename (dir, name, "max_freq", NULL);
    gint64 hz, max_hz;

    if ((gpu || emc) && gp_sys_number (cur, &hz)) {
      GpSysValue *v = g_new0 (GpSysValue, 1);
      gchar inst[16];

      g_snprintf (inst, sizeof inst, "%u", gpus);
      v->path = cur;
      cur = NULL;
      v->series = gpu ? gp_machine_series (s->m, GP_MACHINE_GPU_FREQ, inst,
          GP_UNIT_MHZ, "devfreq") : gp_machine_series (s->m,
          GP_MACHINE_MEM_FREQ, "emc", GP_UNIT_MHZ, "devfreq");
      if (gp_sys_number (max, &max_hz) && max_hz > 0)
        v->series->limit = max_hz / 1e6;
      gpus += gpu;
      g_ptr_array_add (sys->devfreqs, v);
      gp_machine_set_fact (s->m, gpu ? "devfreq.gpu" : "devfreq.emc", name);
    } else
      g_string_append_printf (others, "%s%s", others->len ? ", " : "",
          name);
    g_free (cur);
    g_free (max);
  }
  if (sys->devfreqs->len == 0) {
    gchar *what = g_strdup_printf ("GPU or EMC device under %s%s%s%s", dir,
        others->len ? " (only " : "", others->str, others->len ? ")" : "");

    gp_sys_absent (s, "devfreq", what);
    g_free (what);
  } else {
    d = g_string_new (NULL);
    g_string_append_printf (d, "%s: %s%s%s", dir, gpus ? "GPU" : "",
        gpus && sys->devfreqs->len > gpus ? " and " : "",
        sys->devfreqs->len > gpus ? "EMC" : "");
    if (others->len)
      g_string_append_printf (d, "; not sampled: %s", others->str);
    gp_machine_source_set (s->m, "devfreq", NULL, d->str);
    g_string_free (d, TRUE);
  }
  g_string_free (others, TRUE);
  g_ptr_array_unref (names);
  g_free (dir);
}

static gboolean
gp_sys_tick_devfreq (GpSampler * s, GpSamplerSys * sys, gdouble t)
{
  guint i;

  for (i = 0; i < sys->devfreqs->len; i++) {
    GpSysValue *v = g_ptr_array_index (sys->devfreqs, i);
    gint64 hz;

    gp_sampler_append (s, v->series, t, gp_sys_number (v->path, &hz) &&
        hz > 0 ? hz / 1e6 : NAN);
  }
  return sys->devfreqs->len > 0;
}

/* ------------------------------------------------------------------ */
/* INA3221 power rails                                                  */
/* ------------------------------------------------------------------ */

static void
gp_sys_rail_add (GpSampler * s, GpSamplerSys * sys, const gchar * label,
    gchar * path, gchar * path2)
{
  GpSysValue *v;
  gchar *inst;

  /* NC: a channel with nothing on it (AGX Orin has two) */
  if (strcmp (label, "NC") == 0) {
    g_free (path);
    g_free (path2);
    return;
  }
  inst = gp_sys_unique (s->m, GP_MACHINE_POWER, label);
  v = g_new0 (GpSysValue, 1);
  v->path = path;
  v->path2 = path2;
  v->input = gp_telemetry_input_rail (label);
  v->series = gp_machine_series (s->m, GP_MACHINE_POWER, inst, GP_UNIT_W,
      "rails");
  g_ptr_array_add (sys->rails, v);
  g_free (inst);
}

/* JetPack 5 and later (the kernel's ina3221 hwmon driver):
 * hwmon/hwmonK/inN_label, inN_input (mV), currN_input (mA). */
static void
gp_sys_rails_hwmon (GpSampler * s, GpSamplerSys * sys, const gchar * dev)
{
  gchar *hdir = g_build_filename (dev, "hwmon", NULL);
  GPtrArray *hw = gp_sys_list (hdir, "hwmon");
  guint i, ch;

  for (i = 0; i < hw->len; i++) {
    gchar *h = g_build_filename (hdir, hw->pdata[i], NULL);

    for (ch = 1; ch <= GP_SYS_RAIL_CHANNELS; ch++) {
      gchar *lp = g_strdup_printf ("%s/in%u_label", h, ch);
      gchar label[64];

      if (gp_sys_word (lp, label, sizeof label))
        gp_sys_rail_add (s, sys, label, g_strdup_printf ("%s/in%u_input", h,
                ch), g_strdup_printf ("%s/curr%u_input", h, ch));
      g_free (lp);
    }
    g_free (h);
  }
  g_ptr_array_unref (hw);
  g_free (hdir);
}

/* JetPack 4 (ina3221x, iio): iio:deviceK/rail_name_N, in_powerN_input
 * (mW). */
static void
gp_sys_rails_iio (GpSampler * s, GpSamplerSys * sys, const gchar * dev)
{
  GPtrArray *iio = gp_sys_list (dev, "iio:device");
  guint i, ch;

  for (i = 0; i < iio->len; i++) {
    gchar *d = g_build_filename (dev, iio->pdata[i], NULL);

    for (ch = 0; ch < GP_SYS_RAIL_CHANNELS; ch++) {
      gchar *lp = g_strdup_printf ("%s/rail_name_%u", d, ch);
      gchar label[64];

      if (gp_sys_word (lp, label, sizeof label))
        gp_sys_rail_add (s, sys, label, g_strdup_printf
            ("%s/in_power%u_input", d, ch), NULL);
      g_free (lp);
    }
    g_free (d);
  }
  g_ptr_array_unref (iio);
}

static void
gp_sys_rails_new (GpSampler * s, GpSamplerSys * sys)
{
  gchar *dir = g_strdup_printf ("%s/sys/bus/i2c/drivers", s->sys_root);
  GPtrArray *drivers = gp_sys_list (dir, "ina3221");
  guint i, k;

  sys->rails = g_ptr_array_new_with_free_func (gp_sys_value_free);
  gp_sys_interval (s, "rails");
  for (i = 0; i < drivers->len; i++) {
    gchar *drv = g_build_filename (dir, drivers->pdata[i], NULL);
    GPtrArray *devs = gp_sys_list (drv, "");

    for (k = 0; k < devs->len; k++) {
      gchar *dev = g_build_filename (drv, devs->pdata[k], NULL);

      /* the devices are links named BUS-ADDRESS (1-0040) */
      if (strchr (devs->pdata[k], '-') != NULL) {
        gp_sys_rails_hwmon (s, sys, dev);
        gp_sys_rails_iio (s, sys, dev);
      }
      g_free (dev);
    }
    g_ptr_array_unref (devs);
    g_free (drv);
  }
  if (sys->rails->len == 0) {
    gchar *what = g_strdup_printf ("INA3221 channel under %s/ina3221*",
        dir);

    gp_sys_absent (s, "rails", what);
    g_free (what);
  } else {
    gchar *d = g_strdup_printf ("%u INA3221 channels under %s/%s",
        sys->rails->len, dir, (gchar *) drivers->pdata[0]);

    sys->board = gp_machine_series (s->m, GP_MACHINE_POWER, "board",
        GP_UNIT_W, "rails");
    gp_machine_source_set (s->m, "rails", NULL, d);
    g_free (d);
  }
  g_ptr_array_unref (drivers);
  g_free (dir);
}

static gboolean
gp_sys_tick_rails (GpSampler * s, GpSamplerSys * sys, gdouble t)
{
  gdouble sum = 0, input = NAN;
  guint i, n = 0;

  for (i = 0; i < sys->rails->len; i++) {
    GpSysValue *v = g_ptr_array_index (sys->rails, i);
    gint64 a, b;
    gdouble w = NAN;

    if (v->path2 == NULL && gp_sys_number (v->path, &a))
      w = a / 1000.0;           /* mW */
    else if (v->path2 != NULL && gp_sys_number (v->path, &a)
        && gp_sys_number (v->path2, &b))
      w = a * (gdouble) b / 1e6;        /* mV x mA */
    gp_sampler_append (s, v->series, t, w);
    if (v->input && isnan (input))
      input = w;
    else if (!v->input && !isnan (w)) {
      sum += w;
      n++;
    }
  }
  if (sys->board != NULL)
    gp_sampler_append (s, sys->board, t, !isnan (input) ? input : n > 0 ?
        sum : NAN);
  return sys->rails->len > 0;
}

/* The reference work: this many rounds of a 64-bit xorshift, about 0.1 ms
 * on a server core: 0.04 % of a core at four ticks a second. */
#define GP_SYS_REFERENCE_ROUNDS 50000

/* The CPU time a round of the reference work takes on this thread now, in
 * ns: the same work, so a run where it took longer had a slower machine (a
 * lower clock, a busy sibling thread, a throttle), whatever the pipeline
 * did. */
static gboolean
gp_sys_tick_reference (GpSampler * s, GpSamplerSys * sys, gdouble t)
{
  struct timespec a, b;
  volatile guint64 sink;
  guint64 x = 88172645463325252ull;
  guint i;

  if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &a) != 0)
    return FALSE;
  for (i = 0; i < GP_SYS_REFERENCE_ROUNDS; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  sink = x;
  (void) sink;
  if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &b) != 0)
    return FALSE;
  if (sys->reference == NULL)
    sys->reference = gp_machine_series (s->m, GP_MACHINE_CPU_REF,
        "xorshift", GP_UNIT_NS, "proc");
  gp_sampler_append (s, sys->reference, t, ((b.tv_sec - a.tv_sec) * 1e9 +
          (b.tv_nsec - a.tv_nsec)) / GP_SYS_REFERENCE_ROUNDS);
  return TRUE;
}

/* ------------------------------------------------------------------ */

GpSamplerSys *
gp_sampler_sys_new (GpSampler * s)
{
  GpSamplerSys *sys = g_new0 (GpSamplerSys, 1);

  gp_sys_proc_new (s, sys);
  gp_sys_thermal_new (s, sys);
  gp_sys_cpufreq_new (s, sys);
  gp_sys_devfreq_new (s, sys);
  gp_sys_rails_new (s, sys);
  /* the instant readings at the start; the rates need a second one */
  gp_sampler_sys_tick (s, sys);
  return sys;
}

static void
gp_sys_count (GpSampler * s, const gchar * source, gboolean sampled)
{
  if (sampled)
    gp_machine_source (s->m, source)->samples++;
}

void
gp_sampler_sys_tick (GpSampler * s, GpSamplerSys * sys)
{
  gint64 now_us = g_get_monotonic_time ();
  gdouble t = (now_us - s->opts.start_us) / 1e6;

  /* the probe already took /proc/stat's first reading */
  if (sys->stat_fresh)
    sys->stat_fresh = FALSE;
  else
    gp_sys_count (s, "proc", gp_sys_tick_stat (s, sys, t));
  gp_sys_tick_memory (s, sys, t);
  gp_sys_tick_rss (s, sys, t);
  gp_sys_tick_threads (s, sys, t, now_us);
  gp_sys_count (s, "thermal", gp_sys_tick_thermal (s, sys, t));
  gp_sys_count (s, "cpufreq", gp_sys_tick_cpufreq (s, sys, t));
  gp_sys_count (s, "devfreq", gp_sys_tick_devfreq (s, sys, t));
  gp_sys_count (s, "rails", gp_sys_tick_rails (s, sys, t));
  gp_sys_tick_reference (s, sys, t);
}

/* A series that never got a sample (a rate whose run was shorter than one
 * window) is left out. */
static void
gp_sys_drop_empty (GpMachine * m)
{
  guint i = 0;

  while (i < m->series->len) {
    GpMachineSeries *ms = g_ptr_array_index (m->series, i);

    if (ms->t->len == 0 && (g_strcmp0 (ms->source, "proc") == 0 ||
            g_strcmp0 (ms->source, "thermal") == 0 ||
            g_strcmp0 (ms->source, "cpufreq") == 0 ||
            g_strcmp0 (ms->source, "devfreq") == 0 ||
            g_strcmp0 (ms->source, "rails") == 0))
      g_ptr_array_remove_index (m->series, i);
    else
      i++;
  }
}

void
gp_sampler_sys_free (GpSampler * s, GpSamplerSys * sys)
{
  if (sys == NULL)
    return;
  gp_sys_proc_detail (s, sys);
  gp_sys_drop_empty (s->m);
  g_free (sys->stat_path);
  g_free (sys->meminfo_path);
  g_free (sys->status_path);
  g_free (sys->task_dir);
  g_free (sys->buf);
  g_ptr_array_unref (sys->cpus);
  g_hash_table_unref (sys->threads);
  g_hash_table_unref (sys->not_kept);
  g_ptr_array_unref (sys->zones);
  g_ptr_array_unref (sys->freqs);
  g_ptr_array_unref (sys->devfreqs);
  g_ptr_array_unref (sys->rails);
  g_ptr_array_unref (sys->cooling);
  g_free (sys);
}
