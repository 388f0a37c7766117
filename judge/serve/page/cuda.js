// CUDA for CodeMirror: its C++ mode (clike, from libjs-codemirror) with CUDA's qualifiers, types and
// built-ins added.
(function () {
  "use strict";
  function words(text) {
    const set = {};
    for (const word of text.split(" ")) set[word] = true;
    return set;
  }
  const cpp = CodeMirror.resolveMode("text/x-c++src");
  CodeMirror.defineMIME("text/x-cuda", Object.assign({}, cpp, {
    keywords: Object.assign({}, cpp.keywords, words(
      "__global__ __device__ __host__ __shared__ __constant__ __managed__ __restrict__ __forceinline__ " +
      "__noinline__ __launch_bounds__ __grid_constant__")),
    types: Object.assign({}, cpp.types, words(
      "dim3 half half2 __half __half2 __nv_bfloat16 float2 float3 float4 int2 int3 int4 uint2 uint4 " +
      "double2 cudaStream_t cudaEvent_t cudaError_t size_t")),
    atoms: Object.assign({}, cpp.atoms, words("threadIdx blockIdx blockDim gridDim warpSize")),
    builtin: Object.assign({}, cpp.builtin || {}, words(
      "__syncthreads __syncwarp __shfl_sync __shfl_down_sync __shfl_up_sync __shfl_xor_sync __ballot_sync " +
      "__any_sync __all_sync __ldg atomicAdd atomicMax atomicMin atomicCAS atomicExch cudaMalloc cudaFree " +
      "cudaMemcpy cudaMemset cudaDeviceSynchronize cudaGetLastError")),
  }));
})();
