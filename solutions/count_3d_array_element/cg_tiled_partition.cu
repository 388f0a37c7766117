// expect: accepted
// step: 2
// Technique: cooperative groups: a grid-stride loop counts matches per thread, cg::reduce over a
// tiled_partition<32> sums each warp, and one atomicAdd per warp lands in a shared block counter.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

namespace {

constexpr int kThreads = 256;

__global__ void count_kernel(const int* input, int* output, long long total, int P) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);

    __shared__ int block_count;
    if (block.thread_rank() == 0) block_count = 0;
    block.sync();

    // The array is contiguous, so its three dimensions collapse into one flat index.
    int count = 0;
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride)
        count += (input[i] == P);

    count = cg::reduce(warp, count, cg::plus<int>());
    if (warp.thread_rank() == 0) atomicAdd(&block_count, count);  // shared-memory atomic: cheap
    block.sync();

    if (block.thread_rank() == 0) atomicAdd(output, block_count);  // one global atomic per block
}

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int M, int K, int P) {
    const long long total = static_cast<long long>(N) * M * K;
    long long blocks = (total + kThreads - 1) / kThreads;
    if (blocks > 1056) blocks = 1056;  // 8 blocks per SM on a 132-SM H100; the loop covers the rest
    cudaMemset(output, 0, sizeof(int));
    count_kernel<<<static_cast<int>(blocks), kThreads>>>(input, output, total, P);
}
