// find_toolkit_program (judge/toolkit/programs.hpp): the CUDA Toolkit's programs found one way (PATH,
// then $CUDA_HOME/bin, then the default installation's bin), and each one's message, verbatim, when
// it is nowhere: with an empty PATH and no toolkit in the folders searched.
#include "base/temp_dir.hpp"
#include "base/user_errors.hpp"
#include "toolkit/programs.hpp"
#include "toolkit/python_probe.hpp"

#include <sys/stat.h>
#include <catch2/catch.hpp>

#include <fstream>

using namespace gpujudge;

namespace {

// An executable file `name` in `folder` (made).
void fake_program(const std::filesystem::path& folder, const std::string& name) {
    std::filesystem::create_directories(folder);
    std::ofstream(folder / name) << "#!/bin/sh\n";
    chmod((folder / name).c_str(), 0755);
}

std::string message_of(const std::string& name, const toolkit_search& where) {
    try {
        find_toolkit_program(name, where);
    } catch (const environment_error& error) {
        return error.what();
    }
    return "(found)";
}

}  // namespace

TEST_CASE("each toolkit program's message says where it was looked for, what it is for and what to install",
          "[toolkit]") {
    toolkit_search where{"", "", "/nonexistent/cuda"};
    CHECK(message_of("nvcc", where) ==
          "nvcc not found on PATH or in /nonexistent/cuda/bin: gpujudge compiles CUDA submissions with it; install "
          "the CUDA Toolkit (https://developer.nvidia.com/cuda-downloads), then add its bin folder to PATH or set "
          "CUDA_HOME to the folder it is installed in");
    CHECK(message_of("ncu", where) ==
          "ncu not found on PATH or in /nonexistent/cuda/bin: `profile` runs the submission under it; install Nsight "
          "Compute, which comes with the CUDA Toolkit (https://developer.nvidia.com/nsight-compute), then add its bin "
          "folder to PATH or set CUDA_HOME to the folder it is installed in");
    CHECK(message_of("compute-sanitizer", where) ==
          "compute-sanitizer not found on PATH or in /nonexistent/cuda/bin: `sanitize` runs the submission under it; "
          "install the CUDA Toolkit (https://developer.nvidia.com/cuda-downloads), then add its bin folder to PATH "
          "or set CUDA_HOME to the folder it is installed in");
    CHECK(message_of("cuobjdump", where) ==
          "cuobjdump not found on PATH or in /nonexistent/cuda/bin: gpujudge reads a compiled submission's machine "
          "code (SASS) with it; install the CUDA Toolkit (https://developer.nvidia.com/cuda-downloads), then add its "
          "bin folder to PATH or set CUDA_HOME to the folder it is installed in");
    CHECK(message_of("nvdisasm", where) ==
          "nvdisasm not found on PATH or in /nonexistent/cuda/bin: gpujudge disassembles a compiled submission's "
          "machine code with it; install the CUDA Toolkit (https://developer.nvidia.com/cuda-downloads), then add "
          "its bin folder to PATH or set CUDA_HOME to the folder it is installed in");
    CHECK(toolkit_program_names() ==
          std::vector<std::string>{"nvcc", "ncu", "compute-sanitizer", "cuobjdump", "nvdisasm"});
    where.cuda_home = "/opt/cuda-home/";  // named in the message, before the default
    CHECK(message_of("nvcc", where)
              .rfind("nvcc not found on PATH, in /opt/cuda-home/bin or in /nonexistent/cuda/bin: gpujudge compiles",
                     0) == 0);
    where.cuda_home = "/nonexistent/cuda";  // the default itself: named once
    CHECK(message_of("ncu", where).rfind("ncu not found on PATH or in /nonexistent/cuda/bin: ", 0) == 0);
    CHECK_THROWS_AS(find_toolkit_program("nvcc-but-not-a-toolkit-program", where), std::invalid_argument);
}

TEST_CASE("a toolkit program is found on PATH first, then in $CUDA_HOME/bin, then in the default folder", "[toolkit]") {
    const temp_dir root("toolkit");
    const auto on_path = root.path() / "path";
    const auto home = root.path() / "home";
    const auto fallback = root.path() / "default";
    toolkit_search where{"/nonexistent:" + on_path.string(), home.string(), fallback};
    CHECK_FALSE(locate_toolkit_program("ncu", where));
    fake_program(fallback / "bin", "ncu");
    CHECK(find_toolkit_program("ncu", where) == fallback / "bin" / "ncu");
    fake_program(home / "bin", "ncu");
    CHECK(find_toolkit_program("ncu", where) == home / "bin" / "ncu");
    fake_program(on_path, "ncu");
    CHECK(find_toolkit_program("ncu", where) == on_path / "ncu");
    std::ofstream(on_path / "nvcc") << "not executable\n";  // a file that cannot run is not the program
    fake_program(fallback / "bin", "nvcc");
    CHECK(find_toolkit_program("nvcc", where) == fallback / "bin" / "nvcc");
}

TEST_CASE("a Python file is read for Triton line by line: a line of 200 000 blanks overflows no regex", "[toolkit]") {
    temp_dir dir("python-probe");
    const auto file = dir.path() / "solution.py";
    std::ofstream(file) << std::string(200000, ' ') << "\n" << std::string(200000, '\t') << "x\nimport triton\n";
    CHECK(imports_triton(file));
    CHECK(compiles_on_first_call(file));
    std::ofstream(file) << "import torch\nsolve = torch \\\n    .compile(lambda x: x)\n";  // one line to Python
    CHECK(compiles_on_first_call(file));
    std::ofstream(file) << "import torch\n# " << std::string(200000, 't') << "\n";
    CHECK_FALSE(imports_triton(file));
    CHECK_FALSE(compiles_on_first_call(file));
}
