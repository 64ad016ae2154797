// raypick demo: the shapes' meshes, generated from exactly the parameters the core uses — wire and
// solid line and triangle lists, the unit meshes and per-shape instances of the instanced draws,
// their levels of detail and a view's draw lists — and the demo's palette. CPU only (float
// vertices for the GPU); the Renderer uploads them.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include <raypick/geometry/Shape.h>

namespace raypick::app {

using Color = glm::vec4;

/// The demo's palette: one colour per meaning, told apart on the dark background and over solid
/// mode's normal colours (which span every pastel hue: the overlays' lines and markers get a dark
/// outline, and the textbook variant's markers are diamonds). The seed sample's convention stays:
/// shapes red, the case file's rays green, their hits blue. Help > Colours lists them (legend()).
namespace palette {
inline const Color background{0.11f, 0.12f, 0.14f, 1.0f};
inline const Color shape{0.90f, 0.20f, 0.20f, 1.0f};      ///< shapes and meshes: red
inline const Color hovered{1.00f, 0.60f, 0.10f, 1.0f};    ///< under the pointer (a shape, a mesh, a handle): orange
inline const Color selected{1.00f, 0.95f, 0.30f, 1.0f};   ///< the selection, its handles, the ray chosen in the Case panel: yellow
inline const Color handle = selected;                     ///< the selected shape's handles: yellow squares
inline const Color ray{0.20f, 0.85f, 1.00f, 1.0f};        ///< the current (mouse or frozen) ray: cyan
inline const Color ray_miss{0.25f, 0.45f, 0.52f, 1.0f};   ///< ... when it hits nothing: dim cyan
inline const Color entry{0.60f, 1.00f, 0.10f, 1.0f};      ///< the current ray's entry points: lime
inline const Color exit{0.70f, 0.45f, 1.00f, 1.0f};       ///< exit points: violet
inline const Color scene_ray{0.15f, 0.70f, 0.25f, 1.0f};  ///< the case file's rays: green
inline const Color scene_hit{0.10f, 0.35f, 1.00f, 1.0f};  ///< the case file's rays' first hits: blue
inline const Color failed{1.00f, 0.35f, 0.55f, 1.0f};     ///< a case ray with a failed expectation: rose
inline const Color normal{0.95f, 0.95f, 0.95f, 1.0f};          ///< a surface's (geometric, face) normal: white
inline const Color shading_normal{0.10f, 0.80f, 0.65f, 1.0f};  ///< a mesh hit's interpolated normal: teal
inline const Color triangle = entry;      ///< the mesh triangle the ray meets from the front (where it enters)
inline const Color back_face = exit;      ///< ... from behind (where it leaves a closed mesh)
inline const Color variant{1.00f, 0.20f, 1.00f, 1.0f};  ///< textbook-variant results: magenta (diamonds)
inline const Color grid{0.26f, 0.27f, 0.30f, 1.0f};
inline const Color axis_x{0.75f, 0.30f, 0.30f, 1.0f};
inline const Color axis_y{0.30f, 0.70f, 0.30f, 1.0f};
inline const Color axis_z{0.30f, 0.40f, 0.80f, 1.0f};

/// One line of the colour legend (Help > Colours).
struct LegendEntry {
    const Color* color;
    const char* what;
};
/// Every meaning of the palette, for the legend.
inline const std::array<LegendEntry, 15> legend = {{
    {&shape, "shapes and meshes (the tutorial's red)"},
    {&hovered, "under the pointer: a shape, a mesh, a handle"},
    {&selected, "selected; its handles (squares); the ray chosen in the Case panel"},
    {&ray, "the current ray (mouse or frozen)"},
    {&ray_miss, "the current ray when it hits nothing"},
    {&entry, "entry points of the current ray; the mesh triangle it meets from the front"},
    {&exit, "exit points; the mesh triangle met from behind (BACK FACE)"},
    {&normal, "normals (a mesh hit: its face normal)"},
    {&shading_normal, "a mesh hit's interpolated normal"},
    {&scene_ray, "the case file's rays (the tutorial's green)"},
    {&scene_hit, "their first hits (the tutorial's blue)"},
    {&failed, "a case ray with a failed expectation"},
    {&variant, "textbook-variant results (diamonds)"},
    {&grid, "the grid on the floor (y = 0)"},
    {&background, "empty space"},
}};
}  // namespace palette

struct LineVertex {
    glm::vec3 position;
    Color color;
};

struct SolidVertex {
    glm::vec3 position;
    glm::vec3 normal;
};

/// GL_LINES vertex list (two vertices per segment).
struct LineList {
    std::vector<LineVertex> vertices;
    void clear() { vertices.clear(); }
    void line(const glm::dvec3& a, const glm::dvec3& b, const Color& c);
    /// Circle of `radius` around `center` in the plane spanned by unit vectors u and v.
    void circle(const glm::dvec3& center, const glm::dvec3& u, const glm::dvec3& v, double radius,
                const Color& c, int segments);
    /// Half circle: from +u through +v to -u.
    void arc(const glm::dvec3& center, const glm::dvec3& u, const glm::dvec3& v, double radius,
             const Color& c, int segments);
    /// Arrow from `from` along `dir` (any length), with a small head.
    void arrow(const glm::dvec3& from, const glm::dvec3& dir, const Color& c);
    /// Small 3D cross (three axis-aligned segments) of half-size `size`.
    void cross(const glm::dvec3& at, double size, const Color& c);
};

/// Segments per full circle of the wireframes.
inline constexpr int kCircleSegments = 32;

/// Sphere: three great circles (the planes x, y, z through the centre) — so the silhouette seen
/// along any axis is drawn exactly. Box: its 12 edges. Oriented box: its 12 rotated edges.
/// Capsule: 4 lines along the cylinder, the rings at a and b, and two half circles per end
/// (the hemispheres); a == b is drawn as the sphere it is, radius 0 as the segment. Triangle: its
/// three edges ab, bc, ca.
void append_wireframe(LineList& out, const Shape<double>& shape, const Color& color,
                      int segments = kCircleSegments);

/// Triangles with outward normals, for the solid (shaded by normal) mode (a triangle shape: both
/// faces).
void append_solid(std::vector<SolidVertex>& out, const Shape<double>& shape, int segments = kCircleSegments);

/// Ground grid on y = 0 (lines every `step` up to +-half_size) and the three axes.
void append_grid(LineList& out, double half_size, double step);

/// Two unit vectors perpendicular to `axis` (and to each other); any `axis`, even zero.
void perpendicular_frame(const glm::dvec3& axis, glm::dvec3& u, glm::dvec3& v);

// ---- instanced wireframes ------------------------------------------------------------------------
// The scene's wireframes are drawn with instancing: one unit mesh per kind below, and per shape one
// ShapeInstance (a float transform, an offset for the far end of a capsule, a colour). The vertex
// shader (shaders/instanced.vert) computes exactly what instance_point() computes here, and
// wireframe_instance() chooses the kind and the transform so that the instanced lines are the
// lines append_wireframe() generates for the same shape and segment count (tests/app/InstancingTest).

/// The unit meshes. Rings: the sphere's three great circles (radius 1 around the origin). Cross:
/// the mark of a point (radius 0; three segments from -1 to 1 along the axes). Box: the 12 edges of
/// [-1, 1]^3. Segment: a capsule of radius 0. Capsule: the capsule wireframe in its frame (x = u,
/// y = v, z = axis, radius 1), vertices at the far end flagged. Triangle: the edges of (0,0,0),
/// (1,0,0), (0,1,0), which an affine transform takes onto any triangle.
enum class UnitMesh : int { Rings, Cross, Box, Segment, Capsule, Triangle };
inline constexpr int kUnitMeshCount = 6;

/// A unit-mesh vertex: its position, and `far` = 1 for vertices that belong to a capsule's end b
/// (they are moved by the instance's offset b - a), else 0.
struct UnitVertex {
    glm::vec3 position;
    float far = 0.0f;
};

/// An indexed GL_LINES mesh (two indices per segment).
struct UnitLines {
    std::vector<UnitVertex> vertices;
    std::vector<std::uint32_t> indices;
};

/// Segments per circle of the level-of-detail meshes (Rings and Capsule), coarsest first.
inline constexpr std::array<int, 4> kLodSegments{4, 8, 16, 32};
/// How far (pixels) a level-of-detail polygon may stray from its circle.
inline constexpr double kMaxSagittaPixels = 0.35;
/// The fewest segments of kLodSegments whose polygon stays within kMaxSagittaPixels of a circle
/// of `radius_pixels` on screen (the largest level for anything bigger, or not finite).
int lod_segments(double radius_pixels);

/// The unit mesh of `kind` with `segments` per full circle (as append_wireframe's).
UnitLines unit_wireframe(UnitMesh kind, int segments = kCircleSegments);

/// Per-shape instance data, laid out for the GPU: six RGBA32F texels of a buffer texture.
struct ShapeInstance {
    glm::mat4 transform{1.0f};  ///< unit mesh -> world
    glm::vec4 offset{0.0f};     ///< xyz added to vertices with far = 1 (capsule: b - a); w unused
    Color color{1.0f};
};
static_assert(sizeof(ShapeInstance) == 24 * sizeof(float), "six vec4 texels, no padding");

struct PlacedInstance {
    UnitMesh mesh = UnitMesh::Cross;
    ShapeInstance instance;
};

/// Which unit mesh draws `shape` and where: the same decisions as append_wireframe (radius 0 spheres
/// and a == b, radius 0 capsules are the cross; a == b capsules the sphere they are; radius 0
/// capsules the segment; flat boxes the collapsed box).
PlacedInstance wireframe_instance(const Shape<double>& shape, const Color& color);

/// The level of detail (index into kLodSegments) an instance needs in a view of view_width x
/// view_height pixels — its circles within kMaxSagittaPixels of round at their nearest point — or
/// -1 when its bounding sphere is entirely outside the view. Meshes without circles: level 0.
/// Conservative both ways: more segments rather than fewer, culled only when surely invisible.
int instance_level(UnitMesh mesh, const ShapeInstance& instance, const glm::mat4& view_projection, int view_width,
                   int view_height);

/// A unit-mesh vertex placed by an instance: transform * (position, 1) + far * offset.xyz, in float, as
/// the vertex shader does.
glm::vec3 instance_point(const ShapeInstance& instance, const UnitVertex& vertex);

/// An instance as the shaders read it, four RGBA32F texels: the transform's first three rows (its
/// fourth row is always 0 0 0 1) and the far-end offset. No colour: every shape of a draw has the
/// same one (palette::shape), a uniform of the draw.
struct GpuInstance {
    std::array<glm::vec4, 3> rows{};
    glm::vec4 offset{0.0f};
};
static_assert(sizeof(GpuInstance) == 16 * sizeof(float), "four vec4 texels, no padding");

GpuInstance gpu_instance(const ShapeInstance& instance);

/// instance_point() as the shaders compute it from a GpuInstance: the transform rebuilt from its
/// rows (transposed), so the same products are summed in the same order — the same float result.
glm::vec3 gpu_instance_point(const GpuInstance& instance, const UnitVertex& vertex);

/// Buckets of the draws: one per unit mesh and level of detail, bucket = mesh * levels + level.
inline constexpr std::size_t kLodBuckets = std::size_t(kUnitMeshCount) * kLodSegments.size();

/// One draw: the instances gpu[first, first + count) of one bucket.
struct InstanceDraw {
    std::size_t bucket = 0;
    std::int32_t first = 0, count = 0;
};

/// What one view draws: the shapes' indices in draw order (by bucket, ascending; within a bucket by
/// shape index, ascending), the draws over that order, and whether back faces may be skipped.
struct DrawLists {
    std::vector<std::int32_t> order;
    std::vector<InstanceDraw> draws;
    bool solid_cull = true;  ///< every drawn closed solid is solid_cullable (true when none is drawn)
};

/// The draw lists of `instances` (of unit meshes `kinds`, same size) in a view: each shape whose
/// instance_level is not -1 once, in the bucket of its mesh and level. The instance data the shaders
/// read is then gpu_instance(instances[order[i]]) at i, so a draw's k-th instance is at first + k.
DrawLists build_draw_lists(const std::vector<UnitMesh>& kinds, const std::vector<ShapeInstance>& instances,
                           const glm::mat4& view_projection, int view_width, int view_height);

// ---- instanced solids ----------------------------------------------------------------------------
// Solid mode draws the same instances (same ShapeInstance, same culling and level of detail) with a
// triangle mesh per kind (shaders/solid_instanced.vert = instance_point() and instance_normal()).

/// A unit-solid vertex: the placed vertex and its outward normal in the unit mesh's frame.
struct UnitSolidVertex {
    UnitVertex vertex;
    glm::vec3 normal{0.0f};
};

/// An indexed GL_TRIANGLES mesh, counter-clockwise seen from outside.
struct UnitTriangles {
    std::vector<UnitSolidVertex> vertices;
    std::vector<std::uint32_t> indices;
};

/// The unit solid of `kind` with `segments` per full circle and segments / 8 rings (at least one)
/// from a pole to the equator, as coarse along as append_solid's (its wireframe, drawn on top, is
/// what shows the outline). Rings: the unit sphere. Box: the
/// faces of [-1, 1]^3 in append_solid's order, four vertices a face with its normal. Capsule: the
/// cylinder and the two hemispheres in the capsule's frame (UnitMesh). Triangle: the unit triangle's
/// two faces, normals +z and -z. Cross and Segment have no area (a point, a segment): empty.
UnitTriangles unit_solid(UnitMesh kind, int segments = kCircleSegments);

/// Whether the back faces of an instance's solid may be skipped without changing the picture: a
/// closed volume (not a point, segment or flat box, whose two faces share a plane) entirely in front
/// of the near plane, so the eye is outside it and no face of it is clipped open — then the first
/// surface along every pixel's ray is a front face (counter-clockwise, unit_solid).
bool solid_cullable(UnitMesh mesh, const ShapeInstance& instance, const glm::mat4& view_projection);

/// A unit-solid normal placed by an instance, unit length, as the vertex shader does: the cofactor
/// matrix of the transform's columns made unit length (divided by their largest entry first, so
/// neither tiny nor huge extents overflow) times the normal. The transforms are rotations times
/// per-axis scales, so this is the rotated normal — also when an extent is 0 (a flat box's faces);
/// a triangle's (edges b - a and c - a, third column 0) turns +-z into +-unit(cross(b - a, c - a)).
/// Zero only for faces that have no area.
glm::vec3 instance_normal(const ShapeInstance& instance, const glm::vec3& unit_normal);
/// Whether an instance's solid is flat (a column of its transform zero: a triangle, a flat box):
/// its two faces lie in one plane, so the shader draws only the face turned to the eye, whose
/// normal faces the ray as the core's pick normal does (shaders/solid_instanced.vert, solid.frag).
bool solid_one_sided(const ShapeInstance& instance);

}  // namespace raypick::app
