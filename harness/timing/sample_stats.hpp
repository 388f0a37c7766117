#pragma once
// Summary statistics of timing samples.
#include <vector>

namespace gpujudge {

struct sample_stats {
    int count = 0;
    double median = 0, mean = 0, min = 0, max = 0, stddev = 0;
    double rse = 0;  // relative standard error of the mean: stddev / sqrt(count) / mean
};

sample_stats summarize(std::vector<double> samples);

}  // namespace gpujudge
