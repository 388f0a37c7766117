// expect: rejected
// Attack (work between the calls without a thread, a process or a timer), correct answers, for
// max_subarray_sum. Written by a red-team review from the code alone; NOT run on a GPU.
//
// judge/process/solve_alone.cpp denies clone/fork/timers, so no helper thread can work between the
// judge's calls. But the runner's main thread can be made to run the submission's code there, with
// no patching of the runner: on its first call solve
//   1. installs a SIGSYS handler (rt_sigaction: allowed), and
//   2. adds a seccomp filter of its own to the main thread (seccomp(SECCOMP_SET_MODE_FILTER): allowed,
//      no_new_privs is already set by bwrap / libseccomp) that answers SECCOMP_RET_TRAP to write(3, ...),
//      the result channel (judge/runner/protocol.hpp kChannelFd).
// From then on every message the runner sends to the judge traps into the handler, on the main
// thread, inside the harness. The handler performs the write itself with writev (not trapped) and
// sets RAX, so the channel works as before. When the message is `"event":"call"` (sent by the
// announcer's before_call, judge/runner/main.cpp:87, AFTER buffer_set::load_from has copied this
// call's inputs and poisoned its output and flush_caches has synchronised, harness/runs/timed_runs.cpp:150-155,
// and BEFORE the timer's before_call launches the hold, harness/runs/timed_runs.cpp:21-24), the handler
// launches the real kernel on the legacy stream for every buffer set solve has seen, each reading
// its output word first and doing nothing unless it still holds the poison (so only the set just
// loaded is computed), and writes the answer into a private scratch word, never into the output.
// The hold queues behind that kernel (it needs every SM's thread slots), so the kernel finishes
// before the hold is resident, before the poison check (which finds the output untouched: it only
// looks at outputs, harness/checks/poison_watch.hpp) and before the start event; unblocked, before the
// 1-block check and host_start_ (harness/buffers/device_space.cpp:24-27). solve then launches one tiny
// kernel that copies the scratch word into the output.
//
// Expected on the current judge: accepted, median about 1.5-3 µs at N = 50000 (the same kernel timed
// honestly, single_block_shared.cu: 12.2 / 12.9 µs on the H100); floor 0.06 µs; the judge's clock
// sees ~12 µs more per cycle, far inside wall_clock_check's slack (the harness's share, 650-900 µs).
// The first sighting of each buffer set (functional tests, the first calls of a timed run) is
// computed honestly. A buffer set seen before with the same parameters gets NOTHING written when
// no trap ran, so a fix shows as a rejection either way: seccomp() denied -> wrong_answer; SIGSYS
// reset to SIG_DFL after each call (or every handler reset) -> runtime_error (SIGSYS).
// The judge now does both: solve_alone's filter ends the runner at the seccomp() call (runtime_error,
// SIGSYS), and every handler is put back after each call (harness/calls/solve_signals.hpp).
#include <cuda.h>
#include <cuda_runtime.h>

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <ucontext.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>

// block_exclusive_scan and the block's shape come from single_block_shared.cu (step 2).
#define solve single_block_shared_solve
#include "single_block_shared.cu"
#undef solve

namespace {

constexpr int kPoison = static_cast<int>(0xA5A5A5A5u);  // harness/checks/poison.hpp: an int output before solve
constexpr int kPairs = 8;                                 // buffer sets remembered (a timed run uses 3)

struct answer {
    unsigned tag;
    int value;
};

// single_block_shared.cu's kernel (its best_window_sum) after plain loads; with `scratch`, it first
// checks that the output still holds the poison (the buffer set the harness has just loaded) and
// writes its answer to the scratch word.
__global__ void __launch_bounds__(kThreads)
    max_window_to_scratch(const int* input, int* output, int N, int window_size, answer* scratch, unsigned tag) {
    if (scratch && *reinterpret_cast<volatile const int*>(output) != kPoison) return;  // not the set just loaded
    extern __shared__ int prefix[];
    __shared__ int partial[kWarps];
    const int t = threadIdx.x;
    for (int i = t; i < N; i += kThreads) prefix[i + 1] = input[i];
    if (t == 0) prefix[0] = 0;
    __syncthreads();
    const int best = best_window_sum(prefix, N, window_size, partial);
    if (t == 0) {
        if (!scratch) {
            output[0] = best;
        } else {
            scratch->value = best;
            __threadfence();
            scratch->tag = tag;
        }
    }
}

// The timed call: one word, if the trap computed it for this very call.
__global__ void answer_kernel(const answer* scratch, int* output, unsigned tag) {
    if (scratch->tag == tag) output[0] = scratch->value;
}

struct pair_state {
    const int* input = nullptr;
    int* output = nullptr;
    int n = 0, window = 0;
    answer* scratch = nullptr;
    unsigned launched = 0;  // the trap generation that launched its kernel
};

pair_state g_pairs[kPairs];
int g_next = 0;
unsigned g_generation = 0;  // one per "call" message
bool g_trapping = false;

using range_fn = CUresult (*)(CUdeviceptr*, size_t*, CUdeviceptr);
range_fn g_range = nullptr;

// [p, p + bytes) lies in one live device allocation (a buffer set of an earlier test may be gone).
bool covered(const void* p, std::size_t bytes) {
    CUdeviceptr base = 0;
    size_t size = 0;
    if (!g_range || g_range(&base, &size, reinterpret_cast<CUdeviceptr>(p)) != CUDA_SUCCESS) return false;
    return reinterpret_cast<std::uintptr_t>(p) + bytes <= base + size;
}

// In the SIGSYS handler, on the runner's main thread, between load_from and the hold.
void precompute() {
    ++g_generation;
    for (pair_state& p : g_pairs) {
        if (!p.output || !covered(p.input, 4u * p.n) || !covered(p.output, 4)) continue;
        max_window_to_scratch<<<1, kThreads, (p.n + 1) * static_cast<int>(sizeof(int)), 0>>>(p.input, p.output, p.n,
                                                                                         p.window, p.scratch,
                                                                                         g_generation);
        p.launched = g_generation;
    }
    cudaGetLastError();
}

void on_sigsys(int, siginfo_t* info, void* raw) {
    const int saved = errno;
    greg_t* r = static_cast<ucontext_t*>(raw)->uc_mcontext.gregs;
    const int fd = static_cast<int>(r[REG_RDI]);
    void* buf = reinterpret_cast<void*>(r[REG_RSI]);
    const std::size_t len = static_cast<std::size_t>(r[REG_RDX]);
    static const char kCall[] = "\"event\":\"call\"";
    if (info->si_syscall == SYS_write && fd == 3 && memmem(buf, len, kCall, sizeof kCall - 1)) precompute();
    struct iovec v{buf, len};
    const long wrote = syscall(SYS_writev, fd, &v, 1);  // the write the harness asked for
    r[REG_RAX] = wrote < 0 ? -errno : wrote;
    errno = saved;
}

bool install_trap() {
    struct sigaction action{};
    action.sa_sigaction = on_sigsys;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGSYS, &action, nullptr) != 0) return false;
    struct sock_filter code[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_write, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),  // low half (little-endian)
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 3, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
    };
    struct sock_fprog program{static_cast<unsigned short>(sizeof code / sizeof code[0]), code};
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) == 0;  // this thread only
}

bool setup() {
    cudaFuncSetAttribute(max_window_to_scratch, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         (kMaxN + 1) * static_cast<int>(sizeof(int)));
    cudaDriverEntryPointQueryResult found{};
    void* fn = nullptr;
    if (cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &fn, 12000, cudaEnableDefault, &found) ==
            cudaSuccess &&
        found == cudaDriverEntryPointSuccess)
        g_range = reinterpret_cast<range_fn>(fn);
    g_trapping = install_trap();  // without it, a known buffer set gets nothing (see the header)
    return true;
}

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int window_size) {
    static const bool ready = setup();
    (void)ready;
    pair_state* p = nullptr;
    for (pair_state& s : g_pairs)
        if (s.output == output) p = &s;
    const bool known = p && p->input == input && p->n == N && p->window == window_size;
    if (known && p->launched == g_generation && g_generation != 0) {
        answer_kernel<<<1, 1>>>(p->scratch, output, g_generation);  // the whole timed call
        return;
    }
    if (known) return;  // seen before, yet no trap ran for this call: a fixed judge; write nothing
    if (!p) {
        p = &g_pairs[g_next];
        g_next = (g_next + 1) % kPairs;
        if (!p->scratch && cudaMalloc(&p->scratch, sizeof(answer)) != cudaSuccess) p->scratch = nullptr;
        if (p->scratch) cudaMemsetAsync(p->scratch, 0, sizeof(answer), 0);
    }
    p->input = input;
    p->output = output;
    p->n = N;
    p->window = window_size;
    p->launched = 0;
    max_window_to_scratch<<<1, kThreads, (N + 1) * static_cast<int>(sizeof(int)), 0>>>(input, output, N, window_size,
                                                                                   nullptr, 0);
}
