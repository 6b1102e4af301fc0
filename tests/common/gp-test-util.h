/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * gp-test-util.h: what several test programs need alike: whether the
 * tracer plugin of this build tree exists, a capture of a real pipeline
 * that must succeed, the real Jetson/PC captures in GP_FIXTURES, the
 * gstprof binary run once, media files, a finding's fix and evidence, and
 * a chain made by hand as GStreamer names its elements.
 */
#ifndef __GP_TEST_UTIL_H__
#define __GP_TEST_UTIL_H__

#include <gio/gio.h>

#include "capture/gp-capture.h"
#include "core/gp-session.h"
#include "gp-test-clock.h"

G_BEGIN_DECLS

/* TRUE when libgstprof.so is built in this tree; otherwise marks the
 * running test skipped. A built plugin that does not load is a failure of
 * the capture, not a skip. */
gboolean gp_test_have_tracer (void);

/* TRUE when GStreamer has element @factory; otherwise marks the running
 * test skipped ("@factory is not installed"). */
gboolean gp_test_have_element (const gchar * factory);

/* Captures @launch with @base's options for @duration_s; asserts that it
 * ran. @end may be NULL. Rules are not run. */
GpSession *gp_test_capture (const GpCaptureOptions * base,
    const gchar * launch, gdouble duration_s, GpCaptureEnd * end);

/* @argv (NULL-terminated) run under gstprof wrap, as `gstprof wrap`
 * would: to its end, or stopped after @duration_s when > 0; asserts that
 * it ran and did not fail on its own. This process's debug log is left out
 * of the program's environment (it starts through env -u GST_DEBUG).
 * Rules are not run. */
GpSession *gp_test_wrap (gchar ** argv, gdouble duration_s);

/* A gst-profile capture from $GP_FIXTURES/gst-profile-sessions; asserts it
 * loads. Rules are not run. */
GpSession *gp_test_load_fixture (const gchar * name);

/* Logs a multi-line @text as TAP comments, one "# " line each (GLib
 * before 2.68 prefixes only the first line of a g_test_message, and the
 * rest breaks the TAP stream). */
void gp_test_message_text (const gchar * text);
/* The same for a formatted text (a command's output in it). */
void gp_test_message_lines (const gchar * format, ...) G_GNUC_PRINTF (1, 2);

/* @dir/session.json, which must load. */
GpSession *gp_test_load_session_dir (const gchar * dir);

/* @text holds @needle; fails the test otherwise, quoting @text. */
void gp_test_assert_has (const gchar * text, const gchar * needle);

/* @text (a command's stderr) is exactly one line, ending in a newline, and
 * holds @needle (when not NULL); fails the test otherwise, quoting it. */
void gp_test_assert_one_line (const gchar * text, const gchar * needle);

/* An X display for GL and video sinks: the caller's DISPLAY, else an Xvfb
 * of our own on a free display number (stopped by gp_test_stop_display, or
 * when an assertion aborts). FALSE, with the running test marked skipped,
 * when there is neither. */
gboolean gp_test_have_display (void);
void gp_test_stop_display (void);

/* Which share of a long table of cases this run takes: `--part=K/N` in
 * @argv (1 <= K <= N) takes the K-th of N runs of about equal length,
 * so that meson runs them side by side, each within its timeout; no
 * `--part` takes them all. gp_test_in_part (i, len) says whether case @i
 * of @len is this run's. A bad value is an error naming it. */
void gp_test_parse_part (gint argc, gchar ** argv);
gboolean gp_test_in_part (guint i, guint len);

/* Under a sanitizer (gp_test_sanitized ()): Mesa's software GL driver
 * (swrast_dri.so, what GALLIUM_DRIVER=softpipe runs) loaded now and never
 * unloaded. Mesa unloads it when GStreamer's GL display closes, before
 * LeakSanitizer looks at exit; the blocks it keeps for the process's life
 * are then reachable from nowhere, reported as leaks with every frame in
 * an unknown module. Kept loaded, its globals still hold them. Call once
 * before a GL pipeline runs; nothing outside a sanitized build. */
void gp_test_keep_gl_driver (void);

/* A GSpawnChildSetupFunc for every helper a test starts (a pipeline, a
 * browser, an X server): the kernel kills the helper when the test process
 * dies, also when an assertion aborts it or meson's timeout kills it, so no
 * test leaves one running. Spawn with G_SPAWN_DO_NOT_REAP_CHILD (and reap):
 * without it GLib's intermediate process, which exits at once, would be
 * the parent. */
void gp_test_child_dies_with_us (gpointer unused);

/* A port on loopback nothing listens on now (bound and let go) for @type:
 * G_SOCKET_TYPE_DATAGRAM (UDP) or G_SOCKET_TYPE_STREAM (TCP). */
guint gp_test_free_port (GSocketType type);

/* The same, with the helper leading a process group of its own, so that
 * gp_test_end_group () ends it and every process it started. */
void gp_test_child_own_group (gpointer unused);

/* Ends the process group @pid leads (SIGKILL) and reaps @pid; 0 is none.
 * For a helper started with gp_test_child_own_group and
 * G_SPAWN_DO_NOT_REAP_CHILD. */
void gp_test_end_group (GPid pid);

/* Longest a headless Chromium may take to print the page: about 10 s on a
 * loaded 2-core machine; past this it is stuck (it has been seen spinning
 * at 99 % of a core) and the test fails instead of waiting for meson. */
#define GP_CHROMIUM_TIMEOUT_S 120

/* Headless Chromium (@chromium, its path) dumping the DOM of @url
 * (--dump-dom) with the network off (no name resolves, no proxy answers),
 * run in folder @dir, its outputs kept there
 * (chromium.out, chromium.err): what it printed (its stderr in @err, its
 * wait status in @status). Chromium leads a process group of its own, its
 * renderer, GPU and zygote processes in it: the whole group is killed when
 * its main process has exited or after GP_CHROMIUM_TIMEOUT_S (the test
 * fails then), and by the kernel when the test dies first. It runs
 * without the sanitizer runtime tools/run-asan.sh preloads into other
 * programs. */
gchar *gp_test_chromium_dump_dom (const gchar * chromium, const gchar * dir,
    const gchar * url, gchar ** err, gint * status);

/* Chromium does not run under emulation (gp_test_emulated ()): under
 * qemu-user its GPU process fails to launch ("GPU process launch failed:
 * error_code=1002", then "GPU process isn't usable. Goodbye." and an
 * abort, status 6) and --single-process ends on a trap; its crash handler
 * finds no ptrace there.  TRUE, with the test skipped and the reason,
 * when emulated and the dump above failed (@status not 0); natively it
 * is FALSE, and the test's own check fails. */
gboolean gp_test_chromium_skip_emulated (gint status, const gchar * err);

/* The gstprof binary ($GSTPROF_BIN) run once: its exit code (128 + the
 * signal when one killed it), what it printed, how long it took, and as
 * the kernel counted them (wait4 ()), the CPU it used (user and system)
 * and its largest resident set. */
typedef struct
{
  gint code;
  gchar *out;
  gchar *err;
  gdouble wall_s;
  gdouble cpu_s;
  glong maxrss_kib;
} GpTestRun;

/* Runs $GSTPROF_BIN with the NULL-terminated arguments in folder @cwd. */
void gp_test_run_gstprof (GpTestRun * r, const gchar * cwd,
    const gchar * first, ...) G_GNUC_NULL_TERMINATED;
/* The same with the arguments in a NULL-terminated array. */
void gp_test_run_gstprof_argv (GpTestRun * r, const gchar * cwd,
    const gchar * const *args);
void gp_test_run_clear (GpTestRun * r);
/* `gstprof @cmd @args...` (NULL-terminated) refused as bad input: exit 3,
 * one line on stderr that says @said. */
void gp_test_expect_usage (const gchar * cwd, const gchar * cmd,
    const gchar * const *args, const gchar * said);
/* `gstprof run --quiet --out @tmp/run LAUNCH`, run once per process (0 or
 * 1: a planted cost may well be a finding): the session's folder. */
const gchar *gp_test_run_once (const gchar * tmp, const gchar * launch);
/* A wait status as an exit code: the exit status, 128 + the signal that
 * killed it, else -1. */
gint gp_test_exit_code (gint status);

/* Runs @launch to its EOS (making a media file); asserts it got there. */
void gp_test_make_media (const gchar * launch);

/* @dir/@name: an H.264 + AAC mp4 of @seconds (320x240 I420 at 30/1, AAC
 * at 44.1 kHz), made when it is not there yet. Newly allocated. */
gchar *gp_test_av_mp4 (const gchar * dir, const gchar * name,
    guint seconds);

/* The session's launch string with @f's fix_patch applied (asserts that
 * it applies), logged as "patched: ..."; newly allocated. */
gchar *gp_test_patched (GpSession * s, GpFinding * f);

/* A member of @f's evidence, which must be there. */
gdouble gp_test_evidence_double (GpFinding * f, const gchar * key);
gint64 gp_test_evidence_int (GpFinding * f, const gchar * key);
const gchar *gp_test_evidence_string (GpFinding * f, const gchar * key);

/* Logs every finding of @s: rule, severity, title, rank and evidence. */
void gp_test_print_findings (GpSession * s);

/* Puts @dir first in PATH, where a test's stand-in tools are; returns the
 * PATH it replaced, for gp_test_path_restore (). */
gchar *gp_test_path_prepend (const gchar * dir);
/* Sets PATH back to @old (from gp_test_path_prepend) and frees it. */
void gp_test_path_restore (gchar * old);

/* Removes @dir and everything in it. */
void gp_test_remove_tree (const gchar * dir);

/* The text of @dir/@name, or NULL when it cannot be read; g_free () it. */
gchar *gp_test_read_file (const gchar * dir, const gchar * name);

/* A warning from gstprof among @s's events holds @part. */
gboolean gp_test_has_note (GpSession * s, const gchar * part);

/* Every share @s gives is one that can be: each element's busy share and
 * share of the work, and each thread's busy share (the verdict's "busy N %
 * of the run"), at most 100 %; @what names the input in the messages. */
void gp_test_assert_shares (GpSession * s, const gchar * what);

/* The element @name of @s: @buffers buffers (at least that many unless
 * @exact), its self time p50 within 0.5 ms of the planted @sleep_ms as
 * this machine sleeps it (gp_test_oversleep_ms ()). */
void gp_test_assert_planted (GpSession * s, const gchar * name,
    guint64 buffers, gboolean exact, gdouble sleep_ms);

G_END_DECLS

#endif /* __GP_TEST_UTIL_H__ */
