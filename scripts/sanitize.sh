#!/usr/bin/env bash
# Sanitizer build: builds raypick with AddressSanitizer + UndefinedBehaviorSanitizer into build-asan/
# (or $RAYPICK_ASAN_BUILD_DIR) and runs the whole test suite there. Any sanitizer report fails the
# test that triggered it (-fno-sanitize-recover=all: UBSan aborts instead of printing and going on).
#
#   bash scripts/sanitize.sh            # app included, GL tests under Xvfb
#   RAYPICK_ASAN_APP=OFF bash scripts/sanitize.sh   # core, scene and cli only (no GL stack)
#   bash scripts/sanitize.sh -R Bvh     # extra arguments go to both ctest passes
#
# The tests that run the demo under Xvfb (AppWindow.*, AppWindowEndToEnd.*, AppRandomEdits.*;
# $RAYPICK_ASAN_GL_TESTS) run in a second pass with detect_leaks=0 (Mesa leaks, see below);
# everything else with leak detection.
# The fuzz test is left out (-E '^fuzz\.'): its targets are built by clang with ASan + UBSan
# already (scripts/fuzz.sh), so running it here would only build the same binaries twice.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${RAYPICK_ASAN_BUILD_DIR:-build-asan}"
APP="${RAYPICK_ASAN_APP:-ON}"
# Tests that run the demo under Xvfb (through Mesa): the second pass below.
GL_TESTS="${RAYPICK_ASAN_GL_TESTS:-^(AppWindow|AppWindowEndToEnd|AppRandomEdits)\.}"
SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"

# -O1 keeps the instrumented tests reasonably fast; -g1 (line tables only) gives stack traces their
# files and lines at two thirds of the compile time of full debug information (-g). The toy shape
# type's rebuild of the scene library and caster is left out (tests/CMakeLists.txt).
# No Python module: an instrumented extension cannot be loaded into the uninstrumented interpreter
# (its sanitizer runtime would have to come first); the module's code is the batch API and the
# core, which the instrumented C++ tests run.
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1 \
  -DCMAKE_CXX_FLAGS="$SAN -O1" -DCMAKE_C_FLAGS="$SAN -O1" -DRAYPICK_BUILD_TOY_TESTS=OFF \
  -DCMAKE_EXE_LINKER_FLAGS="$SAN" -DCMAKE_SHARED_LINKER_FLAGS="$SAN" \
  -DRAYPICK_BUILD_APP="$APP" -DRAYPICK_BUILD_BENCH=OFF -DRAYPICK_BUILD_PYTHON=OFF
cmake --build "$BUILD_DIR" -j"$(nproc)"

# The seeded property tests at a fifth of their size: the instrumented run looks for memory and
# undefined-behaviour errors, which every case's code path meets within far fewer cases; the full
# size runs in the plain build (scripts/test.sh) and larger in scripts/long-tests.sh.
export RAYPICK_PROPERTY_CASES="${RAYPICK_PROPERTY_CASES:-20000}"
ASAN_BASE="abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# Windowed tests need a display: a virtual X server with Mesa's software renderer, as scripts/test.sh.
export LIBGL_ALWAYS_SOFTWARE=1
status=0
# Everything but the windowed tests, with leak detection.
ASAN_OPTIONS="${ASAN_OPTIONS:-$ASAN_BASE}" xvfb-run -a -s "-screen 0 1280x720x24 -noreset" \
  ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$(nproc)" -E "^fuzz\.|$GL_TESTS" "$@" || status=1
# The windowed tests (they run the demo under Xvfb) without leak detection: Mesa's software
# driver leaks at exit from a module it has already unloaded, so LeakSanitizer cannot even
# suppress it by name. Every other ASan/UBSan check stays on.
if [ "$APP" = ON ]; then
  ASAN_OPTIONS="${ASAN_OPTIONS:-$ASAN_BASE}:detect_leaks=0" xvfb-run -a -s "-screen 0 1280x720x24 -noreset" \
    ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$(nproc)" -R "$GL_TESTS" "$@" || status=1
fi
exit $status
