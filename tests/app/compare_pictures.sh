#!/usr/bin/env bash
# Renders the same screenshots with two builds of the demo and counts the differing pixels of each
# pair (ImageMagick's `compare -metric AE`, exact: no fuzz). For renderer changes that must not
# change the picture: every line exactly the same. (Builds older than commit b7a9793 round the
# wireframes' red to 229 on some line pixels where newer ones give 230; for such pairs it also
# counts what differs besides that.)
#
#   bash tests/app/compare_pictures.sh OLD/app/raypick_harness NEW/app/raypick_harness [OUT_DIR]
#
# (Any two demo executables that take --bench-orbit and --screenshot can be compared.)
#
# Cases: 10 000 and 100 000 generated shapes (still camera, and after a few --bench-orbit frames,
# which draw the scene straight into the window), wire and solid, without the panels (their Stats
# text changes from run to run); the showcase with a frozen ray and the textbook comparison; every
# scene in assets/, wire and solid. Exit status 1 when any pair differs. Needs a display (run it
# under xvfb-run) or runs one itself.
set -uo pipefail
old=$(realpath "$1")
new=$(realpath "$2")
out=${3:-$(mktemp -d)}
mkdir -p "$out"
cd "$(dirname "$0")/../.."
if [[ -z "${DISPLAY:-}" ]]; then
  exec xvfb-run -a -s "-screen 0 1280x720x24" bash "$0" "$old" "$new" "$out"
fi
export LIBGL_ALWAYS_SOFTWARE=1

cases=()
for mode in "" "--solid"; do
  cases+=("shapes10k$mode|--shapes 10000 --no-ui $mode")
  cases+=("shapes10k-orbit$mode|--shapes 10000 --no-ui --bench-orbit $mode")
  cases+=("shapes100k$mode|--shapes 100000 --no-ui $mode")
  cases+=("showcase-ray$mode|--scene assets/showcase.json --no-ui --ray -7 1 -1.2 1 -0.05 0.3 --compare $mode")
  cases+=("showcase-orbit$mode|--scene assets/showcase.json --no-ui --bench-orbit $mode")
  for f in assets/*.json; do
    cases+=("$(basename "$f" .json)$mode|--scene $f --no-ui $mode")
  done
done

failed=0
total=0
for c in "${cases[@]}"; do
  name=${c%%|*}
  args=${c#*|}
  name=${name//--/-}
  # shellcheck disable=SC2086
  "$old" $args --screenshot "$out/$name.old.png" > /dev/null 2>&1 || { echo "$name: old build failed"; failed=1; continue; }
  # shellcheck disable=SC2086
  "$new" $args --screenshot "$out/$name.new.png" > /dev/null 2>&1 || { echo "$name: new build failed"; failed=1; continue; }
  diff=$(compare -metric AE "$out/$name.old.png" "$out/$name.new.png" null: 2>&1)
  total=$((total + 1))
  if [[ "$diff" != "0" ]]; then
    # Commit b7a9793 made the wireframes' colour a uniform: palette::shape's red, 0.9 * 255 =
    # 229.5, is 230 everywhere in newer builds; older ones' interpolated colour sometimes rounds to 229.
    convert "$out/$name.old.png" -fill 'rgb(230,51,51)' -opaque 'rgb(229,51,51)' "$out/$name.old230.png"
    rest=$(compare -metric AE "$out/$name.old230.png" "$out/$name.new.png" null: 2>&1)
    echo "$name: $diff differing pixels ($rest once the old red 229 is read as 230)"
    compare "$out/$name.old.png" "$out/$name.new.png" "$out/$name.diff.png" > /dev/null 2>&1
    failed=1
  else
    echo "$name: identical"
  fi
done
echo "compared $total pairs in $out: $([[ $failed == 0 ]] && echo 'all identical' || echo 'DIFFERENCES')"
exit $failed
