// expect: accepted
// step: 1
// Technique: cooperative groups. A grid-stride loop gives each thread a partial sum; cg::reduce over a
// 32-thread tiled_partition adds a warp's partials, shared memory joins the warps, and one atomicAdd per
// block adds the block's share (already divided by N) into the output, zeroed first.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;

__global__ void mse_kernel(const float* predictions, const float* targets, float* mse, int N) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);

    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x) {
        const float difference = predictions[i] - targets[i];
        sum += difference * difference;
    }

    __shared__ float warp_sums[kWarps];
    sum = cg::reduce(warp, sum, cg::plus<float>());
    if (warp.thread_rank() == 0) warp_sums[warp.meta_group_rank()] = sum;
    block.sync();

    if (warp.meta_group_rank() == 0) {
        sum = warp.thread_rank() < kWarps ? warp_sums[warp.thread_rank()] : 0.0f;
        sum = cg::reduce(warp, sum, cg::plus<float>());
        if (warp.thread_rank() == 0) atomicAdd(mse, sum / N);
    }
}

}  // namespace

extern "C" void solve(const float* predictions, const float* targets, float* mse, int N) {
    cudaMemset(mse, 0, sizeof(float));  // the atomics add onto it
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > 1024) blocks = 1024;  // enough to fill the GPU; the grid-stride loop does the rest
    mse_kernel<<<blocks, kThreads>>>(predictions, targets, mse, N);
}
