#pragma once
// A bench report shown: the markdown table people read and the JSON programs read. Apart from the
// timing (bench/timing.hpp), which measures and never prints.
#include "bench/timing.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace gpujudge {

// The markdown table: solution × size with median µs, GB/s, GFLOP/s, % of peak, × baseline and, where
// the report has the PyTorch one-liner, × torch.
std::string bench_markdown(const bench_report& report);
nlohmann::json bench_json(const bench_report& report);

}  // namespace gpujudge
