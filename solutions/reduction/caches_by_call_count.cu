// expect: wrong_answer
// Mistake (a cheat): computes its first five calls, then replays the answer of the call five
// before, as if the judge cycled through its data sets in a fixed order. Timed runs draw the data
// set of every call in a secret order.
#include <vector>

#define solve vectorized_float4_solve
#include "vectorized_float4.cu"
#undef solve

extern "C" void solve(const float* input, float* output, int N) {
    static std::vector<float*> d_answers;  // device copies of every result, in call order
    float* d_saved = nullptr;
    cudaMalloc(&d_saved, sizeof(float));
    if (d_answers.size() >= 5) cudaMemcpyAsync(output, d_answers[d_answers.size() - 5], sizeof(float), cudaMemcpyDeviceToDevice);
    else vectorized_float4_solve(input, output, N);
    cudaMemcpyAsync(d_saved, output, sizeof(float), cudaMemcpyDeviceToDevice);
    d_answers.push_back(d_saved);
}
