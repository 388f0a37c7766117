// expect: accepted
// step: 4
// Technique: step 3 with a cheaper finish and a cheaper exp. The finish is one atomic: each block adds
// its partial loss, in fixed point (2^-20), and a count of 1 to the same 64-bit word (count in the low
// 16 bits, sum above); the block that sees the count reach gridDim.x - 1 holds the whole sum in the value
// it got back, writes the mean and resets the word. No __threadfence and no second trip to read the
// partials back, each of which waited behind the SM's queued loads; and integer adds give the same sum
// in any order, so every run returns the same loss. exp(x - max) is computed as the hardware does it,
// 2^(x * log2 e - max * log2 e): one fused multiply-add and one MUFU.EX2, where expf adds a range
// reduction. 48 registers let five blocks of eight warps share an SM.
// Why not 95 % of the ceiling: the ceiling is measured over 1 GiB; at 10000 x 1000 the logits are 40 MB,
// 13 µs at that ceiling, and every call also pays a fixed cost: on the H100 an empty kernel timed like
// solve takes 3.2 µs, and a bare read sweep of 40 MB 16.7 µs (tests/gpu/size_ceiling.cu), 79 % of the
// ceiling. This kernel takes 18.1 µs (bench), 1.4 µs over that read; step 3 20.0 µs.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

namespace {

constexpr int kWarpsPerBlock = 8;
constexpr int kThreads = kWarpsPerBlock * 32;
constexpr int kMaxC = 1000;
constexpr int kQuadsPerLane = (kMaxC + 127) / 128;  // 8: a row of up to 1000 logits as float4s per lane
constexpr float kLog2e = 1.4426950408889634f;
constexpr float kFixedOne = 1048576.0f;  // 2^20: the block partials' fixed-point unit
constexpr unsigned long long kCountBits = 16;

__device__ float warp_max(float value) {
    for (int mask = 16; mask > 0; mask /= 2) value = fmaxf(value, __shfl_xor_sync(0xffffffffu, value, mask));
    return value;
}

__device__ float warp_sum(float value) {
    for (int mask = 16; mask > 0; mask /= 2) value += __shfl_xor_sync(0xffffffffu, value, mask);
    return value;
}

__device__ float exp2_approx(float x) {  // MUFU.EX2: 2^x to ~2 ulp, 0 for -inf
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

__device__ float exp_less(float value, float max_log2e) { return exp2_approx(fmaf(value, kLog2e, -max_log2e)); }

// The row's loss, max + log(sum of exp(z - max)) - z[label], from one lane's share of the row (padding -inf).
__device__ float row_loss(const float4 (&v)[kQuadsPerLane], float z_label) {
    float max = -INFINITY;
#pragma unroll
    for (int k = 0; k < kQuadsPerLane; ++k) max = fmaxf(max, fmaxf(fmaxf(v[k].x, v[k].y), fmaxf(v[k].z, v[k].w)));
    max = warp_max(max);
    const float max_log2e = max * kLog2e;
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < kQuadsPerLane; ++k)
        sum += exp_less(v[k].x, max_log2e) + exp_less(v[k].y, max_log2e) + exp_less(v[k].z, max_log2e) +
               exp_less(v[k].w, max_log2e);
    sum = warp_sum(sum);
    return max + logf(sum) - z_label;
}

template <int W>
__global__ void __launch_bounds__(kThreads)
cross_entropy(const float* logits, const int* true_labels, float* loss, int N, int C, unsigned long long* total) {
    __shared__ float warp_losses[kWarpsPerBlock];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

    float warp_loss = 0.0f;
    for (int row = blockIdx.x * kWarpsPerBlock + warp; row < N; row += gridDim.x * kWarpsPerBlock) {
        const float* z = logits + static_cast<long long>(row) * C;
        const float z_label = lane == 0 ? z[true_labels[row]] : 0.0f;  // issued early, used last
        float4 v[kQuadsPerLane];
        if (W == 4) {  // rows 16-byte aligned: a quarter of the load instructions, all in flight at once
            const float4* z4 = reinterpret_cast<const float4*>(z);
#pragma unroll
            for (int k = 0; k < kQuadsPerLane; ++k) {
                const int j = lane + 32 * k;
                v[k] = j < C / 4 ? __ldg(z4 + j) : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
            }
        } else {  // lane + 32 * (4k + i) into v[k]'s i-th component: the order does not matter to max and sum
#pragma unroll
            for (int k = 0; k < kQuadsPerLane; ++k) {
                const int j = lane + 128 * k;
                v[k] = make_float4(j < C ? z[j] : -INFINITY, j + 32 < C ? z[j + 32] : -INFINITY,
                                   j + 64 < C ? z[j + 64] : -INFINITY, j + 96 < C ? z[j + 96] : -INFINITY);
            }
        }
        warp_loss += row_loss(v, z_label);
    }
    if (lane == 0) warp_losses[warp] = warp_loss;
    __syncthreads();
    if (threadIdx.x != 0) return;

    float block_loss = 0.0f;
    for (int w = 0; w < kWarpsPerBlock; ++w) block_loss += warp_losses[w];
    // Every row's loss is >= 0 and at most (largest logit - smallest) + log C; the sum's 48 bits hold
    // 2^28 (2.7e8) of loss, 26843 per row at N = 10000. A sum that overflowed would wrap, never touch
    // the count.
    const unsigned long long mine =
        (static_cast<unsigned long long>(llrintf(block_loss * kFixedOne)) << kCountBits) + 1;
    const unsigned long long before = atomicAdd(total, mine);
    if ((before & ((1ull << kCountBits) - 1)) != gridDim.x - 1u) return;
    const unsigned long long sum = (before + mine) >> kCountBits;
    loss[0] = static_cast<float>(static_cast<double>(sum) / kFixedOne / N);
    *total = 0;  // ready for the next call, which is queued behind this kernel
}

template <int W>
void launch(const float* logits, const int* true_labels, float* loss, int N, int C) {
    // Kept between calls: the running total, which the last block resets to 0, and the grid size.
    static unsigned long long* d_total = nullptr;
    static int max_blocks = 0;  // resident blocks, at most 2^16 - 1 for the count's 16 bits
    if (max_blocks == 0) {
        int device = 0, num_sms = 0, blocks_per_sm = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&num_sms, cudaDevAttrMultiProcessorCount, device);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, cross_entropy<W>, kThreads, 0);
        max_blocks = num_sms * blocks_per_sm;
        if (max_blocks > (1 << kCountBits) - 1) max_blocks = (1 << kCountBits) - 1;
    }
    if (d_total == nullptr) {
        cudaMalloc(&d_total, sizeof(unsigned long long));
        cudaMemset(d_total, 0, sizeof(unsigned long long));
    }
    int blocks = (N + kWarpsPerBlock - 1) / kWarpsPerBlock;
    if (blocks > max_blocks) blocks = max_blocks;
    cross_entropy<W><<<blocks, kThreads>>>(logits, true_labels, loss, N, C, d_total);
}

}  // namespace

extern "C" void solve(const float* logits, const int* true_labels, float* loss, int N, int C) {
    if (C % 4 == 0 && reinterpret_cast<std::uintptr_t>(logits) % 16 == 0)
        launch<4>(logits, true_labels, loss, N, C);
    else
        launch<1>(logits, true_labels, loss, N, C);
}
