// raypick geometry: InstanceBvh::closest_point() and closest_instance(), the brute-force
// reference. Part of MeshInstances.h (included at its end); not a header of its own.
#pragma once

#include <raypick/geometry/ClosestPoint.h>

namespace raypick {

/// The instance triangle nearest to a point (InstanceBvh::closest_point()), in world space.
template <typename T> struct InstanceClosest {
    std::uint32_t instance = 0;
    /// The triangle (its index in the instance's mesh), its barycentrics, and the closest point of
    /// its placed copy (mesh_instances::closest_placed()).
    MeshClosest<T> closest;
};

namespace mesh_instances {

/// Mesh triangle tri placed by `transform`: its vertices mapped by apply().
template <typename T> inline Triangle<T> placed_triangle(const Affine<T>& transform, const Triangle<T>& tri) {
    return {apply(transform, tri.a), apply(transform, tri.b), apply(transform, tri.c)};
}

/// The closest point to world point p of mesh triangle tri placed by `transform`, `frame` the
/// transform's NormalFrame: closest_point_barycentric() of placed_triangle() (distances are not
/// preserved by the map, so the placed copy is measured), with the normal as InstanceBvh::pick()
/// gives it — the triangle's area vector mapped by the inverse transpose of the linear part,
/// normalised — so a mirrored instance's normal still points out of the face the mesh calls front.
/// Where the mesh triangle has zero area: the placed one's (the unit direction from the point to
/// p, or +y). Empty where the placed vertices are not finite (overflow).
template <typename T>
inline std::optional<TrianglePoint<T>> closest_placed(const Vec3<T>& p, const Affine<T>& transform,
                                                      const NormalFrame<T>& frame, const Triangle<T>& tri) {
    using W = detail::TriangleWide<T>;
    auto c = closest_point_barycentric(p, placed_triangle(transform, tri));
    if (!c) return c;
    const Vec3<W> area = detail::area_vector(tri);
    if (area != Vec3<W>(W(0))) c->surface.normal = Vec3<T>(normalize_or(frame(area), Vec3<W>(c->surface.normal)));
    return c;
}

/// A lower bound of the smallest singular value of m (0 when none can be given), in a frame
/// scaled by a power of two: the square root of the least eigenvalue of m^T m by the closed form
/// for symmetric 3 x 3 matrices (Smith 1961) in double, less 1e-7 of the trace for that form's
/// rounding (its error is at most a few times sqrt(double eps) times the eigenvalues' spread),
/// rounded down — within a relative 1e-7 of the true value when that is not tiny. Where that
/// leaves nothing, 2 |det m| / |m|_F^2 (sigma_1 sigma_2 <= |m|_F^2 / 2 and the product of the
/// three is |det m|; the determinant less a bound of its rounding), within a factor 3/2 of the
/// true value for a rotation. The tighter the bound, the less of an instance's mesh a closest-point
/// walk opens.
template <typename T> inline T smallest_singular_bound(const Mat3<T>& m) {
    const T eps = std::numeric_limits<T>::epsilon();
    const detail::Pow2Scale<T> sc = detail::pow2_scale(max_entry(m));
    const Mat3<T> s = m * sc.s;
    // The closed form: A = s^T s, q its mean eigenvalue, p the spread, the least eigenvalue
    // q + 2 p cos(acos(det((A - q I) / p) / 2) / 3 + 2 pi / 3).
    const glm::dmat3 d(s);
    const glm::dmat3 a = glm::transpose(d) * d;
    const double trace = a[0][0] + a[1][1] + a[2][2], q = trace / 3;
    const double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
    const double spread2 = (a[0][0] - q) * (a[0][0] - q) + (a[1][1] - q) * (a[1][1] - q) + (a[2][2] - q) * (a[2][2] - q) + 2 * off;
    double least = q;
    if (spread2 > 0) {
        const double sp = std::sqrt(spread2 / 6);
        const glm::dmat3 b = (a - q * glm::dmat3(1.0)) / sp;
        const double r = std::clamp(glm::determinant(b) / 2, -1.0, 1.0);
        least = q + 2 * sp * std::cos(std::acos(r) / 3 + 2.0943951023931957);
    }
    const double lower = least - 1e-7 * trace;
    if (lower > 0 && std::isfinite(lower)) {
        const T sigma = T(std::sqrt(lower) * (1 - 1e-7)) * (T(1) - T(4) * eps) * sc.inv;
        if (sigma > T(0)) return sigma;
    }
    T terms = T(1), frobenius2 = T(0);
    for (int j = 0; j < 3; ++j) {
        terms *= std::abs(s[j].x) + std::abs(s[j].y) + std::abs(s[j].z);
        frobenius2 += glm::dot(s[j], s[j]);
    }
    const T det = std::abs(glm::determinant(s)) - T(8) * eps * terms;
    if (!(det > T(0)) || !(frobenius2 > T(0))) return T(0);
    return T(2) * det / frobenius2 * (T(1) - T(16) * eps) * sc.inv;
}

}  // namespace mesh_instances

template <typename T>
template <typename Keep>
std::optional<InstanceClosest<T>> InstanceBvh<T>::closest_point(const Vec3<T>& p, T max_distance, const Keep& keep) const {
    std::optional<InstanceClosest<T>> best;
    if (nodes_.empty() || !is_finite(p) || !(max_distance >= T(0))) return best;
    const T eps = std::numeric_limits<T>::epsilon();
    // The world boxes hold the placed triangles' computed vertices: prune with the slack of the
    // triangles' computed distances.
    const T margin = detail::closest_margin(p, scene_mag_);
    T limit = max_distance + margin;
    const detail::BoxQuery<T> query(p, scene_mag_);
    const auto best_distance = [&] { return best ? best->closest.surface.distance : max_distance; };
    mesh_bvh::walk_closest(nodes_.data(), query, limit, [&](std::uint32_t first, std::uint32_t count) {
        for (std::uint32_t slot = first; slot < first + count; ++slot) {
            const Placed& placed = placed_[slot];
            if (!keep(placed.instance)) continue;
            const Affine<T>& transform = instances_[placed.instance].transform;
            const mesh_instances::NormalFrame<T> frame(placed.inverse);
            // The mesh is walked from q, p mapped into it. Every point x of a mesh box at least d
            // from q maps to a point at least sigma (d - |q - q*|) from p, q* the exact preimage of
            // p, sigma a lower bound of the map's smallest singular value, and
            // sigma |q - q*| <= |linear (q - q*)| = |apply(q) - p| (the residual r, computed, plus
            // its rounding). The placed vertices are computed within the mapping's rounding of
            // their exact images. So a box at least (best + margin + slack) / sigma from q holds
            // no triangle nearer than the best.
            const Vec3<T> q = placed.inverse * (p - placed.translation);
            const Vec3<T> r = apply(transform, q) - p;
            const Aabb<T> mesh_box = placed.mesh->bounds();
            const T mesh_mag = std::max(detail::max_abs(mesh_box.min), detail::max_abs(mesh_box.max));
            const T slack = detail::length_of(r) +
                            T(64) * eps *
                                (T(3) * mesh_instances::max_entry(transform.linear) * (mesh_mag + detail::max_abs(q)) +
                                 detail::max_abs(transform.translation) + detail::max_abs(p)) +
                            std::numeric_limits<T>::min();
            const T sigma = mesh_instances::smallest_singular_bound(transform.linear);
            const auto mesh_limit = [&] {
                const T l = (best_distance() + margin + slack) / sigma * (T(1) + T(16) * eps);
                return sigma > T(0) && l >= T(0) ? l : infinity<T>();  // NaN from an overflow: no pruning
            };
            T in_mesh = mesh_limit();
            placed.mesh->closest_walk(q, in_mesh, [&](std::uint32_t id, const Triangle<T>& tri) {
                const auto c = mesh_instances::closest_placed(p, transform, frame, tri);
                if (!c) return;
                const T d = c->surface.distance;
                bool better = d <= max_distance;
                if (best) {
                    const T b = best->closest.surface.distance;
                    better = d < b || (d == b && (placed.instance < best->instance ||
                                                  (placed.instance == best->instance && id < best->closest.triangle)));
                }
                if (!better) return;
                best = InstanceClosest<T>{placed.instance, MeshClosest<T>{id, c->surface, c->barycentric}};
                limit = d + margin;
                in_mesh = mesh_limit();
            });
        }
    });
    return best;
}

/// The instance triangle nearest to p within max_distance by brute force over every instance's
/// placed triangles, in instance then triangle order (mesh_instances::closest_placed() of each):
/// the reference InstanceBvh::closest_point() is tested against, with its contract (ties to the
/// smaller instance, then the smaller triangle). Empty for a non-finite p or a negative or NaN
/// max_distance.
template <typename T>
std::optional<InstanceClosest<T>> closest_instance(const InstanceBvh<T>& bvh, const Vec3<T>& p,
                                                   T max_distance = infinity<T>()) {
    std::optional<InstanceClosest<T>> best;
    if (!is_finite(p) || !(max_distance >= T(0))) return best;
    for (std::uint32_t i = 0; i < bvh.instances().size(); ++i) {
        const Instance<T>& inst = bvh.instances()[i];
        const TriangleMesh<T>& mesh = bvh.meshes()[inst.mesh]->mesh();
        const mesh_instances::NormalFrame<T> frame(glm::inverse(inst.transform.linear));
        for (std::uint32_t j = 0; j < mesh.indices.size(); ++j) {
            const auto c = mesh_instances::closest_placed(p, inst.transform, frame, triangle(mesh, j));
            if (!c) continue;
            const T d = c->surface.distance;
            if (best ? d < best->closest.surface.distance : d <= max_distance)
                best = InstanceClosest<T>{i, MeshClosest<T>{j, c->surface, c->barycentric}};
        }
    }
    return best;
}

}  // namespace raypick
