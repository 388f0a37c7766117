// expect: accepted
// Technique: thrust::reduce with the policy thrust::cuda::par.on(stream) on a private
// cudaStreamNonBlocking stream. thrust::reduce returns the sum to the host, so it waits for its
// stream; solve then copies the value into the output with cudaMemcpyAsync on the same stream
// (from a pinned host buffer, so the copy does not depend on solve's stack) and returns. Correct
// once the judge has finished copying the inputs before the call.
#include <cuda_runtime.h>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>

extern "C" void solve(const float* input, float* output, int N) {
    static cudaStream_t stream = nullptr;
    static float* host_sum = nullptr;
    if (!stream) {
        cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
        cudaMallocHost(&host_sum, sizeof(float));
    }
    const thrust::device_ptr<const float> begin(input);
    *host_sum = thrust::reduce(thrust::cuda::par.on(stream), begin, begin + N, 0.0f);
    cudaMemcpyAsync(output, host_sum, sizeof(float), cudaMemcpyHostToDevice, stream);
}
