// expect: accepted
// sanitize: racecheck
// Mistake that no answer shows: the shared-memory tree stops calling __syncthreads() once its active
// threads fit in one warp, trusting the warp to run in lockstep, which CUDA has not promised since
// Volta (independent thread scheduling): thread t reads partial[t + s] with nothing ordering it
// after the write of thread t + s. Today's GPUs still run these steps together, so the sum is
// right (the volatile, the old recipe's other half, keeps the compiler from holding values in
// registers); racecheck reports the race: gpujudge sanitize reduction <this file> --tool racecheck.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 1024;

__global__ void reduce_tree_kernel(const float* input, float* output, int N) {
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x) sum += input[i];

    __shared__ float partial[kThreads];
    partial[threadIdx.x] = sum;
    __syncthreads();

    volatile float* tree = partial;
    for (int s = kThreads / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) tree[threadIdx.x] += tree[threadIdx.x + s];  // <- sanitize: racecheck
        if (s > 32) __syncthreads();  // the mistake: no barrier once a single warp is left
    }

    if (threadIdx.x == 0) atomicAdd(output, partial[0]);
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > kMaxBlocks) blocks = kMaxBlocks;
    cudaMemset(output, 0, sizeof(float));  // the output arrives poisoned; atomics need a zero to add to
    reduce_tree_kernel<<<blocks, kThreads>>>(input, output, N);
}
