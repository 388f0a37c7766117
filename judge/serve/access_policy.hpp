#pragma once
// Who may use the server: whoever has the token printed at start-up, which every request must carry
// (on the loopback too: any user of a shared machine can reach 127.0.0.1). Bound to the loopback
// interface (the default), only under the server's own host names (a page on another site that
// resolves its own name to 127.0.0.1, DNS rebinding, is refused). Either way a browser request that
// changes something must come from the server's own page (its Origin), so that no other site can
// make the browser post to it (CSRF).
#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

// The parts of a request that decide whether it is allowed; "" where a header is absent.
struct request_facts {
    std::string method;         // "GET", "POST", ...
    std::string host;           // the Host header
    std::string origin;         // the Origin header
    std::string authorization;  // "Bearer <token>"
    std::string cookie;         // the Cookie header
    std::string query_token;    // ?token=<token>
};

struct refusal {
    int status = 403;
    std::string error;  // "forbidden", "unauthorized"
    std::string message;
};

class access_policy {
public:
    // `host` is what the server is bound to; `token` is required of every request.
    access_policy(const std::string& host, int port, std::string token);

    static bool is_loopback(const std::string& host);
    // 32 random bytes, in hex.
    static std::string new_token();

    bool token_required() const { return !token_.empty(); }
    const std::string& token() const { return token_; }
    // The cookie the page keeps the token in once it was opened with ?token=: one per port, as a
    // browser sends a host's cookies to all its ports (two servers would replace each other's).
    const std::string& cookie_name() const { return cookie_; }

    std::optional<refusal> check(const request_facts& request) const;

private:
    bool token_matches(const request_facts& request) const;

    std::string token_;
    std::string cookie_;
    std::vector<std::string> hosts_;  // the Host values accepted; empty: any (the token guards)
};

}  // namespace gpujudge
