#include "runner/shared_outputs.hpp"

#include "buffers/memory_space.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace gpujudge {

namespace {

std::size_t output_bytes(const parameter& param, const problem_spec& spec, const scalar_values& scalars) {
    return spec.element_count(param, scalars) * element_size(param.type);
}

}  // namespace

std::size_t outputs_bytes(const problem_spec& spec, const scalar_values& scalars) {
    std::size_t bytes = 0;
    for (const auto& param : spec.params)
        if (param.is_pointer && param.is_output()) bytes += output_bytes(param, spec, scalars);
    return bytes;
}

std::size_t largest_outputs_bytes(const problem_spec& spec) {
    std::size_t bytes = 0;
    for (const auto& test : spec.tests) bytes = std::max(bytes, outputs_bytes(spec, test.scalars));
    return bytes;
}

shared_outputs shared_outputs::create(std::size_t bytes) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGE_SIZE));
    const std::size_t size = std::max<std::size_t>(page, (bytes + page - 1) / page * page);
    const int fd = memfd_create("gpujudge-outputs", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) throw std::runtime_error("cannot create the outputs window (memfd_create)");
    if (ftruncate(fd, static_cast<off_t>(size)) != 0 ||
        fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
        close(fd);
        throw std::runtime_error("cannot size and seal the outputs window");
    }
    void* base = mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) {
        close(fd);
        throw std::runtime_error("cannot map the outputs window");
    }
    return {fd, base, size};
}

shared_outputs shared_outputs::attach(int fd) {
    struct stat info {};
    if (fstat(fd, &info) != 0 || info.st_size <= 0) return {-1, nullptr, 0};
    const auto size = static_cast<std::size_t>(info.st_size);
    void* base = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) return {-1, nullptr, 0};
    return {fd, base, size};
}

shared_outputs::shared_outputs(shared_outputs&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      base_(std::exchange(other.base_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

shared_outputs& shared_outputs::operator=(shared_outputs&& other) noexcept {
    if (this != &other) {
        this->~shared_outputs();
        fd_ = std::exchange(other.fd_, -1);
        base_ = std::exchange(other.base_, nullptr);
        size_ = std::exchange(other.size_, 0);
    }
    return *this;
}

shared_outputs::~shared_outputs() {
    if (base_) munmap(base_, size_);
    if (fd_ >= 0) close(fd_);
}

void shared_outputs::write(const problem_spec& spec, memory_space& space, const buffer_set& buffers) const {
    std::size_t offset = 0;
    for (const auto& param : spec.params) {
        if (!param.is_pointer || !param.is_output()) continue;
        const guarded_buffer& buffer = buffers.at(param.name);
        if (offset + buffer.size_bytes() > size_) throw std::runtime_error("the outputs do not fit the judge's window");
        space.download(static_cast<char*>(base_) + offset, buffer.data(), buffer.size_bytes());
        offset += buffer.size_bytes();
    }
}

named_arrays shared_outputs::read(const problem_spec& spec, const scalar_values& scalars) const {
    named_arrays outputs;
    std::size_t offset = 0;
    for (const auto& param : spec.params) {
        if (!param.is_pointer || !param.is_output()) continue;
        const std::size_t bytes = output_bytes(param, spec, scalars);
        if (offset + bytes > size_) throw std::runtime_error("the outputs do not fit the judge's window");
        host_array values(param.type, bytes / element_size(param.type));
        std::memcpy(values.data(), static_cast<const char*>(base_) + offset, bytes);
        outputs.emplace(param.name, std::move(values));
        offset += bytes;
    }
    return outputs;
}

}  // namespace gpujudge
