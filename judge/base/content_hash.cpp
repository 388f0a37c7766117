#include "base/content_hash.hpp"

#include "base/file_text.hpp"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <memory>
#include <stdexcept>

namespace gpujudge {

namespace {

using digest_context = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;

void check(int ok, const char* step) {
    if (!ok) throw std::runtime_error(fmt::format("SHA-256: {} failed", step));
}

}  // namespace

std::string content_hash(const std::vector<std::string>& parts) {
    digest_context context(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    if (!context) throw std::bad_alloc();
    check(EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr), "init");
    for (const auto& part : parts) {
        check(EVP_DigestUpdate(context.get(), part.data(), part.size()), "update");
        check(EVP_DigestUpdate(context.get(), "\0", 1), "update");
    }
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    check(EVP_DigestFinal_ex(context.get(), digest, &size), "final");
    std::string hex;
    hex.reserve(2 * size);
    for (unsigned int i = 0; i < size; ++i) hex += fmt::format("{:02x}", digest[i]);
    return hex;
}

std::string file_hash(const std::filesystem::path& path) {
    const auto bytes = read_file_text(path);
    return bytes ? content_hash({*bytes}) : std::string{};
}

}  // namespace gpujudge
