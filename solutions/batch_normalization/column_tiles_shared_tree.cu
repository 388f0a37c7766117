// expect: accepted
// step: 1
// Technique: one block per tile of 32 columns. threadIdx.x picks the column (a warp reads 32 neighbouring
// floats of a row: coalesced) and threadIdx.y a share of the rows. Partial sums over the rows meet in a
// shared-memory tree with sequential addressing over threadIdx.y: first the mean, then the sum of squared
// deviations from it (two passes: no cancellation), then every element is normalised.
#include <cuda_runtime.h>

#include <cmath>

namespace {

constexpr int kColumns = 32;  // blockDim.x: one warp spans a tile's columns
constexpr int kRowLanes = 16;  // blockDim.y: a power of two, for the tree

// Adds the kRowLanes values of one column (one per threadIdx.y); every thread of the column gets the sum.
__device__ float sum_over_rows(float value, float (*shared)[kColumns]) {
    shared[threadIdx.y][threadIdx.x] = value;
    __syncthreads();
    // Sequential addressing: the lower half of the row lanes adds the upper half, halving each step.
    for (int stride = kRowLanes / 2; stride > 0; stride /= 2) {
        if (threadIdx.y < stride)
            shared[threadIdx.y][threadIdx.x] += shared[threadIdx.y + stride][threadIdx.x];
        __syncthreads();
    }
    const float total = shared[0][threadIdx.x];
    __syncthreads();  // before the array is written again
    return total;
}

__global__ void batch_norm(const float* input, const float* gamma, const float* beta, float* output, int N,
                           int C, float eps) {
    __shared__ float partial[kRowLanes][kColumns];
    const int c = blockIdx.x * kColumns + threadIdx.x;
    const bool in_range = c < C;  // threads past the last column still join every __syncthreads

    float sum = 0.0f;
    if (in_range)
        for (int r = threadIdx.y; r < N; r += kRowLanes) sum += input[static_cast<long long>(r) * C + c];
    const float mean = sum_over_rows(sum, partial) / N;

    float squares = 0.0f;
    if (in_range)
        for (int r = threadIdx.y; r < N; r += kRowLanes) {
            const float deviation = input[static_cast<long long>(r) * C + c] - mean;
            squares += deviation * deviation;
        }
    const float variance = sum_over_rows(squares, partial) / N;  // biased: divide by N, not N - 1

    if (!in_range) return;
    const float scale = gamma[c] / sqrtf(variance + eps);
    const float shift = beta[c];
    for (int r = threadIdx.y; r < N; r += kRowLanes) {
        const long long i = static_cast<long long>(r) * C + c;
        output[i] = (input[i] - mean) * scale + shift;
    }
}

}  // namespace

extern "C" void solve(const float* input, const float* gamma, const float* beta, float* output, int N, int C,
                      float eps) {
    const dim3 block(kColumns, kRowLanes);
    const int tiles = (C + kColumns - 1) / kColumns;
    batch_norm<<<tiles, block>>>(input, gamma, beta, output, N, C, eps);
}
