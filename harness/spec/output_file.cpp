#include "spec/output_file.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <fstream>
#include <stdexcept>

namespace gpujudge {

void write_outputs(const std::filesystem::path& path, const problem_spec& spec, const named_arrays& outputs) {
    const auto partial = path.string() + fmt::format(".{}.partial", getpid());
    {
        std::ofstream file(partial, std::ios::binary);
        for (const auto& param : spec.params) {
            if (!param.is_pointer || !param.is_output()) continue;
            const host_array& values = outputs.at(param.name);
            file.write(static_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size_bytes()));
        }
        if (!file.flush()) throw std::runtime_error(fmt::format("{}: cannot write the file", partial));
    }
    std::filesystem::rename(partial, path);
}

named_arrays read_outputs(const std::filesystem::path& path, const problem_spec& spec, const scalar_values& scalars) {
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    if (!file) throw std::runtime_error(fmt::format("{}: cannot read the expected outputs", path.string()));
    const auto size = static_cast<std::size_t>(file.tellg());
    file.seekg(0);
    named_arrays outputs;
    std::size_t total = 0;
    for (const auto& param : spec.params) {
        if (!param.is_pointer || !param.is_output()) continue;
        host_array values(param.type, spec.element_count(param, scalars));
        total += values.size_bytes();
        if (total > size) break;
        file.read(static_cast<char*>(values.data()), static_cast<std::streamsize>(values.size_bytes()));
        outputs.emplace(param.name, std::move(values));
    }
    if (total != size || !file)
        throw std::runtime_error(fmt::format("{}: holds {} bytes, the outputs {}", path.string(), size, total));
    return outputs;
}

named_arrays literal_outputs(const problem_spec& spec, const test_spec& example) {
    named_arrays outputs;
    for (const auto& [name, values] : example.expected) {
        host_array expected(spec.find_parameter(name)->type, values.size());
        for (std::size_t i = 0; i < values.size(); ++i) expected.set(i, values[i]);
        outputs.emplace(name, std::move(expected));
    }
    return outputs;
}

}  // namespace gpujudge
