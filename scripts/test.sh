#!/usr/bin/env bash
# The README's test command: install what is missing, build, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
# Line tables only (-g1): failures still show files and lines, and the build takes two thirds of
# the time full debug information (RelWithDebInfo's -g) costs.
# The benchmarks are not tests: scripts/bench.sh builds them (Release, in a directory of its own).
bash scripts/build.sh -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
  -DRAYPICK_BUILD_BENCH=OFF
BUILD_DIR="${RAYPICK_BUILD_DIR:-build}"
# Windowed tests need a display: run the whole suite under a virtual X server (Mesa llvmpipe);
# -noreset keeps it up between test programs (a reset while an XTest test connects fails it).
export LIBGL_ALWAYS_SOFTWARE=1
xvfb-run -a -s "-screen 0 1280x720x24 -noreset" ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$(nproc)"
