#include "peak_bandwidth.hpp"

#include "blocking_kernel.hpp"
#include "cuda_resources.hpp"
#include "l2_flush.hpp"
#include "sample_stats.hpp"

#include <algorithm>
#include <vector>

namespace gpujudge {

namespace {

// Median milliseconds of `work` on the legacy default stream, timed as solve is (held back
// until queued, so launch latency is not timed).
template <typename Work>
double median_ms(Work&& work) {
    blocking_kernel blocker;
    cuda_event start, stop;
    std::vector<double> samples;
    for (int i = 0; i < 12; ++i) {
        blocker.block();
        GJ_CUDA_CHECK(cudaEventRecord(start.get(), 0));
        work();
        GJ_CUDA_CHECK(cudaEventRecord(stop.get(), 0));
        blocker.release();
        GJ_CUDA_CHECK(cudaEventSynchronize(stop.get()));
        if (i >= 2) samples.push_back(stop.elapsed_since(start));  // the first two warm up
    }
    return summarize(samples).median;
}

}  // namespace

double measure_peak_bandwidth_gbps() {
    constexpr std::size_t kBytes = std::size_t{1} << 30;  // far beyond any L2
    device_allocation source(kBytes), destination(kBytes);
    GJ_CUDA_CHECK(cudaMemset(source.get(), 1, kBytes));
    const double copy_ms = median_ms(
        [&] { GJ_CUDA_CHECK(cudaMemcpyAsync(destination.get(), source.get(), kBytes, cudaMemcpyDeviceToDevice, 0)); });
    const double read_ms = median_ms([&] { read_through(source.get(), kBytes); });
    const double copy_gbps = 2.0 * static_cast<double>(kBytes) / (copy_ms * 1e-3) / 1e9;
    const double read_gbps = static_cast<double>(kBytes) / (read_ms * 1e-3) / 1e9;
    return std::max(copy_gbps, read_gbps);
}

}  // namespace gpujudge
