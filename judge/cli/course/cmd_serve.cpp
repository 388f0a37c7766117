// `gpujudge serve`: the web page and its JSON API on this machine (see serve/web_server.hpp).
#include "cli/commands.hpp"
#include "serve/api/leaderboard_api.hpp"
#include "serve/api/report_commands.hpp"
#include "serve/page_assets.hpp"
#include "serve/web_server.hpp"

namespace gpujudge {

command_action define_serve(CLI::App& command) {
    struct options {
        serve_settings settings;
        std::string assets;
    };
    auto opts = std::make_shared<options>();
    command.add_option("--port", opts->settings.port, "Port to listen on; 0 picks a free one")
        ->capture_default_str()
        ->check(CLI::Range(0, 65535));
    command
        .add_option("--host", opts->settings.host,
                    "Address to listen on; on any, every request needs the token printed at start-up (other "
                    "users of this machine reach the loopback too)")
        ->capture_default_str();
    command.add_option("--gradebook", opts->settings.gradebook,
                       "The grade whose leaderboards the Leaderboard view shows: its run folder or gradebook.db "
                       "(default: the latest grade run on this machine)");
    command.add_option("--assets", opts->assets,
                       "Folder holding Debian's JavaScript libraries, codemirror/ and marked/ (default: "
                       "/usr/share/javascript, else share/javascript beside this binary)");
    CLI::App* gpujudge = command.get_parent();
    return [opts, gpujudge](cli_context& context) {
        serve_settings settings = opts->settings;
        settings.page_dir = default_page_dir();
        settings.javascript_dir = opts->assets.empty() ? default_javascript_dir() : std::filesystem::path(opts->assets);
        // The reports whose commands this binary has (profile and sanitize come with their branches).
        for (const auto& name : report_names())
            if (!gpujudge->get_subcommands([&](CLI::App* sub) { return sub->get_name() == name; }).empty())
                settings.reports.push_back(name);
        settings.version = GPUJUDGE_VERSION;
        if (!settings.gradebook.empty()) settings.gradebook = std::filesystem::absolute(settings.gradebook);
        check_gradebook_option(settings.gradebook);
        return serve(context.judge, settings);
    };
}

}  // namespace gpujudge
