// expect: accepted
// step: 2
// Technique: one cooperative launch. Blocks sum squares with float4 loads and cg::reduce, publish a partial,
// meet at grid.sync(), then each block re-adds the partials and normalises: the input (400 KB at most)
// is still in L2 for the second read. At this size launches, not bandwidth, decide the time.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;

// Sum over the block; the result is valid in every thread.
__device__ float block_sum(cg::thread_block block, float value) {
    __shared__ float warp_sums[kWarps];
    __shared__ float total;
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    value = cg::reduce(warp, value, cg::plus<float>());
    if (warp.thread_rank() == 0) warp_sums[warp.meta_group_rank()] = value;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        value = warp.thread_rank() < kWarps ? warp_sums[warp.thread_rank()] : 0.0f;
        value = cg::reduce(warp, value, cg::plus<float>());
        if (warp.thread_rank() == 0) total = value;
    }
    block.sync();
    return total;
}

__global__ void __launch_bounds__(kThreads)
rms_norm_kernel(const float* input, float gamma, float beta, float* output, int N, float eps,
                float* partials) {
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    // cudaMalloc'd buffers are 256-byte aligned, so the vector view is safe; the N % 4 tail is read singly.
    const float4* input4 = reinterpret_cast<const float4*>(input);
    float4* output4 = reinterpret_cast<float4*>(output);
    const int num_vectors = N / 4;
    const int first = static_cast<int>(grid.thread_rank());
    const int stride = static_cast<int>(grid.size());

    float sum = 0.0f;
    for (int i = first; i < num_vectors; i += stride) {
        const float4 v = input4[i];
        sum += (v.x * v.x + v.y * v.y) + (v.z * v.z + v.w * v.w);
    }
    for (int i = 4 * num_vectors + first; i < N; i += stride) sum += input[i] * input[i];
    sum = block_sum(block, sum);
    if (block.thread_rank() == 0) partials[blockIdx.x] = sum;
    grid.sync();  // every partial is now visible to every block

    float all = 0.0f;
    for (int i = block.thread_rank(); i < gridDim.x; i += kThreads) all += partials[i];
    all = block_sum(block, all);
    const float scale = gamma * rsqrtf(all / N + eps);
    for (int i = first; i < num_vectors; i += stride) {
        const float4 v = input4[i];
        output4[i] = make_float4(v.x * scale + beta, v.y * scale + beta,
                                 v.z * scale + beta, v.w * scale + beta);
    }
    for (int i = 4 * num_vectors + first; i < N; i += stride) output[i] = input[i] * scale + beta;
}

}  // namespace

extern "C" void solve(const float* input, float gamma, float beta, float* output, int N, float eps) {
    // How many blocks can be resident at once (a property of the device, asked once) bounds the grid.
    static int max_blocks = 0;
    static float* d_partials = nullptr;  // scratch: each block overwrites its slot before the grid sync
    if (max_blocks == 0) {
        int device = 0, num_sms = 0, per_sm = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&num_sms, cudaDevAttrMultiProcessorCount, device);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, rms_norm_kernel, kThreads, 0);
        max_blocks = num_sms * (per_sm > 0 ? per_sm : 1);
        cudaMalloc(&d_partials, max_blocks * sizeof(float));
    }
    const int work_items = N / 4 > 0 ? N / 4 : 1;
    int blocks = (work_items + kThreads - 1) / kThreads;
    if (blocks > max_blocks) blocks = max_blocks;
    void* args[] = {&input, &gamma, &beta, &output, &N, &eps, &d_partials};
    cudaLaunchCooperativeKernel(reinterpret_cast<void*>(rms_norm_kernel), blocks, kThreads, args, 0, nullptr);
}
