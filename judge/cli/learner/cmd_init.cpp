#include "base/exit_codes.hpp"
#include "base/user_errors.hpp"
#include "catalog/starter.hpp"
#include "cli/commands.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace gpujudge {

namespace {

// The starter's language: --lang's, else the path's (a .py: PyTorch; anything else: CUDA). A --lang
// that the path's extension contradicts (Python in a .cu) would write a file that cannot compile.
std::string init_language(const std::string& given, const std::filesystem::path& path) {
    const std::string extension = path.extension().string();
    if (given.empty()) return extension == language_extension("pytorch") ? "pytorch" : "cuda";
    const auto& languages = solution_languages();
    const bool a_solution_extension = std::any_of(languages.begin(), languages.end(), [&](const std::string& language) {
        return language_extension(language) == extension;
    });
    if (a_solution_extension && extension != language_extension(given)) {
        std::filesystem::path renamed = path;
        throw usage_error(fmt::format("{}: a {} starter goes in a {} file: name it {}, or leave out --lang",
                                      path.string(), given, language_extension(given),
                                      renamed.replace_extension(language_extension(given)).string()));
    }
    return given;
}

}  // namespace

command_action define_init(CLI::App& command) {
    struct options {
        std::string problem, path, language;  // language: none given, the path's
        bool force = false;
    };
    auto opts = std::make_shared<options>();
    command.add_option("problem", opts->problem, "Problem slug or folder")->required();
    command.add_option("path", opts->path, "Where to write the starter (default: <slug>.cu, or <slug>.py)");
    command
        .add_option("--lang", opts->language, "The starter's language (default: the path's, a .py PyTorch; else cuda)")
        ->check(CLI::IsMember(solution_languages()));
    command.add_flag("--force", opts->force, "Overwrite an existing file");
    return [opts](cli_context& context) {
        const problem_spec spec = load_named_problem(context, opts->problem);
        const std::string language = init_language(opts->language, opts->path);
        const std::string name = spec.slug + language_extension(language);
        std::error_code error;  // a path that cannot be checked cannot be written either: reported below
        // A folder is where the file goes, as cp has it.
        const std::string path = opts->path.empty() ? name
                                 : std::filesystem::is_directory(opts->path, error)
                                     ? (std::filesystem::path(opts->path) / name).string()
                                     : opts->path;
        if (std::filesystem::exists(path, error) && !opts->force)
            throw usage_error(fmt::format("{} already exists (use --force to overwrite it)", path));
        std::ofstream file(path);
        if (!(file << starter_source(spec, language)))
            throw usage_error(fmt::format("{}: cannot write the file", path));
        fmt::print("wrote {}\n", path);
        return static_cast<int>(exit_accepted);
    };
}

}  // namespace gpujudge
