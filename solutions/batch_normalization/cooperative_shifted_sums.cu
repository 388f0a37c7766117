// expect: accepted
// step: 2
// Technique: one cooperative launch that spreads every column over many blocks. Each block owns 32 columns
// of one chunk of rows and adds x - K and (x - K)^2 with K = the column's first value (shifted sums: one
// pass, yet no catastrophic cancellation, because K lies inside the column's range). Chunk partials go
// to scratch, grid.sync() waits for all of them, and each block then merges its columns' partials and
// normalises its own chunk, whose second read mostly hits the 50 MB L2.
// Why 57 % of the ceiling and not 95: no output can be written before every row is read (each column's
// mean needs all of it), so the 41 MB read and the 41 MB write cannot overlap as a copy's do, and at this
// size a call's fixed cost counts (an empty kernel takes 3.2 µs). On the H100, timed like solve
// (tests/gpu/size_ceiling.cu): a read sweep of 41 MB takes 16.9 µs, a copy of 41 MB (82 MB moved, this problem's bytes) 26.1 µs
// (102 %; 27.0 µs when it issued four loads before four stores; an earlier session's run read 22.2 and 32.8 µs); this kernel takes 46.6 µs. Two ordinary launches with
// L2 evict-first hints on the second pass measured the same (46.7 µs).
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cmath>

namespace cg = cooperative_groups;

namespace {

constexpr int kColumns = 32;   // blockDim.x: a warp reads 32 neighbouring floats of a row
constexpr int kRowLanes = 8;   // blockDim.y
constexpr int kThreads = kColumns * kRowLanes;
constexpr int kUnroll = 4;     // rows loaded together per thread, to keep more loads in flight

struct Partial {
    float shifted_sum;      // sum of (x - K)
    float shifted_squares;  // sum of (x - K)^2
};

// Adds one Partial per row lane into a per-column total (valid for threadIdx.y == 0).
__device__ Partial sum_over_row_lanes(Partial value) {
    __shared__ Partial shared[kRowLanes][kColumns];
    shared[threadIdx.y][threadIdx.x] = value;
    __syncthreads();
    Partial total = {0.0f, 0.0f};
    if (threadIdx.y == 0)
        for (int lane = 0; lane < kRowLanes; ++lane) {
            total.shifted_sum += shared[lane][threadIdx.x].shifted_sum;
            total.shifted_squares += shared[lane][threadIdx.x].shifted_squares;
        }
    __syncthreads();
    return total;
}

__global__ void __launch_bounds__(kThreads)
batch_norm(const float* __restrict__ input, const float* __restrict__ gamma, const float* __restrict__ beta,
           float* __restrict__ output, int N, int C, float eps,
           int num_chunks, int rows_per_chunk, Partial* chunk_partials) {
    cg::grid_group grid = cg::this_grid();
    __shared__ float s_mean[kColumns], s_scale[kColumns];
    const int tile = blockIdx.x / num_chunks, chunk = blockIdx.x % num_chunks;
    const int c = tile * kColumns + threadIdx.x;
    const bool in_range = c < C;  // idle columns still reach every barrier
    const int row_begin = chunk * rows_per_chunk;
    const int row_end = min(N, row_begin + rows_per_chunk);
    const float shift = in_range ? input[c] : 0.0f;  // K: row 0 of the column, the same in every chunk

    // Phase 1: shifted sums over this chunk's rows.
    Partial mine = {0.0f, 0.0f};
    if (in_range) {
        int r = row_begin + threadIdx.y;
        for (; r + (kUnroll - 1) * kRowLanes < row_end; r += kUnroll * kRowLanes) {
            float x[kUnroll];
#pragma unroll
            for (int k = 0; k < kUnroll; ++k) x[k] = input[static_cast<long long>(r + k * kRowLanes) * C + c];
#pragma unroll
            for (int k = 0; k < kUnroll; ++k) {
                const float d = x[k] - shift;
                mine.shifted_sum += d;
                mine.shifted_squares += d * d;
            }
        }
        for (; r < row_end; r += kRowLanes) {
            const float d = input[static_cast<long long>(r) * C + c] - shift;
            mine.shifted_sum += d;
            mine.shifted_squares += d * d;
        }
    }
    const Partial chunk_total = sum_over_row_lanes(mine);
    if (threadIdx.y == 0 && in_range) chunk_partials[static_cast<long long>(chunk) * C + c] = chunk_total;

    grid.sync();  // every chunk's partials are written and visible

    // Phase 2: merge this tile's partials over all chunks (the row lanes share the chunks).
    Partial merged = {0.0f, 0.0f};
    if (in_range)
        for (int k = threadIdx.y; k < num_chunks; k += kRowLanes) {
            const Partial p = chunk_partials[static_cast<long long>(k) * C + c];
            merged.shifted_sum += p.shifted_sum;
            merged.shifted_squares += p.shifted_squares;
        }
    const Partial column = sum_over_row_lanes(merged);
    if (threadIdx.y == 0 && in_range) {
        const float mean_shift = column.shifted_sum / N;  // mean - K
        const float variance = fmaxf(column.shifted_squares / N - mean_shift * mean_shift, 0.0f);
        s_mean[threadIdx.x] = shift + mean_shift;
        s_scale[threadIdx.x] = gamma[c] / sqrtf(variance + eps);
    }
    __syncthreads();
    if (!in_range) return;

    // Normalise as (x - mean) * scale + beta: folding it into x * scale + (beta - mean * scale) would
    // cancel badly when the variance is near 0 and scale near gamma / sqrt(eps).
    const float mean = s_mean[threadIdx.x], scale = s_scale[threadIdx.x], offset = beta[c];
    int r = row_begin + threadIdx.y;
    for (; r + (kUnroll - 1) * kRowLanes < row_end; r += kUnroll * kRowLanes) {
        float x[kUnroll];
#pragma unroll
        for (int k = 0; k < kUnroll; ++k) x[k] = input[static_cast<long long>(r + k * kRowLanes) * C + c];
#pragma unroll
        for (int k = 0; k < kUnroll; ++k)
            output[static_cast<long long>(r + k * kRowLanes) * C + c] = (x[k] - mean) * scale + offset;
    }
    for (; r < row_end; r += kRowLanes) {
        const long long i = static_cast<long long>(r) * C + c;
        output[i] = (input[i] - mean) * scale + offset;
    }
}

}  // namespace

extern "C" void solve(const float* input, const float* gamma, const float* beta, float* output, int N, int C,
                      float eps) {
    // Device facts and scratch are cached between calls; the scratch never carries an answer.
    static int max_blocks = 0;
    static Partial* d_partials = nullptr;
    static long long partials_capacity = 0;
    if (max_blocks == 0) {
        int device = 0, num_sms = 0, blocks_per_sm = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&num_sms, cudaDevAttrMultiProcessorCount, device);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, batch_norm, kThreads, 0);
        max_blocks = num_sms * blocks_per_sm;  // a cooperative grid must be fully resident
    }
    // As many row chunks per tile as the resident grid allows, and never a chunk thinner than kRowLanes.
    const int tiles = (C + kColumns - 1) / kColumns;
    int num_chunks = max_blocks / tiles;
    const int max_chunks = (N + kRowLanes - 1) / kRowLanes;
    if (num_chunks > max_chunks) num_chunks = max_chunks;
    if (num_chunks < 1) num_chunks = 1;
    int rows_per_chunk = (N + num_chunks - 1) / num_chunks;
    num_chunks = (N + rows_per_chunk - 1) / rows_per_chunk;  // drop chunks that would be empty

    const long long partials_needed = static_cast<long long>(num_chunks) * C;
    if (partials_needed > partials_capacity) {
        cudaFree(d_partials);
        cudaMalloc(&d_partials, partials_needed * sizeof(Partial));
        partials_capacity = partials_needed;
    }
    void* args[] = {&input, &gamma, &beta, &output, &N, &C, &eps, &num_chunks, &rows_per_chunk, &d_partials};
    cudaLaunchCooperativeKernel(reinterpret_cast<void*>(batch_norm), dim3(tiles * num_chunks),
                                dim3(kColumns, kRowLanes), args);
}
