// The server's parts without a server: who may ask, which lines the compiler blamed, the queue, the
// reports of other commands.
#include "serve/access_policy.hpp"
#include "serve/api/api_error.hpp"
#include "serve/api/compile_markers.hpp"
#include "serve/api/report_commands.hpp"
#include "serve/judge_queue.hpp"

#include <catch2/catch.hpp>

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

TEST_CASE("access on the loopback: the server's own host names, no token, and no other site's posts", "[serve]") {
    const access_policy policy("127.0.0.1", 8000, access_policy::new_token());
    CHECK_FALSE(policy.token_required());
    CHECK_FALSE(policy.check({"GET", "127.0.0.1:8000", "", "", "", ""}));
    CHECK_FALSE(policy.check({"GET", "localhost:8000", "", "", "", ""}));
    CHECK_FALSE(policy.check({"POST", "localhost:8000", "http://localhost:8000", "", "", ""}));
    CHECK_FALSE(policy.check({"POST", "127.0.0.1:8000", "", "", "", ""}));  // a script: no Origin
    // DNS rebinding: another site's name resolved to 127.0.0.1.
    const auto rebound = policy.check({"GET", "evil.example:8000", "", "", "", ""});
    REQUIRE(rebound);
    CHECK(rebound->status == 403);
    CHECK(rebound->message == "unexpected Host 'evil.example:8000': this server answers to 127.0.0.1:8000 only");
    const auto forged = policy.check({"POST", "127.0.0.1:8000", "http://evil.example", "", "", ""});
    REQUIRE(forged);
    CHECK(forged->status == 403);
    CHECK(forged->message == "a request from another site (http://evil.example) may not change anything here");
    CHECK_FALSE(policy.check({"GET", "127.0.0.1:8000", "http://evil.example", "", "", ""}));  // reads are not CSRF
}

TEST_CASE("access elsewhere: the token, from a header, the cookie or the query", "[serve]") {
    const access_policy policy("0.0.0.0", 8000, "s3cret");
    CHECK(policy.token_required());
    const auto missing = policy.check({"GET", "example.org:8000", "", "", "", ""});
    REQUIRE(missing);
    CHECK(missing->status == 401);
    CHECK(policy.check({"GET", "example.org:8000", "", "Bearer wrong!", "", ""}));
    CHECK_FALSE(policy.check({"GET", "example.org:8000", "", "Bearer s3cret", "", ""}));
    CHECK_FALSE(policy.check({"GET", "example.org:8000", "", "", "a=1; gpujudge_token=s3cret", ""}));
    CHECK(policy.check({"GET", "example.org:8000", "", "", "gpujudge_token=s3cre", ""}));
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
