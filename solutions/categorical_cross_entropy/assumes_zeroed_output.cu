// expect: wrong_answer
// cause: nan
// Mistake: adds every row's loss into `loss` with atomicAdd but never sets it to 0 first. It works where
// the output happens to arrive zeroed, but an output buffer holds whatever was there before; this judge
// fills it with NaN, and NaN + anything stays NaN. A cudaMemset before the launch fixes it.
#include <cuda_runtime.h>

#include <cmath>

namespace {

constexpr int kWarpsPerBlock = 8;

__device__ float warp_max(float value) {
    for (int mask = 16; mask > 0; mask /= 2) value = fmaxf(value, __shfl_xor_sync(0xffffffffu, value, mask));
    return value;
}

__device__ float warp_sum(float value) {
    for (int mask = 16; mask > 0; mask /= 2) value += __shfl_xor_sync(0xffffffffu, value, mask);
    return value;
}

// One warp per row: max, then the sum of exp(z - max), both with butterfly shuffles.
__global__ void cross_entropy_rows(const float* logits, const int* true_labels, float* loss, int N, int C) {
    const int lane = threadIdx.x % 32;
    const int row = blockIdx.x * kWarpsPerBlock + threadIdx.x / 32;
    if (row >= N) return;  // whole warps leave together
    const float* z = logits + static_cast<long long>(row) * C;
    float max = -INFINITY;
    for (int j = lane; j < C; j += 32) max = fmaxf(max, z[j]);
    max = warp_max(max);
    float sum = 0.0f;
    for (int j = lane; j < C; j += 32) sum += expf(z[j] - max);
    sum = warp_sum(sum);
    if (lane == 0) atomicAdd(loss, (max + logf(sum) - z[true_labels[row]]) / N);
}

}  // namespace

extern "C" void solve(const float* logits, const int* true_labels, float* loss, int N, int C) {
    // Missing: cudaMemset(loss, 0, sizeof(float));
    const int blocks = (N + kWarpsPerBlock - 1) / kWarpsPerBlock;
    cross_entropy_rows<<<blocks, kWarpsPerBlock * 32>>>(logits, true_labels, loss, N, C);
}
