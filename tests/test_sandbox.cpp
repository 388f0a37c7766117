// The runner's sandbox (judge/process/sandbox.hpp): host-built fakes that attack the judge's files,
// its descriptors, the disk and the terminal, or try to outlive it; each ends in a clear verdict
// with the judge alive. And the compile's limits. Through the judge and through the binary.
#include "base/exit_codes.hpp"
#include "base/file_text.hpp"
#include "base/printable_text.hpp"
#include "base/temp_dir.hpp"
#include "cli_test_support.hpp"
#include "compile/compiler.hpp"
#include "judging/submission.hpp"
#include "process/child_process.hpp"
#include "process/nvidia_gpus.hpp"
#include "process/sandbox.hpp"
#include "report/judgement.hpp"
#include "runner/session.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <thread>

using namespace gpujudge;

namespace {

const std::string kFakes = GPUJUDGE_TEST_FIXTURES "/host_solutions/";

judge_context sandboxed_context() {
    become_subreaper();
    judge_context context;
    context.home = GPUJUDGE_SOURCE_DIR;
    context.compiler.cache_dir = GPUJUDGE_TEST_CACHE;
    context.runner.runner_exe = GPUJUDGE_BIN_DIR "/gpujudge-runner";
    context.runner.backend = runner_backend::host;
    context.runner.sandbox = true;
    return context;
}

const problem_spec& tiny_sum() {
    static const problem_spec spec = load_problem(GPUJUDGE_TEST_FIXTURES "/problems/tiny_sum");
    return spec;
}

judgement judge_fake(const std::string& name, judge_context context = sandboxed_context()) {
    judge_options options;
    options.tests = select_tests(tiny_sum(), {});
    options.timed = false;
    return judge_submission(tiny_sum(), kFakes + name + ".cpp", options, context);
}

// judge_fake, with its benchmark timed briefly and no baseline.
judgement judge_briefly_timed(const std::string& name) {
    judge_options options;
    options.tests = select_tests(tiny_sum(), {});
    options.timing.warmup_s = 0.01;
    options.timing.min_time_s = 0.05;
    options.timing.budget_s = 0.2;
    options.with_baseline = false;
    judge_context context = sandboxed_context();
    return judge_submission(tiny_sum(), kFakes + name + ".cpp", options, context);
}

// What prints_its_user prints as a root judge's sandbox user, with nothing left of any capability set.
const std::string kSandboxUser =
    "uid 2000000000 gid 2000000000 groups 0\nCapInh: 0000000000000000\nCapPrm: 0000000000000000\nCapEff: "
    "0000000000000000\nCapBnd: 0000000000000000\nCapAmb: 0000000000000000\nNoNewPrivs: 1\n";

// Sets environment variables for one scope, and names them to the sandbox ($GPUJUDGE_SANDBOX_ENV).
class scoped_env {
public:
    using variables = std::vector<std::pair<std::string, std::string>>;
    explicit scoped_env(variables list) : variables_(std::move(list)) {
        std::string names;
        for (const auto& [name, value] : variables_) {
            setenv(name.c_str(), value.c_str(), 1);
            names += (names.empty() ? "" : ",") + name;
        }
        setenv("GPUJUDGE_SANDBOX_ENV", names.c_str(), 1);
    }
    ~scoped_env() {
        for (const auto& [name, value] : variables_) unsetenv(name.c_str());
        unsetenv("GPUJUDGE_SANDBOX_ENV");
    }

private:
    std::vector<std::pair<std::string, std::string>> variables_;
};

// The text report print_submission writes for `result`, as the terminal would show it.
std::string text_report(const judgement& result, const std::string& source) {
    char* text = nullptr;
    std::size_t size = 0;
    FILE* out = open_memstream(&text, &size);
    print_submission(out, tiny_sum(), source, result, {});
    std::fclose(out);
    const std::string report(text, size);
    std::free(text);
    return report;
}

}  // namespace

TEST_CASE("the sandbox works here: bwrap starts and the filter loads", "[sandbox]") {
    const sandbox_probe& probe = sandbox_available();
    INFO(probe.why);
    REQUIRE(probe.ok);
    CHECK(find_bwrap().has_value());
}

TEST_CASE("the bwrap command line binds the system read-only, the policy's paths, and nothing of home", "[sandbox]") {
    sandbox_policy policy;
    policy.read_only.push_back({"/srv/problem", {}});
    policy.writable.push_back({"/srv/stage/out", "/judge/out"});
    policy.scratch_bytes = 1 << 20;
    const auto argv = sandbox_argv("/usr/bin/bwrap", policy, {5}, {"runner", "x"});
    std::string line;
    for (const auto& arg : argv) line += arg + " ";
    CHECK(line.rfind("/usr/bin/bwrap --unshare-all --die-with-parent --new-session --proc /proc --dev /dev ", 0) == 0);
    CHECK(line.find("--ro-bind /usr /usr ") != std::string::npos);
    CHECK(line.find("--size 1048576 --tmpfs /tmp ") != std::string::npos);
    CHECK(line.find("--ro-bind /srv/problem /srv/problem ") != std::string::npos);
    CHECK(line.find("--bind /srv/stage/out /judge/out ") != std::string::npos);
    CHECK(line.find("--clearenv --setenv HOME /tmp --setenv TMPDIR /tmp ") != std::string::npos);
    CHECK(line.find("--seccomp 5 -- runner x ") != std::string::npos);
    if (const char* home = std::getenv("HOME")) CHECK(line.find(std::string(" ") + home + " ") == std::string::npos);
}

TEST_CASE(
    "the bwrap command line for a sandbox's user: a user namespace the judge maps, then the shim, then the command",
    "[sandbox]") {
    sandbox_policy policy;
    policy.read_only.push_back({"/srv/deep/problem", {}});
    policy.scratch_bytes = 1 << 20;
    const auto line_of = [](const std::vector<std::string>& argv) {
        std::string line;
        for (const auto& arg : argv) line += arg + " ";
        return line;
    };
    const std::string own = line_of(sandbox_argv("/usr/bin/bwrap", policy, {6, 7, 8}, {"runner", "x"}));
    CHECK(own.find("--unshare-user") == std::string::npos);
    CHECK(own.find("--become") == std::string::npos);
    // bwrap 0.8 makes a bind's missing parents 0700, closed to any user but root: each made open first.
    CHECK(own.find("--dir /srv --dir /srv/deep --ro-bind /srv/deep/problem /srv/deep/problem ") != std::string::npos);
    CHECK(own.find("--dir /sys --ro-bind-try /sys/bus /sys/bus ") != std::string::npos);
    CHECK(own.find("--perms 01777 --size 1048576 --tmpfs /tmp ") != std::string::npos);
    policy.user = sandbox_user{4242, 4343, "/opt/gpujudge/bin/gpujudge-runner"};
    const std::string user = line_of(sandbox_argv("/usr/bin/bwrap", policy, {6, 7, 8}, {"runner", "x"}));
    CHECK(user.rfind("/usr/bin/bwrap --unshare-all --die-with-parent --new-session --proc /proc --dev /dev "
                     "--unshare-user --userns-block-fd 8 --info-fd 7 ",
                     0) == 0);
    // No capability but the three the shim needs, whatever the judge holds.
    CHECK(user.find("--cap-drop ALL --cap-add CAP_SETUID --cap-add CAP_SETGID --cap-add CAP_SETPCAP --remount-ro / ") !=
          std::string::npos);
    CHECK(user.find("--seccomp 6 -- /opt/gpujudge/bin/gpujudge-runner --become 4242:4343 -- runner x ") !=
          std::string::npos);
}

TEST_CASE(
    "a root judge runs the submission as a user of its own, with no group or capability, or refuses where it cannot",
    "[sandbox]") {
    if (geteuid() != 0) {
        WARN("the judge does not run as root here: its sandbox is its own user's, and this was not tried");
        return;
    }
    const auto result = judge_fake("prints_its_user");
    CHECK(result.overall == verdict::accepted);
    CHECK(result.program_output == kSandboxUser);
    // Where that user may not read a bound folder (a problem's, closed to others), the judge says so:
    // never a root sandbox unasked.
    const std::string shim = GPUJUDGE_BIN_DIR "/gpujudge-runner";
    const temp_dir closed("closed");
    sandbox_policy policy;
    policy.read_only.push_back({closed.path(), {}});
    CHECK_THROWS_WITH(
        run_as_submission_user(policy, shim),
        closed.path().string() +
            ": uid 2000000000 may not read it (chmod o+rX); a root judge runs submissions as uid 2000000000 "
            "(root's sandbox has no limit on processes): mend that, set GPUJUDGE_SANDBOX_USER to "
            "another UID:GID, or to 0 to run them as root, or run gpujudge as an ordinary user");
    CHECK_FALSE(policy.user);
    std::filesystem::permissions(closed.path(), std::filesystem::perms(0755));
    const temp_dir written("written");
    policy.writable.push_back({written.path(), {}});
    run_as_submission_user(policy, shim);
    REQUIRE(policy.user);
    CHECK(policy.user->uid == 2000000000);
    struct stat status {};
    REQUIRE(stat(written.path().c_str(), &status) == 0);
    CHECK(status.st_uid == 2000000000);  // the folders it writes are given to it
    CHECK(status.st_gid == 2000000000);
}

TEST_CASE("CLI: $GPUJUDGE_SANDBOX_USER names a root judge's sandbox user, and 0 keeps root", "[sandbox][cli]") {
    if (geteuid() != 0) {
        WARN("the judge does not run as root here: its sandbox is its own user's, and this was not tried");
        return;
    }
    const auto run_as = [](const std::string& user) {
        return gpujudge_env(
            {"GPUJUDGE_HOME=" GPUJUDGE_TEST_FIXTURES, "GPUJUDGE_SANDBOX_USER=" + user},
            {"--color", "never", "--backend", "host", "run", "tiny_sum", kFakes + "prints_its_user.cpp"});
    };
    const auto other = run_as("4242:4343");
    INFO(other.output);
    CHECK(other.exit.code == exit_accepted);
    CHECK(other.output.find("  | uid 4242 gid 4343 groups 0\n") != std::string::npos);
    CHECK(other.output.find("  | CapInh: 0000000000000000\n  | CapPrm: 0000000000000000\n") != std::string::npos);
    const auto root = run_as("0");
    INFO(root.output);
    CHECK(root.exit.code == exit_accepted);
    CHECK(root.output.find("  | uid 0 gid 0 groups ") != std::string::npos);
    const auto wrong = run_as("nobody");
    INFO(wrong.output);
    CHECK(wrong.exit.code == exit_accepted);
    CHECK(wrong.output.find("GPUJUDGE_SANDBOX_USER='nobody' is not UID or UID:GID (numbers, GID not 0; 0 for "
                            "root); using 2000000000:2000000000") != std::string::npos);
    CHECK(wrong.output.find("  | uid 2000000000 gid 2000000000 groups 0\n") != std::string::npos);
    for (const char* bad : {"1000x", "4242:0", "65534 "}) {
        const auto refused = run_as(bad);
        INFO(refused.output);
        CHECK(refused.output.find(fmt::format("GPUJUDGE_SANDBOX_USER='{}' is not UID", bad)) != std::string::npos);
    }
}

TEST_CASE("the policy's variables are set inside over the judge's, which are not passed twice", "[sandbox]") {
    setenv("CUDA_VISIBLE_DEVICES", "0,1", 1);
    sandbox_policy policy;
    policy.environment = {{"CUDA_VISIBLE_DEVICES", "1"}, {"CUDA_DEVICE_ORDER", "PCI_BUS_ID"}};
    std::string line;
    for (const auto& arg : sandbox_argv("/usr/bin/bwrap", policy, {5}, {"runner"})) line += arg + " ";
    unsetenv("CUDA_VISIBLE_DEVICES");
    CHECK(line.find("--setenv CUDA_VISIBLE_DEVICES 1 --setenv CUDA_DEVICE_ORDER PCI_BUS_ID ") != std::string::npos);
    CHECK(line.find("CUDA_VISIBLE_DEVICES 0,1") == std::string::npos);
    CHECK(line.find("CUDA_VISIBLE_DEVICES") == line.rfind("CUDA_VISIBLE_DEVICES"));
}

TEST_CASE("the driver's GPUs are read in PCI bus order, each with its UUID and its node", "[sandbox][gpu]") {
    const auto gpus = nvidia_gpus(GPUJUDGE_TEST_FIXTURES "/nvidia_gpus");
    REQUIRE(gpus.size() == 3);
    CHECK(gpus[0].bus == "0000:00:05.0");
    CHECK(gpus[0].uuid == "GPU-0a1b2c3d-0000-1111-2222-333344445555");
    CHECK(gpus[0].minor == 2);
    CHECK(gpus[1].uuid == "GPU-ef43b9be-2fa5-322c-247e-c982eedb0760");
    CHECK(gpus[1].minor == 0);
    CHECK(gpus[2].minor == 1);
    CHECK(nvidia_gpus(GPUJUDGE_TEST_FIXTURES "/no_such_folder").empty());
}

TEST_CASE("a runner given a GPU is bound its node alone and named it by UUID", "[sandbox][gpu]") {
    temp_dir dev("dev");
    for (const char* node : {"nvidia0", "nvidia1", "nvidia12", "nvidiactl", "nvidia-uvm", "nvidia-modeset", "null"})
        std::ofstream(dev.path() / node);
    std::filesystem::create_directory(dev.path() / "nvidia-caps");
    const auto names = [&](std::optional<int> minor) {
        std::vector<std::string> out;
        for (const auto& node : nvidia_device_nodes(dev.path(), minor)) out.push_back(node.filename().string());
        return out;
    };
    CHECK(names(1) == std::vector<std::string>{"nvidia-caps", "nvidia-modeset", "nvidia-uvm", "nvidia1", "nvidiactl"});
    CHECK(names(std::nullopt) == std::vector<std::string>{"nvidia-caps", "nvidia-modeset", "nvidia-uvm", "nvidia0",
                                                          "nvidia1", "nvidia12", "nvidiactl"});
    runner_settings settings;
    settings.gpu_listing = GPUJUDGE_TEST_FIXTURES "/nvidia_gpus";
    settings.gpu = 1;  // nvidia-smi's GPU 1: the second by bus, whose node is /dev/nvidia0
    REQUIRE(given_gpu(settings));
    CHECK(given_gpu(settings)->minor == 0);
    CHECK(
        runner_environment(settings, given_gpu(settings)) ==
        std::vector<std::pair<std::string, std::string>>{
            {"CUDA_DEVICE_ORDER", "PCI_BUS_ID"}, {"CUDA_VISIBLE_DEVICES", "GPU-ef43b9be-2fa5-322c-247e-c982eedb0760"}});
    settings.gpu = 3;  // not listed: its number, and every node
    CHECK_FALSE(given_gpu(settings));
    CHECK(runner_environment(settings, given_gpu(settings)) ==
          std::vector<std::pair<std::string, std::string>>{{"CUDA_DEVICE_ORDER", "PCI_BUS_ID"},
                                                           {"CUDA_VISIBLE_DEVICES", "3"}});
}

TEST_CASE("a file is taken out of a sandbox's folder only as a regular file, never through a link", "[sandbox]") {
    namespace fs = std::filesystem;
    const temp_dir work("take-test");
    const fs::path written = work.path() / "library.so";
    const fs::path kept = work.path() / "kept.so";
    std::ofstream(work.path() / "answers.out") << "the expected outputs";
    fs::create_symlink(work.path() / "answers.out", written);
    CHECK(take_from_sandbox(written, kept) == std::optional<std::string>("it is a symbolic link"));
    fs::remove(written);
    REQUIRE(mkfifo(written.c_str(), 0600) == 0);  // opened without blocking the judge
    CHECK(take_from_sandbox(written, kept) == std::optional<std::string>("it is not a regular file"));
    fs::remove(written);
    CHECK(take_from_sandbox(written, kept) == std::optional<std::string>("No such file or directory"));
    CHECK_FALSE(fs::exists(kept));
    CHECK(read_file_text(work.path() / "answers.out") == "the expected outputs");  // untouched

    std::ofstream(written, std::ios::binary) << "a library";
    // Written by a root judge's sandbox user, open to all: the judge's, and no longer writable by others.
    fs::permissions(written, fs::perms(0666));
    if (geteuid() == 0) REQUIRE(chown(written.c_str(), 2000000000, 2000000000) == 0);
    CHECK_FALSE(take_from_sandbox(written, kept));  // one file system: renamed
    CHECK(read_file_text(kept) == "a library");
    struct stat taken {};
    REQUIRE(stat(kept.c_str(), &taken) == 0);
    CHECK(taken.st_uid == geteuid());
    CHECK((taken.st_mode & 07777) == 0644);
    CHECK_FALSE(fs::exists(written));
    CHECK(std::distance(fs::directory_iterator(work.path()), fs::directory_iterator()) == 2);  // no partial left

    // From another file system (a tmpfs), it is copied, then the sandbox's file goes.
    const fs::path shm = "/dev/shm/gpujudge-take-test-" + std::to_string(getpid());
    struct stat shm_status {
    }, work_status{};
    if (stat("/dev/shm", &shm_status) != 0 || stat(work.path().c_str(), &work_status) != 0 ||
        shm_status.st_dev == work_status.st_dev) {
        WARN("skipped the copy: no /dev/shm on a file system of its own here");
        return;
    }
    std::ofstream(shm, std::ios::binary) << "another library";
    CHECK_FALSE(take_from_sandbox(shm, kept));
    CHECK(read_file_text(kept) == "another library");
    CHECK_FALSE(fs::exists(shm));
    CHECK(std::distance(fs::directory_iterator(work.path()), fs::directory_iterator()) == 2);
}

TEST_CASE("hidden folders are covered where a bind shows them, and folders bound inside them show", "[sandbox]") {
    const temp_dir home("home");
    const temp_dir elsewhere("elsewhere");
    const auto cache = home.path() / ".cache" / "gpujudge";
    const auto data = home.path() / ".local" / "share" / "gpujudge";
    std::filesystem::create_directories(cache);
    std::filesystem::create_directories(data / "serve" / "sources");
    std::filesystem::create_directories(elsewhere.path() / "profiles");
    std::filesystem::create_directory_symlink(elsewhere.path(), home.path() / "linked");
    sandbox_policy policy;
    policy.read_only.push_back({data / "serve" / "sources", {}});  // listed first, mounted last
    policy.read_only.push_back({home.path(), {}});
    policy.hidden = {cache, data.string() + "/", home.path() / "linked" / "profiles"};
    policy.hidden.insert(policy.hidden.end(), {"/", "/tmp/", home.path() / "missing"});
    policy.workdir = "/srv/work/";
    const auto line_of = [](const sandbox_policy& policy) {
        std::string line;
        for (const auto& arg : sandbox_argv("/usr/bin/bwrap", policy, {5}, {"nvcc"})) line += arg + " ";
        return line;
    };
    const std::string line = line_of(policy);
    const auto at = [&](const std::string& part) {
        INFO(part);
        CHECK(line.find(part) != std::string::npos);
        return line.find(part);
    };
    const auto bound = at("--ro-bind " + home.path().string() + " " + home.path().string() + " ");
    CHECK(bound < at("--size 4096 --tmpfs " + cache.string() + " "));
    CHECK(bound < at("--size 4096 --tmpfs " + data.string() + " "));
    CHECK(at("--tmpfs " + data.string() + " ") < at("--ro-bind " + (data / "serve" / "sources").string()));
    CHECK(line.find("--tmpfs / ") == std::string::npos);  // neither the root nor the scratch: no bind shows them
    CHECK(line.find("--tmpfs /tmp ") == line.rfind("--tmpfs /tmp "));
    CHECK(line.find("missing") == std::string::npos);  // nothing there to hide
    // A link in a bind leads nowhere unless its target is bound: covered there, not through the link.
    CHECK(line.find("profiles") == std::string::npos);
    CHECK(at("--dir /srv/work ") < at("--chdir /srv/work --seccomp 5 -- nvcc "));
    policy.read_only.push_back({elsewhere.path(), {}});
    CHECK(line_of(policy).find("--tmpfs " + (elsewhere.path() / "profiles").string() + " ") != std::string::npos);
}

TEST_CASE("a sandboxed submission is judged as before", "[sandbox]") {
    CHECK(judge_fake("correct").overall == verdict::accepted);
    const auto wrong = judge_fake("off_by_one");  // got files and the likely cause go through the staging folder
    CHECK(wrong.overall == verdict::wrong_answer);
    CHECK(wrong.tests[0].message.find("likely cause: the output is the reference's with N - 1") != std::string::npos);
}

TEST_CASE("a submission cannot write the history, the cache or the library it was loaded from", "[sandbox]") {
    const temp_dir data("data");
    write_file_atomically(data.path() / "history.db", "a history");
    const std::string cache = GPUJUDGE_TEST_CACHE;
    const scoped_env env(scoped_env::variables{
        {"GPUJUDGE_TEST_TARGETS",
         (data.path() / "history.db").string() + ":" + data.path().string() + ":" + cache + ":" + cache + "/lib"}});
    const auto result = judge_fake("writes_judge_files");
    INFO(result.program_output);
    CHECK(result.overall == verdict::accepted);
    CHECK(read_file_text(data.path() / "history.db") == "a history");
}

TEST_CASE("a submission finds no expected outputs: not the cache's, not the judge's temporary folders", "[sandbox]") {
    judge_fake("correct");  // tiny_sum's expected outputs are in the cache now
    const char* tmp = std::getenv("TMPDIR");
    const scoped_env env(scoped_env::variables{
        {"GPUJUDGE_TEST_TARGETS", std::string(GPUJUDGE_TEST_CACHE) + ":" + (tmp ? tmp : "/tmp")}});
    const auto result = judge_fake("reads_expected_outputs");
    INFO(result.program_output);
    CHECK(result.overall == verdict::accepted);
}

TEST_CASE("a submission finds no expected outputs where TMPDIR lies inside a folder its runner sees", "[sandbox]") {
    // The runner's own folder is bound into its sandbox, and a TMPDIR inside it shows there unless hidden.
    // Timed: the timed data sets' expected outputs are the ones kept in TMPDIR.
    const auto tmp = std::filesystem::path(GPUJUDGE_BIN_DIR) / ("test-tmpdir-" + std::to_string(getpid()));
    std::filesystem::create_directories(tmp);
    {
        const scoped_env env(scoped_env::variables{{"TMPDIR", tmp.string()}, {"GPUJUDGE_TEST_TARGETS", tmp.string()}});
        const auto result = judge_briefly_timed("reads_expected_outputs");
        INFO(result.program_output);
        CHECK(result.overall == verdict::accepted);
    }
    std::filesystem::remove_all(tmp);
}

TEST_CASE("a submission cannot reach the judge's descriptors through /proc/<ppid>/fd", "[sandbox]") {
    const auto result = judge_fake("writes_parent_fds");
    CHECK(result.overall == verdict::accepted);
    CHECK(children_of(getpid()).empty());
}

TEST_CASE("a judge run as root gives its sandbox no capabilities and none of the system's private files", "[sandbox]") {
    // The files under /etc that others may not read (/etc/shadow), as the sandbox would see them.
    std::string targets;
    std::error_code error;
    for (auto it = std::filesystem::recursive_directory_iterator(
             "/etc", std::filesystem::directory_options::skip_permission_denied, error);
         !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
        const auto status = it->symlink_status(error);
        if (!error && std::filesystem::is_regular_file(status) &&
            (status.permissions() & std::filesystem::perms::others_read) == std::filesystem::perms::none)
            targets += (targets.empty() ? "" : ":") + it->path().string();
    }
    if (geteuid() != 0) WARN("the judge does not run as root: its sandbox reads none of these files anyway");
    if (targets.empty()) WARN("no file under /etc is private here: only the capabilities are looked at");
    const scoped_env env(scoped_env::variables{{"GPUJUDGE_TEST_TARGETS", targets}});
    const auto result = judge_fake("reads_private_files");
    INFO(result.program_output);
    CHECK(result.overall == verdict::accepted);
}

TEST_CASE(
    "a submission that fills the disk fills its capped scratch alone: /tmp and /dev/shm, with /dev read-only and no "
    "/judge/out",
    "[sandbox]") {
    const scoped_env env(scoped_env::variables{{"GPUJUDGE_SANDBOX_SCRATCH_MB", "16"}});
    const auto result = judge_fake("fills_disk");
    INFO(result.program_output);
    CHECK(result.overall == verdict::accepted);
}

TEST_CASE("control characters a submission prints are escaped in the report and the JSON", "[sandbox]") {
    const auto result = judge_fake("prints_escapes");
    REQUIRE(result.overall == verdict::wrong_answer);
    const std::string report = text_report(result, "prints_escapes.cpp");
    CHECK(report.find("  | \\x1b[2J\\x1b]0;owned\\x07\\x0dverdict: accepted\\x9b\n  | \ttabbed\n") !=
          std::string::npos);
    CHECK(report.find('\x1b') == std::string::npos);
    const auto json = submission_json(tiny_sum(), "prints_escapes.cpp", result);
    CHECK(json["program_output"].get<std::string>().rfind("\\x1b[2J", 0) == 0);
    CHECK(printable_output("caf\xc3\xa9 \xe2\x82\xac\x01") == "caf\xc3\xa9 \xe2\x82\xac\\x01");
}

TEST_CASE("a runner that prints more than 16 MiB is stopped: a runtime error, not a gigabyte on the judge's disk",
          "[sandbox]") {
    const auto result = judge_fake("prints_a_flood");
    CHECK(result.overall == verdict::runtime_error);
    bool told = false;
    for (const auto& test : result.tests)
        told = told || test.message ==
                           "the process printed more than 16 MiB on stdout and stderr and was killed: "
                           "print less (its last lines are shown)";
    CHECK(told);
}

TEST_CASE("a solve that holds more host memory than the limit is stopped: a runtime error that says so", "[sandbox]") {
    const scoped_env limit(scoped_env::variables{{"GPUJUDGE_RUNNER_MEMORY_LIMIT_MB", "512"}});
    // Its own pages, and memory files it writes without mapping them, which are in no process's pages.
    for (const std::string name : {"hoards_host_memory", "fills_memory_files"}) {
        INFO(name);
        const auto result = judge_fake(name);
        CHECK(result.overall == verdict::runtime_error);
        REQUIRE(!result.tests.empty());
        const std::string& message = result.tests.front().message;
        CHECK(message.rfind("the submission's processes held ", 0) == 0);
        CHECK(message.find(" MiB of host memory, more than the 512 MiB they may hold "
                           "($GPUJUDGE_RUNNER_MEMORY_LIMIT_MB), and were killed: free what solve allocates on the "
                           "host, or keep its data on the GPU") != std::string::npos);
    }
    CHECK(judge_fake("correct").overall == verdict::accepted);
}

TEST_CASE("a submission makes no System V segment or semaphore set, memory that no process maps and no measure sees",
          "[sandbox]") {
    const auto result = judge_fake("hides_memory_in_system_v");
    CHECK(result.overall == verdict::accepted);  // the sum is right: what it may not do is refused, not judged
    INFO(result.program_output);
    CHECK(result.program_output.find("shmget: Operation not permitted") != std::string::npos);
    CHECK(result.program_output.find("semget: Operation not permitted") != std::string::npos);
}

TEST_CASE("a submission takes no file lease and sets no descriptor to signal it", "[sandbox]") {
    const auto result = judge_fake("leases_and_signals_itself");
    CHECK(result.overall == verdict::accepted);
    INFO(result.program_output);
    for (const std::string what : {"F_SETLEASE", "F_SETLEASE high", "F_NOTIFY high", "F_SETOWN", "F_SETOWN high",
                                   "F_SETOWN_EX", "F_SETSIG", "F_SETSIG high", "O_ASYNC", "O_ASYNC high", "FIOASYNC",
                                   "FIOASYNC high", "FIOSETOWN", "SIOCSPGRP", "SIGSTOP high"})
        CHECK(result.program_output.find(what + ": Operation not permitted") != std::string::npos);
}

TEST_CASE("a submission reads no descriptor the judge inherited (a grading script's open file)", "[sandbox]") {
    const temp_dir folder("inherited");
    std::ofstream(folder.path() / "secret") << "the judge's secret";
    const int file = open((folder.path() / "secret").c_str(), O_RDONLY);  // inherited, as a shell's `exec 200<`
    REQUIRE(file >= 0);
    REQUIRE(dup2(file, 200) == 200);
    close(file);
    const auto result = judge_fake("reads_inherited_descriptors");
    close(200);
    CHECK(result.overall == verdict::accepted);
    INFO(result.program_output);
    CHECK(result.program_output.find("fd 200: Bad file descriptor\n") != std::string::npos);
    CHECK(result.program_output.find("secret") == std::string::npos);
}

TEST_CASE("a submission holds no memory or counters the kernel keeps outside its processes", "[sandbox]") {
    const auto result = judge_fake("holds_kernel_memory");
    CHECK(result.overall == verdict::accepted);
    INFO(result.program_output);
    for (const std::string what : {"mq_open", "inotify_init1", "SO_SNDBUF", "SO_RCVBUF", "F_SETPIPE_SZ"})
        CHECK(result.program_output.find(what + ": Operation not permitted") != std::string::npos);
}

TEST_CASE("what solve prints without fflush reaches the report, the line without its newline too", "[sandbox]") {
    const auto result = judge_fake("prints_without_flush");
    REQUIRE(result.overall == verdict::wrong_answer);
    INFO(result.program_output);
    CHECK(result.program_output.find("debug: N=") != std::string::npos);
    CHECK(result.program_output.find("no newline at the end") != std::string::npos);
    // Shown with any verdict: a learner debugging a passing file sees that the print ran.
    auto accepted = result;
    accepted.overall = verdict::accepted;
    const std::string report = text_report(accepted, "prints_without_flush.cpp");
    CHECK(report.find("output of the program (last lines):\n  | debug: N=") != std::string::npos);
}

TEST_CASE("control characters in the compiler's diagnostics and in test messages are escaped too", "[sandbox]") {
    const auto result = judge_fake("warns_with_escapes");
    REQUIRE(result.overall == verdict::wrong_answer);
    REQUIRE(result.compile.diagnostics.find('\x1b') != std::string::npos);  // the compiler quotes the #warning
    const std::string report = text_report(result, "warns\x1b[2J.cpp");
    CHECK(report.find('\x1b') == std::string::npos);
    CHECK(report.find("\\x1b[32mverdict: accepted") != std::string::npos);
    CHECK(report.find("source   warns\\x1b[2J.cpp\n") != std::string::npos);
}

TEST_CASE("control characters in what the runner says of a timed run are escaped as they reach the judge",
          "[sandbox]") {
    const auto result = judge_briefly_timed("forges_escapes_in_a_timed_message");
    REQUIRE(result.overall == verdict::runtime_error);
    REQUIRE(result.bench);
    const std::string report = text_report(result, "forges.cpp");
    INFO(report);
    CHECK(report.find('\x1b') == std::string::npos);  // the bench table and the reason after the verdict
    CHECK(report.find("\\x1b[2J\\x1b[Hverdict: \\x1b[32maccepted") != std::string::npos);
    CHECK(result.reason.find('\x1b') == std::string::npos);  // in the history and a grade's feedback too
}

TEST_CASE("a compile bomb ends as a compile error that names the file-size limit", "[sandbox][compile]") {
    judge_context context = sandboxed_context();
    const temp_dir cache("bomb");
    context.compiler.cache_dir = cache.path();
    context.compiler.limits.file_mib = 8;
    const auto result = judge_fake("compile_bomb", context);
    CHECK(result.overall == verdict::compile_error);
    CHECK(result.compile.diagnostics.rfind("the compiler exceeded the file-size limit of 8 MiB (RLIMIT_FSIZE)\n", 0) ==
          0);
}

TEST_CASE("a library larger than the limit is a compile error, and nothing of it is kept in the cache",
          "[sandbox][compile]") {
    judge_context context = sandboxed_context();
    const temp_dir cache("huge-library");
    context.compiler.cache_dir = cache.path();
    const auto result = judge_fake("builds_a_huge_library", context);
    CHECK(result.overall == verdict::compile_error);
    CHECK(result.compile.diagnostics ==
          "the compiler built 96 MiB, more than the 64 MiB a submission's library may take: kernels' code takes a "
          "few MiB; large static data (an initialised array) belongs in device memory, made at run time\n");
    std::uintmax_t kept = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(cache.path()))
        if (entry.is_regular_file()) kept += entry.file_size();
    CHECK(kept < (std::uintmax_t{1} << 20));
    context.compiler.limits.library_mib = 128;  // a limit of one's own: $GPUJUDGE_COMPILE_LIBRARY_LIMIT_MB
    CHECK(judge_fake("builds_a_huge_library", context).overall == verdict::accepted);
}

TEST_CASE("the compile's limits come from the environment", "[sandbox][compile]") {
    const scoped_env env(
        scoped_env::variables{{"GPUJUDGE_COMPILE_FILE_LIMIT_MB", "5"}, {"GPUJUDGE_COMPILE_CPU_LIMIT_S", "7"}});
    const compile_limits limits = default_compile_limits();
    CHECK(limits.file_mib == 5);
    CHECK(limits.cpu_seconds == 7);
    CHECK(default_compile_limits().wall_seconds == 300);
}

TEST_CASE("CLI: run is sandboxed, and --no-sandbox warns and keeps nothing in the history", "[sandbox][cli]") {
    const temp_dir data("data");
    const std::vector<std::string> env{"GPUJUDGE_DATA_DIR=" + data.path().string(),
                                       "GPUJUDGE_HOME=" GPUJUDGE_TEST_FIXTURES};
    const std::string fake = kFakes + "correct.cpp";
    const auto sandboxed = gpujudge_env(env, {"--backend", "host", "run", "tiny_sum", fake});
    CHECK(sandboxed.exit.code == exit_accepted);
    CHECK(std::filesystem::exists(data.path() / "history.db"));
    std::filesystem::remove(data.path() / "history.db");
    const auto open = gpujudge_env(env, {"--backend", "host", "--no-sandbox", "run", "tiny_sum", fake});
    CHECK(open.exit.code == exit_accepted);
    CHECK(open.output.rfind("gpujudge: warning: --no-sandbox: submissions run unconfined, with your rights over your "
                            "files; the history is not used, results are not kept (a grade's rows are, marked: a "
                            "grade with the sandbox judges them again)\n",
                            0) == 0);
    CHECK_FALSE(std::filesystem::exists(data.path() / "history.db"));
}

TEST_CASE("CLI: without bwrap, a judging command exits 13 naming what failed and --no-sandbox", "[sandbox][cli]") {
    // No bwrap beside the binary, none on this PATH (the host compiler is not reached: the runner starts first).
    const auto result = gpujudge_env({"PATH=/nonexistent", "GPUJUDGE_HOME=" GPUJUDGE_TEST_FIXTURES},
                                     {"--backend", "host", "run", "tiny_sum", kFakes + "correct.cpp"});
    CHECK(result.exit.code == exit_environment);
    CHECK(result.output ==
          "gpujudge: the sandbox for submissions does not work here: bwrap (bubblewrap) not found beside gpujudge or "
          "on PATH; install bubblewrap (Debian: bubblewrap) and allow unprivileged user namespaces, or run with "
          "--no-sandbox to judge without it (results are then not kept)\n");
}

TEST_CASE("CLI: a compile bomb is a compile error naming the limit from the environment", "[sandbox][cli][compile]") {
    const temp_dir cache("bomb");
    const auto result =
        gpujudge_env({"GPUJUDGE_HOME=" GPUJUDGE_TEST_FIXTURES, "GPUJUDGE_CACHE_DIR=" + cache.path().string(),
                      "GPUJUDGE_COMPILE_FILE_LIMIT_MB=4"},
                     {"--backend", "host", "run", "tiny_sum", kFakes + "compile_bomb.cpp"});
    CHECK(result.exit.code == exit_compile_error);
    CHECK(
        result.output.find("compile  failed\n  the compiler exceeded the file-size limit of 4 MiB (RLIMIT_FSIZE)\n") !=
        std::string::npos);
}

TEST_CASE("CLI: the judge's own lower limits hold for what it starts, and a scratch size that is no size is refused",
          "[sandbox][cli][compile]") {
    const temp_dir cache("lower-limits");
    const std::string env = "GPUJUDGE_HOME=" GPUJUDGE_TEST_FIXTURES " GPUJUDGE_CACHE_DIR=" + cache.path().string();
    // Under `ulimit -v` below the compile's 8 GiB (a login node, a Slurm job) setrlimit refused to raise it.
    const auto capped =
        run_command({"/bin/sh", "-c",
                     "ulimit -v 6000000 && exec env " + env +
                         " " GPUJUDGE_BIN_DIR "/gpujudge --backend host run tiny_sum " + kFakes + "correct.cpp"},
                    std::chrono::seconds(300));
    INFO(capped.output);
    CHECK(capped.exit.code == exit_accepted);
    // strtoul reads "-1" as its largest value: the runner's sandbox failed to start, blamed on the submission.
    const auto minus = gpujudge_env({"GPUJUDGE_HOME=" GPUJUDGE_TEST_FIXTURES, "GPUJUDGE_SANDBOX_SCRATCH_MB=-1"},
                                    {"--backend", "host", "run", "tiny_sum", kFakes + "correct.cpp"});
    INFO(minus.output);
    CHECK(minus.exit.code == exit_accepted);
    CHECK(minus.output.find("GPUJUDGE_SANDBOX_SCRATCH_MB='-1' is not a whole number of MiB in [1, 1048576]; using "
                            "1024") != std::string::npos);
    // A cache folder that is a file is the machine's to mend (exit 13), not a bug of the judge (12).
    std::ofstream(cache.path() / "a-file") << "not a folder";
    const auto file_cache = gpujudge_env(
        {"GPUJUDGE_HOME=" GPUJUDGE_TEST_FIXTURES, "GPUJUDGE_CACHE_DIR=" + (cache.path() / "a-file").string()},
        {"--backend", "host", "run", "tiny_sum", kFakes + "correct.cpp"});
    INFO(file_cache.output);
    CHECK(file_cache.exit.code == exit_environment);
    CHECK(file_cache.output.find("(check GPUJUDGE_CACHE_DIR, GPUJUDGE_DATA_DIR and TMPDIR)\n") != std::string::npos);
}

TEST_CASE("a submission cannot stop its runner: no stop signal is sent from the sandbox, by any route", "[sandbox]") {
    const auto result = judge_fake("stops_its_runner");
    INFO(result.program_output);
    CHECK(result.overall == verdict::accepted);
}
