"""raypick's queries from Python against independent answers (analytic spheres and boxes,
Möller–Trumbore in numpy, exact cube geometry), against themselves one ray at a time, across
thread counts, dtypes, shapes and strides, and on rays and points exactly through the shared
edges and vertices of a closed mesh."""
import concurrent.futures

import numpy as np
import pytest

import raypick
from conftest import mixed_scene, random_rays, ray_sphere, ray_triangles, tolerance

THREADS = [1, 2, 3, 7]


def test_pick_spheres_against_the_analytic_answer(dtype):
    rng = np.random.default_rng(1)
    scene = raypick.Scene(dtype)
    centers = rng.uniform(-5, 5, (40, 3))
    radii = rng.uniform(0.2, 1.0, 40)
    ids = scene.add_spheres(centers, radii)
    assert list(ids) == list(range(40))
    o, d = random_rays(rng, 800, spread=7)
    hits = scene.pick(o, d)
    c32 = centers.astype(dtype).astype(float)
    r32 = radii.astype(dtype).astype(float)
    o32, d32 = o.astype(dtype).astype(float), d.astype(dtype).astype(float)
    n_hit = 0
    for i in range(len(o)):
        best, best_k = np.inf, -1
        for k in range(40):
            span = ray_sphere(o32[i], d32[i], c32[k], r32[k])
            if span is None:
                continue
            t = span[0] if span[0] >= 0 else span[1]  # from inside: the exit
            if t >= 0 and t < best:
                best, best_k = t, k
        if best_k < 0:
            assert hits["object"][i] == -1 and np.isinf(hits["t"][i])
            continue
        n_hit += 1
        assert hits["object"][i] == best_k, i
        assert hits["t"][i] == pytest.approx(best, rel=tolerance(dtype), abs=tolerance(dtype))
        p = o32[i] + best * d32[i]
        assert np.allclose(hits["point"][i], p, atol=10 * tolerance(dtype))
        assert np.allclose(hits["normal"][i], (p - c32[best_k]) / r32[best_k], atol=1e-3)
        assert hits["triangle"][i] == -1
    assert n_hit > 100


def test_pick_mesh_against_moller_trumbore(dtype):
    rng = np.random.default_rng(2)
    v, f = raypick.meshgen.sphere(2000, 2.0)
    v = v + rng.normal(scale=0.05, size=v.shape)  # not a sphere any more
    m = np.array([[0, -1.5, 0, 1], [1, 0, 0, -2], [0, 0, 0.5, 0.5], [0, 0, 0, 1.0]])
    scene = raypick.Scene(dtype)
    obj = scene.add_instance(scene.add_mesh(v, f), m)
    world = v.astype(dtype).astype(float) @ m[:3, :3].T + m[:3, 3]
    a, b, c = world[f[:, 0]], world[f[:, 1]], world[f[:, 2]]
    o, d = random_rays(rng, 500, spread=4)
    hits = scene.pick(o, d)
    wrong_triangle = 0
    for i in range(len(o)):
        t, front = ray_triangles(o[i], d[i], a, b, c)
        k = int(np.argmin(t))
        if np.isinf(t[k]):
            assert hits["object"][i] == -1
            continue
        assert hits["object"][i] == obj
        assert hits["t"][i] == pytest.approx(t[k], rel=10 * tolerance(dtype), abs=10 * tolerance(dtype))
        if hits["triangle"][i] != k:  # a near tie between neighbours only
            wrong_triangle += 1
            assert t[hits["triangle"][i]] == pytest.approx(t[k], rel=1e-3)
            continue
        assert hits["front"][i] == front[k]
        bary = hits["barycentric"][i]
        assert bary.sum() == pytest.approx(1, abs=1e-5)
        assert np.allclose(bary @ np.stack([a[k], b[k], c[k]]), hits["point"][i], atol=1e-3)
        n = np.cross(b[k] - a[k], c[k] - a[k])
        assert np.allclose(hits["normal"][i], n / np.linalg.norm(n), atol=1e-3)
    assert wrong_triangle <= 2


def test_batch_equals_one_ray_at_a_time(dtype):
    scene, _ = mixed_scene(dtype)
    rng = np.random.default_rng(3)
    o, d = random_rays(rng, 200)
    kw = dict(t_min=0.5, t_max=12.0)
    hits = scene.pick(o, d, **kw)
    occ = scene.occluded(o, d, **kw)
    xs = scene.crossings(o, d, **kw)
    for i in range(len(o)):
        one = scene.pick(o[i:i + 1], d[i:i + 1], **kw)
        for key in hits:
            assert np.array_equal(one[key][0], hits[key][i]), (key, i)
        assert scene.occluded(o[i], d[i:i + 1], **kw)[0] == occ[i]
        cx = scene.crossings(o[i:i + 1], d[i], **kw)
        lo, hi = xs["offsets"][i], xs["offsets"][i + 1]
        assert cx["counts"][0] == xs["counts"][i] == hi - lo
        for key in ("t", "object", "triangle", "kind"):
            assert np.array_equal(cx[key], xs[key][lo:hi])


def test_answers_do_not_depend_on_the_thread_count(dtype):
    scene, _ = mixed_scene(dtype)
    rng = np.random.default_rng(4)
    o, d = random_rays(rng, 20000)
    points = rng.uniform(-5, 5, (20000, 3))
    ref = None
    for threads in THREADS:
        got = (scene.pick(o, d, threads=threads), scene.occluded(o, d, threads=threads),
               scene.crossings(o, d, threads=threads), scene.contains(points, threads=threads),
               scene.classify(points, 8, threads=threads))
        if ref is None:
            ref = got
            continue
        for key in ref[0]:
            assert np.array_equal(got[0][key], ref[0][key]), key
        assert np.array_equal(got[1], ref[1])
        for key in ref[2]:
            assert np.array_equal(got[2][key], ref[2][key]), key
        for key in ref[3]:
            assert np.array_equal(got[3][key], ref[3][key]), key
        assert np.array_equal(got[4], ref[4])
    assert ref[1].sum() > 1000 and len(ref[2]["t"]) > 1000 and len(ref[3]["object"]) > 100


def test_concurrent_python_threads_share_a_scene():
    scene, _ = mixed_scene(np.float64)
    rng = np.random.default_rng(5)
    batches = [random_rays(rng, 5000) for _ in range(6)]
    want = [scene.pick(o, d, threads=1)["t"] for o, d in batches]
    with concurrent.futures.ThreadPoolExecutor(3) as pool:
        got = list(pool.map(lambda od: scene.pick(*od, threads=2)["t"], batches))
    for w, g in zip(want, got):
        assert np.array_equal(w, g)


def test_occluded_is_pick_hitting_under_every_filter(dtype):
    scene, _ = mixed_scene(dtype)
    rng = np.random.default_rng(6)
    o, d = random_rays(rng, 3000)
    for kw in [{}, dict(t_min=1.0, t_max=4.0), dict(mask=1), dict(mask=2, cull_back_faces=True),
               dict(cull_back_faces=True)]:
        hits = scene.pick(o, d, **kw)
        assert np.array_equal(scene.occluded(o, d, **kw), hits["object"] >= 0), kw
        hit = hits["object"] >= 0
        assert np.all((hits["t"][hit] >= kw.get("t_min", 0)) & (hits["t"][hit] <= kw.get("t_max", np.inf)))
        if "mask" in kw:
            for i in np.flatnonzero(hit):
                assert scene.get_mask(int(hits["object"][i])) & kw["mask"]
        if kw.get("cull_back_faces"):
            assert np.all(hits["front"][hits["triangle"] >= 0])


def test_misses_and_hits_are_marked_as_documented(dtype):
    scene = raypick.Scene(dtype)
    scene.add_sphere((0, 0, 5), 1)
    hits = scene.pick(np.zeros((2, 3)), [[0, 0, 1], [0, 1, 0]])
    assert hits["t"].dtype == dtype and hits["object"].dtype == np.int64 and hits["front"].dtype == bool
    assert hits["t"][0] == 4 and hits["object"][0] == 0 and hits["triangle"][0] == -1 and hits["front"][0]
    assert np.array_equal(hits["normal"][0], [0, 0, -1]) and np.array_equal(hits["point"][0], [0, 0, 4])
    assert np.isinf(hits["t"][1]) and hits["object"][1] == -1 and hits["triangle"][1] == -1
    assert not hits["front"][1] and not hits["point"][1].any()
    # From inside: the exit, not a front face; t in the direction's units.
    inside = scene.pick([0, 0, 5], [0, 0, 2])
    assert inside["t"][0] == 0.5 and not inside["front"][0]
    # A zero direction hits nothing.
    assert scene.pick([0, 0, 0], [0, 0, 0])["object"][0] == -1


def test_crossings_of_closed_meshes_alternate_and_shapes_enter_and_leave(dtype):
    scene = raypick.Scene(dtype)
    v, f = raypick.meshgen.sphere(500, 1.0)
    mesh = scene.add_mesh(v, f)
    rng = np.random.default_rng(7)
    for k in range(6):
        m = np.eye(4)
        m[:3, 3] = rng.uniform(-3, 3, 3)
        scene.add_instance(mesh, m)
    ball = scene.add_sphere((0, 0, 0), 0.5)
    # From far outside towards the middle: every closed surface is entered and left.
    d = rng.normal(size=(3000, 3))
    o = -8 * d / np.linalg.norm(d, axis=1)[:, None] + rng.uniform(-2, 2, (3000, 3))
    xs = scene.crossings(o, d)
    assert xs["offsets"][0] == 0 and xs["offsets"][-1] == len(xs["t"])
    assert np.array_equal(np.diff(xs["offsets"]), xs["counts"])
    for i, (kind, obj, t) in enumerate(zip(raypick.split(xs["kind"], xs["offsets"]),
                                           raypick.split(xs["object"], xs["offsets"]),
                                           raypick.split(xs["t"], xs["offsets"]))):
        assert np.all(np.diff(t) >= 0)
        for ob in np.unique(obj):
            ks = kind[obj == ob]
            ks = ks[ks != raypick.TOUCH]
            assert len(ks) % 2 == 0, (i, ob)
            assert np.all(ks[0::2] == raypick.ENTER) and np.all(ks[1::2] == raypick.LEAVE), (i, ob)
        if ball in obj and not np.any(kind[obj == ball] == raypick.TOUCH):
            assert list(kind[obj == ball]) == [raypick.ENTER, raypick.LEAVE]


def test_a_ray_exactly_through_a_shared_edge_crosses_once(dtype):
    """The cube [-1, 1]^3, each face a 4 x 4 grid of squares split along a diagonal: grid lines at
    multiples of 1/4, so a ray along x at y = 0.25 passes exactly through the edge two squares of
    the x = -1 face share, and at y = z = 0.125 exactly through a square's diagonal (the edge its
    two triangles share). Each passage is one crossing; a parity count of Möller–Trumbore hits
    (closed at edges, as it is usually written) counts the shared edge twice."""
    v, f = raypick.meshgen.cube_grid(4, 1.0)
    scene = raypick.Scene(dtype)
    cube = scene.add_instance(scene.add_mesh(v, f))
    assert scene.mesh_closure(0) is None
    origins = np.array([[-3, 0.25, 0.3], [-3, 0.125, 0.125], [-3, 0.25, 0.5], [-3, -3, 0.3], [0.3, -3, 0.25]])
    directions = np.array([[1, 0, 0], [1, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]])
    xs = scene.crossings(origins, directions)
    assert list(xs["counts"]) == [2] * 5
    assert list(xs["kind"]) == [raypick.ENTER, raypick.LEAVE] * 5
    assert np.array_equal(xs["object"], [cube] * 10)
    assert np.array_equal(xs["t"], [2, 4, 2, 4, 2, 4, 2, 4, 2, 4])
    hits = scene.pick(origins, directions)
    assert np.array_equal(hits["t"], [2] * 5) and hits["front"].all()
    # The parity count an independent Möller–Trumbore gives on the same rays (edges closed).
    a, b, c = v[f[:, 0]], v[f[:, 1]], v[f[:, 2]]
    parity = [np.isfinite(ray_triangles(o.astype(float), d.astype(float), a, b, c)[0]).sum()
              for o, d in zip(origins, directions)]
    assert max(parity) > 2


def test_contains_where_the_x_rays_pass_through_edges_and_vertices(dtype):
    """Points on the grid of 1/8: their +x rays run exactly along the cube's face grid lines, through
    its shared edges and vertices (the cases parity counts get wrong). The exact answer is the
    box's: held when max(|x|, |y|, |z|) <= 1, on the surface when it equals 1. The same for an
    instance scaled and moved by powers of two, and mirrored."""
    v, f = raypick.meshgen.cube_grid(4, 1.0)
    scene = raypick.Scene(dtype)
    mesh = scene.add_mesh(v, f)
    plain = scene.add_instance(mesh)
    m = np.diag([-2.0, 0.5, 1.0, 1.0])
    m[:3, 3] = (8, 0, 0)
    moved = scene.add_instance(mesh, m)
    g = np.arange(-12, 13) / 8
    x, y, z = np.meshgrid(np.arange(-14, 15) / 8, g, g, indexing="ij")
    points = np.stack([x.ravel(), y.ravel(), z.ravel()], axis=1)
    box = np.abs(points).max(axis=1)
    assert np.array_equal(scene.contains(points, plain), box <= 1)
    want = np.where(box < 1, raypick.INSIDE, np.where(box == 1, raypick.ON_SURFACE, raypick.OUTSIDE))
    assert np.array_equal(scene.classify(points, plain), want)
    world = points @ m[:3, :3].T + m[:3, 3]  # exact: scales and shifts by powers of two
    assert np.array_equal(scene.classify(world, moved), want)
    everything = scene.contains(np.concatenate([points, world]))
    assert np.array_equal(everything["counts"], np.concatenate([box <= 1, box <= 1]).astype(int))
    assert set(everything["object"]) == {plain, moved}


def test_contains_of_shapes_against_their_inequalities(dtype):
    scene = raypick.Scene(dtype)
    s = scene.add_sphere((0, 0, 0), 2)
    b = scene.add_aabb((-1, -1, -1), (3, 1, 1))
    t = scene.add_triangle((0, 0, 0), (1, 0, 0), (0, 1, 0))
    c = scene.add_capsule((0, 0, 3), (4, 0, 3), 1, mask=2)
    rng = np.random.default_rng(8)
    p = np.round(rng.uniform(-4, 5, (5000, 3)) * 4) / 4
    assert np.array_equal(scene.contains(p, s), (p ** 2).sum(axis=1) <= 4)
    assert np.array_equal(scene.contains(p, b), np.all((p >= [-1, -1, -1]) & (p <= [3, 1, 1]), axis=1))
    assert not scene.contains(p, t).any()
    assert np.all(scene.classify(p, t) == raypick.NO_INSIDE)
    seg = np.clip(p[:, 0], 0, 4)
    in_capsule = (p[:, 0] - seg) ** 2 + p[:, 1] ** 2 + (p[:, 2] - 3) ** 2 <= 1
    assert np.array_equal(scene.contains(p, c), in_capsule)
    only_one = scene.contains(p, mask=1)
    assert c not in set(only_one["object"])
    both = scene.contains(p)
    for i in range(0, 5000, 97):
        lo, hi = both["offsets"][i], both["offsets"][i + 1]
        want = [k for k in (s, b, c) if scene.contains(p[i:i + 1], k)[0]]
        assert list(both["object"][lo:hi]) == want


def test_strided_and_converted_inputs_give_the_same_answers(dtype):
    scene, _ = mixed_scene(dtype)
    rng = np.random.default_rng(9)
    o, d = random_rays(rng, 500)
    o, d = o.astype(dtype), d.astype(dtype)
    want = scene.pick(o, d)
    big = np.zeros((500, 8), dtype)
    big[:, :3], big[:, 3:6] = o, d
    wide = np.zeros((1000, 6), dtype)
    wide[::2, :3], wide[::2, 3:] = o, d
    variants = [
        (big[:, :6], None),                                   # rows of 6 in rows of 8
        (np.ascontiguousarray(big[:, :6]), None),             # (N, 6) contiguous
        (wide[::2], None),                                    # every other row
        (np.asfortranarray(o), np.asfortranarray(d)),         # column-major
        (np.ascontiguousarray(o.T).T, d),                     # (3, N) transposed
        (o[::-1].copy()[::-1], d[::-1].copy()[::-1]),         # negative strides
        (o.tolist(), d.tolist()),                             # lists
        (o.astype(np.float64 if dtype == np.float32 else np.longdouble), d),  # another dtype, converted
    ]
    for k, (a, b) in enumerate(variants):
        got = scene.pick(a, b)
        for key in want:
            assert np.array_equal(got[key], want[key]), (k, key)
    # Integers convert; read-only arrays are read.
    ints = np.array([[0, 0, -9], [3, 1, -9]])
    ro = ints.astype(dtype)
    ro.flags.writeable = False
    assert np.array_equal(scene.pick(ints, [0, 0, 1])["t"], scene.pick(ro, np.array([0, 0, 1], dtype))["t"])
    pts = rng.uniform(-4, 4, (300, 6)).astype(dtype)
    assert np.array_equal(scene.classify(pts[:, ::2], 7), scene.classify(np.ascontiguousarray(pts[:, ::2]), 7))


def test_one_origin_or_one_direction_serves_every_ray(dtype):
    scene, _ = mixed_scene(dtype)
    rng = np.random.default_rng(10)
    d = rng.normal(size=(400, 3))
    eye = np.array([0.5, -7, 1.0])
    a = scene.pick(eye, d)
    b = scene.pick(np.tile(eye, (400, 1)), d)
    for key in a:
        assert np.array_equal(a[key], b[key])
    down = np.array([0, 0, -1.0])
    o = rng.uniform(-5, 5, (400, 3)) + [0, 0, 10]
    assert np.array_equal(scene.occluded(o, down), scene.occluded(o, np.tile(down, (400, 1))))


def test_empty_inputs_give_empty_answers(dtype):
    scene, _ = mixed_scene(dtype)
    none3, none6 = np.zeros((0, 3)), np.zeros((0, 6))
    for hits in (scene.pick(none3, none3), scene.pick(none6)):
        assert hits["t"].shape == (0,) and hits["point"].shape == (0, 3) and hits["object"].shape == (0,)
    assert scene.occluded(none6).shape == (0,)
    xs = scene.crossings(none3, none3)
    assert xs["counts"].shape == (0,) and list(xs["offsets"]) == [0] and xs["t"].shape == (0,)
    c = scene.contains(none3)
    assert list(c["offsets"]) == [0] and c["object"].shape == (0,)
    assert scene.contains(none3, 0).shape == (0,) and scene.classify(none3, 0).shape == (0,)
    empty = raypick.Scene(dtype)
    assert empty.pick([[0, 0, 0]], [[1, 0, 0]])["object"][0] == -1
    assert empty.contains([[0, 0, 0]])["counts"][0] == 0


def test_float32_and_float64_agree_away_from_ties():
    rng = np.random.default_rng(11)
    o, d = random_rays(rng, 2000)
    a = mixed_scene(np.float32)[0].pick(o, d)
    b = mixed_scene(np.float64)[0].pick(o, d)
    assert a["t"].dtype == np.float32 and b["t"].dtype == np.float64
    same = a["object"] == b["object"]
    assert same.mean() > 0.99
    hit = same & (a["object"] >= 0)
    assert np.allclose(a["t"][hit], b["t"][hit], rtol=1e-4, atol=1e-4)


def test_closest_points_and_signed_distances_of_the_grid_cube_are_exact_in_sign(dtype):
    """The cube [-1, 1]^3 as a mesh: the distance of a point to it is the box's, negative inside,
    exactly 0 on it; points on the grid of 1/8 sit on faces, edges and vertices."""
    v, f = raypick.meshgen.cube_grid(4, 1.0)
    scene = raypick.Scene(dtype)
    cube = scene.add_instance(scene.add_mesh(v, f))
    g = np.arange(-12, 13) / 8
    x, y, z = np.meshgrid(g, g, g, indexing="ij")
    p = np.stack([x.ravel(), y.ravel(), z.ravel()], axis=1)
    box = np.abs(p).max(axis=1)
    outside = np.linalg.norm(np.maximum(np.abs(p) - 1, 0), axis=1)
    want = np.where(box <= 1, box - 1, outside)
    c = scene.closest_point(p)
    assert c["distance"].dtype == dtype and c["object"].dtype == np.int64 and c["feature"].dtype == np.int8
    assert np.all(c["object"] == cube) and np.all(c["triangle"] >= 0)
    assert np.allclose(c["signed_distance"], want, atol=tolerance(dtype))
    assert np.array_equal(np.sign(c["signed_distance"]), np.sign(want))  # the sign is exact
    assert np.array_equal(c["signed_distance"] == 0, box == 1)
    assert np.array_equal(c["inside"], box < 1)
    assert np.allclose(np.linalg.norm(c["point"] - p, axis=1), c["distance"], atol=tolerance(dtype))
    assert np.all(np.abs(c["point"]).max(axis=1) == pytest.approx(1, abs=tolerance(dtype)))
    assert np.array_equal(scene.signed_distance(p), c["signed_distance"])


def test_closest_points_of_shapes_and_the_options(dtype):
    scene = raypick.Scene(dtype)
    ball = scene.add_sphere((0, 0, 0), 2)
    box = scene.add_aabb((4, -1, -1), (6, 1, 1), mask=2)
    rng = np.random.default_rng(12)
    p = rng.uniform(-3, 3, (2000, 3))
    c = scene.closest_point(p, mask=1)
    r = np.linalg.norm(p, axis=1)
    assert np.all(c["object"] == ball)
    assert np.allclose(c["signed_distance"], r - 2, atol=10 * tolerance(dtype))
    assert np.allclose(c["point"], 2 * p / r[:, None], atol=10 * tolerance(dtype))
    assert np.allclose(c["normal"], p / r[:, None], atol=1e-4)
    assert np.all(c["triangle"] == -1) and np.all(c["feature"] == raypick.Feature.FACE)
    near = scene.closest_point(p, max_distance=0.5)
    far = np.abs(r - 2) > 0.5
    assert np.all(np.isinf(near["distance"][far])) and np.all(near["object"][far] == -1)
    assert np.all(near["object"][~far & (p[:, 0] < 2)] == ball)
    edge = scene.closest_point([[7, 2, 0]], mask=2)
    assert edge["object"][0] == box and edge["feature"][0] == raypick.Feature.EDGE
    assert edge["distance"][0] == pytest.approx(np.sqrt(2))
    for threads in THREADS:
        got = scene.closest_point(p, threads=threads)
        assert np.array_equal(got["signed_distance"], scene.closest_point(p, threads=1)["signed_distance"])
    empty = scene.closest_point(np.zeros((0, 3)))
    assert empty["distance"].shape == (0,) and empty["point"].shape == (0, 3)
    assert np.isinf(raypick.Scene(dtype).signed_distance([[0, 0, 0]])[0])
    with pytest.raises(ValueError, match="max_distance must be >= 0"):
        scene.closest_point(p, max_distance=-1)
    with pytest.raises(ValueError, match=r"points\[1\] is not finite"):
        scene.signed_distance([[0, 0, 0], [np.nan, 0, 0]])
