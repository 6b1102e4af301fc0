/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof fuzzing
 *
 * gp-fuzz-checks.h: what every reader's fuzz target asserts, in one place
 * (header-only: each target is one clang command line, tests/fuzz/
 * run-fuzz.sh). A broken promise aborts, which libFuzzer reports with the
 * input that broke it.
 */
#ifndef __GP_FUZZ_CHECKS_H__
#define __GP_FUZZ_CHECKS_H__

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "core/gp-session.h"

/* A refusal is one line that starts with the file's name (@origin), in
 * GP_SESSION_ERROR's domain when @session_domain. */
static inline void
gp_fuzz_check_error (const GError * err, const gchar * origin,
    gboolean session_domain)
{
  if (err == NULL || (session_domain && err->domain != GP_SESSION_ERROR) ||
      !g_str_has_prefix (err->message, origin) ||
      strchr (err->message, '\n') != NULL) {
    g_printerr ("bad error: %s\n", err != NULL ? err->message : "(none)");
    abort ();
  }
}

/* A figure a reader let into the model is a number. */
static inline void
gp_fuzz_check_number (const gchar * what, gdouble v)
{
  if (!isfinite (v)) {
    g_printerr ("%s is not finite\n", what);
    abort ();
  }
}

/* Quantiles are numbers (-1: unknown), and p50 is not above p95. */
static inline void
gp_fuzz_check_quantiles (const gchar * what, const GpQuantiles * q)
{
  gp_fuzz_check_number (what, q->p50);
  gp_fuzz_check_number (what, q->p95);
  gp_fuzz_check_number (what, q->p99);
  gp_fuzz_check_number (what, q->max);
  if (q->p50 >= 0 && q->p95 >= 0 && q->p50 > q->p95 + 1e-9) {
    g_printerr ("%s: p50 %g above p95 %g\n", what, q->p50, q->p95);
    abort ();
  }
}

#endif /* __GP_FUZZ_CHECKS_H__ */
