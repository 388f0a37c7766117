#include "commands.hpp"
#include "exit_codes.hpp"
#include "starter.hpp"

#include <fmt/format.h>

#include <fstream>

namespace gpujudge {

command_action define_init(CLI::App& command) {
    struct options {
        std::string problem, path;
        bool force = false;
    };
    auto opts = std::make_shared<options>();
    command.add_option("problem", opts->problem, "Problem slug or folder")->required();
    command.add_option("path", opts->path, "Where to write the starter (default: <slug>.cu)");
    command.add_flag("--force", opts->force, "Overwrite an existing file");
    return [opts](cli_context& context) {
        int exit = exit_accepted;
        auto spec = load_problem_or_report(context, opts->problem, exit);
        if (!spec) return exit;
        const std::string path = opts->path.empty() ? spec->slug + ".cu" : opts->path;
        if (std::filesystem::exists(path) && !opts->force) {
            fmt::print(stderr, "gpujudge: {} already exists (use --force to overwrite it)\n", path);
            return static_cast<int>(exit_usage);
        }
        std::ofstream file(path);
        if (!(file << starter_source(*spec))) {
            fmt::print(stderr, "gpujudge: {}: cannot write the file\n", path);
            return static_cast<int>(exit_usage);
        }
        fmt::print("wrote {}\n", path);
        return exit;
    };
}

}  // namespace gpujudge
