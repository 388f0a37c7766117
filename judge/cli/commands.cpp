#include "cli/commands.hpp"

#include "base/user_errors.hpp"
#include "catalog/catalog.hpp"

#include <fmt/format.h>

namespace gpujudge {

problem_spec load_named_problem(const cli_context& context, const std::string& name) {
    return load_problem(resolve_problem(context.judge.home, name));
}

void add_no_torch_flag(CLI::App& command, bool& no_torch) {
    command.add_flag("--no-torch", no_torch,
                     "Leave out the × torch column: the problem's PyTorch one-liner is not timed (its first timing on "
                     "a device starts Python and imports torch)");
}

void require_source_file(const std::string& path) {
    std::error_code error;
    const auto status = std::filesystem::status(path, error);
    // ENOENT reads as "not found" without an error code; ENAMETOOLONG and EACCES come with one.
    if (error && error != std::errc::no_such_file_or_directory)
        throw usage_error(fmt::format("{}: {}", path, error.message()));
    if (status.type() == std::filesystem::file_type::directory)
        throw usage_error(fmt::format("{}: is a directory, not a source file", path));
    if (status.type() == std::filesystem::file_type::not_found)
        throw usage_error(fmt::format("{}: no such file", path));
    // A FIFO would hold the judge until someone writes it; /dev/stdin, <(...), /dev/null are not a file either.
    if (status.type() != std::filesystem::file_type::regular)
        throw usage_error(
            fmt::format("{}: not a regular file (a pipe, a device or a socket): save the source to a file", path));
}

}  // namespace gpujudge
