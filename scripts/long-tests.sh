#!/usr/bin/env bash
# The long runs that CI leaves out (docs/testing.md): the seeded property tests at ten times their
# CI size, then every fuzzer for 10 minutes (two at a time). Builds into build/ first, as
# scripts/test.sh does. About 50 minutes on two cores.
#
#   bash scripts/long-tests.sh                 # everything
#   RAYPICK_PROPERTY_CASES=10000000 bash scripts/long-tests.sh
#   RAYPICK_LONG_FUZZ_SECONDS=0 bash scripts/long-tests.sh   # property tests only
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/build.sh
BUILD_DIR="${RAYPICK_BUILD_DIR:-build}"
RAYPICK_PROPERTY_CASES="${RAYPICK_PROPERTY_CASES:-1000000}" \
  "$BUILD_DIR/tests/geometry/geometry_tests" --gtest_filter='PropertyTest.*:SceneQuery*'
seconds="${RAYPICK_LONG_FUZZ_SECONDS:-600}"
if [ "$seconds" -gt 0 ]; then
  bash scripts/fuzz.sh "$seconds"
fi
