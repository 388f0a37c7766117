#pragma once
// The results database (SQLite): every attempt of `run` and `submit`, every timed result, each
// device's measured ceiling, and the personal best per problem that `submit`, `list` and `history`
// show.
#include "checks/verdict.hpp"

#include <sqlite3.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

struct timed_record {
    std::string problem;
    std::string source;
    std::string origin;  // "submit" or "bench"
    bool baseline = false;
    std::string device_name;
    std::string device_uuid;
    std::string test;
    double median_ms = 0;
    double mean_ms = 0;
    double min_ms = 0;
    int samples = 0;
    double gbps = 0;
    double speedup = 0;                // against the baseline, 0 when unknown
    std::string problem_version = {};  // see attempt::problem_version
};

struct personal_best {
    std::string source;
    std::string test;
    std::string device_name;
    double median_ms = 0;
    double gbps = 0;
    std::string recorded_at;
};

// One `run` or `submit` of a file, whatever its verdict.
struct attempt {
    std::string recorded_at;  // UTC, "YYYY-MM-DD HH:MM:SS", set by the database
    std::string problem;
    std::string source;       // the file's absolute path
    std::string source_hash;  // of its bytes: which version of the file it was
    std::string origin;       // "run" or "submit"
    verdict outcome = verdict::accepted;
    int passed = 0;  // tests passed, of `total`
    int total = 0;
    std::string device_name;
    // The timed figures on the problem's headline benchmark, when it was timed and passed.
    std::string test;
    std::optional<double> median_us;
    std::optional<double> gbps;
    std::optional<double> percent_of_peak;
    // Which problem it was judged against (its files and folder, a hash): only attempts on the
    // problem as it is now count as its bests. Empty in rows kept before versions were.
    std::string problem_version;
};

// $GPUJUDGE_DATA_DIR/history.db, else $XDG_DATA_HOME/gpujudge/history.db, else ~/.local/share/...
std::filesystem::path default_history_path();

// A memory ceiling that a device could have measured: finite, from 1 GB/s to 100 TB/s.
bool plausible_ceiling_gbps(double gbps);

class history {
public:
    // Throws, naming `path`, when the database cannot be created, read or written.
    explicit history(const std::filesystem::path& path);
    ~history();
    history(const history&) = delete;
    history& operator=(const history&) = delete;

    void record(const timed_record& result);
    void record_attempt(const attempt& tried);
    // Every attempt, newest first; only those on `problem` when one is given.
    std::vector<attempt> attempts(const std::optional<std::string>& problem = std::nullopt) const;
    // The problem's fastest accepted timed attempt on that version of it.
    std::optional<attempt> best_attempt(const std::string& problem, const std::string& version) const;
    // The fastest non-baseline median on the headline benchmark `test` of that version of the problem.
    std::optional<personal_best> best(const std::string& problem, const std::string& version,
                                      const std::string& test) const;

    // A baseline's figures (JSON) under a key of everything they depend on (see benchmarking).
    std::optional<std::string> baseline_figures(const std::string& key) const;
    void save_baseline_figures(const std::string& key, const std::string& figures_json);

    std::optional<double> device_peak(const std::string& device_uuid) const;
    void save_device_peak(const std::string& device_uuid, const std::string& device_name, double gbps);

private:
    sqlite3* db_ = nullptr;
    void open(const std::filesystem::path& path);
    void execute(const char* sql, std::string* first_value = nullptr);
    void add_column(const char* table, const char* column);
    std::string first_value(const char* sql);
};

}  // namespace gpujudge
