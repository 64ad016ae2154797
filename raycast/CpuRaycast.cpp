// raypick ray-cast view. See CpuRaycast.h.
#include "raycast/CpuRaycast.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <new>
#include <thread>

#include <raypick/geometry/MixedPick.h>

namespace raypick::raycast {

void render(const Bvh<float>& bvh, int width, int height, const PixelRay& ray_for_pixel, Image& into, int threads) {
    render(bvh, MeshObjects{}, width, height, ray_for_pixel, into, threads);
}

void render(const Bvh<float>& bvh, const MeshObjects& meshes, int width, int height, const PixelRay& ray_for_pixel,
            Image& into, int threads) {
    const bool with_meshes = meshes.bvh && meshes.ids && !meshes.bvh->instances().empty();
    if (width <= 0 || height <= 0) {
        into = Image{};
        return;
    }
    into.width = width;
    into.height = height;
    // Every pixel is written below (background ones too), so a picture of the same size reuses the
    // buffers as they are: no zero fill, and no fresh pages to fault in (18 MB at 1280 x 720, which
    // the kernel zeroes on one thread before any ray is cast).
    const std::size_t n = std::size_t(width) * std::size_t(height);
    into.shape.resize(n);
    into.t.resize(n);
    into.normal.resize(n);
    if (threads <= 0) threads = int(std::max(1u, std::thread::hardware_concurrency()));
    // Rows are handed out in bands of one tile's height from a shared counter, so fast and slow
    // parts of the picture balance across threads. Each pixel is written by exactly one thread.
    // The rays of a tile of kTile x kTile pixels start at one eye and point almost alike, so they
    // walk the hierarchy together (Bvh::pick_bundle: each ray's result is exactly its own pick).
    constexpr int kTile = 8;
    static_assert(kTile * kTile <= int(Bvh<float>::kMaxBundle), "a tile is one bundle");
    static_assert(kTile * kTile <= int(InstanceBvh<float>::kMaxBundle), "a tile is one instance bundle");
    std::atomic<int> next_row{0};
    auto work = [&] {
        Ray<float> rays[kTile * kTile];
        std::optional<NearestHit<float>> hits[kTile * kTile];
        std::optional<InstanceHit<float>> mesh_hits[kTile * kTile];
        float mesh_t_max[kTile * kTile];
        for (int y0 = next_row.fetch_add(kTile); y0 < height; y0 = next_row.fetch_add(kTile)) {
            const int y1 = std::min(height, y0 + kTile);
            for (int x0 = 0; x0 < width; x0 += kTile) {
                const int x1 = std::min(width, x0 + kTile);
                std::size_t k = 0;
                // Constructed in place: the call returns straight into rays[k]. (An assignment
                // returns into a temporary and copies it with wider loads than the callee's
                // stores, which stalls on every pixel.)
                for (int y = y0; y < y1; ++y)
                    for (int x = x0; x < x1; ++x) ::new (static_cast<void*>(&rays[k++])) Ray<float>(ray_for_pixel(x, y));
                bvh.pick_bundle(rays, k, hits, 0.f, infinity<float>());
                // The instances, each ray cut at its shape's hit (nearer_side(): at equal t the
                // shape wins): the tile's rays walk the instances and their meshes together
                // (InstanceBvh::pick_bundle: each ray's result is exactly its own pick).
                if (with_meshes) {
                    for (std::size_t j = 0; j < k; ++j) mesh_t_max[j] = hits[j] ? hits[j]->surface.t : infinity<float>();
                    meshes.bvh->pick_bundle(rays, k, mesh_hits, 0.f, mesh_t_max);
                }
                k = 0;
                for (int y = y0; y < y1; ++y)
                    for (int x = x0; x < x1; ++x) {
                        const auto& p = hits[k];
                        const std::size_t i = std::size_t(y) * std::size_t(width) + std::size_t(x);
                        into.shape[i] = p ? p->shape : kBackground;
                        into.t[i] = p ? p->surface.t : 0.f;
                        into.normal[i] = p ? p->surface.normal : Vec3<float>(0.f);
                        if (with_meshes) {
                            const auto& m = mesh_hits[k];
                            if (nearer_side(p ? &p->surface.t : nullptr, m ? &m->hit.t : nullptr) == MixedSide::instance) {
                                into.shape[i] = (*meshes.ids)[m->instance];
                                into.t[i] = m->hit.t;
                                into.normal[i] = m->hit.shading_normal ? *m->hit.shading_normal : m->hit.normal;
                            }
                        }
                        ++k;
                    }
            }
        }
    };
    std::vector<std::thread> pool;
    for (int k = 1; k < threads; ++k) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
}

Image render(const Bvh<float>& bvh, int width, int height, const PixelRay& ray_for_pixel, int threads) {
    Image img;
    render(bvh, width, height, ray_for_pixel, img, threads);
    return img;
}

std::vector<std::uint8_t> shade(const Image& image, Shading shading, float t_near, float t_far) {
    const std::size_t n = image.shape.size();
    if (!(t_near < t_far)) {
        t_near = std::numeric_limits<float>::infinity();
        t_far = -std::numeric_limits<float>::infinity();
        for (std::size_t i = 0; i < n; ++i)
            if (image.shape[i] != kBackground) {
                t_near = std::min(t_near, image.t[i]);
                t_far = std::max(t_far, image.t[i]);
            }
        if (!(t_near < t_far)) t_far = t_near + 1.f;
    }
    std::vector<std::uint8_t> rgba(n * 4);
    auto byte = [](float v) { return std::uint8_t(std::lround(std::clamp(v, 0.f, 1.f) * 255.f)); };
    for (std::size_t i = 0; i < n; ++i) {
        std::uint8_t* px = &rgba[i * 4];
        px[3] = 255;
        if (image.shape[i] == kBackground) {
            px[0] = 24; px[1] = 24; px[2] = 30;
            continue;
        }
        const float near_ness = 1.f - std::clamp((image.t[i] - t_near) / (t_far - t_near), 0.f, 1.f);
        const Vec3<float> c = image.normal[i] * 0.5f + 0.5f;
        switch (shading) {
            case Shading::Normal:
                px[0] = byte(c.x); px[1] = byte(c.y); px[2] = byte(c.z);
                break;
            case Shading::Depth:
                px[0] = px[1] = px[2] = byte(0.15f + 0.85f * near_ness);
                break;
            case Shading::NormalAndDepth: {
                const float k = 0.35f + 0.65f * near_ness;
                px[0] = byte(c.x * k); px[1] = byte(c.y * k); px[2] = byte(c.z * k);
                break;
            }
        }
    }
    return rgba;
}

Comparison compare_ids(const Image& image, const std::vector<std::uint32_t>& other, int margin) {
    Comparison out;
    const int w = image.width, h = image.height;
    const std::size_t n = std::size_t(w) * std::size_t(h);
    out.rgba.assign(n * 4, 0);
    if (other.size() != n || image.shape.size() != n) return out;
    margin = std::max(0, margin);
    // A pixel is on an edge when some pixel within `margin` (Chebyshev distance) shows another
    // object in the same picture.
    auto on_edge = [&](const std::vector<std::uint32_t>& ids, int x, int y) {
        const std::uint32_t id = ids[std::size_t(y) * std::size_t(w) + std::size_t(x)];
        for (int dy = -margin; dy <= margin; ++dy)
            for (int dx = -margin; dx <= margin; ++dx) {
                const int xx = x + dx, yy = y + dy;
                if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
                if (ids[std::size_t(yy) * std::size_t(w) + std::size_t(xx)] != id) return true;
            }
        return false;
    };
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const std::size_t i = std::size_t(y) * std::size_t(w) + std::size_t(x);
            std::uint8_t* px = &out.rgba[i * 4];
            if (on_edge(image.shape, x, y) || on_edge(other, x, y)) {
                ++out.skipped;
                px[0] = 20; px[1] = 30; px[2] = 90; px[3] = 160;
                continue;
            }
            ++out.compared;
            if (image.shape[i] != other[i]) {
                ++out.differing;
                px[0] = 255; px[1] = 0; px[2] = 255; px[3] = 255;
            }
        }
    return out;
}

}  // namespace raypick::raycast
