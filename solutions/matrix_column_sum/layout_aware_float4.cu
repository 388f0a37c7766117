// expect: accepted
// step: 3
// Technique: the tiled kernel with the narrow path made layout-aware for 16-byte loads. Up to 255 columns
// (cols % 4 == 0), a row is at most 63 float4s, so a block of 256 threads covers whole rows as one
// contiguous run of float4s per step and thread t always adds the same four columns (t % (cols / 4)):
// every lane busy, every load 16 bytes, eight in flight per thread. The 32-wide tile would leave 7 of 32
// lanes idle on 100 columns (25 float4s). Wider matrices keep the 32x8 float4 tiles.
#include <cuda_runtime.h>

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

// Wide matrices: a 32x8 block owns 32 vector columns; its row lanes take rows grid-strided over blockIdx.y
// (row lane y of block row b reads rows 8b + y, 8b + y + 8G, ...), eight predicated loads in flight, so the
// grid's concurrent reads stay in one band of rows.
template <typename Vec>
__global__ void __launch_bounds__(kThreads)
    wide_kernel(const float* matrix, float* col_sums, int rows, int cols, bool atomic) {
    constexpr int kWidth = sizeof(Vec) / sizeof(float);
    constexpr int kUnroll = 8;
    const int vec_cols = cols / kWidth;
    const int vc = blockIdx.x * kTileCols + threadIdx.x;
    const long long row_step = static_cast<long long>(gridDim.y) * kTileRows;

    Vec sum = {};
    if (vc < vec_cols) {
        const Vec* p = reinterpret_cast<const Vec*>(matrix) + vc;
        for (long long row = static_cast<long long>(blockIdx.y) * kTileRows + threadIdx.y; row < rows;
             row += kUnroll * row_step) {
            Vec v[kUnroll];
#pragma unroll
            for (int u = 0; u < kUnroll; ++u) {
                const long long r = row + u * row_step;
                v[u] = r < rows ? __ldg(p + r * vec_cols) : Vec{};
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
        finish(col_sums + vc * kWidth, sum, atomic);
    }
}

constexpr int kReplicas = 16;
__device__ float g_replicas[kReplicas][4 * kNarrow];  // zero at load, and again after every call
__device__ unsigned int g_ticket;

template <typename Vec>
__global__ void __launch_bounds__(kThreads)
    narrow_kernel(const float* matrix, float* col_sums, int rows, int cols) {
    constexpr int kWidth = sizeof(Vec) / sizeof(float);
    constexpr int kUnroll = 8;
    const int vec_cols = cols / kWidth;
    const int rows_per_step = kThreads / vec_cols;
    const long long num_steps = (rows + rows_per_step - 1) / rows_per_step;
    const int t = threadIdx.y * kTileCols + threadIdx.x;
    const int row_in_step = t / vec_cols;
    const long long step_vectors = static_cast<long long>(rows_per_step) * vec_cols;
    const Vec* base = reinterpret_cast<const Vec*>(matrix) + t;

    Vec sum = {};
    if (t < rows_per_step * vec_cols)
        for (long long s = blockIdx.x; s < num_steps; s += kUnroll * static_cast<long long>(gridDim.x)) {
            Vec v[kUnroll];
#pragma unroll
            for (int u = 0; u < kUnroll; ++u) {
                const long long step = s + static_cast<long long>(u) * gridDim.x;
                const bool inside = step < num_steps && step * rows_per_step + row_in_step < rows;
                v[u] = inside ? __ldg(base + step * step_vectors) : Vec{};
            }
#pragma unroll
            for (int u = 0; u < kUnroll; ++u) add(sum, v[u]);
        }

    __shared__ Vec partial[kThreads];
    partial[t] = sum;
    __syncthreads();
    // Blocks add their partials into one of kReplicas copies of the sums (few blocks per address, so the
    // atomics do not queue on 100 addresses at the end); the last block to finish adds the copies, stores
    // the result and zeroes them for the next call. No memset launch.
    __shared__ bool is_last;
    if (t < vec_cols) {
        for (int j = 1; j < rows_per_step; ++j) add(sum, partial[j * vec_cols + t]);
        finish(&g_replicas[blockIdx.x % kReplicas][t * kWidth], sum, true);
    }
    __syncthreads();
    if (t == 0) {
        __threadfence();
        is_last = atomicAdd(&g_ticket, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!is_last) return;
    __threadfence();
    for (int c = t; c < cols; c += kThreads) {
        float total = 0.0f;
        for (int r = 0; r < kReplicas; ++r) {
            total += __ldcg(&g_replicas[r][c]);
            g_replicas[r][c] = 0.0f;
        }
        col_sums[c] = total;
    }
    if (t == 0) g_ticket = 0;
}

int resident_blocks() {
    int device = 0, sms = 0, threads_per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device);
    return sms * (threads_per_sm / kThreads);
}

// Splits rows into chunks so that about `target` blocks run in all, each chunk at least `min_rows` rows.
int chunk_rows(int rows, long long blocks_per_chunk, int target, int min_rows) {
    long long chunks = (target + blocks_per_chunk - 1) / blocks_per_chunk;
    const long long most = (rows + min_rows - 1) / min_rows;
    if (chunks > most) chunks = most;
    if (chunks < 1) chunks = 1;
    return static_cast<int>((rows + chunks - 1) / chunks);
}

}  // namespace

extern "C" void solve(const float* matrix, float* col_sums, int rows, int cols) {
    const int target_blocks = 2 * resident_blocks();
    const dim3 tile(kTileCols, kTileRows);
    const bool use_float4 = cols % 4 == 0;  // otherwise rows after the first lose their 16-byte alignment
    const int vec_cols = use_float4 ? cols / 4 : cols;
    if (vec_cols < kNarrow) {
        const int rows_per_step = kThreads / vec_cols;
        const long long num_steps = (rows + rows_per_step - 1) / rows_per_step;
        // One wave of resident blocks (the kernel strides): however many its registers let in.
        const auto kernel = use_float4 ? narrow_kernel<float4> : narrow_kernel<float>;
        static int resident[2] = {0, 0};
        int& most = resident[use_float4];
        if (most == 0) {
            int device = 0, sms = 0, per_sm = 0;
            cudaGetDevice(&device);
            cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, 0);
            most = sms * per_sm;
        }
        const int blocks = static_cast<int>(num_steps < most ? num_steps : most);
        kernel<<<blocks, tile>>>(matrix, col_sums, rows, cols);
        return;
    }
    const int col_tiles = (vec_cols + kTileCols - 1) / kTileCols;
    const int rows_per_chunk = chunk_rows(rows, col_tiles, target_blocks, 8 * kTileRows);
    const int chunks = (rows + rows_per_chunk - 1) / rows_per_chunk;  // block rows, strided over the rows
    if (chunks > 1) cudaMemsetAsync(col_sums, 0, cols * sizeof(float));
    const dim3 grid(col_tiles, chunks);
    if (use_float4)
        wide_kernel<float4><<<grid, tile>>>(matrix, col_sums, rows, cols, chunks > 1);
    else
        wide_kernel<float><<<grid, tile>>>(matrix, col_sums, rows, cols, chunks > 1);
}
