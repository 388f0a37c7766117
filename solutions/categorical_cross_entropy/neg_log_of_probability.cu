// expect: wrong_answer
// cause: infinity
// Mistake: computes the probability of the true label, p = exp(z[y] - max) / sum, and then -log(p). With
// logits in [-100, 100] the true label often sits more than 104 below the max, p underflows to 0 and
// -log(0) = inf. Taking the log of the sum instead, loss = max + log(sum) - z[y], never underflows.
// Otherwise sound: one block per row, shared-memory trees with sequential addressing.
#include <cuda_runtime.h>

#include <cmath>

namespace {

constexpr int kThreads = 128;  // a power of two, for the trees

__global__ void cross_entropy_rows(const float* logits, const int* true_labels, float* loss, int N, int C) {
    __shared__ float shared[kThreads];
    const float* z = logits + static_cast<long long>(blockIdx.x) * C;

    // Row max: strided partial maxima, then a tree in which the lower half takes the upper half.
    float max = -INFINITY;
    for (int j = threadIdx.x; j < C; j += kThreads) max = fmaxf(max, z[j]);
    shared[threadIdx.x] = max;
    __syncthreads();
    for (int stride = kThreads / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            shared[threadIdx.x] = fmaxf(shared[threadIdx.x], shared[threadIdx.x + stride]);
        __syncthreads();
    }
    max = shared[0];
    __syncthreads();

    // Sum of exp(z - max), same tree.
    float sum = 0.0f;
    for (int j = threadIdx.x; j < C; j += kThreads) sum += expf(z[j] - max);
    shared[threadIdx.x] = sum;
    __syncthreads();
    for (int stride = kThreads / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) shared[threadIdx.x] += shared[threadIdx.x + stride];
        __syncthreads();
    }

    if (threadIdx.x == 0) {
        const float probability = expf(z[true_labels[blockIdx.x]] - max) / shared[0];  // 0 once it underflows
        atomicAdd(loss, -logf(probability) / N);
    }
}

}  // namespace

extern "C" void solve(const float* logits, const int* true_labels, float* loss, int N, int C) {
    cudaMemset(loss, 0, sizeof(float));
    cross_entropy_rows<<<N, kThreads>>>(logits, true_labels, loss, N, C);
}
