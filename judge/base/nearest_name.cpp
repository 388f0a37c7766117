#include "base/nearest_name.hpp"

#include <algorithm>
#include <cctype>

namespace gpujudge {

std::string lower_case(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

namespace {

// Edits from `a` to `b`, a swap of neighbours counting one (the optimal string alignment distance).
std::size_t edits(const std::string& a, const std::string& b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

}  // namespace

std::optional<std::string> nearest_name(const std::string& typed, const std::vector<std::string>& names) {
    if (std::find(names.begin(), names.end(), typed) != names.end()) return std::nullopt;
    const std::string typed_lower = lower_case(typed);
    for (const auto& name : names)
        if (lower_case(name) == typed_lower) return name;
    const std::size_t allowed = std::max<std::size_t>(1, typed.size() / 4);
    std::optional<std::string> best;
    std::size_t best_edits = allowed + 1;
    bool tied = false;
    for (const auto& name : names) {
        const std::size_t n = edits(typed_lower, lower_case(name));
        if (n < best_edits) {
            best = name;
            best_edits = n;
            tied = false;
        } else if (n == best_edits) {
            tied = true;
        }
    }
    if (tied) return std::nullopt;
    return best;
}

}  // namespace gpujudge
