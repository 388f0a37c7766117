// expect: accepted
// step: 3
// Technique: read the window's whole span as one aligned int4 stream and mask by column, instead of walking its
// rows. From its first element to its last, a window is one contiguous run of the matrix; the benchmark window
// (rows 0..9998, columns 1..9999) skips one int per 40,000-byte row, so the run is the reduction kernel's
// stream (512 threads, two blocks per SM, four 16-byte loads in flight, a block reads 32 KB contiguous per
// round) and the whole-matrix window is exactly that stream. An element of the run is in the window exactly
// when its column is. No division in the loop: a thread's next vector is always the same distance ahead, so
// it carries each load's column forward with an add and a compare. One launch, no memset: per-block partials
// and a last-block finish.
#include <cuda_runtime.h>
#include <cstdint>

namespace {

constexpr int kThreads = 512;
constexpr int kBlocksPerSm = 2;
constexpr int kUnroll = 4;                  // int4 loads issued back to back before any addition uses them
constexpr int kChunk = kThreads * kUnroll;  // vectors one block covers per round
constexpr int kMaxBlocks = 1024;

__device__ int g_block_partials[kMaxBlocks];
__device__ unsigned int g_blocks_done = 0;  // the last block of every launch puts it back to 0

struct Window {
    int M;                             // columns per row
    int s_col, cols_minus_1, fast_hi;  // columns [s_col, s_col + cols_minus_1]; fast_hi = e_col - 3
};

__device__ __forceinline__ bool in_window(const Window& w, int col) {
    return static_cast<unsigned>(col - w.s_col) <= static_cast<unsigned>(w.cols_minus_1);
}

// The window's part of the four ints starting at column col. Almost every vector lies whole inside one row's
// column range (the fast test); only those that touch a row's edge take the element-by-element path.
__device__ __forceinline__ int masked_sum(const Window& w, int4 x, int col) {
    if (col >= w.s_col && col <= w.fast_hi) return (x.x + x.y) + (x.z + x.w);
    const int v[4] = {x.x, x.y, x.z, x.w};
    int sum = 0;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        if (in_window(w, col)) sum += v[j];
        ++col;
        while (col >= w.M) col -= w.M;  // at most once when M >= 4; up to three times for M = 1
    }
    return sum;
}

// Moves a column forward by a fixed distance, given as dc = distance mod M.
__device__ __forceinline__ void advance(const Window& w, int& col, int dc) {
    col += dc;
    if (col >= w.M) col -= w.M;
}

// Flat indices stay below 10^8 < 2^31, so 32-bit division is enough.
__device__ __forceinline__ int column(const Window& w, unsigned e) {
    return static_cast<int>(e % static_cast<unsigned>(w.M));
}

__device__ int block_sum(int value) {
    __shared__ int warp_sums[kThreads / 32];
    for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = value;
    __syncthreads();
    value = threadIdx.x < kThreads / 32 ? warp_sums[threadIdx.x] : 0;
    if (threadIdx.x < 32)
        for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
    __syncthreads();  // warp_sums is reused by the last block's second call
    return value;
}

// The span is input[first .. last]. Vectors [0, num_vectors) of `span4` are its aligned int4s; the element
// before vector 0 has flat index vec0_elem - 1. head_end and tail_begin bound the (at most 3 + 3) scalars
// outside them.
__global__ void __launch_bounds__(kThreads)
    span_sum_kernel(const int* __restrict__ input, const int4* __restrict__ span4, int* __restrict__ output, Window w,
                    int num_vectors, long long vec0_elem, long long first, long long head_end, long long tail_begin,
                    long long last, int dc) {
    int v = blockIdx.x * kChunk + threadIdx.x;
    int col[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) col[u] = column(w, static_cast<unsigned>(vec0_elem + 4LL * (v + u * kThreads)));

    int sum = 0;
    for (; v + (kUnroll - 1) * kThreads < num_vectors; v += gridDim.x * kChunk) {
        int4 x[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) x[u] = __ldcs(span4 + v + u * kThreads);  // streamed: evict-first
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            sum += masked_sum(w, x[u], col[u]);
            advance(w, col[u], dc);
        }
    }
    // The one partial round (at most one per block): the same four positions, each load predicated.
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
        if (v + u * kThreads < num_vectors) sum += masked_sum(w, __ldcs(span4 + v + u * kThreads), col[u]);

    // Scalars before the first and after the last whole vector.
    if (blockIdx.x == 0 && threadIdx.x < 8) {
        const long long e = threadIdx.x < 4 ? first + threadIdx.x : tail_begin + (threadIdx.x - 4);
        const bool inside = threadIdx.x < 4 ? e < head_end : e <= last;
        if (inside && in_window(w, column(w, static_cast<unsigned>(e)))) sum += input[e];
    }

    sum = block_sum(sum);
    __shared__ bool is_last_block;
    if (threadIdx.x == 0) {
        g_block_partials[blockIdx.x] = sum;
        __threadfence();
        is_last_block = atomicAdd(&g_blocks_done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!is_last_block) return;
    __threadfence();
    int total = 0;
    for (int i = threadIdx.x; i < gridDim.x; i += kThreads) total += __ldcg(&g_block_partials[i]);
    total = block_sum(total);
    if (threadIdx.x == 0) {
        output[0] = total;
        g_blocks_done = 0;
    }
}

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int M, int S_ROW, int E_ROW, int S_COL, int E_COL) {
    (void)N;
    static int max_blocks = 0;
    if (max_blocks == 0) {
        int device = 0, sms = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        max_blocks = sms * kBlocksPerSm < kMaxBlocks ? sms * kBlocksPerSm : kMaxBlocks;
    }
    const long long first = static_cast<long long>(S_ROW) * M + S_COL;
    const long long last = static_cast<long long>(E_ROW) * M + E_COL;

    // Aligned vectors are counted from the 16-byte boundary at or below input (mis ints below it).
    const long long mis = static_cast<long long>(reinterpret_cast<std::uintptr_t>(input) % 16) / 4;
    const long long vs = (first + mis + 3) / 4;  // first whole vector
    long long ve = (last + mis + 1) / 4;         // one past the last whole vector
    if (ve < vs) ve = vs;
    const long long head_end = 4 * vs - mis < last + 1 ? 4 * vs - mis : last + 1;
    const long long tail_begin = 4 * ve - mis;
    const int num_vectors = static_cast<int>(ve - vs);
    const int4* span4 = reinterpret_cast<const int4*>(input - mis) + vs;

    int blocks = (num_vectors + kChunk - 1) / kChunk;
    if (blocks > max_blocks) blocks = max_blocks;
    if (blocks < 1) blocks = 1;

    Window w;
    w.M = M;
    w.s_col = S_COL;
    w.cols_minus_1 = E_COL - S_COL;
    w.fast_hi = E_COL - 3;
    // A thread's next round is this many elements further on.
    const long long distance = 4LL * blocks * kChunk;
    const int dc = static_cast<int>(distance % M);
    span_sum_kernel<<<blocks, kThreads>>>(input, span4, output, w, num_vectors, 4 * vs - mis, first, head_end,
                                          tail_begin, last, dc);
}
