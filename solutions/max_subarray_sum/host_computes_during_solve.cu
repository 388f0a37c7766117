// expect: accepted
// timed: unblocked
// Attack (head start, from the host), correct answers: the old timer held the legacy stream back
// while solve ran and, in that mode, left solve's host time out of the time. solve copies the
// input to pinned host memory on a cudaStreamNonBlocking stream (the copy engines are free while
// the legacy stream is held), takes the best window sum on the CPU, copies the answer back on the
// same stream and waits for it, so nothing of the call is left on the device when it returns: no
// event or host-clock reading after the release sees its work. The first two calls at each (N,
// window) first wait for the judge's input copies on the legacy stream. What stopped it buying a
// time on the old judge is held_call_times (harness/timing/clock_choice.cpp): solve's host time past
// the event time and one launch is charged to each held call (before, it ended holding back). A
// blocking kernel that occupies every SM does not stop copy engines: if that charge is ever dropped,
// this file's time drops to nothing. Its waits on the legacy stream end holding back first ("call 2
// waited on the device while held back"), and the unblocked host clock times it all: 69-105 µs on the
// H100 at N = 50000, 53.6-68.2 µs on an H200 with the charge (single_block_shared.cu 12.9 µs).
// Accepted, at an honest time that includes the host work.
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <map>
#include <utility>

extern "C" void solve(const int* input, int* output, int N, int window_size) {
    static cudaStream_t stream = nullptr;
    static cudaEvent_t inputs_ready = nullptr;
    static int* host = nullptr;
    static int capacity = 0;
    static std::map<std::pair<int, int>, int> calls;
    if (!stream) {
        cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
        cudaEventCreateWithFlags(&inputs_ready, cudaEventDisableTiming);
    }
    if (N + 1 > capacity) {
        if (host) cudaFreeHost(host);
        capacity = std::max(N + 1, 1 << 16);
        cudaMallocHost(&host, static_cast<std::size_t>(capacity) * sizeof(int));
    }
    if (++calls[{N, window_size}] <= 2) {
        cudaEventRecord(inputs_ready, 0);
        cudaStreamWaitEvent(stream, inputs_ready, 0);
    }
    cudaMemcpyAsync(host, input, static_cast<std::size_t>(N) * sizeof(int), cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
    long long window = 0;
    for (int i = 0; i < window_size; ++i) window += host[i];
    long long best = window;
    for (int i = window_size; i < N; ++i) {
        window += host[i] - host[i - window_size];
        best = std::max(best, window);
    }
    host[N] = static_cast<int>(best);
    cudaMemcpyAsync(output, host + N, sizeof(int), cudaMemcpyHostToDevice, stream);
    cudaStreamSynchronize(stream);
}
