// raypick geometry: SceneBvh::crossings() for one mesh — the crossing rule's hits grouped where
// the ray passes exactly through an edge or vertex. Part of SceneBvh.h (included at its end).
#pragma once

namespace raypick {

template <typename T>
void SceneBvh<T>::mesh_crossings(const MeshBvh<T>& mesh, const Ray<T>& local, T t_min, T t_max, ObjectId id,
                                 const QueryFilter<T>& filter, std::vector<Crossing<T>>& out) {
    // A hit on an edge or vertex, keyed by the feature's position(s): the edge's two end points in
    // order, or the vertex twice.
    struct Shared {
        Vec3<T> key[2];
        T t;
        std::uint32_t triangle;
        int direction;  ///< +1 entering (front), -1 leaving; 0 when the rule declines it
    };
    std::vector<Shared> shared;
    const auto less = [](const Vec3<T>& a, const Vec3<T>& b) {
        if (a.x != b.x) return a.x < b.x;
        if (a.y != b.y) return a.y < b.y;
        return a.z < b.z;
    };
    const auto kind = [](int direction) { return direction > 0 ? CrossingKind::Enter : CrossingKind::Leave; };
    // Every triangle of the leaves the ray's box walk meets (a superset of those whose projection
    // holds the ray: the node test is widened past the projection's rounding), each decided by
    // the crossing rule.
    mesh.for_each_candidate(local, t_min, t_max, [&](const Triangle<T>& tri, std::uint32_t triangle) {
        const auto c = cross(local, tri, t_min, t_max);
        if (!c) return;
        const TriangleHit<T>& h = c->hit;
        if ((filter.cull_back_faces && !h.front) || !accepts(filter, {id, triangle, h.t, h.front})) return;
        const int direction = h.front ? 1 : -1;
        if (c->zero_edges == 0) {
            out.push_back({h.t, id, triangle, kind(direction)});
            return;
        }
        const Vec3<T> v[3] = {tri.a + T(0), tri.b + T(0), tri.c + T(0)};  // + 0: -0 and +0 are one value
        Shared s{{v[0], v[0]}, h.t, triangle, c->crosses ? direction : 0};
        if (c->zero_edges == 1) {
            const int k = c->zero_mask == 1 ? 0 : c->zero_mask == 2 ? 1 : 2;  // the edge opposite vertex k
            s.key[0] = v[(k + 1) % 3];
            s.key[1] = v[(k + 2) % 3];
            if (less(s.key[1], s.key[0])) std::swap(s.key[0], s.key[1]);
        } else {
            const int k = c->zero_mask == 3 ? 2 : c->zero_mask == 5 ? 1 : 0;  // the vertex both zero edges meet at
            s.key[0] = s.key[1] = v[k];
        }
        shared.push_back(s);
    });
    // Each edge's or vertex's hits together, in t then triangle order within.
    std::sort(shared.begin(), shared.end(), [&](const Shared& a, const Shared& b) {
        if (a.key[0] != b.key[0]) return less(a.key[0], b.key[0]);
        if (a.key[1] != b.key[1]) return less(a.key[1], b.key[1]);
        if (a.t != b.t) return a.t < b.t;
        return a.triangle < b.triangle;
    });
    for (std::size_t first = 0; first < shared.size();) {
        std::size_t end = first + 1;
        while (end < shared.size() && shared[end].key[0] == shared[first].key[0] && shared[end].key[1] == shared[first].key[1])
            ++end;
        int net = 0;
        for (std::size_t k = first; k < end; ++k) net += shared[k].direction;
        if (net == 0) {
            T t = shared[first].t;
            std::uint32_t triangle = shared[first].triangle;
            for (std::size_t k = first; k < end; ++k) {
                t = std::min(t, shared[k].t);
                triangle = std::min(triangle, shared[k].triangle);
            }
            out.push_back({t, id, triangle, CrossingKind::Touch});
        } else {
            // |net| crossings the way the sum goes, taken by the triangles the rule picked that way.
            int left = net > 0 ? net : -net;
            const int way = net > 0 ? 1 : -1;
            for (std::size_t k = first; k < end && left > 0; ++k)
                if (shared[k].direction == way) {
                    out.push_back({shared[k].t, id, shared[k].triangle, kind(way)});
                    --left;
                }
        }
        first = end;
    }
}

}  // namespace raypick
