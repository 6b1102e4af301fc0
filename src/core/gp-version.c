/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof: gp-version.c: the version the binary and the session report. */
#include "gp-config.h"
#include "gp-version.h"

const gchar *
gp_version (void)
{
  return GP_VERSION;
}
