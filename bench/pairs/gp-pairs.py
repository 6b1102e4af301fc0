#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# gstprof bench pairs: run each rule's bad pipeline and its fixed twin
# alternately with `gstprof run`, take the metric that matters from every
# session.json, and decide whether the rule earned its severity here:
#
#   - the rule fired on every bad run and stayed silent on every good run;
#   - the fix's median gain exceeds the spread of the runs: the worst good
#     run beats the best bad run (the two min..max ranges do not overlap).
#
# Usage: gp-pairs.py BUILD_DIR SRC_DIR [RULE...]   (see run-pairs.sh)
# Env: PAIRS_RUNS (pairs of runs per rule, default 5), PAIRS_OUT (folder for
# the sessions, default a fresh temp folder), PAIRS_TIMEOUT (seconds per
# run beyond its duration, default 60).

import datetime
import glob
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

METRICS = {
    # name: (unit, how to read it)
    "fps": "fps",
    "latency_p50_ms": "ms",
    "latency_p95_ms": "ms",
    "cpu_pct": "% of a core",
    "dropped": "buffers",
}


# What the good twin is, relative to the rule's advice. A pair verifies its
# rule only when the twin is the rule's own fix: its fix_patch applied to
# the bad launch string ("patch"), or, for a rule whose findings carry no
# fix_patch, the change its fix text asks for ("text"). A "manual" twin is
# measured and reported but verifies nothing.
FIX_KINDS = {
    "patch": "the rule's fix_patch applied",
    "text": "the rule's fix text followed (it has no fix_patch)",
    "manual": "fixed by hand, not the rule's fix: verifies nothing",
}


def read_pair(path):
    """A .pair file: comment lines (#) and KEY=VALUE lines."""
    pair = {"file": os.path.basename(path), "comment": [], "XVFB": "0",
            "DURATION": "3s", "BETTER": "higher", "FIX": "patch"}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                pair["comment"].append(line[1:].strip())
            elif "=" in line:
                k, v = line.split("=", 1)
                pair[k.strip()] = v.strip()
    for k in ("RULE", "METRIC", "BAD", "GOOD"):
        if k not in pair:
            raise SystemExit("run-pairs: %s: no %s= line" % (path, k))
    if pair["FIX"] not in FIX_KINDS:
        raise SystemExit("run-pairs: %s: FIX must be one of %s" %
                         (path, ", ".join(FIX_KINDS)))
    if pair["METRIC"] not in METRICS:
        raise SystemExit("run-pairs: %s: unknown METRIC %s" %
                         (path, pair["METRIC"]))
    return pair


def qos_dropped(events):
    """Buffers dropped for lateness: QoS messages carry running totals per
    element ("processed 60, dropped 25 (buffers)"), so the largest total of
    each element, summed over elements."""
    per_source = {}
    for e in events or []:
        if e.get("type") != "qos":
            continue
        m = re.search(r"dropped (\d+)", e.get("text") or "")
        if m:
            src = e.get("source") or ""
            per_source[src] = max(per_source.get(src, 0), int(m.group(1)))
    return sum(per_source.values())


def metrics_of(session):
    s = session.get("summary") or {}
    sinks = s.get("sinks") or {}
    fps = [v.get("fps") for v in sinks.values() if v.get("fps") is not None]
    paths = [p for p in (s.get("paths") or []) if p.get("matched")]
    p50 = [p["latency_ms"].get("p50") for p in paths
           if p["latency_ms"].get("p50") is not None]
    p95 = [p["latency_ms"].get("p95") for p in paths
           if p["latency_ms"].get("p95") is not None]
    proc = s.get("process") or {}
    cpu = (proc.get("cpu_pct") or {}).get("mean")
    return {
        # The slowest sink and the slowest path: what a user sees.
        "fps": min(fps) if fps else None,
        "latency_p50_ms": max(p50) if p50 else None,
        "latency_p95_ms": max(p95) if p95 else None,
        "cpu_pct": cpu,
        "dropped": qos_dropped(session.get("events")),
    }


def findings_of(session, rule):
    return [f for f in (session.get("findings") or [])
            if f.get("rule") == rule]


def rule_built(src, rule):
    """The registry table names the rule (the runner built the binary from
    this tree just before)."""
    try:
        with open(os.path.join(src, "src/rules/gp-rules.c"),
                  encoding="utf-8") as f:
            table = f.read()
    except OSError:
        return False
    return re.search(r'\{\s*"%s"\s*,' % re.escape(rule), table) is not None


def run_one(gstprof, pair, which, out, env):
    launch = pair[which]
    cmd = [gstprof, "run", "--quiet", "--duration", pair["DURATION"],
           "--out", out, launch]
    if pair["XVFB"] == "1" and shutil.which("xvfb-run"):
        cmd = ["xvfb-run", "-a"] + cmd
    timeout = float(os.environ.get("PAIRS_TIMEOUT", "60"))
    m = re.fullmatch(r"([0-9.]+)s?", pair["DURATION"])
    secs = float(m.group(1)) if m else 10.0
    try:
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, env=env,
                           timeout=secs + timeout)
        rc = p.returncode
        err = p.stderr.decode("utf-8", "replace").strip().splitlines()
    except subprocess.TimeoutExpired:
        rc, err = 124, ["timed out"]
    path = os.path.join(out, "session.json")
    if rc not in (0, 1) or not os.path.exists(path):
        return {"ok": False, "rc": rc, "error": err[-1] if err else ""}
    with open(path, encoding="utf-8") as f:
        session = json.load(f)
    found = findings_of(session, pair["RULE"])
    return {
        "ok": True, "rc": rc, "session": path,
        "metrics": metrics_of(session),
        "fired": bool(found),
        "severity": found[0].get("severity") if found else None,
        "gstreamer": (session.get("session") or {}).get("gstreamer"),
    }


def spread(values):
    return (min(values), max(values)) if values else (None, None)


def judge(pair, runs, built):
    metric = pair["METRIC"]
    higher = pair["BETTER"] == "higher"
    res = {"rule": pair["RULE"], "pair": "bench/pairs/" + pair["file"],
           "fix": pair["FIX"],
           "metric": metric, "unit": METRICS[metric],
           "better": pair["BETTER"], "rule_built": built}
    for side in ("BAD", "GOOD"):
        ok = [r for r in runs[side] if r["ok"]]
        vals = [r["metrics"][metric] for r in ok
                if r["metrics"][metric] is not None]
        lo, hi = spread(vals)
        res[side.lower()] = {
            "runs": len(runs[side]), "ok": len(ok),
            "values": [round(v, 3) for v in vals],
            "median": round(statistics.median(vals), 3) if vals else None,
            "min": lo, "max": hi,
            "other_metrics": {m: round(statistics.median(
                [r["metrics"][m] for r in ok
                 if r["metrics"][m] is not None]), 3)
                if any(r["metrics"][m] is not None for r in ok) else None
                for m in METRICS if m != metric},
            "fired": sum(1 for r in ok if r["fired"]),
            "severities": sorted({r["severity"] for r in ok
                                  if r["severity"]}),
            "errors": [r.get("error") for r in runs[side] if not r["ok"]],
        }
    b, g = res["bad"], res["good"]
    if b["median"] is not None and g["median"] is not None:
        gain = (g["median"] - b["median"]) if higher else \
            (b["median"] - g["median"])
        res["gain"] = round(gain, 3)
        res["gain_pct"] = round(100.0 * gain / abs(b["median"]), 1) \
            if b["median"] else None
        # The ranges must not overlap: the worst good run beats the best
        # bad run, so the gain is larger than the run-to-run spread.
        res["gain_exceeds_spread"] = (g["min"] > b["max"]) if higher else \
            (g["max"] < b["min"])
    else:
        res["gain"] = res["gain_pct"] = None
        res["gain_exceeds_spread"] = False
    all_ok = b["ok"] == b["runs"] and g["ok"] == g["runs"] and b["runs"] > 0
    if not built:
        res["rule_result"] = "rule not built"
        res["verified"] = False
    else:
        fires = b["fired"] == b["ok"] and b["ok"] > 0
        silent = g["fired"] == 0
        res["rule_result"] = "%s on bad (%d/%d), %s on good (%d/%d)" % (
            "FIRED" if fires else "not always fired", b["fired"], b["ok"],
            "SILENT" if silent else "not silent", g["fired"], g["ok"])
        res["verified"] = bool(all_ok and fires and silent and
                               res["gain_exceeds_spread"] and
                               pair["FIX"] != "manual")
    return res


def machine(gst_version):
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    osname = platform.system()
    try:
        with open("/etc/os-release", encoding="utf-8") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    osname = line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    # Debian's PRETTY_NAME carries the codename: "Debian GNU/Linux 12
    # (bookworm)"; the number is enough for a one-line machine name.
    short_os = re.sub(r"\s*\(.*\)$", "", osname).replace(" GNU/Linux", "")
    return {
        "nproc": os.cpu_count(), "cpu_model": model,
        "arch": platform.machine(), "os": osname,
        "gstreamer": gst_version,
        "date": datetime.date.today().isoformat(),
        "verified_on_prefix": "%d-core %s (%s), %s, GStreamer %s, %s" % (
            os.cpu_count() or 0, platform.machine(), model, short_os,
            gst_version or "?", datetime.date.today().isoformat()),
    }


def fmt(v, nd=1):
    return "-" if v is None else ("%.*f" % (nd, v))


def write_markdown(path, mach, results, n_runs, rules):
    L = []
    L.append("# Bench pairs: which rules earned their severity here")
    L.append("")
    L.append("Written by `bench/pairs/run-pairs.sh` (`make pairs`); do not "
             "edit by hand.")
    L.append("")
    L.append("Machine: %d CPUs (%s, %s), %s, GStreamer %s; run %s; %d runs "
             "of each side, bad and good alternating (bad-good, then "
             "good-bad)." % (mach["nproc"] or 0, mach["cpu_model"],
                             mach["arch"], mach["os"], mach["gstreamer"],
                             mach["date"], n_runs))
    L.append("")
    L.append("A rule is **verified** when it fired on every bad run, stayed "
             "silent on every good run, and the fix's median gain exceeds "
             "the spread of the runs: the worst good run beats the best bad "
             "run (the min..max ranges do not overlap).")
    L.append("")
    L.append("Rules verified here (their `verified_on`):")
    L.append("")
    for rule, von in sorted(rules.items()):
        L.append("- %s: %s" % (rule, "`%s`" % von if von else "not verified"))
    L.append("")
    L.append("| rule | pair | twin | metric | bad median (min..max) | good "
             "median (min..max) | gain | rule | verified |")
    L.append("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        b, g = r["bad"], r["good"]
        L.append("| %s | %s | %s | %s (%s, %s is better) | %s (%s..%s) | "
                 "%s (%s..%s) | %s (%s%%) | %s | %s |" % (
                     r["rule"], os.path.basename(r["pair"]), r["fix"],
                     r["metric"], r["unit"], r["better"],
                     fmt(b["median"]), fmt(b["min"]), fmt(b["max"]),
                     fmt(g["median"]), fmt(g["min"]), fmt(g["max"]),
                     fmt(r["gain"]), fmt(r["gain_pct"]), r["rule_result"],
                     "**yes**" if r["verified"] else "no"))
    L.append("")
    for r in results:
        L.append("## %s: `%s`" % (r["rule"], r["pair"]))
        L.append("")
        L.extend(r["comment"])
        L.append("")
        L.append("- twin: %s (%s)" % (r["fix"], FIX_KINDS[r["fix"]]))
        L.append("- bad: `%s`" % r["launch_bad"])
        L.append("- good: `%s`" % r["launch_good"])
        for side in ("bad", "good"):
            s = r[side]
            L.append("- %s runs: %s = %s; other medians: %s; %s%s" % (
                side, r["metric"], ", ".join(fmt(v) for v in s["values"]),
                ", ".join("%s %s" % (k, fmt(v))
                          for k, v in s["other_metrics"].items()),
                "rule fired %d/%d" % (s["fired"], s["ok"])
                if r["rule_built"] else "rule not built",
                (" (severity %s)" % "/".join(s["severities"]))
                if s["severities"] else ""))
            if s["errors"]:
                L.append("  - failed runs: %s" % "; ".join(
                    str(e) for e in s["errors"]))
        L.append("- gain: %s %s (%s%%), exceeds the spread: %s; %s" % (
            fmt(r["gain"], 2), r["unit"], fmt(r["gain_pct"]),
            "yes" if r["gain_exceeds_spread"] else "no",
            "verified" if r["verified"] else "not verified"))
        if r["verified"]:
            # a pair not run this time keeps where and when it ran
            L.append("- verified_on: `%s`" % r["verified_on"])
        L.append("")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(L))


def main():
    if len(sys.argv) < 3:
        raise SystemExit("usage: gp-pairs.py BUILD_DIR SRC_DIR [RULE...]")
    build, src = sys.argv[1], sys.argv[2]
    want = [a.upper() for a in sys.argv[3:]]
    gstprof = os.path.abspath(os.path.join(build, "src/cli/gstprof"))
    n_runs = int(os.environ.get("PAIRS_RUNS", "5"))
    here = os.path.join(src, "bench/pairs")
    pairs = [read_pair(p) for p in sorted(glob.glob(os.path.join(here,
                                                                 "*.pair")))]
    if want:
        def stem(p):
            return p["file"][:-len(".pair")].upper()
        unknown = set(want) - {p["RULE"] for p in pairs} - \
            {stem(p) for p in pairs}
        if unknown:
            raise SystemExit("run-pairs: no pair for %s" %
                             ", ".join(sorted(unknown)))
        pairs = [p for p in pairs if p["RULE"] in want or stem(p) in want]
    out_root = os.environ.get("PAIRS_OUT") or tempfile.mkdtemp(
        prefix="gstprof-pairs-")
    env = dict(os.environ)
    if not env.get("XDG_RUNTIME_DIR"):
        # Mesa's GL under Xvfb complains without one; give it a private one.
        xdg = os.path.join(out_root, "xdg")
        os.makedirs(xdg, mode=0o700, exist_ok=True)
        env["XDG_RUNTIME_DIR"] = xdg

    results, gst_version = [], None
    for pair in pairs:
        built = rule_built(src, pair["RULE"])
        runs = {"BAD": [], "GOOD": []}
        for i in range(n_runs):
            # Alternate the order (bad-good, good-bad, ...) so a drift of
            # the machine (heat, a neighbour) falls on both sides.
            order = ("BAD", "GOOD") if i % 2 == 0 else ("GOOD", "BAD")
            for side in order:
                out = os.path.join(out_root, pair["file"][:-len(".pair")],
                                   "%s-%d" % (side.lower(), i))
                r = run_one(gstprof, pair, side, out, env)
                runs[side].append(r)
                gst_version = gst_version or r.get("gstreamer")
                m = r["metrics"][pair["METRIC"]] if r["ok"] else None
                print("  %-8s %-4s run %d: %s %s%s" % (
                    pair["file"][:-len(".pair")], side.lower(), i + 1, pair["METRIC"],
                    fmt(m) if r["ok"] else "FAILED (%s)" % r.get("error"),
                    (", fired" if r.get("fired") else ", silent")
                    if r["ok"] and built else ""), flush=True)
        res = judge(pair, runs, built)
        res["comment"] = pair["comment"]
        res["launch_bad"] = pair["BAD"]
        res["launch_good"] = pair["GOOD"]
        res["duration"] = pair["DURATION"]
        results.append(res)
        print("%s (%s): %s median %s -> %s, gain %s (%s%%), %s; %s" % (
            res["rule"], pair["file"], res["metric"], fmt(res["bad"]["median"]),
            fmt(res["good"]["median"]), fmt(res["gain"]),
            fmt(res["gain_pct"]), res["rule_result"],
            "VERIFIED" if res["verified"] else "not verified"), flush=True)

    mach = machine(gst_version)
    for r in results:
        r["date"] = mach["date"]
        r["verified_on"] = ("%s, %s" % (mach["verified_on_prefix"],
                                        r["pair"])) if r["verified"] else None
    # Running a few rules keeps the other rules' last results (each carries
    # its own date), so the files always cover every pair.
    old_path = os.path.join(here, "results.json")
    if want and os.path.exists(old_path):
        try:
            with open(old_path, encoding="utf-8") as f:
                old = json.load(f).get("results") or []
        except (OSError, ValueError):
            old = []
        ran = {r["pair"] for r in results}
        results = sorted([r for r in old if r.get("pair") not in ran] +
                         results, key=lambda r: r["pair"])
    # Per rule: verified when every pair that applies the rule's own fix
    # verified it (manual twins do not count either way).
    rules = {}
    for rule in sorted({r["rule"] for r in results}):
        own = [r for r in results if r["rule"] == rule and
               r["fix"] != "manual"]
        rules[rule] = own[0]["verified_on"] if own and \
            all(r["verified"] for r in own) else None
    doc = {"schema": "gstprof-pairs/1", "machine": mach, "runs": n_runs,
           "sessions": out_root, "rules": rules, "results": results}
    with open(os.path.join(here, "results.json"), "w",
              encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    write_markdown(os.path.join(here, "RESULTS.md"), mach, results, n_runs,
                   rules)
    print("written: bench/pairs/RESULTS.md, bench/pairs/results.json "
          "(sessions in %s)" % out_root)


if __name__ == "__main__":
    main()
