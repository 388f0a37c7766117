// expect: accepted
// step: 4
// Technique: shrink the merge, not only the counting. Step 3 runs as many 256-thread blocks as fit (about 900
// at 1024 bins), and each ends with up to 1024 global atomics on the same 4 KB: close to a million L2 atomics
// that all queue in the last microseconds of the kernel. Here one wave of 264 blocks of 512 threads (two per
// SM, the reduction kernel's shape: four int4 loads in flight, a block reads 32 KB contiguous per round)
// counts into one shared copy per two warps (32 KB at 1024 bins), and each block adds its bins into one of
// eight replicas of a module histogram (a quarter of the atomics, spread over eight times the L2 lines).
// The last block to finish adds the replicas into the output and zeroes them: no memset launch. A warp whose
// 128 values are all one bin adds them with a single atomic, which keeps the one-bin input fast.
#include <cuda_runtime.h>
#include <cstdint>

namespace {

constexpr int kThreads = 512;
constexpr int kBlocksPerSm = 2;
constexpr int kUnroll = 4;  // int4 loads issued back to back before the first is counted
constexpr int kChunk = kThreads * kUnroll;
constexpr int kWarpsPerCopy = 2;
constexpr int kCopies = kThreads / 32 / kWarpsPerCopy;
constexpr int kMaxBins = 1024;
constexpr int kReplicas = 8;

__device__ int g_counts[kReplicas][kMaxBins];  // zero at load; the last block of every launch zeroes it again
__device__ unsigned int g_blocks_done = 0;     // the last block of every launch puts it back to 0

// Counts the four values of v (valid = false for a lane past the end). Every lane of the warp calls it.
__device__ __forceinline__ void count4(int* copy, int4 v, bool valid) {
    const int first = __shfl_sync(0xffffffffu, v.x, 0);
    const bool same = valid && v.x == first && v.y == first && v.z == first && v.w == first;
    if (__all_sync(0xffffffffu, same)) {
        if (threadIdx.x % 32 == 0) atomicAdd(&copy[first], 4 * 32);
        return;
    }
    if (!valid) return;
    atomicAdd(&copy[v.x], 1);
    atomicAdd(&copy[v.y], 1);
    atomicAdd(&copy[v.z], 1);
    atomicAdd(&copy[v.w], 1);
}

// input[0..head) are the scalars before the first 16-byte boundary, then num_vectors aligned int4, then the
// (at most 3) scalars after them.
__global__ void __launch_bounds__(kThreads) histogram_kernel(const int* __restrict__ input, int* __restrict__ histogram,
                                                             int N, int num_bins, int head, int num_vectors) {
    extern __shared__ int copies[];  // kCopies copies of num_bins counters
    for (int b = threadIdx.x; b < kCopies * num_bins; b += kThreads) copies[b] = 0;
    __syncthreads();

    int* mine = copies + (threadIdx.x / 32 / kWarpsPerCopy) * num_bins;
    const int4* input4 = reinterpret_cast<const int4*>(input + head);
    // Whole rounds: the round's start is the same for the whole block, so every warp votes with all lanes.
    int base = blockIdx.x * kChunk;
    for (; base + kChunk <= num_vectors; base += gridDim.x * kChunk) {
        int4 v[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) v[u] = __ldcs(&input4[base + u * kThreads + threadIdx.x]);
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) count4(mine, v[u], true);
    }
    // The one partial round (at most one block has it), every load predicated and issued before counting.
    if (base < num_vectors) {
        int4 v[kUnroll];
        bool valid[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            const int i = base + u * kThreads + threadIdx.x;
            valid[u] = i < num_vectors;
            v[u] = valid[u] ? __ldcs(&input4[i]) : make_int4(0, 0, 0, 0);
        }
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) count4(mine, v[u], valid[u]);
    }
    // The head (before the first 16-byte boundary) and the tail (after the last whole int4): at most 3 + 3.
    if (blockIdx.x == 0) {
        if (threadIdx.x < head) atomicAdd(&mine[input[threadIdx.x]], 1);
        const int tail = head + 4 * num_vectors + threadIdx.x;
        if (threadIdx.x < 4 && tail < N) atomicAdd(&mine[input[tail]], 1);
    }
    __syncthreads();

    int* replica = g_counts[blockIdx.x % kReplicas];
    for (int b = threadIdx.x; b < num_bins; b += kThreads) {
        int count = 0;
#pragma unroll
        for (int c = 0; c < kCopies; ++c) count += copies[c * num_bins + b];
        if (count != 0) atomicAdd(&replica[b], count);
    }
    __threadfence();  // this block's counts are in g_counts before its ticket is taken
    __syncthreads();
    __shared__ bool is_last_block;
    if (threadIdx.x == 0) is_last_block = atomicAdd(&g_blocks_done, 1u) == gridDim.x - 1;
    __syncthreads();
    if (!is_last_block) return;
    __threadfence();
    for (int b = threadIdx.x; b < num_bins; b += kThreads) {
        int parts[kReplicas];
#pragma unroll
        for (int r = 0; r < kReplicas; ++r) parts[r] = __ldcg(&g_counts[r][b]);  // all eight loads in flight
        int total = 0;
#pragma unroll
        for (int r = 0; r < kReplicas; ++r) {
            total += parts[r];
            g_counts[r][b] = 0;
        }
        histogram[b] = total;
    }
    if (threadIdx.x == 0) g_blocks_done = 0;
}

}  // namespace

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
    static int max_blocks = 0;
    if (max_blocks == 0) {
        int device = 0, sms = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        max_blocks = sms * kBlocksPerSm;
    }
    const size_t shared_bytes = static_cast<size_t>(kCopies) * num_bins * sizeof(int);  // at most 32 KB
    const int misalignment = static_cast<int>(reinterpret_cast<std::uintptr_t>(input) % 16) / 4;
    const int head = misalignment == 0 ? 0 : (4 - misalignment < N ? 4 - misalignment : N);
    const int num_vectors = (N - head) / 4;
    int blocks = (num_vectors + kChunk - 1) / kChunk;
    if (blocks > max_blocks) blocks = max_blocks;
    if (blocks < 1) blocks = 1;
    histogram_kernel<<<blocks, kThreads, shared_bytes>>>(input, histogram, N, num_bins, head, num_vectors);
}
