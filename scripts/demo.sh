#!/usr/bin/env bash
# The README's run command: install what is missing, build the demo (only what it needs: not the
# tests, benchmarks or fuzzers), start it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
BUILD_DIR="${RAYPICK_BUILD_DIR:-build}"
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="${RAYPICK_BUILD_TYPE:-RelWithDebInfo}"
cmake --build "$BUILD_DIR" -j"$(nproc)" --target raypick_app
if [ -f assets/showcase.json ]; then
  exec "$BUILD_DIR/app/raypick" --scene assets/showcase.json "$@"
fi
exec "$BUILD_DIR/app/raypick" "$@"
