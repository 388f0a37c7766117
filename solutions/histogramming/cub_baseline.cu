// expect: accepted
// role: baseline
// Technique: cub::DeviceHistogram::HistogramEven with num_bins equal-width bins over [0, num_bins): each
// integer value falls in its own bin. CUB zeroes the histogram itself.
#include <cub/cub.cuh>

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
    // Temporary storage is kept between calls (it holds no answer, only scratch space).
    static void* d_temp_storage = nullptr;
    static size_t temp_capacity = 0;
    const int num_levels = num_bins + 1;  // bin boundaries 0, 1, ..., num_bins
    size_t temp_bytes = 0;
    cub::DeviceHistogram::HistogramEven(nullptr, temp_bytes, input, histogram, num_levels, 0, num_bins, N);
    if (temp_bytes > temp_capacity) {
        cudaFree(d_temp_storage);
        cudaMalloc(&d_temp_storage, temp_bytes);
        temp_capacity = temp_bytes;
    }
    cub::DeviceHistogram::HistogramEven(d_temp_storage, temp_bytes, input, histogram, num_levels, 0, num_bins,
                                        N);
}
