/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-procfs: the few kernel texts the machine samplers read, each taken
 * apart by a function that trusts nothing of it (tests/fuzz/fuzz-procfs):
 * a `cpu` line of /proc/stat, a key of /proc/meminfo or /proc/PID/status,
 * /proc/PID/task/TID/stat, and a sysfs attribute's number. Plain C over
 * bytes with a length: no NUL needed, none allocated. */
#ifndef __GP_PROCFS_H__
#define __GP_PROCFS_H__

#include <glib.h>

G_BEGIN_DECLS

/* The longest thread name the kernel keeps (TASK_COMM_LEN, with its
 * NUL). */
#define GP_PROCFS_COMM_MAX 16

/* One line of /proc/stat (@len bytes, no newline needed): TRUE when it is
 * `cpu` (@cpu -1, the machine) or `cpuN` (@cpu N), with its busy and total
 * time in clock ticks: total is user + nice + system + idle + iowait + irq
 * + softirq + steal (guest time is already in user), busy is total less
 * idle and iowait. A line with fewer than the first four numbers is not
 * one. */
gboolean gp_procfs_stat_cpu (const gchar * line, gsize len, gint * cpu,
    guint64 * busy, guint64 * total);

/* The number after `KEY:` at the start of a line of @text (/proc/meminfo,
 * /proc/PID/status: kB), or FALSE when no line has it. */
gboolean gp_procfs_kib (const gchar * text, gsize len, const gchar * key,
    guint64 * kib);

/* /proc/PID/task/TID/stat: the thread's name (between the first '(' and
 * the last ')', cut to GP_PROCFS_COMM_MAX - 1 bytes, non-printable bytes
 * as '?') into @comm, and utime + stime (fields 14 and 15) in clock ticks. */
gboolean gp_procfs_task_stat (const gchar * text, gsize len,
    gchar comm[GP_PROCFS_COMM_MAX], guint64 * ticks);

/* The first field of /proc/PID/task/TID/schedstat: ns on the CPU. */
gboolean gp_procfs_schedstat (const gchar * text, gsize len, guint64 * ns);

/* A sysfs attribute holding one integer ("52562\n", "-256000"): FALSE when
 * it holds anything else. */
gboolean gp_procfs_number (const gchar * text, gsize len, gint64 * v);

/* A sysfs attribute holding a word ("passive\n", "VDD_IN\n"): the text
 * cut to @size - 1 bytes, without the whitespace at its end, into @out
 * (non-printable bytes as '?'); FALSE when nothing is left. */
gboolean gp_procfs_word (const gchar * text, gsize len, gchar * out,
    gsize size);

G_END_DECLS
#endif /* __GP_PROCFS_H__ */
