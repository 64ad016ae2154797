#!/bin/sh
# Each public header of geometry/ compiled on its own (first and only include), syntax only,
# -Wall -Wextra -Werror, with the extra flags given: a user's translation unit may include any one
# of them first, and may build for a wider instruction set than the project does (-march=native).
# Each is included as a user includes it, <raypick/geometry/...>, from the include directory given.
# Usage: self_contained.sh <c++ compiler> <source dir> <include dir> [flags...]
set -u
cxx=$1
src=$2
inc=$3
shift 3
status=0
for h in "$src"/geometry/*.h "$src"/geometry/textbook/*.h; do
    rel=${h#"$src"/}
    if ! printf '#include <raypick/%s>\n' "$rel" | "$cxx" -x c++ -std=c++17 -fsyntax-only -Wall -Wextra -Werror "$@" -I"$inc" -; then
        echo "FAILED: $rel does not compile on its own with: $*" >&2
        status=1
    fi
done
exit $status
