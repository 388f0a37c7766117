#include "catalog/solution_path.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace gpujudge {

std::vector<solution_file> path_steps(const std::vector<solution_file>& solutions) {
    std::vector<solution_file> steps;
    for (const auto& file : solutions)
        if (file.step) steps.push_back(file);
    std::stable_sort(steps.begin(), steps.end(),
                     [](const solution_file& a, const solution_file& b) { return *a.step < *b.step; });
    return steps;
}

std::vector<std::string> path_errors(const std::vector<solution_file>& solutions) {
    std::vector<std::string> errors;
    const std::vector<solution_file> steps = path_steps(solutions);
    std::map<int, const solution_file*> first;
    for (const auto& file : steps) {
        const auto [taken, fresh] = first.emplace(*file.step, &file);
        if (!fresh)
            errors.push_back(fmt::format("{}:{}: step {} is declared twice: {}:{} declares it too", file.path.string(),
                                         file.step_line, *file.step, taken->second->path.string(),
                                         taken->second->step_line));
    }
    for (const auto& [step, file] : first)
        if (step > 1 && !first.count(step - 1))
            errors.push_back(
                fmt::format("{}:{}: step {} follows no step {}: the steps are numbered 1, 2, 3, ... "
                            "without gaps",
                            file->path.string(), file->step_line, step, step - 1));
    return errors;
}

std::string first_sentence(const std::string& text) {
    for (std::size_t at = text.find('.'); at != std::string::npos; at = text.find('.', at + 1))
        if (at + 1 == text.size() || text[at + 1] == ' ') return text.substr(0, at);
    return text;
}

}  // namespace gpujudge
