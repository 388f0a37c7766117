// expect: accepted
// step: 3
// Technique: cooperative groups: tiled_partition<32> splits the block into warps, cg::reduce sums each
// tile (a shuffle tree, or the hardware redux on newer GPUs), a second cg::reduce combines the tiles'
// sums, and one atomicAdd per block finishes.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

namespace {

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 1024;

__global__ void reduce_cg_kernel(const float* input, float* output, int N) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);

    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        sum += input[i];

    // Every thread of a tile receives the tile's total.
    sum = cg::reduce(tile, sum, cg::plus<float>());

    __shared__ float tile_sums[kThreads / 32];
    if (tile.thread_rank() == 0) tile_sums[tile.meta_group_rank()] = sum;
    block.sync();

    if (tile.meta_group_rank() == 0) {
        sum = tile.thread_rank() < tile.meta_group_size() ? tile_sums[tile.thread_rank()] : 0.0f;
        sum = cg::reduce(tile, sum, cg::plus<float>());
        if (tile.thread_rank() == 0) atomicAdd(output, sum);
    }
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > kMaxBlocks) blocks = kMaxBlocks;
    cudaMemset(output, 0, sizeof(float));
    reduce_cg_kernel<<<blocks, kThreads>>>(input, output, N);
}
