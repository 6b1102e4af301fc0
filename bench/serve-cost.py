#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# What the live panel's server costs a capture: `gstprof run` of one
# pipeline at the default window, side by side without and with --serve,
# 10 clients each holding the panel's event stream open and Prometheus'
# scrape of /metrics once a second (15 times its usual rate). The cost is
# the difference in gstprof's CPU time (user + system, from the kernel's
# rusage of the child) over the run's length, in % of one core; runs
# alternate so that the machine's load falls on both. Target: under 2 %.
# Not a test: it prints PASS/FAIL and exits 0 either way
# (bench/README.md, "The panel's server").
#
#   python3 bench/serve-cost.py [BUILD_DIR]
# Env: BENCH_SECONDS (default 20), BENCH_RUNS (per side, default 3),
#      BENCH_CLIENTS (default 10).
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

TARGET = 2.0
SECS = int(os.environ.get("BENCH_SECONDS", "20"))
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
CLIENTS = int(os.environ.get("BENCH_CLIENTS", "10"))
# Six elements, two queues, a live source: the size of a session a panel
# usually shows, and cheap enough that the pipeline's own CPU does not
# drown the server's.
PIPE = ("videotestsrc is-live=true ! video/x-raw,width=320,height=240,"
        "framerate=30/1 ! queue ! videoconvert ! identity ! queue ! "
        "fakesink")


def stream_events(port, stop):
    """One panel: the event stream read to the end of the run."""
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n"
                  % port)
        s.settimeout(1)
        while not stop.is_set():
            try:
                if not s.recv(65536):
                    break
            except socket.timeout:
                pass
        s.close()
    except OSError:
        pass


def scrape(port, stop):
    """Prometheus: /metrics once a second."""
    while not stop.wait(1.0):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                      b"Connection: close\r\n\r\n" % port)
            while s.recv(65536):
                pass
            s.close()
        except OSError:
            pass


def run_once(gstprof, serve, out):
    args = [gstprof, "run", "--quiet", "--duration", "%ds" % SECS,
            "--out", out]
    if serve:
        args += ["--serve", "--port", "0"]
    args.append(PIPE)
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    stop = threading.Event()
    threads = []
    if serve:
        port = None
        for line in p.stderr:
            m = re.search(r"serving http://127\.0\.0\.1:(\d+)/", line)
            if m:
                port = int(m.group(1))
                break
        if port is None:
            sys.exit("serve-cost: gstprof printed no address")
        for _ in range(CLIENTS):
            threads.append(threading.Thread(target=stream_events,
                                            args=(port, stop)))
        threads.append(threading.Thread(target=scrape, args=(port, stop)))
        for t in threads:
            t.start()
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    stop.set()
    for t in threads:
        t.join()
    p.stderr.close()
    return ru.ru_utime + ru.ru_stime


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    gstprof = os.path.join(build, "src", "cli", "gstprof")
    if subprocess.run([gstprof, "serve", "--help"], capture_output=True
                      ).returncode != 0:
        sys.exit("serve-cost: %s has no serve command" % gstprof)
    plain, served = [], []
    with tempfile.TemporaryDirectory(prefix="gstprof-serve-cost-") as tmp:
        for i in range(RUNS):
            for serve, into in ((False, plain), (True, served)):
                cpu = run_once(gstprof, serve, os.path.join(tmp, "s%d" % i))
                into.append(cpu)
                print("run %d %-8s cpu %.3f s over %d s" %
                      (i + 1, "--serve" if serve else "plain", cpu, SECS))
    a, b = statistics.median(plain), statistics.median(served)
    cost = (b - a) / SECS * 100.0
    print("median cpu: plain %.3f s, --serve with %d clients and a scrape "
          "a second %.3f s" % (a, CLIENTS, b))
    print("%s: the server costs %.2f %% of one core (target < %.0f %%)" %
          ("PASS" if cost < TARGET else "FAIL", cost, TARGET))


main()
