/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-platform.h: the platform probe: a Jetson (its L4T release file), a
 * machine with an NVIDIA GPU (nvidia-smi lists one), or generic; and the
 * bounded way vendor tools are asked (a wedged GPU driver can make
 * nvidia-smi block).
 */
#ifndef __GP_PLATFORM_H__
#define __GP_PLATFORM_H__

#include <glib.h>

G_BEGIN_DECLS

/* "jetson", "dgpu" or "generic"; @detail (may be NULL) receives the board
 * model and L4T release, or the GPU name, or NULL. A machine with
 * nvidia-smi but no GPU it can list is generic. */
gchar *gp_platform_detect (gchar ** detail);

/* The CPU as /proc/cpuinfo names it ("model name" on x86; on arm64 the
 * device tree's model, else the first core's implementer and part), and
 * how many CPUs this process may run on: "Intel(R) Xeon(R) ..., 2 CPUs".
 * A new string; "unknown CPU, N CPUs" when nothing names it. */
gchar *gp_platform_cpu (void);

/* Runs @argv for at most 5 s; TRUE when it exited 0. @out (may be NULL)
 * receives its stdout. */
gboolean gp_platform_run (const gchar * const *argv, gchar ** out);
/* The same bound, whatever the exit status (a tool that refuses its
 * arguments says why on stdout): TRUE when it exited in time; @out (may be
 * NULL) receives its stdout then, @status (may be NULL) its exit status
 * (-1 when it did not exit). */
gboolean gp_platform_ask (const gchar * const *argv, gchar ** out,
    gint * status);

G_END_DECLS

#endif /* __GP_PLATFORM_H__ */
