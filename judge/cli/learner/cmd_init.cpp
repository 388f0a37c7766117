#include "base/exit_codes.hpp"
#include "base/user_errors.hpp"
#include "catalog/starter.hpp"
#include "cli/commands.hpp"

#include <fmt/format.h>

#include <fstream>

namespace gpujudge {

command_action define_init(CLI::App& command) {
    struct options {
        std::string problem, path, language = "cuda";
        bool force = false;
    };
    auto opts = std::make_shared<options>();
    command.add_option("problem", opts->problem, "Problem slug or folder")->required();
    command.add_option("path", opts->path, "Where to write the starter (default: <slug>.cu, or <slug>.py)");
    command.add_option("--lang", opts->language, "The starter's language")->check(CLI::IsMember(solution_languages()));
    command.add_flag("--force", opts->force, "Overwrite an existing file");
    return [opts](cli_context& context) {
        const problem_spec spec = load_named_problem(context, opts->problem);
        const std::string path = opts->path.empty() ? spec.slug + language_extension(opts->language) : opts->path;
        std::error_code error;  // a path that cannot be checked cannot be written either: reported below
        if (std::filesystem::exists(path, error) && !opts->force)
            throw usage_error(fmt::format("{} already exists (use --force to overwrite it)", path));
        std::ofstream file(path);
        if (!(file << starter_source(spec, opts->language)))
            throw usage_error(fmt::format("{}: cannot write the file", path));
        fmt::print("wrote {}\n", path);
        return static_cast<int>(exit_accepted);
    };
}

}  // namespace gpujudge
