// expect: accepted
// step: 2
// Technique: one launch, every logit read once. A grid of exactly the resident blocks; each warp walks rows,
// loading a whole row into registers (C <= 1000: at most 32 values per lane, all loads in flight at once),
// then takes the max and the sum of exp with warp shuffles: one exp per logit, no rescaling. Blocks leave
// partial sums; the last block to finish (atomic ticket after __threadfence) adds them in a fixed order,
// so the result needs no zeroed output and is the same on every run.
#include <cuda_runtime.h>

#include <cmath>

namespace {

constexpr int kWarpsPerBlock = 8;
constexpr int kThreads = kWarpsPerBlock * 32;
constexpr int kMaxC = 1000;
constexpr int kValuesPerLane = (kMaxC + 31) / 32;

__device__ float warp_max(float value) {
    for (int mask = 16; mask > 0; mask /= 2) value = fmaxf(value, __shfl_xor_sync(0xffffffffu, value, mask));
    return value;
}

__device__ float warp_sum(float value) {
    for (int mask = 16; mask > 0; mask /= 2) value += __shfl_xor_sync(0xffffffffu, value, mask);
    return value;
}

__global__ void __launch_bounds__(kThreads)
cross_entropy(const float* logits, const int* true_labels, float* loss, int N, int C, float* block_partials,
              unsigned int* tickets) {
    __shared__ float warp_losses[kWarpsPerBlock];
    __shared__ bool is_last_block;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

    float row_loss = 0.0f;
    for (int row = blockIdx.x * kWarpsPerBlock + warp; row < N; row += gridDim.x * kWarpsPerBlock) {
        const float* z = logits + static_cast<long long>(row) * C;
        const float z_label = lane == 0 ? z[true_labels[row]] : 0.0f;  // issued early, used last
        float values[kValuesPerLane];
#pragma unroll
        for (int k = 0; k < kValuesPerLane; ++k) {
            const int j = lane + 32 * k;
            values[k] = j < C ? z[j] : -INFINITY;
        }
        float max = -INFINITY;
#pragma unroll
        for (int k = 0; k < kValuesPerLane; ++k) max = fmaxf(max, values[k]);
        max = warp_max(max);
        float sum = 0.0f;
#pragma unroll
        for (int k = 0; k < kValuesPerLane; ++k) sum += expf(values[k] - max);  // exp(-inf) = 0 for padding
        sum = warp_sum(sum);
        row_loss += max + logf(sum) - z_label;
    }
    if (lane == 0) warp_losses[warp] = row_loss;
    __syncthreads();

    if (threadIdx.x == 0) {
        float block_loss = 0.0f;
        for (int w = 0; w < kWarpsPerBlock; ++w) block_loss += warp_losses[w];
        block_partials[blockIdx.x] = block_loss;
        __threadfence();  // publish the partial before taking a ticket
        is_last_block = atomicAdd(tickets, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!is_last_block) return;

    // The last block: every other partial is visible. Sum them in a fixed order.
    __threadfence();
    float total = 0.0f;
    for (int b = threadIdx.x; b < gridDim.x; b += kThreads) total += __ldcg(&block_partials[b]);
    total = warp_sum(total);
    if (lane == 0) warp_losses[warp] = total;
    __syncthreads();
    if (threadIdx.x == 0) {
        float sum = 0.0f;
        for (int w = 0; w < kWarpsPerBlock; ++w) sum += warp_losses[w];
        loss[0] = sum / N;
        *tickets = 0;  // ready for the next call
    }
}

}  // namespace

extern "C" void solve(const float* logits, const int* true_labels, float* loss, int N, int C) {
    // Device facts and scratch are kept between calls: the per-block partials and the ticket counter, which
    // the last block resets to 0. None of them holds an answer from one call to the next.
    static float* d_partials = nullptr;
    static unsigned int* d_tickets = nullptr;
    static int partials_capacity = 0;
    static int max_blocks = 0;  // resident blocks: more would only queue behind the first wave
    if (max_blocks == 0) {
        int device = 0, num_sms = 0, blocks_per_sm = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&num_sms, cudaDevAttrMultiProcessorCount, device);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, cross_entropy, kThreads, 0);
        max_blocks = num_sms * blocks_per_sm;
    }
    int blocks = (N + kWarpsPerBlock - 1) / kWarpsPerBlock;
    if (blocks > max_blocks) blocks = max_blocks;
    if (d_tickets == nullptr) {
        cudaMalloc(&d_tickets, sizeof(unsigned int));
        cudaMemset(d_tickets, 0, sizeof(unsigned int));
    }
    if (blocks > partials_capacity) {
        cudaFree(d_partials);
        cudaMalloc(&d_partials, blocks * sizeof(float));
        partials_capacity = blocks;
    }
    cross_entropy<<<blocks, kThreads>>>(logits, true_labels, loss, N, C, d_partials, d_tickets);
}
