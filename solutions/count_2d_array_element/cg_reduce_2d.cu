// expect: accepted
// step: 1
// Technique: a 2D launch over (column, row) with cooperative groups: cg::reduce sums each 32-thread tile,
// the tiles' sums meet in shared memory, and one atomicAdd per block finishes. Rows are walked with a
// grid stride so that a few thousand blocks cover any N x M.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

namespace {

constexpr int kBlockX = 32;  // a warp spans 32 consecutive columns: 128-byte coalesced reads
constexpr int kBlockY = 8;
constexpr int kTiles = kBlockX * kBlockY / 32;

__global__ void count_2d(const int* input, int* output, int N, int M, int K) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    const int col = blockIdx.x * kBlockX + threadIdx.x;
    int count = 0;
    if (col < M)
        for (int row = blockIdx.y * kBlockY + threadIdx.y; row < N; row += gridDim.y * kBlockY)
            count += input[static_cast<size_t>(row) * M + col] == K;

    count = cg::reduce(tile, count, cg::plus<int>());
    __shared__ int tile_counts[kTiles];
    if (tile.thread_rank() == 0) tile_counts[tile.meta_group_rank()] = count;
    block.sync();
    if (block.thread_rank() == 0) {
        int block_count = 0;
        for (int t = 0; t < kTiles; ++t) block_count += tile_counts[t];
        if (block_count != 0) atomicAdd(output, block_count);
    }
}

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int M, int K) {
    cudaMemset(output, 0, sizeof(int));
    const dim3 threads(kBlockX, kBlockY);
    const int column_blocks = (M + kBlockX - 1) / kBlockX;
    int row_blocks = (N + kBlockY - 1) / kBlockY;
    // About 4096 blocks in all; each thread then loops over several rows.
    const int max_row_blocks = 4096 / column_blocks > 0 ? 4096 / column_blocks : 1;
    if (row_blocks > max_row_blocks) row_blocks = max_row_blocks;
    count_2d<<<dim3(column_blocks, row_blocks), threads>>>(input, output, N, M, K);
}
