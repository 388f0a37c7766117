#include "references/outputs.hpp"

#include "base/content_hash.hpp"
#include "base/file_text.hpp"
#include "base/json_text.hpp"
#include "base/machine_memory.hpp"
#include "base/problem_error.hpp"
#include "buffers/data_set.hpp"
#include "inputs/generator.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>

namespace gpujudge {

reference_outputs::reference_outputs(const problem_spec& spec, const std::filesystem::path& reference_library,
                                     const std::filesystem::path& cache_dir, const runner_settings& settings)
    : spec_(spec),
      library_(reference_library),
      cache_dir_(cache_dir / "expected"),
      settings_(settings),
      secret_dir_("expected") {
    // The library's file name is already the hash of its source, flags and compiler.
    problem_key_ = content_hash({spec.yaml_text, reference_library.filename().string(), kGeneratorVersion});
    std::filesystem::create_directories(cache_dir_);
}

std::filesystem::path reference_outputs::path_of(const item& entry, bool secret) const {
    const test_spec& test = spec_.tests.at(static_cast<std::size_t>(entry.test));
    std::string key = content_hash({problem_key_, test.name, json_text(nlohmann::json(entry.data))});
    if (!entry.scalars.empty()) key = content_hash({key, json_text(nlohmann::json(entry.scalars))});
    return (secret ? secret_dir_.path() : cache_dir_) / (key + ".out");
}

std::optional<std::string> beyond_memory(const problem_spec& spec, const test_spec& test) {
    const auto physical = physical_memory_bytes();
    if (!physical) return std::nullopt;
    const double memory = static_cast<double>(*physical);
    const double bytes = static_cast<double>(spec.buffer_bytes(test.scalars));
    if (bytes <= memory) return std::nullopt;
    return fmt::format("{}:{}: test '{}': its buffers take {:.1f} GB, more than this machine's memory", spec.yaml_path,
                       test.line, test.name, bytes / 1e9);
}

std::vector<std::filesystem::path> reference_outputs::ensure(const std::vector<item>& items, bool secret) {
    std::vector<std::filesystem::path> paths;
    reference_job job;
    for (const item& entry : items) {
        if (auto refused = beyond_memory(spec_, spec_.tests.at(static_cast<std::size_t>(entry.test))))
            throw problem_error(*refused);
        paths.push_back(path_of(entry, secret));
        if (!std::filesystem::exists(paths.back()))
            job.requests.push_back({entry.test, entry.data, paths.back().string(), entry.scalars});
    }
    if (job.requests.empty()) return paths;
    std::lock_guard<std::mutex> lock(mutex_);
    try {
        run(job);
    } catch (const reference_crash_among& crash) {
        // Several requests were under way when it crashed: each alone, in order, names the test.
        std::vector<std::size_t> running = crash.running;
        std::sort(running.begin(), running.end());
        for (std::size_t request : running)
            if (request < job.requests.size()) run(reference_job{{job.requests[request]}});
        throw problem_error(crash.what());  // none crashed alone
    }
    return paths;
}

void reference_outputs::run(const reference_job& job) {
    runner_settings host = settings_;
    host.backend = runner_backend::host;
    host.launcher.clear();  // the reference computes on the host: no tool watches it
    host.writes_outputs = true;
    runner_session session(spec_, host);
    {
        // cancel() sets the flag before it looks for a session: one of the two sees the other.
        std::lock_guard<std::mutex> active(active_mutex_);
        if (cancelled_) throw cancelled();
        active_ = &session;
    }
    struct forget {
        reference_outputs* self;
        ~forget() {
            std::lock_guard<std::mutex> active(self->active_mutex_);
            self->active_ = nullptr;
        }
    } on_exit{this};
    try {
        if (auto failure = session.load(library_, "reference"))
            throw problem_error(fmt::format("{}: {}", (spec_.dir / "reference.cpp").string(), *failure));
        const auto start = std::chrono::steady_clock::now();
        session.write_references(job);
        spdlog::debug("{} reference outputs written in {:.2f} s", job.requests.size(),
                      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    } catch (const problem_error&) {
        if (cancelled_) throw cancelled();  // it failed because it was killed
        throw;
    }
    if (cancelled_) throw cancelled();
}

void reference_outputs::cancel() {
    cancelled_ = true;
    std::lock_guard<std::mutex> active(active_mutex_);
    if (active_) active_->interrupt();
}

}  // namespace gpujudge
