// expect: accepted
// Technique: correct code on a private stream. solve zeroes the output with cudaMemsetAsync and
// launches a grid-stride float4 reduction with atomicAdd, both on its own cudaStreamNonBlocking
// stream, and returns without synchronising: the judge synchronises the whole device after solve.
// A non-blocking stream does not wait for the legacy stream, where the judge copies the inputs
// and poisons the outputs just before the call, so the judge must have finished those before it
// calls solve: at N = 2^24 the old judge found the output "never written" (its poison landed after
// the kernel's sum).
#include <cuda_runtime.h>

namespace {

__global__ void reduce(const float* input, float* output, int n) {
    float sum = 0.0f;
    const int vectors = n / 4;
    const auto* v4 = reinterpret_cast<const float4*>(input);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < vectors; i += gridDim.x * blockDim.x) {
        const float4 v = v4[i];
        sum += (v.x + v.y) + (v.z + v.w);
    }
    if (blockIdx.x == 0 && threadIdx.x < n % 4) sum += input[vectors * 4 + threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(output, sum);
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    static cudaStream_t stream = nullptr;
    if (!stream) cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    cudaMemsetAsync(output, 0, sizeof(float), stream);
    reduce<<<1056, 256, 0, stream>>>(input, output, N);
}
