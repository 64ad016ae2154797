"""Shared fixtures and independent references for the raypick tests: scenes of every object kind,
random rays, and numpy ray/triangle, ray/sphere and ray/box tests written from the definitions
(not from raypick's code) to check answers against."""
import os
import pathlib

import numpy as np
import pytest

import raypick

SOURCE_DIR = pathlib.Path(os.environ.get("RAYPICK_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))

DTYPES = [np.float32, np.float64]


@pytest.fixture(params=DTYPES, ids=["float32", "float64"])
def dtype(request):
    return request.param


def tolerance(dtype):
    return 2e-4 if dtype == np.float32 else 1e-9


def random_rays(rng, n, spread=6.0):
    """n rays from a box around the origin in random (not unit) directions."""
    origins = rng.uniform(-spread, spread, (n, 3))
    directions = rng.normal(size=(n, 3)) * rng.uniform(0.5, 2.0, (n, 1))
    return origins, directions


def mixed_scene(dtype):
    """Shapes of every type and mesh instances (a sphere mesh, a cube grid moved, scaled and
    mirrored), with masks 1 and 2. Returns the scene and a description of each object."""
    scene = raypick.Scene(dtype)
    objects = {}
    for k, c in enumerate([(-3, 0, 0), (3, 1, 0), (0, -3, 2)]):
        objects[scene.add_sphere(c, 0.75 + 0.25 * k, mask=1 + k % 2)] = ("sphere", np.array(c, float), 0.75 + 0.25 * k)
    objects[scene.add_aabb((-1, 2, -1), (1, 3, 0.5))] = ("aabb", np.array([-1, 2, -1.0]), np.array([1, 3, 0.5]))
    r = np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1.0]])
    objects[scene.add_obb((2, -2, -2), r, (0.5, 1, 0.25), mask=2)] = ("obb",)
    objects[scene.add_capsule((-2, -2, -3), (-2, 2, -3), 0.5)] = ("capsule",)
    objects[scene.add_triangle((0, 0, 4), (2, 0, 4), (0, 2, 4))] = ("triangle",)
    v, f = raypick.meshgen.sphere(300, 1.0)
    sphere = scene.add_mesh(v, f)
    cv, cf = raypick.meshgen.cube_grid(2, 1.0)
    cube = scene.add_mesh(cv, cf)
    m = np.eye(4)
    m[:3, 3] = (0, 0, -0.5)
    objects[scene.add_instance(sphere, m)] = ("mesh", v, f, m)
    m2 = np.diag([-1.5, 0.5, 1.0, 1.0])
    m2[:3, 3] = (4, -3, 3)
    objects[scene.add_instance(cube, m2, mask=2)] = ("mesh", cv, cf, m2)
    scene.commit()
    return scene, objects


def ray_triangles(origin, direction, a, b, c):
    """Möller–Trumbore in float64 over many triangles (a, b, c: (M, 3)) for one ray: t of each hit
    (inf where missed) with t >= 0, and whether the ray meets the front (counter-clockwise) face."""
    e1, e2 = b - a, c - a
    p = np.cross(direction, e2)
    det = np.einsum("ij,ij->i", e1, p)
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / det
        s = origin - a
        u = np.einsum("ij,ij->i", s, p) * inv
        q = np.cross(s, e1)
        v = (q @ direction) * inv
        t = np.einsum("ij,ij->i", e2, q) * inv
        ok = (det != 0) & (u >= 0) & (v >= 0) & (u + v <= 1) & (t >= 0)
    return np.where(ok, t, np.inf), det > 0


def ray_sphere(origin, direction, center, radius):
    """Entry and exit t of the line through a sphere (None when it misses)."""
    oc = origin - center
    a = direction @ direction
    b = oc @ direction
    c = oc @ oc - radius * radius
    disc = b * b - a * c
    if disc < 0:
        return None
    s = np.sqrt(disc)
    return (-b - s) / a, (-b + s) / a
