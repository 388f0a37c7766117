// expect: wrong_answer
// Mistake (a cheat): remembers the answer for each input pointer and replays it when the pointer
// comes back. Timed runs give other data in the same buffers, so the replayed answer is wrong.
#include <map>

#define solve vectorized_float4_solve
#include "vectorized_float4.cu"
#undef solve

extern "C" void solve(const float* input, float* output, int N) {
    static std::map<const float*, float*> d_answers;  // device copies of earlier results
    auto it = d_answers.find(input);
    if (it != d_answers.end()) {
        cudaMemcpyAsync(output, it->second, sizeof(float), cudaMemcpyDeviceToDevice);
        return;
    }
    vectorized_float4_solve(input, output, N);
    float* d_saved = nullptr;
    cudaMalloc(&d_saved, sizeof(float));
    cudaMemcpyAsync(d_saved, output, sizeof(float), cudaMemcpyDeviceToDevice);
    d_answers[input] = d_saved;
}
