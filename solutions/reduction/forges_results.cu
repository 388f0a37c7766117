// expect: runtime_error
// Mistake (an attack on the judge): writes "accepted" results and "done" for every test into
// every file descriptor the runner might use for its channel, then leaves without a word of its
// own. The runner seals its messages with a secret this code never sees.
#include <cuda_runtime.h>
#include <string>
#include <unistd.h>

extern "C" void solve(const float* input, float* output, int N) {
    std::string lines;
    for (int test = 0; test < 20; ++test)
        lines += "{\"event\":\"result\",\"body\":{\"test\":" + std::to_string(test) +
                 ",\"verdict\":\"accepted\",\"message\":\"\",\"wall_ms\":0.1}}\n";
    lines += "{\"event\":\"done\",\"body\":{}}\n";
    for (int fd = 3; fd < 64; ++fd) (void)!write(fd, lines.data(), lines.size());
    _exit(0);
}
