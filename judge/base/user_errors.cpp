#include "base/user_errors.hpp"

#include "base/exit_codes.hpp"
#include "base/problem_error.hpp"
#include "problem_spec.hpp"

#include <fmt/format.h>

namespace gpujudge {

int report_current_exception() {
    try {
        throw;
    } catch (const usage_error& error) {
        fmt::print(stderr, "gpujudge: {}\n", error.what());
        return exit_usage;
    } catch (const environment_error& error) {
        fmt::print(stderr, "gpujudge: {}\n", error.what());
        return exit_environment;
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
        fmt::print(stderr, "gpujudge: internal error: {}\n", error.what());
    } catch (...) {
        fmt::print(stderr, "gpujudge: internal error: an exception of unknown type\n");
    }
    return exit_internal;
}

std::string missing_tool_message(const std::string& tool) {
    if (tool == "nvcc")
        return "nvcc not found on PATH: install the CUDA Toolkit (https://developer.nvidia.com/cuda-downloads) "
               "and add its bin folder (usually /usr/local/cuda/bin) to PATH";
    if (tool == "ncu")
        return "ncu not found on PATH: install Nsight Compute, which comes with the CUDA Toolkit "
               "(https://developer.nvidia.com/nsight-compute), and add the toolkit's bin folder (usually "
               "/usr/local/cuda/bin) to PATH";
    return fmt::format("{} not found on PATH: install a C++ compiler (on Debian: apt-get install g++)", tool);
}

}  // namespace gpujudge
