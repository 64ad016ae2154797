"""Draws the pictures of docs/python.md through raypick: a depth image from a pinhole camera,
the inside/outside of a point cloud against a model, and a signed-distance slice.

    PYTHONPATH=build/python /usr/bin/python3 python/examples/docs_figures.py [out_dir]

(matplotlib: apt-get install python3-matplotlib)
"""
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import raypick  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "python"


def pinhole(eye, target, up, fov_deg, width, height):
    """Unit directions through the pixel centres of a pinhole camera, (height, width, 3)."""
    eye, target, up = (np.asarray(v, float) for v in (eye, target, up))
    forward = (target - eye) / np.linalg.norm(target - eye)
    right = np.cross(forward, up)
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    half = np.tan(np.radians(fov_deg) / 2)
    x = (np.arange(width) + 0.5 - width / 2) / (width / 2) * half
    y = (np.arange(height) + 0.5 - height / 2) / (width / 2) * half
    d = forward + x[None, :, None] * right + y[:, None, None] * down
    return d / np.linalg.norm(d, axis=2, keepdims=True), forward


def depth_image():
    scene = raypick.Scene(np.float32)
    scene.add_aabb((-6, -6, -1.05), (6, 6, -1))  # the floor
    v, f = raypick.meshgen.sphere(20000, 1.0)
    ball = scene.add_mesh(v, f)
    cv, cf = raypick.meshgen.cube_grid(2, 0.5)
    cube = scene.add_mesh(cv, cf)
    for k, x in enumerate(np.linspace(-3, 3, 4)):
        m = np.eye(4)
        m[:3, 3] = (x, 1.5, 0)
        scene.add_instance(ball, m)
        c, s = np.cos(0.4 * k), np.sin(0.4 * k)
        r = np.array([[c, -s, 0, x], [s, c, 0, -1.5], [0, 0, 1 + 0.5 * k, -0.5 + 0.25 * k], [0, 0, 0, 1]])
        scene.add_instance(cube, r)
    scene.add_capsules([[-4, -4, -0.5], [4, -4, -0.5]], [[-4, 4, -0.5], [4, 4, -0.5]], 0.5)
    eye = np.array([0.0, -10, 5])
    d, forward = pinhole(eye, (0, 0, -0.5), (0, 0, 1), 50, 640, 400)
    hits = scene.pick(eye, d.reshape(-1, 3))
    # Depth along the view axis: t times the direction's component along it (unit directions).
    depth = (hits["t"] * (d.reshape(-1, 3) @ forward)).reshape(d.shape[:2])
    depth[hits["object"].reshape(d.shape[:2]) < 0] = np.nan
    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=100)
    im = ax.imshow(depth, cmap="viridis_r")
    ax.set_axis_off()
    fig.colorbar(im, ax=ax, shrink=0.8, label="depth")
    ax.set_title("Scene.pick: one ray per pixel (640 x 400)")
    fig.tight_layout()
    fig.savefig(OUT / "depth.png")
    plt.close(fig)


def point_cloud():
    scene = raypick.load(str(ROOT / "assets" / "models" / "torus.glb"))
    torus = int(scene.object_ids[0])
    rng = np.random.default_rng(0)
    points = rng.uniform(-1.5, 1.5, (30000, 3)) * [1, 0.3, 1]  # the torus's axis is y
    inside = scene.contains(points, torus)
    fig = plt.figure(figsize=(6.4, 4.0), dpi=100)
    ax = fig.add_subplot(projection="3d")
    x, y, z = points.T
    ax.scatter(x[~inside], z[~inside], y[~inside], s=0.2, c="0.6", alpha=0.15)
    ax.scatter(x[inside], z[inside], y[inside], s=1.5, c="tab:red")
    ax.set_box_aspect((1, 1, 0.3))
    ax.view_init(elev=35, azim=-60)
    ax.set_title(f"Scene.contains: {inside.sum()} of {len(points)} points inside torus.glb")
    ax.set_axis_off()
    fig.tight_layout()
    fig.savefig(OUT / "inside.png")
    plt.close(fig)


def slice_image():
    """signed_distance() on the plane z = 0 through a cube mesh (rotated about z), a sphere mesh and
    a capsule: negative inside, exactly 0 on the surfaces (the sign is exact)."""
    scene = raypick.Scene(np.float64)
    cv, cf = raypick.meshgen.cube_grid(4, 1.0)
    c, s = np.cos(0.5), np.sin(0.5)
    scene.add_instance(scene.add_mesh(cv, cf), [[c, -s, 0, -1.2], [s, c, 0, -0.8], [0, 0, 1, 0.3]])
    v, f = raypick.meshgen.sphere(2000, 1.0)
    scene.add_instance(scene.add_mesh(v, f), [[1, 0, 0, 1.6], [0, 1, 0, 1.2], [0, 0, 1, 0]])
    scene.add_capsule((0.8, -1.8, 0), (2.6, -0.6, 0), 0.45)
    n = 500
    g = np.linspace(-3, 3.5, n)
    x, y = np.meshgrid(g, g[::-1])
    points = np.stack([x.ravel(), y.ravel(), np.zeros(n * n)], axis=1)
    sdf = scene.signed_distance(points).reshape(n, n)
    fig, ax = plt.subplots(figsize=(5.6, 4.6), dpi=100)
    im = ax.imshow(sdf, extent=(g[0], g[-1], g[0], g[-1]), cmap="RdBu", vmin=-1.5, vmax=1.5)
    ax.contour(x, y, sdf, levels=np.arange(-1, 3, 0.25), colors="k", linewidths=0.4, alpha=0.5)
    ax.contour(x, y, sdf, levels=[0], colors="k", linewidths=1.2)
    fig.colorbar(im, ax=ax, shrink=0.85, label="signed distance")
    ax.set_title(f"Scene.signed_distance on z = 0 ({n} x {n} points)")
    fig.tight_layout()
    fig.savefig(OUT / "sdf.png")
    plt.close(fig)


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    depth_image()
    point_cloud()
    slice_image()
    print("wrote", ", ".join(str(p) for p in sorted(OUT.glob("*.png"))))
