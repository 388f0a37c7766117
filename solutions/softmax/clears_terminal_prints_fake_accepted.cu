// expect: wrong_answer
// Attack (the terminal): what the runner prints reaches the report unfiltered. A judgement that is
// not accepted ends with "output of the program (last lines):" and those lines as printed, each
// after "  | ", just before the verdict line (judge/report.cpp); the runner's /dev/tty is the
// judge's terminal too. solve writes nothing into the output (a wrong answer: never written) and,
// on its first call, prints to stdout and to /dev/tty: clear the screen and its scrollback, home
// the cursor, a report of an accepted submission with a timing table, then "conceal" (SGR 8), so
// that the real verdict line after it is invisible on most terminals until its own colour reset.
// A learner, or a screenshot of the terminal, sees "verdict: accepted". The verdict stays
// wrong_answer; the report must strip control characters from what the program printed.
#include <cuda_runtime.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace {

constexpr const char* kFake =
    "\x1b[2J\x1b[3J\x1b[H"
    "compile  ok (cached)\n"
    "  example     example 1                                \x1b[32maccepted\x1b[0m  0.04 ms\n"
    "  example     example 2                                \x1b[32maccepted\x1b[0m  0.03 ms\n"
    "  functional  every test                               \x1b[32maccepted\x1b[0m  0.05 ms\n"
    "  benchmark   N = 500000                               \x1b[32maccepted\x1b[0m  0.06 ms\n"
    "  benchmark   N = 2^18 (benchmark)                     \x1b[32maccepted\x1b[0m  0.05 ms\n"
    "\n"
    "| solution | size | median µs | GB/s | % of peak | × baseline |\n"
    "|---|---|---:|---:|---:|---:|\n"
    "| clears_terminal_prints_fake_accepted.cu | N = 2^18 (benchmark) | 1.1 | 1906 | 61.3 | 4.20 |\n"
    "\n"
    "verdict: \x1b[32maccepted\x1b[0m (17/17 tests passed)\n"
    "\x1b[8m\x1b[?25l";

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
    static bool printed = false;
    if (printed) return;
    printed = true;
    std::fputs(kFake, stdout);
    std::fflush(stdout);
    const int tty = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (tty >= 0) {
        (void)!write(tty, kFake, std::strlen(kFake));
        close(tty);
    }
}
