#!/usr/bin/env python3
"""Writes the binary seed inputs of the geometry fuzz targets into fuzz/corpus/.

The byte format is the one FuzzCommon.h's Reader decodes, read front to back:
  scalar: tag 0 + int8           -> small integer
          tag 1 + int8 n + byte d -> n / (d % 16 + 1)
  fuzz_cast_*: shape type (0 sphere, 1 aabb, 2 obb, 3 capsule, 4 triangle), shape, ray origin and direction,
               range mode (0: [0, inf), 1: [t_min, t_max], 2: (-inf, inf), 3: [t_min, inf)),
               poison byte (0xF0 | k with an index byte: one input scalar becomes NaN / inf / -inf)
  fuzz_bvh:    precision byte (odd: double), shape count - 1, shapes (type byte + shape),
               max_leaf_size - 1, bins - 2, pad byte (odd: no padding), ray count - 1,
               rays with range modes, update index, new shape.
Re-run after changing the format: python3 fuzz/make_seeds.py (the scene seeds are JSON, by hand).
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def i(v):  # small integer
    return [0, v & 0xFF]


def frac(n, d):  # n / d, d in 1..16
    return [1, n & 0xFF, d - 1]


def vec(*xs):
    out = []
    for x in xs:
        out += x if isinstance(x, list) else i(x)
    return out


def sphere(c, r):
    return [0] + vec(*c) + (r if isinstance(r, list) else i(r))


def aabb_size(lo, size):
    return [1, 0] + vec(*lo) + vec(*size)


def aabb_raw(lo, hi):
    return [1, 1] + vec(*lo) + vec(*hi)


def obb(c, h, mode, data):
    return [2] + vec(*c) + vec(*h) + [mode] + data


def capsule(a, b, r, mode=2):
    b_bytes = [] if mode == 0 else vec(*b)
    return [3] + vec(*a) + [mode] + b_bytes + (r if isinstance(r, list) else i(r))


def triangle(a, b, c, mode=0):
    """mode 0: vertices as given; 1: b and c relative to a; 2: b relative to a, c = a + c * (b - a)
    (c a scalar: collinear); 3: b relative to a, c = b."""
    rest = vec(*b) + (vec(*c) if mode in (0, 1) else (c if isinstance(c, list) else i(c)) if mode == 2 else [])
    return [4] + vec(*a) + [mode] + rest


def ray(o, d, mode=0, rng=()):
    out = vec(*o) + vec(*d) + [mode]
    for x in rng:
        out += x if isinstance(x, list) else i(x)
    return out


Z = ((0, 0, 0), (0, 0, 1))
CAST = {
    "sphere_hit": sphere((0, 0, 5), 1) + ray(*Z) + [0],
    "sphere_tangent": sphere((1, 0, 5), 1) + ray(*Z) + [0],
    "sphere_inside_range": sphere((0, 0, 0), 2) + ray(*Z, mode=1, rng=(-1, 1)) + [0],
    "sphere_point": sphere((0, 0, 5), 0) + ray(*Z) + [0],
    "sphere_behind": sphere((0, 0, -5), 1) + ray(*Z) + [0],
    "sphere_nan_radius": sphere((0, 0, 5), 1) + ray(*Z) + [0xF0, 9],
    "aabb_hit": aabb_size((-1, -1, 2), (2, 2, 2)) + ray(*Z) + [0],
    "aabb_flat": aabb_size((-1, -1, 2), (2, 2, 0)) + ray(*Z) + [0],
    "aabb_in_face_plane": aabb_size((0, -1, 2), (2, 2, 2)) + ray(*Z) + [0],
    "aabb_inverted": aabb_raw((1, 1, 1), (-1, -1, -1)) + ray(*Z) + [0],
    "obb_angles": obb((0, 0, 5), (2, frac(1, 2), frac(1, 4)), 1, vec(frac(3, 10), frac(1, 5), frac(1, 10)))
    + ray(*Z) + [0],
    "obb_quarter_turns": obb((0, 0, 5), (1, 2, 3), 0, vec(1, 0, 1)) + ray(*Z) + [0],
    "obb_permutation": obb((0, 0, 5), (1, 2, 3), 2, [0x2A]) + ray(*Z) + [0],
    "obb_zero_extent": obb((0, 0, 5), (1, 1, 0), 0, vec(0, 0, 0)) + ray(*Z) + [0],
    "obb_nudged": obb((0, 0, 5), (1, 1, 1), 3, [0, 1, 0, 2, 0, 3, 4] + i(1)) + ray(*Z) + [0],
    "obb_reflection": obb((0, 0, 5), (1, 1, 1), 4, [0, 1, 0, 2, 0, 3, 1]) + ray(*Z) + [0],
    "capsule_across": capsule((-1, 0, 5), (1, 0, 5), frac(1, 2)) + ray(*Z) + [0],
    "capsule_along_axis": capsule((0, 0, 5), (0, 0, 7), 1) + ray(*Z) + [0],
    "capsule_a_equals_b": capsule((0, 0, 5), None, 1, mode=0) + ray(*Z) + [0],
    "capsule_segment": capsule((0, -1, 5), (0, 1, 5), 0) + ray(*Z) + [0],
    "capsule_inside": capsule((0, 0, -1), (0, 0, 1), 1) + ray((0, 0, 0), (1, 1, 0), mode=2) + [0],
    "triangle_hit": triangle((-1, -1, 5), (2, 0, 5), (0, 2, 5)) + ray(*Z) + [0],
    "triangle_vertex": triangle((0, 0, 5), (2, 0, 0), (0, 2, 0), mode=1) + ray(*Z) + [0],
    "triangle_edge": triangle((-1, 0, 5), (2, 0, 0), (0, 2, 1), mode=1) + ray(*Z) + [0],
    "triangle_in_plane": triangle((-1, -1, 0), (2, 0, 0), (0, 2, 0), mode=1) + ray((-5, 0, 0), (1, 0, 0)) + [0],
    "triangle_collinear": triangle((-1, -1, 5), (2, 2, 0), 3, mode=2) + ray(*Z) + [0],
    "triangle_coincident": triangle((-1, -1, 5), (2, 2, 0), None, mode=3) + ray(*Z) + [0],
}

MIXED = (
    sphere((0, 0, 5), 1)
    + aabb_size((2, -1, 4), (2, 2, 2))
    + obb((-3, 0, 5), (1, 1, 1), 0, vec(0, 0, 1))
    + capsule((0, 3, 5), (0, 5, 5), 1)
)
SAME_CENTRE = b"".join(bytes(sphere((0, 0, 5), r)) for r in (1, 2, 3, 4, 5))
BVH = {
    "mixed_double": [1, 3] + MIXED + [1, 4, 0, 1] + ray(*Z) + ray((0, 4, 0), (0, 0, 1), mode=2) + [2] + sphere((0, 0, 2), 1),
    "mixed_float": [0, 3] + MIXED + [0, 10, 1, 1] + ray(*Z) + ray((-3, 0, 0), (0, 0, 1), mode=1, rng=(0, 10)) + [0] + aabb_size((-1, -1, 3), (2, 2, 0)),
    "same_centre": [1, 4] + list(SAME_CENTRE) + [0, 0, 0, 0] + ray(*Z) + [3] + capsule((0, 0, 1), (0, 0, 9), 1),
    "triangles": [0, 2] + triangle((-1, -1, 5), (1, -1, 5), (1, 1, 5)) + triangle((-1, -1, 5), (1, 1, 5), (-1, 1, 5))
    + triangle((-3, 0, 5), (2, 0, 0), (0, 2, 0), mode=1) + [1, 4, 0, 1] + ray(*Z) + ray((-3, 0, 0), (0, 0, 1))
    + [2] + triangle((-1, -1, 2), (2, 2, 0), None, mode=3),
}


def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(bytes(data))


for name, data in CAST.items():
    write("fuzz_cast_float", name, data)
    write("fuzz_cast_double", name, data)
for name, data in BVH.items():
    write("fuzz_bvh", name, data)

# fuzz_mesh_bvh: precision byte, vertex count - 3, coordinate mode (even: grid bytes, value / 4),
# vertices, triangle count - 1, three index bytes per triangle, ray count - 1, rays (mode byte:
# % 4 == 0 at a vertex, 1 at an edge midpoint, else a direction follows; origin; range mode), then
# the instance's nine linear entries and translation.
def g(v):  # a grid coordinate v / 4
    return v & 0xFF


CUBE_V = [g(x) for p in [(-4, -4, -4), (4, -4, -4), (-4, 4, -4), (4, 4, -4),
                          (-4, -4, 4), (4, -4, 4), (-4, 4, 4), (4, 4, 4)] for x in p]
CUBE_T = [0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5]
CUBE_RAYS = ([5] + [0 * 4 + 0, g(0), g(0), g(0), 0]         # from the centre at vertex 0
             + [1 * 4 + 1, g(0), g(1), g(0), 0]             # at an edge midpoint
             + [2, g(12), g(0), g(0)] + vec(-1, 0, 0) + [0]  # along x through a face
             + [7 * 4 + 0, g(16), g(16), g(16), 0]          # from outside at a vertex
             + [3 * 4 + 1, g(-16), g(4), g(2), 0]
             + [9 * 4 + 0, g(0), g(0), g(20), 0])
MIRROR = [g(-4), 0, 0, 0, g(8), 0, 0, 0, g(4), g(12), 0, 0]  # grid values, whatever the mode
MESH = {
    "cube_float": [0, 5, 0] + CUBE_V + [11] + CUBE_T + CUBE_RAYS + MIRROR,
    "cube_double": [1, 5, 0] + CUBE_V + [11] + CUBE_T + CUBE_RAYS + MIRROR,
    "bad_index": [0, 0, 0] + CUBE_V[:9] + [0, 0, 1, 255],
}
for name, data in MESH.items():
    write("fuzz_mesh_bvh", name, data)
