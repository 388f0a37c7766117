// The path beside the statement: the problem's shipped solutions in order, naive to fastest, each with
// what it teaches and the figures bench measured for it on the H100 (GET /api/problems/<slug>/path,
// what `gpujudge path <slug> --json` prints). Apart from app.js, whose el() it builds with (strings become
// text, never HTML): it fills #path whenever a problem opens.
"use strict";

(() => {
  function figures(measured) {
    if (!measured) return [el("td", {class: "meh", colspan: 4}, "not measured")];
    if (measured.verdict !== "accepted") return [el("td", {class: "bad", colspan: 4}, measured.verdict)];
    return [
      el("td", {class: "number"}, measured.median_us.toFixed(1)),
      el("td", {class: "number"}, measured.gbps.toFixed(0)),
      el("td", {class: "number"}, `${measured.percent_of_peak.toFixed(1)} %`),
      el("td", {class: "number"}, measured.speedup ? `${measured.speedup.toFixed(2)}×` : "–"),
    ];
  }

  function caption(path) {
    const m = path.measurements;
    if (!m.present) return `Not measured yet: ${m.file} is not there (gpujudge bench --all --json on the H100 writes it).`;
    if (!m.device) return `${m.file} has no figures for this problem.`;
    return `Figures: ${m.device} at ${path.test}, ceiling ${m.peak_gbps.toFixed(0)} GB/s.`;
  }

  function render(path) {
    if (path.errors.length) return [el("pre", {class: "bad"}, path.errors.join("\n"))];
    if (!path.steps.length) return [el("p", {class: "meh"}, "No solution of this problem declares a step yet.")];
    const rows = path.steps.map((step) => el("tr", {"data-step": step.step},
      el("td", {class: "number"}, step.step),
      el("td", {}, el("code", {}, step.file), el("br"), el("span", {class: "quiet", title: step.technique},
                                                                  step.summary)),
      ...figures(step.measured),
      el("td", {class: "meh"}, step.slower_than_step ? `slower than step ${step.slower_than_step}` : "")));
    return [
      el("p", {}, el("span", {class: "quiet"}, caption(path))),
      el("table", {id: "path-steps", class: "grid"},
        el("thead", {}, el("tr", {}, ["Step", "Solution", "Median µs", "GB/s", "% of ceiling", "× baseline", ""]
                                           .map((heading) => el("th", {}, heading)))),
        el("tbody", {}, rows)),
    ];
  }

  async function showPath() {
    const box = document.getElementById("path");
    const match = (location.hash || "").match(/^#\/problems\/([a-z0-9_-]+)$/);
    if (!box || !match) return;
    const slug = match[1];
    box.replaceChildren();
    let children;
    try {
      const response = await fetch(`/api/problems/${slug}/path`);
      const body = await response.json();
      if (!response.ok) throw new Error(body.message || `${response.status}`);
      children = render(body);
    } catch (error) {
      children = [el("p", {class: "bad"}, `The path cannot be shown: ${error.message}`)];
    }
    if (location.hash === `#/problems/${slug}`) box.replaceChildren(...children);  // unless the learner moved on
  }

  window.addEventListener("hashchange", showPath);
  showPath();
})();
