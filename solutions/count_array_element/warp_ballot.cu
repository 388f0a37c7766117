// expect: accepted
// step: 1
// Technique: warp vote. __ballot_sync gives each lane the 32 match bits of its warp and __popc counts them,
// so a warp counts 32 elements in two instructions; lane 0 keeps the running total and adds it to the
// output once, at the end.
#include <cuda_runtime.h>

__global__ void count_ballot(const int* input, int* output, int N, int K) {
    const int lane = threadIdx.x % 32;
    const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const int num_warps = gridDim.x * blockDim.x / 32;
    int warp_count = 0;
    // The loop bound is the same for all 32 lanes, so every ballot has the full warp present.
    for (int base = warp * 32; base < N; base += num_warps * 32) {
        const int i = base + lane;
        const bool match = i < N && input[i] == K;
        warp_count += __popc(__ballot_sync(0xffffffffu, match));
    }
    if (lane == 0 && warp_count != 0) atomicAdd(output, warp_count);
}

extern "C" void solve(const int* input, int* output, int N, int K) {
    cudaMemset(output, 0, sizeof(int));  // the output arrives holding garbage
    int blocks = (N + 255) / 256;
    if (blocks > 1024) blocks = 1024;
    count_ballot<<<blocks, 256>>>(input, output, N, K);
}
