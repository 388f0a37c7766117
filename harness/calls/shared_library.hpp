#pragma once
// A dlopen'ed shared library (RTLD_NOW | RTLD_LOCAL), closed when the owner goes.
#include <stdexcept>
#include <string>

namespace gpujudge {

class library_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class shared_library {
public:
    explicit shared_library(const std::string& path);
    ~shared_library();
    shared_library(shared_library&& other) noexcept : handle_(other.handle_) { other.handle_ = nullptr; }
    shared_library& operator=(shared_library&&) = delete;
    shared_library(const shared_library&) = delete;
    shared_library& operator=(const shared_library&) = delete;

    // Throws library_error when the library does not define `name`.
    void* symbol(const std::string& name) const;

private:
    void* handle_;
};

}  // namespace gpujudge
