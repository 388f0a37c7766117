#pragma once
// How the API answers what went wrong: an HTTP status and {"error": <code>, "message": <text>}.
// Handlers throw api_error for the client's mistakes; current_error_reply() is the one place that
// turns any exception into a reply, as report_current_exception() does for the command line.
#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace gpujudge {

class api_error : public std::runtime_error {
public:
    api_error(int status, std::string code, const std::string& message)
        : std::runtime_error(message), status_(status), code_(std::move(code)) {}
    int status() const { return status_; }
    const std::string& code() const { return code_; }

private:
    int status_;
    std::string code_;
};

struct error_reply {
    int status = 500;
    nlohmann::json body;
};

// Call only inside a catch block. api_error as thrown; a problem's own broken files 500
// "invalid_problem"; a missing tool 500 "environment"; anything else 500 "internal".
error_reply current_error_reply();

// The value of `key` in a request's JSON object, which must be one of `allowed`; "" when the request has
// none. Anything else (another value, not a string) is api_error 400 listing the values allowed: what a
// request chooses this way (a tool, a test, a language) is only ever one of the server's own values.
std::string chosen_value(const nlohmann::json& request, const std::string& key,
                         const std::vector<std::string>& allowed);

}  // namespace gpujudge
