// The Leaderboard view (#/leaderboard): a grade's leaderboards, from GET /api/leaderboard, ranked as
// leaderboard.md ranks them (by time within each GPU model, by % of the ceiling across models).
// Loaded before app.js, whose helpers ($, el, api, fixed) it calls once the page runs.
"use strict";

function leaderboardTable(id, headings, rows) {
  return el("table", {id, class: "grid leaderboard"},
    el("thead", {}, el("tr", {}, headings.map((h) => el("th", {}, h)))),
    el("tbody", {}, rows));
}

function gpuName(row) {
  return row.gpu_index === null ? "" : `gpu${row.gpu_index}`;
}

function percent(value) {
  return value === null || value === undefined ? "–" : `${value.toFixed(1)} %`;
}

function problemBoard(board) {
  const parts = [el("h2", {}, board.problem)];
  if (!board.by_gpu.length) parts.push(el("p", {class: "meh"}, "No timed accepted submission."));
  for (const ranking of board.by_gpu) {
    parts.push(el("h3", {}, `On ${ranking.gpu || "an unknown GPU"}`));
    parts.push(leaderboardTable(null, ["#", "Student", "Median µs", "GB/s", "% of ceiling", "× baseline", "GPU"],
      ranking.ranked.map((r) => el("tr", {class: "ranked"},
        el("td", {class: "number"}, r.rank), el("td", {class: "student"}, r.student),
        el("td", {class: "number"}, fixed(r.median_us, 1)), el("td", {class: "number"}, fixed(r.gbps, 0)),
        el("td", {class: "number"}, percent(r.percent_of_ceiling)),
        el("td", {class: "number"}, r.x_baseline ? `${r.x_baseline.toFixed(2)}×` : "–"),
        el("td", {}, gpuName(r))))));
  }
  if (board.across_models.length) {
    parts.push(el("h3", {}, "Across GPU models, by % of ceiling"));
    parts.push(leaderboardTable(null, ["#", "Student", "GPU", "% of ceiling", "Median µs"],
      board.across_models.map((r) => el("tr", {class: "ranked"},
        el("td", {class: "number"}, r.rank), el("td", {class: "student"}, r.student),
        el("td", {}, r.gpu_index === null ? r.gpu : `${r.gpu} (${gpuName(r)})`),
        el("td", {class: "number"}, percent(r.percent_of_ceiling)),
        el("td", {class: "number"}, fixed(r.median_us, 1))))));
  }
  return el("section", {class: "problem-board", "data-problem": board.problem}, parts);
}

async function showLeaderboard() {
  const view = $("#leaderboard-view");
  view.replaceChildren(el("h1", {}, "Leaderboard"), el("p", {class: "meh"}, "loading…"));
  let board;
  try {
    board = await api("/api/leaderboard");
  } catch (error) {
    view.replaceChildren(el("h1", {}, "Leaderboard"), el("p", {id: "leaderboard-missing", class: "meh"}, error.message));
    return;
  }
  view.replaceChildren(
    el("h1", {}, "Leaderboard"),
    el("p", {id: "leaderboard-source", class: "quiet"},
       `${board.rows} rows of ${board.gradebook}${board.source === "latest grade" ? " (the latest grade)" : ""}`),
    ...(board.problems.length ? board.problems.map(problemBoard)
                              : [el("p", {class: "meh"}, "The gradebook has no submissions.")]));
}

(window.gpujudgeViews = window.gpujudgeViews || []).push(
  {hash: "#/leaderboard", element: "#leaderboard-view", show: showLeaderboard});
