#include "calls/python_function.hpp"

#include <fmt/format.h>

#include <cstring>
#include <stdexcept>

namespace gpujudge {

std::vector<std::uint64_t> python_function::call_key(const std::vector<void*>& pointers,
                                                     const scalar_values& scalars) const {
    std::vector<std::uint64_t> key;
    for (void* pointer : pointers) key.push_back(reinterpret_cast<std::uintptr_t>(pointer));
    for (const auto& scalar : scalars) {
        std::uint64_t bits = 0;
        std::memcpy(&bits, &scalar.second, sizeof bits);
        key.push_back(bits);
    }
    return key;
}

void python_function::keep_graph(std::vector<std::uint64_t> key, std::uint64_t graph) const {
    try {
        graphs_.emplace(std::move(key), cuda_graph_exec(reinterpret_cast<cudaGraph_t>(graph)));
    } catch (const std::runtime_error&) {  // not instantiable here: Python replays it on each call instead
        python_replays_ = true;
    }
}

std::optional<std::string> python_function::run(const std::vector<void*>& pointers,
                                                const scalar_values& scalars) const {
    std::vector<std::uint64_t> key;
    if (replay_) {
        key = call_key(pointers, scalars);
        if (const auto found = graphs_.find(key); found != graphs_.end()) {
            // On the legacy stream, where the events and the held-back clock are. A failed launch is
            // the call's error; a kernel's fault shows where the harness synchronises, as for any solve.
            const cudaError_t status = cudaGraphLaunch(found->second.get(), cudaStreamLegacy);
            if (status == cudaSuccess) return std::nullopt;
            return fmt::format("launching solve's captured CUDA graph failed: {}", cudaGetErrorString(status));
        }
    }
    // Per parameter position: the element count of a pointer, the value of a scalar.
    std::vector<std::int64_t> counts(spec_.params.size(), 0);
    std::vector<double> values(spec_.params.size(), 0);
    for (std::size_t i = 0; i < spec_.params.size(); ++i) {
        const parameter& param = spec_.params[i];
        if (param.is_pointer)
            counts[i] = static_cast<std::int64_t>(spec_.element_count(param, scalars));
        else
            values[i] = scalars.at(param.name);
    }
    std::string error(16384, '\0');
    std::uint64_t graph = 0;
    if (entry_(pointers.data(), counts.data(), values.data(), replay_ ? 1 : 0, &graph, error.data(), error.size()) ==
        0) {
        if (replay_ && graph && !python_replays_) keep_graph(std::move(key), graph);
        return std::nullopt;
    }
    error.resize(error.find('\0'));
    return error.empty() ? std::string("solve raised an exception") : error;
}

}  // namespace gpujudge
