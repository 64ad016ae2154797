#!/usr/bin/env bash
# Picks among 10^6 shapes of every mix, this tree against another commit, with bench/pick_ab.cpp
# compiled against each one's headers (g++ -O2, as the RelWithDebInfo build):
#   bash scripts/pick-ab.sh 1838f7c            # wall time: alternations of the two builds, medians
#   RAYPICK_AB=instructions bash scripts/pick-ab.sh 1838f7c   # instructions per pick (callgrind):
#                                              # exact and repeatable, also on a busy machine
# RAYPICK_AB_N (default 1000000) and RAYPICK_AB_MIXES (default "0 1 2 3 4") narrow it down;
# RAYPICK_AB_ALTERNATIONS (default 4) sets how many times the two builds alternate.
set -euo pipefail
cd "$(dirname "$0")/.."
base="${1:?usage: pick-ab.sh COMMIT}"
mode="${RAYPICK_AB:-time}"
n="${RAYPICK_AB_N:-1000000}"
mixes="${RAYPICK_AB_MIXES:-0 1 2 3 4}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Each side's headers under both include layouts (<raypick/geometry/...> and "geometry/...").
mkdir -p "$work/base/inc/raypick" "$work/this/inc/raypick"
git archive "$base" geometry bench | tar -x -C "$work/base"
cp -r geometry bench "$work/this/"
for side in base this; do
  ln -s ../../geometry "$work/$side/inc/raypick/geometry"
  printf '#pragma once\n' > "$work/$side/inc/raypick/Version.h"
  g++ -std=c++17 -O2 -g -DNDEBUG -I"$work/$side/inc" -I"$work/$side" -I"$work/$side/bench" \
    bench/pick_ab.cpp -o "$work/$side/pick_ab"
done
echo "== picks among $n shapes: this tree against $(git rev-parse --short "$base") ($mode)"
for mix in $mixes; do
  if [ "$mode" = instructions ]; then
    for side in base this; do
      valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" --toggle-collect='run_*' \
        "$work/$side/pick_ab" "$mix" "$n" 1 > "$work/$side.txt" 2>/dev/null
      ir=$(callgrind_annotate "$work/cg.out" | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
      # Two runs of the loop (the warm-up and one round) over 16384 rays.
      echo "$side $(cut -d: -f1 "$work/$side.txt"): $((ir / 32768)) instructions/pick"
    done
  else
    for round in $(seq "${RAYPICK_AB_ALTERNATIONS:-4}"); do
      for side in base this; do "$work/$side/pick_ab" "$mix" "$n" 20 | sed "s/^/$side /"; done
    done > "$work/runs.txt"
    # Medians of the four runs each; "speed" is this tree's picks per second over the base's.
    awk '{ns[$1] = ns[$1] " " $4; name = $2 " " $3}
         function median(list,   v, k, i, j, t) {
           k = split(list, v, " ")
           for (i = 1; i <= k; ++i) for (j = i + 1; j <= k; ++j) if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
           return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
         }
         END { b = median(ns["base"]); t = median(ns["this"]);
               printf "%s base %.1f ns/pick, this %.1f ns/pick, speed %.3fx\n", name, b, t, b / t }' "$work/runs.txt"
  fi
done
