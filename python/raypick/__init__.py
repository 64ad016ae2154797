"""raypick: exact ray casts and point containment against shapes and triangle meshes.

    import numpy as np, raypick
    scene = raypick.Scene(np.float32)
    cube = scene.add_mesh(*raypick.meshgen.cube_grid(4))
    box = scene.add_instance(cube, np.diag([2.0, 1, 1, 1]))
    hits = scene.pick(origins, directions)        # dict of arrays: t, object, triangle, ...
    inside = scene.contains(points, object=box)   # bool array
    sdf = scene.signed_distance(points)           # negative inside, exact sign

Every query takes arrays of rays or points and answers each one independently, on every core,
with the GIL released. See help(raypick.Scene) and docs/python.md.
"""
import enum

import numpy as _np

from ._raypick import (  # noqa: F401  (re-exported)
    EDGE, ENTER, FACE, INSIDE, LEAVE, NO_INSIDE, ON_SURFACE, OUTSIDE, TOUCH, VERTEX, Scene, __version__, load, meshgen)


class CrossingKind(enum.IntEnum):
    """What a crossing does (Scene.crossings' ``kind``)."""
    ENTER = ENTER  #: into the object's solid: a front face, a shape's entry
    LEAVE = LEAVE  #: out of it: a back face, a shape's exit
    TOUCH = TOUCH  #: meets the surface and stays on its side: a tangent, a contour edge or vertex


class Containment(enum.IntEnum):
    """Where a point stands against an object's solid (Scene.classify)."""
    OUTSIDE = OUTSIDE
    INSIDE = INSIDE          #: in the interior
    ON_SURFACE = ON_SURFACE  #: on the boundary (the closed solid holds it)
    NO_INSIDE = NO_INSIDE    #: the object bounds no solid: a triangle shape, an open mesh


class Feature(enum.IntEnum):
    """The part of a surface a closest point lies on (Scene.closest_point's ``feature``)."""
    FACE = FACE
    EDGE = EDGE
    VERTEX = VERTEX


def split(values, offsets):
    """The per-query pieces of a flat result: ``[values[offsets[i]:offsets[i + 1]] for each i]``
    (Scene.crossings' and Scene.contains' ``offsets``)."""
    offsets = _np.asarray(offsets)
    return _np.split(_np.asarray(values), offsets[1:-1]) if len(offsets) > 1 else []


__all__ = ["Scene", "load", "meshgen", "split", "CrossingKind", "Containment", "Feature", "ENTER", "LEAVE", "TOUCH",
           "OUTSIDE", "INSIDE", "ON_SURFACE", "NO_INSIDE", "FACE", "EDGE", "VERTEX", "__version__"]
