// expect: accepted
// sanitize: memcheck
// Mistake that no answer shows: every thread loads input[i] before it looks at i < N, so the last
// block reads past the end of the input, up to the next multiple of its 256 threads. The values
// read there are thrown away, so the sum is right; the reads land in the judge's guard region,
// where only writes are caught. memcheck sees them: gpujudge sanitize reduction <this file>.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__global__ void reduce_unguarded_load(const float* input, float* output, int N) {
    __shared__ float partial[kThreads];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float loaded = input[i];                 // <- sanitize: memcheck
    partial[threadIdx.x] = i < N ? loaded : 0.0f;  // what lies past N is discarded: the sum stays right
    __syncthreads();
    for (int s = kThreads / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(output, partial[0]);
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    cudaMemset(output, 0, sizeof(float));  // the output arrives poisoned; atomics need a zero to add to
    reduce_unguarded_load<<<(N + kThreads - 1) / kThreads, kThreads>>>(input, output, N);
}
