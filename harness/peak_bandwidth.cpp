#include "peak_bandwidth.hpp"

#include "cuda_resources.hpp"
#include "sample_stats.hpp"

#include <vector>

namespace gpujudge {

double measure_copy_bandwidth_gbps() {
    constexpr std::size_t kBytes = std::size_t{1} << 30;  // far beyond any L2
    device_allocation source(kBytes), destination(kBytes);
    GJ_CUDA_CHECK(cudaMemset(source.get(), 1, kBytes));
    cuda_event start, stop;
    std::vector<double> samples;
    for (int i = 0; i < 12; ++i) {
        GJ_CUDA_CHECK(cudaEventRecord(start.get(), 0));
        GJ_CUDA_CHECK(cudaMemcpyAsync(destination.get(), source.get(), kBytes, cudaMemcpyDeviceToDevice, 0));
        GJ_CUDA_CHECK(cudaEventRecord(stop.get(), 0));
        GJ_CUDA_CHECK(cudaEventSynchronize(stop.get()));
        if (i >= 2) samples.push_back(stop.elapsed_since(start));  // the first two warm up
    }
    return 2.0 * static_cast<double>(kBytes) / (summarize(samples).median * 1e-3) / 1e9;
}

}  // namespace gpujudge
