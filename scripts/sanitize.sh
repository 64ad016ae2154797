#!/usr/bin/env bash
# Sanitizer build: builds raypick with AddressSanitizer + UndefinedBehaviorSanitizer into build-asan/
# (or $RAYPICK_ASAN_BUILD_DIR) and runs the whole test suite there. Any sanitizer report fails the
# test that triggered it (-fno-sanitize-recover=all: UBSan aborts instead of printing and going on).
#
#   bash scripts/sanitize.sh            # app included, GL tests under Xvfb
#   RAYPICK_ASAN_APP=OFF bash scripts/sanitize.sh   # core, scene and cli only (no GL stack)
#   bash scripts/sanitize.sh -R Bvh     # extra arguments go to ctest
#
# The fuzz test is left out (-E '^fuzz\.'): its targets are built by clang with ASan + UBSan
# already (scripts/fuzz.sh), so running it here would only build the same binaries twice.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${RAYPICK_ASAN_BUILD_DIR:-build-asan}"
APP="${RAYPICK_ASAN_APP:-ON}"
SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"

# -O1 keeps the instrumented tests reasonably fast; Debug adds -g for readable stack traces.
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS="$SAN -O1" -DCMAKE_C_FLAGS="$SAN -O1" \
  -DCMAKE_EXE_LINKER_FLAGS="$SAN" -DCMAKE_SHARED_LINKER_FLAGS="$SAN" \
  -DRAYPICK_BUILD_APP="$APP" -DRAYPICK_BUILD_BENCH=OFF
cmake --build "$BUILD_DIR" -j"$(nproc)"

export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# Windowed tests need a display: a virtual X server with Mesa's software renderer, as scripts/test.sh.
export LIBGL_ALWAYS_SOFTWARE=1
xvfb-run -a -s "-screen 0 1280x720x24" \
  ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$(nproc)" -E '^fuzz\.' "$@"
