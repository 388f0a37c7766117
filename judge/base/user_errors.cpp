#include "base/user_errors.hpp"

#include "base/exit_codes.hpp"
#include "base/problem_error.hpp"
#include "spec/problem_spec.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <filesystem>
#include <system_error>

namespace gpujudge {

bool machine_error(const std::exception& error) {
    if (dynamic_cast<const environment_error*>(&error) ||
        dynamic_cast<const std::filesystem::filesystem_error*>(&error))
        return true;
    // A write that failed for want of room or of a working disk (fmt's print into a full disk).
    const auto* system = dynamic_cast<const std::system_error*>(&error);
    if (!system) return false;
    const int code = system->code().value();
    return code == ENOSPC || code == EDQUOT || code == EIO || code == EFBIG || code == EROFS;
}

int report_current_exception() {
    try {
        throw;
    } catch (const usage_error& error) {
        fmt::print(stderr, "gpujudge: {}\n", error.what());
        return exit_usage;
    } catch (const counters_denied_error& error) {
        fmt::print(stderr, "gpujudge: {}\n", error.what());
        return exit_counters_denied;
    } catch (const spec_error& error) {
        fmt::print(stderr, "{}\n", error.what());  // already "path:line: message"
        return exit_invalid_problem;
    } catch (const problem_error& error) {
        fmt::print(stderr, "gpujudge: {}\n", error.what());
        return exit_invalid_problem;
    } catch (const std::exception& error) {
        if (machine_error(error)) {
            // A folder it cannot make or write names the variables that place the folders.
            const bool folder = dynamic_cast<const std::filesystem::filesystem_error*>(&error);
            fmt::print(stderr, "gpujudge: {}{}\n", error.what(),
                       folder ? " (check GPUJUDGE_CACHE_DIR, GPUJUDGE_DATA_DIR and TMPDIR)" : "");
            return exit_environment;
        }
        fmt::print(stderr, "gpujudge: internal error: {}\n", error.what());
    } catch (...) {
        fmt::print(stderr, "gpujudge: internal error: an exception of unknown type\n");
    }
    return exit_internal;
}

}  // namespace gpujudge
