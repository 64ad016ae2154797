// raypick geometry: the ray/capsule test of "Useless Snippet #5: Ray/Capsule intersection test"
// (blog post), bug included, kept as a named
// variant for comparison and benchmarks. Nothing else in raypick uses it.
#pragma once

#include <cmath>
#include <optional>

#include <raypick/geometry/Math.h>
#include <raypick/geometry/Ray.h>
#include <raypick/geometry/Capsule.h>

namespace raypick::textbook {

/// Both points the published test reports: P1 (t1, n1) and P2 (t2, n2). P1 may lie behind the
/// origin (the post: "one of them would be behind the ray's origin").
template <typename T> struct CapsuleHitPair {
    T t1 = T(0), t2 = T(0);
    Vec3<T> p1{T(0)}, p2{T(0)}, n1{T(0)}, n2{T(0)};
};

namespace detail {
/// The post's IntersectRaySphere: textbook quadratic, tmin/tmax sorted, no normal.
template <typename T>
bool published_ray_sphere(const Ray<T>& ray, const Vec3<T>& c, T r, T& tmin, T& tmax) {
    const Vec3<T> co = ray.origin - c;
    const T a = glm::dot(ray.direction, ray.direction);
    const T b = T(2) * glm::dot(co, ray.direction);
    const T cc = glm::dot(co, co) - r * r;
    const T disc = b * b - T(4) * a * cc;
    if (disc < T(0)) return false;
    tmin = (-b - std::sqrt(disc)) / (T(2) * a);
    tmax = (-b + std::sqrt(disc)) / (T(2) * a);
    if (tmin > tmax) std::swap(tmin, tmax);
    return true;
}
/// The post's CVector3f::Normalize: zero vector below 1e-12 squared length.
template <typename T> Vec3<T> published_normalize(const Vec3<T>& v) {
    const T m = glm::dot(v, v);
    return m > T(1e-12) ? v / std::sqrt(m) : Vec3<T>(T(0));
}
}  // namespace detail

/// IntersectRayCapsule as published: infinite cylinder quadratic with t' = t*m + n along AB,
/// falling back to the end spheres when t' leaves [0, 1]; a == 0 (ray parallel to AB) uses the two
/// end spheres only and misses unless the line meets both.
/// The bug (pointed out in the post's comments): no check that tmax >= 0, so a capsule entirely
/// behind the origin is reported as a hit. Also: a == b divides by |AB|^2 = 0 and reports NaN
/// points; a ray meeting only one end sphere while parallel to the axis is reported as a miss.
template <typename T>
std::optional<CapsuleHitPair<T>> capsule_published(const Ray<T>& ray, const Capsule<T>& capsule) {
    using detail::published_normalize;
    using detail::published_ray_sphere;
    const Vec3<T> AB = capsule.b - capsule.a;
    const Vec3<T> AO = ray.origin - capsule.a;
    const T AB_dot_d = glm::dot(AB, ray.direction);
    const T AB_dot_AO = glm::dot(AB, AO);
    const T AB_dot_AB = glm::dot(AB, AB);
    const T m = AB_dot_d / AB_dot_AB;
    const T n = AB_dot_AO / AB_dot_AB;
    const Vec3<T> Q = ray.direction - AB * m;
    const Vec3<T> R = AO - AB * n;
    const T a = glm::dot(Q, Q);
    const T b = T(2) * glm::dot(Q, R);
    const T c = glm::dot(R, R) - capsule.radius * capsule.radius;
    CapsuleHitPair<T> out;
    auto set1 = [&](T t, const Vec3<T>& centre) {
        out.t1 = t;
        out.p1 = ray.at(t);
        out.n1 = published_normalize(out.p1 - centre);
    };
    auto set2 = [&](T t, const Vec3<T>& centre) {
        out.t2 = t;
        out.p2 = ray.at(t);
        out.n2 = published_normalize(out.p2 - centre);
    };
    if (a == T(0)) {
        T atmin, atmax, btmin, btmax;
        if (!published_ray_sphere(ray, capsule.a, capsule.radius, atmin, atmax) ||
            !published_ray_sphere(ray, capsule.b, capsule.radius, btmin, btmax))
            return std::nullopt;
        if (atmin < btmin) set1(atmin, capsule.a); else set1(btmin, capsule.b);
        if (atmax > btmax) set2(atmax, capsule.a); else set2(btmax, capsule.b);
        return out;
    }
    const T disc = b * b - T(4) * a * c;
    if (disc < T(0)) return std::nullopt;
    T tmin = (-b - std::sqrt(disc)) / (T(2) * a);
    T tmax = (-b + std::sqrt(disc)) / (T(2) * a);
    if (tmin > tmax) std::swap(tmin, tmax);

    const T t_k1 = tmin * m + n;
    T st0, st1;
    if (t_k1 < T(0)) {
        if (!published_ray_sphere(ray, capsule.a, capsule.radius, st0, st1)) return std::nullopt;
        set1(st0, capsule.a);
    } else if (t_k1 > T(1)) {
        if (!published_ray_sphere(ray, capsule.b, capsule.radius, st0, st1)) return std::nullopt;
        set1(st0, capsule.b);
    } else {
        set1(tmin, capsule.a + AB * t_k1);
    }
    const T t_k2 = tmax * m + n;
    if (t_k2 < T(0)) {
        if (!published_ray_sphere(ray, capsule.a, capsule.radius, st0, st1)) return std::nullopt;
        set2(st1, capsule.a);
    } else if (t_k2 > T(1)) {
        if (!published_ray_sphere(ray, capsule.b, capsule.radius, st0, st1)) return std::nullopt;
        set2(st1, capsule.b);
    } else {
        set2(tmax, capsule.a + AB * t_k2);
    }
    return out;
}

}  // namespace raypick::textbook
