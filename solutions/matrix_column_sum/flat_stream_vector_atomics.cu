// expect: accepted
// step: 4
// Technique: read the matrix as the reduction kernel reads an array, one flat stream of float4s, and let the
// grid's size keep the columns apart. With T threads striding through the stream and T a multiple of the row's
// vectors, thread g only ever sees the columns of vector g mod (cols / 4): it keeps one sum, every warp reads
// 512 contiguous bytes, and no thread walks down a column. Wide matrices (10000 x 10000): about a wave of
// 512-thread blocks, four streaming loads in flight, then one float4 atomicAdd (sm_90) per thread into a
// module scratch that the last block (a ticket) copies out and zeroes: one launch, no memset.
// Narrow matrices (1M x 100): the matrix is read as one flat run of float4s by a grid whose thread count is a
// multiple of the row's 25 float4s, so each thread keeps one column for the whole call, every lane is busy and
// every warp reads 512 aligned bytes (step 3's 250-of-256-thread steps of 4,000 bytes straddle a cache line per
// warp); blocks fold their lanes in shared memory and add into replicated sums that the last block finishes.
// Very wide rows (100 x 1M, more columns than the scratch holds): one wave of 32x8 column tiles, four streaming
// loads (__ldcs, evict-first) per thread; the last block of each tile stores its sums.
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kTileCols = 32;
constexpr int kTileRows = 8;
constexpr int kThreads = kTileCols * kTileRows;
constexpr int kNarrow = 64;

__device__ inline void add(float& acc, float v) {
    acc += v;
}
__device__ inline void add(float4& acc, float4 v) {
    acc.x += v.x;
    acc.y += v.y;
    acc.z += v.z;
    acc.w += v.w;
}

// Stores one column partial, or adds it atomically when other chunks add theirs too.
__device__ inline void finish(float* out, float v, bool atomic) {
    if (atomic)
        atomicAdd(out, v);
    else
        *out = v;
}
__device__ inline void finish(float* out, float4 v, bool atomic) {
    finish(out + 0, v.x, atomic);
    finish(out + 1, v.y, atomic);
    finish(out + 2, v.z, atomic);
    finish(out + 3, v.w, atomic);
}

constexpr int kMaxWideBlocks = 4096;
__device__ float4 g_tile_partials[kMaxWideBlocks * kTileCols];  // one partial per column per block of a launch
__device__ unsigned int g_tile_done[kMaxWideBlocks];            // tickets per column tile, 0 between calls

// Wide matrices: a 32x8 block owns 32 vector columns; its row lanes take rows grid-strided over blockIdx.y
// (row lane y of block row b reads rows 8b + y, 8b + y + 8G, ...), 4 predicated loads in flight, so the
// grid's concurrent reads stay in one band of rows. gridDim.y is chosen so that the grid is one wave.
template <typename Vec>
__global__ void __launch_bounds__(kThreads) wide_kernel(const float* matrix, float* col_sums, int rows, int cols) {
    constexpr int kWidth = sizeof(Vec) / sizeof(float);
    constexpr int kUnroll = 4;
    const int vec_cols = cols / kWidth;
    const int vc = blockIdx.x * kTileCols + threadIdx.x;
    const int row_step = gridDim.y * kTileRows;

    Vec sum = {};
    if (vc < vec_cols) {
        const Vec* p = reinterpret_cast<const Vec*>(matrix) + vc;
        for (int row = blockIdx.y * kTileRows + threadIdx.y; row < rows; row += kUnroll * row_step) {
            Vec v[kUnroll];
#pragma unroll
            for (int u = 0; u < kUnroll; ++u) {
                const int r = row + u * row_step;
                v[u] = r < rows ? __ldcs(p + static_cast<long long>(r) * vec_cols) : Vec{};
            }
#pragma unroll
            for (int u = 0; u < kUnroll; ++u) add(sum, v[u]);
        }
    }

    __shared__ Vec tile[kTileRows][kTileCols];
    tile[threadIdx.y][threadIdx.x] = sum;
    __syncthreads();
    if (threadIdx.y == 0 && vc < vec_cols) {
        for (int r = 1; r < kTileRows; ++r) add(sum, tile[r][threadIdx.x]);
        if (gridDim.y == 1)
            *reinterpret_cast<Vec*>(col_sums + vc * kWidth) = sum;  // one block covers every row
        else
            reinterpret_cast<Vec*>(g_tile_partials)[(blockIdx.x * gridDim.y + blockIdx.y) * kTileCols + threadIdx.x] =
                sum;
    }
    if (gridDim.y == 1) return;

    // The blocks of one column tile take tickets; the last adds their partials and stores the sums (no memset,
    // no atomics on col_sums), then puts the tile's ticket counter back to 0 for the next call.
    __threadfence();  // the partial is visible to every block before the ticket is taken
    __syncthreads();
    __shared__ bool is_last;
    if (threadIdx.x == 0 && threadIdx.y == 0) is_last = atomicAdd(&g_tile_done[blockIdx.x], 1u) == gridDim.y - 1;
    __syncthreads();
    if (!is_last) return;
    __threadfence();
    Vec total = {};
    if (vc < vec_cols)
        for (int b = threadIdx.y; b < gridDim.y; b += kTileRows)
            add(total, __ldcg(reinterpret_cast<const Vec*>(g_tile_partials) + (blockIdx.x * gridDim.y + b) * kTileCols +
                              threadIdx.x));
    tile[threadIdx.y][threadIdx.x] = total;  // every thread has read tile before the barriers above
    __syncthreads();
    if (threadIdx.y == 0 && vc < vec_cols) {
        for (int r = 1; r < kTileRows; ++r) add(total, tile[r][threadIdx.x]);
        *reinterpret_cast<Vec*>(col_sums + vc * kWidth) = total;
    }
    if (threadIdx.x == 0 && threadIdx.y == 0) g_tile_done[blockIdx.x] = 0;
}

constexpr int kReplicas = 16;
__device__ float g_replicas[kReplicas][4 * kNarrow];  // zero at load, and again after every call
__device__ unsigned int g_ticket;

// Narrow matrices (fewer than 64 vector columns): the matrix read as one flat run of vectors, thread g of the
// grid on vectors g, g + T, g + 2T, ... With T (the grid's threads) a multiple of vec_cols, thread g always adds
// column g % vec_cols: every lane busy, every warp reading 512 aligned bytes, eight predicated loads in flight.
template <typename Vec>
__global__ void __launch_bounds__(kThreads)
    periodic_kernel(const Vec* matrix, float* col_sums, int vec_cols, int num_vectors) {
    constexpr int kWidth = sizeof(Vec) / sizeof(float);
    constexpr int kUnroll = 8;
    const int t = threadIdx.y * kTileCols + threadIdx.x;
    const int stride = gridDim.x * kThreads;
    Vec sum = {};
    for (int i = blockIdx.x * kThreads + t; i < num_vectors; i += kUnroll * stride) {
        Vec v[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) v[u] = i + u * stride < num_vectors ? __ldcs(matrix + i + u * stride) : Vec{};
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) add(sum, v[u]);
    }

    // Thread t of this block is on column (c0 + t) % vec_cols: thread j < vec_cols adds threads j, j + vec_cols, ...
    __shared__ Vec partial[kThreads];
    partial[t] = sum;
    __syncthreads();
    if (t < vec_cols) {
        for (int j = t + vec_cols; j < kThreads; j += vec_cols) add(sum, partial[j]);
        const int col = (blockIdx.x * kThreads % vec_cols + t) % vec_cols;
        // Blocks add their partials into one of kReplicas copies of the sums (few blocks per address); the last
        // block to finish adds the copies, stores the result and zeroes them for the next call. No memset.
        finish(&g_replicas[blockIdx.x % kReplicas][col * kWidth], sum, true);
    }
    __shared__ bool is_last;
    __threadfence();
    __syncthreads();
    if (t == 0) is_last = atomicAdd(&g_ticket, 1u) == gridDim.x - 1;
    __syncthreads();
    if (!is_last) return;
    __threadfence();
    for (int c = t; c < vec_cols * kWidth; c += kThreads) {
        float total = 0.0f;
        for (int r = 0; r < kReplicas; ++r) {
            total += __ldcg(&g_replicas[r][c]);
            g_replicas[r][c] = 0.0f;
        }
        col_sums[c] = total;
    }
    if (t == 0) g_ticket = 0;
}

// Wide matrices, flat: `active` threads (a multiple of vec_cols, at least kFlatThreads of them) stride through
// num_vectors float4s, so thread g adds vector column g % vec_cols; a block's threads hold distinct columns.
constexpr int kFlatThreads = 512;
constexpr int kFlatBlocksPerSm = 2;
constexpr int kMaxFlatVecCols = 16384;
__device__ float4 g_flat_sums[kMaxFlatVecCols];  // zero at load; the last block of every launch zeroes it again
__device__ unsigned int g_flat_ticket = 0;       // and puts this back to 0

__global__ void __launch_bounds__(kFlatThreads)
    flat_kernel(const float4* __restrict__ matrix4, float4* __restrict__ col_sums4, int num_vectors, int vec_cols,
                int active) {
    constexpr int kUnroll = 4;
    const int g = blockIdx.x * kFlatThreads + threadIdx.x;
    float4 sum = {0.0f, 0.0f, 0.0f, 0.0f};
    if (g < active) {
        int v = g;
        for (; v + (kUnroll - 1) * active < num_vectors; v += kUnroll * active) {
            float4 x[kUnroll];
#pragma unroll
            for (int u = 0; u < kUnroll; ++u) x[u] = __ldcs(matrix4 + v + u * active);  // streamed: evict-first
#pragma unroll
            for (int u = 0; u < kUnroll; ++u) add(sum, x[u]);
        }
        // The last round: its (at most three) loads predicated and issued together.
        float4 x[kUnroll - 1];
#pragma unroll
        for (int u = 0; u < kUnroll - 1; ++u)
            x[u] = v + u * active < num_vectors ? __ldcs(matrix4 + v + u * active) : make_float4(0, 0, 0, 0);
#pragma unroll
        for (int u = 0; u < kUnroll - 1; ++u) add(sum, x[u]);
        atomicAdd(g_flat_sums + g % vec_cols, sum);  // one 16-byte L2 atomic for four columns
    }
    __threadfence();  // this block's atomics are done before its ticket is taken
    __syncthreads();
    __shared__ bool is_last;
    if (threadIdx.x == 0) is_last = atomicAdd(&g_flat_ticket, 1u) == gridDim.x - 1;
    __syncthreads();
    if (!is_last) return;
    __threadfence();
    for (int c = threadIdx.x; c < vec_cols; c += kFlatThreads) {
        col_sums4[c] = __ldcg(g_flat_sums + c);
        g_flat_sums[c] = make_float4(0, 0, 0, 0);
    }
    if (threadIdx.x == 0) g_flat_ticket = 0;
}

int gcd(int a, int b) {
    return b == 0 ? a : gcd(b, a % b);
}

}  // namespace

extern "C" void solve(const float* matrix, float* col_sums, int rows, int cols) {
    const dim3 tile(kTileCols, kTileRows);
    const bool use_float4 = cols % 4 == 0;  // otherwise rows after the first lose their 16-byte alignment
    const int vec_cols = use_float4 ? cols / 4 : cols;
    const bool aligned =
        reinterpret_cast<std::uintptr_t>(matrix) % 16 == 0 && reinterpret_cast<std::uintptr_t>(col_sums) % 16 == 0;
    if (use_float4 && aligned && vec_cols >= kFlatThreads && vec_cols <= kMaxFlatVecCols) {
        static int sms = 0;
        if (sms == 0) {
            int device = 0;
            cudaGetDevice(&device);
            cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        }
        // About one wave of threads, rounded down to whole rows of vectors (at least one).
        const int num_vectors = rows * vec_cols;
        int active = sms * kFlatBlocksPerSm * kFlatThreads;
        if (active > num_vectors) active = num_vectors;
        active = active / vec_cols * vec_cols;
        if (active < vec_cols) active = vec_cols;
        const int blocks = (active + kFlatThreads - 1) / kFlatThreads;
        flat_kernel<<<blocks, kFlatThreads>>>(reinterpret_cast<const float4*>(matrix),
                                              reinterpret_cast<float4*>(col_sums), num_vectors, vec_cols, active);
        return;
    }
    if (vec_cols < kNarrow) {
        // One wave of resident blocks, rounded down to a multiple of vec_cols / gcd(vec_cols, kThreads) so that
        // the grid's threads are a multiple of vec_cols; no more blocks than there are vectors for.
        static int resident[2] = {0, 0};
        int& most = resident[use_float4];
        if (most == 0) {
            int device = 0, sms = 0, per_sm = 0;
            cudaGetDevice(&device);
            cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
            if (use_float4)
                cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, periodic_kernel<float4>, kThreads, 0);
            else
                cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, periodic_kernel<float>, kThreads, 0);
            most = sms * (per_sm > 0 ? per_sm : 1);
        }
        const int multiple = vec_cols / gcd(vec_cols, kThreads);
        const int num_vectors = rows * vec_cols;
        const int needed = (num_vectors + kThreads - 1) / kThreads;
        int blocks = (needed + multiple - 1) / multiple * multiple;
        const int full = most / multiple * multiple;
        if (blocks > full) blocks = full;
        if (blocks < multiple) blocks = multiple;
        if (use_float4)
            periodic_kernel<float4>
                <<<blocks, tile>>>(reinterpret_cast<const float4*>(matrix), col_sums, vec_cols, num_vectors);
        else
            periodic_kernel<float><<<blocks, tile>>>(matrix, col_sums, vec_cols, num_vectors);
        return;
    }
    // One wave: as many row chunks per column tile as the resident blocks allow (one if the tiles alone fill
    // the GPU), and no more than keeps at least 16 rows per row lane.
    static int wide_resident[2] = {0, 0};
    int& most = wide_resident[use_float4];
    if (most == 0) {
        int device = 0, sms = 0, per_sm = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, use_float4 ? wide_kernel<float4> : wide_kernel<float>,
                                                      kThreads, 0);
        most = sms * (per_sm > 0 ? per_sm : 1);
        if (most > kMaxWideBlocks) most = kMaxWideBlocks;
    }
    const int col_tiles = (vec_cols + kTileCols - 1) / kTileCols;
    int chunks = most / col_tiles;
    const int most_chunks = (rows + 16 * kTileRows - 1) / (16 * kTileRows);
    if (chunks > most_chunks) chunks = most_chunks;
    if (chunks < 1) chunks = 1;
    const dim3 grid(col_tiles, chunks);
    if (use_float4)
        wide_kernel<float4><<<grid, tile>>>(matrix, col_sums, rows, cols);
    else
        wide_kernel<float><<<grid, tile>>>(matrix, col_sums, rows, cols);
}
