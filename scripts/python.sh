#!/usr/bin/env bash
# Builds the Python module raypick for Debian's /usr/bin/python3 and installs it into that
# interpreter's own site directory (/usr/local/lib/python3.11/dist-packages), so that
# `/usr/bin/python3 -c "import raypick"` works from any folder. Only Debian packages: scripts/deps.sh
# installs python3-dev, python3-numpy, python3-pybind11, pybind11-dev and python3-pytest.
#   bash scripts/python.sh                 # Release build in build-python/, then install
#   RAYPICK_PYTHON_BUILD_DIR=dir bash scripts/python.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
BUILD_DIR="${RAYPICK_PYTHON_BUILD_DIR:-build-python}"
PYTHON=/usr/bin/python3
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DPython3_EXECUTABLE="$PYTHON" -DRAYPICK_BUILD_PYTHON=ON \
  -DRAYPICK_BUILD_TESTS=OFF -DRAYPICK_BUILD_APP=OFF -DRAYPICK_BUILD_BENCH=OFF -DRAYPICK_BUILD_CLI=OFF \
  -DRAYPICK_BUILD_MODELS=OFF > /dev/null
cmake --build "$BUILD_DIR" -j"$(nproc)" --target _raypick
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO cmake --install "$BUILD_DIR" --component python
cd /  # not the source tree: import the installed package
"$PYTHON" -c "import raypick; print('raypick', raypick.__version__, 'installed:', raypick.__file__)"
