#include "runner/copy_on_write_inputs.hpp"

#include "inputs/generator.hpp"

#include <fmt/format.h>

#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>

namespace gpujudge {

namespace {

[[noreturn]] void fail(const char* what) {
    throw std::runtime_error(fmt::format("reference inputs: {}: {}", what, std::strerror(errno)));
}

std::size_t page_bytes() {
    static const std::size_t bytes = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    return bytes;
}

// The most this process may write to one file (memory files included).
std::size_t largest_file() {
    rlimit limit{};
    if (getrlimit(RLIMIT_FSIZE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return std::numeric_limits<std::size_t>::max();
    return static_cast<std::size_t>(limit.rlim_cur);
}

// A pad of values no input holds, drawn afresh in every process: a reference that reads before its
// input (`i = -1`) reads one of them, and validate's second run of the reference sees other outputs.
// Large, of either sign: a sum changes, and a max or a min with one run in two.
void fill_pad(void* h_pad, std::size_t bytes, element_type type) {
    std::mt19937_64 draw(std::random_device{}());
    for (std::size_t at = 0; at + 4 <= bytes; at += 4) {
        const std::uint64_t bits = draw();
        const float magnitude = 1e6f + static_cast<float>(bits >> 40);  // up to 1.8e7
        const float f32 = bits & 1 ? magnitude : -magnitude;
        const auto i32 = static_cast<std::int32_t>(bits >> 8);
        std::memcpy(static_cast<char*>(h_pad) + at, type == element_type::f32 ? static_cast<const void*>(&f32) : &i32,
                    4);
    }
}

}  // namespace

copy_on_write_inputs::copy_on_write_inputs(const problem_spec& spec, const test_spec& test, std::uint64_t seed) {
    for (std::uint32_t i = 0; i < spec.params.size(); ++i) {
        const parameter& param = spec.params[i];
        if (!param.is_pointer || !param.is_input()) continue;
        const std::size_t count = spec.element_count(param, test.scalars);
        const generator_params generator =
            make_generator_params(spec.generator_for(test, param), test.scalars, seed, i);
        if (count * element_size(param.type) + page_bytes() > largest_file()) {  // the pad too
            host_array& values = arrays_.emplace(param.name, host_array(param.type, count)).first->second;
            fill_generated(generator, param.type, values.data(), count);
            continue;
        }
        file& held = files_[param.name];
        held.bytes = count * element_size(param.type);
        held.pad = (page_bytes() - held.bytes % page_bytes()) % page_bytes();
        held.fd = memfd_create("gpujudge-reference-input", MFD_CLOEXEC);
        if (held.fd < 0) fail("memfd_create");
        if (held.bytes == 0) continue;
        const std::size_t total = held.pad + held.bytes;
        if (ftruncate(held.fd, static_cast<off_t>(total)) != 0) fail("ftruncate");
        void* mapped = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_SHARED, held.fd, 0);
        if (mapped == MAP_FAILED) fail("mmap");
        fill_pad(mapped, held.pad, param.type);
        fill_generated(generator, param.type, static_cast<char*>(mapped) + held.pad, count);
        munmap(mapped, total);
    }
}

copy_on_write_inputs::~copy_on_write_inputs() {
    for (auto& [name, held] : files_)
        if (held.fd >= 0) ::close(held.fd);
}

copy_on_write_inputs::view::view(const copy_on_write_inputs& inputs, const problem_spec& spec,
                                 const data_set_spec& data) {
    for (const auto& [name, held] : inputs.files_) {
        // A page that no access reaches, the file's pages, then another; an empty array points at the last.
        const std::size_t total = held.pad + held.bytes;
        auto* region =
            static_cast<char*>(mmap(nullptr, total + 2 * page_bytes(), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
        if (region == MAP_FAILED) fail("mmap");
        regions_[name] = {region, total + 2 * page_bytes()};
        char* file_start = region + page_bytes();
        if (total > 0 &&
            mmap(file_start, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, held.fd, 0) == MAP_FAILED)
            fail("mmap");
        pointers_[name] = file_start + held.pad;
    }
    for (const auto& [name, values] : inputs.arrays_)
        pointers_[name] = copies_.emplace(name, values).first->second.data();
    for (const auto& change : data.changes) {
        const std::uint32_t word = change.bits;
        auto* at = static_cast<char*>(pointers_.at(spec.params.at(change.param).name));
        std::memcpy(at + sizeof word * change.index, &word, sizeof word);
    }
}

copy_on_write_inputs::view::~view() {
    for (const auto& [name, region] : regions_) munmap(region.first, region.second);
}

}  // namespace gpujudge
