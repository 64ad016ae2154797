#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with clang into build-fuzz/ (or $RAYPICK_FUZZ_BUILD_DIR),
# replays every saved regression input (fuzz/regressions/<target>/), then fuzzes each target for
# SECONDS (default 10) starting from its seed corpus (fuzz/corpus/<target>/).
#
#   bash scripts/fuzz.sh                 # 10 s per target (what the CTest test runs)
#   bash scripts/fuzz.sh 600 fuzz_bvh    # 10 minutes on one target
#
# New inputs go to $BUILD_DIR/corpus/<target>/ (the checked-in seeds are only read); a failing
# input is saved as $BUILD_DIR/artifacts/<target>/crash-<sha1> and its report printed.
# Exit status: 0 all clean, 1 a failure, 77 clang or libFuzzer's runtime is not installed (skip).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
SECS="${1:-10}"
shift || true
BUILD_DIR="${RAYPICK_FUZZ_BUILD_DIR:-build-fuzz}"
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR="$ROOT/$BUILD_DIR" ;; esac
CLANGXX="${RAYPICK_FUZZ_CXX:-clang++}"
JOBS="$(nproc)"
TARGETS=("$@")
((${#TARGETS[@]})) || TARGETS=(fuzz_scene fuzz_model fuzz_cast_float fuzz_cast_double fuzz_bvh fuzz_mesh_bvh fuzz_queries)

# ---- skip only when the toolchain is genuinely missing ------------------------------------------
if ! command -v "$CLANGXX" >/dev/null 2>&1; then
  echo "fuzz.sh: SKIP: $CLANGXX not found (Debian: apt-get install clang)"
  exit 77
fi
probe_dir="$(mktemp -d)"
trap 'rm -rf "$probe_dir"' EXIT
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' \
  > "$probe_dir/probe.cpp"
if ! "$CLANGXX" -fsanitize=fuzzer,address,undefined "$probe_dir/probe.cpp" -o "$probe_dir/probe" \
     > "$probe_dir/log" 2>&1; then
  echo "fuzz.sh: SKIP: $CLANGXX cannot link a libFuzzer target (Debian: apt-get install libclang-rt-14-dev):"
  cat "$probe_dir/log"
  exit 77
fi

# UBSan stack traces name the function, not only the line.
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"

# ---- build -----------------------------------------------------------------------------------------
start=$SECONDS
cmake -S fuzz -B "$BUILD_DIR" -DCMAKE_CXX_COMPILER="$CLANGXX" > "$probe_dir/cmake.log" 2>&1 ||
  { cat "$probe_dir/cmake.log"; exit 1; }
cmake --build "$BUILD_DIR" -j"$JOBS" --target "${TARGETS[@]}"
echo "fuzz.sh: built ${TARGETS[*]} in $((SECONDS - start)) s"

# The interesting part of a failure log: for a broken invariant the decoded inputs and the message
# (the abort's stack trace is noise), for a sanitizer report the report with its stack.
show_failure() {
  if grep -q 'INVARIANT VIOLATED' "$1"; then
    sed -n '/INVARIANT VIOLATED/q;p' "$1" | grep -v '^INFO:\|^#[0-9]\|NEW_FUNC\|^Running\|Running 1 inputs' | tail -n 60
    grep -m1 'INVARIANT VIOLATED' "$1"
  else
    grep -v '^INFO:\|^#[0-9]\|NEW_FUNC\|^Running\|Running 1 inputs\|^\*\*\*\|^Executed' "$1" | head -n 60
  fi
}

# ---- regressions: inputs that once failed must stay clean ------------------------------------------
status=0
for t in "${TARGETS[@]}"; do
  dir="fuzz/regressions/$t"
  [ -d "$dir" ] || continue
  clean=0
  for f in "$dir"/*; do
    [ -f "$f" ] || continue
    if "$BUILD_DIR/$t" "$f" > "$BUILD_DIR/$t.regression.log" 2>&1; then
      clean=$((clean + 1))
    else
      echo "fuzz.sh: FAIL: $t on regression input $f:"
      show_failure "$BUILD_DIR/$t.regression.log"
      status=1
    fi
  done
  echo "fuzz.sh: $t: $clean regression input(s) clean"
done

# ---- fuzz each target for SECS seconds, $JOBS targets at a time ------------------------------------
run_target() {
  local t="$1" log="$BUILD_DIR/$1.log"
  local work="$BUILD_DIR/corpus/$t" art="$BUILD_DIR/artifacts/$t/"
  mkdir -p "$work" "$art"
  local extra=()
  [ -f "fuzz/$t.dict" ] && extra+=("-dict=fuzz/$t.dict")
  # RAYPICK_FUZZ_SEED / RAYPICK_FUZZ_RUNS make a run repeatable (the test suite sets them, so CI
  # explores the same inputs every time); unset, each run explores new ground.
  [ -n "${RAYPICK_FUZZ_SEED:-}" ] && extra+=("-seed=$RAYPICK_FUZZ_SEED")
  [ -n "${RAYPICK_FUZZ_RUNS:-}" ] && extra+=("-runs=$RAYPICK_FUZZ_RUNS")
  # The first directory receives new inputs; the seed directory is only read.
  if "$BUILD_DIR/$t" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$art" "${extra[@]}" "$work" "fuzz/corpus/$t" > "$log" 2>&1; then
    local runs cov
    runs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)"
    cov="$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 || true)"
    echo "fuzz.sh: $t: clean, ${runs:-?} inputs in ${SECS} s, ${cov:-cov: ?}"
  else
    echo "fuzz.sh: FAIL: $t (input saved under $art, full log $log):"
    show_failure "$log"
    return 1
  fi
}
pids=()
names=()
for t in "${TARGETS[@]}"; do
  while (( $(jobs -rp | wc -l) >= JOBS )); do wait -n || true; done
  run_target "$t" &
  pids+=($!)
  names+=("$t")
done
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || status=1
done
exit $status
