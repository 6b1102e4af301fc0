#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# gstprof
#
# gp-readers-gen.py: the inputs of bench/readers-bench.sh, made to a
# scale: `gp-readers-gen.py KIND SCALE OUT`. SCALE 1 is the usual size of
# each kind (below); 10 and 100 are ten and a hundred times it. Plain
# Python, no module beyond the standard library; the same SCALE always
# writes the same bytes.
import json
import sys

# the usual size of each input at SCALE 1
USUAL = {
    "session": 800,        # elements (the 80k is SCALE 100)
    "plot": 10_000,        # bytes of launch string (1 MB at SCALE 100)
    "preset": 40,          # deepstream-app [sourceN] groups
    "preset-set": 40,      # the same, the keys ds preset sets there already
    "coverage": 40,        # the same, for ds coverage
    "perf": 20_000,        # lines of an application's log
    "tegrastats": 2_000,   # tegrastats lines, half an hour at 1 s (plot,
                           # roofline --from, ds hw --from)
    "nvsmi": 2_000,        # nvidia-smi dmon lines (plot)
}

TEGRA = ("RAM 2448/62840MB (lfb 2x4MB) SWAP 0/31420MB (cached 0MB) CPU "
         "[5%@2201,3%@2201,0%@2201,1%@2201,0%@2201,0%@2201,0%@2201,0%@2201,"
         "0%@2201,0%@2201,0%@2201,0%@2201] "
         "EMC_FREQ 3%@3199 GR3D_FREQ {g}%@[1300,1300] cpu@42C gpu@37.75C "
         "tj@42C VDD_GPU_SOC 4940mW/4940mW VDD_CPU_CV 988mW/988mW "
         "VIN_SYS_5V0 4442mW/4442mW")


def session(n_elements, launch):
    names = ["e%d" % i for i in range(n_elements)]
    elements = [{"name": "pipeline0", "factory": "pipeline", "parent": "",
                 "kind": "bin", "is_bin": True, "props": {}}]
    summary = {}
    links = []
    for i, name in enumerate(names):
        elements.append({"name": name, "factory": "identity",
                         "parent": "pipeline0", "kind": "filter",
                         "is_bin": False, "props": {"name": name}})
        summary[name] = {
            "self_ms": {"p50": 0.01, "p95": 0.02, "p99": 0.03, "max": 0.1},
            "buffers": 100, "self_total_ms": 1.0 + i % 7,
            "threads": ["src:src"], "busy_pct": 1.0, "share_pct": 0.1}
        if i > 0:
            links.append({"id": "%s.src->%s.sink" % (names[i - 1], name),
                          "src": names[i - 1] + ".src",
                          "sink": name + ".sink", "caps": None,
                          "memory": "system"})
    series = [{"t0": w * 0.25, "t1": (w + 1) * 0.25,
               "elements": {name: {"buffers": 25, "self_ms": 0.5 + w % 3,
                                   "self_ms_p50": 0.02, "self_ms_p95": 0.04}
                            for name in names[:4]}}
              for w in range(8)]
    return {
        "schema": "gstprof/1",
        "session": {"mode": "run", "launch": launch,
                    "started": "2026-01-01T00:00:00Z", "duration_s": 2.0,
                    "gstreamer": "1.22.0", "platform": "generic",
                    "window_s": 0.25, "exit_code": 0},
        "graph": {"elements": elements, "links": links, "hw_elements": []},
        "summary": {"elements": summary},
        "series": series,
        "events": [],
        "findings": [],
    }


def write_session(out, n_elements, launch):
    with open(out, "w") as f:
        json.dump(session(n_elements, launch), f)


def gen(kind, scale, out):
    n = USUAL[kind] * scale
    if kind == "session":
        launch = " ! ".join(["fakesrc"] + ["identity name=e%d" % i
                                           for i in range(n)]
                            + ["fakesink"])
        write_session(out, n, launch)
    elif kind == "plot":
        unit = "identity name=a-rather-long-element-name ! "
        launch = "fakesrc ! " + unit * (n // len(unit)) + "fakesink"
        write_session(out, 4, launch)
    elif kind in ("preset", "preset-set", "coverage"):
        there = ("cudadec-memtype=2\nnum-extra-surfaces=1\n"
                 "nvbuf-memory-type=2\n" if kind == "preset-set" else "")
        with open(out, "w") as f:
            f.write("[application]\nenable-perf-measurement=1\n\n")
            for i in range(n):
                f.write("[source%d]\nenable=1\ntype=3\n"
                        "uri=file:///v%d.mp4\nnum-sources=1\n"
                        "gpu-id=0\n%s\n" % (i, i, there))
            f.write("[streammux]\nbatch-size=1\nwidth=1920\nheight=1080\n\n"
                    "[primary-gie]\nenable=1\nbatch-size=1\n\n"
                    "[sink0]\nenable=1\ntype=2\nsync=1\n")
    elif kind == "perf":
        with open(out, "w") as f:
            f.write("**PERF:  FPS 0 (Avg)\tFPS 1 (Avg)\n")
            for i in range(n):
                if i % 4 == 0:
                    f.write("**PERF:  %.2f (%.2f)\t%.2f (%.2f)\n"
                            % (29 + i % 3, 29.5, 30 - i % 2, 29.8))
                else:
                    f.write("0:00:%02d.%06d  1234 0x5555 INFO  default "
                            "gstsomething.c:42:fn: a line of other log\n"
                            % (i % 60, i % 999999))
    elif kind == "tegrastats":
        with open(out, "w") as f:
            for i in range(n):
                f.write(TEGRA.format(g=i % 100) + "\n")
    elif kind == "nvsmi":
        with open(out, "w") as f:
            f.write("# gpu    pwr  gtemp  mtemp     sm    mem    enc    dec"
                    "   mclk   pclk\n# Idx      W      C      C      %      "
                    "%      %      %    MHz    MHz\n")
            for i in range(n):
                f.write("    0     %2d     41      -     %2d      3      0"
                        "      0   5000   1500\n" % (15 + i % 40, i % 100))
    else:
        raise SystemExit("gp-readers-gen.py: unknown kind %s" % kind)


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in USUAL or \
            not sys.argv[2].isdigit():
        sys.stderr.write("usage: gp-readers-gen.py {%s} SCALE OUT\n"
                         % "|".join(USUAL))
        sys.exit(3)
    gen(sys.argv[1], int(sys.argv[2]), sys.argv[3])
