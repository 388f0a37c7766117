#include "serve/api/api_error.hpp"

#include "base/problem_error.hpp"
#include "base/user_errors.hpp"
#include "spec/problem_spec.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace gpujudge {

namespace {

error_reply reply(int status, const std::string& code, const std::string& message) {
    return {status, {{"error", code}, {"message", message}}};
}

}  // namespace

error_reply current_error_reply() {
    try {
        throw;
    } catch (const api_error& error) {
        return reply(error.status(), error.code(), error.what());
    } catch (const usage_error& error) {
        return reply(400, "bad_request", error.what());
    } catch (const environment_error& error) {
        return reply(500, "environment", error.what());
    } catch (const spec_error& error) {
        return reply(500, "invalid_problem", error.what());
    } catch (const problem_error& error) {
        return reply(500, "invalid_problem", error.what());
    } catch (const std::exception& error) {
        return reply(500, "internal", std::string("internal error: ") + error.what());
    } catch (...) {
        return reply(500, "internal", "internal error: an exception of unknown type");
    }
}

std::string chosen_value(const nlohmann::json& request, const std::string& key,
                         const std::vector<std::string>& allowed) {
    if (!request.is_object() || !request.contains(key)) return "";
    const auto& value = request.at(key);
    if (value.is_string() && std::count(allowed.begin(), allowed.end(), value.get<std::string>()))
        return value.get<std::string>();
    throw api_error(400, "bad_request", fmt::format("'{}' must be one of: {}", key, fmt::join(allowed, ", ")));
}

}  // namespace gpujudge
