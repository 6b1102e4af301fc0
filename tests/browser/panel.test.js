/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof's panel and report in a real browser: Debian's chromium,
 * headless, driven by playwright-core, against the real gstprof binary.
 *
 * - a live `gstprof run --serve` of a pipeline with a planted
 *   `identity name=slow sleep-time=20000` (20 ms a buffer, the truth) and
 *   an element named `<img src=x onerror=alert(1)>`: the page loads, its
 *   numbers change between two reads, the graph shows every element,
 *   clicking `slow` opens its inspector at about 20 ms, the XSS name is
 *   text and no dialog fires, Mark lands in the session, Stop ends the run
 *   and the session file is complete;
 * - `gstprof serve` of that session: its findings, and the same self time
 *   as the session;
 * - `gstprof report` of it opened from file:// with the network off:
 *   nothing fetched, the same self time;
 * - `gstprof serve` of a tegrastats log: the machine views alone, a chart
 *   for each series;
 * - a small, a wide (three branches) and a 40-element pipeline's graph in
 *   the panel and the report at 1280x800 and 1920x1080: the page does not
 *   scroll sideways, no text under 11 px.
 * Each view is written as a screenshot under GP_BROWSER_OUT.
 *
 * TAP on stdout. Environment: GSTPROF_BIN, GSTPROF_PLUGIN_DIR (the
 * tracer), GP_BROWSER_OUT (screenshots), GP_CHROMIUM (default
 * /usr/bin/chromium); run.sh installs playwright-core and sets NODE_PATH.
 */
"use strict";

const { spawn } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { chromium } = require("playwright-core");

const GSTPROF = process.env.GSTPROF_BIN;
const OUT = process.env.GP_BROWSER_OUT || path.join(os.tmpdir(), "gp-browser");
const CHROMIUM = process.env.GP_CHROMIUM || "/usr/bin/chromium";
const XSS = "<img src=x onerror=alert(1)>";
/* the planted truth: identity sleep-time=20000 (µs) */
const SLEEP_MS = 20;
/* how far the panel's self time may be from it */
const SLEEP_TOLERANCE = 0.10;
const LAUNCH = "videotestsrc is-live=true ! " +
  "video/x-raw,framerate=30/1,width=160,height=120 ! queue ! " +
  "identity name=slow sleep-time=20000 ! " +
  `identity name="${XSS}" ! fakesink`;
const MARK = "panel test mark";
/* under `make test-asan` (GP_SANITIZER set) gstprof runs several times
 * slower: every bound is this many times longer */
const SLOW = process.env.GP_SANITIZER ? 3 : 1;
/* the whole test's bound (meson's timeout, 90 s, is above it) */
const DEADLINE_MS = 55000 * SLOW;
/* one step's bound (a click, a wait for the page) */
const STEP_MS = 10000 * SLOW;
const VIEWS = ["pipeline", "timeline", "machine", "findings", "inspector"];

/* the pipelines whose graphs must fit a page (issue 30): a small one,
 * three different branches, 40 elements in a chain */
const FIT_PIPELINES = {
  small: "videotestsrc num-buffers=20 ! videoconvert ! fakesink",
  wide: "videotestsrc num-buffers=20 ! tee name=t t. ! queue ! " +
    "videoconvert ! fakesink t. ! queue ! videoscale ! fakesink t. ! " +
    "queue ! videoflip ! fakesink",
  long: "videotestsrc num-buffers=20 ! " +
    Array.from({ length: 38 }, (_, i) => `identity name=id${i}`).join(" ! ") +
    " ! fakesink",
};
const FIT_VIEWPORTS = [{ width: 1280, height: 800 },
  { width: 1920, height: 1080 }];
/* the smallest text a page may show, in CSS pixels */
const MIN_TEXT_PX = 11;

const N_TESTS = 18 + Object.keys(FIT_PIPELINES).length *
  FIT_VIEWPORTS.length;
let n = 0;
let failed = 0;
const children = [];

function ok(cond, name, detail) {
  n++;
  if (cond)
    console.log(`ok ${n} - ${name}`);
  else {
    failed++;
    console.log(`not ok ${n} - ${name}`);
  }
  if (detail)
    for (const line of String(detail).split("\n"))
      console.log(`# ${line}`);
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/* gstprof with @args; resolves with the URL it says it serves. */
function startServer(args) {
  const child = spawn(GSTPROF, args, { stdio: ["ignore", "pipe", "pipe"] });
  const proc = { child, err: "", out: "", exited: null };

  children.push(child);
  child.stdout.on("data", (d) => { proc.out += d; });
  proc.exit = new Promise((resolve) => {
    child.on("exit", (code, sig) => {
      proc.exited = { code, sig };
      resolve(proc.exited);
    });
  });
  proc.url = new Promise((resolve, reject) => {
    child.stderr.on("data", (d) => {
      /* a live run's address carries its token in the fragment */
      const m = /serving (http:\/\/\S+\/(?:#token=[0-9a-f]+)?) /.exec(
        proc.err += d);

      if (m)
        resolve(m[1]);
    });
    proc.exit.then((e) => reject(new Error(`gstprof ${args[0]} exited ` +
      `(${e.code}, ${e.sig}) before serving: ${proc.err.trim()}`)));
    setTimeout(() => reject(new Error(`gstprof ${args[0]} said no ` +
      `address in ${15 * SLOW} s: ${proc.err.trim()}`)), 15000 * SLOW);
  });
  return proc;
}

function run(args) {
  return new Promise((resolve) => {
    const child = spawn(GSTPROF, args, { stdio: ["ignore", "pipe", "pipe"] });
    let err = "";

    children.push(child);
    child.stderr.on("data", (d) => { err += d; });
    child.on("exit", (code) => resolve({ code, err }));
  });
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(OUT, `${name}.png`),
    fullPage: true });
}

async function showView(page, v) {
  await page.click(`#tabs button[data-view="${v}"]`);
  await page.waitForSelector(`#view-${v}:not([hidden])`);
  await page.waitForTimeout(250);
}

async function text(page, sel) {
  return (await page.textContent(sel)) || "";
}

/* In @page: whether the document scrolls sideways, and the smallest
 * text of the SVGs under @sel as drawn (its font-size times the SVG's
 * scale), in px. */
async function fitOf(page, sel) {
  return page.evaluate((sel) => {
    const doc = document.documentElement;
    let min = Infinity, svgs = 0;

    for (const svg of document.querySelectorAll(sel)) {
      const vb = svg.viewBox && svg.viewBox.baseVal;
      const w = svg.getBoundingClientRect().width;

      if (!vb || !vb.width || !w)
        continue;
      svgs++;
      for (const t of svg.querySelectorAll("text")) {
        const fs = parseFloat(t.getAttribute("font-size") ||
          getComputedStyle(t).fontSize);

        if (fs > 0)
          min = Math.min(min, fs * w / vb.width);
      }
    }
    return { overflow: doc.scrollWidth - doc.clientWidth, svgs,
      minText: min };
  }, sel);
}

/* Each pipeline's graph in the panel's Pipeline view and in the report,
 * at each viewport: no sideways scrolling, no text under MIN_TEXT_PX. */
async function checkFits(browser, tmp) {
  for (const [name, launch] of Object.entries(FIT_PIPELINES)) {
    const dir = path.join(tmp, `fit-${name}`);
    const rep = path.join(tmp, `fit-${name}.html`);
    const r = await run(["run", "--quiet", "--out", dir, launch]);
    const rr = await run(["report", dir, "-o", rep]);
    const srv = startServer(["serve", "--port", "0", dir]);
    const url = await srv.url;

    for (const vp of FIT_VIEWPORTS) {
      const ctx = await browser.newContext({ viewport: vp });
      const page = await ctx.newPage();

      page.setDefaultTimeout(STEP_MS);
      await page.goto(url);
      await page.waitForSelector("#graph svg.graph-svg");
      await page.waitForTimeout(250);
      const box = await page.$eval("#graph", (g) =>
        ({ sw: g.scrollWidth, cw: g.clientWidth }));
      const panel = await fitOf(page, "#graph svg");
      await shot(page, `fit-${name}-${vp.width}-panel`);
      await page.goto("file://" + rep);
      const report = await fitOf(page, "figure svg");
      await shot(page, `fit-${name}-${vp.width}-report`);
      ok(r.code <= 1 && rr.code === 0 && box.sw <= box.cw + 1 &&
        panel.overflow <= 0 && panel.minText >= MIN_TEXT_PX &&
        report.svgs > 0 && report.overflow <= 0 &&
        report.minText >= MIN_TEXT_PX,
      `the ${name} pipeline's graph fits ${vp.width}x${vp.height} ` +
        "(panel and report)",
      `run ${r.code}, report ${rr.code}; panel graph ${box.sw} px in ` +
        `${box.cw}, page over by ${panel.overflow}, smallest text ` +
        `${panel.minText.toFixed(1)} px; report page over by ` +
        `${report.overflow}, ${report.svgs} svg, smallest text ` +
        `${report.minText.toFixed(1)} px`);
      await ctx.close();
    }
    srv.child.kill("SIGINT");
    await srv.exit;
  }
}

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "gp-browser-"));
  const dir = path.join(tmp, "s");
  const browser = await chromium.launch({ executablePath: CHROMIUM,
    args: ["--no-sandbox"], headless: true, timeout: 20000 });
  const dialogs = [];
  let session = null;

  fs.mkdirSync(OUT, { recursive: true });
  console.log(`1..${N_TESTS}`);
  try {
    /* ---- the live run -------------------------------------------------- */
    const live = startServer(["run", "--serve", "--port", "0", "--hold",
      "30s", "--duration", `${40 * SLOW}s`, "--out", dir, LAUNCH]);
    const url = await live.url;
    const ctx = await browser.newContext({ viewport: { width: 1400,
      height: 900 } });
    const page = await ctx.newPage();

    page.setDefaultTimeout(STEP_MS);
    const errors = [];

    page.on("dialog", (d) => { dialogs.push(d.message()); d.dismiss(); });
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(url);
    await page.waitForFunction(() =>
      document.getElementById("st-mode").textContent === "live" &&
      parseInt(document.getElementById("st-windows").textContent, 10) >= 2,
    null, { timeout: 15000 * SLOW });
    ok(true, "the panel loads during a live run",
      `${url}: ${await text(page, "#status")}`);
    /* the token came in the printed address only; the page keeps it and
     * takes it out of the address bar, and the state does not carry it */
    const stateKeys = await page.evaluate(async () =>
      Object.keys(await (await fetch("api/state")).json()));
    ok(/#token=[0-9a-f]{32}$/.test(url) && !page.url().includes("token") &&
      !stateKeys.includes("token") &&
      !(await page.$eval("#live-controls", (e) => e.hidden)),
    "the token is the printed address's, and only there",
    `printed ${url}; address bar ${page.url()}; state's keys ` +
      `${JSON.stringify(stateKeys)}`);

    /* numbers change between two reads */
    const read = async () => ({
      windows: await text(page, "#st-windows"),
      t: await text(page, "#st-t"),
      buffers: await text(page,
        '#elements-table tr[data-name="slow"] td:nth-child(6)')
    });
    const r1 = await read();
    await page.waitForTimeout(1500);
    const r2 = await read();
    ok(r1.windows !== r2.windows && r1.t !== r2.t &&
      r1.buffers !== r2.buffers, "numbers change between two reads",
    `${JSON.stringify(r1)} then ${JSON.stringify(r2)}`);

    /* the graph shows every element */
    await page.waitForSelector('#graph g.node[data-name="slow"]',
      { timeout: STEP_MS });
    const names = await page.evaluate(async () => {
      const st = await (await fetch("api/state")).json();
      return st.session.graph.elements.filter((e) => !e.is_bin)
        .map((e) => e.name);
    });
    const shown = await page.$$eval("#graph g.node",
      (gs) => gs.map((g) => g.getAttribute("data-name")));
    const missing = names.filter((x) => !shown.includes(x));
    ok(names.length >= 6 && missing.length === 0 && names.includes(XSS),
      "the graph shows every element", `elements ${JSON.stringify(names)}; ` +
      `missing ${JSON.stringify(missing)}`);
    /* a second client joins: the server sends the entries after its
     * state to every client again, and the first keeps each once */
    const page2 = await (await browser.newContext()).newPage();
    page2.setDefaultTimeout(STEP_MS);
    /* whoever knows the address but not the token: no Stop, no Mark */
    await page2.goto(url.replace(/#.*/, ""));
    await page2.waitForFunction(() =>
      document.getElementById("st-mode").textContent === "live");
    ok(await page2.$eval("#live-controls", (e) => e.hidden),
      "without the token the panel offers no Stop",
      `opened ${url.replace(/#.*/, "")}`);
    await page.waitForTimeout(2500);
    await page2.context().close();
    await showView(page, "timeline");
    let xs = null;
    let nwin = 0;
    for (let i = 0; i < 20 && !xs; i++) {
      nwin = parseInt(await text(page, "#st-windows"), 10);
      xs = await page.evaluate(() => {
        for (const c of document.querySelectorAll(".chart"))
          if (/^slow: self time/.test(c.querySelector(".chart-title")
            .textContent))
            return (c.querySelector("path.line.p50").getAttribute("d")
              .match(/[ML][\d.]+/g) || []).map((m) => +m.slice(1));
        return null;
      }).catch(() => null);
    }
    /* a window may land between the count's read and the chart's */
    const nwinAfter = parseInt(await text(page, "#st-windows"), 10);
    const rising = xs && xs.every((x, i) => i === 0 || x > xs[i - 1]);
    ok(rising && xs.length >= nwin - 2 && xs.length <= nwinAfter,
      "a second client joining leaves the first one's windows each once",
      `${xs ? xs.length : "no"} points for ${nwin} to ${nwinAfter} windows, ` +
      `${rising ? "" : "not "}rising in time`);

    for (const v of VIEWS.slice(0, 4)) {
      await showView(page, v);
      await shot(page, `live-${v}`);
    }

    /* the timeline's crosshair reads slow's self time under the mouse */
    await showView(page, "timeline");
    const chartSvg = page.locator(".chart", { has: page.locator(
      ".chart-title", { hasText: /^slow: self time/ }) }).locator("svg");
    /* the charts are drawn again at each window: a box of one just
     * replaced is null, the next one's is there */
    let box = null;
    for (let i = 0; i < 20 && !box; i++)
      box = await chartSvg.boundingBox().catch(() => null);
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
    const reading = await page.locator(".chart", { has: page.locator(
      ".chart-title", { hasText: /^slow: self time/ }) }).locator(".read")
      .textContent();
    const crossP50 = parseFloat((/p50 ([\d.]+)/.exec(reading) || [])[1]);
    ok(Math.abs(crossP50 - SLEEP_MS) <= SLEEP_MS * SLEEP_TOLERANCE &&
      /^t [\d.]+ s$/.test(await text(page, "#crosshair-t")),
    "the timeline's crosshair reads slow's self time under the mouse",
    `${await text(page, "#crosshair-t")}: ${reading}`);

    /* clicking slow opens its inspector at the planted time */
    await showView(page, "pipeline");
    await page.click('#graph g.node[data-name="slow"]');
    await page.waitForSelector("#view-inspector:not([hidden])");
    const insName = await text(page, "#insp-name");
    const p50 = parseFloat(await text(page, "#insp-self-p50"));
    ok(insName === "slow" &&
      Math.abs(p50 - SLEEP_MS) <= SLEEP_MS * SLEEP_TOLERANCE,
    "clicking slow opens its inspector with about 20 ms",
    `inspector of ${insName}: self p50 ${p50} ms against ${SLEEP_MS} ms slept`);
    await shot(page, "live-inspector");

    /* the XSS name is text, and nothing ran */
    await showView(page, "pipeline");
    const asText = await page.$$eval("#elements-table button.link",
      (bs, x) => bs.filter((b) => b.textContent === x).length, XSS);
    await page.click(`#elements-table tr[data-name="${XSS}"] button`);
    await page.waitForSelector("#view-inspector:not([hidden])");
    const xssInspector = await text(page, "#insp-name");
    /* (the page's one image of its own: the roofline, where there is one) */
    const imgs = await page.$$eval("img:not(#roofline-img)",
      (is) => is.length);
    ok(asText === 1 && xssInspector === XSS && imgs === 0 &&
      dialogs.length === 0 && errors.length === 0,
    "the element named <img src=x onerror=alert(1)> shows as text and " +
      "nothing runs", `as text in the table: ${asText}, inspector: ` +
      `${JSON.stringify(xssInspector)}, img elements: ${imgs}, dialogs: ` +
      `${JSON.stringify(dialogs)}, page errors: ${JSON.stringify(errors)}`);

    /* Mark, then Stop */
    await page.fill("#mark-text", MARK);
    await page.click("#btn-mark");
    await page.waitForFunction(() =>
      document.getElementById("msg").textContent === "marked", null,
    { timeout: STEP_MS });
    await page.click("#btn-stop");
    await page.waitForFunction(() =>
      document.getElementById("st-mode").textContent === "ended", null,
    { timeout: STEP_MS });
    const ended = await text(page, "#status");
    live.child.kill("SIGINT");      /* the end of --hold */
    const ex = await live.exit;
    try {
      session = JSON.parse(fs.readFileSync(path.join(dir, "session.json"),
        "utf8"));
    } catch (e) {
      session = null;
    }
    const ev = session ? session.events : [];
    const slow = session && session.summary.elements.slow;
    ok(session && session.schema === "gstprof/1" &&
      session.session.exit_code >= 0 && session.session.end === "interrupt" &&
      Array.isArray(session.findings) && session.findings.length > 0 &&
      slow && slow.buffers > 10 && ev.some((e) => e.type === "interrupt") &&
      (ex.code === 0 || ex.code === 1),
    "Stop ends the run and the session file is complete",
    `page: ${ended}; gstprof exited ${ex.code}; session: ` +
      (session ? `end ${session.session.end}, exit_code ` +
      `${session.session.exit_code}, ${session.findings.length} findings, ` +
      `slow ${slow && slow.buffers} buffers p50 ` +
      `${slow && slow.self_ms.p50} ms` : "unreadable"));
    ok(ev.some((e) => e.type === "mark" && e.text === MARK),
      "Mark lands in the session's events with its text",
      JSON.stringify(ev.filter((e) => e.type === "mark")));
    await ctx.close();

    /* ---- the replay ------------------------------------------------------ */
    const replay = startServer(["serve", "--port", "0", dir]);
    const rurl = await replay.url;
    const rctx = await browser.newContext({ viewport: { width: 1400,
      height: 900 } });
    const rpage = await rctx.newPage();

    rpage.setDefaultTimeout(STEP_MS);

    rpage.on("dialog", (d) => { dialogs.push(d.message()); d.dismiss(); });
    await rpage.goto(rurl);
    await rpage.waitForFunction(() =>
      document.getElementById("st-mode").textContent === "replay");
    await showView(rpage, "findings");
    const cards = await rpage.$$eval("#findings-list li.finding .finding-title",
      (ts) => ts.map((t) => t.textContent));
    const hidden = await rpage.$eval("#live-controls", (e) => e.hidden);
    ok(session && cards.length === session.findings.length &&
      cards[0] === session.findings[0].title && hidden,
    "a replayed session shows its findings (and no Stop)",
    `${cards.length} shown, ${session ? session.findings.length : "?"} in ` +
      `the session; first: ${JSON.stringify(cards[0])}`);
    for (const v of VIEWS.slice(0, 4)) {
      await showView(rpage, v);
      await shot(rpage, `replay-${v}`);
    }
    await showView(rpage, "pipeline");
    await rpage.click('#graph g.node[data-name="slow"]');
    await rpage.waitForSelector("#view-inspector:not([hidden])");
    const replayP50 = await text(rpage, "#insp-self-p50");
    await shot(rpage, "replay-inspector");
    const truth = slow ? slow.self_ms.p50.toFixed(3) : "?";
    ok(replayP50 === `${truth} ms`,
      "the replay's inspector shows the session's self time",
      `panel ${replayP50}, session ${truth} ms`);
    /* Save: the page's link downloads the session as shown */
    const [download] = await Promise.all([rpage.waitForEvent("download"),
      rpage.click("#save")]);
    const saved = JSON.parse(fs.readFileSync(await download.path(), "utf8"));
    ok(download.suggestedFilename() === "session.json" && session &&
      saved.session.launch === session.session.launch &&
      saved.summary.elements.slow.self_ms.p50 === slow.self_ms.p50,
    "Save downloads the session shown",
    `${download.suggestedFilename()}, slow p50 ` +
      `${saved.summary && saved.summary.elements.slow.self_ms.p50} ms`);
    replay.child.kill("SIGINT");
    await replay.exit;
    await rctx.close();

    /* ---- the report, offline --------------------------------------------- */
    const report = path.join(tmp, "r.html");
    const rep = await run(["report", dir, "-o", report]);
    const octx = await browser.newContext({ offline: true,
      viewport: { width: 1400, height: 900 } });
    const fetched = [];

    await octx.route("**/*", (route) => {
      const u = route.request().url();

      if (u.startsWith("file:"))
        return route.continue();
      fetched.push(u);
      return route.abort();
    });
    const opage = await octx.newPage();

    opage.setDefaultTimeout(STEP_MS);
    opage.on("dialog", (d) => { dialogs.push(d.message()); d.dismiss(); });
    await opage.goto("file://" + report);
    const reportP50 = await opage.evaluate(() => {
      const h = document.getElementById("gp-table-elements");
      let t = h ? h.nextElementSibling : null;

      while (t && t.tagName !== "TABLE")
        t = t.nextElementSibling;
      if (!t)
        return null;
      for (const tr of t.tBodies[0].rows)
        if (tr.cells[0].textContent === "slow")
          return tr.cells[3].textContent;
      return null;
    });
    await shot(opage, "report");
    ok(rep.code === 0 && reportP50 === truth && `${reportP50} ms` ===
      replayP50 && fetched.length === 0,
    "the report opens from file:// offline with the same self time",
    `gstprof report exited ${rep.code} ${rep.err.trim()}; report ` +
      `${reportP50} ms, panel ${replayP50}, session ${truth} ms; ` +
      `fetched: ${JSON.stringify(fetched)}`);
    await octx.close();

    /* ---- a machine log alone --------------------------------------------- */
    const log = path.join(process.env.GP_FIXTURES || "", "telemetry",
      "tegrastats_agx_orin32_r36_multispace_engines_off.txt");
    const mserve = startServer(["serve", "--port", "0", log]);
    const mctx = await browser.newContext({ viewport: { width: 1400,
      height: 900 } });
    const mpage = await mctx.newPage();

    mpage.setDefaultTimeout(STEP_MS);
    mpage.on("dialog", (d) => { dialogs.push(d.message()); d.dismiss(); });
    await mpage.goto(await mserve.url);
    await mpage.waitForSelector("#view-machine:not([hidden]) .chart");
    const mstate = await mpage.evaluate(async () =>
      (await (await fetch("api/state")).json()).session);
    const mcharts = await mpage.$$eval("#machine-charts .chart-title",
      (ts) => ts.map((t) => t.textContent));
    const pipelineTab = await mpage.$eval(
      '#tabs button[data-view="pipeline"]', (b) => b.hidden);
    const nseries = mstate.machine ? mstate.machine.series.length : 0;
    await shot(mpage, "tegrastats-machine");
    ok(nseries >= 10 && mcharts.length === nseries && pipelineTab &&
      mcharts.some((t) => t.startsWith("temp/")),
    "a tegrastats log replays as the machine views alone",
    `${mcharts.length} charts for ${nseries} series; pipeline tab ` +
      `${pipelineTab ? "hidden" : "shown"}`);
    /* the EMC's load is memory traffic: its roofline, drawn by the server */
    await mpage.waitForFunction(() => {
      const img = document.getElementById("roofline-img");
      return !document.getElementById("roofline").hidden && img.complete &&
        img.naturalWidth > 0;
    });
    const roof = await mpage.$eval("#roofline-caption", (c) => c.textContent);
    await mpage.$eval("#roofline", (r) => r.scrollIntoView());
    await shot(mpage, "tegrastats-roofline");
    ok(roof.startsWith("peaks: ") && roof.includes("Orin"),
      "a tegrastats log's memory traffic is placed on the roofline", roof);
    mserve.child.kill("SIGINT");
    await mserve.exit;
    await mctx.close();
    ok(dialogs.length === 0, "no dialog fired in any page",
      JSON.stringify(dialogs));

    /* ---- graphs that fit ------------------------------------------------- */
    await checkFits(browser, tmp);
  } finally {
    await browser.close();
    killChildren();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`# screenshots in ${OUT}`);
}

/* a test that is killed (meson's timeout: SIGTERM) takes its gstprofs
 * with it; Chromium is playwright's, which ends it on the same signals */
function killChildren() {
  for (const c of children)
    if (c.exitCode === null && c.signalCode === null)
      c.kill("SIGKILL");
}
process.on("exit", killChildren);
for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"])
  process.on(sig, () => {
    console.log(`Bail out! ${sig}`);
    process.exit(1);
  });

const timer = setTimeout(() => {
  console.log(`Bail out! the test passed its ${DEADLINE_MS / 1000} s`);
  process.exit(1);
}, DEADLINE_MS);

main().then(() => {
  clearTimeout(timer);
  if (n !== N_TESTS)
    console.log(`# ran ${n} of ${N_TESTS}`);
  process.exit(failed || n !== N_TESTS ? 1 : 0);
}).catch((e) => {
  console.log(`Bail out! ${String(e && e.stack || e).split("\n")[0]}`);
  process.exit(1);
});
