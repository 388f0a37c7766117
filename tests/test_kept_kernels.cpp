// Triton's kernels kept between runs of one file (runner/kept_kernels.hpp): what the runner sends and
// the judge takes is plain and bounded, and the kept copy is replaced whole or not at all.
#include "base/temp_dir.hpp"
#include "runner/kept_kernels.hpp"
#include "runner/protocol.hpp"

#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <fstream>

using namespace gpujudge;

namespace {

void write(const std::filesystem::path& file, const std::string& text) {
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << text;
}

std::string read(const std::filesystem::path& file) {
    std::ifstream in(file);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("a runner's cache of plain files is sent with relative paths, kept, and replaces the older copy",
          "[kept_kernels]") {
    const temp_dir work("kernels");
    const auto cache = work.path() / "triton", kept = work.path() / "cache" / "triton-kernels" / "abc";
    write(kept / "old" / "gone.cubin", "old");
    write(cache / "HASH1" / "kernel.cubin", std::string("new\0\xff", 5));
    write(cache / "HASH1" / "kernel.json", "{}");
    const auto files = read_kernel_files(cache);
    REQUIRE(files);
    REQUIRE(files->size() == 2);
    CHECK(keep_kernels(*files, kept));
    CHECK(read(kept / "HASH1" / "kernel.cubin") == std::string("new\0\xff", 5));
    CHECK(read(kept / "HASH1" / "kernel.json") == "{}");
    CHECK_FALSE(std::filesystem::exists(kept / "old"));
    CHECK(std::distance(std::filesystem::directory_iterator(kept.parent_path()), {}) == 1);  // no partial left
}

TEST_CASE("a cache holding a link, a FIFO or a file over the limit sends nothing", "[kept_kernels]") {
    const temp_dir work("kernels");
    const auto cache = work.path() / "triton";
    write(cache / "HASH1" / "kernel.cubin", "new");
    REQUIRE(read_kernel_files(cache));
    std::filesystem::create_symlink("/etc/passwd", cache / "HASH1" / "leak");
    CHECK_FALSE(read_kernel_files(cache));
    std::filesystem::remove(cache / "HASH1" / "leak");
    REQUIRE(mkfifo((cache / "HASH1" / "pipe").c_str(), 0600) == 0);
    CHECK_FALSE(read_kernel_files(cache));  // and does not wait for a writer
    std::filesystem::remove(cache / "HASH1" / "pipe");
    write(cache / "big.cubin", "");
    std::filesystem::resize_file(cache / "big.cubin", kKeptKernelFileBytes + 1);  // sparse: no disk used
    CHECK_FALSE(read_kernel_files(cache));
}

TEST_CASE("no cache folder sends no files, and no files keep nothing", "[kept_kernels]") {
    const temp_dir work("kernels");
    const auto files = read_kernel_files(work.path() / "none");
    REQUIRE(files);
    CHECK(files->empty());
    CHECK_FALSE(keep_kernels({}, work.path() / "kept"));
    CHECK_FALSE(std::filesystem::exists(work.path() / "kept"));
}

TEST_CASE("kept files are named by plain relative paths alone", "[kept_kernels]") {
    for (const char* path : {"HASH/kernel.cubin", "a", "a/b/c/d", "__grp__k.json", "x-1.so"})
        CHECK(is_kept_kernel_path(path));
    for (const char* path :
         {"", "/etc/passwd", "../up", "a/../../up", "a/./b", "a//b", "a/", "a b", "a/b/c/d/e", "new\nline", "a\\b"})
        CHECK_FALSE(is_kept_kernel_path(path));
    CHECK_FALSE(is_kept_kernel_path(std::string(256, 'a')));
}

TEST_CASE("files the judge received with a path not kept are not kept, and the older copy stays", "[kept_kernels]") {
    const temp_dir work("kernels");
    const auto kept = work.path() / "kept";
    write(kept / "HASH0" / "kernel.cubin", "old");
    CHECK_FALSE(keep_kernels({{"HASH1/kernel.cubin", "new"}, {"../escaped", "x"}}, kept));
    CHECK(read(kept / "HASH0" / "kernel.cubin") == "old");
    CHECK_FALSE(std::filesystem::exists(work.path() / "escaped"));
}

TEST_CASE("a job's files replace the last job's only when the job sent some within the limits", "[kept_kernels]") {
    received_kernels received;
    received.add({"A/one.cubin", "1"});
    CHECK(received.last().empty());  // the job is not over
    received.end_of_job();
    REQUIRE(received.last().size() == 1);
    received.end_of_job();  // a job that sent nothing (a load)
    CHECK(received.last().size() == 1);
    const std::string mebibyte(std::size_t{1} << 20, 'k');
    for (std::uintmax_t sent = 0; sent <= kKeptKernelsBytes; sent += mebibyte.size())
        received.add({"B/part.cubin", mebibyte});
    received.end_of_job();
    REQUIRE(received.last().size() == 1);
    CHECK(received.last()[0].path == "A/one.cubin");
    received.add({"C/two.cubin", "2"});
    received.add({"C/two.json", "{}"});
    received.end_of_job();
    CHECK(received.last().size() == 2);
}

TEST_CASE("a kernel file crosses the channel byte for byte, and a path or bytes the runner never sends are refused",
          "[kept_kernels]") {
    std::string every_byte;
    for (int b = 0; b < 256; ++b) every_byte += static_cast<char>(b);
    const nlohmann::json sent = kernel_file{"HASH/kernel.cubin", every_byte};
    const auto received = sent.get<kernel_file>();
    CHECK(received.path == "HASH/kernel.cubin");
    CHECK(received.bytes == every_byte);
    CHECK_THROWS_AS((nlohmann::json{{"path", "../x"}, {"hex", "00"}}.get<kernel_file>()), std::invalid_argument);
    CHECK_THROWS_AS((nlohmann::json{{"path", "a"}, {"hex", "0g"}}.get<kernel_file>()), std::invalid_argument);
    CHECK_THROWS_AS((nlohmann::json{{"path", "a"}, {"hex", "000"}}.get<kernel_file>()), std::invalid_argument);
}

TEST_CASE("kept kernels beyond the total budget go least recently used first, never the one just kept",
          "[kept_kernels]") {
    const temp_dir work("kernels");
    const auto root = work.path() / "triton-kernels";
    const auto now = std::filesystem::file_time_type::clock::now();
    const std::string kilobyte(1024, 'k');
    for (const auto& [name, hours_ago] : std::vector<std::pair<std::string, int>>{
             {"oldest", 5}, {"used_lately", 4}, {"middle", 3}, {"newest", 1}, {"just_kept", 9}}) {
        write(root / name / "HASH" / "kernel.cubin", kilobyte);
        std::filesystem::last_write_time(root / name, now - std::chrono::hours(hours_ago));
    }
    mark_kernels_used(root / "used_lately");  // a run bound it: used now
    trim_kept_kernels(root / "just_kept", 3 * 1024);
    CHECK_FALSE(std::filesystem::exists(root / "oldest"));
    CHECK_FALSE(std::filesystem::exists(root / "middle"));
    CHECK(std::filesystem::exists(root / "newest"));
    CHECK(std::filesystem::exists(root / "used_lately"));
    CHECK(std::filesystem::exists(root / "just_kept"));  // the oldest, but the one this run kept
    trim_kept_kernels(root / "just_kept", 100 * 1024);   // within the budget: nothing goes
    CHECK(std::filesystem::exists(root / "newest"));
}
