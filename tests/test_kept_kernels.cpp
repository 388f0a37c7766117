// Triton's kernels kept between runs of one file (runner/kept_kernels.hpp): what the judge takes
// from a runner's folder is plain and bounded, and the kept copy is replaced whole or not at all.
#include "base/temp_dir.hpp"
#include "runner/kept_kernels.hpp"

#include <catch2/catch.hpp>

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

TEST_CASE("a runner's kernel folder of plain files is kept and replaces the older copy", "[kept_kernels]") {
    const temp_dir work("kernels");
    const auto from = work.path() / "out", kept = work.path() / "cache" / "triton-kernels" / "abc";
    write(kept / "old" / "gone.cubin", "old");
    write(from / "HASH1" / "kernel.cubin", "new");
    write(from / "HASH1" / "kernel.json", "{}");
    CHECK(keep_kernels(from, kept));
    CHECK(read(kept / "HASH1" / "kernel.cubin") == "new");
    CHECK_FALSE(std::filesystem::exists(kept / "old"));
    CHECK(std::distance(std::filesystem::directory_iterator(kept.parent_path()), {}) == 1);  // no partial left
}

TEST_CASE("a kernel folder holding a link is not kept, and the older copy stays", "[kept_kernels]") {
    const temp_dir work("kernels");
    const auto from = work.path() / "out", kept = work.path() / "kept";
    write(kept / "HASH0" / "kernel.cubin", "old");
    write(from / "HASH1" / "kernel.cubin", "new");
    std::filesystem::create_symlink("/etc/passwd", from / "HASH1" / "leak");
    CHECK_FALSE(keep_kernels(from, kept));
    CHECK(read(kept / "HASH0" / "kernel.cubin") == "old");
}

TEST_CASE("a kernel folder over the size limit is not kept", "[kept_kernels]") {
    const temp_dir work("kernels");
    const auto from = work.path() / "out", kept = work.path() / "kept";
    write(from / "big.cubin", "");
    std::filesystem::resize_file(from / "big.cubin", kKeptKernelsBytes + 1);  // sparse: no disk used
    CHECK_FALSE(keep_kernels(from, kept));
    CHECK_FALSE(std::filesystem::exists(kept));
}

TEST_CASE("no kernel folder keeps nothing", "[kept_kernels]") {
    const temp_dir work("kernels");
    CHECK_FALSE(keep_kernels(work.path() / "none", work.path() / "kept"));
    CHECK_FALSE(std::filesystem::exists(work.path() / "kept"));
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
