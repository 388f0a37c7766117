#include "runs/peak_bandwidth.hpp"

#include "device/cuda_resources.hpp"
#include "device/l2_flush.hpp"
#include "timing/sample_stats.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace gpujudge {

namespace {

// Median event milliseconds of `work` on the legacy default stream, timed by the device timer
// that times solve (held back until queued, so launch latency is not timed).
template <typename Work>
double median_ms(memory_space& space, Work&& work) {
    auto timer = space.make_timer();
    std::vector<double> samples;
    for (int i = 0; i < 12; ++i) {
        const call_status status = call_between_hooks(space, *timer, work);
        if (!status.ok) throw std::runtime_error("measuring the memory ceiling: " + status.error);
        if (i >= 2) samples.push_back(timer->event_ms());  // the first two warm up
    }
    return summarize(samples).median;
}

}  // namespace

double measure_peak_bandwidth_gbps(memory_space& space) {
    constexpr std::size_t kBytes = std::size_t{1} << 30;  // far beyond any L2
    device_allocation source(kBytes), destination(kBytes);
    GJ_CUDA_CHECK(cudaMemset(source.get(), 1, kBytes));
    const double copy_ms = median_ms(space, [&] {
        GJ_CUDA_CHECK(cudaMemcpyAsync(destination.get(), source.get(), kBytes, cudaMemcpyDeviceToDevice, 0));
    });
    const double read_ms = median_ms(space, [&] { read_through(source.get(), kBytes); });
    const double copy_gbps = 2.0 * static_cast<double>(kBytes) / (copy_ms * 1e-3) / 1e9;
    const double read_gbps = static_cast<double>(kBytes) / (read_ms * 1e-3) / 1e9;
    return std::max(copy_gbps, read_gbps);
}

}  // namespace gpujudge
