/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-sampler-private.h: what the sampler's three files share: the thread
 * and its clock (gp-sampler.c), the kernel's files (gp-sampler-sys.c), the
 * tools' children (gp-sampler-tools.c). Everything here runs on the
 * sampler's thread, which alone touches the machine until it is joined. */
#ifndef __GP_SAMPLER_PRIVATE_H__
#define __GP_SAMPLER_PRIVATE_H__

#include <poll.h>

#include "gp-sampler.h"

G_BEGIN_DECLS

typedef struct _GpSamplerSys GpSamplerSys;
typedef struct _GpSamplerTool GpSamplerTool;

#define GP_SAMPLER_N_TOOLS 2

struct _GpSampler
{
  GpMachine *m;
  GpSamplerOptions opts;
  gchar *proc_root;             /* "" for "/": paths are root + "/proc/.." */
  gchar *sys_root;
  gint wake[2];                 /* a pipe: stop */
  GThread *thread;
  GpSamplerSys *sys;
  GpSamplerTool *tools[GP_SAMPLER_N_TOOLS];
  gint64 began_us, ended_us;    /* the thread's life, monotonic */
  gdouble thread_cpu_s;
  gdouble children_cpu_s;
  /* held by the thread while it writes @m, and by a live view reading it
   * (gp_sampler_lock ()) */
  GMutex lock;
};

/* s since the session's start */
gdouble gp_sampler_now (const GpSampler * s);
/* Reads @path (at most @size - 1 bytes, NUL-terminated) into @buf: its
 * length, or -1 with errno. */
gssize gp_sampler_read (const gchar * path, gchar * buf, gsize size);
/* Appends (t, v) to @series, merging neighbours pairwise past
 * GP_SAMPLER_SERIES_MAX. */
void gp_sampler_append (GpSampler * s, GpMachineSeries * series, gdouble t,
    gdouble v);

/* gp-sampler-sys.c: looks for every kernel source (registering each,
 * absent ones with what was looked for) and takes the first readings. */
GpSamplerSys *gp_sampler_sys_new (GpSampler * s);
void gp_sampler_sys_tick (GpSampler * s, GpSamplerSys * sys);
/* Series with no sample left out, details completed. */
void gp_sampler_sys_free (GpSampler * s, GpSamplerSys * sys);

/* gp-sampler-tools.c: tool @i (0 tegrastats, 1 nvidia-smi): started when
 * in PATH, else registered absent (NULL). */
GpSamplerTool *gp_sampler_tool_new (GpSampler * s, guint i);
/* Its descriptors to poll (at most 2) into @fds: how many. */
guint gp_sampler_tool_fds (GpSamplerTool * t, struct pollfd *fds);
/* After a poll: reads what arrived; a child that ended is reaped, and
 * asked again without a refused field. */
void gp_sampler_tool_read (GpSampler * s, GpSamplerTool * t);
/* Stops the child (SIGTERM, a bounded wait, SIGKILL), reaps it, writes
 * the source's detail and adds its CPU time to s->children_cpu_s. */
void gp_sampler_tool_stop (GpSampler * s, GpSamplerTool * t);
void gp_sampler_tool_free (GpSamplerTool * t);

G_END_DECLS
#endif /* __GP_SAMPLER_PRIVATE_H__ */
