/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof's live panel (src/serve/gp-serve.h serves it).
 *
 * One page, views as tabs: Pipeline (the graph graphviz laid out, filled
 * by the window's self time), Timeline and Machine (small SVG charts on
 * one time axis with a crosshair), Findings, Inspector (one element);
 * Stop and Mark while a capture runs; a scrubber picking the window under
 * the cursor.
 *
 * Data: GET api/state, then api/events (server-sent events): "state" (the
 * whole session so far), "window" (what is new: series entries, machine
 * samples, events; the summary; findings and graph when they changed),
 * "end". A replay gets "state" and "end".
 *
 * Every name and value from the session reaches the DOM as text
 * (textContent, setAttribute), never as markup; the graph's SVG is parsed
 * as XML and stripped of anything that could run before it is shown.
 * Nothing is fetched but this server's own api/ paths.
 */
"use strict";

(function () {
  var SVGNS = "http://www.w3.org/2000/svg";
  /* a chart's size in CSS pixels (its width follows the view's) */
  var CHART_H = 120;
  var CHART_MIN_W = 320;
  var CHART_PAD = { l: 48, r: 8, t: 6, b: 18 };
  /* fill of an element with all of the window's self time */
  var HOT_RGB = [220, 30, 30];
  /* the graph is shrunk to the view's width down to this scale: below
   * it the links' 10 pt labels (13.3 px) would be under 11 px. The export
   * lays a graph wider than a page out top to bottom and folds branches
   * alike, so that a page holds it at this scale */
  var GRAPH_MIN_SCALE = 0.83;
  /* windows the page keeps before it thins the older ones (an hour at
   * the default 250 ms is 14,400; every chart draws each) */
  var PANEL_MAX_SERIES = 4096;
  /* redraws at most this often while windows stream in (ms) */
  var RENDER_MIN_MS = 200;

  var S = {
    live: false, ended: false, token: pageToken(), connected: false,
    session: null,
    cursor: -1,             /* index in series; -1: none yet */
    follow: true,           /* the cursor follows the newest window */
    view: "pipeline",
    selected: null,         /* the inspector's element */
    graph: null,            /* {svg, nodes: name -> {...}, edges: id -> {...}} */
    graphWanted: true,      /* fetch api/graph.svg at the next render */
    roofline: null,         /* its caption, when the server draws one */
    rooflineDrawn: 0,       /* the picture's turn (api/roofline.svg?n=) */
    graphFetching: false,
    crossT: null,           /* the crosshair's time */
    es: null,
    eventKeys: new Set(),
    lastRender: 0, renderTimer: 0
  };

  /* The token Stop and Mark need: only in the URL printed on the
   * terminal of whoever started the run (#token=..., a fragment no server
   * sees), never from the server; kept for this tab (sessionStorage is
   * this origin's, port included) and taken out of the address bar. */
  function pageToken() {
    var m = /(?:^#|&)token=([0-9a-f]+)/.exec(location.hash);
    var t = "";

    try {
      if (m)
        sessionStorage.setItem("gstprof-token", m[1]);
      t = sessionStorage.getItem("gstprof-token") || "";
    } catch (e) {
      t = m ? m[1] : "";
    }
    if (m && history.replaceState)
      history.replaceState(null, "", location.pathname + location.search);
    return t;
  }

  /* ---- small helpers ---------------------------------------------------- */

  function $(id) { return document.getElementById(id); }

  /* An HTML element; @text (if any) as text, never markup. */
  function h(tag, attrs, text) {
    var e = document.createElement(tag);
    var k;

    if (attrs)
      for (k in attrs)
        if (Object.prototype.hasOwnProperty.call(attrs, k))
          e.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null)
      e.textContent = String(text);
    return e;
  }

  function sv(tag, attrs, text) {
    var e = document.createElementNS(SVGNS, tag);
    var k;

    if (attrs)
      for (k in attrs)
        if (Object.prototype.hasOwnProperty.call(attrs, k))
          e.setAttribute(k, String(attrs[k]));
    if (text !== undefined && text !== null)
      e.textContent = String(text);
    return e;
  }

  function clear(e) {
    while (e.firstChild)
      e.removeChild(e.firstChild);
  }

  function isNum(v) {
    return typeof v === "number" && isFinite(v);
  }

  /* a measurement: "–" for unknown (null, or the -1 of "no sample") */
  function fmt(v, digits) {
    if (!isNum(v) || v < 0)
      return "–";
    if (digits === undefined)
      digits = Math.abs(v) >= 100 ? 1 : 2;
    return v.toFixed(digits);
  }

  /* any JSON value as one line of text */
  function plain(v) {
    if (v === null || v === undefined)
      return "null";
    if (typeof v === "object")
      return JSON.stringify(v);
    return String(v);
  }

  function own(o, k) {
    return o && Object.prototype.hasOwnProperty.call(o, k);
  }

  function keys(o) {
    return o && typeof o === "object" ? Object.keys(o) : [];
  }

  function say(text) {
    $("msg").textContent = text || "";
  }

  /* "element.pad" -> "element" (names may hold dots; the pad is last) */
  function padElement(pad) {
    var i = pad ? pad.lastIndexOf(".") : -1;

    return i > 0 ? pad.slice(0, i) : pad || "";
  }

  /* ---- the session model ------------------------------------------------ */

  function emptySession() {
    return { session: {}, graph: { elements: [], links: [] }, summary: {},
      series: [], machine: { series: [], sources: [], facts: {} },
      events: [], findings: [] };
  }

  function normalize(s) {
    var e = emptySession();
    var k;

    if (!s || typeof s !== "object")
      return e;
    for (k in e)
      if (!own(s, k) || s[k] === null)
        s[k] = e[k];
    if (!Array.isArray(s.graph.elements))
      s.graph.elements = [];
    if (!Array.isArray(s.graph.links))
      s.graph.links = [];
    if (!Array.isArray(s.machine.series))
      s.machine.series = [];
    return s;
  }

  function elementOf(name) {
    var els = S.session.graph.elements, i;

    for (i = 0; i < els.length; i++)
      if (els[i].name === name)
        return els[i];
    return null;
  }

  function isQueue(name) {
    var e = elementOf(name);

    return (e && e.kind === "queue") || own(S.session.summary.queues, name);
  }

  function curWindow() {
    var ser = S.session ? S.session.series : [];

    if (S.cursor < 0 || S.cursor >= ser.length)
      return null;
    return ser[S.cursor];
  }

  /* the index of the window that holds @t (the nearest one outside) */
  function windowAt(t) {
    var ser = S.session.series, lo = 0, hi = ser.length - 1, mid;

    if (hi < 0)
      return -1;
    while (lo < hi) {
      mid = (lo + hi) >> 1;
      if (ser[mid].t1 < t)
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo;
  }

  /* an event's identity: the server sends them all again when its list
   * was merged */
  function eventKey(e) {
    return [e.t, e.type, e.source, e.text].join("\u0000");
  }

  function applyState(st) {
    S.live = !!st.live;
    S.ended = !!st.ended;
    S.session = normalize(st.session);
    S.eventKeys = new Set(S.session.events.map(eventKey));
    setRoofline(st.roofline);

    S.graphWanted = true;
    if (S.follow || S.cursor >= S.session.series.length)
      S.cursor = S.session.series.length - 1;
    scheduleRender(true);
  }

  /* the server drew the roofline again (with each state it makes) */
  function setRoofline(caption) {
    S.roofline = typeof caption === "string" ? caption : null;
    S.rooflineDrawn++;
  }

  function machineSeries(name) {
    var all = S.session.machine.series, i;

    for (i = 0; i < all.length; i++)
      if (all[i].name === name)
        return all[i];
    return null;
  }

  /* A long run: past PANEL_MAX_SERIES windows, the older half's
   * neighbours become one entry each, the later's values over both spans
   * (the server's own copy, which a reconnect reloads, merges them
   * exactly). */
  function thinSeries(s) {
    var ser = s.series, half, out = [], i, e;
    var at = !S.follow && S.cursor >= 0 && S.cursor < ser.length ?
        ser[S.cursor].t1 : null;

    if (ser.length <= PANEL_MAX_SERIES)
      return;
    half = ser.length >> 1;
    for (i = 0; i + 1 < half; i += 2) {
      e = ser[i + 1];
      e.t0 = ser[i].t0;
      out.push(e);
    }
    for (; i < ser.length; i++)
      out.push(ser[i]);
    s.series = out;
    if (at !== null)
      S.cursor = windowAt(at);
  }

  function applyWindow(w) {
    var s = S.session, i, name, d, m;

    if (!s)
      return;
    if (w.session)
      s.session = w.session;
    if (w.summary)
      s.summary = w.summary;
    /* the server may send an entry again (to every client, after one
     * joined): each is kept once, by its time */
    if (Array.isArray(w.series))
      for (i = 0; i < w.series.length; i++)
        if (!s.series.length ||
            w.series[i].t1 > s.series[s.series.length - 1].t1)
          s.series.push(w.series[i]);
    thinSeries(s);
    if (w.machine && typeof w.machine === "object") {
      for (name in w.machine) {
        if (!own(w.machine, name))
          continue;
        d = w.machine[name];
        m = machineSeries(name);
        if (!m) {
          m = { name: name, unit: d.unit || "", limit: null, t: [], v: [] };
          s.machine.series.push(m);
        }
        if (d.reset) {
          m.t = [];
          m.v = [];
        }
        if (own(d, "limit"))
          m.limit = d.limit;
        for (i = 0; Array.isArray(d.t) && i < d.t.length; i++)
          if (!m.t.length || d.t[i] > m.t[m.t.length - 1]) {
            m.t.push(d.t[i]);
            m.v.push(d.v[i]);
          }
      }
    }
    if (Array.isArray(w.events))
      for (i = 0; i < w.events.length; i++)
        if (!S.eventKeys.has(eventKey(w.events[i]))) {
          S.eventKeys.add(eventKey(w.events[i]));
          s.events.push(w.events[i]);
        }
    if (own(w, "findings"))
      s.findings = Array.isArray(w.findings) ? w.findings : [];
    if (own(w, "roofline"))
      setRoofline(w.roofline);
    if (own(w, "graph") && w.graph) {
      s.graph = w.graph;
      normalize(s);
      S.graphWanted = true;
    }
    if (S.follow)
      S.cursor = s.series.length - 1;
    scheduleRender(false);
  }

  /* ---- the connection --------------------------------------------------- */

  function parse(ev) {
    try {
      return JSON.parse(ev.data);
    } catch (e) {
      say("a message from the server was not JSON: " + e.message);
      return null;
    }
  }

  function connect() {
    var es;

    if (typeof EventSource === "undefined") {
      fetchState();
      return;
    }
    es = new EventSource("api/events");
    S.es = es;
    es.addEventListener("state", function (ev) {
      var st = parse(ev);

      S.connected = true;
      say("");
      if (st)
        applyState(st);
    });
    es.addEventListener("window", function (ev) {
      var w = parse(ev);

      if (w)
        applyWindow(w);
    });
    es.addEventListener("end", function () {
      S.ended = true;
      es.close();
      S.es = null;
      scheduleRender(true);
    });
    es.onerror = function () {
      if (S.ended || !S.es)
        return;
      S.connected = false;
      say("the connection to gstprof was lost; trying again (the capture " +
          "may have ended)");
      scheduleRender(true);
    };
  }

  function fetchState() {
    fetch("api/state", { cache: "no-store" }).then(function (r) {
      if (!r.ok)
        throw new Error("api/state: " + r.status);
      return r.json();
    }).then(function (st) {
      S.connected = true;
      applyState(st);
    }).catch(function (e) {
      say(String(e.message || e));
    });
  }

  function post(path, body) {
    return fetch(path, {
      method: "POST", cache: "no-store",
      headers: { "X-Gstprof-Token": S.token,
        "Content-Type": "text/plain; charset=utf-8" },
      body: body || ""
    }).then(function (r) {
      return r.text().then(function (t) {
        if (!r.ok)
          throw new Error(path + ": " + r.status + " " + t.trim());
        return t.trim();
      });
    });
  }

  /* ---- rendering ---------------------------------------------------------- */

  function scheduleRender(now) {
    var wait = RENDER_MIN_MS - (Date.now() - S.lastRender);

    if (S.renderTimer)
      return;
    if (now || wait <= 0) {
      S.renderTimer = window.requestAnimationFrame(function () {
        S.renderTimer = 0;
        render();
      });
      return;
    }
    S.renderTimer = window.setTimeout(function () {
      S.renderTimer = 0;
      render();
    }, wait);
  }

  function render() {
    S.lastRender = Date.now();
    if (!S.session)
      return;
    renderStatus();
    renderScrubber();
    renderTabs();
    if (S.view === "pipeline")
      renderPipeline();
    else if (S.view === "timeline")
      renderTimeline();
    else if (S.view === "machine")
      renderMachine();
    else if (S.view === "findings")
      renderFindings();
    else if (S.view === "inspector")
      renderInspector();
  }

  function renderStatus() {
    var s = S.session, info = s.session || {};
    var ser = s.series, t = null, mode;

    if (ser.length)
      t = ser[ser.length - 1].t1;
    if (!S.live)
      mode = "replay";
    else if (S.ended)
      mode = "ended";
    else
      mode = S.connected ? "live" : "disconnected";
    $("st-mode").textContent = mode;
    $("st-mode").className = "mode-" + mode;
    $("st-t").textContent = t !== null ? "t " + t.toFixed(2) + " s" :
        (isNum(info.duration_s) ? "duration " + info.duration_s.toFixed(2) +
        " s" : "");
    $("st-windows").textContent = ser.length + (ser.length === 1 ?
        " window" : " windows");
    $("st-note").textContent = info.end ? "(ended: " + info.end + ")" : "";
    $("launch").textContent = info.launch ? info.launch :
        (info.mode ? info.mode + " session" : "");
    /* without the token the server refuses them: not shown */
    $("live-controls").hidden = !S.live || !S.token;
    /* a second Stop would stop at once, without EOS's drain */
    $("btn-stop").disabled = S.ended || S.stopping;
    $("btn-mark").disabled = S.ended;
    $("mark-text").disabled = S.ended;
    $("findings-count").textContent = "(" + s.findings.length + ")";
  }

  function renderScrubber() {
    var ser = S.session.series, sc = $("scrubber"), w = curWindow();

    sc.max = String(Math.max(0, ser.length - 1));
    sc.value = String(Math.max(0, S.cursor));
    sc.disabled = ser.length === 0;
    $("follow").checked = S.follow;
    $("follow").parentNode.hidden = !S.live || S.ended;
    $("scrub-label").textContent = w ? (S.cursor + 1) + " of " + ser.length +
        ": " + w.t0.toFixed(2) + "–" + w.t1.toFixed(2) + " s" :
        S.live && !S.ended ? "no window yet" : "no window in this session";
  }

  /* A machine log alone (`gstprof serve tegrastats.log`) has the machine
   * views only. */
  var PIPELINE_VIEWS = { pipeline: 1, timeline: 1, inspector: 1 };

  function renderTabs() {
    var tabs = document.querySelectorAll("#tabs button"), i, v;
    var machineOnly = S.session && !S.live &&
        !S.session.graph.elements.length && !S.session.series.length;

    if (machineOnly && own(PIPELINE_VIEWS, S.view))
      S.view = "machine";
    $("scrub-row").hidden = !!machineOnly;
    for (i = 0; i < tabs.length; i++) {
      v = tabs[i].getAttribute("data-view");
      tabs[i].hidden = !!machineOnly && own(PIPELINE_VIEWS, v);
      tabs[i].setAttribute("aria-selected", v === S.view ? "true" : "false");
      $("view-" + v).hidden = v !== S.view;
    }
  }

  function showView(v) {
    if (!$("view-" + v))
      v = "pipeline";
    S.view = v;
    if (window.history && window.history.replaceState)
      window.history.replaceState(null, "", "#" + v);
    scheduleRender(true);
  }

  function inspect(name) {
    S.selected = name;
    showView("inspector");
  }

  /* a table cell that opens the inspector of @name */
  function nameCell(name) {
    var td = h("td"), b = h("button", { type: "button", "class": "link" },
        name);

    b.addEventListener("click", function () {
      inspect(name);
    });
    td.appendChild(b);
    return td;
  }

  function numCell(text) {
    return h("td", { "class": "num" }, text);
  }

  /* ---- Pipeline ------------------------------------------------------------- */

  /* Anything in the graph's SVG that could run or fetch is dropped: scripts,
   * foreign objects, event handlers, links and references outside it. */
  function sanitizeSvg(root) {
    /* the root itself too: querySelectorAll holds its descendants only */
    var all = [root].concat(Array.prototype.slice.call(
      root.querySelectorAll("*"))), i, j, n, a, name;
    var bad = { script: 1, foreignobject: 1, iframe: 1, object: 1,
      embed: 1, image: 1, use: 1, animate: 1, set: 1, animatetransform: 1,
      animatemotion: 1, handler: 1, listener: 1 };

    for (i = all.length - 1; i >= 0; i--) {
      n = all[i];
      if (n !== root && own(bad, n.localName.toLowerCase())) {
        n.parentNode.removeChild(n);
        continue;
      }
      for (j = n.attributes.length - 1; j >= 0; j--) {
        a = n.attributes[j];
        name = a.localName.toLowerCase();
        if (name.indexOf("on") === 0 || name === "href" ||
            name === "src" || name === "style" ||
            /url\s*\(/i.test(a.value))
          n.removeAttributeNode(a);
      }
    }
  }

  function fetchGraph() {
    if (S.graphFetching)
      return;
    S.graphFetching = true;
    S.graphWanted = false;
    fetch("api/graph.svg", { cache: "no-store" }).then(function (r) {
      if (r.status === 503)
        return null;            /* no window yet */
      if (!r.ok)
        throw new Error("api/graph.svg: " + r.status);
      return r.text();
    }).then(function (text) {
      S.graphFetching = false;
      if (text === null) {
        /* a live run's comes with its first window; a finished session
         * without one has none */
        S.graphWanted = S.live && !S.ended;
        if (!S.graphWanted && !S.graph) {
          clear($("graph"));
          $("graph").appendChild(h("p", { "class": "empty" },
              "No pipeline in this session."));
        }
        return;
      }
      installGraph(text);
      scheduleRender(true);
    }).catch(function (e) {
      S.graphFetching = false;
      say(String(e.message || e));
    });
  }

  function installGraph(text) {
    var doc = new DOMParser().parseFromString(text, "image/svg+xml");
    var root = doc.documentElement, svg, nodes = {}, edges = {};
    var gs, i, g, title, name, shape, texts, layer;

    if (!root || root.localName !== "svg" ||
        doc.getElementsByTagName("parsererror").length) {
      say("the graph's SVG could not be read");
      return;
    }
    sanitizeSvg(root);
    svg = document.importNode(root, true);
    svg.setAttribute("class", "graph-svg");
    gs = svg.querySelectorAll("g.node");
    for (i = 0; i < gs.length; i++) {
      g = gs[i];
      title = g.querySelector("title");
      name = title ? title.textContent : "";
      shape = g.querySelector("path, polygon, ellipse");
      texts = g.querySelectorAll("text");
      g.setAttribute("data-name", name);
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.setAttribute("aria-label", "inspect " + name);
      nodes[name] = { g: g, shape: shape, texts: texts,
        fill0: shape ? shape.getAttribute("fill") : null };
      (function (n) {
        g.addEventListener("click", function () {
          inspect(n);
        });
        g.addEventListener("keydown", function (ev) {
          if (ev.key === "Enter" || ev.key === " ")
            inspect(n);
        });
      })(name);
    }
    gs = svg.querySelectorAll("g.edge");
    for (i = 0; i < gs.length; i++) {
      g = gs[i];
      /* its label's lines (inside a link when the label has a tooltip) */
      texts = g.querySelectorAll("text");
      edges[g.getAttribute("id") || ""] = { g: g, rate: texts[0] || null,
        rate0: texts[0] ? texts[0].textContent : "",
        path: g.querySelector("path") };
    }
    layer = sv("g", { "class": "badges" });
    (svg.querySelector("g.graph") || svg).appendChild(layer);
    S.graph = { svg: svg, nodes: nodes, edges: edges, badges: layer,
      size: svgSize(svg) };
    clear($("graph"));
    $("graph").appendChild(svg);
    fitGraph();
  }

  /* the SVG's own size in CSS pixels (graphviz writes points) */
  function svgSize(svg) {
    var vb = (svg.getAttribute("viewBox") || "").split(/[\s,]+/).map(Number);

    if (vb.length === 4 && vb[2] > 0 && vb[3] > 0)
      return { w: vb[2] * 4 / 3, h: vb[3] * 4 / 3 };
    return { w: 800, h: 400 };
  }

  /* Shrunk to the view's width, down to GRAPH_MIN_SCALE (its text stays
   * readable; the view scrolls beyond), never enlarged. */
  function fitGraph() {
    var G = S.graph, cw, k;

    if (!G)
      return;
    cw = $("graph").clientWidth || 1000;
    k = Math.min(1, Math.max(GRAPH_MIN_SCALE, (cw - 4) / G.size.w));
    G.svg.setAttribute("width", Math.round(G.size.w * k));
    G.svg.setAttribute("height", Math.round(G.size.h * k));
  }

  /* The self time of each element in window @w, and their sum (queues
   * left out: their time is waiting, as in summary.elements.share_pct). */
  function windowShares(w) {
    var out = { sum: 0, ms: {} }, name, e;

    if (!w || !w.elements)
      return out;
    for (name in w.elements) {
      if (!own(w.elements, name) || isQueue(name))
        continue;
      e = w.elements[name];
      if (isNum(e.self_ms) && e.self_ms > 0) {
        out.ms[name] = e.self_ms;
        out.sum += e.self_ms;
      }
    }
    return out;
  }

  function heat(frac) {
    var f = Math.max(0, Math.min(1, frac)), c = [], i;

    for (i = 0; i < 3; i++)
      c.push(Math.round(255 - (255 - HOT_RGB[i]) * f));
    return "rgb(" + c.join(",") + ")";
  }

  function linkIsVideo(id) {
    var links = S.session.graph.links, i;

    for (i = 0; i < links.length; i++)
      if (links[i].id === id)
        return /^video\//.test(links[i].caps || "");
    return false;
  }

  function findingTargets() {
    var out = {}, f = S.session.findings, i, j, t;

    for (i = 0; i < f.length; i++)
      for (j = 0; f[i].targets && j < f[i].targets.length; j++) {
        t = f[i].targets[j];
        if (!out[t])
          out[t] = [];
        out[t].push(i);
      }
    return out;
  }

  function shapeBox(shape) {
    try {
      return shape.getBBox();
    } catch (e) {
      return null;
    }
  }

  function drawBadges(byTarget) {
    var G = S.graph, t, list, box, k, f, g, x, y, node, edge, title;

    clear(G.badges);
    for (t in byTarget) {
      if (!own(byTarget, t))
        continue;
      list = byTarget[t];
      node = own(G.nodes, t) ? G.nodes[t] : null;
      edge = own(G.edges, t) ? G.edges[t] : null;
      box = node && node.shape ? shapeBox(node.shape) :
          edge && edge.rate ? shapeBox(edge.rate) : null;
      if (!box || (box.width === 0 && box.height === 0))
        continue;
      for (k = 0; k < list.length; k++) {
        f = S.session.findings[list[k]];
        x = box.x + box.width - 8 - 20 * k;
        y = box.y;
        g = sv("g", { "class": "badge sev-" + (f.severity || "info"),
          "data-finding": list[k], tabindex: "0", role: "button" });
        title = sv("title", null, "finding " + (list[k] + 1) + " [" +
            f.severity + "] " + f.rule + ": " + f.title);
        g.appendChild(title);
        g.appendChild(sv("circle", { cx: x, cy: y, r: 9 }));
        g.appendChild(sv("text", { x: x, y: y + 4, "text-anchor": "middle" },
            String(list[k] + 1)));
        (function (idx) {
          g.addEventListener("click", function (ev) {
            ev.stopPropagation();
            S.focusFinding = idx;
            showView("findings");
          });
        })(list[k]);
        G.badges.appendChild(g);
      }
    }
  }

  function renderPipeline() {
    var G, w = curWindow(), sh = windowShares(w), name, n, e, frac, last;
    var id, ed, l, video, stalled, summ = S.session.summary.elements || {};

    if (!S.session.graph.elements.length) {
      /* a machine log alone, or a live run before its first window */
      if (!$("graph").querySelector(".no-pipeline")) {
        clear($("graph"));
        $("graph").appendChild(h("p", { "class": "empty no-pipeline" },
            S.live && !S.ended ? "No graph yet." :
            "No pipeline in this session: see the Machine view."));
      }
      S.graph = null;
      renderElementsTable(w, sh, {});
      return;
    }
    if (S.graphWanted)
      fetchGraph();
    G = S.graph;
    if (G) {
      fitGraph();
      for (name in G.nodes) {
        if (!own(G.nodes, name))
          continue;
        n = G.nodes[name];
        if (!n.shape || isQueue(name))
          continue;
        if (w) {
          frac = sh.sum > 0 ? (sh.ms[name] || 0) / sh.sum : 0;
          n.shape.setAttribute("fill", heat(frac));
          e = w.elements ? w.elements[name] : null;
          last = n.texts.length >= 3 ? n.texts[n.texts.length - 1] : null;
          if (last)
            last.textContent = e ? (100 * frac).toFixed(1) + "%, p50 " +
                fmt(e.self_ms_p50) + " ms" : "no buffer in this window";
          n.g.setAttribute("data-share", (100 * frac).toFixed(1));
        }
      }
      for (id in G.edges) {
        if (!own(G.edges, id))
          continue;
        ed = G.edges[id];
        l = w && w.links ? w.links[id] : null;
        video = linkIsVideo(id);
        stalled = !!(l && isNum(l.fps) && l.fps === 0 && !S.ended &&
            S.cursor === S.session.series.length - 1 && S.live);
        ed.g.setAttribute("class", "edge" + (stalled ? " stalled" : ""));
        if (!ed.rate)
          continue;
        if (l && isNum(l.fps))
          ed.rate.textContent = (stalled ? "stalled: " : "") +
              l.fps.toFixed(1) + (video ? " fps" : " buffers/s") +
              (isNum(l.bytes_per_s) && l.bytes_per_s > 0 ? ", " +
              (l.bytes_per_s / 1e6).toFixed(2) + " MB/s" : "");
        else
          ed.rate.textContent = ed.rate0;
      }
      drawBadges(findingTargets());
    }
    renderElementsTable(w, sh, summ);
  }

  /* The window's elements; rows are kept while the names stay (a click
   * on a name is not lost to a redraw), their numbers written again. */
  function renderElementsTable(w, sh, summ) {
    var tb = $("elements-table").tBodies[0], names = [], seen = {}, i, j;
    var name, tr, e, s, el, cells, same;

    for (name in summ)
      if (own(summ, name)) {
        names.push(name);
        seen[name] = 1;
      }
    if (w && w.elements)
      for (name in w.elements)
        if (own(w.elements, name) && !own(seen, name))
          names.push(name);
    same = tb.rows.length === names.length;
    for (i = 0; same && i < names.length; i++)
      same = tb.rows[i].getAttribute("data-name") === names[i];
    if (!same)
      clear(tb);
    for (i = 0; i < names.length; i++) {
      name = names[i];
      e = w && w.elements ? w.elements[name] : null;
      s = summ[name] || {};
      el = elementOf(name);
      cells = [el ? el.factory : "", isQueue(name) ? "queue" : sh.sum > 0 ?
          (100 * (sh.ms[name] || 0) / sh.sum).toFixed(1) : "–",
        e ? fmt(e.self_ms_p50, 3) : "–", e ? fmt(e.self_ms_p95, 3) : "–",
        isNum(s.buffers) ? String(s.buffers) : "–",
        s.self_ms ? fmt(s.self_ms.p50, 3) : "–", fmt(s.busy_pct, 1)];
      if (same) {
        tr = tb.rows[i];
        for (j = 0; j < cells.length; j++)
          if (tr.cells[j + 1].textContent !== cells[j])
            tr.cells[j + 1].textContent = cells[j];
        continue;
      }
      tr = h("tr", { "data-name": name });
      tr.appendChild(nameCell(name));
      tr.appendChild(h("td", null, cells[0]));
      for (j = 1; j < cells.length; j++)
        tr.appendChild(numCell(cells[j]));
      tb.appendChild(tr);
    }
  }

  /* ---- charts ----------------------------------------------------------------- */

  /* The time axis every chart shares: the series' span and the machine's. */
  function timeDomain() {
    var s = S.session, t0 = Infinity, t1 = -Infinity, i, m;

    if (s.series.length) {
      t0 = Math.min(t0, s.series[0].t0);
      t1 = Math.max(t1, s.series[s.series.length - 1].t1);
    }
    for (i = 0; i < s.machine.series.length; i++) {
      m = s.machine.series[i];
      if (m.t && m.t.length) {
        t0 = Math.min(t0, m.t[0]);
        t1 = Math.max(t1, m.t[m.t.length - 1]);
      }
    }
    if (!isFinite(t0))
      return [0, 1];
    t0 = Math.min(0, t0);
    if (t1 <= t0)
      t1 = t0 + 1;
    return [t0, t1];
  }

  function niceStep(span, n) {
    var raw = span / n, p = Math.pow(10, Math.floor(Math.log(raw) /
        Math.LN10)), m = raw / p;

    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
  }

  function chartWidth(container) {
    var w = container.clientWidth || 900;

    /* two charts a row where there is room */
    if (w >= 2 * CHART_MIN_W + 24)
      w = Math.floor(w / 2) - 12;
    return Math.max(CHART_MIN_W, w);
  }

  /* The value of a line at time @t: the window's (series lines) or the
   * sample at or before it (machine lines). */
  function valueAt(line, t) {
    var lo = 0, hi = line.t.length - 1, mid, i;

    if (hi < 0)
      return null;
    if (line.spans) {
      for (i = 0; i < line.t.length; i++)
        if (line.spans[i][0] <= t && t <= line.spans[i][1])
          return line.v[i];
      return null;
    }
    if (t < line.t[0])
      return null;
    while (lo < hi) {
      mid = (lo + hi + 1) >> 1;
      if (line.t[mid] <= t)
        lo = mid;
      else
        hi = mid - 1;
    }
    return line.v[lo];
  }

  /* One small chart: @spec {title, unit, lines: [{label, t, v, cls,
   * spans?}], limit, max?}. Values null or below 0 are gaps. */
  function chart(spec, dom, width) {
    var W = width, H = CHART_H, P = CHART_PAD;
    var box = h("div", { "class": "chart" }), head = h("div",
        { "class": "chart-head" }), read = h("span", { "class": "read" });
    var svg = sv("svg", { width: W, height: H, viewBox: "0 0 " + W + " " + H,
      "class": "chart-svg", role: "img", "aria-label": spec.title });
    var ymax = 0, i, j, line, d, x, y, pen, t, step, g, ev, cross, evs;
    var x0 = P.l, x1 = W - P.r, y0 = H - P.b, y1 = P.t;

    head.appendChild(h("span", { "class": "chart-title" }, spec.title +
        (spec.unit ? " (" + spec.unit + ")" : "")));
    head.appendChild(read);
    box.appendChild(head);
    for (i = 0; i < spec.lines.length; i++)
      if (spec.lines.length > 1)
        head.insertBefore(h("span", { "class": "key " + (spec.lines[i].cls ||
            "") }, spec.lines[i].label), read);
    box.appendChild(svg);
    for (i = 0; i < spec.lines.length; i++)
      for (j = 0; j < spec.lines[i].v.length; j++)
        if (isNum(spec.lines[i].v[j]) && spec.lines[i].v[j] > ymax)
          ymax = spec.lines[i].v[j];
    if (isNum(spec.limit) && spec.limit > 0)
      ymax = Math.max(ymax, spec.limit);
    if (isNum(spec.max))
      ymax = Math.max(ymax, spec.max);
    ymax = ymax > 0 ? ymax * 1.08 : 1;

    function X(tt) {
      return x0 + (tt - dom[0]) / (dom[1] - dom[0]) * (x1 - x0);
    }

    function Y(v) {
      return y0 - v / ymax * (y0 - y1);
    }

    /* axes: the value's top and the time's ticks */
    svg.appendChild(sv("line", { x1: x0, y1: y0, x2: x1, y2: y0,
      "class": "axis" }));
    svg.appendChild(sv("line", { x1: x0, y1: y0, x2: x0, y2: y1,
      "class": "axis" }));
    svg.appendChild(sv("text", { x: x0 - 4, y: y1 + 8, "class": "tick",
      "text-anchor": "end" }, fmt(ymax / 1.08, ymax >= 100 ? 0 : 2)));
    svg.appendChild(sv("text", { x: x0 - 4, y: y0, "class": "tick",
      "text-anchor": "end" }, "0"));
    step = niceStep(dom[1] - dom[0], Math.max(2, Math.floor((x1 - x0) / 70)));
    for (t = Math.ceil(dom[0] / step) * step; t <= dom[1] + 1e-9; t += step) {
      svg.appendChild(sv("line", { x1: X(t), y1: y0, x2: X(t), y2: y0 + 3,
        "class": "axis" }));
      svg.appendChild(sv("text", { x: X(t), y: H - 4, "class": "tick",
        "text-anchor": "middle" }, (+t.toFixed(6)) + " s"));
    }
    if (isNum(spec.limit) && spec.limit > 0) {
      g = sv("line", { x1: x0, y1: Y(spec.limit), x2: x1, y2: Y(spec.limit),
        "class": "limit" });
      g.appendChild(sv("title", null, "limit " + spec.limit +
          (spec.unit ? " " + spec.unit : "")));
      svg.appendChild(g);
    }
    /* the window under the cursor */
    if (spec.band !== false && curWindow()) {
      g = sv("rect", { x: X(curWindow().t0), y: y1, width: Math.max(1,
        X(curWindow().t1) - X(curWindow().t0)), height: y0 - y1,
        "class": "cursor-band" });
      g.appendChild(sv("title", null, "the window under the cursor"));
      svg.appendChild(g);
    }
    /* events as marks */
    evs = S.session.events;
    for (i = 0; i < evs.length; i++) {
      ev = evs[i];
      if (!isNum(ev.t) || ev.t < dom[0] || ev.t > dom[1])
        continue;
      g = sv("line", { x1: X(ev.t), y1: y0, x2: X(ev.t), y2: y1,
        "class": "event ev-" + String(ev.type).replace(/[^a-z-]/g, "") });
      g.appendChild(sv("title", null, ev.t.toFixed(3) + " s " + ev.type +
          (ev.source ? " " + ev.source : "") + (ev.text ? ": " + ev.text :
          "")));
      svg.appendChild(g);
    }
    for (i = 0; i < spec.lines.length; i++) {
      line = spec.lines[i];
      d = "";
      pen = false;
      for (j = 0; j < line.t.length; j++) {
        if (!isNum(line.v[j]) || line.v[j] < 0) {
          pen = false;
          continue;
        }
        x = X(line.t[j]);
        y = Y(line.v[j]);
        d += (pen ? "L" : "M") + x.toFixed(1) + " " + y.toFixed(1);
        /* a value alone between gaps is a dot: a path of one point
         * draws nothing */
        if (!pen && !(j + 1 < line.t.length && isNum(line.v[j + 1]) &&
                line.v[j + 1] >= 0))
          svg.appendChild(sv("circle", { cx: x.toFixed(1), cy: y.toFixed(1),
            r: 2.5, "class": "dot " + (line.cls || "l" + i) }));
        pen = true;
      }
      if (d) {
        g = sv("path", { d: d, "class": "line " + (line.cls || "l" + i) });
        g.appendChild(sv("title", null, line.label));
        svg.appendChild(g);
      }
    }
    cross = sv("line", { x1: -10, y1: y0, x2: -10, y2: y1,
      "class": "crosshair" });
    svg.appendChild(cross);
    box.chartInfo = { spec: spec, X: X, read: read, cross: cross,
      toT: function (px) {
        return dom[0] + (px - x0) / (x1 - x0) * (dom[1] - dom[0]);
      } };
    svg.addEventListener("mousemove", function (ev) {
      var r = svg.getBoundingClientRect();

      setCrosshair(box.chartInfo.toT((ev.clientX - r.left) * W / r.width));
    });
    /* on the press, not the click: a live chart may be drawn again
     * before the button comes up */
    svg.addEventListener("mousedown", function (ev) {
      var r = svg.getBoundingClientRect();
      var idx = windowAt(box.chartInfo.toT((ev.clientX - r.left) * W /
          r.width));

      if (idx >= 0) {
        S.cursor = idx;
        S.follow = false;
        scheduleRender(true);
      }
    });
    readOut(box.chartInfo, S.crossT);
    return box;
  }

  function readOut(ci, t) {
    var parts = [], i, v, line;

    if (t === null || t === undefined) {
      ci.cross.setAttribute("x1", "-10");
      ci.cross.setAttribute("x2", "-10");
      ci.read.textContent = "";
      return;
    }
    ci.cross.setAttribute("x1", ci.X(t).toFixed(1));
    ci.cross.setAttribute("x2", ci.X(t).toFixed(1));
    for (i = 0; i < ci.spec.lines.length; i++) {
      line = ci.spec.lines[i];
      v = valueAt(line, t);
      parts.push(line.label + " " + (isNum(v) && v >= 0 ? fmt(v) : "–"));
    }
    ci.read.textContent = parts.join(" · ");
  }

  function setCrosshair(t) {
    var boxes = document.querySelectorAll(".chart"), i;

    S.crossT = t;
    for (i = 0; i < boxes.length; i++)
      if (boxes[i].chartInfo)
        readOut(boxes[i].chartInfo, t);
    $("crosshair-t").textContent = "t " + t.toFixed(3) + " s";
  }

  /* a line of a series field: one point a window, at its middle */
  function seriesLine(label, group, key, field, cls) {
    var ser = S.session.series, line = { label: label, t: [], v: [],
      spans: [], cls: cls }, i, o;

    for (i = 0; i < ser.length; i++) {
      o = ser[i][group];
      line.t.push((ser[i].t0 + ser[i].t1) / 2);
      line.spans.push([ser[i].t0, ser[i].t1]);
      line.v.push(o && own(o, key) && o[key] ? o[key][field] : null);
    }
    return line;
  }

  /* the keys a group of the series holds, in @order first, then the rest
   * unless @only (@order's alone) */
  function seriesKeys(group, order, only) {
    var present = new Set(), out = [], done = new Set(), ser = S.session.series;
    var i, k;

    for (i = 0; i < ser.length; i++)
      for (k in ser[i][group] || {})
        if (own(ser[i][group], k))
          present.add(k);
    for (i = 0; i < order.length; i++)
      if (present.has(order[i]) && !done.has(order[i])) {
        done.add(order[i]);
        out.push(order[i]);
      }
    present.forEach(function (k) {
      if (!only && !done.has(k))
        out.push(k);
    });
    return out;
  }

  function chartGroup(parent, title, specs, dom) {
    var sec, grid, w, i;

    if (!specs.length)
      return;
    sec = h("section", { "class": "chart-group" });
    sec.appendChild(h("h2", null, title));
    grid = h("div", { "class": "charts" });
    sec.appendChild(grid);
    parent.appendChild(sec);
    w = chartWidth(parent);
    for (i = 0; i < specs.length; i++)
      grid.appendChild(chart(specs[i], dom, w));
  }

  /* ---- Timeline ----------------------------------------------------------- */

  function renderTimeline() {
    var box = $("timeline-charts"), s = S.session, dom = timeDomain();
    var specs, names, i, n, paths, p, threads;

    clear(box);
    if (!s.series.length) {
      box.appendChild(h("p", { "class": "empty" }, "No window yet."));
      return;
    }
    specs = [];
    names = seriesKeys("elements", keys(s.summary.elements));
    for (i = 0; i < names.length; i++) {
      n = names[i];
      if (isQueue(n))
        continue;
      specs.push({ title: n + ": self time", unit: "ms", lines: [
        seriesLine("p50", "elements", n, "self_ms_p50", "p50"),
        seriesLine("p95", "elements", n, "self_ms_p95", "p95")] });
    }
    chartGroup(box, "Self time per element", specs, dom);

    specs = [];
    names = seriesKeys("links", s.graph.links.map(function (l) {
      return l.id;
    }));
    for (i = 0; i < names.length; i++)
      specs.push({ title: names[i], unit: linkIsVideo(names[i]) ? "fps" :
        "buffers/s", lines: [seriesLine("rate", "links", names[i], "fps",
          "rate")] });
    chartGroup(box, "Rate per link", specs, dom);

    specs = [];
    paths = seriesKeys("paths", []);
    for (i = 0; i < paths.length; i++) {
      p = paths[i];
      specs.push({ title: p + ": latency", unit: "ms", limit:
        s.summary.frame_period_ms, lines: [
        seriesLine("p50", "paths", p, "latency_ms_p50", "p50"),
        seriesLine("p95", "paths", p, "latency_ms_p95", "p95")] });
    }
    chartGroup(box, "Latency per path (dashed: the frame period)", specs, dom);

    specs = [];
    names = seriesKeys("queues", keys(s.summary.queues));
    for (i = 0; i < names.length; i++)
      specs.push({ title: names[i] + ": level", unit: "%", limit: 100,
        lines: [seriesLine("mean", "queues", names[i], "level_pct_mean",
          "p50"), seriesLine("max", "queues", names[i], "level_pct_max",
          "p95")] });
    chartGroup(box, "Queue levels", specs, dom);

    specs = [];
    threads = seriesKeys("threads", (s.summary.threads || []).filter(
        function (t) {
          return t.streaming !== false;
        }).map(function (t) {
          return t.name;
        }), true);
    for (i = 0; i < threads.length; i++)
      specs.push({ title: threads[i] + ": CPU", unit: "% of a core",
        limit: 100, lines: [seriesLine("cpu", "threads", threads[i],
          "cpu_pct", "rate")] });
    chartGroup(box, "CPU per streaming thread", specs, dom);
  }

  /* ---- Machine ------------------------------------------------------------ */

  function renderMachine() {
    var box = $("machine-charts"), m = S.session.machine, dom = timeDomain();
    var groups = {}, order = [], i, q, ser, tb, src, tr, k;

    clear(box);
    for (i = 0; i < m.series.length; i++) {
      ser = m.series[i];
      q = ser.name.split("/")[0];
      if (!own(groups, q)) {
        groups[q] = [];
        order.push(q);
      }
      groups[q].push({ title: ser.name, unit: ser.unit, limit: isNum(
            ser.limit) ? ser.limit : ser.unit === "%" ? 100 : null,
        lines: [{ label: ser.name.slice(q.length + 1) || ser.name,
          t: ser.t || [], v: ser.v || [], cls: "rate" }] });
    }
    if (!order.length)
      box.appendChild(h("p", { "class": "empty" }, S.live && !S.ended ?
          "No machine sample yet: the sampler's first comes after a window." :
          "Nothing sampled the machine in this session."));
    for (i = 0; i < order.length; i++)
      chartGroup(box, order[i], groups[order[i]], dom);
    renderRoofline();

    tb = $("machine-sources").tBodies[0];
    clear(tb);
    for (i = 0; m.sources && i < m.sources.length; i++) {
      src = m.sources[i];
      tr = h("tr");
      tr.appendChild(h("td", null, src.name));
      tr.appendChild(h("td", null, src.state));
      tr.appendChild(numCell(isNum(src.samples) ? String(src.samples) : "–"));
      tr.appendChild(h("td", null, src.detail || ""));
      tb.appendChild(tr);
    }
    if (!tb.firstChild)
      tb.appendChild(h("tr")).appendChild(h("td", { colspan: "4" }, "none"));
    tb = $("machine-facts").tBodies[0];
    clear(tb);
    for (k in m.facts || {}) {
      if (!own(m.facts, k))
        continue;
      tr = h("tr");
      tr.appendChild(h("th", null, k));
      tr.appendChild(h("td", null, plain(m.facts[k])));
      tb.appendChild(tr);
    }
    if (!tb.firstChild)
      tb.appendChild(h("tr")).appendChild(h("td", null, "none"));
  }

  /* the accelerator's roofline, a picture the server draws (an <img>: an
   * SVG shown so runs nothing) */
  function renderRoofline() {
    var img = $("roofline-img"), src = "api/roofline.svg?n=" + S.rooflineDrawn;

    $("roofline").hidden = S.roofline === null;
    if (S.roofline === null)
      return;
    $("roofline-caption").textContent = S.roofline;
    if (img.getAttribute("src") !== src)
      img.setAttribute("src", src);
  }

  /* ---- Findings ------------------------------------------------------------- */

  /* one launch-string edit in words */
  function opText(op) {
    var where = op.after !== undefined ? "after " + op.after :
        op.before !== undefined ? "before " + op.before :
        op.target !== undefined ? op.target : "";
    var props = keys(op.props).map(function (k) {
      return k + "=" + plain(op.props[k]);
    }).join(" ");

    switch (op.op) {
      case "set":
        return "set " + op.target + " " + op.prop + "=" + plain(op.value);
      case "insert":
        return "insert " + op.element + (props ? " " + props : "") + " " +
            where;
      case "caps":
        return "caps " + op.caps + " " + where;
      case "replace":
        return "replace " + op.target + " by " + op.element +
            (props ? " " + props : "") + (op.keep_props ?
            " (its properties kept)" : "");
      case "remove":
        return "remove " + op.target;
      default:
        return plain(op);
    }
  }

  function findingCard(f, i) {
    var li = h("li", { "class": "finding sev-" + (f.severity || "info"),
      id: "finding-" + i }), head = h("div", { "class": "finding-head" });
    var dl, k, ul, ops, j, tg, b, ver;

    head.appendChild(h("span", { "class": "sev" }, f.severity));
    head.appendChild(h("span", { "class": "rule" }, f.rule));
    head.appendChild(h("span", { "class": "finding-title" }, f.title));
    li.appendChild(head);
    if (f.targets && f.targets.length) {
      tg = h("p", { "class": "targets" }, "on: ");
      for (j = 0; j < f.targets.length; j++) {
        if (elementOf(f.targets[j])) {
          b = h("button", { type: "button", "class": "link" }, f.targets[j]);
          (function (n) {
            b.addEventListener("click", function () {
              inspect(n);
            });
          })(f.targets[j]);
          tg.appendChild(b);
        } else
          tg.appendChild(h("code", null, f.targets[j]));
        tg.appendChild(document.createTextNode(" "));
      }
      li.appendChild(tg);
    }
    dl = h("dl", { "class": "evidence" });
    for (k in f.evidence || {}) {
      if (!own(f.evidence, k))
        continue;
      dl.appendChild(h("dt", null, k));
      dl.appendChild(h("dd", null, isNum(f.evidence[k]) ?
          String(+f.evidence[k].toFixed(3)) : plain(f.evidence[k])));
    }
    if (dl.firstChild) {
      li.appendChild(h("h4", null, "evidence"));
      li.appendChild(dl);
    }
    if (f.why) {
      li.appendChild(h("h4", null, "why"));
      li.appendChild(h("p", { "class": "why" }, f.why));
    }
    if (f.fix) {
      li.appendChild(h("h4", null, "fix"));
      li.appendChild(h("p", { "class": "fix" }, f.fix));
    }
    ops = Array.isArray(f.fix_patch) ? f.fix_patch : f.fix_patch ?
        [f.fix_patch] : [];
    if (ops.length) {
      li.appendChild(h("h4", null, "the launch-string edit (gstprof fix)"));
      ul = h("ul", { "class": "patch" });
      for (j = 0; j < ops.length; j++)
        ul.appendChild(h("li", null, opText(ops[j])));
      li.appendChild(ul);
    }
    ver = f.verified_on ? "verified on " + f.verified_on : f.heuristic ?
        "heuristic" : "measured, not verified on a bench pair";
    li.appendChild(h("p", { "class": "verified" }, ver));
    return li;
  }

  function renderFindings() {
    var ol = $("findings-list"), f = S.session.findings, i, el;

    clear(ol);
    if (!f.length)
      ol.appendChild(h("li", { "class": "empty" }, S.live && !S.ended ?
          "No finding yet (the rules run on the session so far, once a " +
          "second)." : "No finding: nothing to change."));
    for (i = 0; i < f.length; i++)
      ol.appendChild(findingCard(f[i], i));
    if (S.focusFinding !== undefined && S.focusFinding !== null) {
      el = $("finding-" + S.focusFinding);
      S.focusFinding = null;
      if (el && el.scrollIntoView)
        el.scrollIntoView();
    }
  }

  /* ---- Inspector ------------------------------------------------------------ */

  function kv(table, key, value, id) {
    var tr = h("tr"), td = h("td", id ? { id: id } : null, value);

    tr.appendChild(h("th", null, key));
    tr.appendChild(td);
    table.appendChild(tr);
  }

  function quantText(q) {
    if (!q)
      return "–";
    return "p50 " + fmt(q.p50, 3) + ", p95 " + fmt(q.p95, 3) + ", p99 " +
        fmt(q.p99, 3) + ", max " + fmt(q.max, 3) + " ms";
  }

  function renderInspector() {
    var box = $("inspector"), name = S.selected, s = S.session;
    var el, es, t, links, i, l, tr, tbl, th, w, we, qs, thr, f, j, hit;
    var touching, dom = timeDomain();

    clear(box);
    if (name === null) {
      box.appendChild(h("p", { "class": "empty" },
          "Click an element in the graph or a table to inspect it."));
      return;
    }
    el = elementOf(name);
    es = (s.summary.elements || {})[name];
    box.appendChild(h("h2", { id: "insp-name" }, name));
    t = h("table", { "class": "kv" });
    kv(t, "factory", el ? el.factory : "unknown", "insp-factory");
    kv(t, "kind", el ? el.kind : "");
    kv(t, "in", el && el.parent ? el.parent : "(top level)");
    box.appendChild(t);

    box.appendChild(h("h3", null, "Self time (work only, whole run so far)"));
    t = h("table", { "class": "kv" });
    if (es) {
      kv(t, "p50", fmt(es.self_ms && es.self_ms.p50, 3) + " ms",
          "insp-self-p50");
      kv(t, "p95", fmt(es.self_ms && es.self_ms.p95, 3) + " ms",
          "insp-self-p95");
      kv(t, "p99", fmt(es.self_ms && es.self_ms.p99, 3) + " ms");
      kv(t, "max", fmt(es.self_ms && es.self_ms.max, 3) + " ms");
      kv(t, "buffers", String(es.buffers), "insp-buffers");
      kv(t, "total", fmt(es.self_total_ms, 1) + " ms");
      kv(t, "share", fmt(es.share_pct, 1) + " % of all self time");
      kv(t, "busy", fmt(es.busy_pct, 1) + " % of its thread");
      if (isNum(es.cpu_ms))
        kv(t, "CPU", fmt(es.cpu_ms, 1) + " ms");
    } else
      kv(t, "self time", isQueue(name) ? "a queue: its time is waiting" :
          "not measured", "insp-self-p50");
    w = curWindow();
    we = w && w.elements ? w.elements[name] : null;
    kv(t, "this window", we ? "p50 " + fmt(we.self_ms_p50, 3) + ", p95 " +
        fmt(we.self_ms_p95, 3) + " ms, " + we.buffers + " buffers" : "–",
        "insp-window");
    box.appendChild(t);
    if (s.series.length && !isQueue(name))
      box.appendChild(chart({ title: name + ": self time", unit: "ms",
        lines: [seriesLine("p50", "elements", name, "self_ms_p50", "p50"),
          seriesLine("p95", "elements", name, "self_ms_p95", "p95")] }, dom,
          Math.max(CHART_MIN_W, box.clientWidth || 700)));

    box.appendChild(h("h3", null, "Threads and waiting"));
    t = h("table", { "class": "kv" });
    thr = (s.summary.threads || []).filter(function (x) {
      return (x.elements || []).indexOf(name) >= 0 ||
          (es && (es.threads || []).indexOf(x.name) >= 0);
    });
    kv(t, "threads", thr.length ? thr.map(function (x) {
      return x.name + " (CPU mean " + fmt(x.cpu_pct && x.cpu_pct.mean, 1) +
          " %, max " + fmt(x.cpu_pct && x.cpu_pct.max, 1) + " %)";
    }).join("; ") : es && es.threads && es.threads.length ?
        es.threads.join(", ") : "none seen", "insp-threads");
    if (es) {
      kv(t, "samples with waiting apart", String(es.cpu_buffers || 0));
      kv(t, "waiting", quantText(es.wait_ms));
      kv(t, "waiting in all", fmt(es.wait_total_ms, 1) + " ms");
    }
    for (i = 0; i < (s.summary.threads || []).length; i++) {
      th = s.summary.threads[i];
      if (th.blocked_in === name)
        kv(t, "blocked", th.name + " inside it for " + fmt(th.blocked_ms, 0) +
            " ms at the end");
    }
    qs = (s.summary.queues || {})[name];
    if (qs) {
      kv(t, "residence", quantText(qs.residence_ms));
      kv(t, "level", "mean " + fmt(qs.level_pct && qs.level_pct.mean, 1) +
          " %, max " + fmt(qs.level_pct && qs.level_pct.max, 1) + " %");
      kv(t, "dropped", String(qs.dropped || 0) + " (leaky " + qs.leaky + ")");
      kv(t, "upstream blocked", fmt(qs.blocked_ms, 1) + " ms");
    }
    box.appendChild(t);

    box.appendChild(h("h3", null, "Caps"));
    tbl = h("table", { "class": "data", id: "insp-caps" });
    tr = h("tr");
    ["", "link", "caps", "memory", "rate"].forEach(function (c) {
      tr.appendChild(h("th", null, c));
    });
    tbl.appendChild(tr);
    links = s.graph.links;
    touching = [];
    for (i = 0; i < links.length; i++) {
      l = links[i];
      if (padElement(l.sink) === name || padElement(l.src) === name) {
        touching.push(l.id);
        tr = h("tr");
        tr.appendChild(h("td", null, padElement(l.sink) === name ? "in" :
            "out"));
        tr.appendChild(h("td", null, l.id));
        tr.appendChild(h("td", { "class": "caps" }, l.caps === null ?
            "none seen" : l.caps));
        tr.appendChild(h("td", null, l.memory === null ? "unknown" :
            l.memory || "system"));
        tr.appendChild(numCell((s.summary.links || {})[l.id] ?
            fmt(s.summary.links[l.id].fps, 1) : "–"));
        tbl.appendChild(tr);
      }
    }
    box.appendChild(tbl);

    box.appendChild(h("h3", null, "Findings naming it"));
    f = s.findings;
    hit = h("ol", { "class": "findings", id: "insp-findings" });
    for (i = 0; i < f.length; i++)
      for (j = 0; f[i].targets && j < f[i].targets.length; j++)
        if (f[i].targets[j] === name ||
            touching.indexOf(f[i].targets[j]) >= 0) {
          hit.appendChild(findingCard(f[i], i));
          break;
        }
    if (!hit.firstChild)
      hit.appendChild(h("li", { "class": "empty" }, "none"));
    box.appendChild(hit);

    box.appendChild(h("h3", null, "Properties (values at PLAYING)"));
    t = h("table", { "class": "kv", id: "insp-props" });
    for (i = 0, th = el ? keys(el.props) : []; i < th.length; i++)
      kv(t, th[i], plain(el.props[th[i]]));
    if (!t.firstChild)
      kv(t, "", "none read");
    box.appendChild(t);
  }

  /* ---- wiring ---------------------------------------------------------------- */

  function init() {
    var tabs = document.querySelectorAll("#tabs button"), i;

    for (i = 0; i < tabs.length; i++)
      tabs[i].addEventListener("click", function (ev) {
        showView(ev.currentTarget.getAttribute("data-view"));
      });
    $("scrubber").addEventListener("input", function () {
      S.cursor = parseInt($("scrubber").value, 10) || 0;
      S.follow = S.live && !S.ended &&
          S.cursor === S.session.series.length - 1;
      scheduleRender(true);
    });
    $("follow").addEventListener("change", function () {
      S.follow = $("follow").checked;
      if (S.follow && S.session)
        S.cursor = S.session.series.length - 1;
      scheduleRender(true);
    });
    $("btn-stop").addEventListener("click", function () {
      S.stopping = true;
      $("btn-stop").disabled = true;
      post("api/stop").then(function () {
        say("stopping: the capture ends as on Ctrl-C, and writes its session");
      }).catch(function (e) {
        S.stopping = false;
        $("btn-stop").disabled = false;
        say(String(e.message || e));
      });
    });
    $("mark-form").addEventListener("submit", function (ev) {
      var text = $("mark-text").value.trim();

      ev.preventDefault();
      if (!text) {
        say("a mark needs its text");
        $("mark-text").focus();
        return;
      }
      post("api/mark", text).then(function () {
        $("mark-text").value = "";
        say("marked");
      }).catch(function (e) {
        say(String(e.message || e));
      });
    });
    window.addEventListener("resize", function () {
      scheduleRender(false);
    });
    S.view = (location.hash || "#pipeline").slice(1);
    if (!$("view-" + S.view))
      S.view = "pipeline";
    renderTabs();
    connect();
  }

  if (document.readyState === "loading")
    document.addEventListener("DOMContentLoaded", init);
  else
    init();
})();
