#!/usr/bin/env bash
# Installs the Debian packages raypick needs, only those that are missing. Safe to re-run.
# libxtst6: the demo's end-to-end tests send real input through XTest; clang + libclang-rt-14-dev:
# the libFuzzer targets (fuzz/) that the test suite runs briefly. libtinyobjloader-dev and
# libtinygltf-dev: the model loaders (raypick::models), compiled from their headers. python3-dev,
# python3-numpy, python3-pybind11, pybind11-dev, python3-pytest: the Python module (python/) for
# Debian's /usr/bin/python3 and its tests.
set -euo pipefail
PACKAGES=(
  cmake g++ make pkg-config python3-glad
  libglm-dev libglfw3-dev libimgui-dev libstb-dev nlohmann-json3-dev
  libtinyobjloader-dev libtinygltf-dev
  libgtest-dev libbenchmark-dev
  libgl1-mesa-dri libgl1-mesa-dev xvfb xauth libxtst6
  clang libclang-rt-14-dev
  python3-dev python3-numpy python3-pybind11 pybind11-dev python3-pytest
)
# Optional: libembree-dev (Embree 3) adds Embree to bench/raypick_bench_pick; not needed otherwise.
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "raypick: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
