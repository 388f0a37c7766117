#include "python_function.hpp"

namespace gpujudge {

std::optional<std::string> python_function::run(const std::vector<void*>& pointers,
                                                const scalar_values& scalars) const {
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
    if (entry_(pointers.data(), counts.data(), values.data(), replay_ ? 1 : 0, error.data(), error.size()) == 0)
        return std::nullopt;
    error.resize(error.find('\0'));
    return error.empty() ? std::string("solve raised an exception") : error;
}

}  // namespace gpujudge
