// expect: accepted
// step: 4
// Technique: few long rows cut into many small equal tiles, like the one-block-per-row kernel that reaches 98 %
// on 10,000 x 10,000. On 100 x 1M, step 3's 2,200 blocks of 45k floats are 2.08 waves (the last 88 blocks run
// nearly alone) after a memset launch. Here each row is cut into equal tiles of at most 2,048 float4s (32 KB),
// one block of 256 threads each with all eight of its loads in flight at once: 12,300 blocks, so the partial
// last wave is 1 % of the work. A row's tiles add into the module's own per-row sum; the block that completes
// the row's tile count moves it into row_sums and leaves it zero for the next call: no memset, one launch.
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;
constexpr int kLongRow = 2048;  // from this length on a whole block shares a row

// Sum of ptr[0..n) by kLanes cooperating lanes (lane = 0..kLanes-1). Rows start at any 4-byte offset when
// cols % 4 != 0, so: a scalar head up to the first 16-byte boundary, a float4 body, a scalar tail.
template <int kLanes>
__device__ float range_sum(const float* ptr, int n, int lane) {
    const int misalign = static_cast<int>(reinterpret_cast<uintptr_t>(ptr) % 16) / 4;
    const int head = min(n, (4 - misalign) % 4);
    float sum = 0.0f;
    for (int i = lane; i < head; i += kLanes) sum += ptr[i];

    const float4* body = reinterpret_cast<const float4*>(ptr + head);
    const int num_vectors = (n - head) / 4;
    int v = lane;
    for (; v + 3 * kLanes < num_vectors; v += 4 * kLanes) {  // four independent 16-byte loads in flight
        const float4 a = __ldg(body + v), b = __ldg(body + v + kLanes);
        const float4 c = __ldg(body + v + 2 * kLanes), d = __ldg(body + v + 3 * kLanes);
        sum += ((a.x + a.y) + (a.z + a.w)) + ((b.x + b.y) + (b.z + b.w)) + ((c.x + c.y) + (c.z + c.w)) +
               ((d.x + d.y) + (d.z + d.w));
    }
    for (; v < num_vectors; v += kLanes) {
        const float4 a = __ldg(body + v);
        sum += (a.x + a.y) + (a.z + a.w);
    }

    for (int i = head + 4 * num_vectors + lane; i < n; i += kLanes) sum += ptr[i];
    return sum;
}

// Rows shorter than kLongRow: groups of kGroup lanes, 32 / kGroup rows per warp per step.
template <int kGroup>
__global__ void short_rows_kernel(const float* matrix, float* row_sums, int rows, int cols) {
    constexpr int kRowsPerWarp = 32 / kGroup;
    const int lane = threadIdx.x % kGroup;
    const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const int num_warps = gridDim.x * blockDim.x / 32;
    // The loop bound is the same for the whole warp, so every shuffle sees all 32 lanes.
    for (long long first = static_cast<long long>(warp) * kRowsPerWarp; first < rows;
         first += static_cast<long long>(num_warps) * kRowsPerWarp) {
        const long long row = first + threadIdx.x % 32 / kGroup;
        float sum = row < rows ? range_sum<kGroup>(matrix + row * cols, cols, lane) : 0.0f;
        for (int offset = kGroup / 2; offset > 0; offset /= 2)
            sum += __shfl_down_sync(0xffffffffu, sum, offset, kGroup);
        if (lane == 0 && row < rows) row_sums[row] = sum;
    }
}

__device__ float block_sum(float value) {
    __shared__ float warp_sums[kThreads / 32];
    for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = value;
    __syncthreads();
    value = threadIdx.x < kThreads / 32 ? warp_sums[threadIdx.x] : 0.0f;
    if (threadIdx.x < 32)
        for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
    return value;
}

// Rows of kLongRow floats or more: one block per (row, segment).
__global__ void long_rows_kernel(const float* matrix, float* row_sums, int cols, int segments, int segment_length) {
    const int row = blockIdx.x / segments;
    const int begin = blockIdx.x % segments * segment_length;
    const int n = min(segment_length, cols - begin);
    const float sum =
        block_sum(range_sum<kThreads>(matrix + static_cast<long long>(row) * cols + begin, n, threadIdx.x));
    if (threadIdx.x == 0) {
        if (segments == 1)
            row_sums[row] = sum;
        else
            atomicAdd(row_sums + row, sum);
    }
}

// Short aligned rows (cols % 4 == 0, at most kStagedCols): the block reads kUnroll * (kThreads / V) whole
// rows (V = cols / 4 float4s each) as one contiguous run, lane t on float4 t % V of row t / V of each step,
// all kUnroll loads in flight. Each float4 is folded to one partial in shared memory; then one thread per
// row adds the row's V partials (a stride of V words: V odd hits 32 different banks).
constexpr int kStagedCols = 128;
constexpr int kUnroll = 8;

__global__ void __launch_bounds__(kThreads)
    staged_rows_kernel(const float* matrix, float* row_sums, int rows, int cols) {
    __shared__ float partial[kUnroll][kThreads];
    const int v = cols / 4;
    const int rows_per_step = kThreads / v;
    const int rows_per_block = kUnroll * rows_per_step;
    const long long first_row = static_cast<long long>(blockIdx.x) * rows_per_block;
    const float4* base = reinterpret_cast<const float4*>(matrix) + first_row * v;
    const int t = threadIdx.x;
    const bool active = t < rows_per_step * v;
    float4 x[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
        const long long row = first_row + u * rows_per_step + t / v;
        x[u] = active && row < rows ? __ldg(base + static_cast<long long>(u) * rows_per_step * v + t)
                                    : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) partial[u][t] = (x[u].x + x[u].y) + (x[u].z + x[u].w);
    __syncthreads();
    for (int i = t; i < rows_per_block; i += kThreads) {  // more rows than threads when v < 8
        const int u = i / rows_per_step, r = i % rows_per_step;
        const long long row = first_row + u * rows_per_step + r;
        float sum = 0.0f;
        for (int c = 0; c < v; ++c) sum += partial[u][r * v + c];
        if (row < rows) row_sums[row] = sum;
    }
}

// Few long aligned rows (cols % 4 == 0, cols >= kLongRow, rows <= kMaxTiledRows): rows of tiles_per_row equal
// tiles of at most kTileVectors float4s, one block per tile, every load issued before the first add.
constexpr int kTileUnroll = 8;
constexpr int kTileVectors = kThreads * kTileUnroll;
constexpr int kMaxTiledRows = 4096;

__device__ float g_row_partial[kMaxTiledRows];       // zero at load; each finished row is put back to zero
__device__ unsigned int g_row_tiles[kMaxTiledRows];  // tiles of the row added so far

__global__ void __launch_bounds__(kThreads)
    row_tiles_kernel(const float4* matrix, float* row_sums, int vectors_per_row, int tiles_per_row, int tile) {
    const int row = blockIdx.x / tiles_per_row;
    const int begin = blockIdx.x % tiles_per_row * tile;
    const int stop = min(vectors_per_row, begin + tile);
    const float4* p = matrix + static_cast<long long>(row) * vectors_per_row;
    float4 x[kTileUnroll];
#pragma unroll
    for (int u = 0; u < kTileUnroll; ++u) {
        const int i = begin + u * kThreads + threadIdx.x;
        x[u] = i < stop ? __ldcs(p + i) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    }
    float sum = 0.0f;
#pragma unroll
    for (int u = 0; u < kTileUnroll; ++u) sum += (x[u].x + x[u].y) + (x[u].z + x[u].w);
    sum = block_sum(sum);
    if (threadIdx.x == 0) {
        if (tiles_per_row == 1) {
            row_sums[row] = sum;
            return;
        }
        atomicAdd(&g_row_partial[row], sum);
        __threadfence();  // the sum is in before the count says so
        if (atomicAdd(&g_row_tiles[row], 1u) + 1 == static_cast<unsigned int>(tiles_per_row)) {
            __threadfence();
            row_sums[row] = atomicExch(&g_row_partial[row], 0.0f);
            g_row_tiles[row] = 0;  // every other tile of the row is in
        }
    }
}

int resident_blocks() {
    int device = 0, sms = 0, threads_per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device);
    return sms * (threads_per_sm / kThreads);
}

template <int kGroup>
void launch_short(const float* matrix, float* row_sums, int rows, int cols) {
    const long long blocks_needed = (static_cast<long long>(rows) * kGroup + kThreads - 1) / kThreads;
    const long long max_blocks = 4LL * resident_blocks();  // a few waves; the kernel strides over the rest
    const int blocks = static_cast<int>(blocks_needed < max_blocks ? blocks_needed : max_blocks);
    short_rows_kernel<kGroup><<<blocks, kThreads>>>(matrix, row_sums, rows, cols);
}

}  // namespace

extern "C" void solve(const float* matrix, float* row_sums, int rows, int cols) {
    if (cols >= kLongRow && cols % 4 == 0 && rows <= kMaxTiledRows && rows < 2 * resident_blocks()) {
        const int vectors_per_row = cols / 4;
        const int tiles_per_row = (vectors_per_row + kTileVectors - 1) / kTileVectors;
        const int tile = (vectors_per_row + tiles_per_row - 1) / tiles_per_row;  // equal tiles, <= kTileVectors
        row_tiles_kernel<<<rows * tiles_per_row, kThreads>>>(reinterpret_cast<const float4*>(matrix), row_sums,
                                                             vectors_per_row, tiles_per_row, tile);
        return;
    }
    if (cols >= kLongRow) {
        // Enough rows: one block each. Too few: split rows into segments (at least kLongRow floats) so that
        // about two waves of blocks run, and finish with atomics into a zeroed output.
        const int target_blocks = 2 * resident_blocks();
        int segments = 1;
        if (rows < target_blocks) {
            segments = (target_blocks + rows - 1) / rows;
            if (segments > cols / kLongRow) segments = cols / kLongRow;
        }
        int segment_length = (cols + segments - 1) / segments;
        segment_length = (segment_length + 3) / 4 * 4;  // keeps every segment's alignment equal to its row's
        segments = (cols + segment_length - 1) / segment_length;
        if (segments > 1) cudaMemsetAsync(row_sums, 0, rows * sizeof(float));
        long_rows_kernel<<<rows * segments, kThreads>>>(matrix, row_sums, cols, segments, segment_length);
        return;
    }
    if (cols % 4 == 0 && cols <= kStagedCols) {  // rows stay 16-byte aligned
        const int rows_per_block = kUnroll * (kThreads / (cols / 4));
        const long long blocks = (static_cast<long long>(rows) + rows_per_block - 1) / rows_per_block;
        staged_rows_kernel<<<static_cast<unsigned>(blocks), kThreads>>>(matrix, row_sums, rows, cols);
        return;
    }
    // About 16 floats (four float4) per lane: G = 1 up to 16 columns, 2 up to 32, ..., 32 from 257 on.
    if (cols <= 16)
        launch_short<1>(matrix, row_sums, rows, cols);
    else if (cols <= 32)
        launch_short<2>(matrix, row_sums, rows, cols);
    else if (cols <= 64)
        launch_short<4>(matrix, row_sums, rows, cols);
    else if (cols <= 128)
        launch_short<8>(matrix, row_sums, rows, cols);
    else if (cols <= 256)
        launch_short<16>(matrix, row_sums, rows, cols);
    else
        launch_short<32>(matrix, row_sums, rows, cols);
}
