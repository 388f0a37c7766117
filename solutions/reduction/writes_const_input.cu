// expect: memory_violation
// Mistake: casts away the const of `input` and folds the array onto itself in place (input[i] +=
// input[i + half], halving the live length each launch): the sum is right, but the caller's input is
// destroyed.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

// Adds the upper part of data[0, length) onto the lower part; afterwards data[0, half) holds the sums.
__global__ void fold_kernel(float* data, int length, int half) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + half < length) data[i] += data[i + half];
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    float* scratch = const_cast<float*>(input);  // "the input is on the GPU anyway, reuse it"
    for (int length = N; length > 1;) {
        const int half = (length + 1) / 2;
        const int active = length - half;
        fold_kernel<<<(active + kThreads - 1) / kThreads, kThreads>>>(scratch, length, half);
        length = half;
    }
    cudaMemcpy(output, scratch, sizeof(float), cudaMemcpyDeviceToDevice);
}
