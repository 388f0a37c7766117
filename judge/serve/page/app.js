// gpujudge's page: a client of the server's JSON API (judge/serve/web_server.hpp lists it).
"use strict";

const $ = (selector) => document.querySelector(selector);

// An element with attributes and children (strings become text: nothing here is parsed as HTML
// except the statement, which marked renders from the problem's own statement.md).
function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== null) node.setAttribute(key, value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function fixed(value, digits) {
  return value === null || value === undefined || value === 0 ? "–" : Number(value).toFixed(digits);
}

function showError(message) {
  const box = $("#error");
  box.textContent = message;
  box.hidden = !message;
}

async function api(path, options) {
  const response = await fetch(path, options);
  if (response.status === 204) return null;
  const body = await response.json();
  if (!response.ok) throw new Error(body.message || `${response.status}`);
  return body;
}

function verdictBadge(verdict) {
  return el("span", {class: `verdict ${verdict === "accepted" ? "good" : verdict === "skipped" ? "meh" : "bad"}`},
            verdict);
}

function bestText(best) {
  if (!best) return "–";
  return `${best.median_us.toFixed(1)} µs at ${best.test} (${best.gbps.toFixed(0)} GB/s)`;
}

// ---- The problem list -------------------------------------------------------------------------

async function showList() {
  const problems = await api("/api/problems");
  const rows = problems.map((p) => el("tr", {},
    el("td", {}, p.error ? el("span", {class: "bad"}, `${p.slug}: ${p.error}`)
                         : el("a", {href: `#/problems/${p.slug}`, "data-slug": p.slug}, p.title)),
    el("td", {}, el("span", {class: `difficulty ${p.difficulty || ""}`}, p.difficulty || "")),
    el("td", {class: "number"}, bestText(p.personal_best))));
  $("#problems tbody").replaceChildren(...rows);
}

// ---- One problem ------------------------------------------------------------------------------

const state = {slug: null, problem: null, language: "cuda", starter: "", editor: null, busy: false, marks: [],
               saveTimer: null};

// The languages the server offers (problem.languages: the judge owns the list), as the picker shows them,
// and CodeMirror's mode for each: CUDA through clike (cuda.js), Python through libjs-codemirror's python.js.
const kLanguageNames = {cuda: "CUDA", pytorch: "PyTorch", triton: "Triton"};
const kModes = {cuda: "text/x-cuda", pytorch: "python", triton: "python"};

function editor() {
  if (state.editor) return state.editor;
  state.editor = CodeMirror($("#editor"), {
    mode: kModes.cuda, lineNumbers: true, matchBrackets: true, indentUnit: 4, tabSize: 4,
    gutters: ["CodeMirror-linenumbers", "markers"],
  });
  state.editor.on("change", (cm, change) => {
    if (change.origin !== "setValue") scheduleSave();
  });
  return state.editor;
}

// Saved as you type: half a second after the last key, the draft goes to the server, as the draft of the
// problem and language it was typed in (at once when the learner opens another problem or language).
function scheduleSave() {
  clearTimeout(state.saveTimer);
  $("#saved").textContent = "editing…";
  state.saveTimer = setTimeout(saveNow, 500);
}

async function saveNow() {
  clearTimeout(state.saveTimer);
  state.saveTimer = null;
  const slug = state.slug, language = state.language;
  try {
    await api(`/api/problems/${slug}/draft`, {
      method: "PUT", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({source: editor().getValue(), language}),
    });
    if (slug === state.slug && language === state.language) $("#saved").textContent = "saved";
  } catch (error) {
    $("#saved").textContent = `not saved: ${error.message}`;
  }
}

// statement.md is Markdown; HTML written in it is shown as text: a statement cannot add a form, a style
// or an image that calls out to the page.
marked.use({renderer: {html: (html) => html.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")}});

async function showProblem(slug) {
  const problem = await api(`/api/problems/${slug}`);
  state.slug = slug;
  state.problem = problem;
  $("#problem-title").textContent = problem.title;
  $("#problem-difficulty").textContent = problem.difficulty;
  $("#problem-difficulty").className = `difficulty ${problem.difficulty}`;
  $("#problem-best").textContent = problem.personal_best ? `Personal best: ${bestText(problem.personal_best)}` : "";
  $("#statement").innerHTML = marked.parse(problem.statement);
  const heading = $("#statement h1");  // statement.md's own title: shown once, above
  if (heading && heading.textContent.trim() === problem.title) heading.remove();
  $("#signature").textContent = problem.signature;
  $("#constraints").replaceChildren(...problem.constraints.map((line) => el("li", {}, line)));
  $("#examples").replaceChildren(...problem.examples.map((example) => el("pre", {class: "example"}, example.text)));
  $("#reports").replaceChildren(...reportControls(problem.reports || [], problem.sanitizer_tools || []));
  $("#result").replaceChildren();
  $("#report").replaceChildren();
  $("#status").textContent = "";
  $("#language").replaceChildren(...problem.languages.map((language) =>
    el("option", {value: language}, kLanguageNames[language] || language)));
  showSource(problem);
  await showAttempts();
}

// The source to edit in one language ({language, starter, source, source_from}, from the problem's view or
// GET .../source?language=): the editor takes its text and its highlighting.
function showSource(editing) {
  state.language = editing.language;
  state.starter = editing.starter;
  $("#language").value = editing.language;
  $("#saved").textContent = editing.source_from === "starter" ? "" : `(your ${editing.source_from})`;
  clearMarks();
  editor().setOption("mode", kModes[editing.language] || kModes.cuda);
  editor().setValue(editing.source);
  editor().refresh();
  document.dispatchEvent(new CustomEvent("gpujudge:language", {detail: editing.language}));
}

// The picker: the draft being typed is saved to its own language first; then the other language's
// draft, else its last attempt, else its starter (init --lang's, from the server).
async function switchLanguage(language) {
  if (state.saveTimer) await saveNow();
  try {
    showSource(await api(`/api/problems/${state.slug}/source?language=${encodeURIComponent(language)}`));
  } catch (error) {
    $("#language").value = state.language;
    showError(error.message);
  }
}

function clearMarks() {
  for (const mark of state.marks) mark();
  state.marks = [];
  if (state.editor) state.editor.clearGutter("markers");
}

// Compile errors and warnings at their lines: the line tinted, a dot in the gutter, the message below.
function markLines(markers) {
  const cm = editor();
  for (const marker of markers) {
    const line = marker.line - 1;
    if (line < 0 || line >= cm.lineCount()) continue;
    const kind = marker.severity === "error" ? "line-error" : "line-warning";
    cm.addLineClass(line, "background", kind);
    cm.setGutterMarker(line, "markers", el("span", {class: `gutter-${marker.severity}`, title: marker.message}, "●"));
    const widget = cm.addLineWidget(line, el("div", {class: `line-message ${kind}`}, marker.message));
    state.marks.push(() => {
      cm.removeLineClass(line, "background", kind);
      widget.clear();
    });
  }
}

// ---- Judging: a POST answered with server-sent events -----------------------------------------

// Reads "event: name\ndata: json\n\n" blocks from the response as they arrive.
async function readEvents(response, onEvent) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const {value, done} = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, {stream: true});
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = "message", data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) name = line.slice(7);
        else if (line.startsWith("data: ")) data += line.slice(6);
      }
      if (data) onEvent(name, JSON.parse(data));
    }
  }
}

async function stream(path, body, onResult) {
  if (state.busy) return;
  state.busy = true;
  for (const button of document.querySelectorAll("#work-pane .toolbar button")) button.disabled = true;
  showError("");
  const status = $("#status");
  status.textContent = "sending…";
  try {
    const response = await fetch(path, {
      method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error((await response.json()).message);
    await readEvents(response, (name, data) => {
      if (name === "queued") status.textContent = data.ahead ? `queued: ${data.ahead} judgement(s) ahead` : "starting…";
      else if (name === "started") status.textContent = "started";
      else if (name === "progress") status.textContent = data.text;
      else if (name === "error") throw new Error(data.message);
      else if (name === "result") {
        status.textContent = "";
        onResult(data);
      }
    });
  } catch (error) {
    status.textContent = "";
    showError(error.message);
  } finally {
    state.busy = false;
    for (const button of document.querySelectorAll("#work-pane .toolbar button")) button.disabled = false;
  }
}

async function judge(kind) {
  clearMarks();
  $("#result").replaceChildren();
  await stream(`/api/problems/${state.slug}/${kind}`, {source: editor().getValue(), language: state.language},
               showResult);
  await showAttempts();
  const problem = await api(`/api/problems/${state.slug}`);
  $("#problem-best").textContent = problem.personal_best ? `Personal best: ${bestText(problem.personal_best)}` : "";
}

// The learner's file is kept under a hashed name: show it as solution.cu (or .py, ...).
function shortened(text, source) {
  return source ? text.split(source).join(`solution${source.slice(source.lastIndexOf("."))}`) : text;
}

function showResult(result) {
  const parts = [
    el("div", {class: "verdict-line"}, el("span", {id: "verdict", "data-verdict": result.verdict},
                                          verdictBadge(result.verdict)),
       result.judged ? ` ${result.passed}/${result.tests.length} tests passed` : "",
       result.reason && !result.no_device ? el("div", {class: "reason"}, result.reason) : ""),
    el("p", {}, result.device ? `device: ${result.device.name} (${result.device.arch}) · ` : "",
       el("span", {id: "compile-status"}, result.compile.ok ? (result.compile.cached ? "compile: ok (cached)" : "compile: ok")
                                                            : "compile: failed")),
  ];
  if (result.compile.diagnostics)
    parts.push(el("pre", {class: result.compile.ok ? "diagnostics" : "diagnostics bad"},
                  shortened(result.compile.diagnostics, result.source)));
  if (result.no_device) parts.push(el("p", {class: "meh"}, `no GPU: ${result.no_device}`));
  if (result.judged) parts.push(testsTable(result.tests));
  if (result.bench) parts.push(timingTable(result.bench));
  if (result.personal_best) parts.push(el("p", {class: "best"}, `Personal best: ${bestText(result.personal_best)}`));
  if (result.program_output && result.verdict !== "accepted")
    parts.push(el("h3", {}, "Output of the program (last lines)"), el("pre", {}, result.program_output));
  $("#result").replaceChildren(...parts);
  markLines(result.compile.markers || []);
}

function testsTable(tests) {
  return el("table", {id: "tests", class: "grid"},
    el("thead", {}, el("tr", {}, el("th", {}, "Kind"), el("th", {}, "Test"), el("th", {}, "Verdict"), el("th", {}, "ms"))),
    el("tbody", {}, tests.map((t) => [
      el("tr", {class: t.verdict}, el("td", {}, t.kind), el("td", {}, t.name), el("td", {}, verdictBadge(t.verdict)),
         el("td", {class: "number"}, t.verdict === "accepted" ? t.wall_ms.toFixed(2) : "")),
      t.message && t.verdict !== "accepted" && t.verdict !== "skipped"
        ? el("tr", {class: "message"}, el("td", {colspan: 4}, el("pre", {}, t.message))) : null,
    ])));
}

// Median, GB/s, % of the measured ceiling, × the baseline and, where the PyTorch one-liner was
// timed, × torch, per benchmark size.
function timingTable(bench) {
  const torch = bench.entries.some((entry) => entry.torch);
  const times = (speedup) => el("td", {class: "number"}, speedup ? `${speedup.toFixed(2)}×` : "–");
  const role = (entry) => (entry.baseline ? "baseline" : entry.torch ? "torch" : "yours") + (entry.cached ? " (kept)" : "");
  const rows = [];
  for (const entry of bench.entries)
    for (const f of entry.figures)
      rows.push(el("tr", {class: entry.baseline || entry.torch ? "baseline" : "mine"},
        el("td", {}, role(entry)),
        el("td", {}, f.test), el("td", {}, verdictBadge(f.verdict)),
        el("td", {class: "number"}, fixed(f.median_us, 1)), el("td", {class: "number"}, fixed(f.gbps, 0)),
        el("td", {class: "number"}, f.percent_of_peak ? `${f.percent_of_peak.toFixed(0)} %` : "–"),
        times(f.speedup), torch ? times(f.speedup_torch) : null,
        el("td", {title: f.unblocked_because || (f.solve_charge_us > 0 ? `${f.solve_charge_us.toFixed(1)} µs of solve's host time charged` : "")},
          (f.host_clock ? "host clock " : "") + (f.blocking ? "" : "(unblocked)") + (f.solve_charge_us > 0 ? "(host charged)" : ""))));
  const headings = ["", "Size", "Verdict", "Median µs", "GB/s", "% of peak", "× baseline", ...(torch ? ["× torch"] : []), ""];
  return el("div", {},
    el("h3", {}, `Timing${bench.peak_gbps ? ` (ceiling ${bench.peak_gbps.toFixed(0)} GB/s)` : ""}`),
    el("table", {id: "timing", class: "grid"},
      el("thead", {}, el("tr", {}, ...headings.map((h) => el("th", {}, h)))),
      el("tbody", {}, rows)));
}

// ---- Reports of other commands (profile, sanitize), where the server has them -----------------

// The sanitizer's tools as the API lists them (problem.sanitizer_tools): the judge owns the list.
function reportControls(reports, sanitizerTools) {
  const controls = [];
  for (const name of reports) {
    const options = name === "sanitize"
      ? el("select", {id: "sanitize-tool"}, sanitizerTools.map((tool) => el("option", {value: tool}, tool)))
      : null;
    controls.push(el("button", {id: `report-${name}`, onclick: () => runReport(name)},
                     name[0].toUpperCase() + name.slice(1)), options);
  }
  return controls.filter((c) => c);
}

async function runReport(name) {
  $("#report").replaceChildren();
  const body = {source: editor().getValue(), language: state.language};
  if (name === "sanitize") body.tool = $("#sanitize-tool").value;
  await stream(`/api/problems/${state.slug}/${name}`, body, (report) => {
    $("#report").replaceChildren(
      el("h3", {}, `${name} (exit ${report.exit_code})`),
      report.output ? el("pre", {}, report.output) : "",
      report.json ? renderValue(report.json) : "");
  });
}

// Whatever a report's JSON holds: objects as key/value lists, lists of objects as tables.
function renderValue(value) {
  if (value === null || value === undefined) return "–";
  if (Array.isArray(value)) {
    if (value.length && value.every((v) => v && typeof v === "object" && !Array.isArray(v))) {
      const keys = [...new Set(value.flatMap((v) => Object.keys(v)))];
      return el("table", {class: "grid"}, el("thead", {}, el("tr", {}, keys.map((k) => el("th", {}, k)))),
                el("tbody", {}, value.map((v) => el("tr", {}, keys.map((k) => el("td", {}, renderValue(v[k])))))));
    }
    return value.map((v) => (typeof v === "object" ? renderValue(v) : String(v))).join(", ");
  }
  if (typeof value === "object")
    return el("dl", {class: "report"}, Object.entries(value).map(([k, v]) => [el("dt", {}, k), el("dd", {}, renderValue(v))]));
  if (typeof value === "string" && value.includes("\n")) return el("pre", {}, value);
  return String(value);
}

// An attempt's source (or the starter) into the editor, in its language (the picker follows).
async function loadSource(text, language) {
  if (language && language !== state.language) await switchLanguage(language);
  editor().setValue(text);
  scheduleSave();
}

// ---- Attempts ---------------------------------------------------------------------------------

function attemptRows(attempts, withProblem) {
  return attempts.map((a) => {
    const source = el("tr", {class: "source", hidden: ""}, el("td", {colspan: withProblem ? 8 : 7},
      a.source_text === null ? el("p", {class: "meh"}, `${a.source}: no longer holds this version`)
                             : [el("pre", {}, a.source_text),
                                withProblem ? "" : el("button", {onclick: () => loadSource(a.source_text, a.language)},
                                                     "Load into the editor")]));
    const toggle = el("button", {class: "quiet", onclick: () => { source.hidden = !source.hidden; }}, "source");
    return [el("tr", {},
      el("td", {}, a.recorded_at), withProblem ? el("td", {}, el("a", {href: `#/problems/${a.problem}`}, a.problem)) : null,
      el("td", {}, a.language && a.language !== "cuda" ? `${a.origin} · ${kLanguageNames[a.language]}` : a.origin),
      el("td", {}, verdictBadge(a.verdict)), el("td", {}, `${a.passed}/${a.total}`),
      el("td", {class: "number"}, fixed(a.median_us, 1)),
      el("td", {class: "number"}, a.percent_of_peak ? `${a.percent_of_peak.toFixed(0)} %` : "–"), el("td", {}, toggle)),
      source];
  });
}

async function showAttempts() {
  try {
    const history = await api(`/api/history?problem=${state.slug}`);
    $("#attempts tbody").replaceChildren(...attemptRows(history.attempts, false).flat());
  } catch (error) {
    $("#attempts tbody").replaceChildren(el("tr", {}, el("td", {colspan: 7}, error.message)));
  }
}

async function showHistory() {
  const history = await api("/api/history");
  $("#bests tbody").replaceChildren(...history.personal_bests.map((a) => el("tr", {},
    el("td", {}, el("a", {href: `#/problems/${a.problem}`}, a.problem)), el("td", {class: "number"}, fixed(a.median_us, 1)),
    el("td", {class: "number"}, fixed(a.gbps, 0)),
    el("td", {class: "number"}, a.percent_of_peak ? `${a.percent_of_peak.toFixed(0)} %` : "–"),
    el("td", {}, a.test), el("td", {}, a.recorded_at))));
  $("#all-attempts tbody").replaceChildren(...attemptRows(history.attempts, true).flat());
}

// ---- Routing: #/, #/problems/<slug>, #/history, and the views of other files ------------------

// Views that live in files of their own (leaderboard.js), loaded before this one: each registers
// {hash, element, show} in window.gpujudgeViews.
const extraViews = window.gpujudgeViews || [];

async function route() {
  if (state.saveTimer) await saveNow();  // the draft of the problem being left
  const hash = location.hash || "#/";
  const problem = hash.match(/^#\/problems\/([a-z0-9_-]+)$/);
  const extra = extraViews.find((view) => view.hash === hash);
  $("#list-view").hidden = !(hash === "#/");
  $("#problem-view").hidden = !problem;
  $("#history-view").hidden = hash !== "#/history";
  for (const view of extraViews) $(view.element).hidden = view !== extra;
  showError("");
  try {
    if (problem) await showProblem(problem[1]);
    else if (hash === "#/history") await showHistory();
    else if (extra) await extra.show();
    else await showList();
  } catch (error) {
    showError(error.message);
  }
}

$("#run").addEventListener("click", () => judge("run"));
$("#submit").addEventListener("click", () => judge("submit"));
$("#reset").addEventListener("click", () => loadSource(state.starter));
$("#language").addEventListener("change", (event) => switchLanguage(event.target.value));
window.addEventListener("hashchange", route);
api("/api/server").then((server) => {
  $("#server-info").textContent = `gpujudge ${server.version}${server.backend === "host" ? " · host backend" : ""}`;
}).catch(() => {});
route();
