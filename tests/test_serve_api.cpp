// `gpujudge serve` as scripts use it: the HTTP API of a server started as a user starts it, each
// test with a server (on a free port) and a history of its own. Without a GPU, run and submit end
// in no_device with the compile result; the host backend judges C++ fakes to the other verdicts.
#include "base/content_hash.hpp"
#include "base/exit_codes.hpp"
#include "base/user_errors.hpp"
#include "catalog/starter.hpp"
#include "grade/gradebook.hpp"
#include "process/child_process.hpp"
#include "serve/page_assets.hpp"
#include "toolkit/programs.hpp"
#include "toolkit/python_probe.hpp"

#include <httplib.h>
#include <signal.h>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

using namespace gpujudge;

namespace {

const std::string kFixtures = GPUJUDGE_TEST_FIXTURES;

std::string file_text(const std::filesystem::path& path) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// A `gpujudge serve --port 0` of its own: a history folder of its own (emptied first), the shared
// test cache for compiled libraries, more of its environment where given, its URL read from what it prints.
class served {
public:
    served(const std::string& name, const std::vector<std::string>& args, const std::vector<std::string>& env = {})
        : data_(std::filesystem::path(GPUJUDGE_TEST_CACHE) / ("serve-" + name)), output_(data_ / "server.log") {
        std::filesystem::remove_all(data_);
        std::filesystem::create_directories(data_);
        std::vector<std::string> argv = {"env", "GPUJUDGE_DATA_DIR=" + data_.string(),
                                         "GPUJUDGE_CACHE_DIR=" GPUJUDGE_TEST_CACHE};
        argv.insert(argv.end(), env.begin(), env.end());
        argv.push_back(GPUJUDGE_BIN_DIR "/gpujudge");
        argv.insert(argv.end(), args.begin(), args.end());
        spawn_options options;
        options.output_file = output_;
        server_ = std::make_unique<child_process>(argv, options);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        const std::regex printed(R"(gpujudge: serving http://[^:]+:(\d+)/(\?token=([0-9a-f]+))?)");
        std::smatch match;
        while (std::chrono::steady_clock::now() < deadline) {
            const std::string log = file_text(output_);
            if (std::regex_search(log, match, printed)) {
                port_ = std::stoi(match[1]);
                token_ = match[3];
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        FAIL("the server printed no URL: " << file_text(output_));
    }
    ~served() { std::filesystem::remove_all(data_); }

    // A client that sends the token the server printed; `anonymous()` sends none.
    httplib::Client client() const {
        httplib::Client client = anonymous();
        client.set_bearer_token_auth(token_);
        return client;
    }
    httplib::Client anonymous() const {
        httplib::Client client("127.0.0.1", port_);
        client.set_read_timeout(600, 0);  // a judgement's events may be seconds apart (nvcc)
        return client;
    }
    int port() const { return port_; }
    const std::string& token() const { return token_; }
    const std::filesystem::path& data_dir() const { return data_; }
    std::string log() const { return file_text(output_); }
    child_exit stop(int signal) {
        ::kill(server_->pid(), signal);
        return server_->wait(std::chrono::steady_clock::now() + std::chrono::seconds(60));
    }

private:
    std::filesystem::path data_;
    std::filesystem::path output_;
    std::unique_ptr<child_process> server_;
    int port_ = 0;
    std::string token_;
};

std::vector<std::string> home_args(const std::vector<std::string>& more = {}) {
    std::vector<std::string> args = {"--home", GPUJUDGE_SOURCE_DIR, "serve", "--port", "0"};
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

// Judged on the host (C++ fakes, no GPU needed): the fixtures' tiny_sum problem.
std::vector<std::string> host_args() {
    return {"--home", kFixtures, "--backend", "host", "serve", "--port", "0"};
}

nlohmann::json json_of(const httplib::Result& result) {
    REQUIRE(result);
    INFO(result->body);
    return nlohmann::json::parse(result->body);
}

struct event {
    std::string name;
    nlohmann::json data;
};

// The server-sent events of a response, in order.
std::vector<event> events_of(const httplib::Result& result) {
    REQUIRE(result);
    INFO(result->body);
    REQUIRE(result->status == 200);
    CHECK(result->get_header_value("Content-Type") == "text/event-stream");
    std::vector<event> events;
    std::istringstream lines(result->body);
    std::string line, name;
    while (std::getline(lines, line)) {
        if (line.rfind("event: ", 0) == 0) name = line.substr(7);
        if (line.rfind("data: ", 0) == 0) events.push_back({name, nlohmann::json::parse(line.substr(6))});
    }
    return events;
}

const event& last_event(const std::vector<event>& events) {
    REQUIRE_FALSE(events.empty());
    return events.back();
}

httplib::Result post_source(httplib::Client& client, const std::string& path, const std::string& source) {
    return client.Post(path.c_str(), nlohmann::json{{"source", source}}.dump(), "application/json");
}

httplib::Result post_json(httplib::Client& client, const std::string& path, const nlohmann::json& body) {
    return client.Post(path.c_str(), body.dump(), "application/json");
}

// An error reply's status and code; its message.
std::string error_message(const httplib::Result& result, int status, const std::string& error) {
    REQUIRE(result);
    INFO(result->body);
    CHECK(result->status == status);
    const auto json = nlohmann::json::parse(result->body);
    CHECK(json.at("error") == error);
    return json.at("message").get<std::string>();
}

// Where the server keeps `text` as a source of `slug` in a language with that extension (source_store.hpp).
std::filesystem::path kept_path(const served& server, const std::string& slug, const std::string& text,
                                const std::string& extension) {
    return server.data_dir() / "serve" / "sources" / slug / (content_hash({text}).substr(0, 16) + extension);
}

// Whether the judge finds a Python with torch here (python_probe.hpp): without one, Python solutions
// end in its exit-13 message, which the tests then check instead.
std::optional<std::string> python_missing() {
    try {
        find_python();
        return std::nullopt;
    } catch (const environment_error& error) {
        return std::string(error.what());
    }
}

const std::string kWarpShuffle = GPUJUDGE_SOURCE_DIR "/solutions/reduction/warp_shuffle.cu";

}  // namespace

TEST_CASE("serve lists the problems with their difficulty and personal best", "[serve][api]") {
    const served server("list", home_args());
    auto client = server.client();
    const auto list = json_of(client.Get("/api/problems"));
    REQUIRE(list.is_array());
    CHECK(list.size() == 18);
    const auto reduction =
        std::find_if(list.begin(), list.end(), [](const nlohmann::json& p) { return p.at("slug") == "reduction"; });
    REQUIRE(reduction != list.end());
    CHECK(reduction->at("title") == "Reduction");
    CHECK(reduction->at("difficulty") == "medium");
    CHECK(reduction->at("personal_best").is_null());  // a fresh history
}

TEST_CASE("serve shows a problem: statement, signature, constraints, examples, starter", "[serve][api]") {
    const served server("problem", home_args());
    auto client = server.client();
    const auto problem = json_of(client.Get("/api/problems/reduction"));
    CHECK(problem.at("signature") == "extern \"C\" void solve(const float* input, float* output, int N)");
    CHECK(problem.at("statement").get<std::string>().rfind("# Reduction\n", 0) == 0);
    CHECK(problem.at("constraints").at(0) == "1 ≤ N ≤ 100000000");
    CHECK(problem.at("constraints").back() == "time limit: 2000 ms per call of solve");
    CHECK(problem.at("examples").at(0).at("text") ==
          "example 1:\n  input = [1, 2, 3, 4, 5, 6, 7, 8]\n  N = 8\n  → output = [36]\n");
    CHECK(problem.at("tests") == nlohmann::json{{"example", 2}, {"functional", 14}, {"benchmark", 2}});
    CHECK(problem.at("source_from") == "starter");
    CHECK(problem.at("source") == problem.at("starter"));
    CHECK(contains(problem.at("starter"), "extern \"C\" void solve(const float* input, float* output, int N) {"));
    // Saved as you type: the draft comes back as the source to edit.
    const auto saved = client.Put("/api/problems/reduction/draft", "// my draft\n", "text/plain");
    REQUIRE(saved);
    CHECK(saved->status == 204);
    const auto again = json_of(client.Get("/api/problems/reduction"));
    CHECK(again.at("source_from") == "draft");
    CHECK(again.at("source") == "// my draft\n");
}

TEST_CASE("serve: run and submit stream their progress and end in no_device with the compile result", "[serve][api]") {
    const served server("judge", home_args());
    auto client = server.client();
    const std::string source = file_text(kWarpShuffle);
    for (const char* how : {"run", "submit"}) {
        INFO(how);
        const auto events = events_of(post_source(client, std::string("/api/problems/reduction/") + how, source));
        CHECK(events.front().name == "queued");
        CHECK(events.front().data.at("ahead") == 0);
        CHECK(events.at(1).name == "started");
        CHECK(events.at(2).name == "progress");
        CHECK(events.at(2).data.at("text") == "compiling");
        const auto& result = last_event(events);
        REQUIRE(result.name == "result");
        CHECK(result.data.at("compile").at("ok") == true);
        CHECK(result.data.at("compile").at("markers") == nlohmann::json::array());
        if (result.data.at("verdict") == "no_device") {
            CHECK(result.data.at("exit_code") == exit_no_device);
            CHECK_FALSE(result.data.at("no_device").get<std::string>().empty());
        } else {
            CHECK(result.data.at("verdict") == "accepted");  // on a GPU
        }
    }
    // Both attempts are in the history, newest first, with the very source sent.
    const auto history = json_of(client.Get("/api/history?problem=reduction"));
    REQUIRE(history.at("attempts").size() == 2);
    CHECK(history.at("attempts").at(0).at("origin") == "submit");
    CHECK(history.at("attempts").at(1).at("origin") == "run");
    CHECK(history.at("attempts").at(0).at("source_text") == source);
    // An empty problem is every problem, as the CLI's `history ''` (it was 404 unknown problem '').
    CHECK(json_of(client.Get("/api/history?problem=")).at("attempts").size() == 2);
    // The file the server judged is its own, named by the content's hash.
    const std::string kept = history.at("attempts").at(0).at("source");
    CHECK(kept.rfind((server.data_dir() / "serve" / "sources" / "reduction").string() + "/", 0) == 0);
    // With no draft, the last attempt's source is what the editor opens with.
    const auto problem = json_of(client.Get("/api/problems/reduction"));
    CHECK(problem.at("source_from") == "last attempt");
    CHECK(problem.at("source") == source);
}

TEST_CASE("serve: a compile error comes with the lines to mark in the editor", "[serve][api]") {
    const served server("compile-error", home_args());
    auto client = server.client();
    const std::string source =
        "__global__ void k(const float* in, float* out, int N) {\n"
        "    int i = threadIdx.x\n"
        "    out[0] = in[i];\n"
        "}\n"
        "extern \"C\" void solve(const float* input, float* output, int N) {\n"
        "    k<<<1, 1>>>(input, output, N);\n"
        "    undefined_thing();\n"
        "}\n";
    const auto events = events_of(post_source(client, "/api/problems/reduction/run", source));
    const auto& result = last_event(events);
    CHECK(result.data.at("verdict") == "compile_error");
    CHECK(result.data.at("exit_code") == exit_compile_error);
    const auto& markers = result.data.at("compile").at("markers");
    REQUIRE(markers.size() == 2);
    CHECK(markers.at(0) == nlohmann::json{{"line", 3}, {"severity", "error"}, {"message", "expected a \";\""}});
    CHECK(markers.at(1).at("line") == 7);
    CHECK(markers.at(1).at("message") == "identifier \"undefined_thing\" is undefined");
}

TEST_CASE("serve refuses bad requests with a JSON error", "[serve][api]") {
    const served server("bad-requests", home_args());
    auto client = server.client();
    SECTION("a body over the limit") {
        const std::string huge(300 * 1024, 'x');
        CHECK(error_message(client.Post("/api/problems/reduction/run", huge, "text/plain"), 413, "too_large") ==
              "the request's body is over 262144 bytes");
    }
    SECTION("an unknown problem") {
        CHECK(error_message(client.Get("/api/problems/nope"), 404, "unknown_problem") == "unknown problem 'nope'");
        CHECK(error_message(post_source(client, "/api/problems/nope/run", "x"), 404, "unknown_problem") ==
              "unknown problem 'nope'");
        CHECK(error_message(client.Get("/api/history?problem=nope"), 404, "unknown_problem") ==
              "unknown problem 'nope'");
    }
    SECTION("malformed JSON, JSON without the source, no source") {
        const auto malformed = error_message(
            client.Post("/api/problems/reduction/run", "{\"source\": ", "application/json"), 400, "bad_request");
        CHECK(malformed.rfind("malformed JSON: ", 0) == 0);
        CHECK(error_message(client.Post("/api/problems/reduction/run", "{\"code\": \"x\"}", "application/json"), 400,
                            "bad_request") == "a JSON body must be an object with the source as \"source\", a string");
        CHECK(error_message(client.Post("/api/problems/reduction/submit", "", "text/plain"), 400, "bad_request") ==
              "the source is empty");
    }
    SECTION("no state change on GET, no file named by the client") {
        error_message(client.Get("/api/problems/reduction/run"), 404, "not_found");
        error_message(client.Get("/../../etc/passwd"), 404, "not_found");
        error_message(client.Get("/vendor/../../../etc/passwd"), 404, "not_found");
        error_message(client.Get("/api/problems/..%2F..%2Fetc"), 404, "not_found");
    }
    SECTION("a request from another site, or for another host name") {
        const httplib::Headers other_site = {{"Origin", "http://evil.example"}};
        CHECK(error_message(client.Post("/api/problems/reduction/run", other_site, "x", "text/plain"), 403,
                            "forbidden") ==
              "a request from another site (http://evil.example) may not change anything here");
        const httplib::Headers rebound = {{"Host", "evil.example"}};
        error_message(client.Get("/api/history", rebound), 403, "forbidden");
    }
}

TEST_CASE("serve on the loopback needs the token it printed: other users of the machine reach it too", "[serve][api]") {
    const served server("loopback-token", home_args());
    REQUIRE(server.token().size() == 64);
    auto client = server.anonymous();
    const auto unauthorized = [](const httplib::Result& refused) {
        REQUIRE(refused);
        CHECK(refused->status == 401);
        CHECK(nlohmann::json::parse(refused->body).at("error") == "unauthorized");
    };
    unauthorized(client.Get("/api/history"));
    unauthorized(client.Get("/"));
    unauthorized(client.Put("/api/problems/reduction/draft", "// theirs", "text/plain"));
    unauthorized(client.Post("/api/problems/reduction/submit", "// theirs", "text/plain"));
    CHECK(server.client().Get("/api/history")->status == 200);
}

TEST_CASE("serve bound beyond the loopback needs the token it printed", "[serve][api]") {
    const served server("token", home_args({"--host", "0.0.0.0"}));
    REQUIRE(server.token().size() == 64);
    CHECK(contains(server.log(), "whoever has this URL can run code on this machine as you"));
    auto client = server.anonymous();
    const auto refused = client.Get("/api/problems");
    REQUIRE(refused);
    CHECK(refused->status == 401);
    CHECK(nlohmann::json::parse(refused->body).at("error") == "unauthorized");
    CHECK(client.Get("/api/problems", {{"Authorization", "Bearer " + std::string(64, '0')}})->status == 401);
    CHECK(client.Get("/api/problems", {{"Authorization", "Bearer " + server.token()}})->status == 200);
    // The page opened with ?token= keeps it in a cookie for its own requests, one per port.
    const std::string cookie = "gpujudge_token_" + std::to_string(server.port()) + "=" + server.token();
    const auto page = client.Get(("/?token=" + server.token()).c_str());
    REQUIRE(page);
    CHECK(page->status == 200);
    CHECK(page->get_header_value("Set-Cookie") == cookie + "; Path=/; HttpOnly; SameSite=Strict");
    CHECK(client.Get("/api/problems", {{"Cookie", cookie}})->status == 200);
}

TEST_CASE("serve serves the page and Debian's libraries from this machine", "[serve][api]") {
    const served server("assets", home_args());
    auto client = server.client();
    const auto page = client.Get("/");
    REQUIRE(page);
    CHECK(page->status == 200);
    CHECK(contains(page->body, "<title>gpujudge</title>"));
    CHECK(page->get_header_value("Content-Type") == "text/html; charset=utf-8");
    CHECK(contains(page->get_header_value("Content-Security-Policy"), "default-src 'self'"));
    const auto codemirror = client.Get("/vendor/codemirror.js");
    REQUIRE(codemirror);
    // Debian's files, or tests/gpu/package.sh's copy of them on a machine without the packages.
    const std::filesystem::path javascript = default_javascript_dir();
    CHECK(codemirror->body == file_text(javascript / "codemirror" / "lib" / "codemirror.js"));
    CHECK(client.Get("/vendor/marked.js")->body == file_text(javascript / "marked" / "marked.min.js"));
    const auto server_info = json_of(client.Get("/api/server"));
    CHECK(server_info.at("backend") == "device");
    CHECK(server_info.at("reports").is_array());
}

TEST_CASE("serve: missing libraries or a taken port end it with a message and its exit code", "[serve][api]") {
    const auto missing = run_command({GPUJUDGE_BIN_DIR "/gpujudge", "--home", GPUJUDGE_SOURCE_DIR, "serve", "--port",
                                      "0", "--assets", "/nonexistent"},
                                     std::chrono::seconds(30));
    CHECK(missing.exit.code == exit_environment);
    CHECK(contains(missing.output,
                   "gpujudge: /nonexistent/codemirror/lib/codemirror.js not found: install libjs-codemirror "
                   "(apt-get install libjs-codemirror), or name the folder that holds codemirror/ and marked/ with "
                   "--assets\n"));
    const served first("port-taken", home_args());
    const std::string port = std::to_string(first.port());
    const auto second =
        run_command({GPUJUDGE_BIN_DIR "/gpujudge", "--home", GPUJUDGE_SOURCE_DIR, "serve", "--port", port},
                    std::chrono::seconds(30));
    CHECK(second.exit.code == exit_usage);
    CHECK(contains(second.output, "gpujudge: cannot listen on 127.0.0.1:" + port +
                                      " (the port is taken, or the address is not this machine's): choose another "
                                      "with --port or --host\n"));
}

TEST_CASE("serve on the host backend: verdicts, mismatches, timing, and a crash or a hang leave it serving",
          "[serve][api][host]") {
    const served server("host", host_args());
    auto client = server.client();
    const auto judge = [&](const std::string& how, const std::string& fake) {
        return last_event(events_of(post_source(client, "/api/problems/tiny_sum/" + how,
                                                file_text(kFixtures + "/host_solutions/" + fake + ".cpp"))))
            .data;
    };
    const auto accepted = judge("run", "correct");
    CHECK(accepted.at("verdict") == "accepted");
    CHECK(accepted.at("tests").size() == 3);
    const auto wrong = judge("run", "off_by_one");
    CHECK(wrong.at("verdict") == "wrong_answer");
    CHECK(contains(wrong.at("reason"), "expected"));
    CHECK(judge("run", "crashes").at("verdict") == "runtime_error");
    CHECK(judge("run", "hangs").at("verdict") == "time_limit_exceeded");
    const auto submitted = judge("submit", "correct");
    CHECK(submitted.at("verdict") == "accepted");
    const auto& entries = submitted.at("bench").at("entries");
    REQUIRE_FALSE(entries.empty());
    CHECK(entries.back().at("figures").at(0).at("median_us").get<double>() > 0);
    CHECK(json_of(client.Get("/api/problems")).at(0).at("slug") == "tiny_sum");  // still serving
}

TEST_CASE("serve queues a second judgement behind the first and tells it its place", "[serve][api][host]") {
    const served server("queue", host_args());
    const std::string hangs = file_text(kFixtures + "/host_solutions/hangs.cpp");
    std::optional<httplib::Result> first_result;  // Catch's assertions stay on this thread
    std::thread first([&] {
        auto client = server.client();
        first_result.emplace(post_source(client, "/api/problems/tiny_sum/run", hangs));
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    auto client = server.client();
    const auto second = events_of(
        post_source(client, "/api/problems/tiny_sum/run", file_text(kFixtures + "/host_solutions/correct.cpp")));
    first.join();
    CHECK(second.front().name == "queued");
    CHECK(second.front().data.at("ahead") == 1);
    CHECK(last_event(second).data.at("verdict") == "accepted");
    CHECK(last_event(events_of(*first_result)).data.at("verdict") == "time_limit_exceeded");
}

TEST_CASE("serve offers the reports of the commands this binary has and runs them as a user would", "[serve][api]") {
    const served server("reports", home_args());
    auto client = server.client();
    const auto reports = json_of(client.Get("/api/server")).at("reports");
    CHECK(std::count(reports.begin(), reports.end(), "profile") == 1);  // sanitize joins once merged
    const auto problem = json_of(client.Get("/api/problems/reduction"));
    CHECK(problem.at("reports") == reports);
    const auto events = events_of(post_source(client, "/api/problems/reduction/profile", file_text(kWarpShuffle)));
    const auto& result = last_event(events);
    REQUIRE(result.name == "result");
    CHECK(result.data.at("report") == "profile");
    CHECK(result.data.at("exit_code").is_number_integer());
    // Whatever profile makes of this machine (no GPU, no ncu, or a profile), it says it.
    CHECK((result.data.at("json").is_object() || !result.data.at("output").get<std::string>().empty()));
    const auto refused = client.Post("/api/problems/reduction/profile",
                                     nlohmann::json{{"source", "x"}, {"test", "N = 1"}}.dump(), "application/json");
    REQUIRE(refused);
    CHECK(refused->status == 400);
    CHECK(nlohmann::json::parse(refused->body).at("message") == "'test' must be one of: N = 50M, N = 100M");
}

TEST_CASE("serve's leaderboard ranks a gradebook's accepted rows by time per GPU model and by % across models",
          "[serve][api][grade]") {
    const auto run = std::filesystem::path(GPUJUDGE_TEST_CACHE) / "serve-leaderboard-run";
    std::filesystem::remove_all(run);
    {
        gradebook book(run / "gradebook.db");
        const auto store = [&](std::string student, std::string status, std::string gpu, int index, double median,
                               double percent) {
            grade_row row;
            row.file = student + "/reduction.cu";
            row.student = student;
            row.problem = "reduction";
            row.status = status;
            row.gpu = gpu;
            row.gpu_index = index;
            row.median_us = median;
            row.percent_of_ceiling = percent;
            book.store(row);
        };
        store("alice", "accepted", "NVIDIA H100", 0, 140, 90);
        store("bob", "accepted", "NVIDIA H100", 1, 130, 97);
        store("carol", "accepted", "NVIDIA A100", 0, 200, 95);
        store("dave", "wrong_answer", "NVIDIA H100", 1, 100, 99);  // not ranked
    }
    const served server("leaderboard", [&] {
        auto args = host_args();
        args.insert(args.end(), {"--gradebook", run.string()});
        return args;
    }());
    auto client = server.client();
    const auto board = json_of(client.Get("/api/leaderboard"));
    CHECK(board.at("gradebook") == (run / "gradebook.db").string());
    CHECK(board.at("source") == "option");
    CHECK(board.at("rows") == 4);
    REQUIRE(board.at("problems").size() == 1);
    const auto& reduction = board.at("problems").at(0);
    CHECK(reduction.at("problem") == "reduction");
    REQUIRE(reduction.at("by_gpu").size() == 2);
    CHECK(reduction.at("by_gpu").at(0).at("gpu") == "NVIDIA A100");
    const auto& h100 = reduction.at("by_gpu").at(1).at("ranked");
    REQUIRE(h100.size() == 2);
    CHECK(h100.at(0).at("student") == "bob");
    CHECK(h100.at(0).at("rank") == 1);
    CHECK(h100.at(0).at("gpu_index") == 1);
    CHECK(h100.at(1).at("student") == "alice");
    std::vector<std::string> across;
    for (const auto& row : reduction.at("across_models")) across.push_back(row.at("student"));
    CHECK(across == std::vector<std::string>{"bob", "carol", "alice"});

    // Without --gradebook: the latest grade run, which `grade` notes in the data folder; none yet.
    const served latest("leaderboard-latest", host_args());
    auto other = latest.client();
    const auto none = other.Get("/api/leaderboard");
    REQUIRE(none);
    CHECK(none->status == 404);
    CHECK(json_of(none).at("error") == "no_gradebook");
    std::ofstream(latest.data_dir() / "last-grade") << run.string() << "\n";
    const auto found = json_of(other.Get("/api/leaderboard"));
    CHECK(found.at("source") == "latest grade");
    CHECK(found.at("problems").at(0).at("by_gpu").at(1).at("ranked").at(0).at("student") == "bob");

    const auto refused = run_command({GPUJUDGE_BIN_DIR "/gpujudge", "--home", GPUJUDGE_SOURCE_DIR, "serve", "--port",
                                      "0", "--gradebook", "/nonexistent-run"},
                                     std::chrono::seconds(30));
    CHECK(refused.exit.code == exit_usage);
    CHECK(contains(refused.output,
                   "gpujudge: --gradebook: /nonexistent-run: no gradebook there (gpujudge grade writes one)\n"));
    std::filesystem::remove_all(run);
}

TEST_CASE("serve gives a problem's path, and the page has the script that shows it", "[serve][api][path]") {
    const served server("path", home_args());
    auto client = server.client();
    const auto path = json_of(client.Get("/api/problems/reduction/path"));
    REQUIRE(path.at("steps").size() == 4);
    CHECK(path.at("steps").at(0).at("file") == "shared_memory_tree.cu");
    CHECK(path.at("steps").at(3).at("file") == "vectorized_float4.cu");
    CHECK(path.at("measurements").at("file") == "solutions/measured-h100.json");
    const auto script = client.Get("/page/path.js");
    REQUIRE(script);
    CHECK(script->status == 200);
    CHECK(script->body == file_text(std::filesystem::path(GPUJUDGE_SOURCE_DIR) / "judge/serve/page/path.js"));
    CHECK(contains(client.Get("/")->body, "<div id=\"path\"></div>"));
    const auto unknown = client.Get("/api/problems/no_such_problem/path");
    REQUIRE(unknown);
    CHECK(unknown->status == 404);
}

TEST_CASE("serve: a source to edit per language, its starter init's, and drafts kept per language",
          "[serve][api][python]") {
    const served server("languages", home_args());
    auto client = server.client();
    // A draft saved before the page had languages (drafts/<slug>.cu) is still the CUDA draft.
    std::filesystem::create_directories(server.data_dir() / "serve" / "drafts");
    std::ofstream(server.data_dir() / "serve" / "drafts" / "reduction.cu") << "// my old draft\n";
    const auto problem = json_of(client.Get("/api/problems/reduction"));
    CHECK(problem.at("languages") == nlohmann::json{"cuda", "pytorch", "triton"});
    CHECK(problem.at("language") == "cuda");
    CHECK(problem.at("source_from") == "draft");
    CHECK(problem.at("source") == "// my old draft\n");
    CHECK(problem.at("machine_code") == true);

    const problem_spec spec = load_problem(GPUJUDGE_SOURCE_DIR "/problems/reduction");
    for (const char* language : {"pytorch", "triton"}) {
        INFO(language);
        const auto editing =
            json_of(client.Get((std::string("/api/problems/reduction/source?language=") + language).c_str()));
        CHECK(editing.at("language") == language);
        CHECK(editing.at("source_from") == "starter");
        CHECK(editing.at("starter") == starter_source(spec, language));  // init --lang's, not a copy
        CHECK(editing.at("source") == editing.at("starter"));
    }
    const auto saved =
        client.Put("/api/problems/reduction/draft",
                   nlohmann::json{{"source", "# my torch\n"}, {"language", "pytorch"}}.dump(), "application/json");
    REQUIRE(saved);
    CHECK(saved->status == 204);
    CHECK(file_text(server.data_dir() / "serve" / "drafts" / "reduction.pytorch.py") == "# my torch\n");
    const auto pytorch = json_of(client.Get("/api/problems/reduction/source?language=pytorch"));
    CHECK(pytorch.at("source") == "# my torch\n");
    CHECK(pytorch.at("source_from") == "draft");
    CHECK(json_of(client.Get("/api/problems/reduction/source?language=cuda")).at("source") == "// my old draft\n");
    CHECK(json_of(client.Get("/api/problems/reduction/source?language=triton")).at("source_from") == "starter");
    CHECK(json_of(client.Get("/api/problems/reduction/source")).at("language") == "cuda");  // none named
    // The page opens the problem in the language written last.
    const auto reopened = json_of(client.Get("/api/problems/reduction"));
    CHECK(reopened.at("language") == "pytorch");
    CHECK(reopened.at("source") == "# my torch\n");

    // A language off the list names no file: refused before anything is written.
    const std::string refused = "'language' must be one of: cuda, pytorch, triton";
    CHECK(error_message(client.Get("/api/problems/reduction/source?language=..%2Fetc"), 400, "bad_request") == refused);
    CHECK(error_message(client.Put("/api/problems/reduction/draft",
                                   nlohmann::json{{"source", "x"}, {"language", "rust"}}.dump(), "application/json"),
                        400, "bad_request") == refused);
    CHECK(error_message(post_json(client, "/api/problems/reduction/run", {{"source", "x"}, {"language", ".sh"}}), 400,
                        "bad_request") == refused);
    CHECK_FALSE(std::filesystem::exists(server.data_dir() / "serve" / "sources"));
    CHECK(std::distance(std::filesystem::directory_iterator(server.data_dir() / "serve" / "drafts"),
                        std::filesystem::directory_iterator()) == 2);
}

TEST_CASE("serve keeps a Python source as .py and judges it, or says what the judge lacks for it",
          "[serve][api][python]") {
    const std::string correct = file_text(kFixtures + "/python_solutions/correct.py");
    SECTION("no Python with torch: the judge's own message, exit 13's, as an error event") {
        const served server("python-missing", host_args(), {"GPUJUDGE_PYTHON=/nonexistent/python3"});
        auto client = server.client();
        const auto events =
            events_of(post_json(client, "/api/problems/tiny_sum/run", {{"source", correct}, {"language", "pytorch"}}));
        const auto& last = last_event(events);
        CHECK(last.name == "error");
        CHECK(last.data.at("error") == "environment");
        CHECK(last.data.at("message") ==
              "GPUJUDGE_PYTHON: /nonexistent/python3 does not exist: set GPUJUDGE_PYTHON to a python3 that has torch "
              "(Debian: python3-torch)");
        CHECK(std::filesystem::exists(kept_path(server, "tiny_sum", correct, ".py")));
        CHECK(json_of(client.Get("/api/problems")).at(0).at("slug") == "tiny_sum");  // still serving
    }
    SECTION("on the host backend, with the Python found here") {
        const served server("python", host_args());
        auto client = server.client();
        const auto judged = last_event(
            events_of(post_json(client, "/api/problems/tiny_sum/run", {{"source", correct}, {"language", "pytorch"}})));
        if (const auto missing = python_missing()) {
            WARN("no Python with torch here: the Python verdicts are not checked, only its message: " << *missing);
            CHECK(judged.name == "error");
            CHECK(judged.data.at("message") == *missing);
            return;
        }
        REQUIRE(judged.name == "result");
        CHECK(judged.data.at("verdict") == "accepted");
        CHECK(judged.data.at("source") == kept_path(server, "tiny_sum", correct, ".py").string());
        // A syntax error is a compile error marked at its line in the file the server kept.
        const auto broken = last_event(events_of(post_json(
            client, "/api/problems/tiny_sum/run",
            {{"source", file_text(kFixtures + "/python_solutions/syntax_error.py")}, {"language", "pytorch"}})));
        CHECK(broken.data.at("verdict") == "compile_error");
        CHECK(broken.data.at("compile").at("markers") ==
              nlohmann::json::array(
                  {{{"line", 6}, {"severity", "error"}, {"message", "SyntaxError: '(' was never closed"}}}));
        const auto history = json_of(client.Get("/api/history?problem=tiny_sum"));
        REQUIRE(history.at("attempts").size() == 2);
        CHECK(history.at("attempts").at(1).at("language") == "pytorch");
        // With no draft, the problem opens in the language of the last attempt, with its source.
        const auto problem = json_of(client.Get("/api/problems/tiny_sum"));
        CHECK(problem.at("language") == "pytorch");
        CHECK(problem.at("source_from") == "last attempt");
        CHECK(problem.at("machine_code") == false);  // the host backend's CUDA drafts are C++ fakes
    }
}

TEST_CASE("serve shows a CUDA source's machine code as asm --json does: PTX through nvcc", "[serve][api][asm]") {
    const served server("asm-ptx", home_args());
    auto client = server.client();
    const std::string source = file_text(GPUJUDGE_SOURCE_DIR "/solutions/reduction/vectorized_float4.cu");
    const auto ptx = json_of(post_json(client, "/api/problems/reduction/asm", {{"source", source}, {"kind", "ptx"}}));
    const std::string kept = kept_path(server, "reduction", source, ".cu").string();
    CHECK(ptx.at("kind") == "ptx");
    CHECK(ptx.at("tool") == "nvcc -ptx");
    CHECK(ptx.at("source") == kept);
    CHECK(ptx.at("arch").get<std::string>().rfind("sm_", 0) == 0);
    CHECK(ptx.at("compile").at("ok") == true);
    REQUIRE(ptx.at("kernels").size() == 1);
    CHECK(ptx.at("kernels").at(0).at("name") ==
          "(anonymous namespace)::reduce_float4_kernel(float4 const*, float const*, float*, int)");
    bool found = false;
    for (const auto& block : ptx.at("kernels").at(0).at("blocks"))
        if (block.at("line") == 48) {
            found = true;
            CHECK(block.at("file") == kept);
            CHECK(contains(block.at("source"), "__ldcs(input4 + v + u * kThreads)"));
            CHECK(contains(block.at("code").dump(), "ld.global.cs.v4.f32"));
        }
    CHECK(found);

    const std::string wrong = file_text(GPUJUDGE_SOURCE_DIR "/solutions/dot_product/warp_shuffle.cu");
    const auto failed = json_of(post_json(client, "/api/problems/reduction/asm", {{"source", wrong}, {"kind", "ptx"}}));
    CHECK(failed.at("compile").at("ok") == false);
    CHECK(contains(failed.at("compile").at("diagnostics"), "The expected signature is:"));
    CHECK(failed.at("kernels") == nlohmann::json::array());

    CHECK(error_message(post_json(client, "/api/problems/reduction/asm", {{"source", source}, {"kind", "cubin"}}), 400,
                        "bad_request") == "'kind' must be one of: sass, ptx");
    const std::string python = file_text(GPUJUDGE_SOURCE_DIR "/solutions/reduction/pytorch.py");
    CHECK(error_message(post_json(client, "/api/problems/reduction/asm",
                                  {{"source", python}, {"language", "pytorch"}, {"kind", "ptx"}}),
                        400, "bad_request") ==
          kept_path(server, "reduction", python, ".py").string() +
              ": asm shows the SASS and PTX of CUDA sources (.cu); a Python solution's kernels are compiled by "
              "PyTorch or Triton when it runs, and are not offered");
}

TEST_CASE("serve shows a CUDA source's SASS where nvdisasm is found, else the toolkit lookup's message",
          "[serve][api][asm]") {
    const served server("asm-sass", home_args());
    auto client = server.client();
    const std::string source = file_text(kWarpShuffle);
    const auto reply =
        client.Post("/api/problems/reduction/asm", nlohmann::json{{"source", source}}.dump(), "application/json");
    if (!locate_toolkit_program("nvdisasm")) {
        WARN("nvdisasm not found here: SASS through the API is checked with the stand-in (next test) and its message");
        CHECK(error_message(reply, 500, "environment") ==
              missing_toolkit_program_message("nvdisasm", toolkit_search::from_environment()));
        return;
    }
    const auto sass = json_of(reply);
    CHECK(sass.at("kind") == "sass");
    CHECK(sass.at("tool") == "nvdisasm");
    REQUIRE_FALSE(sass.at("kernels").empty());
    CHECK(contains(sass.at("kernels").dump(), "SHFL.DOWN"));
}

TEST_CASE("serve's SASS through the stand-in nvdisasm, on every machine", "[serve][api][asm]") {
    // tests/fixtures/disasm/bin/nvdisasm checks that it gets nvcc's cubin of reduce_float4_kernel, and
    // prints the canned listing with the kept file's path in it.
    const std::string source = file_text(GPUJUDGE_SOURCE_DIR "/solutions/reduction/vectorized_float4.cu");
    const std::string kept = (std::filesystem::path(GPUJUDGE_TEST_CACHE) / "serve-asm-stand-in" / "serve" / "sources" /
                              "reduction" / (content_hash({source}).substr(0, 16) + ".cu"))
                                 .string();
    const char* path = std::getenv("PATH");
    const served server(
        "asm-stand-in", home_args(),
        {"PATH=" + kFixtures + "/disasm/bin:" + (path ? path : "/usr/bin:/bin"), "FAKE_NVDISASM_SOURCE=" + kept});
    auto client = server.client();
    const auto sass = json_of(post_json(client, "/api/problems/reduction/asm", {{"source", source}, {"kind", "sass"}}));
    CHECK(sass.at("kind") == "sass");
    CHECK(sass.at("source") == kept);
    std::vector<std::string> names;
    for (const auto& kernel : sass.at("kernels")) names.push_back(kernel.at("name"));
    CHECK(std::count(names.begin(), names.end(),
                     "(anonymous namespace)::reduce_float4_kernel(float4 const*, float const*, float*, int)") == 1);
    CHECK(contains(sass.at("kernels").dump(), "LDG.E.EF.128 R4, desc[UR6][R8.64] ;"));
}

TEST_CASE("serve on the host backend offers no machine code: its CUDA drafts are C++ fakes", "[serve][api][asm]") {
    const served server("asm-host", host_args());
    auto client = server.client();
    CHECK(error_message(post_json(client, "/api/problems/tiny_sum/asm", {{"source", "x"}, {"kind", "ptx"}}), 400,
                        "bad_request") ==
          "the machine code is a CUDA source's: this server judges C++ fakes (--backend host)");
}

TEST_CASE("serve stops at SIGINT, SIGTERM or SIGHUP: it says so and exits 0", "[serve][signals]") {
    const int signal = GENERATE(SIGINT, SIGTERM, SIGHUP);
    INFO(sigabbrev_np(signal));
    served server("stop", host_args());
    REQUIRE(server.client().Get("/api/problems"));
    const child_exit exit = server.stop(signal);
    INFO(server.log());
    CHECK_FALSE(exit.timed_out);
    CHECK_FALSE(exit.signaled);
    CHECK(exit.code == 0);
    CHECK(contains(server.log(), "gpujudge: stopped\n"));
}
