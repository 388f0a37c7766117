#include "serve/access_policy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <random>

namespace gpujudge {

namespace {

// Compares without stopping at the first difference, so that the time taken tells nothing.
bool same_secret(const std::string& a, const std::string& b) {
    if (a.size() != b.size()) return false;
    unsigned char difference = 0;
    for (std::size_t i = 0; i < a.size(); ++i) difference |= static_cast<unsigned char>(a[i] ^ b[i]);
    return difference == 0;
}

// The value of cookie `name` in a Cookie header ("a=1; gpujudge_token=..."); "" when absent.
std::string cookie_value(const std::string& header, const std::string& name) {
    std::size_t start = 0;
    while (start < header.size()) {
        std::size_t end = header.find(';', start);
        if (end == std::string::npos) end = header.size();
        std::string pair = header.substr(start, end - start);
        pair.erase(0, pair.find_first_not_of(' '));
        if (pair.rfind(name + "=", 0) == 0) return pair.substr(name.size() + 1);
        start = end + 1;
    }
    return "";
}

bool changes_state(const std::string& method) {
    return method != "GET" && method != "HEAD" && method != "OPTIONS";
}

}  // namespace

access_policy::access_policy(const std::string& host, int port, std::string token)
    : token_(std::move(token)), cookie_(fmt::format("gpujudge_token_{}", port)) {
    // The token is required on the loopback too: every user of a shared machine can reach 127.0.0.1.
    if (!is_loopback(host)) return;
    for (const char* name : {"127.0.0.1", "localhost", "[::1]"}) hosts_.push_back(fmt::format("{}:{}", name, port));
    if (host.rfind("127.", 0) == 0 && host != "127.0.0.1") hosts_.push_back(fmt::format("{}:{}", host, port));
}

bool access_policy::is_loopback(const std::string& host) {
    return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

std::string access_policy::new_token() {
    std::random_device random;
    std::string token;
    for (int i = 0; i < 8; ++i) token += fmt::format("{:08x}", random());
    return token;
}

bool access_policy::token_matches(const request_facts& request) const {
    const std::string bearer = "Bearer ";
    if (request.authorization.rfind(bearer, 0) == 0 && same_secret(request.authorization.substr(bearer.size()), token_))
        return true;
    return same_secret(cookie_value(request.cookie, cookie_), token_) || same_secret(request.query_token, token_);
}

std::optional<refusal> access_policy::check(const request_facts& request) const {
    if (!hosts_.empty() && std::find(hosts_.begin(), hosts_.end(), request.host) == hosts_.end())
        return refusal{403, "forbidden",
                       fmt::format("unexpected Host '{}': this server answers to {} only", request.host, hosts_[0])};
    if (token_required() && !token_matches(request))
        return refusal{401, "unauthorized",
                       "this server needs the token printed when it started: open the URL it printed, or send "
                       "'Authorization: Bearer <token>'"};
    if (changes_state(request.method) && !request.origin.empty() && request.origin != "http://" + request.host)
        return refusal{403, "forbidden",
                       fmt::format("a request from another site ({}) may not change anything here", request.origin)};
    return std::nullopt;
}

}  // namespace gpujudge
