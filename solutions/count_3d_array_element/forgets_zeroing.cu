// expect: wrong_answer
// Mistake: accumulates with atomicAdd into output without zeroing it first, so the count lands on
// top of whatever the buffer held before the call.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__global__ void count_kernel(const int* input, int* output, long long total, int P) {
    int count = 0;
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride)
        count += (input[i] == P);
    for (int offset = 16; offset > 0; offset /= 2) count += __shfl_down_sync(0xffffffffu, count, offset);
    if (threadIdx.x % 32 == 0 && count > 0) atomicAdd(output, count);
}

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int M, int K, int P) {
    const long long total = static_cast<long long>(N) * M * K;
    long long blocks = (total + kThreads - 1) / kThreads;
    if (blocks > 1056) blocks = 1056;
    // Missing: cudaMemset(output, 0, sizeof(int));
    count_kernel<<<static_cast<int>(blocks), kThreads>>>(input, output, total, P);
}
