// expect: accepted
// timed: unblocked
// Attack (head start, from the host), correct answers: the old timer held the legacy stream back
// while solve ran and, in that mode, left solve's host time out of the time. solve copies the
// input to pinned host memory on a cudaStreamNonBlocking stream (the copy engines are free while
// the legacy stream is held), takes the best window sum on the CPU, copies the answer back on the
// same stream and waits for it, so nothing of the call is left on the device when it returns: no
// event or host-clock reading after the release sees its work. The first two calls at each (N,
// window) first wait for the judge's input copies on the legacy stream. What stopped it buying a
// time on the old judge is may_hold_back (harness/timing/clock_choice.cpp): solve's host time above the
// event time ends holding back, and the unblocked host clock times it all. A blocking kernel that
// occupies every SM does not stop copy engines: if that check is ever dropped, this file's time
// drops to nothing. It allows one launch beyond the event time, at most the event time again; this
// file's host work is far beyond that (69-105 µs on the H100 at N = 50000, timed unblocked). Accepted,
// at an honest time that includes the host work.
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
