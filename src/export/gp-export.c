/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-export.c: what every export shares: its error domain (each file is
 * written whole or not at all by core's gp-file).
 */
#include "gp-export.h"


G_DEFINE_QUARK (gp-export-error-quark, gp_export_error);
