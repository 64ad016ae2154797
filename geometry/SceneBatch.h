// raypick geometry: SceneBvh's queries over arrays of rays and points — pick, occluded,
// crossings, contains, classify, closest_point, signed_distance — on several threads. Each query
// is SceneBvh's own, answered independently and written at its index, so the results are the
// same for every thread count. Inputs are strided views (numpy arrays, interleaved buffers,
// std::vector<Vec3>) read in place; outputs are either arrays the caller owns (pick(),
// occluded(), classify(), contains_object(), closest_point(), signed_distance()) or flat arrays
// with offsets per query (crossings(), contains()).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <raypick/geometry/SceneBvh.h>

namespace raypick {

/// `size` 3-vectors read in place: vector i's component k is data[i * stride + k * component_stride]
/// (strides in elements of T, either sign). The default strides are packed xyz triples
/// (std::vector<Vec3<T>>, a C-contiguous (n, 3) array); a (3, n) array has stride 1 and
/// component_stride n.
template <typename T> struct Vec3View {
    const T* data = nullptr;
    std::size_t size = 0;
    std::ptrdiff_t stride = 3;
    std::ptrdiff_t component_stride = 1;

    Vec3View() = default;
    Vec3View(const T* data_, std::size_t size_, std::ptrdiff_t stride_ = 3, std::ptrdiff_t component_stride_ = 1)
        : data(data_), size(size_), stride(stride_), component_stride(component_stride_) {}
    Vec3View(const std::vector<Vec3<T>>& v) : data(v.empty() ? nullptr : &v[0].x), size(v.size()) {}

    Vec3<T> operator[](std::size_t i) const {
        const T* p = data + std::ptrdiff_t(i) * stride;
        return {p[0], p[component_stride], p[2 * component_stride]};
    }
};

/// `size()` rays: ray i starts at origins[i] and runs along directions[i] (t in the direction's
/// units, as Ray). Both views must have the same size (the queries throw std::invalid_argument
/// otherwise).
template <typename T> struct RayView {
    Vec3View<T> origins;
    Vec3View<T> directions;

    RayView() = default;
    RayView(const Vec3View<T>& origins_, const Vec3View<T>& directions_) : origins(origins_), directions(directions_) {}
    /// n rays as rows of six: origin x, y, z then direction x, y, z; row i starts at
    /// data[i * row_stride], its columns column_stride apart (a C-contiguous (n, 6) array: 6, 1).
    static RayView rows(const T* data, std::size_t n, std::ptrdiff_t row_stride = 6, std::ptrdiff_t column_stride = 1) {
        return {Vec3View<T>(data, n, row_stride, column_stride),
                Vec3View<T>(data ? data + 3 * column_stride : nullptr, n, row_stride, column_stride)};
    }
    RayView(const std::vector<Ray<T>>& rays)
        : origins(rays.empty() ? nullptr : &rays[0].origin.x, rays.size(), std::ptrdiff_t(sizeof(Ray<T>) / sizeof(T))),
          directions(rays.empty() ? nullptr : &rays[0].direction.x, rays.size(), std::ptrdiff_t(sizeof(Ray<T>) / sizeof(T))) {
        static_assert(sizeof(Ray<T>) == 6 * sizeof(T), "a Ray is six scalars");
    }

    std::size_t size() const { return origins.size; }
    Ray<T> operator[](std::size_t i) const { return {origins[i], directions[i]}; }
};

/// What every batch query takes besides its inputs.
/// - t_min, t_max: each ray's range, as SceneBvh's queries (an invalid range answers nothing).
/// - filter: as SceneBvh's (mask, cull_back_faces, accept; contains() and classify use the mask
///   only). accept, when set, is called from several threads at once.
/// - threads: how many threads answer the queries, the calling one included; 0 means
///   std::thread::hardware_concurrency(). The results do not depend on it.
template <typename T> struct BatchOptions {
    T t_min = T(0);
    T t_max = infinity<T>();
    QueryFilter<T> filter;
    unsigned threads = 0;
};

/// Where pick() writes, each array indexed by ray; any pointer may be null (not written). On a
/// miss: t = +infinity, object = kNoObject, triangle = kNoTriangle, point, normal and barycentric
/// zero, front false. point, normal and barycentric take three values per ray (x, y, z, or the
/// weights of the triangle's vertices a, b, c) at 3 * i.
template <typename T> struct PickOutput {
    T* t = nullptr;
    ObjectId* object = nullptr;
    std::uint32_t* triangle = nullptr;
    T* point = nullptr;
    T* normal = nullptr;
    T* barycentric = nullptr;
    bool* front = nullptr;
};

/// pick()'s answers as arrays (PickOutput's layout), for callers that do not bring their own.
template <typename T> struct PickResults {
    std::vector<T> t;
    std::vector<ObjectId> object;
    std::vector<std::uint32_t> triangle;
    std::vector<T> point, normal, barycentric;  ///< 3 per ray
    std::vector<bool> front;
};

/// Where closest_point() writes, each array indexed by point; any pointer may be null. Nothing
/// within max_distance (or a non-finite point): distance and signed_distance +infinity, object
/// kNoObject, triangle kNoTriangle, point, normal and barycentric zero, feature Face, index 0,
/// inside false. point, normal and barycentric take three values per point at 3 * i.
template <typename T> struct ClosestOutput {
    T* distance = nullptr;
    /// The distance, negative inside the nearest object's solid, 0 on its surface
    /// (SceneBvh::signed_distance()).
    T* signed_distance = nullptr;
    ObjectId* object = nullptr;
    std::uint32_t* triangle = nullptr;
    T* point = nullptr;
    T* normal = nullptr;
    T* barycentric = nullptr;
    Feature* feature = nullptr;
    std::uint8_t* index = nullptr;  ///< the feature's index (ClosestPoint.h, per shape type)
    bool* inside = nullptr;         ///< strictly inside the nearest object's solid
};

/// crossings()'s answers: ray i's crossings are entries offsets[i] to offsets[i + 1] - 1 of the
/// flat arrays, in SceneBvh::crossings()' order (by t, then object, then triangle).
template <typename T> struct CrossingsResults {
    std::vector<std::size_t> offsets{0};  ///< size() + 1 entries
    std::vector<T> t;
    std::vector<ObjectId> object;
    std::vector<std::uint32_t> triangle;  ///< kNoTriangle for a shape
    std::vector<CrossingKind> kind;

    std::size_t size() const { return offsets.size() - 1; }
    std::size_t count(std::size_t i) const { return offsets[i + 1] - offsets[i]; }
};

/// contains()'s answers: the objects holding point i are object[offsets[i]] to
/// object[offsets[i + 1] - 1], in id order.
struct ContainsResults {
    std::vector<std::size_t> offsets{0};  ///< size() + 1 entries
    std::vector<ObjectId> object;

    std::size_t size() const { return offsets.size() - 1; }
    std::size_t count(std::size_t i) const { return offsets[i + 1] - offsets[i]; }
};

namespace scene_batch {
namespace detail {

inline unsigned thread_count(unsigned requested) {
    return requested != 0 ? requested : std::max(1u, std::thread::hardware_concurrency());
}

/// Queries handed out in chunks from a shared counter, so fast and slow parts balance across
/// threads: fn(chunk, begin, end) for every chunk [begin, end) of [0, n), each exactly once.
/// chunk_size(n, threads) is what for_each_chunk() uses. The first exception thrown stops the
/// handing out and is rethrown on the calling thread once every thread has stopped.
inline std::size_t chunk_size(std::size_t n, unsigned threads) {
    // About 16 chunks a thread, each big enough that taking it costs nothing next to its queries.
    const std::size_t per = n / (std::size_t(threads) * 16);
    return std::clamp<std::size_t>(per, 32, 4096);
}
inline std::size_t chunk_count(std::size_t n, unsigned threads) {
    const std::size_t c = chunk_size(n, threads);
    return (n + c - 1) / c;
}
template <typename Fn> void for_each_chunk(std::size_t n, unsigned threads, Fn&& fn) {
    if (n == 0) return;
    const std::size_t size = chunk_size(n, threads), chunks = (n + size - 1) / size;
    const unsigned workers = unsigned(std::min<std::size_t>(threads, chunks));
    std::atomic<std::size_t> next{0};
    std::exception_ptr error;
    std::mutex error_mutex;
    auto work = [&] {
        for (std::size_t c = next.fetch_add(1); c < chunks; c = next.fetch_add(1)) {
            try {
                fn(c, c * size, std::min(n, (c + 1) * size));
            } catch (...) {
                std::lock_guard<std::mutex> lock(error_mutex);
                if (!error) error = std::current_exception();
                next.store(chunks);  // hand out nothing more
            }
        }
    };
    std::vector<std::thread> pool;
    pool.reserve(workers - 1);
    for (unsigned k = 1; k < workers; ++k) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    if (error) std::rethrow_exception(error);
}

template <typename T> void require_committed(const SceneBvh<T>& scene, const char* what) {
    if (scene.dirty())
        throw std::logic_error(std::string("raypick::scene_batch::") + what + ": the scene has changes; commit() first");
}
template <typename T> void require_same_size(const RayView<T>& rays, const char* what) {
    if (rays.origins.size != rays.directions.size)
        throw std::invalid_argument(std::string("raypick::scene_batch::") + what + ": " +
                                    std::to_string(rays.origins.size) + " origins but " +
                                    std::to_string(rays.directions.size) + " directions");
}
template <typename T> void require_object(const SceneBvh<T>& scene, ObjectId id, const char* what) {
    if (!scene.contains_object(id))
        throw std::invalid_argument(std::string("raypick::scene_batch::") + what + ": no object " + std::to_string(id));
}

/// Per-query answers of variable length gathered into flat arrays: each chunk collects its
/// queries' items and counts, then the offsets are summed and each chunk's items copied to its
/// place (on the same threads), so the arrays are in query order whatever the thread count.
template <typename Item, typename Query, typename Resize, typename Put>
std::vector<std::size_t> gather(std::size_t n, unsigned threads, Query&& query, Resize&& resize, Put&& put) {
    std::vector<std::size_t> offsets(n + 1, 0);
    std::vector<std::vector<Item>> parts(chunk_count(n, threads));
    for_each_chunk(n, threads, [&](std::size_t c, std::size_t begin, std::size_t end) {
        std::vector<Item>& part = parts[c];
        for (std::size_t i = begin; i < end; ++i) {
            const std::size_t before = part.size();
            query(i, part);
            offsets[i + 1] = part.size() - before;
        }
    });
    for (std::size_t i = 0; i < n; ++i) offsets[i + 1] += offsets[i];
    resize(offsets[n]);
    for_each_chunk(n, threads, [&](std::size_t c, std::size_t begin, std::size_t) {
        std::size_t at = offsets[begin];
        for (const Item& item : parts[c]) put(at++, item);
        std::vector<Item>().swap(parts[c]);
    });
    return offsets;
}

}  // namespace detail

/// SceneBvh::pick() of every ray, written into `out` (PickOutput: what a miss gives).
/// Throws std::logic_error for a scene with changes not committed, std::invalid_argument when
/// origins and directions differ in number.
template <typename T>
void pick(const SceneBvh<T>& scene, const RayView<T>& rays, const PickOutput<T>& out, const BatchOptions<T>& options = {}) {
    detail::require_committed(scene, "pick");
    detail::require_same_size(rays, "pick");
    detail::for_each_chunk(rays.size(), detail::thread_count(options.threads), [&](std::size_t, std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) {
            const auto h = scene.pick(rays[i], options.t_min, options.t_max, options.filter);
            const SceneHit<T> hit = h ? *h : SceneHit<T>{};
            if (out.t) out.t[i] = h ? hit.t : infinity<T>();
            if (out.object) out.object[i] = hit.object;
            if (out.triangle) out.triangle[i] = hit.triangle;
            for (int k = 0; k < 3; ++k) {
                if (out.point) out.point[3 * i + k] = hit.point[k];
                if (out.normal) out.normal[3 * i + k] = hit.normal[k];
                if (out.barycentric) out.barycentric[3 * i + k] = hit.barycentric[k];
            }
            if (out.front) out.front[i] = hit.front;
        }
    });
}

/// pick() into arrays of its own.
template <typename T>
PickResults<T> pick(const SceneBvh<T>& scene, const RayView<T>& rays, const BatchOptions<T>& options = {}) {
    const std::size_t n = rays.size();
    PickResults<T> r;
    r.t.resize(n), r.object.resize(n), r.triangle.resize(n);
    r.point.resize(3 * n), r.normal.resize(3 * n), r.barycentric.resize(3 * n);
    std::unique_ptr<bool[]> front(new bool[n]);
    pick(scene, rays, PickOutput<T>{r.t.data(), r.object.data(), r.triangle.data(), r.point.data(), r.normal.data(),
                                    r.barycentric.data(), front.get()},
         options);
    r.front.assign(front.get(), front.get() + n);
    return r;
}

/// SceneBvh::occluded() of every ray, into out[i].
template <typename T>
void occluded(const SceneBvh<T>& scene, const RayView<T>& rays, bool* out, const BatchOptions<T>& options = {}) {
    detail::require_committed(scene, "occluded");
    detail::require_same_size(rays, "occluded");
    detail::for_each_chunk(rays.size(), detail::thread_count(options.threads), [&](std::size_t, std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) out[i] = scene.occluded(rays[i], options.t_min, options.t_max, options.filter);
    });
}

/// SceneBvh::crossings() of every ray, as flat arrays with offsets.
template <typename T>
CrossingsResults<T> crossings(const SceneBvh<T>& scene, const RayView<T>& rays, const BatchOptions<T>& options = {}) {
    detail::require_committed(scene, "crossings");
    detail::require_same_size(rays, "crossings");
    CrossingsResults<T> r;
    r.offsets = detail::gather<Crossing<T>>(
        rays.size(), detail::thread_count(options.threads),
        [&](std::size_t i, std::vector<Crossing<T>>& part) {
            const auto cs = scene.crossings(rays[i], options.t_min, options.t_max, options.filter);
            part.insert(part.end(), cs.begin(), cs.end());
        },
        [&](std::size_t total) { r.t.resize(total), r.object.resize(total), r.triangle.resize(total), r.kind.resize(total); },
        [&](std::size_t at, const Crossing<T>& c) {
            r.t[at] = c.t, r.object[at] = c.object, r.triangle[at] = c.triangle, r.kind[at] = c.kind;
        });
    return r;
}

/// SceneBvh::contains() of every point (the filter's mask only), as flat arrays with offsets.
template <typename T>
ContainsResults contains(const SceneBvh<T>& scene, const Vec3View<T>& points, const BatchOptions<T>& options = {}) {
    detail::require_committed(scene, "contains");
    ContainsResults r;
    r.offsets = detail::gather<ObjectId>(
        points.size, detail::thread_count(options.threads),
        [&](std::size_t i, std::vector<ObjectId>& part) {
            const auto ids = scene.contains(points[i], options.filter);
            part.insert(part.end(), ids.begin(), ids.end());
        },
        [&](std::size_t total) { r.object.resize(total); }, [&](std::size_t at, ObjectId id) { r.object[at] = id; });
    return r;
}

/// SceneBvh::classify() of every point against object `id`, into out[i]. Throws
/// std::invalid_argument for an unknown id.
template <typename T>
void classify(const SceneBvh<T>& scene, const Vec3View<T>& points, ObjectId id, Containment* out,
              const BatchOptions<T>& options = {}) {
    detail::require_committed(scene, "classify");
    detail::require_object(scene, id, "classify");
    detail::for_each_chunk(points.size, detail::thread_count(options.threads), [&](std::size_t, std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) out[i] = scene.classify(points[i], id);
    });
}

/// Whether object `id`'s closed solid holds each point (holds(classify())), into out[i]: false
/// for an object without an inside. Throws std::invalid_argument for an unknown id.
template <typename T>
void contains_object(const SceneBvh<T>& scene, const Vec3View<T>& points, ObjectId id, bool* out,
                     const BatchOptions<T>& options = {}) {
    detail::require_committed(scene, "contains_object");
    detail::require_object(scene, id, "contains_object");
    detail::for_each_chunk(points.size, detail::thread_count(options.threads), [&](std::size_t, std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) out[i] = holds(scene.classify(points[i], id));
    });
}

/// SceneBvh::closest_point() of every point within max_distance (the filter's mask only), with
/// its signed distance, written into `out` (ClosestOutput: what nothing within reach gives).
template <typename T>
void closest_point(const SceneBvh<T>& scene, const Vec3View<T>& points, const ClosestOutput<T>& out,
                   T max_distance = infinity<T>(), const BatchOptions<T>& options = {}) {
    detail::require_committed(scene, "closest_point");
    detail::for_each_chunk(points.size, detail::thread_count(options.threads), [&](std::size_t, std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) {
            Containment where = Containment::Outside;
            const auto c = scene.closest_point(points[i], max_distance, options.filter, where);
            const SceneClosest<T> near = c ? *c : SceneClosest<T>{};
            if (out.distance) out.distance[i] = c ? near.surface.distance : infinity<T>();
            if (out.signed_distance)
                out.signed_distance[i] = !c                                ? infinity<T>()
                                         : where == Containment::OnSurface ? T(0)
                                         : where == Containment::Inside    ? -near.surface.distance
                                                                           : near.surface.distance;
            if (out.object) out.object[i] = near.object;
            if (out.triangle) out.triangle[i] = near.triangle;
            for (int k = 0; k < 3; ++k) {
                if (out.point) out.point[3 * i + k] = c ? near.surface.point[k] : T(0);
                if (out.normal) out.normal[3 * i + k] = c ? near.surface.normal[k] : T(0);
                if (out.barycentric) out.barycentric[3 * i + k] = near.barycentric[k];
            }
            if (out.feature) out.feature[i] = c ? near.surface.feature : Feature::Face;
            if (out.index) out.index[i] = c ? near.surface.index : 0;
            if (out.inside) out.inside[i] = c && near.surface.inside;
        }
    });
}

/// SceneBvh::signed_distance() of every point within max_distance (the filter's mask only), into
/// out[i]; +infinity where nothing lies within it.
template <typename T>
void signed_distance(const SceneBvh<T>& scene, const Vec3View<T>& points, T* out, T max_distance = infinity<T>(),
                     const BatchOptions<T>& options = {}) {
    detail::require_committed(scene, "signed_distance");
    detail::for_each_chunk(points.size, detail::thread_count(options.threads), [&](std::size_t, std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) {
            const auto d = scene.signed_distance(points[i], max_distance, options.filter);
            out[i] = d ? *d : infinity<T>();
        }
    });
}

}  // namespace scene_batch
}  // namespace raypick
