// expect: accepted
// step: 2
// Technique: one launch at full bandwidth for any window shape: the window is cut into work items
// of (row, 2 KB chunk); a warp reads a chunk with int4 loads (four in flight per lane), the first
// chunk of each row also adds the scalars before the row's first 16-byte boundary and after its
// last; the last block to finish (an atomic ticket) adds the per-block partials into output[0].
#include <cstdint>
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kUnroll = 4;
constexpr int kChunkVectors = 32 * kUnroll;  // int4 vectors per work item: 2 KB
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

struct Window {
    const int* input;
    int M, S_ROW, S_COL;
    int width;           // E_COL - S_COL + 1
    int chunks_per_row;  // enough 2 KB chunks for the widest aligned body of a row
    long long num_items;  // rows * chunks_per_row
};

__global__ void __launch_bounds__(kThreads) window_sum(Window w, int* output) {
    const int lane = threadIdx.x % 32;
    const long long num_warps = static_cast<long long>(gridDim.x) * kWarps;
    int sum = 0;
    for (long long item = blockIdx.x * kWarps + threadIdx.x / 32; item < w.num_items; item += num_warps) {
        const int row = static_cast<int>(item / w.chunks_per_row);
        const int chunk = static_cast<int>(item % w.chunks_per_row);
        const int* segment = w.input + static_cast<long long>(w.S_ROW + row) * w.M + w.S_COL;
        // When M is not a multiple of 4 every row starts at a different offset from a 16-byte boundary.
        const int misalignment = static_cast<int>(reinterpret_cast<std::uintptr_t>(segment) % 16);
        const int head = min(w.width, misalignment == 0 ? 0 : (16 - misalignment) / 4);
        const int num_vectors = (w.width - head) / 4;
        const int4* vectors = reinterpret_cast<const int4*>(segment + head);

        // All kUnroll loads are issued before any is used; lanes past the row's body load nothing.
        const int first = chunk * kChunkVectors + lane;
        int4 q[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            const int v = first + 32 * u;
            q[u] = v < num_vectors ? __ldcs(vectors + v) : make_int4(0, 0, 0, 0);
        }
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) sum += sum4(q[u]);

        if (chunk == 0) {
            const int tail = (w.width - head) % 4;
            if (lane < head) sum += segment[lane];
            if (lane < tail) sum += segment[head + 4 * num_vectors + lane];
        }
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
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, window_sum, kThreads, 0);
        blocks = sms * per_sm < kMaxBlocks ? sms * per_sm : kMaxBlocks;
    }
    return blocks;
}

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int M, int S_ROW, int E_ROW, int S_COL,
                      int E_COL) {
    (void)N;
    Window w;
    w.input = input;
    w.M = M;
    w.S_ROW = S_ROW;
    w.S_COL = S_COL;
    w.width = E_COL - S_COL + 1;
    const int max_vectors = w.width / 4;  // no row's aligned body holds more
    w.chunks_per_row = max_vectors == 0 ? 1 : (max_vectors + kChunkVectors - 1) / kChunkVectors;
    w.num_items = static_cast<long long>(E_ROW - S_ROW + 1) * w.chunks_per_row;

    long long blocks = (w.num_items + kWarps - 1) / kWarps;
    if (blocks > resident_blocks()) blocks = resident_blocks();  // fill the GPU once; the loop does the rest
    window_sum<<<static_cast<int>(blocks), kThreads>>>(w, output);
}
