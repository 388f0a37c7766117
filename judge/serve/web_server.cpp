#include "serve/web_server.hpp"

#include "base/json_text.hpp"
#include "base/user_errors.hpp"
#include "catalog/catalog.hpp"
#include "history/json.hpp"
#include "judging/modes.hpp"
#include "judging/submission.hpp"
#include "path/learning_path.hpp"
#include "process/stop_signals.hpp"
#include "report/judgement.hpp"
#include "serve/access_policy.hpp"
#include "serve/api/api_error.hpp"
#include "serve/api/catalog_json.hpp"
#include "serve/api/compile_markers.hpp"
#include "serve/api/leaderboard_api.hpp"
#include "serve/api/machine_code.hpp"
#include "serve/api/report_commands.hpp"
#include "serve/judge_queue.hpp"
#include "serve/page_assets.hpp"
#include "serve/source_store.hpp"
#include "toolkit/compute_sanitizer.hpp"

#include <fmt/format.h>
#include <httplib.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <memory>
#include <thread>

namespace gpujudge {

namespace {

const std::string kSlug = "([a-z0-9_-]+)";  // the route's pattern; the slug is then looked up in the catalog

void reply_json(httplib::Response& res, int status, const nlohmann::json& body) {
    res.status = status;
    res.set_content(json_text(body), "application/json");
}

// Call only inside a catch block.
void reply_error(httplib::Response& res) {
    const error_reply error = current_error_reply();
    reply_json(res, error.status, error.body);
}

request_facts facts_of(const httplib::Request& req) {
    return {req.method,
            req.get_header_value("Host"),
            req.get_header_value("Origin"),
            req.get_header_value("Authorization"),
            req.get_header_value("Cookie"),
            req.get_param_value("token")};
}

// The source a request carries: its body, or the "source" of a JSON body (`request` gets the object).
std::string source_of(const httplib::Request& req, nlohmann::json& request) {
    std::string text = req.body;
    if (req.get_header_value("Content-Type").rfind("application/json", 0) == 0) {
        try {
            request = parse_outside_json(req.body, true);
        } catch (const nlohmann::json::parse_error& error) {
            throw api_error(400, "bad_request", fmt::format("malformed JSON: {}", error.what()));
        }
        if (request.is_discarded())
            throw api_error(400, "bad_request", fmt::format("JSON nested deeper than {} levels", kMaxJsonDepth));
        if (!request.is_object() || !request.contains("source") || !request.at("source").is_string())
            throw api_error(400, "bad_request",
                            "a JSON body must be an object with the source as \"source\", a string");
        text = request.at("source").get<std::string>();
    }
    if (text.empty()) throw api_error(400, "bad_request", "the source is empty");
    return text;
}

// The language a request names: its JSON object's "language", else its ?language=; "cuda" when neither.
// Checked against the fixed list (requested_language): it picks a file's extension, and nothing else.
std::string language_of(const httplib::Request& req, const nlohmann::json& body) {
    if (body.is_object() && body.contains("language")) return requested_language(body);
    if (req.has_param("language")) return requested_language({{"language", req.get_param_value("language")}});
    return "cuda";
}

// Writes the stream's events as they come, a comment line every 10 s while none does (so that a
// client that left is noticed, and none times out waiting).
void stream_events(httplib::Response& res, const std::shared_ptr<event_stream>& events) {
    res.set_header("Cache-Control", "no-cache");
    res.set_chunked_content_provider(
        "text/event-stream",
        [events](std::size_t, httplib::DataSink& sink) {
            if (auto event = events->next(std::chrono::seconds(10))) {
                const std::string text = sse_text(*event);
                return sink.write(text.data(), text.size());
            }
            if (events->finished()) {
                sink.done();
                return true;
            }
            static const std::string kWaiting = ": waiting\n\n";
            return sink.write(kWaiting.data(), kWaiting.size());
        },
        [events](bool) { events->abandon(); });
}

// The history database, a connection per use (requests run on threads of their own); none when it
// cannot be used (gpujudge warned at start-up).
std::unique_ptr<history> open_results() {
    try {
        return std::make_unique<history>(default_history_path());
    } catch (const std::exception& error) {
        spdlog::debug("history unusable: {}", error.what());
        return nullptr;
    }
}

// The first stop signal (SIGINT, SIGTERM, SIGHUP) stops the server: its thread writes to a pipe that
// a thread of the server reads. A second one ends gpujudge at once (stop_signals.hpp). A client that
// hangs up must not end it with SIGPIPE: a handler that does nothing (unlike SIG_IGN, it is not
// inherited by the judge's children).
int g_stop_pipe[2] = {-1, -1};

void on_sigpipe(int) {}

void install_handlers() {
    if (pipe(g_stop_pipe) != 0) throw std::runtime_error("cannot create a pipe");
    on_next_stop_signal([] {
        const char stop = 's';
        [[maybe_unused]] const auto written = write(g_stop_pipe[1], &stop, 1);
    });
    struct sigaction action = {};
    action.sa_handler = on_sigpipe;
    sigaction(SIGPIPE, &action, nullptr);
}

class web_server {
public:
    web_server(const judge_context& judge, const serve_settings& settings)
        : judge_(judge),
          settings_(settings),
          assets_(settings.page_dir, settings.javascript_dir),
          store_(default_store_dir(), judge.runner.backend == runner_backend::host ? ".cpp" : ".cu") {
        judge_.results = nullptr;    // each judgement opens its own connection
        list_problems(judge_.home);  // a home without problems/ fails now, not at the first request
    }

    // Binds, prints the URL, serves until stopped; returns the exit code.
    int run();

private:
    void route();
    void guard();
    problem_spec load(const std::string& slug) const { return load_problem(catalog_problem(judge_.home, slug)); }
    struct posted_source;
    posted_source accept(const httplib::Request& req) const;
    judge_work judging(const problem_spec& spec, const std::filesystem::path& source, const judge_options& options);
    void judge_route(const httplib::Request& req, httplib::Response& res, bool submit);
    void report_route(const httplib::Request& req, httplib::Response& res, const std::string& name);
    void asm_route(const httplib::Request& req, httplib::Response& res) const;
    void serve_asset(const httplib::Request& req, httplib::Response& res) const;
    nlohmann::json server_json() const;

    judge_context judge_;
    serve_settings settings_;
    page_assets assets_;
    source_store store_;
    std::optional<access_policy> policy_;  // once the port is known
    judge_queue queue_;
    httplib::Server http_;
};

// Any handler's exception becomes a JSON reply: the server thread goes on.
httplib::Server::Handler guarded(std::function<void(const httplib::Request&, httplib::Response&)> handler) {
    return [handler](const httplib::Request& req, httplib::Response& res) {
        try {
            handler(req, res);
        } catch (...) {
            reply_error(res);
        }
    };
}

judge_work web_server::judging(const problem_spec& spec, const std::filesystem::path& source,
                               const judge_options& options) {
    return [this, spec, source, options](const progress_hook& hook) {
        judge_context context = judge_;
        context.progress = hook;
        // Unsandboxed (--no-sandbox), a submission could have written the history: nothing is kept.
        const auto results = judge_.runner.sandbox ? open_results() : nullptr;
        context.results = results.get();
        const judgement result = judge_submission(spec, source, options, context);
        nlohmann::json json = submission_json(spec, source, result, results.get());
        json["compile"]["markers"] = compile_markers(result.compile.diagnostics, source.string());
        return server_event{"result", json};
    };
}

// A POST on /api/problems/<slug>/...: its problem, and its source kept under the server's name for it,
// with its language's extension.
struct web_server::posted_source {
    problem_spec spec;
    std::filesystem::path source;
    nlohmann::json body;  // the JSON object sent, if one was
};

web_server::posted_source web_server::accept(const httplib::Request& req) const {
    posted_source request{load(req.matches[1]), {}, nullptr};
    const std::string text = source_of(req, request.body);
    request.source = store_.keep(request.spec.slug, language_of(req, request.body), text);
    return request;
}

void web_server::judge_route(const httplib::Request& req, httplib::Response& res, bool submit) {
    const posted_source request = accept(req);
    const problem_spec& spec = request.spec;
    const judge_options options = submit ? submit_options(spec, {}, true) : run_options(spec);
    stream_events(res, queue_.enqueue(judging(spec, request.source, options)));
}

void web_server::report_route(const httplib::Request& req, httplib::Response& res, const std::string& name) {
    const posted_source request = accept(req);
    std::error_code error;
    const report_launch launch{std::filesystem::read_symlink("/proc/self/exe", error), judge_.home,
                               judge_.runner.backend == runner_backend::host ? "host" : "device",
                               judge_.runner.sandbox};
    const std::vector<std::string> argv = report_argv(name, request.spec, request.source, request.body, launch);
    stream_events(res, queue_.enqueue([name, argv](const progress_hook&) {
        return run_report(name, argv, std::chrono::minutes(30));
    }));
}

// Compiled for the GPU the judge last saw, else nvcc's default (sm_90): the page asks no device. On the host
// backend a CUDA draft is one of the judge's C++ fakes, which has no machine code to show.
void web_server::asm_route(const httplib::Request& req, httplib::Response& res) const {
    if (judge_.runner.backend == runner_backend::host)
        throw api_error(400, "bad_request",
                        "the machine code is a CUDA source's: this server judges C++ fakes (--backend host)");
    const posted_source request = accept(req);
    const asm_request code = machine_code_request(request.body);
    compiler_settings compiler = judge_.compiler;
    if (const std::string arch = last_seen_arch(compiler); !arch.empty()) compiler.arch = arch;
    reply_json(res, 200, machine_code_json(request.spec, request.source, code, compiler));
}

void web_server::serve_asset(const httplib::Request& req, httplib::Response& res) const {
    const page_asset* asset = assets_.find(req.path);
    if (!asset) throw api_error(404, "not_found", fmt::format("no such page: {}", req.path));
    res.set_content(asset->body, asset->content_type.c_str());
    // The page was opened with ?token=: keep it for the page's own requests, never sent to another site.
    if (policy_->token_required() && req.has_param("token"))
        res.set_header("Set-Cookie", fmt::format("{}={}; Path=/; HttpOnly; SameSite=Strict", policy_->cookie_name(),
                                                 policy_->token()));
}

nlohmann::json web_server::server_json() const {
    return {{"version", settings_.version},
            {"backend", judge_.runner.backend == runner_backend::host ? "host" : "device"},
            {"reports", settings_.reports}};
}

void web_server::route() {
    http_.Get("/api/problems", guarded([this](const httplib::Request&, httplib::Response& res) {
                  const auto results = open_results();
                  reply_json(res, 200, problem_list_json(judge_.home, results.get()));
              }));
    http_.Get("/api/problems/" + kSlug, guarded([this](const httplib::Request& req, httplib::Response& res) {
                  const auto results = open_results();
                  nlohmann::json json = problem_json(load(req.matches[1]), results.get(), store_);
                  json["reports"] = settings_.reports;
                  json["sanitizer_tools"] = sanitizer_tools();  // the page offers these, as `sanitize` does
                  // The Machine code panel (asm): CUDA's, which the host backend's C++ fakes are not.
                  json["machine_code"] = judge_.runner.backend != runner_backend::host;
                  reply_json(res, 200, json);
              }));
    http_.Get("/api/problems/" + kSlug + "/path", guarded([this](const httplib::Request& req, httplib::Response& res) {
                  const problem_spec spec = load(req.matches[1]);
                  const measurements measured = load_measurements(default_measurements_path(judge_.home));
                  reply_json(res, 200, path_json(build_path(judge_.home, spec, measured)));
              }));
    http_.Get("/api/problems/" + kSlug + "/source",
              guarded([this](const httplib::Request& req, httplib::Response& res) {
                  const auto results = open_results();
                  const problem_spec spec = load(req.matches[1]);
                  reply_json(res, 200, editing_json(spec, language_of(req, nullptr), results.get(), store_));
              }));
    http_.Put("/api/problems/" + kSlug + "/draft", guarded([this](const httplib::Request& req, httplib::Response& res) {
                  nlohmann::json request;
                  const std::string slug = load(req.matches[1]).slug;
                  const std::string text = source_of(req, request);
                  store_.save_draft(slug, language_of(req, request), text);
                  res.status = 204;
              }));
    http_.Post("/api/problems/" + kSlug + "/run",
               guarded([this](const httplib::Request& req, httplib::Response& res) { judge_route(req, res, false); }));
    http_.Post("/api/problems/" + kSlug + "/submit",
               guarded([this](const httplib::Request& req, httplib::Response& res) { judge_route(req, res, true); }));
    http_.Post("/api/problems/" + kSlug + "/asm",
               guarded([this](const httplib::Request& req, httplib::Response& res) { asm_route(req, res); }));
    for (const std::string& name : settings_.reports)
        http_.Post("/api/problems/" + kSlug + "/" + name,
                   guarded([this, name](const httplib::Request& req, httplib::Response& res) {
                       report_route(req, res, name);
                   }));
    http_.Get("/api/history", guarded([this](const httplib::Request& req, httplib::Response& res) {
                  const auto results = open_results();
                  if (!results)
                      throw api_error(
                          503, "history_unusable",
                          fmt::format("the history database {} cannot be used", default_history_path().string()));
                  std::optional<std::string> slug;
                  std::vector<problem_spec> specs;  // whose bests to show: the one asked for, else the catalog's
                  if (req.has_param("problem") && !req.get_param_value("problem").empty())
                      slug = specs.emplace_back(load(req.get_param_value("problem"))).slug;
                  if (!slug) specs = load_catalog(judge_.home);
                  reply_json(res, 200, history_sources_json(*results, slug, specs));
              }));
    http_.Get("/api/server", guarded([this](const httplib::Request&, httplib::Response& res) {
                  reply_json(res, 200, server_json());
              }));
    http_.Get("/api/leaderboard", guarded([this](const httplib::Request&, httplib::Response& res) {
                  reply_json(res, 200, leaderboard_reply(settings_.gradebook));
              }));
    http_.Get("/.*", guarded([this](const httplib::Request& req, httplib::Response& res) { serve_asset(req, res); }));
}

// Access checks before any route; JSON for the errors httplib answers itself (404, 413).
void web_server::guard() {
    http_.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
        const auto refused = policy_->check(facts_of(req));
        if (!refused) return httplib::Server::HandlerResponse::Unhandled;
        reply_json(res, refused->status, {{"error", refused->error}, {"message", refused->message}});
        return httplib::Server::HandlerResponse::Handled;
    });
    http_.set_error_handler([this](const httplib::Request& req, httplib::Response& res) {
        if (!res.body.empty()) return;
        if (res.status == 413)
            reply_json(res, 413,
                       {{"error", "too_large"},
                        {"message", fmt::format("the request's body is over {} bytes", settings_.max_body)}});
        else
            reply_json(
                res, res.status,
                {{"error", res.status == 404 ? "not_found" : "bad_request"},
                 {"message", fmt::format("{} {}: refused with HTTP status {}", req.method, req.path, res.status)}});
    });
    http_.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr error) {
        try {
            std::rethrow_exception(error);
        } catch (...) {
            reply_error(res);
        }
    });
    http_.set_payload_max_length(settings_.max_body);
    http_.set_default_headers(
        {{"Content-Security-Policy",
          "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; form-action 'none'; "
          "base-uri 'none'"},
         {"X-Content-Type-Options", "nosniff"},
         {"Referrer-Policy", "no-referrer"}});
    http_.new_task_queue = [] { return new httplib::ThreadPool(32); };  // a waiting client holds a thread
    // httplib's default adds SO_REUSEPORT, with which a second server on the same port starts and
    // shares its connections: a taken port must be an error.
    http_.set_socket_options([](socket_t sock) {
        const int yes = 1;
        setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
}

std::string url_host(const std::string& host) {
    return host.find(':') == std::string::npos ? host : "[" + host + "]";
}

int web_server::run() {
    guard();
    const int port = settings_.port == 0 ? http_.bind_to_any_port(settings_.host)
                                         : (http_.bind_to_port(settings_.host, settings_.port) ? settings_.port : -1);
    if (port < 0)
        throw usage_error(
            fmt::format("cannot listen on {}:{} (the port is taken, or the address is not this "
                        "machine's): choose another with --port or --host",
                        settings_.host, settings_.port));
    policy_.emplace(settings_.host, port, access_policy::new_token());
    route();
    install_handlers();
    std::thread stopper([this] {
        char why = 0;
        while (read(g_stop_pipe[0], &why, 1) < 0 && errno == EINTR) {
        }
        queue_.stop();  // the waiting judgements end; the one in progress finishes
        http_.stop();
    });
    const std::string url = fmt::format("http://{}:{}/", url_host(settings_.host), port);
    fmt::print("gpujudge: serving {}{}\n", url, policy_->token_required() ? "?token=" + policy_->token() : "");
    if (policy_->token_required())
        fmt::print("gpujudge: whoever has this URL can run code on this machine as you: keep the token to yourself\n");
    std::fflush(stdout);
    http_.listen_after_bind();
    const char done = 'q';
    [[maybe_unused]] const auto written = write(g_stop_pipe[1], &done, 1);  // ends the thread if no signal came
    stopper.join();
    fmt::print("gpujudge: stopped\n");
    return 0;
}

}  // namespace

int serve(const judge_context& judge, const serve_settings& settings) {
    web_server server(judge, settings);
    return server.run();
}

}  // namespace gpujudge
