#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""gstprof overhead benchmark (make bench).

Runs four pipelines under four configurations -- no tracer, the no-op tracer
(hook dispatch only), gstprof, and GStreamer's core tracers -- side by side:
every repetition runs each configuration once, in an order rotated per
repetition, so slow spells of the machine hit all configurations alike.
Each run is a fresh gp-bench-run process that times PLAYING -> EOS only.
Reports medians, ratios, and PASS/FAIL per target; exits 0 even when a
target fails (it measures, it does not judge the build).

Usage: gp-bench.py BUILD_DIR SOURCE_DIR   (normally via bench/run-bench.sh)
"""

import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time

# --- what is measured ---------------------------------------------------

FAKE = "fakesrc num-buffers={n} sizetype=fixed sizemax=64 filltype=nothing"

PIPELINES = [
    # name, launch, buffers pushed by the source
    ("P_TINY", FAKE.format(n=200000) + " ! identity ! identity ! queue ! "
     "identity ! identity ! fakesink sync=false", 200000),
    ("P_LIGHT", "videotestsrc num-buffers=3000 pattern=black ! "
     "video/x-raw,width=320,height=240 ! videoconvert ! videoscale ! "
     "video/x-raw,width=160,height=120 ! queue ! fakesink sync=false", 3000),
    ("P_REAL", "videotestsrc num-buffers=600 ! video/x-raw,width=1280,"
     "height=720 ! videoconvert ! x264enc speed-preset=ultrafast "
     "tune=zerolatency ! h264parse ! queue ! fakesink sync=false", 600),
    ("P_WIDE", FAKE.format(n=50000) + " ! identity" * 32 +
     " ! fakesink sync=false", 50000),
]

# How a pipeline is shown in the report (P_WIDE's string is 600 characters).
SHOWN = {"P_WIDE": FAKE.format(n=50000) + " ! identity (x32) ! "
         "fakesink sync=false"}

# The memory target: P_TINY's peak RSS with 10x the buffers. Peak RSS
# hardly varies run to run, so fewer runs than the timings need.
MEM_SMALL = 200000
MEM_LARGE = 2000000
MEM_LIMIT_KIB = 2048
MEM_RUNS_MAX = 3

# A pipeline whose warm-up run takes less than CHEAP_S seconds gets
# CHEAP_FACTOR times the runs (see the measuring loop).
CHEAP_S = 2.0
CHEAP_FACTOR = 3

CORE_TRACERS = "latency(flags=pipeline+element);stats;rusage"

# target kinds: ratio of gstprof to untraced, or to the no-op tracer
TARGETS = {
    "P_REAL": ("untraced", 1.03),
    "P_LIGHT": ("untraced", 1.10),
    "P_TINY": ("noop", 1.40),
    "P_WIDE": ("noop", 1.40),
}

CONFIG_LABEL = {
    "untraced": "untraced",
    "noop": "no-op",
    "gstprof": "gstprof",
    "trace": "trace",
    "core": "core",
}

# gstprof with its ring of every push (gstprof run --trace): the default
# span, 10 s
TRACE_PARAM = "trace=10"


def die(msg, code=3):
    print(f"gp-bench: {msg}", file=sys.stderr)
    sys.exit(code)


# --- options ------------------------------------------------------------

def env_int(name, default, lo):
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        v = int(raw)
    except ValueError:
        die(f"{name}: '{raw}' is not a whole number")
    if v < lo:
        die(f"{name}: {v} is below the minimum of {lo}")
    return v


def env_names(name, known):
    """A comma/space separated subset of known (case-insensitive, the P_
    prefix optional); all of known when unset."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return list(known)
    chosen = []
    for word in re.split(r"[,\s]+", raw):
        if not word:
            continue
        key = word.upper()
        match = [k for k in known if k.upper() in (key, "P_" + key)]
        if not match:
            die(f"{name}: unknown name '{word}' (known: {', '.join(known)})")
        if match[0] not in chosen:
            chosen.append(match[0])
    return chosen


# --- running ------------------------------------------------------------

class Runner:
    def __init__(self, build, timeout):
        self.build = build
        self.exe = os.path.join(build, "bench", "gp-bench-run")
        self.timeout = timeout
        env = dict(os.environ)
        # Nothing of the caller's GStreamer debugging may leak in: the core
        # tracers are measured with their records not logged.
        for var in ("GST_TRACERS", "GST_DEBUG", "GST_DEBUG_FILE",
                    "GST_PLUGIN_PATH_1_0", "GST_REGISTRY_1_0"):
            env.pop(var, None)
        # One plugin path and one registry file for every configuration:
        # the registry is scanned once and then read identically by all.
        env["GST_PLUGIN_PATH"] = os.pathsep.join(
            [os.path.join(build, "src", "tracer"),
             os.path.join(build, "bench")])
        env["GST_REGISTRY"] = os.path.join(build, "bench", "registry.bin")
        self.env = env

    def run(self, launch, tracers=None, extra_env=None):
        """One timed run. Returns dict(wall, cpu, rss) or dict(error)."""
        env = dict(self.env)
        if tracers:
            env["GST_TRACERS"] = tracers
        if extra_env:
            env.update(extra_env)
        cmd = [self.exe, "--timeout", str(self.timeout), launch]
        try:
            p = subprocess.run(cmd, env=env, capture_output=True, text=True,
                               timeout=self.timeout + 30)
        except subprocess.TimeoutExpired:
            return {"error": f"killed after {self.timeout + 30} s"}
        m = re.search(r"wall_s=([\d.]+) cpu_s=([\d.]+) maxrss_kib=(\d+)",
                      p.stdout)
        if p.returncode != 0 or not m:
            lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
            why = lines[-1] if lines else f"exit code {p.returncode}"
            if p.returncode < 0:
                why = f"killed by signal {-p.returncode}: {why}"
            return {"error": why, "stderr": p.stderr, "stdout": p.stdout}
        return {"wall": float(m.group(1)), "cpu": float(m.group(2)),
                "rss": int(m.group(3))}


def observed_hooks(runner):
    """The hooks the gstprof tracer registers, as GStreamer itself logs
    them (category "default", DEBUG), so the no-op tracer mirrors exactly
    what is compiled in for this GStreamer version."""
    env = dict(runner.env)
    env["GST_TRACERS"] = "gstprof"
    env["GST_DEBUG"] = "default:5"
    env["GST_DEBUG_NO_COLOR"] = "1"
    try:
        p = subprocess.run([runner.exe, "fakesrc num-buffers=1 ! fakesink"],
                           env=env, capture_output=True, text=True,
                           timeout=60)
    except subprocess.TimeoutExpired:
        return None
    hooks = []
    for name in re.findall(r"registering tracer for '([^']+)'", p.stderr):
        if name not in hooks:
            hooks.append(name)
    return hooks or None


def grepped_hooks(src):
    """Fallback when the run-time log is unavailable (GStreamer built
    without debug logging): hook-like string literals in src/tracer/*.c.
    Names the no-op tracer does not know are skipped by it with a warning."""
    d = os.path.join(src, "src", "tracer")
    hooks = []
    if not os.path.isdir(d):
        return None
    pat = re.compile(r'"((?:pad|element|bin|mini-object|object|plugin|'
                     r'memory|pool)-[a-z-]+)"')
    for f in sorted(os.listdir(d)):
        if not f.endswith(".c"):
            continue
        path = os.path.join(d, f)
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        if "gst_tracing_register_hook" not in text:
            continue
        for name in pat.findall(text):
            if name not in hooks:
                hooks.append(name)
    return hooks or None


# --- statistics ---------------------------------------------------------

def summarize(results, key):
    vals = [r[key] for r in results if "error" not in r]
    if not vals:
        return None
    return {"median": statistics.median(vals), "min": min(vals),
            "max": max(vals), "n": len(vals)}


def ratio_of_medians(stats, c, base):
    if stats.get(c) is None or stats.get(base) is None:
        return None
    return stats[c]["median"] / stats[base]["median"]


def paired_ratio(results, c, base, key="wall"):
    """Median over repetitions of c's run divided by base's run of the same
    repetition. The two ran seconds apart, so a slow spell of the machine
    that spans a repetition cancels out; shown beside the ratio of medians
    as a check on it."""
    rs = [a[key] / b[key] for a, b in zip(results.get(c, []),
                                           results.get(base, []))
          if "error" not in a and "error" not in b and b[key] > 0]
    return statistics.median(rs) if rs else None


def fmt_s(v):
    return "-" if v is None else f"{v:.3f}"


def fmt_x(v):
    return "-" if v is None else f"{v:.3f}"


# --- perf: where gstprof's time goes ------------------------------------

def perf_works():
    try:
        p = subprocess.run(["perf", "record", "-q", "-e", "cpu-clock",
                            "-o", "/dev/null", "--", "true"],
                           capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return p.returncode == 0


def perf_top(runner, launch, tracers, data_path, limit=14):
    """Samples one run under perf (cpu-clock: works without hardware
    counters, e.g. in VMs) and returns the hottest symbols as
    (percent, shared object, symbol), the hottest of libgstprof.so's own,
    and libgstprof.so's share of all samples."""
    env = dict(runner.env)
    env["GST_TRACERS"] = tracers
    cmd = ["perf", "record", "-q", "-e", "cpu-clock", "-F", "4999",
           "-o", data_path, "--", runner.exe, "--timeout",
           str(runner.timeout), launch]
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True,
                           timeout=runner.timeout + 60)
        if p.returncode != 0:
            return None, None, None
        rep = subprocess.run(["perf", "report", "-i", data_path, "--stdio",
                              "--no-children", "--sort", "dso,symbol"],
                             capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired):
        return None, None, None
    rows, own, gp_share = [], [], 0.0
    for ln in rep.stdout.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+(\S+)\s+\[[.k]\]\s+(.+?)\s*$", ln)
        if not m:
            continue
        # newer perf appends IPC columns, "-" without hardware counters
        sym = re.sub(r"(\s+-)+$", "", m.group(3))
        pct, dso = float(m.group(1)), m.group(2)
        if dso == "libgstprof.so":
            gp_share += pct
            own.append((pct, dso, sym))
        rows.append((pct, dso, sym))
    return rows[:limit], own[:limit // 2], gp_share


# --- report -------------------------------------------------------------

class Report:
    def __init__(self):
        self.lines = []

    def __call__(self, text=""):
        print(text, flush=True)
        self.lines.append(text)


def machine_line():
    try:
        gst = subprocess.run(["pkg-config", "--modversion", "gstreamer-1.0"],
                             capture_output=True, text=True).stdout.strip()
    except OSError:
        gst = ""
    model = "?"
    try:
        with open("/proc/cpuinfo") as fh:
            for ln in fh:
                if ln.startswith("model name"):
                    model = ln.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return os.cpu_count(), model, gst or "?"


def main():
    if len(sys.argv) != 3:
        die("usage: gp-bench.py BUILD_DIR SOURCE_DIR")
    build = os.path.abspath(sys.argv[1])
    src = os.path.abspath(sys.argv[2])
    runs = env_int("BENCH_RUNS", 5, 1)
    timeout = env_int("BENCH_TIMEOUT", 300, 1)
    only = env_names("BENCH_ONLY", [p[0] for p in PIPELINES] + ["MEM"])
    configs = env_names("BENCH_CONFIGS",
                        ["untraced", "noop", "gstprof", "trace", "core"])
    gstprof_params = os.environ.get("BENCH_GSTPROF_PARAMS", "").strip()
    perf_mode = os.environ.get("BENCH_PERF", "auto").strip().lower()
    if perf_mode not in ("auto", "always", "0", "no", "off"):
        die(f"BENCH_PERF: '{perf_mode}' is not one of auto, always, 0")

    runner = Runner(build, timeout)
    if not os.access(runner.exe, os.X_OK):
        die(f"{runner.exe}: not built (run: ninja -C {build})", 2)
    have_gstprof = os.path.exists(
        os.path.join(build, "src", "tracer", "libgstprof.so"))

    out = Report()
    started = datetime.datetime.now()
    ncpu, cpu_model, gst_version = machine_line()
    out(f"gstprof overhead benchmark, {started:%Y-%m-%d %H:%M}")
    out(f"machine: {ncpu} CPUs ({cpu_model}), {platform.system()} "
        f"{platform.release()}, GStreamer {gst_version}")
    out(f"runs per configuration: {runs}, x{CHEAP_FACTOR} on pipelines "
        f"under {CHEAP_S:.0f} s except for the core tracers (medians; order "
        f"rotated every repetition)"
        f"{'  [fewer than 5: rough]' if runs < 5 else ''}")

    # Registry scan once, outside every measurement.
    warm = runner.run("fakesrc num-buffers=1 ! fakesink")
    if "error" in warm:
        die(f"gp-bench-run does not work: {warm['error']}", 2)

    # The no-op tracer must register what gstprof registers.
    noop_hooks, hooks_from = None, "the no-op tracer's built-in list"
    if have_gstprof:
        noop_hooks = observed_hooks(runner)
        if noop_hooks:
            hooks_from = "observed from the gstprof tracer at run time"
    if noop_hooks is None:
        noop_hooks = grepped_hooks(src)
        if noop_hooks:
            hooks_from = "grepped from src/tracer/*.c"
    if noop_hooks and "*" in noop_hooks:
        out("note: gstprof registers for every hook ('*'); the no-op tracer "
            "mirrors only the named hooks")
        noop_hooks = [h for h in noop_hooks if h != "*"]
    noop_tracers = ("gstprofnoop(hooks=" + "+".join(noop_hooks) + ")"
                    if noop_hooks else "gstprofnoop")
    gstprof_tracers = "gstprof" + (f"({gstprof_params})" if gstprof_params
                                   else "")
    trace_tracers = "gstprof(" + ",".join(
        p for p in (gstprof_params, TRACE_PARAM) if p) + ")"
    tracers_of = {
        "untraced": None,
        "noop": noop_tracers,
        "gstprof": gstprof_tracers,
        "trace": trace_tracers,
        "core": CORE_TRACERS,
    }
    if ("gstprof" in configs or "trace" in configs) and not have_gstprof:
        out("gstprof: NOT BUILT (no src/tracer/libgstprof.so in the build "
            "dir): its rows and the targets are skipped")
        configs = [c for c in configs if c not in ("gstprof", "trace")]
    out(f"no-op tracer hooks ({hooks_from}): "
        f"{', '.join(noop_hooks) if noop_hooks else 'built-in default list'}")
    out("configurations: " + "; ".join(
        f"{CONFIG_LABEL[c]} = {tracers_of[c] or 'GST_TRACERS unset'}"
        if c != "noop" else "no-op = gstprofnoop (hooks above)"
        for c in configs))
    out("wall = PLAYING to EOS (s); cpu = process user+sys CPU over the same "
        "span (s); x = ratio of medians; paired = median of per-repetition "
        "ratios")

    record = {"date": started.isoformat(timespec="seconds"), "ncpu": ncpu,
              "cpu_model": cpu_model, "gstreamer": gst_version, "runs": runs,
              "noop_hooks": noop_hooks, "hooks_from": hooks_from,
              "pipelines": {}, "memory": None, "targets": [], "perf": {}}
    targets = []  # (name, description, value, limit, status, note)
    to_profile = []  # pipelines where a perf profile of gstprof helps

    for name, launch, nbuf in PIPELINES:
        if name not in only:
            continue
        out()
        out(f"{name}: {SHOWN.get(name, launch)}")
        t0 = time.monotonic()
        # One untimed run first: page cache, ORC code generation, x264's
        # first-use costs land here rather than in whichever config is first.
        warm = runner.run(launch)
        # Pipelines that run in under CHEAP_S flip between a fast and a slow
        # mode depending on where the scheduler puts their streaming
        # threads; more runs steady their medians for little time. The core
        # tracers, 40-100x slower there, keep the base count and run in the
        # first repetitions so that their paired ratios pair correctly.
        reps = runs
        if "error" not in warm and warm["wall"] < CHEAP_S:
            reps = runs * CHEAP_FACTOR
        results = {c: [] for c in configs}
        for rep in range(reps):
            now = [c for c in configs if rep < runs or c != "core"]
            k = rep % len(now)
            for c in now[k:] + now[:k]:
                results[c].append(runner.run(launch, tracers_of[c]))
        elapsed = time.monotonic() - t0
        if reps != runs:
            out(f"  runs: {reps} per configuration"
                f"{f' (core: {runs})' if 'core' in configs else ''}, "
                f"the pipeline being short")

        wall = {c: summarize(results[c], "wall") for c in configs}
        cpu = {c: summarize(results[c], "cpu") for c in configs}

        out(f"  {'config':<9} {'wall med':>9} {'min':>7} {'max':>7} "
            f"{'x untr':>7} {'paired':>7} {'x no-op':>7} {'+us/buf':>8} "
            f"{'cpu med':>8} {'x untr':>7}")
        for c in configs:
            w = wall[c]
            errs = [r["error"] for r in results[c] if "error" in r]
            if w is None:
                out(f"  {CONFIG_LABEL[c]:<9} all {len(errs)} runs failed: "
                    f"{errs[0] if errs else '?'}")
                continue
            xu = ratio_of_medians(wall, c, "untraced")
            pu = paired_ratio(results, c, "untraced")
            xn = ratio_of_medians(wall, c, "noop") \
                if c not in ("untraced", "noop") else None
            per_buf = None
            if wall.get("untraced") and c != "untraced":
                per_buf = ((w["median"] - wall["untraced"]["median"])
                           / nbuf * 1e6)
            cu = ratio_of_medians(cpu, c, "untraced")
            out(f"  {CONFIG_LABEL[c]:<9} {fmt_s(w['median']):>9} "
                f"{fmt_s(w['min']):>7} {fmt_s(w['max']):>7} "
                f"{fmt_x(xu):>7} "
                f"{fmt_x(pu) if c != 'untraced' else '-':>7} "
                f"{fmt_x(xn):>7} "
                f"{'-' if per_buf is None else f'{per_buf:.2f}':>8} "
                f"{fmt_s(cpu[c]['median']):>8} {fmt_x(cu):>7}")
            if errs:
                out(f"  {'':<9} {len(errs)} of {len(results[c])} runs "
                    f"failed: {errs[0]}")
        # How much one configuration varies run to run: a ratio closer to
        # 1 than this cannot be told apart from noise on this machine.
        noise = None
        if wall.get("untraced") and wall["untraced"]["n"] > 1:
            u = wall["untraced"]
            noise = (u["max"] - u["min"]) / u["median"]
        # What keeping every push costs (run --trace): CPU time (does not
        # depend on where the scheduler puts the threads) against gstprof
        # without it and against the no-op floor; peak RSS beside it.
        if "trace" in configs and cpu.get("trace"):
            parts = []
            for base in ("gstprof", "noop"):
                r = ratio_of_medians(cpu, "trace", base)
                if r is not None:
                    parts.append(f"cpu x {CONFIG_LABEL[base]} {r:.3f}")
            w = ratio_of_medians(wall, "trace", "gstprof")
            if w is not None:
                parts.append(f"wall x gstprof {w:.3f}")
            rss = {c: summarize(results[c], "rss") for c in
                   ("gstprof", "trace") if c in configs}
            if rss.get("gstprof") and rss.get("trace"):
                parts.append(f"peak RSS {rss['trace']['median']:.0f} KiB vs "
                             f"{rss['gstprof']['median']:.0f} KiB")
            out(f"  trace ({TRACE_PARAM}): " + ", ".join(parts))
        out(f"  noise: untraced runs spread "
            f"{'-' if noise is None else f'{noise * 100:.1f}%'} "
            f"(max-min over median); {elapsed:.0f} s for this pipeline")

        base, limit = TARGETS[name]
        desc = f"gstprof wall / {CONFIG_LABEL[base]} <= {limit:.2f}"
        value, status, note = None, "SKIP", "gstprof not built"
        if "gstprof" in configs and base in configs:
            value = ratio_of_medians(wall, "gstprof", base)
            if value is None:
                status, note = "SKIP", "no measurement"
            else:
                status = "PASS" if value <= limit else "FAIL"
                paired = paired_ratio(results, "gstprof", base)
                cpu_value = ratio_of_medians(cpu, "gstprof", base)
                # CPU time does not depend on where the scheduler puts the
                # streaming threads, the largest noise on few cores.
                note = (f"paired {fmt_x(paired)}, "
                        f"cpu ratio {fmt_x(cpu_value)}")
                if status == "FAIL" and base == "untraced" and \
                        noise is not None and value - 1 <= noise:
                    note += "; within this machine's noise"
            out(f"  target: {desc}: "
                f"{'-' if value is None else f'{value:.3f}'} -> {status} "
                f"({note})")
        elif "gstprof" in configs:
            note = f"needs the {CONFIG_LABEL[base]} configuration"
        targets.append((name, desc, value, limit, status, note))
        if "gstprof" in configs and (
                status == "FAIL" or perf_mode == "always"):
            to_profile.append((name, launch))
        record["pipelines"][name] = {
            "launch": launch, "buffers": nbuf, "seconds": round(elapsed, 1),
            "noise": noise,
            "configs": {c: {"tracers": tracers_of[c], "wall": wall[c],
                            "cpu": cpu[c],
                            "paired_vs_untraced":
                                paired_ratio(results, c, "untraced"),
                            "rss_kib": summarize(results[c], "rss"),
                            "failed": sum(1 for r in results[c]
                                          if "error" in r)}
                        for c in configs},
        }

    if "MEM" in only:
        mem_runs = min(runs, MEM_RUNS_MAX)
        out()
        out(f"MEM: peak RSS (VmHWM) of P_TINY, {MEM_SMALL} vs {MEM_LARGE} "
            f"buffers, median of {mem_runs} runs, KiB")
        t0 = time.monotonic()
        small = PIPELINES[0][1]  # P_TINY has MEM_SMALL buffers already
        large = small.replace(f"num-buffers={MEM_SMALL}",
                              f"num-buffers={MEM_LARGE}")
        mem_configs = [c for c in ("untraced", "gstprof") if c in configs]
        cells = [(c, size) for c in mem_configs for size in (small, large)]
        res = {cell: [] for cell in cells}
        for rep in range(mem_runs):
            k = rep % len(cells) if cells else 0
            for cell in cells[k:] + cells[:k]:
                res[cell].append(runner.run(cell[1], tracers_of[cell[0]]))
        out(f"  {'config':<9} {'200k':>9} {'2M':>9} {'growth':>9} "
            f"{'wall 2M':>8}")
        mem_record = {}
        growth_gp = None
        for c in mem_configs:
            rs = summarize(res[(c, small)], "rss")
            rl = summarize(res[(c, large)], "rss")
            wl = summarize(res[(c, large)], "wall")
            if rs is None or rl is None:
                errs = [r["error"] for r in res[(c, small)] + res[(c, large)]
                        if "error" in r]
                out(f"  {CONFIG_LABEL[c]:<9} failed: "
                    f"{errs[0] if errs else '?'}")
                continue
            growth = rl["median"] - rs["median"]
            if c == "gstprof":
                growth_gp = growth
            out(f"  {CONFIG_LABEL[c]:<9} {rs['median']:>9.0f} "
                f"{rl['median']:>9.0f} {growth:>+9.0f} "
                f"{fmt_s(wl['median'] if wl else None):>8}")
            mem_record[c] = {"small": rs, "large": rl, "growth_kib": growth}
        desc = (f"gstprof peak RSS, 2M minus 200k buffers <= "
                f"{MEM_LIMIT_KIB} KiB")
        note = ""
        if growth_gp is None:
            status = "SKIP"
            note = "gstprof not built" if "gstprof" not in configs \
                else "no measurement"
        else:
            status = "PASS" if growth_gp <= MEM_LIMIT_KIB else "FAIL"
        out(f"  target: {desc}: "
            f"{'-' if growth_gp is None else f'{growth_gp:+.0f} KiB'} -> "
            f"{status}")
        out(f"  {time.monotonic() - t0:.0f} s for the memory runs")
        targets.append(("MEM", desc, growth_gp, MEM_LIMIT_KIB, status, note))
        record["memory"] = mem_record

    # Where gstprof's time goes, for the pipelines that missed a target:
    # one run under perf, the hottest symbols, libgstprof.so's share.
    if to_profile and perf_mode != "0" and perf_mode not in ("no", "off"):
        out()
        if not perf_works():
            out("perf: not usable here (perf record -e cpu-clock failed); "
                "no per-symbol breakdown")
            to_profile = []
        for name, launch in to_profile:
            data = os.path.join(build, "bench", f"perf-{name}.data")
            rows, own, share = perf_top(runner, launch, gstprof_tracers,
                                        data)
            if rows is None:
                out(f"perf {name}: the profiled run failed")
                continue
            out(f"perf {name} under gstprof (cpu-clock samples; "
                f"libgstprof.so {share:.1f}% of all; data in {data}):")
            for pct, dso, sym in rows:
                out(f"  {pct:6.2f}%  {dso:<28.28} {sym}")
            if own:
                out("  hottest in libgstprof.so: " + ", ".join(
                    f"{sym} {pct:.1f}%" for pct, _, sym in own))
            record["perf"][name] = {"gstprof_share_pct": share,
                                    "top": rows, "gstprof_top": own}

    out()
    out("Summary (gstprof against its targets):")
    for name, desc, value, limit, status, note in targets:
        if value is None:
            shown = "-"
        elif name == "MEM":
            shown = f"{value:+.0f} KiB"
        else:
            shown = f"{value:.3f}"
        out(f"  {status:<4}  {name:<7} {desc:<50} {shown:>9}"
            f"{f'  ({note})' if note else ''}")
        record["targets"].append({"name": name, "target": desc,
                                  "value": value, "limit": limit,
                                  "status": status, "note": note})
    met = sum(1 for t in targets if t[4] == "PASS")
    failed = [t[0] for t in targets if t[4] == "FAIL"]
    skipped = [t[0] for t in targets if t[4] == "SKIP"]
    verdict = f"{met} of {len(targets)} targets met"
    if failed:
        verdict += f"; FAILED: {', '.join(failed)}"
    if skipped:
        verdict += f"; skipped: {', '.join(skipped)}"
    out(verdict)
    out(f"total {(datetime.datetime.now() - started).total_seconds():.0f} s")

    # Keep the last results next to the build for README updates and diffs
    # (temp + rename: an interrupted run leaves the previous files whole).
    outdir = os.path.join(build, "bench")
    try:
        for fname, text in (
                ("bench-results.txt", "\n".join(out.lines) + "\n"),
                ("bench-results.json", json.dumps(record, indent=2) + "\n")):
            tmp = os.path.join(outdir, fname + ".tmp")
            with open(tmp, "w") as fh:
                fh.write(text)
            os.replace(tmp, os.path.join(outdir, fname))
        print(f"(saved to {outdir}/bench-results.txt and .json)")
    except OSError as e:
        print(f"gp-bench: could not save results: {e}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("gp-bench: interrupted", file=sys.stderr)
        sys.exit(130)
