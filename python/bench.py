"""Times batch picks through the Python module: 10^6 random rays at a closed UV sphere of 10^6
triangles (raypick.meshgen.sphere, float32 scene), for 1 and 2 threads, median of five runs each;
then, when given the C++ timing program (bench/scene_batch.cpp), the same picks through the C++
batch API, so that the difference is the binding's cost (argument checks, output arrays, ids to
int64). The rays are those of the C++ program's definition: origins uniform on the sphere of
radius 3, each aimed at a point uniform in [-1, 1]^3.

    PYTHONPATH=build/python /usr/bin/python3 python/bench.py [--rays N] [--triangles M]
        [--threads 1 2] [--cpp build/bench/raypick_bench_scene_batch]
"""
import argparse
import os
import subprocess
import sys
import time

import numpy as np

# This file sits beside the package's sources (python/raypick, without the compiled part): take
# raypick from PYTHONPATH or the installation, not from here.
_here = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _here]
import raypick  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rays", type=int, default=10**6)
    ap.add_argument("--triangles", type=int, default=10**6)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--cpp", help="the C++ timing program raypick_bench_scene_batch, to run on the same sizes")
    args = ap.parse_args()

    t0 = time.perf_counter()
    scene = raypick.Scene(np.float32)
    v, f = raypick.meshgen.sphere(args.triangles, 1.0)
    scene.add_instance(scene.add_mesh(v, f))
    scene.commit()
    build_ms = (time.perf_counter() - t0) * 1e3

    rng = np.random.default_rng(12345)
    u = rng.normal(size=(args.rays, 3))
    origins = (3 * u / np.linalg.norm(u, axis=1, keepdims=True)).astype(np.float32)
    directions = (rng.uniform(-1, 1, (args.rays, 3)) - origins).astype(np.float32)

    print(f"scene batch picks (Python): {args.rays} rays at a UV sphere of {len(f)} triangles, float32; "
          f"mesh generation and build {build_ms:.0f} ms")
    for threads in args.threads:
        ms = []
        for _ in range(5):
            a = time.perf_counter()
            hits = scene.pick(origins, directions, threads=threads)
            ms.append((time.perf_counter() - a) * 1e3)
        ms.sort()
        print(f"  threads {threads}: median {ms[2]:.1f} ms (min {ms[0]:.1f}, max {ms[4]:.1f}), "
              f"{args.rays / ms[2] / 1e3:.2f} Mrays/s, {int((hits['object'] >= 0).sum())} hits")
    if args.cpp:
        if not os.path.exists(args.cpp):
            raise SystemExit(f"{args.cpp}: not found (cmake --build build --target raypick_bench_scene_batch)")
        subprocess.run([args.cpp, str(args.rays), str(args.triangles)] + [str(t) for t in args.threads], check=True)


if __name__ == "__main__":
    main()
