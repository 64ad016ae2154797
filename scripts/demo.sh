#!/usr/bin/env bash
# The README's run command: install what is missing, build, start the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/build.sh
BUILD_DIR="${RAYPICK_BUILD_DIR:-build}"
if [ -f assets/showcase.json ]; then
  exec "$BUILD_DIR/app/raypick" --scene assets/showcase.json "$@"
fi
exec "$BUILD_DIR/app/raypick" "$@"
