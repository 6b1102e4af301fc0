#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# `make soak`: an hour of 30 fps frames (108,000 buffers through every
# element), sped up (no sync, 64x48 buffers), with the tracer and the
# machine samplers on, twice: once in `gstprof run`, once as gst-launch-1.0
# under `gstprof wrap` (its records through wrap's socket). Not part of
# `make test`: it holds gstprof to what a long run needs.
#
# Checked, each against /proc or the session files themselves:
# - memory: VmRSS and VmHWM of gstprof and of the traced process, from
#   /proc/PID/status, once warmed up (ten minutes' worth of buffers gone
#   through, the series at its bound) and at the end of the pipeline (run:
#   its last checkpoint; wrap: the traced program's last sample): growth
#   under SOAK_MAX_GROWTH_KIB. What gstprof takes after that to build and
#   write the final session is printed apart (it grows with the machine's
#   samples, hence with wall time, not with buffers);
# - the last window agrees with the first: per element, the median self
#   time per buffer in the session's last series entry within SOAK_RATIO of
#   the first's (or SOAK_ABS_MS apart: a few microseconds are noise);
# - the session does not grow with the run: `run`'s checkpoint written after
#   ten minutes' worth of buffers against the final session.json: the
#   series at most 240 entries, its bytes per entry and the rest of the
#   session no more than SOAK_SIZE_PCT larger, less what only the final one carries (the machine's
#   samples, which grow with wall time up to their bound, and findings).
# - the live panel's server (--serve, where the build has it) all along:
#   SOAK_READERS event streams read to the end, one opened and closed again
#   and again, /metrics and /api/state scraped each second: every reader
#   gets windows until the end, every scrape answers, and gstprof's memory
#   above is measured with them; beside them SOAK_IDLE connections held
#   open doing nothing and SOAK_SLOW sending a request a byte a second,
#   each opened again when the server closes it (at most SOAK_REOPEN a
#   second): the readers and scrapes as before, gstprof's descriptors
#   bounded, and run's checkpoints every 2 s all along (the largest gap).
# Prints the figures; exits 1 when a check fails, 3 on bad usage.
#
# Usage: tools/soak.sh [BUILD_DIR]   (SOAK_BUFFERS=N for another length;
# SOAK_KEEP=1 keeps the sessions, the 10-minute checkpoint beside them)
BUILD=${1:-build}
GSTPROF="$BUILD/src/cli/gstprof"
if [ ! -x "$GSTPROF" ]; then
  echo "soak: $GSTPROF: not built (make build)" >&2
  exit 3
fi
command -v gst-launch-1.0 >/dev/null || { echo "soak: no gst-launch-1.0" >&2; exit 3; }
export GST_PLUGIN_PATH="$BUILD/src/tracer${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
exec python3 - "$GSTPROF" <<'PY'
import json, os, resource, shutil, socket, subprocess, sys, tempfile, threading, time

GSTPROF = os.path.abspath(sys.argv[1])
# an hour at 30 fps
BUFFERS = int(os.environ.get("SOAK_BUFFERS", 30 * 3600))
# ten minutes at 30 fps: warmed up, and the checkpoint the end is held to
WARM = BUFFERS // 6
# the bound of the issue: flat memory over the hour, to 2 MiB
MAX_GROWTH_KIB = int(os.environ.get("SOAK_MAX_GROWTH_KIB", 2048))
# the first and last windows' self time per buffer: a few microseconds a
# buffer, on a machine shared with other work, vary by up to 2x
RATIO = float(os.environ.get("SOAK_RATIO", 2.0))
# or 50 us apart: a queue's push costs 4 us while its thread is awake and
# 20 us when it must be woken, and which a window sees varies
ABS_MS = float(os.environ.get("SOAK_ABS_MS", 0.05))
# the final session no larger than the checkpoint, but for this much, in
# its parts: the series' entries (at most 240; between 120 and 240 once
# the oldest half is merged pairwise, so the count is held to the bound
# and the bytes per entry to the checkpoint's) and the rest
SIZE_PCT = float(os.environ.get("SOAK_SIZE_PCT", 10.0))
# Windows: 20 ms for run. wrap: 100 ms, below which its session held one
# window for the whole run (gstprof wrap --window 50ms, GStreamer 1.22: one
# series entry).
WINDOW = {"run": 0.02, "wrap": 0.1}
# The series keeps 240 entries, then merges the oldest pairwise
# (GP_AGGREGATE_MAX_SERIES): an hour at 250 ms windows reaches that bound
# in its first minute, long before ten minutes. Sped up, the bound comes at
# 240 windows of wall time: warm-up ends no sooner than that, and a little
# after (one checkpoint, 2 s).
MAX_SERIES = 240
# With the panel's server, its state keeps 256 samples of each machine
# series (GP_SERVE_MACHINE_MAX), one a window, and is made again every 2 s
# (GP_SERVE_RULES_S): warm once it holds them and was made twice since.
STATE_MACHINE_MAX = 256
STATE_TAKE_S = 2.0
SETTLE_S = 2.0
# identity sleeps 300 us a buffer: about 3,000 buffers a second (100x an
# hour's rate), long enough for wrap's 100 ms windows to reach the bound
# by ten minutes' worth of buffers
PIPE = ("videotestsrc num-buffers=%d ! video/x-raw,width=64,height=48,"
        "framerate=30/1 ! identity sleep-time=300 ! tee name=t ! queue ! "
        "identity ! fakesink sync=false t. ! queue ! fakesink sync=false"
        % BUFFERS)
POLL_S = 0.1
# event streams read all along, beside the one that comes and goes
READERS = int(os.environ.get("SOAK_READERS", 3))
# connections held idle, and sending their request a byte a second, beside
# the readers; those the server closes are opened again, at most this many
# a second (a flood of new connections is another test: /serve/connections)
IDLE = int(os.environ.get("SOAK_IDLE", 1000))
SLOW = int(os.environ.get("SOAK_SLOW", 50))
REOPEN = int(os.environ.get("SOAK_REOPEN", 100))
# run's checkpoints come every 2 s (GpCaptureOptions.checkpoint_s): the
# largest gap between two allowed, on a shared machine
CHECKPOINT_GAP_S = 5.0
# the holders open at most REOPEN a second: warm once they have had this
# long to bring the server's connections to its cap
HOLD_WARM_S = 20.0

failures = []


def status_kib(pid):
    """VmRSS and VmHWM of @pid in KiB, None once it is gone."""
    try:
        with open("/proc/%d/status" % pid) as f:
            d = dict(l.split(":", 1) for l in f if ":" in l)
        return int(d["VmRSS"].split()[0]), int(d["VmHWM"].split()[0])
    except (OSError, KeyError, ValueError):
        return None


def children(pid):
    """Processes whose parent is @pid (any of its threads started them)."""
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                stat = f.read()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            out.append(int(d))
    return out


def buffers(session):
    """Buffers each element has seen by this session: {name: n}."""
    els = (session.get("summary") or {}).get("elements") or {}
    return {k: v.get("buffers") or 0 for k, v in els.items()}


def source_buffers(session):
    return buffers(session).get("videotestsrc0", 0)


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def core_size(session):
    """The session's size as json.dumps writes it (the file's own layout
    varies), in two parts: (the rest, the series' entries, bytes per entry).
    Left out, what only the final session carries: the machine's samples
    (grown with wall time, to their bound) and the findings."""
    rest = len(json.dumps({k: v for k, v in session.items()
                           if k not in ("machine", "findings", "series")}))
    series = session.get("series") or []
    return (rest, len(series),
            len(json.dumps(series)) / len(series) if series else 0.0)


def per_buffer(entry):
    """Self time per buffer (ms) of each element in a series entry: the
    window's median, which one preempted buffer does not move."""
    out = {}
    for name, el in (entry.get("elements") or {}).items():
        if (el.get("buffers") or 0) > 0 and el.get("self_ms_p50") is not None:
            out[name] = el["self_ms_p50"]
    return out


def free_port():
    with socket.socket() as sk:
        sk.bind(("127.0.0.1", 0))
        return sk.getsockname()[1]


class Clients:
    """The panel's clients on 127.0.0.1:@port while the soak runs: event
    streams read to the end, one opened and closed again and again, and
    /metrics and /api/state scraped each second."""

    def __init__(self, port):
        self.port = port
        self.done = threading.Event()
        self.windows = [0] * READERS     # window events each reader read
        self.reopened = 0                # streams opened and closed
        self.scrapes = [0]               # answered 200
        self.failed_at = []              # when the others came
        self.ended_at = None             # gstprof exited (soak sets it)
        self.threads = [threading.Thread(target=self.reader, args=(i,))
                        for i in range(READERS)]
        self.threads += [threading.Thread(target=self.churner),
                         threading.Thread(target=self.scraper),
                         threading.Thread(target=self.holder,
                                          args=(IDLE, False)),
                         threading.Thread(target=self.holder,
                                          args=(SLOW, True))]
        self.held = {False: 0, True: 0}  # connections opened by holders
        self.fds_max = 0                 # gstprof's descriptors, sampled

    def connect(self):
        while not self.done.is_set():
            try:
                return socket.create_connection(("127.0.0.1", self.port), 1)
            except OSError:
                time.sleep(0.1)          # not listening yet
        return None

    def request(self, path):
        sk = self.connect()
        if sk is not None:
            sk.sendall(("GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n"
                        % (path, self.port)).encode())
        return sk

    def reader(self, i):
        while not self.done.is_set():
            sk = self.request("/api/events")
            if sk is None:
                return
            sk.settimeout(1)
            tail = b""
            while not self.done.is_set():
                try:
                    data = sk.recv(65536)
                except socket.timeout:
                    continue             # a quiet second
                except OSError:
                    break
                if not data:
                    # the stream ended: its last window counts, join again
                    self.windows[i] += tail.count(b"event: window\n")
                    break
                data = tail + data
                self.windows[i] += data.count(b"event: window\n")
                tail = data[-16:]
                self.windows[i] -= tail.count(b"event: window\n")
            sk.close()

    def churner(self):
        while not self.done.is_set():
            sk = self.request("/api/events")
            if sk is None:
                return
            sk.settimeout(5)
            try:
                sk.recv(4096)            # its state, or some of it
                self.reopened += 1
            except OSError:
                pass
            sk.close()
            time.sleep(0.05)

    def holder(self, n, slow):
        """@n connections held open: idle, or (@slow) sending a request a
        byte a second; those the server closed are opened again."""
        socks = []
        request = ("GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n"
                   % self.port).encode()
        while not self.done.is_set():
            alive = []
            for sk, sent in socks:
                try:
                    if sk.recv(4096, socket.MSG_DONTWAIT) == b"":
                        sk.close()
                        continue
                except BlockingIOError:
                    pass
                except OSError:
                    sk.close()
                    continue
                if slow and sent < len(request):
                    try:
                        sk.send(request[sent:sent + 1], socket.MSG_NOSIGNAL)
                        sent += 1
                    except OSError:
                        sk.close()
                        continue
                alive.append((sk, sent))
            socks = alive
            for _ in range(min(n - len(socks), REOPEN)):
                try:
                    sk = socket.create_connection(("127.0.0.1", self.port), 1)
                except OSError:
                    break
                socks.append((sk, 0))
                self.held[slow] += 1
            self.done.wait(1.0)
        for sk, _ in socks:
            sk.close()

    def scraper(self):
        while not self.done.wait(1.0):
            for path in ("/metrics", "/api/state"):
                sk = self.request(path)
                if sk is None:
                    return
                sk.settimeout(5)
                head = b""
                try:
                    while len(head) < 12:    # the status line's start
                        more = sk.recv(64)
                        if not more:
                            break
                        head += more
                except OSError:
                    pass
                # 503 until the first window; after it, 200 each time
                if head.startswith(b"HTTP/1.1 200"):
                    self.scrapes[0] += 1
                elif not head.startswith(b"HTTP/1.1 503"):
                    self.failed_at.append(time.monotonic())
                sk.close()

    def start(self):
        for t in self.threads:
            t.start()

    def stop(self):
        self.done.set()
        for t in self.threads:
            t.join()

    def report(self):
        check("event streams read", min(self.windows) > 0,
              "%d readers: %s windows each" % (READERS, " ".join(
                  str(n) for n in self.windows)))
        check("event streams opened and closed", self.reopened > 0,
              "%d" % self.reopened)
        print("  %-34s %d idle, %d slow: %d and %d opened in all"
              % ("connections held beside them", IDLE, SLOW,
                 self.held[False], self.held[True]))
        check("gstprof's descriptors", 0 < self.fds_max < 256,
              "at most %d while held" % self.fds_max)
        # (a scrape in flight as gstprof exits gets no answer: not counted)
        failed = [t for t in self.failed_at
                  if self.ended_at is None or t < self.ended_at - 1.0]
        check("scrapes of /metrics and /api/state", self.scrapes[0] > 0
              and not failed, "%d answered, %d failed"
              % (self.scrapes[0], len(failed)))


def has_serve():
    """Whether this build serves (libsoup 3): serve says so at once."""
    p = subprocess.run([GSTPROF, "serve", "/nonexistent/session.json"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    return "libsoup 3" not in p.stderr


def check(what, ok, text):
    print("  %-34s %s%s" % (what, text, "" if ok else "   FAIL"))
    if not ok:
        failures.append(what)


def soak(kind, argv, session_path, checkpoints):
    settled = (max(MAX_SERIES, STATE_MACHINE_MAX if SERVE else 0)
               * WINDOW[kind] + SETTLE_S + (2 * STATE_TAKE_S if SERVE else 0))
    # the held connections at their pressure: the server's connections
    # at its cap, their buffers allocated (a working set bounded by the
    # cap, not a leak: 8,000 connections opened and closed leave the
    # server within 50 KiB)
    if SERVE and IDLE + SLOW > 0:
        settled = max(settled, HOLD_WARM_S)
    """Runs @argv, samples memory of gstprof and the traced process, and
    checks the session at @session_path."""
    print("%s: %d buffers, gstprof %s" % (kind, BUFFERS, argv[1]))
    clients = None
    if SERVE:
        port = free_port()
        argv = argv[:2] + ["--serve", "--port", str(port)] + argv[2:]
        clients = Clients(port)
        clients.start()
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    procs = {"gstprof": p.pid}
    timeline = {}                 # who -> [(t, (rss, hwm))]
    checkpoint = None
    warm_t = None
    running_t = None              # the pipeline last seen running
    last_n = 0
    next_look = 0
    last_mtime = None
    gap_max = 0.0
    while p.poll() is None:
        if clients:
            try:
                clients.fds_max = max(clients.fds_max,
                                      len(os.listdir("/proc/%d/fd" % p.pid)))
            except OSError:
                pass
        if checkpoints:
            try:
                mtime = os.stat(session_path).st_mtime
            except OSError:
                mtime = None
            t = time.monotonic()
            if mtime is not None and mtime != (last_mtime or (None,))[0]:
                if last_mtime is not None:
                    gap_max = max(gap_max, t - last_mtime[1])
                last_mtime = (mtime, t)
        if kind == "wrap" and "traced" not in procs:
            for kid in children(p.pid):
                try:
                    with open("/proc/%d/cmdline" % kid, "rb") as f:
                        if b"gst-launch" in f.read():
                            procs["traced"] = kid
                except OSError:
                    pass
        now = time.monotonic() - t0
        if checkpoints and now >= next_look:
            next_look = now + 0.5
            s = load(session_path)
            # a checkpoint with more buffers than the last: still running
            if (s is not None
                    and (s.get("session") or {}).get("exit_code") == -1
                    and source_buffers(s) > last_n):
                last_n = source_buffers(s)
                running_t = now
            if (checkpoint is None and s is not None
                    and source_buffers(s) >= WARM and now >= settled):
                checkpoint = (core_size(s), source_buffers(s))
                warm_t = now
                if os.environ.get("SOAK_KEEP"):
                    shutil.copy(session_path, session_path + ".10min")
        for who, pid in procs.items():
            m = status_kib(pid)
            if m is not None:
                timeline.setdefault(who, []).append((now, m))
                if who == "traced":
                    running_t = now
        time.sleep(POLL_S)
    wall = time.monotonic() - t0
    err = p.stderr.read()
    if clients:
        clients.ended_at = t0 + wall
        clients.stop()
        clients.report()
    print("  %-34s %.1f s, exit %d" % ("wall time", wall, p.returncode))
    if checkpoints:
        check("checkpoints every 2 s", 0 < gap_max <= CHECKPOINT_GAP_S,
              "largest gap %.1f s (bound %.0f s)" % (gap_max,
                                                     CHECKPOINT_GAP_S))
    if p.returncode not in (0, 1):
        check("exit code", False, "%d: %s" % (p.returncode, err.strip()[-300:]))
        return
    s = load(session_path)
    if s is None:
        check("session", False, "%s: not written" % session_path)
        return
    counts = buffers(s)
    n = min(counts.values()) if counts else 0
    # the source's first buffer has no self time (nothing before it to
    # measure from): it counts one fewer
    check("buffers through every element",
          n >= BUFFERS - 1 and len(counts) >= 8,
          "%d of %d in the fewest of %d elements" % (n, BUFFERS, len(counts)))
    # warmed up: ten minutes' worth of buffers, when run's checkpoint said
    # so, else (wrap writes none) that share of the wall time
    if warm_t is None:
        warm_t = max(wall * WARM / BUFFERS, settled)
    # the end: the last sample while the pipeline still ran (run: its last
    # checkpoint; wrap: the traced program alive). What gstprof takes after
    # it, to build and write the final session, is shown apart.
    if running_t is None:
        running_t = wall
    for who in (["gstprof", "traced"] if kind == "wrap" else ["gstprof"]):
        line = timeline.get(who, [])
        warm = [x for x in line if warm_t <= x[0] <= running_t]
        if len(warm) < 2:
            check("memory " + who, False, "not sampled after warm-up")
            continue
        (tw, (rss0, hwm0)), (te, (rss1, hwm1)) = warm[0], warm[-1]
        steps = [line[min(len(line) - 1, len(line) * i // 10)]
                 for i in range(1, 11)]
        print("  %-34s %s" % ("RSS MiB " + who + " by tenths",
                              " ".join("%.1f" % (m[0] / 1024) for _, m in steps)))
        grow = max(rss1 - rss0, hwm1 - hwm0)
        check("memory %s (KiB, %.0f s -> %.0f s)" % (who, tw, te),
              grow < MAX_GROWTH_KIB,
              "RSS %d -> %d, HWM %d -> %d: +%d KiB (bound %d)"
              % (rss0, rss1, hwm0, hwm1, grow, MAX_GROWTH_KIB))
        print("  %-34s HWM %d KiB at exit (+%d KiB to write the session)"
              % ("memory " + who + " at exit", line[-1][1][1],
                 line[-1][1][1] - hwm1))
    # the first and last windows that measured something (the last one
    # after EOS may hold the elements with no buffer)
    series = [e for e in s.get("series") or []
              if any((el.get("buffers") or 0) > 0
                     for el in (e.get("elements") or {}).values())]
    if len(series) < 2:
        check("windows", False, "%d series entries" % len(series))
    else:
        a, b = per_buffer(series[0]), per_buffer(series[-1])
        for name in sorted(a):
            if name not in b:
                check("last window " + name, False, "absent")
                continue
            x, y = a[name] * 1000, b[name] * 1000
            ok = (abs(x - y) <= ABS_MS * 1000
                  or (min(x, y) > 0 and max(x, y) / min(x, y) <= RATIO))
            check("p50 us/buffer " + name, ok,
                  "first window %.2f, last %.2f" % (x, y))
    if checkpoints:
        rest, entries, per_entry = core_size(s)
        if checkpoint is None:
            check("checkpoint at 10 min", False, "none seen")
        else:
            (rest0, entries0, per_entry0), cn = checkpoint
            print("  %-34s %d buffers in; the end: %d buffers"
                  % ("checkpoint at 10 min", cn, n))
            pct = 100.0 * (rest - rest0) / rest0
            check("session less series (bytes)", pct <= SIZE_PCT,
                  "%d, at the end %d: %+.1f%% (bound +%.0f%%)"
                  % (rest0, rest, pct, SIZE_PCT))
            check("series entries", entries <= MAX_SERIES
                  and entries0 <= MAX_SERIES,
                  "%d, at the end %d (bound %d)" % (entries0, entries,
                                                    MAX_SERIES))
            pct = 100.0 * (per_entry - per_entry0) / per_entry0
            check("bytes per series entry", pct <= SIZE_PCT,
                  "%.0f, at the end %.0f: %+.1f%% (bound +%.0f%%)"
                  % (per_entry0, per_entry, pct, SIZE_PCT))
    return wall


SERVE = has_serve()


def main():
    # the held connections' descriptors, and the readers'
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = IDLE + SLOW + READERS + 256
    if soft < want and (hard == resource.RLIM_INFINITY or hard >= want):
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    if not SERVE:
        print("soak: this build has no server (libsoup 3): no panel clients")
    tmp = tempfile.mkdtemp(prefix="gstprof-soak-")
    try:
        run_dir = os.path.join(tmp, "run")
        soak("run", [GSTPROF, "run", "--duration", "0", "--window", "20ms",
                     "--cpu", "--quiet", "--out", run_dir, PIPE],
             os.path.join(run_dir, "session.json"), True)
        wrap_dir = os.path.join(tmp, "wrap")
        os.mkdir(wrap_dir)
        soak("wrap", [GSTPROF, "wrap", "--window", "100ms", "--cpu", "--quiet",
                      "--out", wrap_dir, "--", "gst-launch-1.0", "-q"]
             + PIPE.split(), os.path.join(wrap_dir, "session.json"), False)
    finally:
        if os.environ.get("SOAK_KEEP"):
            print("soak: files kept in %s" % tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print("soak: %d check(s) failed: %s" % (len(failures), ", ".join(failures)))
        return 1
    print("soak: all checks passed")
    return 0


sys.exit(main())
PY
