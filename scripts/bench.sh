#!/usr/bin/env bash
# Runs every benchmark on the same data and prints the figures docs/performance.md quotes.
# Install libembree-dev first to include Embree 3 in the picking comparison (optional).
#   bash scripts/bench.sh                      # Release build in build-bench/, then all benchmarks
#   RAYPICK_BENCH_DEMO=1 bash scripts/bench.sh # also the demo's frame times, through raypick_harness
#                                              # (Release build in build-bench-demo/, Xvfb if no display)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${RAYPICK_BENCH_BUILD_DIR:-build-bench}"
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DRAYPICK_BUILD_APP=OFF -DRAYPICK_BUILD_TESTS=OFF > /dev/null
cmake --build "$BUILD_DIR" -j"$(nproc)" --target raypick_bench_kernels raypick_bench_pick raypick_bench_raycast \
  raypick_bench_mesh raypick_mesh_leaks raypick_bench_queries
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
"$BUILD_DIR/bench/raypick_bench_kernels" --benchmark_min_time=0.5
# The kernel targets (robust cast against its textbook variant, batch against the scalar cast) once
# more: five repetitions in random order, so that the machine's drift (the scalar figures move by
# up to 30 % from run to run here) hits every kernel alike. The medians are the verdict.
"$BUILD_DIR/bench/raypick_bench_kernels" \
  --benchmark_filter='_(Default|TextbookAlgebraic|TextbookEpsilon|TextbookAxisLoop|TextbookPublished|Batch)$' \
  --benchmark_min_time=0.3 --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true \
  --benchmark_display_aggregates_only=true
"$BUILD_DIR/bench/raypick_bench_pick" --benchmark_min_time=0.5
# The picking and build targets among 10^6 shapes once more: five repetitions in random order, raypick's and
# Embree's runs interleaved so that the machine's drift (5-15 % here) hits both alike. The
# medians are the verdict docs/performance.md quotes.
"$BUILD_DIR/bench/raypick_bench_pick" --benchmark_filter='BM_Pick(Bvh|Embree)/[0-4]/1000000$|Build' \
  --benchmark_min_time=0.5 --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true \
  --benchmark_display_aggregates_only=true
"$BUILD_DIR/bench/raypick_bench_raycast"
# Meshes: picks among 10^6 triangles and 10^3 instances, the build, bytes per triangle and a
# 1280x720 image, against Embree when it is installed; then the leaks on rays exactly through
# shared vertices and edges of closed float meshes (raypick, Moller-Trumbore, Embree).
"$BUILD_DIR/bench/raypick_bench_mesh" --benchmark_min_time=0.5
"$BUILD_DIR/bench/raypick_mesh_leaks"
# The scene queries: occlusion against rtcOccluded1 (robust and default mode) and the inside test
# against Open3D's method, five repetitions interleaved; the medians are the verdict.
"$BUILD_DIR/bench/raypick_bench_queries" --benchmark_min_time=0.5 --benchmark_repetitions=5 \
  --benchmark_enable_random_interleaving=true --benchmark_display_aggregates_only=true
# Batch picks of 10^6 rays at a 10^6-triangle sphere through the C++ batch API and, when the
# Python module is configured, through the module too (its cost: docs/python.md).
cmake --build "$BUILD_DIR" -j"$(nproc)" --target raypick_bench_scene_batch > /dev/null
if cmake --build "$BUILD_DIR" --target help | grep _raypick > /dev/null; then
  cmake --build "$BUILD_DIR" -j"$(nproc)" --target _raypick > /dev/null
  PYTHONPATH="$BUILD_DIR/python" /usr/bin/python3 python/bench.py --cpp "$BUILD_DIR/bench/raypick_bench_scene_batch"
else
  "$BUILD_DIR/bench/raypick_bench_scene_batch"
fi
# With Embree installed: the capsule cases its curves get wrong, on the same rays for both.
# (grep without -q reads all of make's output: -q would close the pipe early, make would fail
# with "Broken pipe", and pipefail would skip this step.)
if cmake --build "$BUILD_DIR" --target help | grep raypick_embree_edge_cases > /dev/null; then
  cmake --build "$BUILD_DIR" --target raypick_embree_edge_cases > /dev/null
  "$BUILD_DIR/bench/raypick_embree_edge_cases"
fi
# The demo's frame times (1 000 and 10 000 shapes, still and orbiting, wire and solid), through
# the harness's --bench-frames / --bench-orbit, with the software renderer as in docs/performance.md.
if [[ "${RAYPICK_BENCH_DEMO:-0}" == 1 ]]; then
  DEMO_DIR="${RAYPICK_BENCH_DEMO_BUILD_DIR:-build-bench-demo}"
  cmake -S . -B "$DEMO_DIR" -DCMAKE_BUILD_TYPE=Release -DRAYPICK_BUILD_TESTS=OFF -DRAYPICK_BUILD_BENCH=OFF > /dev/null
  cmake --build "$DEMO_DIR" -j"$(nproc)" --target raypick_harness
  harness=("$DEMO_DIR/app/raypick_harness")
  [[ -z "${DISPLAY:-}" ]] && harness=(xvfb-run -a -s "-screen 0 1280x720x24" "${harness[@]}")
  for args in "--shapes 1000" "--shapes 10000" "--shapes 10000 --bench-orbit" "--shapes 10000 --bench-orbit --solid"; do
    # shellcheck disable=SC2086
    LIBGL_ALWAYS_SOFTWARE=1 "${harness[@]}" $args --bench-frames 200
  done
fi
