"""raypick.Scene from Python: building scenes (one object and many), edits, loading case files and
models against their own expectations, what bad input raises, and what help() says."""
import json
import re

import numpy as np
import pytest

import raypick
from conftest import SOURCE_DIR


def test_objects_get_ids_and_meshes_their_own(dtype):
    scene = raypick.Scene(dtype)
    assert scene.dtype == np.dtype(dtype) and len(scene) == 0
    v, f = raypick.meshgen.cube_grid(1)
    assert v.shape == (8, 3) and f.shape == (12, 3) and f.dtype == np.int64
    mesh = scene.add_mesh(v, f)
    assert mesh == 0 and scene.mesh_count == 1
    ids = [scene.add_sphere((0, 0, 0), 1), scene.add_aabb((0, 0, 0), (1, 1, 1)),
           scene.add_obb((0, 0, 0), np.eye(3), (1, 2, 3)), scene.add_capsule((0, 0, 0), (0, 1, 0), 0.5),
           scene.add_triangle((0, 0, 0), (1, 0, 0), (0, 1, 0)), scene.add_instance(mesh)]
    assert ids == list(range(6)) and len(scene) == 6 and list(scene.object_ids) == ids
    k = 4
    many = [scene.add_spheres(np.zeros((k, 3)), np.ones(k)), scene.add_spheres(np.zeros((k, 3)), 2.0),
            scene.add_aabbs(np.zeros((k, 3)), np.ones((k, 3))),
            scene.add_obbs(np.zeros((k, 3)), np.tile(np.eye(3), (k, 1, 1)), np.ones((k, 3))),
            scene.add_capsules(np.zeros((k, 3)), np.ones((k, 3)), np.full(k, 0.5)),
            scene.add_triangles(np.zeros((k, 3)), np.eye(3)[[0] * k], np.eye(3)[[1] * k]),
            scene.add_instances(mesh, np.tile(np.eye(4), (k, 1, 1)), masks=np.arange(1, k + 1)),
            scene.add_instances([0] * k, np.tile(np.eye(4)[:3], (k, 1, 1)))]
    flat = np.concatenate(many)
    assert flat.dtype == np.int64 and list(flat) == list(range(6, 6 + 8 * k))
    assert scene.get_mask(int(many[6][2])) == 3 and scene.get_mask(0) == 0xFFFFFFFF
    assert 3 in scene and 999 not in scene and -1 not in scene
    assert repr(scene).startswith("<raypick.Scene")


def test_edits_take_effect_at_the_next_query(dtype):
    scene = raypick.Scene(dtype)
    v, f = raypick.meshgen.cube_grid(2)
    mesh = scene.add_mesh(v, f)
    box = scene.add_instance(mesh)
    ball = scene.add_sphere((0, 0, 5), 1)
    assert scene.dirty
    down = ([0.5, 0.25, 10], [0, 0, -1])
    assert scene.pick(*down)["object"][0] == ball and not scene.dirty  # committed by the query
    scene.set_mask(ball, 2)
    assert scene.pick(*down, mask=1)["object"][0] == box
    m = np.eye(4)
    m[:3, 3] = (10, 0, 0)
    scene.set_transform(box, m)
    assert scene.pick(*down, mask=1)["object"][0] == -1
    scene.commit()
    assert scene.contains([[10, 0, 0]], box)[0]
    scene.remove(ball)
    assert ball not in scene and len(scene) == 1
    assert scene.pick(*down)["object"][0] == -1
    again = scene.add_sphere((0, 0, 5), 1)
    assert again != ball  # ids are never given again
    with pytest.raises(ValueError, match="no object"):
        scene.remove(ball)
    with pytest.raises(ValueError, match="not a mesh instance"):
        scene.set_transform(again, np.eye(4))


def test_bad_input_raises_naming_the_argument_and_the_first_bad_index():
    scene = raypick.Scene()
    v, f = raypick.meshgen.cube_grid(1)
    bad = f.copy()
    bad[5, 2] = 8
    with pytest.raises(ValueError, match=r"triangles\[5, 2\] is 8, out of range for 8 vertices"):
        scene.add_mesh(v, bad)
    bad[5, 2] = -1
    with pytest.raises(ValueError, match=r"triangles\[5, 2\] is -1"):
        scene.add_mesh(v, bad)
    with pytest.raises(TypeError, match="triangles must be integers"):
        scene.add_mesh(v, f.astype(float))
    nan_v = v.copy()
    nan_v[3, 1] = np.nan
    with pytest.raises(ValueError, match=r"vertices\[3\] is not finite"):
        scene.add_mesh(nan_v, f)
    with pytest.raises(ValueError, match=r"vertices must have shape \(N, 3\), got \(8, 2\)"):
        scene.add_mesh(v[:, :2], f)
    with pytest.raises(TypeError, match="must hold real numbers"):
        scene.add_mesh(v.astype(complex), f)
    with pytest.raises(TypeError, match="must be an array of numbers|must hold real numbers"):
        scene.add_sphere("abc", 1)
    with pytest.raises(ValueError, match="no mesh 3"):
        scene.add_instance(3)
    mesh = scene.add_mesh(v, f)
    with pytest.raises(ValueError, match="invertible"):
        scene.add_instance(mesh, np.diag([1, 0, 1, 1]))
    with pytest.raises(ValueError, match=r"last row .* must be \(0, 0, 0, 1\)"):
        scene.add_instance(mesh, np.ones((4, 4)))
    with pytest.raises(ValueError, match=r"matrices\[1\]"):
        scene.add_instances(mesh, np.stack([np.eye(4), np.diag([0, 1, 1, 1.0])]))
    with pytest.raises(ValueError, match="sphere 2: radius"):
        scene.add_spheres(np.zeros((4, 3)), [1, 1, -1, 1])
    assert len(scene) == 0  # nothing of a refused batch was added
    with pytest.raises(ValueError, match="obb 0: rotation"):
        scene.add_obb((0, 0, 0), np.ones((3, 3)), (1, 1, 1))
    with pytest.raises(ValueError, match="aabb 0: "):
        scene.add_aabb((1, 1, 1), (0, 0, 0))
    with pytest.raises(ValueError, match="mask must be in"):
        scene.add_sphere((0, 0, 0), 1, mask=-1)
    s = scene.add_sphere((0, 0, 0), 1)
    o = np.zeros((5, 3))
    d = np.ones((5, 3))
    o[3, 2] = np.inf
    with pytest.raises(ValueError, match=r"Scene.pick: origins\[3\] is not finite"):
        scene.pick(o, d)
    with pytest.raises(ValueError, match=r"rays\[1\] is not finite"):
        scene.crossings(np.array([[0, 0, 0, 1, 0, 0], [0, 0, 0, np.nan, 0, 0]]))
    with pytest.raises(ValueError, match=r"must have shape \(N, 6\)"):
        scene.pick(np.zeros((4, 3)))
    with pytest.raises(ValueError, match=r"directions must have shape \(N, 3\) or \(3,\), got \(4, 2\)"):
        scene.occluded(np.zeros((4, 3)), np.ones((4, 2)))
    with pytest.raises(ValueError, match="4 origins but 5 directions"):
        scene.pick(np.zeros((4, 3)), np.ones((5, 3)))
    with pytest.raises(ValueError, match="t_min .* greater than t_max"):
        scene.pick(np.zeros((1, 3)), np.ones((1, 3)), t_min=2, t_max=1)
    with pytest.raises(ValueError, match="NaN"):
        scene.pick(np.zeros((1, 3)), np.ones((1, 3)), t_max=np.nan)
    with pytest.raises(ValueError, match="threads"):
        scene.pick(np.zeros((1, 3)), np.ones((1, 3)), threads=-1)
    with pytest.raises(ValueError, match="no object 77"):
        scene.classify(np.zeros((1, 3)), 77)
    with pytest.raises(ValueError, match="no object -1"):
        scene.contains(np.zeros((1, 3)), -1)
    with pytest.raises(TypeError):
        scene.pick(np.zeros((1, 3)), np.ones((1, 3)), cull_back_faces="yes", mask="all")
    with pytest.raises(TypeError, match="dtype"):
        raypick.Scene(np.int32)
    assert scene.pick([[0, 0, 0]], [[1, 0, 0]])["object"][0] == s  # still usable


def test_open_meshes_have_no_inside_and_say_why():
    v, f = raypick.meshgen.cube_grid(1)
    scene = raypick.Scene()
    closed = scene.add_mesh(v, f)
    opened = scene.add_mesh(v, f[:-1])
    assert scene.mesh_closure(closed) is None
    assert "boundary edge" in scene.mesh_closure(opened)
    a, b = scene.add_instance(closed), scene.add_instance(opened)
    assert scene.classify([[0, 0, 0]], b)[0] == raypick.Containment.NO_INSIDE
    assert list(scene.contains([[0, 0, 0]])["object"]) == [a]


def test_help_states_the_contract():
    text = raypick.Scene.pick.__doc__
    for phrase in ("units of the direction", "t = inf", "object = -1", "edge", "t_min", "threads", "GIL"):
        assert phrase in text, phrase
    assert "once" in raypick.Scene.crossings.__doc__.lower()
    assert "exact" in raypick.Scene.contains.__doc__
    assert "commit" in raypick.Scene.__doc__
    assert raypick.CrossingKind.TOUCH == raypick.TOUCH == 2
    assert raypick.Containment.NO_INSIDE == 3


def _case_files():
    for path in sorted((SOURCE_DIR / "assets").glob("*.json")):
        doc = json.loads(path.read_text())
        if any("shape" not in e and "instance" not in e for e in doc.get("expectations", [])):
            yield path


@pytest.mark.parametrize("path", list(_case_files()), ids=lambda p: p.name)
def test_load_case_files_and_pick_as_they_expect(path, dtype):
    """Every pick expectation of the case files in assets/, through raypick.load() and Scene.pick:
    the object's name (Scene.names), t within the file's tolerance, the triangle."""
    doc = json.loads(path.read_text())
    scene = raypick.load(str(path), dtype)
    by_name = {name: k for k, name in scene.names.items()}
    shapes = [s["name"] for s in doc.get("shapes", [])]
    instances = [i["name"] for i in doc.get("instances", [])]
    rays = doc.get("rays", [])
    ray_index = {r["name"]: k for k, r in enumerate(rays)}
    tol = doc.get("tolerance", 1e-4)
    checked = 0
    picks = [e for e in doc.get("expectations", []) if "ray" in e and ("picked" in e or "picked_instance" in e)
             and not any(k in e for k in ("shape", "instance", "mask", "cull_back_faces"))]
    if not picks:
        pytest.skip("no plain pick expectation in this file")
    for e in doc.get("expectations", []):
        # Pick expectations only (no other query's keys, no query mask or culling).
        if "ray" not in e or not ("picked" in e or "picked_instance" in e):
            continue
        if "shape" in e or "instance" in e or "mask" in e or "cull_back_faces" in e:
            continue
        r = rays[e["ray"] if isinstance(e["ray"], int) else ray_index[e["ray"]]]
        bound = {"inf": np.inf, "-inf": -np.inf}
        t_min = bound.get(r.get("t_min"), r.get("t_min", 0.0))
        t_max = bound.get(r.get("t_max"), r.get("t_max", np.inf))
        hit = scene.pick(np.array(r["origin"], float), np.array([r["direction"]], float), t_min=t_min, t_max=t_max)
        got = int(hit["object"][0])
        if "picked_instance" in e:
            want = e["picked_instance"]
            name = instances[want] if isinstance(want, int) else want
            assert re.fullmatch(re.escape(name) + r"(\[\d+\])?", scene.names.get(got, "")), (e, scene.names.get(got))
        elif e.get("picked") is None:
            assert got == -1, e
            checked += 1
            continue
        else:
            want = e["picked"]
            name = shapes[want] if isinstance(want, int) else want
            assert got == by_name.get(name, -2) or re.fullmatch(re.escape(name) + r"\[\d+\]", scene.names.get(got, "")), (e, got)
        if "t" in e:
            t_tol = e.get("tolerance", tol) * max(1, abs(e["t"]))
            assert abs(hit["t"][0] - e["t"]) <= t_tol, (e, hit["t"][0])
        if "triangle" in e:
            assert hit["triangle"][0] == e["triangle"], e
        checked += 1
    assert checked > 0


def test_load_models(dtype):
    models = SOURCE_DIR / "assets" / "models"
    ico = raypick.load(str(models / "icosphere.obj"), dtype)
    assert len(ico) >= 1 and ico.mesh_count >= 1
    obj = int(ico.object_ids[0])
    assert ico.mesh_closure(0) is None
    assert ico.contains([[0, 0, 0]], obj)[0]
    hit = ico.pick([0, 0, 10], [0, 0, -1])
    assert hit["object"][0] == obj and 8 < hit["t"][0] < 10
    city = raypick.load(str(models / "city.gltf"), dtype)
    assert len(city) > 10 and all(isinstance(n, str) and n for n in city.names.values())
    with pytest.raises(ValueError, match="cannot open"):
        raypick.load(str(models / "missing.obj"))
    bad = SOURCE_DIR / "README.md"
    with pytest.raises(ValueError, match="raypick.load: "):
        raypick.load(str(bad))


def test_mesh_generators_are_closed():
    v, f = raypick.meshgen.sphere(1000, 2.0)
    assert 900 <= len(f) <= 1100 and np.allclose(np.linalg.norm(v, axis=1), 2.0)
    v2, f2 = raypick.meshgen.uv_sphere(8, 16, 1.0, (1, 2, 3))
    assert len(f2) == 2 * 16 * 7 and np.allclose(np.linalg.norm(v2 - [1, 2, 3], axis=1), 1)
    scene = raypick.Scene()
    for verts, tris in ((v, f), (v2, f2), raypick.meshgen.cube_grid(3, 0.5)):
        assert scene.mesh_closure(scene.add_mesh(verts, tris)) is None
