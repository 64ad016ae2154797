// The instanced wireframes (one unit mesh per kind, one instance per shape, placed by the vertex
// shader shaders/instanced.vert = instance_point()) draw exactly the lines append_wireframe()
// generates from the core's parameters, for every type and every degenerate case, and their
// vertices lie on the surfaces the core casts against.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/Camera.h"
#include "app/SceneEdit.h"
#include "app/ShapeMeshes.h"
#include <raypick/scene/Euler.h>

using namespace raypick;
using namespace raypick::app;

namespace {

struct Case {
    std::string name;
    Shape<double> shape;
};

std::vector<Case> cases() {
    std::vector<Case> c;
    c.push_back({"sphere", Sphere<double>{Vec3d(1, 2, 3), 1.5}});
    c.push_back({"sphere radius 0", Sphere<double>{Vec3d(-1, 0.5, 2), 0.0}});
    c.push_back({"aabb", Aabb<double>{Vec3d(-1, 0, 2), Vec3d(0.5, 2, 2.25)}});
    c.push_back({"flat aabb", Aabb<double>{Vec3d(0, 0, 0), Vec3d(1, 1, 0)}});
    c.push_back({"point aabb", Aabb<double>{Vec3d(2, 2, 2), Vec3d(2, 2, 2)}});
    Obb<double> b;
    b.center = Vec3d(1, 0, -1);
    b.rotation = rotation_from_euler_degrees(Vec3d(10, 20, 30));
    b.half_extents = Vec3d(1, 0.5, 0.25);
    c.push_back({"obb", b});
    b.half_extents = Vec3d(1, 0.0, 0.25);
    c.push_back({"flat obb", b});
    b.half_extents = Vec3d(0.0);
    c.push_back({"point obb", b});
    Capsule<double> k;
    k.a = Vec3d(-1, 0.5, 0);
    k.b = Vec3d(2, 1.5, 1);
    k.radius = 0.4;
    c.push_back({"capsule", k});
    k.a = Vec3d(0, -1, 0);
    k.b = Vec3d(0, 3, 0);  // along y: perpendicular_frame's other helper axis
    c.push_back({"capsule along y", k});
    k.radius = 0.0;
    c.push_back({"capsule radius 0 (segment)", k});
    k.a = k.b = Vec3d(1.0);
    k.radius = 0.7;
    c.push_back({"capsule a == b (sphere)", k});
    k.radius = 0.0;
    c.push_back({"capsule a == b, radius 0 (point)", k});
    c.push_back({"triangle", Triangle<double>{Vec3d(-1, 0, 2), Vec3d(2, 0.5, 1), Vec3d(0, 3, -1)}});
    c.push_back({"triangle, two vertices equal", Triangle<double>{Vec3d(1, 1, 1), Vec3d(1, 1, 1), Vec3d(0, 3, -1)}});
    return c;
}

/// The instanced lines of `shape` as GL_LINES vertices (what the vertex shader places).
std::vector<glm::vec3> instanced_lines(const Shape<double>& shape, int segments) {
    const PlacedInstance p = wireframe_instance(shape, palette::shape);
    const UnitLines unit = unit_wireframe(p.mesh, segments);
    std::vector<glm::vec3> out;
    for (const std::uint32_t i : unit.indices) out.push_back(instance_point(p.instance, unit.vertices.at(i)));
    return out;
}

double tolerance(const glm::dvec3& p) { return 2e-6 * std::max(1.0, glm::length(p)); }

/// Distance from p to the nearest vertex of the triangle.
double nearest_vertex_distance(const Triangle<double>& t, const glm::dvec3& p) {
    return std::min({glm::length(p - t.a), glm::length(p - t.b), glm::length(p - t.c)});
}

}  // namespace

TEST(Instancing, SameLinesAsTheBatchedWireframeForEveryTypeAndDegenerateCase) {
    for (const Case& c : cases())
        for (const int n : kLodSegments) {
            SCOPED_TRACE(c.name + ", " + std::to_string(n) + " segments");
            LineList reference;
            append_wireframe(reference, c.shape, palette::shape, n);
            const std::vector<glm::vec3> lines = instanced_lines(c.shape, n);
            ASSERT_EQ(lines.size(), reference.vertices.size());
            ASSERT_FALSE(lines.empty()) << "every shape draws something, even a point";
            for (std::size_t i = 0; i < lines.size(); ++i) {
                const glm::dvec3 want(reference.vertices[i].position);
                EXPECT_LT(glm::length(glm::dvec3(lines[i]) - want), tolerance(want)) << "vertex " << i;
            }
        }
}

TEST(Instancing, VerticesLieOnTheSurfaces) {
    for (const Case& c : cases()) {
        SCOPED_TRACE(c.name);
        const std::vector<glm::vec3> lines = instanced_lines(c.shape, 16);
        std::visit(
            [&](const auto& s) {
                using S = std::decay_t<decltype(s)>;
                for (const glm::vec3& v : lines) {
                    const glm::dvec3 p(v);
                    if constexpr (std::is_same_v<S, Sphere<double>>) {
                        if (s.radius > 0.0) EXPECT_NEAR(glm::length(p - glm::dvec3(s.center)), s.radius, 1e-5);
                        else EXPECT_LE(glm::length(p - glm::dvec3(s.center)), 0.05 + 1e-6);  // the point's mark
                    } else if constexpr (std::is_same_v<S, Aabb<double>>) {
                        // Inside the box and on one of its faces (a corner's coordinates).
                        for (int k = 0; k < 3; ++k) {
                            EXPECT_GE(p[k], s.min[k] - 1e-6);
                            EXPECT_LE(p[k], s.max[k] + 1e-6);
                        }
                        int on_faces = 0;
                        for (int k = 0; k < 3; ++k)
                            on_faces += std::abs(p[k] - s.min[k]) < 1e-6 || std::abs(p[k] - s.max[k]) < 1e-6;
                        EXPECT_EQ(on_faces, 3) << "a corner";
                    } else if constexpr (std::is_same_v<S, Obb<double>>) {
                        const glm::dvec3 d = p - glm::dvec3(s.center);
                        for (int k = 0; k < 3; ++k)
                            EXPECT_NEAR(std::abs(glm::dot(d, glm::dvec3(s.rotation[k]))), s.half_extents[k], 1e-5);
                    } else if constexpr (std::is_same_v<S, Triangle<double>>) {
                        EXPECT_LT(nearest_vertex_distance(s, p), 1e-5);
                    } else {
                        const glm::dvec3 a(s.a), ab = glm::dvec3(s.b) - a;
                        const double len2 = glm::dot(ab, ab);
                        const double t = len2 > 0.0 ? std::clamp(glm::dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
                        const double dist = glm::length(p - (a + t * ab));
                        if (s.radius > 0.0 || len2 > 0.0) EXPECT_NEAR(dist, s.radius, 1e-5);
                        else EXPECT_LE(dist, 0.05 + 1e-6);
                    }
                }
            },
            c.shape);
    }
}

TEST(Instancing, DegenerateShapesUseTheMeshOfWhatTheCoreSees) {
    EXPECT_EQ(wireframe_instance(Sphere<double>{Vec3d(0.0), 0.0}, palette::shape).mesh, UnitMesh::Cross);
    EXPECT_EQ(wireframe_instance(Sphere<double>{Vec3d(0.0), 2.0}, palette::shape).mesh, UnitMesh::Rings);
    Capsule<double> k;
    EXPECT_EQ(wireframe_instance(k, palette::shape).mesh, UnitMesh::Capsule);
    k.radius = 0.0;
    EXPECT_EQ(wireframe_instance(k, palette::shape).mesh, UnitMesh::Segment);
    k.a = k.b;
    EXPECT_EQ(wireframe_instance(k, palette::shape).mesh, UnitMesh::Cross);
    k.radius = 1.0;
    EXPECT_EQ(wireframe_instance(k, palette::shape).mesh, UnitMesh::Rings);
    EXPECT_EQ(wireframe_instance(Aabb<double>{Vec3d(0.0), Vec3d(0.0)}, palette::shape).mesh, UnitMesh::Box);
    EXPECT_EQ(wireframe_instance(Triangle<double>{}, palette::shape).mesh, UnitMesh::Triangle);
    // The instance carries the colour it is drawn in.
    EXPECT_EQ(wireframe_instance(Aabb<double>{}, palette::selected).instance.color, palette::selected);
}

TEST(Instancing, LevelOfDetailKeepsCirclesWithinAThirdOfAPixel) {
    EXPECT_EQ(lod_segments(0.0), kLodSegments.front());
    EXPECT_EQ(lod_segments(1e9), kLodSegments.back());
    EXPECT_EQ(lod_segments(HUGE_VAL), kLodSegments.back());
    EXPECT_EQ(lod_segments(std::nan("")), kLodSegments.back());
    int previous = 0;
    for (double r = 0.0; r < 200.0; r += 0.25) {
        const int n = lod_segments(r);
        EXPECT_GE(n, previous) << "more segments for bigger circles";
        previous = n;
        if (n < kLodSegments.back()) {
            EXPECT_LE(r * (1.0 - std::cos(3.14159265358979323846 / n)), kMaxSagittaPixels) << r << " px, " << n;
        }
    }
    // Every level's meshes are closed circles of the promised size.
    for (const int n : kLodSegments) {
        EXPECT_EQ(unit_wireframe(UnitMesh::Rings, n).indices.size(), std::size_t(3 * n * 2));
        EXPECT_EQ(unit_wireframe(UnitMesh::Capsule, n).indices.size(), std::size_t((4 + 2 * n + 4 * (n / 2)) * 2));
    }
    EXPECT_EQ(unit_wireframe(UnitMesh::Box).indices.size(), 24u);
    EXPECT_EQ(unit_wireframe(UnitMesh::Cross).indices.size(), 6u);
    EXPECT_EQ(unit_wireframe(UnitMesh::Segment).indices.size(), 2u);
}

TEST(Instancing, CulledOnlyWhenSurelyOutsideAndCirclesRoundEnoughOnScreen) {
    // A camera at (0, 4, 14) looking at the origin; shapes of every kind on a grid that reaches far
    // outside the view on every side and behind the camera, some close to it (large on screen).
    Camera cam;
    cam.look_at(Vec3d(0, 4, 14), Vec3d(0, 0, 0));
    const int width = 800, height = 600;
    const glm::mat4 vp(cam.projection(double(width) / height) * cam.view());
    int culled = 0, kept = 0;
    for (int gx = -12; gx <= 12; ++gx)
        for (int gz = -12; gz <= 16; ++gz)
            for (int t = 0; t < kShapeTypeCount; ++t) {
                Shape<double> shape = make_shape(ShapeType(t), Vec3d(gx * 3.0, 0.5 * (gx % 3), gz * 1.5));
                const PlacedInstance p = wireframe_instance(shape, palette::shape);
                const int level = instance_level(p.mesh, p.instance, vp, width, height);
                const UnitLines unit = unit_wireframe(p.mesh, kLodSegments.back());
                std::vector<glm::vec4> clip;
                for (const UnitVertex& v : unit.vertices) clip.push_back(vp * glm::vec4(instance_point(p.instance, v), 1.0f));
                if (level < 0) {
                    ++culled;
                    // Every vertex beyond the same plane of the view: no line can cross it.
                    bool beyond[5] = {true, true, true, true, true};
                    for (const glm::vec4& c : clip) {
                        beyond[0] = beyond[0] && c.x > c.w;
                        beyond[1] = beyond[1] && c.x < -c.w;
                        beyond[2] = beyond[2] && c.y > c.w;
                        beyond[3] = beyond[3] && c.y < -c.w;
                        beyond[4] = beyond[4] && c.w < 0.0f;
                    }
                    EXPECT_TRUE(beyond[0] || beyond[1] || beyond[2] || beyond[3] || beyond[4])
                        << "culled but maybe visible: type " << t << " at " << gx << ", " << gz;
                    continue;
                }
                ++kept;
                if (p.mesh != UnitMesh::Rings && p.mesh != UnitMesh::Capsule) {
                    EXPECT_EQ(level, 0);
                    continue;
                }
                const int n = kLodSegments[std::size_t(level)];
                if (n == kLodSegments.back()) continue;
                // The drawn polygon's longest chord on screen bounds the circle's radius there:
                // chord = 2 r sin(pi / n); its sagitta r (1 - cos(pi / n)) must stay small.
                const UnitLines drawn = unit_wireframe(p.mesh, n);
                double longest = 0.0;
                for (std::size_t i = 0; i + 1 < drawn.indices.size(); i += 2) {
                    glm::vec4 a = vp * glm::vec4(instance_point(p.instance, drawn.vertices[drawn.indices[i]]), 1.0f);
                    glm::vec4 b = vp * glm::vec4(instance_point(p.instance, drawn.vertices[drawn.indices[i + 1]]), 1.0f);
                    if (a.w <= 0.0f || b.w <= 0.0f) continue;
                    const glm::dvec2 pa(a.x / a.w * width * 0.5, a.y / a.w * height * 0.5);
                    const glm::dvec2 pb(b.x / b.w * width * 0.5, b.y / b.w * height * 0.5);
                    // Only chords of circles (the capsule's side lines are not).
                    if (p.mesh == UnitMesh::Capsule &&
                        drawn.vertices[drawn.indices[i]].far != drawn.vertices[drawn.indices[i + 1]].far)
                        continue;
                    longest = std::max(longest, glm::length(pa - pb));
                }
                const double pi = 3.14159265358979323846;
                const double radius = longest / (2.0 * std::sin(pi / n));
                EXPECT_LE(radius * (1.0 - std::cos(pi / n)), kMaxSagittaPixels * 1.01)
                    << "type " << t << " at " << gx << ", " << gz << ": " << n << " segments";
            }
    EXPECT_GT(culled, 100);  // the grid reaches outside the view...
    EXPECT_GT(kept, 100);    // ...and inside it
}

// ---- instanced solids (shaders/solid_instanced.vert = instance_point() + instance_normal()) ------

namespace {

/// The outward unit normal of `shape` at surface point p (a box: the face p lies on nearest the
/// direction `hint`, since corners and edges belong to several faces; a triangle: the face on the
/// side of `hint`).
glm::dvec3 exact_normal(const Shape<double>& shape, const glm::dvec3& p, const glm::dvec3& hint) {
    return std::visit(
        [&](const auto& s) -> glm::dvec3 {
            using S = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<S, Sphere<double>>) {
                return glm::normalize(p - glm::dvec3(s.center));
            } else if constexpr (std::is_same_v<S, Capsule<double>>) {
                const glm::dvec3 a(s.a), ab = glm::dvec3(s.b) - a;
                const double len2 = glm::dot(ab, ab);
                const double t = len2 > 0.0 ? std::clamp(glm::dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
                return glm::normalize(p - (a + t * ab));
            } else if constexpr (std::is_same_v<S, Triangle<double>>) {
                const glm::dvec3 n = glm::normalize(glm::cross(s.b - s.a, s.c - s.a));
                return glm::dot(n, hint) >= 0.0 ? n : -n;  // two-sided: the face the hint is on
            } else {
                glm::dvec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
                if constexpr (std::is_same_v<S, Obb<double>>)
                    for (int k = 0; k < 3; ++k) axes[k] = s.rotation[k];
                glm::dvec3 best(0.0);
                for (const glm::dvec3& ax : axes)
                    for (const double sign : {-1.0, 1.0})
                        if (glm::dot(ax * sign, hint) > glm::dot(best, hint)) best = ax * sign;
                return best;
            }
        },
        shape);
}

}  // namespace

TEST(Instancing, SolidTrianglesLieOnTheSurfacesFacingOutWithTheCoresNormals) {
    for (const Case& c : cases())
        for (const int n : kLodSegments) {
            SCOPED_TRACE(c.name + ", " + std::to_string(n) + " segments");
            const PlacedInstance placed = wireframe_instance(c.shape, palette::shape);
            const UnitTriangles unit = unit_solid(placed.mesh, n);
            ASSERT_EQ(unit.indices.size() % 3, 0u);
            std::size_t with_area = 0;
            for (std::size_t t = 0; t < unit.indices.size(); t += 3) {
                glm::dvec3 p[3], nrm[3];
                for (int k = 0; k < 3; ++k) {
                    const UnitSolidVertex& v = unit.vertices.at(unit.indices[t + std::size_t(k)]);
                    p[k] = glm::dvec3(instance_point(placed.instance, v.vertex));
                    nrm[k] = glm::dvec3(instance_normal(placed.instance, v.normal));
                }
                const glm::dvec3 area = glm::cross(p[1] - p[0], p[2] - p[0]);
                if (glm::length(area) < 1e-9) continue;  // a flat box's edge-on faces: no pixels
                ++with_area;
                const glm::dvec3 face = glm::normalize(area);
                for (int k = 0; k < 3; ++k) {
                    EXPECT_NEAR(glm::length(nrm[k]), 1.0, 1e-5);
                    const glm::dvec3 exact = exact_normal(c.shape, p[k], face);
                    EXPECT_NEAR(glm::length(nrm[k] - exact), 0.0, 2e-5) << "vertex " << k << " of triangle " << t / 3;
                    // Counter-clockwise seen from outside: the winding's normal points out as well.
                    EXPECT_GT(glm::dot(face, exact), 0.0);
                }
            }
            // Every shape with an area draws some; points and segments (no area) draw nothing.
            std::vector<SolidVertex> reference;
            append_solid(reference, c.shape, n);
            double reference_area = 0.0;
            for (std::size_t t = 0; t + 2 < reference.size(); t += 3)
                reference_area += glm::length(glm::cross(glm::dvec3(reference[t + 1].position - reference[t].position),
                                                         glm::dvec3(reference[t + 2].position - reference[t].position)));
            EXPECT_EQ(with_area > 0, reference_area > 1e-9) << "reference area " << reference_area;
        }
}

TEST(Instancing, SolidVerticesLieOnTheSurfaces) {
    for (const Case& c : cases())
        for (const int n : kLodSegments) {
            SCOPED_TRACE(c.name + ", " + std::to_string(n) + " segments");
            const PlacedInstance placed = wireframe_instance(c.shape, palette::shape);
            const UnitTriangles unit = unit_solid(placed.mesh, n);
            if (placed.mesh == UnitMesh::Cross || placed.mesh == UnitMesh::Segment) {
                EXPECT_TRUE(unit.vertices.empty()) << "a point or a segment has no surface to fill";
                continue;
            }
            EXPECT_FALSE(unit.vertices.empty());
            for (const UnitSolidVertex& v : unit.vertices) {
                const glm::dvec3 p(instance_point(placed.instance, v.vertex));
                std::visit(
                    [&](const auto& s) {
                        using S = std::decay_t<decltype(s)>;
                        if constexpr (std::is_same_v<S, Sphere<double>>) {
                            EXPECT_NEAR(glm::length(p - glm::dvec3(s.center)), s.radius, 1e-5);
                        } else if constexpr (std::is_same_v<S, Capsule<double>>) {
                            const glm::dvec3 a(s.a), ab = glm::dvec3(s.b) - a;
                            const double len2 = glm::dot(ab, ab);
                            const double t = len2 > 0.0 ? std::clamp(glm::dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
                            EXPECT_NEAR(glm::length(p - (a + t * ab)), s.radius, 1e-5);
                        } else if constexpr (std::is_same_v<S, Triangle<double>>) {
                            EXPECT_LT(nearest_vertex_distance(s, p), 1e-5);
                        } else {  // a corner of the box: on the faces of all three axes
                            glm::dvec3 c, h, axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
                            if constexpr (std::is_same_v<S, Obb<double>>) {
                                c = s.center;
                                h = s.half_extents;
                                for (int k = 0; k < 3; ++k) axes[k] = s.rotation[k];
                            } else {
                                c = (s.min + s.max) * 0.5;
                                h = (s.max - s.min) * 0.5;
                            }
                            for (int k = 0; k < 3; ++k) EXPECT_NEAR(std::abs(glm::dot(p - c, axes[k])), h[k], 1e-5);
                        }
                    },
                    c.shape);
            }
        }
}

TEST(Instancing, SolidNormalsStayFiniteForHugeAndTinyExtents) {
    for (const double h : {1e-30, 1e-3, 1e18, 1e30}) {
        Obb<double> b;
        b.rotation = rotation_from_euler_degrees(Vec3d(10, 20, 30));
        b.half_extents = Vec3d(h, 2.0 * h, 0.0);  // flat as well
        const PlacedInstance placed = wireframe_instance(b, palette::shape);
        const glm::vec3 n = instance_normal(placed.instance, glm::vec3(0, 0, 1));
        SCOPED_TRACE(h);
        EXPECT_NEAR(glm::length(glm::dvec3(n) - glm::dvec3(b.rotation[2])), 0.0, 1e-5);
    }
}

TEST(Instancing, SolidBackFacesAreSkippedOnlyForClosedShapesWhollyInFrontOfTheNearPlane) {
    Camera cam;
    cam.look_at(Vec3d(0, 0, 10), Vec3d(0, 0, 0));
    const glm::mat4 vp(cam.projection(16.0 / 9.0) * cam.view());
    auto cullable = [&](const Shape<double>& s) {
        const PlacedInstance p = wireframe_instance(s, palette::shape);
        return solid_cullable(p.mesh, p.instance, vp);
    };
    EXPECT_TRUE(cullable(Sphere<double>{Vec3d(0.0), 1.0}));
    EXPECT_TRUE(cullable(Aabb<double>{Vec3d(-1.0), Vec3d(1.0)}));
    Capsule<double> k;
    k.a = Vec3d(-1, 0, 0);
    k.b = Vec3d(1, 0, 0);
    k.radius = 0.5;
    EXPECT_TRUE(cullable(k));
    // The eye inside, or the near plane cutting the shape open: its inside shows.
    EXPECT_FALSE(cullable(Sphere<double>{Vec3d(0, 0, 9.5), 1.0}));
    EXPECT_FALSE(cullable(Sphere<double>{Vec3d(0, 0, 10.0 - cam.near_plane()), 0.5 * cam.near_plane()}));
    EXPECT_FALSE(cullable(Sphere<double>{Vec3d(0, 0, 12), 1.0}));  // behind the eye
    // Flat boxes have both faces in one plane (which one shows must not change); points and
    // segments have no surface.
    EXPECT_FALSE(cullable(Aabb<double>{Vec3d(-1, -1, 0), Vec3d(1, 1, 0)}));
    EXPECT_FALSE(cullable(Sphere<double>{Vec3d(0.0), 0.0}));
    k.radius = 0.0;
    EXPECT_FALSE(cullable(k));
}

// ---- what the GPU reads: instances as rows, in draw order ----------------------------------------

TEST(Instancing, GpuInstanceRowsPlaceEveryVertexBitForBitAsTheTransform) {
    for (const Case& c : cases()) {
        SCOPED_TRACE(c.name);
        const PlacedInstance p = wireframe_instance(c.shape, palette::shape);
        const GpuInstance g = gpu_instance(p.instance);
        for (int r = 0; r < 3; ++r)
            for (int col = 0; col < 4; ++col) EXPECT_EQ(g.rows[std::size_t(r)][col], p.instance.transform[col][r]);
        EXPECT_EQ(g.offset, p.instance.offset);
        for (const int n : kLodSegments) {
            for (const UnitVertex& v : unit_wireframe(p.mesh, n).vertices)
                EXPECT_EQ(gpu_instance_point(g, v), instance_point(p.instance, v));
            for (const UnitSolidVertex& v : unit_solid(p.mesh, n).vertices)
                EXPECT_EQ(gpu_instance_point(g, v.vertex), instance_point(p.instance, v.vertex));
        }
    }
}

TEST(Instancing, DrawListsHoldEveryVisibleShapeOnceByBucketThenIndex) {
    Camera cam;
    cam.look_at(Vec3d(0, 4, 14), Vec3d(0, 0, 0));
    const int width = 800, height = 600;
    const glm::mat4 vp(cam.projection(double(width) / height) * cam.view());
    std::vector<UnitMesh> kinds;
    std::vector<ShapeInstance> instances;
    std::vector<Shape<double>> shapes;
    for (int gx = -12; gx <= 12; ++gx)
        for (int gz = -12; gz <= 16; ++gz)
            for (int t = 0; t < kShapeTypeCount; ++t)
                shapes.push_back(make_shape(ShapeType(t), Vec3d(gx * 3.0, 0.5 * (gx % 3), gz * 1.5)));
    for (const Case& c : cases()) shapes.push_back(c.shape);  // the degenerate meshes too
    for (const Shape<double>& s : shapes) {
        const PlacedInstance p = wireframe_instance(s, palette::shape);
        kinds.push_back(p.mesh);
        instances.push_back(p.instance);
    }
    const DrawLists lists = build_draw_lists(kinds, instances, vp, width, height);

    // Each visible shape exactly once, in the bucket of its mesh and level; culled ones never.
    std::vector<int> seen(shapes.size(), 0);
    std::int32_t next = 0;
    std::size_t last_bucket = 0;
    bool cull = true;
    for (std::size_t d = 0; d < lists.draws.size(); ++d) {
        const InstanceDraw& draw = lists.draws[d];
        EXPECT_EQ(draw.first, next) << "draws are contiguous";
        EXPECT_GT(draw.count, 0);
        if (d > 0) {
            EXPECT_GT(draw.bucket, last_bucket) << "one draw per bucket, ascending";
        }
        last_bucket = draw.bucket;
        for (std::int32_t k = 0; k < draw.count; ++k) {
            const auto i = std::size_t(lists.order.at(std::size_t(draw.first + k)));
            if (k > 0) {
                EXPECT_LT(lists.order[std::size_t(draw.first + k - 1)], lists.order[std::size_t(draw.first + k)]);
            }
            ++seen.at(i);
            const int level = instance_level(kinds[i], instances[i], vp, width, height);
            ASSERT_GE(level, 0);
            EXPECT_EQ(draw.bucket, std::size_t(kinds[i]) * kLodSegments.size() + std::size_t(level));
            if (kinds[i] != UnitMesh::Cross && kinds[i] != UnitMesh::Segment)
                cull = cull && solid_cullable(kinds[i], instances[i], vp);
        }
        next += draw.count;
    }
    EXPECT_EQ(std::size_t(next), lists.order.size());
    int culled = 0;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        const bool visible = instance_level(kinds[i], instances[i], vp, width, height) >= 0;
        EXPECT_EQ(seen[i], visible ? 1 : 0) << "shape " << i;
        culled += visible ? 0 : 1;
    }
    EXPECT_GT(culled, 100);
    EXPECT_GT(lists.draws.size(), 5u);
    EXPECT_EQ(lists.solid_cull, cull);

    // From the other side of the grid some shapes are around the eye: no back-face culling then.
    cam.look_at(Vec3d(0, 0.2, 0), Vec3d(1, 0, 0));
    const glm::mat4 inside(cam.projection(double(width) / height) * cam.view());
    EXPECT_FALSE(build_draw_lists(kinds, instances, inside, width, height).solid_cull);

    const DrawLists none = build_draw_lists({}, {}, vp, width, height);
    EXPECT_TRUE(none.order.empty());
    EXPECT_TRUE(none.draws.empty());
    EXPECT_TRUE(none.solid_cull);
}

TEST(Instancing, FlatSolidsShowTheFaceTurnedToTheEyeWithTheCoresPickNormal) {
    // A triangle or a flat box has both faces in one plane: solid.frag draws only the face that is
    // front-facing (counter-clockwise on screen) for a one-sided instance, and that face's normal
    // must be the one the core's pick returns for a ray from the eye (the normal facing the ray).
    Obb<double> flat_obb;
    flat_obb.center = Vec3d(1, 0, -1);
    flat_obb.rotation = rotation_from_euler_degrees(Vec3d(10, 20, 30));
    flat_obb.half_extents = Vec3d(1, 0.0, 0.25);
    const std::vector<Shape<double>> flat = {
        Triangle<double>{Vec3d(0, 0, 0), Vec3d(2, 0, 0), Vec3d(0, 1, 1)},
        Triangle<double>{Vec3d(0, 0, 0), Vec3d(0, 1, 1), Vec3d(2, 0, 0)},  // the other winding
        Aabb<double>{Vec3d(0, 0, 0), Vec3d(1, 1, 0)}, flat_obb};
    for (const Shape<double>& shape : flat) {
        const PlacedInstance placed = wireframe_instance(shape, palette::shape);
        EXPECT_TRUE(solid_one_sided(placed.instance)) << shape_type_name(type_of(shape));
        const UnitTriangles unit = unit_solid(placed.mesh, 16);
        const glm::dvec3 centre = (bounds(shape).min + bounds(shape).max) * 0.5;
        for (const glm::dvec3& eye : {glm::dvec3(3, 4, 5), glm::dvec3(-3, -4, -5), glm::dvec3(0.2, 0.3, 9), glm::dvec3(0.2, 9, -0.3)}) {
            SCOPED_TRACE(std::string(shape_type_name(type_of(shape))) + " seen from " + std::to_string(eye.x) + " " +
                         std::to_string(eye.y) + " " + std::to_string(eye.z));
            const auto hit = pick(Ray<double>{eye, centre - eye}, shape);
            ASSERT_TRUE(hit);
            std::size_t shown = 0;
            for (std::size_t t = 0; t < unit.indices.size(); t += 3) {
                glm::dvec3 p[3];
                for (int k = 0; k < 3; ++k)
                    p[k] = glm::dvec3(instance_point(placed.instance, unit.vertices.at(unit.indices[t + std::size_t(k)]).vertex));
                const glm::dvec3 area = glm::cross(p[1] - p[0], p[2] - p[0]);
                if (glm::length(area) < 1e-9) continue;  // edge-on faces: no pixels
                if (glm::dot(area, eye - p[0]) <= 0.0) continue;  // back-facing: discarded
                ++shown;
                const glm::dvec3 n(instance_normal(placed.instance, unit.vertices.at(unit.indices[t]).normal));
                EXPECT_NEAR(glm::length(n - glm::dvec3(hit->normal)), 0.0, 1e-5) << "triangle " << t / 3;
            }
            EXPECT_GT(shown, 0u);
        }
    }
    // Closed solids keep both faces (seen from inside, the far side's outward normal shows, as the
    // core's exit does).
    for (const Shape<double>& closed : {Shape<double>(Sphere<double>{Vec3d(0.0), 1.0}),
                                        Shape<double>(Aabb<double>{Vec3d(-1.0), Vec3d(1.0)})})
        EXPECT_FALSE(solid_one_sided(wireframe_instance(closed, palette::shape).instance));
}
