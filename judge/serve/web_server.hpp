#pragma once
// `gpujudge serve`: the page and the JSON API it is a client of.
//   GET  /api/problems                      the list: slug, title, difficulty, personal best
//   GET  /api/problems/<slug>               one problem's view, its starter and the source to edit
//   GET  /api/problems/<slug>/path          its steps, naive to fastest, with the H100's figures (`path --json`)
//   GET  /api/problems/<slug>/source?language=cuda|pytorch|triton
//                                           the source to edit in that language (draft, last attempt or starter)
//   PUT  /api/problems/<slug>/draft         keeps the source being edited (the body, or {"source", "language"})
//   POST /api/problems/<slug>/run           judges the source (the body, or {"source", "language"}) as `run`
//   POST /api/problems/<slug>/submit        ... as `submit` does; both answer with server-sent events:
//                                           queued, started, progress..., then result (or error)
//   POST /api/problems/<slug>/<report>      profile or sanitize, where this binary has the command
//   POST /api/problems/<slug>/asm           the CUDA source's SASS or PTX ({"source", "kind"}), `asm --json`'s object
// A request's language (a JSON "language" or ?language=, CUDA when it names none) is one of the fixed list
// (catalog/starter.hpp): it picks the extension the source is kept with, .cu or .py.
//   GET  /api/history[?problem=<slug>]      every attempt with its source, and the personal bests
//   GET  /api/server                        version, backend, the reports offered, the queue
//   GET  /api/leaderboard                   a grade's leaderboards, from its gradebook (leaderboard_api.hpp)
// Judgements go through the judge exactly as the command line's (a runner process per judgement),
// one at a time, the rest queued.
#include "judging/submission.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace gpujudge {

struct serve_settings {
    std::string host = "127.0.0.1";
    int port = 8000;  // 0: any free port
    std::filesystem::path page_dir;
    std::filesystem::path javascript_dir;
    std::vector<std::string> reports;   // the report commands this binary has
    std::size_t max_body = 256 * 1024;  // bytes; a larger request is refused (413)
    std::string version;
    std::filesystem::path gradebook;  // the Leaderboard's (--gradebook); empty: the latest grade run
};

// Serves until SIGINT or SIGTERM. Prints "gpujudge: serving <url>" on stdout once it listens, with
// the token in the URL when one is needed. Returns the exit code.
int serve(const judge_context& judge, const serve_settings& settings);

}  // namespace gpujudge
