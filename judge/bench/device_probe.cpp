#include "bench/device_probe.hpp"

#include "history/database.hpp"

namespace gpujudge {

std::optional<std::string> adopt_device(runner_session& session, compiler_settings& compiler) {
    if (session.no_device()) return *session.no_device();
    if (const auto& device = session.device()) compiler.arch = device->arch;
    return std::nullopt;
}

std::optional<double> device_ceiling(runner_session& session, const std::optional<device_message>& device,
                                     judge_context& context) {
    if (context.runner.backend == runner_backend::host) return context.assumed_peak_gbps;
    if (!device) return std::nullopt;
    if (context.results)
        if (const auto known = context.results->device_peak(device->uuid)) return known;
    if (!context.runner.launcher.empty()) return std::nullopt;
    std::optional<double> measured;
    if (session.load({}, "", &measured) || !measured || !plausible_ceiling_gbps(*measured)) return std::nullopt;
    if (context.results) context.results->save_device_peak(device->uuid, device->name, *measured);
    return measured;
}

}  // namespace gpujudge
