// expect: accepted
// timed: unblocked
// Attack (host work on CUDA's own thread, after solve returns), correct answers, for max_subarray_sum
// (N = 50000: 200 KB in, one int out); written by a red-team review from the judge's code alone.
// solve queues on a cudaStreamNonBlocking stream a copy of the input to pinned memory (a copy engine:
// the hold does not stop it) and a host function (cuLaunchHostFunc). The function runs on the thread
// CUDA keeps for host functions, which the judge starts itself before solve runs alone, so the seccomp
// filter sees no clone. On the legacy stream solve queues one 1-thread kernel that waits for the answer
// in mapped host memory and writes it to `output`. solve shares the window sums with that thread until
// just under what held calls allow for its host time uncharged, and returns; the function goes on while the
// judge records its stop event and releases the hold, which no clock reads, so the events time only
// the kernel's wait for whatever is left (estimated 5-9 µs against 12.2 µs for single_block_shared.cu).
// The device timer now reads the CPU time of the runner's other threads around every call
// (harness/timing/thread_cpu.hpp): this file's reads far over the 2 µs allowed, and its runs are timed
// unblocked, from before the call, host work and all. Accepted, at an honest time.
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>
#include <immintrin.h>

namespace {

constexpr int kTasks = 16;                // window-sum segments, plus the first window's sum
constexpr double kEventOverheadUs = 1.5;  // events over the kernel's own span (an empty kernel reads 3.2)
constexpr double kShare = 0.85;           // of the estimated allowance, for solve's host time
constexpr double kToHostBytesPerUs = 55e3;  // ~55 GB/s, as the judge measures it

__device__ unsigned long long now_ns() {
    unsigned long long ns;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
    return ns;
}

struct delivery {
    unsigned long long seq, waited_ns, span_ns;
};

// The only kernel: what the events time. Waits for the host's answer (tagged with the call's
// sequence number), holds at least `min_ns` so that the allowance covers solve's issue calls,
// writes the answer and reports how long it waited.
__global__ void deliver(const volatile unsigned long long* mailbox, unsigned seq, int* output,
                        unsigned long long min_ns, volatile delivery* stats) {
    if (threadIdx.x != 0) return;
    const unsigned long long start = now_ns();
    unsigned long long value;
    while (((value = *mailbox) >> 32) != seq) {
    }
    const unsigned long long arrived = now_ns();
    while (now_ns() - start < min_ns) {
    }
    output[0] = static_cast<int>(static_cast<unsigned>(value & 0xffffffffu));
    stats->waited_ns = arrived - start;
    stats->span_ns = now_ns() - start;
    stats->seq = seq;
}

// One call's host work, shared by solve's thread and CUDA's callback thread.
struct job {
    const int* in = nullptr;  // pinned copy of the input
    int n = 0, w = 0, steps = 0, per_task = 0;
    unsigned seq = 0;
    unsigned long long* mailbox = nullptr;
    std::atomic<int> next{0}, done{0};
    int first_window = 0;
    int total[kTasks] = {}, best_prefix[kTasks] = {};  // per segment of the differences a[i+w] - a[i]
};

void finish(job& j) {
    long long carry = 0, best = 0;  // the empty prefix: the first window itself
    for (int t = 0; t < kTasks; ++t) {
        best = std::max(best, carry + j.best_prefix[t]);
        carry += j.total[t];
    }
    const unsigned answer = static_cast<unsigned>(static_cast<int>(j.first_window + best));
    __atomic_store_n(j.mailbox, (static_cast<unsigned long long>(j.seq) << 32) | answer, __ATOMIC_RELEASE);
}

// Over d[i] = a[i + w] - a[i], i in [b, e): the sum and the best non-empty prefix sum.
void segment_scalar(const int* a, int w, int b, int e, int& total, int& best) {
    constexpr int kChains = 4;  // independent chains over the segment's quarters, combined in order
    const int q = (e - b) / kChains;
    int run[kChains] = {}, top[kChains];
    const int* p[kChains];
    for (int c = 0; c < kChains; ++c) {
        top[c] = INT_MIN;
        p[c] = a + b + c * q;
    }
    for (int k = 0; k < q; ++k) {
#pragma unroll
        for (int c = 0; c < kChains; ++c) {
            run[c] += p[c][k + w] - p[c][k];
            top[c] = std::max(top[c], run[c]);
        }
    }
    long long carry = 0, top_all = LLONG_MIN;
    for (int c = 0; c < kChains && q > 0; ++c) {
        top_all = std::max(top_all, carry + top[c]);
        carry += run[c];
    }
    for (int i = b + kChains * q; i < e; ++i) {
        carry += a[i + w] - a[i];
        top_all = std::max(top_all, carry);
    }
    total = static_cast<int>(carry);
    best = top_all == LLONG_MIN ? INT_MIN / 2 : static_cast<int>(top_all);
}

// The same, eight at a time: an in-register prefix sum and a carried offset.
__attribute__((target("avx2"))) void segment_avx2(const int* a, int w, int b, int e, int& total, int& best) {
    __m256i carry = _mm256_setzero_si256(), top = _mm256_set1_epi32(INT_MIN);
    const __m256i last = _mm256_set1_epi32(7), low_last = _mm256_set1_epi32(3);
    int i = b;
    for (; i + 8 <= e; i += 8) {
        __m256i x = _mm256_sub_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i + w)),
                                     _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i)));
        x = _mm256_add_epi32(x, _mm256_slli_si256(x, 4));
        x = _mm256_add_epi32(x, _mm256_slli_si256(x, 8));
        const __m256i low = _mm256_blend_epi32(_mm256_setzero_si256(), _mm256_permutevar8x32_epi32(x, low_last), 0xF0);
        x = _mm256_add_epi32(_mm256_add_epi32(x, low), carry);
        top = _mm256_max_epi32(top, x);
        carry = _mm256_permutevar8x32_epi32(x, last);
    }
    alignas(32) int tops[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(tops), top);
    long long run = _mm256_extract_epi32(carry, 0), top_all = LLONG_MIN;
    if (i > b)
        for (int k = 0; k < 8; ++k) top_all = std::max<long long>(top_all, tops[k]);
    for (; i < e; ++i) {
        run += a[i + w] - a[i];
        top_all = std::max(top_all, run);
    }
    total = static_cast<int>(run);
    best = top_all == LLONG_MIN ? INT_MIN / 2 : static_cast<int>(top_all);
}

const bool kHasAvx2 = __builtin_cpu_supports("avx2");

void run_task(job& j, int t) {
    if (t == kTasks) {  // the first window, a[0..w)
        int sum = 0;
        for (int i = 0; i < j.w; ++i) sum += j.in[i];
        j.first_window = sum;
    } else {
        const int begin = std::min(j.steps, t * j.per_task), end = std::min(j.steps, begin + j.per_task);
        if (kHasAvx2)
            segment_avx2(j.in, j.w, begin, end, j.total[t], j.best_prefix[t]);
        else
            segment_scalar(j.in, j.w, begin, end, j.total[t], j.best_prefix[t]);
    }
    if (j.done.fetch_add(1, std::memory_order_acq_rel) + 1 == kTasks + 1) finish(j);
}

// Takes tasks until none is left or, for solve's thread, until its deadline.
template <typename Clock>
void work(job& j, Clock deadline) {
    while (!deadline()) {
        const int t = j.next.fetch_add(1, std::memory_order_acq_rel);
        if (t > kTasks) return;
        run_task(j, t);
    }
}

void CUDA_CB on_callback_thread(void* p) {
    work(*static_cast<job*>(p), [] { return false; });
}

class recent {
public:
    void add(double value) {
        values_[next_++ % kCount] = value;
        filled_ = std::min(filled_ + 1, kCount);
    }
    double median(double fallback) const {
        if (filled_ == 0) return fallback;
        double sorted[kCount];
        std::copy(values_, values_ + filled_, sorted);
        std::nth_element(sorted, sorted + filled_ / 2, sorted + filled_);
        return sorted[filled_ / 2];
    }

private:
    static constexpr int kCount = 15;
    double values_[kCount] = {};
    int next_ = 0, filled_ = 0;
};

// libcuda's entry points: warm from the judge's own calls, where the runtime linked into this
// library is cold (10.9-15.4 µs for one launch, clock_choice.hpp).
struct driver {
    CUresult(CUDAAPI* dtoh)(void*, CUdeviceptr, std::size_t, CUstream) = nullptr;
    CUresult(CUDAAPI* host_func)(CUstream, CUhostFn, void*) = nullptr;
    CUresult(CUDAAPI* launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                              CUstream, void**, void**) = nullptr;
    CUresult(CUDAAPI* record)(CUevent, CUstream) = nullptr;
    CUresult(CUDAAPI* query)(CUevent) = nullptr;
};

template <typename F>
void entry_point(const char* name, F& out) {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult found{};
#if CUDART_VERSION >= 12050
    const cudaError_t got = cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &found);
#else
    const cudaError_t got = cudaGetDriverEntryPoint(name, &p, cudaEnableDefault, &found);
#endif
    if (got == cudaSuccess && found == cudaDriverEntryPointSuccess) out = reinterpret_cast<F>(p);
}

struct state {
    cudaStream_t stream = nullptr;
    cudaEvent_t copied = nullptr;
    CUfunction deliver_fn = nullptr;
    driver cu;
    int* host_in = nullptr;
    int capacity = 0;
    unsigned long long* mailbox = nullptr;  // mapped
    unsigned long long* mailbox_device = nullptr;
    delivery* stats = nullptr;  // mapped
    delivery* stats_device = nullptr;
    unsigned seq = 0;
    job j;
    recent span_us, issue_us;
};

state& init() {
    static state s;
    if (s.stream) return s;
    entry_point("cuMemcpyDtoHAsync", s.cu.dtoh);
    entry_point("cuLaunchHostFunc", s.cu.host_func);
    entry_point("cuLaunchKernel", s.cu.launch);
    entry_point("cuEventRecord", s.cu.record);
    entry_point("cuEventQuery", s.cu.query);
    cudaFunction_t fn = nullptr;
    cudaGetFuncBySymbol(&fn, reinterpret_cast<const void*>(deliver));
    s.deliver_fn = reinterpret_cast<CUfunction>(fn);
    cudaHostAlloc(reinterpret_cast<void**>(&s.mailbox), sizeof(unsigned long long), cudaHostAllocMapped);
    cudaHostGetDevicePointer(reinterpret_cast<void**>(&s.mailbox_device), s.mailbox, 0);
    *s.mailbox = 0;
    cudaHostAlloc(reinterpret_cast<void**>(&s.stats), sizeof(delivery), cudaHostAllocMapped);
    cudaHostGetDevicePointer(reinterpret_cast<void**>(&s.stats_device), s.stats, 0);
    *s.stats = delivery{};
    cudaEventCreateWithFlags(&s.copied, cudaEventDisableTiming);
    cudaDeviceSynchronize();  // the first call is an example's, never held back
    cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking);
    return s;
}

double since_us(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int window_size) {
    const auto entry = std::chrono::steady_clock::now();
    state& s = init();
    if (N > s.capacity) {
        if (s.host_in) cudaFreeHost(s.host_in);
        s.capacity = std::max(N, 1 << 16);
        cudaMallocHost(reinterpret_cast<void**>(&s.host_in), static_cast<std::size_t>(s.capacity) * sizeof(int));
    }
    // The last call's figures are final: the judge synchronised the device since.
    if (s.stats->seq == s.seq && s.seq != 0) s.span_us.add(1e-3 * static_cast<double>(s.stats->span_ns));

    job& j = s.j;
    j.in = s.host_in;
    j.n = N;
    j.w = window_size;
    j.steps = N - window_size;
    j.per_task = (j.steps + kTasks - 1) / kTasks;
    j.seq = ++s.seq;
    j.mailbox = s.mailbox;
    j.next.store(0);
    j.done.store(0);

    // Copy engine, then the callback thread; the kernel the events time, on the legacy stream.
    const auto stream = reinterpret_cast<CUstream>(s.stream);
    const auto src = reinterpret_cast<CUdeviceptr>(input);
    const std::size_t bytes = static_cast<std::size_t>(N) * sizeof(int);
    const bool fast = s.cu.dtoh && s.cu.host_func && s.cu.launch && s.cu.record && s.cu.query && s.deliver_fn;
    if (fast) {
        s.cu.dtoh(s.host_in, src, bytes, stream);
        s.cu.record(reinterpret_cast<CUevent>(s.copied), stream);
        s.cu.host_func(stream, on_callback_thread, &j);
    } else {
        cudaMemcpyAsync(s.host_in, input, bytes, cudaMemcpyDeviceToHost, s.stream);
        cudaEventRecord(s.copied, s.stream);
        cudaLaunchHostFunc(s.stream, on_callback_thread, &j);
    }

    // Tuning: the events read ~ the kernel's span; the allowance is then about E + max(E, the input's
    // copy to the host), 2E here. The kernel holds long enough for solve's issue calls to fit in it.
    const double copy_us = static_cast<double>(bytes) / kToHostBytesPerUs;
    const double issue_us = s.issue_us.median(8.0);
    const double min_span_us = std::max(0.0, issue_us / (2 * kShare) - kEventOverheadUs);
    const double event_us = std::max(s.span_us.median(min_span_us), min_span_us) + kEventOverheadUs;
    const double deadline_us = std::max(issue_us, kShare * (event_us + std::max(event_us, copy_us)));

    unsigned seq = j.seq;
    unsigned long long min_ns = static_cast<unsigned long long>(1e3 * min_span_us);
    void* args[] = {&s.mailbox_device, &seq, &output, &min_ns, &s.stats_device};
    if (fast)
        s.cu.launch(s.deliver_fn, 1, 1, 1, 32, 1, 1, 0, CU_STREAM_LEGACY, args, nullptr);
    else
        cudaLaunchKernel(reinterpret_cast<const void*>(deliver), dim3(1), dim3(32), args, 0, cudaStreamLegacy);
    s.issue_us.add(since_us(entry));

    // Until the deadline: wait for the copy, then take window-sum tasks beside the callback thread.
    auto past_deadline = [&] { return since_us(entry) >= deadline_us; };
    while (!past_deadline()) {
        const bool copied = fast ? s.cu.query(reinterpret_cast<CUevent>(s.copied)) == CUDA_SUCCESS
                                 : cudaEventQuery(s.copied) == cudaSuccess;
        if (copied) {
            work(j, past_deadline);
            break;
        }
    }
    while (!past_deadline()) {
    }
}
