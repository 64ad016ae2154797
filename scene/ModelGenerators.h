// raypick models: generated meshes for tests, benchmarks and the committed sample models. Every
// generator is deterministic (the same arguments give the same model, bit for bit) and gives a
// model that passes validate_model(), with counter-clockwise winding seen from outside (from above
// for the terrain), and unit normals except where a generator says otherwise.
#pragma once

#include <cstdint>

#include <raypick/scene/Model.h>

namespace raypick {

/// A sphere of `radius` around the origin: an icosahedron whose triangles are split in four
/// `level` times, vertices pushed onto the sphere. 20 * 4^level triangles, 10 * 4^level + 2
/// vertices; normals are the radial directions. One mesh, one identity instance. `level` <= 10.
Model make_icosphere(int level, double radius = 1.0);

/// A torus around the y axis: the tube's centre circle of radius `major`, its cross-section of
/// radius `minor`, `around` segments along the ring and `across` around the tube (each >= 3).
/// 2 * around * across triangles. One mesh, one identity instance.
Model make_torus(double major, double minor, int around, int across);

/// A height field over [-size/2, size/2]² in x and z, (`cells` + 1)² vertices on a regular grid,
/// heights up to `height` from a sum of sines with phases drawn from `seed`; normals from the
/// surface's gradient. 2 * cells² triangles (an open surface). One mesh, one identity instance.
Model make_terrain(int cells, double size, double height, std::uint32_t seed);

/// A city: one unit box mesh (corner at the origin, [0, 1]³, flat-shaded) placed `blocks` ×
/// `blocks` times on a grid of 1.5-unit lots, each building scaled to a footprint and a height
/// (1 to 8) drawn from `seed`. blocks² instances of one mesh.
Model make_city(int blocks, std::uint32_t seed);

/// A closed, watertight needle: a cylinder of `length` along x and `radius`, with `segments`
/// sides and fan caps; its side triangles are `length` long and about 2π·radius/segments wide.
/// 4 * segments triangles, 2 * segments + 2 vertices shared by the sides and caps (so no normals:
/// the mesh is closed, each edge shared by exactly two triangles). One mesh, one identity instance.
Model make_thin(int segments, double length, double radius);

}  // namespace raypick
