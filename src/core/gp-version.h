/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof: gp-version.h */
#ifndef __GP_VERSION_H__
#define __GP_VERSION_H__
#include <glib.h>
G_BEGIN_DECLS
const gchar *gp_version (void);
G_END_DECLS
#endif
