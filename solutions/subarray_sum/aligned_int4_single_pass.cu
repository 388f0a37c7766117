// expect: accepted
// step: 2
// Technique: one launch at full bandwidth over a range that starts anywhere: up to three scalar
// loads reach the first 16-byte boundary, int4 loads (four in flight per thread per step) cover
// the body, scalars finish the tail; the last block to finish (an atomic ticket) adds the
// per-block partials and writes output[0], so no memset launch is needed.
#include <cstdint>
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kUnroll = 4;
constexpr int kMaxBlocks = 2048;

__device__ int g_block_sums[kMaxBlocks];    // scratch: one partial per block of the current launch
__device__ unsigned int g_blocks_done = 0;  // the last block of every launch puts it back to 0

__device__ __forceinline__ int sum4(int4 v) { return (v.x + v.y) + (v.z + v.w); }

__device__ __forceinline__ int warp_sum(int value) {
    for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
    return value;
}

// Sum of one value per thread; the result is valid in thread 0.
__device__ int block_sum(int value) {
    __shared__ int warp_sums[kWarps];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    value = warp_sum(value);
    if (lane == 0) warp_sums[warp] = value;
    __syncthreads();
    value = threadIdx.x < kWarps ? warp_sums[threadIdx.x] : 0;
    return warp == 0 ? warp_sum(value) : 0;
}

// The range is split as [head scalars][num_vectors aligned int4][tail scalars].
struct Split {
    const int* head;
    int head_count;
    const int4* vectors;
    long long num_vectors;
    const int* tail;
    int tail_count;
};

__global__ void __launch_bounds__(kThreads) range_sum(Split range, int* output) {
    const long long stride = static_cast<long long>(gridDim.x) * kThreads;
    long long v = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x;
    int sum = 0;
    // Issue all kUnroll loads before using any, so each thread keeps 64 bytes in flight.
    for (; v + (kUnroll - 1) * stride < range.num_vectors; v += kUnroll * stride) {
        int4 q[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) q[u] = __ldcs(range.vectors + v + u * stride);  // read once
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) sum += sum4(q[u]);
    }
    for (; v < range.num_vectors; v += stride) sum += sum4(__ldcs(range.vectors + v));
    if (blockIdx.x == 0) {
        if (threadIdx.x < range.head_count) sum += range.head[threadIdx.x];
        if (threadIdx.x < range.tail_count) sum += range.tail[threadIdx.x];
    }

    sum = block_sum(sum);
    __shared__ bool is_last_block;
    if (threadIdx.x == 0) {
        g_block_sums[blockIdx.x] = sum;
        __threadfence();  // make the partial visible to every block before taking a ticket
        is_last_block = atomicAdd(&g_blocks_done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!is_last_block) return;

    // All other blocks have published their partials; __ldcg reads them from L2, never a stale L1.
    int total = 0;
    for (int b = threadIdx.x; b < gridDim.x; b += kThreads) total += __ldcg(&g_block_sums[b]);
    total = block_sum(total);
    if (threadIdx.x == 0) {
        *output = total;
        g_blocks_done = 0;
    }
}

int resident_blocks() {
    static int blocks = 0;  // a property of the device, not of any input
    if (blocks == 0) {
        int device = 0, sms = 0, per_sm = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, range_sum, kThreads, 0);
        blocks = sms * per_sm < kMaxBlocks ? sms * per_sm : kMaxBlocks;
    }
    return blocks;
}

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int S, int E) {
    (void)N;
    const int* first = input + S;
    const long long length = static_cast<long long>(E) - S + 1;
    // Elements before the first 16-byte boundary (0 to 3), never more than the range holds.
    const auto misalignment = reinterpret_cast<std::uintptr_t>(first) % 16;
    long long head_count = misalignment == 0 ? 0 : (16 - misalignment) / sizeof(int);
    if (head_count > length) head_count = length;

    Split range;
    range.head = first;
    range.head_count = static_cast<int>(head_count);
    range.vectors = reinterpret_cast<const int4*>(first + head_count);
    range.num_vectors = (length - head_count) / 4;
    range.tail = first + head_count + 4 * range.num_vectors;
    range.tail_count = static_cast<int>((length - head_count) % 4);

    long long blocks = (range.num_vectors + kThreads - 1) / kThreads;
    if (blocks < 1) blocks = 1;
    if (blocks > resident_blocks()) blocks = resident_blocks();  // fill the GPU once; the loop does the rest
    range_sum<<<static_cast<int>(blocks), kThreads>>>(range, output);
}
