#include "runner/copy_on_write_inputs.hpp"

#include "inputs/generator.hpp"

#include <fmt/format.h>

#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>
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
        // The file's pages, then one that no access reaches; an empty array points at that page.
        const std::size_t total = held.pad + held.bytes;
        void* region = mmap(nullptr, total + page_bytes(), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (region == MAP_FAILED) fail("mmap");
        regions_[name] = {region, total + page_bytes()};
        if (total > 0 && mmap(region, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, held.fd, 0) == MAP_FAILED)
            fail("mmap");
        pointers_[name] = static_cast<char*>(region) + held.pad;
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
