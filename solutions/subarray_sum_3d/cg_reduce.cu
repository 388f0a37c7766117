// expect: accepted
// step: 1
// Technique: cooperative groups. A grid-stride loop walks the box flattened to one index (column fastest, so
// neighbouring threads read neighbouring ints), cg::reduce sums each 32-thread tile, shared memory joins the
// tiles of a block, and one atomicAdd per block finishes into the zeroed output.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

namespace {

constexpr int kThreads = 256;
constexpr int kTiles = kThreads / 32;

struct Box {
    int first_dep, first_row, first_col;  // corner of the box
    int rows, cols;                       // its extent along rows and columns
    int size;                             // number of elements inside (at most 500^3, fits an int)
};

__global__ void box_sum_kernel(const int* input, int* output, int M, int K, Box box) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);

    int sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < box.size; i += gridDim.x * blockDim.x) {
        // Unflatten i into (d, r, c) inside the box, then into the index of the whole array.
        const int c = i % box.cols;
        const int r = (i / box.cols) % box.rows;
        const int d = i / box.cols / box.rows;
        sum += input[((box.first_dep + d) * M + box.first_row + r) * K + box.first_col + c];
    }

    sum = cg::reduce(tile, sum, cg::plus<int>());
    __shared__ int tile_sums[kTiles];
    if (tile.thread_rank() == 0) tile_sums[tile.meta_group_rank()] = sum;
    block.sync();

    if (tile.meta_group_rank() == 0) {
        sum = tile.thread_rank() < kTiles ? tile_sums[tile.thread_rank()] : 0;
        sum = cg::reduce(tile, sum, cg::plus<int>());
        if (tile.thread_rank() == 0) atomicAdd(output, sum);
    }
}

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int M, int K, int S_DEP, int E_DEP, int S_ROW,
                      int E_ROW, int S_COL, int E_COL) {
    (void)N;
    Box box;
    box.first_dep = S_DEP;
    box.first_row = S_ROW;
    box.first_col = S_COL;
    box.rows = E_ROW - S_ROW + 1;  // the bounds are inclusive
    box.cols = E_COL - S_COL + 1;
    box.size = (E_DEP - S_DEP + 1) * box.rows * box.cols;

    int blocks = (box.size + kThreads - 1) / kThreads;
    if (blocks > 1024) blocks = 1024;
    cudaMemset(output, 0, sizeof(int));  // the output arrives poisoned; atomics need a zero to add to
    box_sum_kernel<<<blocks, kThreads>>>(input, output, M, K, box);
}
