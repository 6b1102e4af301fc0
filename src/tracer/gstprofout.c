/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gstprofout.c: `out`, the records the tracer writes by itself.
 *
 * GST_TRACERS="gstprof(out=DIR)" makes the tracer append its own records
 * to DIR/gstprof-PID.records (the format is in src/core/gp-record.h), for
 * programs that only an environment variable can reach (a systemd unit, a
 * container). `gstprof analyze DIR` folds the file into a session and a
 * verdict as `run` would.
 *
 * Everything here runs on the timer thread under emit_lock, or at the end
 * (gp_out_close) when no timer runs any more: each record is one line
 * handed to one write () on an O_APPEND descriptor, so a program killed at
 * any moment leaves whole lines up to the last window it closed.
 */
#include "gstprofprivate.h"

#define GST_CAT_DEFAULT gst_prof_debug

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "core/gp-record.h"


/* Appends @s as one line; FALSE (warned once) when the file cannot take
 * it, after which nothing more is written. */
static gboolean
gp_out_write (GstProfTracer * self, const GstStructure * s)
{
  gchar *text = gst_structure_to_string (s);
  gsize len = strlen (text);
  gssize n;

  text = g_realloc (text, len + 2);
  text[len++] = '\n';
  text[len] = '\0';
  do
    n = write (self->out_fd, text, len);
  while (n < 0 && errno == EINTR);
  g_free (text);
  if (n != (gssize) len) {
    g_warning ("gstprof: out: cannot write to %s: %s; no more records",
        self->out_dir, n < 0 ? g_strerror (errno) : "short write");
    close (self->out_fd);
    self->out_fd = -1;
    return FALSE;
  }
  self->out_bytes += len;
  return TRUE;
}

/* The program's command line, NUL-separated in /proc/self/cmdline. */
static void
gp_out_add_program (GstStructure * header)
{
  GValue list = G_VALUE_INIT;
  gchar *cmdline = NULL;
  gsize len = 0, i = 0;

  g_value_init (&list, GST_TYPE_LIST);
  if (g_file_get_contents ("/proc/self/cmdline", &cmdline, &len, NULL)) {
    while (i < len) {
      GValue v = G_VALUE_INIT;

      g_value_init (&v, G_TYPE_STRING);
      g_value_set_string (&v, cmdline + i);
      gst_value_list_append_and_take_value (&list, &v);
      i += strlen (cmdline + i) + 1;
    }
  }
  g_free (cmdline);
  gst_structure_take_value (header, GP_FH_PROGRAM, &list);
}

void
gp_out_open (GstProfTracer * self)
{
  GDateTime *now = g_date_time_new_now_utc ();
  gchar *name, *path, *started;
  GstStructure *header;
  guint major, minor, micro, nano;
  gchar *version;

  self->out_fd = -1;
  if (self->out_dir == NULL || *self->out_dir == '\0')
    goto done;
  if (g_mkdir_with_parents (self->out_dir, 0755) != 0) {
    g_warning ("gstprof: out: cannot make folder %s: %s", self->out_dir,
        g_strerror (errno));
    goto done;
  }
  name = g_strdup_printf (GP_RECORDS_FILE_PREFIX "%u" GP_RECORDS_FILE_SUFFIX,
      (guint) getpid ());
  path = g_build_filename (self->out_dir, name, NULL);
  g_free (name);
  self->out_fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND |
      O_CLOEXEC, 0644);
  if (self->out_fd < 0) {
    g_warning ("gstprof: out: cannot write %s: %s", path, g_strerror (errno));
    g_free (path);
    goto done;
  }
  GST_INFO_OBJECT (self, "writing records to %s", path);
  g_free (path);

  gst_version (&major, &minor, &micro, &nano);
  version = g_strdup_printf ("%u.%u.%u", major, minor, micro);
  started = g_date_time_format (now, "%Y-%m-%dT%H:%M:%SZ");
  header = gst_structure_new (GP_RECORD_FILE_HEADER,
      GP_FH_VERSION, G_TYPE_UINT, 1,
      GP_FH_PID, G_TYPE_UINT, (guint) getpid (),
      GP_FH_HOST, G_TYPE_STRING, g_get_host_name (),
      GP_FH_STARTED, G_TYPE_STRING, started,
      GP_FH_T0, G_TYPE_UINT64, gp_now (self),
      GP_FH_GSTREAMER, G_TYPE_STRING, version,
      GP_FH_WINDOW_MS, G_TYPE_UINT, self->window_ms,
      GP_FH_CPU, G_TYPE_BOOLEAN, self->cpu, NULL);
  gp_out_add_program (header);
  gp_out_write (self, header);
  gst_structure_free (header);
  g_free (started);
  g_free (version);
  /* no graph written yet */
  self->out_topo_gen = -1;

done:
  g_date_time_unref (now);
}

void
gp_out_window (GstProfTracer * self, const GstStructure * w)
{
  gint gen;

  if (self->out_fd < 0)
    return;
  if (self->out_bytes >= GP_RECORDS_MAX_BYTES) {
    if (self->out_dropped++ == 0) {
      GstStructure *full = gst_structure_new_empty (GP_RECORD_FILE_FULL);

      gp_out_write (self, full);
      gst_structure_free (full);
    }
    return;
  }
  /* the graph before the first window that may name what changed */
  g_mutex_lock (&self->state_lock);
  gen = self->topo_gen;
  g_mutex_unlock (&self->state_lock);
  if (gen != self->out_topo_gen) {
    GstStructure *graph = gp_graph_snapshot (self);

    self->out_topo_gen = gen;
    if (graph != NULL) {
      if (!gp_out_write (self, graph)) {
        gst_structure_free (graph);
        return;
      }
      gst_structure_free (graph);
    }
  }
  if (gp_out_write (self, w))
    self->out_windows++;
}

void
gp_out_close (GstProfTracer * self)
{
  GstStructure *end;

  if (self->out_fd < 0)
    return;
  end = gst_structure_new (GP_RECORD_FILE_END,
      GP_FE_WINDOWS, G_TYPE_UINT64, self->out_windows,
      GP_FE_DROPPED, G_TYPE_UINT64, self->out_dropped, NULL);
  gp_out_write (self, end);
  gst_structure_free (end);
  if (self->out_fd >= 0) {
    fsync (self->out_fd);
    close (self->out_fd);
    self->out_fd = -1;
  }
}
