// expect: wrong_answer
// cause: float32_sum
// Mistake: one thread adds every element into one float, in order. Slow, but the verdict comes first from
// precision: once the running sum is large, each new term loses its low bits to rounding (999.5 added to a
// sum past 2^23 is rounded every time), and 65537 such additions drift far past the tolerance. A tree of
// partial sums keeps every addition between numbers of similar size.
#include <cuda_runtime.h>

namespace {

__global__ void sum_in_order(const float* input, float* output, int N) {
    float sum = 0.0f;
    for (int i = 0; i < N; ++i) sum += input[i];
    *output = sum;
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    sum_in_order<<<1, 1>>>(input, output, N);
}
