// expect: wrong_answer
// Mistake: after the __shfl_down_sync reduction only lane 0 holds the warp's total; lane k holds the sum
// of lanes k, k+1, ... in a partial pattern. The guard `if (lane == 0)` before the atomicAdd is missing,
// so all 32 lanes add their value and the warp is counted several times over.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__global__ void mse_kernel(const float* predictions, const float* targets, float* mse, int N) {
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x) {
        const float difference = predictions[i] - targets[i];
        sum += difference * difference;
    }
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    atomicAdd(mse, sum / N);  // should be: if (threadIdx.x % 32 == 0) atomicAdd(...)
}

}  // namespace

extern "C" void solve(const float* predictions, const float* targets, float* mse, int N) {
    cudaMemset(mse, 0, sizeof(float));
    int blocks = (N + kThreads - 1) / kThreads;
    if (blocks > 1024) blocks = 1024;
    mse_kernel<<<blocks, kThreads>>>(predictions, targets, mse, N);
}
