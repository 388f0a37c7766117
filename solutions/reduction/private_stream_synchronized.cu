// expect: accepted
// Technique: memset_async_on_private_stream.cu's zeroing and kernel on a private
// cudaStreamNonBlocking stream, then cudaStreamSynchronize on that stream before returning. Not
// needed (the judge synchronises the device) and it makes solve wait on the host, so the timed
// runs stop holding the legacy stream back and time the call's launch latency too; correct all the
// same, provided the judge's input copies and output poison are done before the call.
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
    cudaStreamSynchronize(stream);
}
