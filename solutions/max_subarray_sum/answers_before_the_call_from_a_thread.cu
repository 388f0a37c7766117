// expect: rejected
// Attack (work outside the call, from a thread of its own), correct answers, for max_subarray_sum:
// the timed run reuses three buffer sets (harness/runs/timed_runs.cpp make_slots), so their pointers
// repeat, and before each call the runner copies the inputs in, poisons the output
// (harness/runs/judged_call.cpp load_from), flushes the L2 and synchronises the device
// (device_space.cpp flush_caches), all before block() launches the hold. A std::thread started on
// the first call polls the output word of every buffer set solve has seen twice (12 bytes: front
// guard, output, back guard, on a cudaStreamNonBlocking stream, through the copy engines). When it
// reads the poison 0xA5A5A5A5 between two intact guards, the inputs of the next call are already in
// place (the copy precedes the poison on the legacy stream), so it checks the input's guards at
// [-1] and [N], and launches the whole computation on its own stream. The flush's
// cudaDeviceSynchronize (or at worst the hold's residency wait) lets it finish before the start
// event. solve then finds its answer written and returns without touching the device: the events
// bracket nothing (start and stop back to back), solve's host time is a lock and two atomics, the
// host clock from the release sees an empty call, the floor for 200 KB is 0.06 µs, and the judge's
// wall-clock check (judge/bench/timing.cpp wall_clock_check) only fires when the untimed work
// exceeds the harness's share (650-900 µs a cycle here) plus 100 µs. Every timed output is still
// right (each is computed from that call's data), so the data variants do not catch it. Expected
// on the current judge: accepted at a median of about 1-3 µs at N = 50000 (single_block_shared.cu,
// the same kernel timed honestly: 12.2 / 12.9 µs). A buffer set whose
// parameters changed (a new run reusing the addresses, window 25000 then 3) is recomputed on the
// legacy stream, ordered after the helper's last kernel. Without its helper (a runner that denies
// new threads) it writes nothing, so that a fix shows as a rejection either way; a judge that
// checks, behind the hold, that the outputs are still poison when the start event is reached
// answers impossible_time. Written by a red-team review from the code alone; on the H100 it crashed
// (SIGSEGV at N = 1) before the judge ran solve alone, so the attack was never shown to work. Now
// the runner ends at its thread's clone (judge/process/solve_alone.hpp: runtime_error).
#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <system_error>
#include <thread>

// The single-block kernel of single_block_shared.cu (step 2): stage, scan, best window.
#define solve single_block_shared_solve
#include "single_block_shared.cu"
#undef solve

namespace {

constexpr std::uint32_t kGuard = 0xCDCDCDCDu;   // harness/checks/poison.hpp kGuardByte, both sides of a buffer
constexpr std::uint32_t kPoison = 0xA5A5A5A5u;  // an int output before solve
constexpr int kSlots = 8;                        // buffer sets remembered; the timed run uses 3
constexpr long long kQuietNs = 30'000;           // no polling while the call and its synchronise run

void launch(const int* input, int* output, int n, int window, cudaStream_t stream) {
    max_window_kernel<<<1, kThreads, (n + 1) * static_cast<int>(sizeof(int)), stream>>>(input, output, n, window);
}

long long now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// A buffer set, found by its output pointer. The helper launches only from kIdle, after reading
// the poison; solve takes kIdle to kClaimed (it computes) or kLaunched to kConsumed (done). Either
// goes back to kIdle once the helper reads an answer with a poll issued after that call began.
enum : int { kIdle, kLaunching, kLaunched, kClaimed, kConsumed };

struct slot {
    std::atomic<int> state{kIdle};
    std::atomic<unsigned> seq{0};      // solve's calls on this set
    std::atomic<unsigned> settled{0};  // the seq of the call whose answer frees the set
    // Under the registry lock: what the next call is expected to pass.
    const int* input = nullptr;
    int* output = nullptr;
    int n = 0, window = 0, sightings = 0;
    unsigned long long last_use = 0;
    // Set by the helper before it publishes kLaunched.
    const int* launched_input = nullptr;
    int* launched_output = nullptr;
    int launched_n = 0, launched_window = 0;
};

struct shared_state {
    slot slots[kSlots];
    std::atomic_flag lock = ATOMIC_FLAG_INIT;
    std::atomic<bool> stop{false};
    std::atomic<long long> quiet_until{0};
    unsigned long long clock = 0;
    cudaEvent_t helper_last = nullptr;  // recorded after each of the helper's launches
    int device = 0;
};

shared_state g;

struct registry_lock {
    registry_lock() {
        while (g.lock.test_and_set(std::memory_order_acquire)) {
        }
    }
    ~registry_lock() { g.lock.clear(std::memory_order_release); }
};

bool input_is_whole(const std::uint32_t* words) {  // [-1], [N - 1], [N]
    return words[0] == kGuard && words[1] != kGuard && words[2] == kGuard;
}

// Device memory now, both ends: a buffer set of a finished run may have been freed. (A copy from a
// freed pointer fails when it is queued; the check keeps stale words out of the stage as well.)
bool alive(const void* first, const void* last) {
    for (const void* p : {first, last}) {
        cudaPointerAttributes attributes{};
        if (cudaPointerGetAttributes(&attributes, p) != cudaSuccess || attributes.type != cudaMemoryTypeDevice) {
            cudaGetLastError();
            return false;
        }
    }
    return true;
}

bool copy_to_host(void* host, const void* device, std::size_t bytes, cudaStream_t stream) {
    if (cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, stream) == cudaSuccess) return true;
    cudaGetLastError();
    return false;
}

void helper_main() {
    cudaSetDevice(g.device);
    cudaStream_t stream = nullptr;
    std::uint32_t* stage = nullptr;
    if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess ||
        cudaMallocHost(&stage, 8 * kSlots * sizeof(std::uint32_t)) != cudaSuccess)
        return;
    struct snapshot {
        int index;
        const int* input;
        int* output;
        int n, window;
        unsigned seq;
    };
    while (!g.stop.load(std::memory_order_relaxed)) {
        if (now_ns() < g.quiet_until.load(std::memory_order_relaxed)) continue;
        snapshot snaps[kSlots];
        int count = 0;
        {
            registry_lock hold;
            for (int i = 0; i < kSlots; ++i) {
                const slot& s = g.slots[i];
                if (s.output && s.sightings >= 2)
                    snaps[count++] = {i, s.input, s.output, s.n, s.window, s.seq.load()};
            }
        }
        if (count == 0) {
            std::this_thread::yield();
            continue;
        }
        bool polled[kSlots] = {};
        for (int i = 0; i < count; ++i)  // front guard, the output, back guard
            polled[i] = alive(snaps[i].output - 1, snaps[i].output + 1) &&
                        copy_to_host(stage + 8 * i, snaps[i].output - 1, 3 * sizeof(std::uint32_t), stream);
        if (cudaStreamSynchronize(stream) != cudaSuccess) {
            cudaGetLastError();
            continue;
        }
        for (int i = 0; i < count; ++i) {
            if (!polled[i]) continue;
            slot& s = g.slots[snaps[i].index];
            const std::uint32_t* out = stage + 8 * i;
            const bool poisoned = out[1] == kPoison;
            int state = s.state.load();
            if (state == kClaimed || state == kConsumed) {
                // The answer of the last call is in, read by a poll issued after that call began.
                if (!poisoned && s.settled.load() == snaps[i].seq) s.state.compare_exchange_strong(state, kIdle);
                continue;
            }
            if (state != kIdle || !poisoned || out[0] != kGuard || out[2] != kGuard) continue;
            // A fresh load. Its inputs are in place; check that this pointer still holds N of them.
            std::uint32_t* in = stage + 8 * i + 4;
            const int* first = snaps[i].input - 1;
            const int* last = snaps[i].input + snaps[i].n;
            if (!alive(first, last) || !copy_to_host(in, first, sizeof(std::uint32_t), stream) ||
                !copy_to_host(in + 1, last - 1, 2 * sizeof(std::uint32_t), stream))
                continue;
            if (cudaStreamSynchronize(stream) != cudaSuccess) {
                cudaGetLastError();
                continue;
            }
            if (!input_is_whole(in)) continue;
            if (!s.state.compare_exchange_strong(state, kLaunching)) continue;  // solve got there first
            launch(snaps[i].input, snaps[i].output, snaps[i].n, snaps[i].window, stream);
            cudaEventRecord(g.helper_last, stream);
            s.launched_input = snaps[i].input;
            s.launched_output = snaps[i].output;
            s.launched_n = snaps[i].n;
            s.launched_window = snaps[i].window;
            s.state.store(kLaunched);
        }
    }
    cudaStreamSynchronize(stream);
    cudaStreamDestroy(stream);
    cudaFreeHost(stage);
}

// Started after the first CUDA call, so that it is stopped and joined before the runtime's own exit
// handlers (and before dlclose unmaps this library).
struct helper_owner {
    std::thread thread;
    bool running = false;
    helper_owner() {
        try {
            thread = std::thread(helper_main);
            running = true;
        } catch (const std::system_error&) {
        }
    }
    ~helper_owner() {
        g.stop = true;
        if (thread.joinable()) thread.join();
    }
};

slot& find_or_add(const int* input, int* output, int n, int window) {
    registry_lock hold;
    slot* oldest = nullptr;
    for (slot& s : g.slots) {
        if (s.output == output) {
            s.input = input;
            s.n = n;
            s.window = window;
            ++s.sightings;
            s.last_use = ++g.clock;
            return s;
        }
        if (s.state.load() != kLaunching && (!oldest || s.last_use < oldest->last_use)) oldest = &s;
    }
    slot& s = oldest ? *oldest : g.slots[0];
    s.output = output;
    s.input = input;
    s.n = n;
    s.window = window;
    s.sightings = 1;
    s.last_use = ++g.clock;
    s.state.store(kClaimed);
    return s;
}

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int window_size) {
    g.quiet_until.store(now_ns() + kQuietNs, std::memory_order_relaxed);
    static bool ready = [] {
        cudaGetDevice(&g.device);
        cudaFuncSetAttribute(max_window_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             (kMaxN + 1) * static_cast<int>(sizeof(int)));
        cudaEventCreateWithFlags(&g.helper_last, cudaEventDisableTiming);
        return true;
    }();
    static helper_owner helper;
    if (!ready || !helper.running) return;  // no helper, no answers: see the header

    slot& s = find_or_add(input, output, N, window_size);
    const unsigned call = s.seq.load() + 1;
    s.settled.store(call);  // before seq: a poll that sees this seq sees it settled by this call
    s.seq.store(call);
    bool compute = true;
    for (;;) {
        int state = s.state.load();
        if (state == kLaunching) continue;  // the helper is inside cudaLaunchKernel: a few µs at most
        if (state == kLaunched) {
            if (!s.state.compare_exchange_strong(state, kConsumed)) continue;
            compute = !(s.launched_input == input && s.launched_output == output && s.launched_n == N &&
                        s.launched_window == window_size);
            break;
        }
        if (state == kIdle) {
            if (!s.state.compare_exchange_strong(state, kClaimed)) continue;
            break;
        }
        s.state.store(kClaimed);  // kClaimed or kConsumed: the helper missed this load
        break;
    }
    if (!compute) return;  // the answer was written before the hold was launched
    cudaStreamWaitEvent(0, g.helper_last, 0);  // any launch of the helper's on this output goes first
    launch(input, output, N, window_size, 0);
}
