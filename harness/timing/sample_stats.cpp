#include "timing/sample_stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gpujudge {

sample_stats summarize(std::vector<double> samples) {
    sample_stats stats;
    stats.count = static_cast<int>(samples.size());
    if (samples.empty()) return stats;
    std::sort(samples.begin(), samples.end());
    const std::size_t n = samples.size();
    stats.median = n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
    stats.min = samples.front();
    stats.max = samples.back();
    stats.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(n);
    double squares = 0;
    for (double s : samples) squares += (s - stats.mean) * (s - stats.mean);
    stats.stddev = n > 1 ? std::sqrt(squares / static_cast<double>(n - 1)) : 0;
    stats.rse = stats.mean > 0 && n > 1 ? stats.stddev / std::sqrt(static_cast<double>(n)) / stats.mean : 1;
    return stats;
}

}  // namespace gpujudge
