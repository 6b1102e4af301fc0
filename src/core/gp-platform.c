/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-platform.c: what machine this is (gp-platform.h), asked one way for
 * the session a run writes, `gstprof check` and every later room.
 */
#include "gp-platform.h"

#include <gio/gio.h>
#include <string.h>

/* A vendor tool that hangs (a wedged GPU driver can make nvidia-smi block)
 * must not hang the check. */
#define GP_PLATFORM_COMMAND_TIMEOUT_S 5

typedef struct
{
  gboolean done, ok, timed_out, exited;
  gint status;
  gchar *out;
} GpPlatformCmd;

static void
gp_platform_cmd_done (GObject * source, GAsyncResult * res, gpointer user_data)
{
  GpPlatformCmd *c = user_data;
  GSubprocess *p = G_SUBPROCESS (source);

  if (g_subprocess_communicate_utf8_finish (p, res, &c->out, NULL, NULL)) {
    c->exited = g_subprocess_get_if_exited (p);
    c->status = c->exited ? g_subprocess_get_exit_status (p) : -1;
    c->ok = c->exited && c->status == 0;
  }
  c->done = TRUE;
}

static gboolean
gp_platform_cmd_timeout (gpointer user_data)
{
  GpPlatformCmd *c = user_data;

  c->timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs @argv for at most the bound: what it printed and how it exited. */
static void
gp_platform_cmd_run (const gchar * const *argv, GpPlatformCmd * c)
{
  GMainContext *ctx;
  GSubprocess *p;
  GSource *timeout;

  p = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE |
      G_SUBPROCESS_FLAGS_STDERR_SILENCE, NULL);
  if (p == NULL)
    return;

  ctx = g_main_context_new ();
  g_main_context_push_thread_default (ctx);
  g_subprocess_communicate_utf8_async (p, NULL, NULL, gp_platform_cmd_done, c);
  timeout = g_timeout_source_new_seconds (GP_PLATFORM_COMMAND_TIMEOUT_S);
  g_source_set_callback (timeout, gp_platform_cmd_timeout, c, NULL);
  g_source_attach (timeout, ctx);
  while (!c->done && !c->timed_out)
    g_main_context_iteration (ctx, TRUE);
  if (!c->done) {
    g_subprocess_force_exit (p);
    while (!c->done)
      g_main_context_iteration (ctx, TRUE);
    c->ok = c->exited = FALSE;
  }
  g_source_destroy (timeout);
  g_source_unref (timeout);
  g_main_context_pop_thread_default (ctx);
  g_main_context_unref (ctx);
  g_object_unref (p);
}

gboolean
gp_platform_run (const gchar * const *argv, gchar ** out)
{
  GpPlatformCmd c = { FALSE, FALSE, FALSE, FALSE, -1, NULL };

  gp_platform_cmd_run (argv, &c);
  if (out && c.ok)
    *out = c.out;
  else
    g_free (c.out);
  if (out && !c.ok)
    *out = NULL;
  return c.ok;
}

gboolean
gp_platform_ask (const gchar * const *argv, gchar ** out, gint * status)
{
  GpPlatformCmd c = { FALSE, FALSE, FALSE, FALSE, -1, NULL };

  gp_platform_cmd_run (argv, &c);
  if (status)
    *status = c.status;
  if (out)
    *out = c.exited ? c.out : NULL;
  if (!out || !c.exited)
    g_free (c.out);
  return c.exited;
}

gchar *
gp_platform_detect (gchar ** detail)
{
  gchar *model = NULL, *release = NULL, *smi = NULL, *smi_path;
  const gchar *smi_argv[] = { "nvidia-smi", "-L", NULL };

  if (detail)
    *detail = NULL;

  if (g_file_test ("/etc/nv_tegra_release", G_FILE_TEST_EXISTS)) {
    if (detail) {
      gchar **lines;

      /* The device-tree model is NUL-terminated; g_strstrip keeps it a
       * plain string. The first line of nv_tegra_release names the L4T
       * release ("# R36 (release), REVISION: 4.0, ..."). */
      if (g_file_get_contents ("/proc/device-tree/model", &model, NULL, NULL))
        g_strstrip (model);
      if (g_file_get_contents ("/etc/nv_tegra_release", &release, NULL,
              NULL)) {
        lines = g_strsplit (release, "\n", 2);
        g_free (release);
        release = g_strdup (g_strstrip (g_strdelimit (lines[0], "#", ' ')));
        g_strfreev (lines);
      }
      *detail = g_strdup_printf ("%s%s%s", model && *model ? model :
          "board model unknown", release ? ", L4T " : "",
          release ? release : "");
    }
    g_free (model);
    g_free (release);
    return g_strdup ("jetson");
  }

  smi_path = g_find_program_in_path ("nvidia-smi");
  g_free (smi_path);
  if (smi_path == NULL)
    return g_strdup ("generic");
  if (gp_platform_run (smi_argv, &smi) && smi && strstr (smi, "GPU")) {
    if (detail) {
      gchar **lines = g_strsplit (smi, "\n", 2);

      *detail = g_strdup (g_strstrip (lines[0]));
      g_strfreev (lines);
    }
    g_free (smi);
    return g_strdup ("dgpu");
  }
  g_free (smi);
  return g_strdup ("generic");
}

/* The value of the first "@key : value" line of @text, or NULL. */
static gchar *
gp_platform_cpuinfo_value (const gchar * text, const gchar * key)
{
  gchar **lines = g_strsplit (text, "\n", -1), *value = NULL;
  guint i;

  for (i = 0; lines[i] && value == NULL; i++) {
    gchar *colon = strchr (lines[i], ':');

    if (colon == NULL)
      continue;
    *colon = '\0';
    if (strcmp (g_strstrip (lines[i]), key) == 0 && *g_strstrip (colon + 1))
      value = g_strdup (colon + 1);
  }
  g_strfreev (lines);
  return value;
}

gchar *
gp_platform_cpu (void)
{
  gchar *info = NULL, *model = NULL, *out;

  g_file_get_contents ("/proc/cpuinfo", &info, NULL, NULL);
  if (info)
    model = gp_platform_cpuinfo_value (info, "model name");
  if (model == NULL && g_file_get_contents ("/proc/device-tree/model", &model,
          NULL, NULL))
    g_strstrip (model);
  if ((model == NULL || *model == '\0') && info) {
    gchar *impl = gp_platform_cpuinfo_value (info, "CPU implementer");
    gchar *part = gp_platform_cpuinfo_value (info, "CPU part");

    g_free (model);
    model = impl && part ? g_strdup_printf ("CPU implementer %s part %s",
        impl, part) : NULL;
    g_free (impl);
    g_free (part);
  }
  out = g_strdup_printf ("%s, %d CPUs", model && *model ? model :
      "unknown CPU", g_get_num_processors ());
  g_free (model);
  g_free (info);
  return out;
}
