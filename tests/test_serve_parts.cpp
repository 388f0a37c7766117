// The server's parts without a server: who may ask, which lines the compiler blamed, the queue, the
// reports of other commands, the languages a request may name and where each language's sources are kept.
#include "base/temp_dir.hpp"
#include "catalog/starter.hpp"
#include "serve/access_policy.hpp"
#include "serve/api/api_error.hpp"
#include "serve/api/catalog_json.hpp"
#include "serve/api/compile_markers.hpp"
#include "serve/api/machine_code.hpp"
#include "serve/api/report_commands.hpp"
#include "serve/judge_queue.hpp"
#include "serve/source_store.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <future>
#include <thread>

using namespace gpujudge;

TEST_CASE("compile markers: nvcc's and gcc's lines in the learner's file, not in others", "[serve]") {
    const std::string source = "/data/serve/sources/reduction/0123.cu";
    const std::string diagnostics =
        source + "(4): error: expected a \";\"\n      out[0] = in[i];\n      ^\n" + source +
        "(8): error: identifier \"undefined_thing\" is undefined\n" + source +
        "(1): warning #177-D: variable \"unused\" was declared but never referenced\n"
        "/tmp/gpujudge-forced.h(3): error: not the learner's\n" +
        source + ":12:5: error: 'x' was not declared in this scope\n" + source +
        ":13: fatal error: missing.h: No such file or directory\n"
        "The expected signature is:\n  extern \"C\" void solve(const float* input, float* output, int N)\n";
    const auto markers = compile_markers(diagnostics, source);
    REQUIRE(markers.size() == 5);
    CHECK(markers[0].line == 4);
    CHECK(markers[0].severity == "error");
    CHECK(markers[0].message == "expected a \";\"");
    CHECK(markers[1].line == 8);
    CHECK(markers[2].line == 1);
    CHECK(markers[2].severity == "warning");
    CHECK(markers[2].message == "variable \"unused\" was declared but never referenced");
    CHECK(markers[3].line == 12);
    CHECK(markers[3].message == "'x' was not declared in this scope");
    CHECK(markers[4].line == 13);
    CHECK(markers[4].severity == "error");
    CHECK(compile_markers(diagnostics, "/elsewhere.cu").empty());
}

TEST_CASE("compile markers: a line of 200 000 characters is read, cut, without a regex overflowing the stack",
          "[serve]") {
    const std::string source = "/data/serve/sources/tiny_sum/0123.cu";
    const auto markers = compile_markers(source + "(4): error: " + std::string(200000, 'x') + "\n", source);
    REQUIRE(markers.size() == 1);
    CHECK(markers[0].line == 4);
    const auto python = "/data/serve/sources/tiny_sum/0123.py";
    CHECK(compile_markers("  File \"" + std::string(200000, '/') + "\", line 3\n", python).empty());
}

TEST_CASE("compile markers: a Python file's syntax error and the frames of its import's traceback", "[serve][python]") {
    const std::string source = "/data/serve/sources/tiny_sum/0123.py";
    const auto syntax =
        compile_markers(source + ":6: SyntaxError: '(' was never closed\n  output[0] = input[:N].sum(\n", source);
    REQUIRE(syntax.size() == 1);
    CHECK(syntax[0].line == 6);
    CHECK(syntax[0].severity == "error");
    CHECK(syntax[0].message == "SyntaxError: '(' was never closed");
    const std::string traceback =
        "importing the file failed:\n"
        "Traceback (most recent call last):\n"
        "  File \"" +
        source +
        "\", line 2, in <module>\n"
        "    import helper\n"
        "  File \"/usr/lib/python3/dist-packages/helper.py\", line 9, in <module>\n"
        "    raise ImportError\n"
        "  File \"" +
        source +
        "\", line 5, in <module>\n"
        "    x = undefined_name\n"
        "NameError: name 'undefined_name' is not defined\n";
    const auto frames = compile_markers(traceback, source);
    REQUIRE(frames.size() == 2);  // the frames in the learner's file, not Python's own
    CHECK(frames[0].line == 2);
    CHECK(frames[1].line == 5);
    for (const auto& frame : frames) {
        CHECK(frame.severity == "error");
        CHECK(frame.message == "NameError: name 'undefined_name' is not defined");
    }
    const auto warned = compile_markers(source + ":3: SyntaxWarning: invalid escape sequence '\\d'\n", source);
    REQUIRE(warned.size() == 1);
    CHECK(warned[0].severity == "warning");
    // Python's forms are a Python file's alone: a .cu file's lines are read as nvcc's and gcc's only.
    const std::string cuda = "/data/serve/sources/tiny_sum/0123.cu";
    CHECK(compile_markers(cuda + ":6: SyntaxError: x\n  File \"" + cuda + "\", line 2, in <module>\nE: e\n", cuda)
              .empty());
    CHECK(compile_markers(traceback, "/elsewhere.py").empty());
}

TEST_CASE("languages: one fixed list, each with its extension and starter, and nothing else accepted",
          "[serve][python]") {
    CHECK(solution_languages() == std::vector<std::string>{"cuda", "pytorch", "triton"});
    CHECK(requested_language(nullptr) == "cuda");  // a request from before the page had languages
    CHECK(requested_language({{"source", "x"}}) == "cuda");
    CHECK(requested_language({{"language", "triton"}}) == "triton");
    for (const nlohmann::json& wrong :
         {nlohmann::json("rust"), nlohmann::json("../../etc/passwd"), nlohmann::json("cuda/"), nlohmann::json(1),
          nlohmann::json(nullptr), nlohmann::json::array({"cuda"})}) {
        INFO(wrong.dump());
        try {
            requested_language({{"language", wrong}});
            FAIL("a language off the list was accepted");
        } catch (const api_error& error) {
            CHECK(error.status() == 400);
            CHECK(std::string(error.what()) == "'language' must be one of: cuda, pytorch, triton");
        }
    }
    CHECK_FALSE(machine_code_request(nullptr).ptx);  // SASS, as `asm` shows by default
    CHECK_FALSE(machine_code_request({{"kind", "sass"}}).ptx);
    CHECK(machine_code_request({{"kind", "ptx"}}).ptx);
    CHECK_THROWS_AS(machine_code_request({{"kind", "--ptx"}}), api_error);
}

TEST_CASE("the source store: each language's extension, a draft per problem and language, and the drafts of old",
          "[serve][python]") {
    const temp_dir work("store");
    const source_store store(work.path(), ".cu");
    CHECK(store.extension("cuda") == ".cu");
    CHECK(store.extension("pytorch") == ".py");
    CHECK(store.extension("triton") == ".py");
    CHECK(source_store(work.path(), ".cpp").extension("cuda") == ".cpp");  // the host backend's C++ fakes
    CHECK(source_store(work.path(), ".cpp").extension("pytorch") == ".py");
    const auto kept = store.keep("tiny_sum", "pytorch", "def solve(input, output, N): pass\n");
    CHECK(kept.parent_path() == work.path() / "sources" / "tiny_sum");
    CHECK(kept.extension() == ".py");
    CHECK(kept.stem().string().size() == 16);
    CHECK(store.keep("tiny_sum", "cuda", "// x\n").extension() == ".cu");

    CHECK_FALSE(store.last_draft_language("tiny_sum"));
    // A draft saved before the page had languages: drafts/<slug>.cu, still the CUDA draft.
    std::filesystem::create_directories(work.path() / "drafts");
    std::ofstream(work.path() / "drafts" / "tiny_sum.cu") << "// from before\n";
    CHECK(store.draft("tiny_sum", "cuda") == "// from before\n");
    CHECK(store.last_draft_language("tiny_sum") == "cuda");
    CHECK_FALSE(store.draft("tiny_sum", "pytorch"));
    store.save_draft("tiny_sum", "pytorch", "# mine\n");
    CHECK(std::filesystem::exists(work.path() / "drafts" / "tiny_sum.pytorch.py"));
    CHECK(store.draft("tiny_sum", "pytorch") == "# mine\n");
    CHECK_FALSE(store.draft("tiny_sum", "triton"));
    CHECK(store.draft("tiny_sum", "cuda") == "// from before\n");
    CHECK(store.last_draft_language("tiny_sum") == "pytorch");
    store.save_draft("tiny_sum", "cuda", "// again\n");
    CHECK(store.last_draft_language("tiny_sum") == "cuda");
}

TEST_CASE("the source to edit per language: its draft, else its starter, the one `init --lang` writes",
          "[serve][python]") {
    const problem_spec spec = load_problem(GPUJUDGE_TEST_FIXTURES "/problems/tiny_sum");
    const temp_dir work("editing");
    const source_store store(work.path(), ".cu");
    for (const auto& language : solution_languages()) {
        INFO(language);
        const auto json = editing_json(spec, language, nullptr, store);
        CHECK(json.at("language") == language);
        CHECK(json.at("languages") == solution_languages());
        CHECK(json.at("starter") == starter_source(spec, language));
        CHECK(json.at("source") == json.at("starter"));
        CHECK(json.at("source_from") == "starter");
    }
    CHECK(problem_json(spec, nullptr, store).at("language") == "cuda");  // no draft, no attempt
    store.save_draft("tiny_sum", "triton", "import triton\n");
    const auto triton = editing_json(spec, "triton", nullptr, store);
    CHECK(triton.at("source") == "import triton\n");
    CHECK(triton.at("source_from") == "draft");
    CHECK(editing_json(spec, "pytorch", nullptr, store).at("source_from") == "starter");
    const auto view = problem_json(spec, nullptr, store);  // opens in the language written last
    CHECK(view.at("language") == "triton");
    CHECK(view.at("source") == "import triton\n");
    CHECK(view.at("title") == "Tiny Sum");
}

TEST_CASE("access on the loopback: the token, the server's own host names, and no other site's posts", "[serve]") {
    const access_policy policy("127.0.0.1", 8000, "s3cret");
    // Any user of the machine can reach 127.0.0.1: without the token, nothing.
    const auto missing = policy.check({"GET", "127.0.0.1:8000", "", "", "", ""});
    REQUIRE(missing);
    CHECK(missing->status == 401);
    CHECK(policy.check({"POST", "127.0.0.1:8000", "", "", "", ""}));
    const std::string bearer = "Bearer s3cret";
    CHECK_FALSE(policy.check({"GET", "127.0.0.1:8000", "", bearer, "", ""}));
    CHECK_FALSE(policy.check({"GET", "localhost:8000", "", "", "gpujudge_token_8000=s3cret", ""}));
    CHECK(policy.check({"GET", "localhost:8000", "", "", "gpujudge_token_8001=s3cret", ""}));  // another server's
    CHECK_FALSE(policy.check({"POST", "localhost:8000", "http://localhost:8000", bearer, "", ""}));
    CHECK_FALSE(policy.check({"POST", "127.0.0.1:8000", "", bearer, "", ""}));  // a script: no Origin
    // DNS rebinding: another site's name resolved to 127.0.0.1.
    const auto rebound = policy.check({"GET", "evil.example:8000", "", bearer, "", ""});
    REQUIRE(rebound);
    CHECK(rebound->status == 403);
    CHECK(rebound->message == "unexpected Host 'evil.example:8000': this server answers to 127.0.0.1:8000 only");
    const auto forged = policy.check({"POST", "127.0.0.1:8000", "http://evil.example", bearer, "", ""});
    REQUIRE(forged);
    CHECK(forged->status == 403);
    CHECK(forged->message == "a request from another site (http://evil.example) may not change anything here");
    CHECK_FALSE(policy.check({"GET", "127.0.0.1:8000", "http://evil.example", bearer, "", ""}));  // reads are not CSRF
}

TEST_CASE("access elsewhere: the token, from a header, the cookie or the query", "[serve]") {
    const access_policy policy("0.0.0.0", 8000, "s3cret");
    CHECK(policy.token_required());
    const auto missing = policy.check({"GET", "example.org:8000", "", "", "", ""});
    REQUIRE(missing);
    CHECK(missing->status == 401);
    CHECK(policy.check({"GET", "example.org:8000", "", "Bearer wrong!", "", ""}));
    CHECK_FALSE(policy.check({"GET", "example.org:8000", "", "Bearer s3cret", "", ""}));
    CHECK_FALSE(policy.check({"GET", "example.org:8000", "", "", "a=1; gpujudge_token_8000=s3cret", ""}));
    CHECK(policy.check({"GET", "example.org:8000", "", "", "gpujudge_token_8000=s3cre", ""}));
    CHECK_FALSE(policy.check({"GET", "example.org:8000", "", "", "", "s3cret"}));
    CHECK(access_policy::new_token().size() == 64);
    CHECK(access_policy::new_token() != access_policy::new_token());
}

namespace {

std::vector<server_event> drain(event_stream& events) {
    std::vector<server_event> all;
    while (!events.finished())
        if (auto event = events.next(std::chrono::seconds(30))) all.push_back(*event);
    return all;
}

}  // namespace

TEST_CASE("the queue judges one at a time, in order, telling the waiting their place", "[serve]") {
    judge_queue queue;
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    auto first = queue.enqueue([released](const progress_hook& hook) {
        tell(hook, {progress_step::stage::testing, 1, 2, "example"});
        released.wait();
        return server_event{"result", {{"n", 1}}};
    });
    // The first has started once it said "started"; the second then waits behind it.
    while (auto event = first->next(std::chrono::seconds(30)))
        if (event->name == "started") break;
    auto second = queue.enqueue([](const progress_hook&) -> server_event { throw std::runtime_error("boom"); });
    auto third = queue.enqueue([](const progress_hook&) { return server_event{"result", {{"n", 3}}}; });
    third->abandon();  // its client left: it never runs
    release.set_value();
    const auto firsts = drain(*first);
    REQUIRE(firsts.size() == 2);
    CHECK(firsts[0].name == "progress");
    CHECK(firsts[0].data.at("text") == "test 1 of 2: example");
    CHECK(firsts[1].data.at("n") == 1);
    const auto seconds = drain(*second);
    REQUIRE(seconds.size() >= 3);
    CHECK(seconds[0].name == "queued");
    CHECK(seconds[0].data.at("ahead") == 1);
    CHECK(seconds.back().name == "error");
    CHECK(seconds.back().data.at("message") == "internal error: boom");
    const auto thirds = drain(*third);
    for (const auto& event : thirds) CHECK(event.name == "queued");
    CHECK(thirds.front().data.at("ahead") == 2);
}

TEST_CASE("reports: only fixed choices reach the command line, and the command's JSON is passed on", "[serve]") {
    const problem_spec spec = load_problem(GPUJUDGE_TEST_FIXTURES "/problems/tiny_sum");
    const report_launch launch{"/bin/gpujudge", "/home", "device"};
    const auto sanitize = report_argv("sanitize", spec, "/kept/a.cu", {{"source", "x"}, {"tool", "racecheck"}}, launch);
    CHECK(sanitize == std::vector<std::string>{"/bin/gpujudge", "--color", "never", "--home", "/home", "--backend",
                                               "device", "sanitize", "tiny_sum", "/kept/a.cu", "--json", "--tool",
                                               "racecheck"});
    const auto profile = report_argv("profile", spec, "/kept/a.cu", {{"test", "N = 100000"}}, launch);
    CHECK(profile.back() == "N = 100000");
    try {
        report_argv("sanitize", spec, "/kept/a.cu", {{"tool", "--home=/etc"}}, launch);
        FAIL("an unknown tool was passed on");
    } catch (const api_error& error) {
        CHECK(error.status() == 400);
        CHECK(std::string(error.what()) == "'tool' must be one of: memcheck, racecheck, synccheck, initcheck");
    }
    CHECK_THROWS_AS(report_argv("profile", spec, "/kept/a.cu", {{"test", "no such test"}}, launch), api_error);
    const server_event done =
        run_report("sanitize", {"sh", "-c", "echo 'a warning' >&2; printf '{\\n  \"findings\": 2\\n}\\n'; exit 8"},
                   std::chrono::seconds(30));
    CHECK(done.name == "result");
    CHECK(done.data.at("exit_code") == 8);
    CHECK(done.data.at("json") == nlohmann::json{{"findings", 2}});
    CHECK(done.data.at("output") == "a warning\n");
    const server_event broken =
        run_report("profile", {"sh", "-c", "echo 'ncu not found'; exit 13"}, std::chrono::seconds(30));
    CHECK(broken.data.at("json").is_null());
    CHECK(broken.data.at("output") == "ncu not found\n");
}
