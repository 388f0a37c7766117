// expect: accepted
// step: 3
// Technique: the one-launch registers kernel with 16-byte loads. When C % 4 == 0 every row starts 16-byte
// aligned, so a warp loads a row of up to 1000 logits as at most 8 float4s per lane, all in flight at once
// (a quarter of the load instructions of the scalar kernel), then max, sum of exp and the last-block
// finish as before.
// Why not 95 % of the ceiling: at 10000 x 1000 the logits are 40 MB, 13 µs at the ceiling measured over
// 1 GiB, and at this size a call's fixed cost weighs too (an empty kernel timed like solve: 3.2 µs). On the
// H100 a bare read sweep of 40 MB, timed like solve (tests/gpu/size_ceiling.cu), takes 16.5 µs (79 % of
// the ceiling; an earlier session's run read 21.9 µs); this kernel takes 20.0 µs (65 %), 3.5 µs short of
// that read. About 2 µs of them are the finish (the ticket's fence and reading the partials back wait
// behind the SM's queued loads) and 1 µs expf: step 4 takes both off.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

namespace {

constexpr int kWarpsPerBlock = 8;
constexpr int kThreads = kWarpsPerBlock * 32;
constexpr int kMaxC = 1000;
constexpr int kValuesPerLane = (kMaxC + 127) / 128 * 4;  // 32: whole float4s per lane

__device__ float warp_max(float value) {
    for (int mask = 16; mask > 0; mask /= 2) value = fmaxf(value, __shfl_xor_sync(0xffffffffu, value, mask));
    return value;
}

__device__ float warp_sum(float value) {
    for (int mask = 16; mask > 0; mask /= 2) value += __shfl_xor_sync(0xffffffffu, value, mask);
    return value;
}

template <int W>
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
        if (W == 4) {  // rows 16-byte aligned: a quarter of the load instructions, all in flight at once
            const float4* z4 = reinterpret_cast<const float4*>(z);
#pragma unroll
            for (int k = 0; k < kValuesPerLane / 4; ++k) {
                const int j = lane + 32 * k;
                const float4 v = j < C / 4 ? __ldg(z4 + j) : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
                values[4 * k] = v.x, values[4 * k + 1] = v.y, values[4 * k + 2] = v.z, values[4 * k + 3] = v.w;
            }
        } else {
#pragma unroll
            for (int k = 0; k < kValuesPerLane; ++k) {
                const int j = lane + 32 * k;
                values[k] = j < C ? z[j] : -INFINITY;
            }
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

template <int W>
void launch(const float* logits, const int* true_labels, float* loss, int N, int C) {
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
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, cross_entropy<W>, kThreads, 0);
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
    cross_entropy<W><<<blocks, kThreads>>>(logits, true_labels, loss, N, C, d_partials, d_tickets);
}

}  // namespace

extern "C" void solve(const float* logits, const int* true_labels, float* loss, int N, int C) {
    if (C % 4 == 0 && reinterpret_cast<std::uintptr_t>(logits) % 16 == 0)
        launch<4>(logits, true_labels, loss, N, C);
    else
        launch<1>(logits, true_labels, loss, N, C);
}
