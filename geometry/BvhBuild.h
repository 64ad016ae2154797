// raypick geometry: the BVH's builder — a binary tree over boxes by a binned surface-area heuristic,
// which Bvh.h then collapses into 16-wide nodes.
//
// Speed: a shape is 32 (float) or 64 (double) bytes here, its box as two 4-wide vectors with its
// index in the spare lane; binning updates a bin's box with vector min/max; the halves' boxes
// come out of the SAH sweep and their centroid bounds out of the partition, so a level takes two
// passes over its prims, the binning and the partition.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include <raypick/geometry/LargeAlloc.h>
#include <raypick/geometry/Aabb.h>

namespace raypick::bvh_build {

template <typename T> struct BinNode {
    Vec3<T> lo, hi;
    std::uint32_t first = 0;  ///< leaf: first slot; inner: index of the right child (left = this + 1)
    std::uint32_t count = 0;  ///< leaf: number of shapes (>0); inner: 0
};

template <typename T> struct Tree {
    LargeVector<BinNode<T>> nodes;     ///< depth first; node 0 is the root
    std::vector<std::uint32_t> order;  ///< slot -> index of the box it holds (leaves cover runs of slots)
    int depth = 0;
};

struct Settings {
    int max_leaf_size = 4;
    int bins = 12;
    /// From this many shapes on, the top of the tree splits ranges of Morton-ordered centroids
    /// at their highest differing bit (spatial median, no pass over the shapes), down to ranges
    /// of at most morton_leaf shapes, each then built by the binned SAH while it fits in cache.
    std::uint32_t morton_min = 1u << 16;
    std::uint32_t morton_leaf = 2048;
    /// Ranges of at most this many shapes are binned along one axis (their longest) only.
    std::uint32_t one_axis_below = 2048;
    int max_depth = 96;  ///< beyond this, median splits
    /// SAH cost of a split, relative to one vector of leaf tests (see Bvh.h).
    double split_cost = 0.25;
};

template <typename T> class Builder {
public:
    /// Four coordinates (x, y, z, spare) as whole 16-byte vectors: one for float, two for double
    /// (no 32-byte vectors by value, whose ABI would depend on AVX).
    typedef T V16 __attribute__((vector_size(16)));
    static constexpr int kHalves = int(4 * sizeof(T) / 16);
    static constexpr int kPer = int(16 / sizeof(T));
    struct V4 {
        V16 h[kHalves];
        T operator[](int i) const { return h[i / kPer][i % kPer]; }
        void set(int i, T x) { h[i / kPer][i % kPer] = x; }
    };
    /// Integer lanes of a V16, and the mask that clears its last lane.
    typedef std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t> I __attribute__((vector_size(16)));
    static constexpr I no_id_mask() {
        if constexpr (sizeof(T) == 4) return I{-1, -1, -1, 0};
        else return I{-1, 0};
    }
    static V4 make4(T x, T y, T z, T w) {
        V4 v;
        v.set(0, x), v.set(1, y), v.set(2, z), v.set(3, w);
        return v;
    }

    /// Builds over n boxes, box_of(i) giving box i (an Aabb<T>). Boxes may be empty (min > max:
    /// an invalid shape); they are placed but bound nothing.
    template <typename BoxOf> Tree<T> build(std::uint32_t n, const BoxOf& box_of, const Settings& s) {
        set_ = s;
        for (auto& b : buf_) b.resize(n);
        Range all = Range::empty();
        for (std::uint32_t i = 0; i < n; ++i) {
            const Aabb<T> box = box_of(i);
            Prim& p = buf_[0][i];
            p.lo = make4(box.min.x, box.min.y, box.min.z, T(0));
            p.hi = make4(box.max.x, box.max.y, box.max.z, T(0));
            p.set_id(i);
            all.add(p);
        }
        tree_.nodes.clear();
        tree_.nodes.reserve(2 * std::size_t(n));  // a binary tree over n leaves has 2n - 1 nodes
        tree_.order.resize(n);
        tree_.depth = 0;
        if (n >= s.morton_min) {
            morton_sort(all);  // into buf_[1]
            top(0, n, 29, 1);
        } else if (n > 0) {
            node(0, n, all, 1, 0);
        }
        codes_.clear();
        codes_.shrink_to_fit();
        for (auto& b : buf_) {
            b.clear();
            b.shrink_to_fit();
        }
        return std::move(tree_);
    }

private:
    struct Prim {  // 16-byte aligned by its vectors (no 32-byte alignment: its ABI note in std algorithms)
        V4 lo, hi;  ///< lane 3 of lo: the box's index (bits); of hi: unused
        void set_id(std::uint32_t id) {
            T x = T(0);
            std::memcpy(&x, &id, sizeof id);
            lo.set(3, x);
        }
        std::uint32_t id() const {
            const T x = lo[3];
            std::uint32_t id;
            std::memcpy(&id, &x, sizeof id);
            return id;
        }
        /// Centroid, halves first (no overflow near the largest finite values); NaN for an empty
        /// box (inf - inf), which every min/max below ignores. Lane 3 is 0: the index's bits are
        /// masked off first (as a float they are mostly subnormal, and arithmetic on subnormals
        /// can take a slow path in the FPU).
        V4 centroid() const {
            V4 c;
            for (int k = 0; k < kHalves; ++k) {
                const V16 l = k == kHalves - 1 ? V16(I(lo.h[k]) & no_id_mask()) : lo.h[k];
                c.h[k] = l * T(0.5) + hi.h[k] * T(0.5);
            }
            return c;
        }
    };
    static V4 vmin(const V4& acc, const V4& x) {  // a NaN x leaves acc
        V4 r;
        for (int k = 0; k < kHalves; ++k) r.h[k] = x.h[k] < acc.h[k] ? x.h[k] : acc.h[k];
        return r;
    }
    static V4 vmax(const V4& acc, const V4& x) {
        V4 r;
        for (int k = 0; k < kHalves; ++k) r.h[k] = x.h[k] > acc.h[k] ? x.h[k] : acc.h[k];
        return r;
    }
    static V4 sub(const V4& a, const V4& b) {
        V4 r;
        for (int k = 0; k < kHalves; ++k) r.h[k] = a.h[k] - b.h[k];
        return r;
    }
    static V4 splat(T x) {
        V4 r;
        for (int k = 0; k < kHalves; ++k) r.h[k] = V16{} + x;
        return r;
    }
    static T area(const V4& lo, const V4& hi) {
        const V4 d = sub(hi, lo);
        const T ex = std::max(d[0], T(0)), ey = std::max(d[1], T(0)), ez = std::max(d[2], T(0));
        return ex * ey + ey * ez + ez * ex;
    }
    /// Box and centroid bounds of a range of prims (trivial, so arrays of them cost nothing until
    /// used; start from empty()).
    struct Range {
        V4 lo, hi, clo, chi;
        static Range empty() {
            const V4 inf = splat(std::numeric_limits<T>::infinity());
            const V4 ninf = splat(-std::numeric_limits<T>::infinity());
            return {inf, ninf, inf, ninf};
        }
        void add(const Prim& p) {
            lo = vmin(lo, p.lo);
            hi = vmax(hi, p.hi);
            const V4 c = p.centroid();
            clo = vmin(clo, c);
            chi = vmax(chi, c);
        }
        void add(const Range& r) {
            lo = vmin(lo, r.lo);
            hi = vmax(hi, r.hi);
            clo = vmin(clo, r.clo);
            chi = vmax(chi, r.chi);
        }
    };
    /// A bin: the boxes binned there (no centroid bounds: node()'s partition pass finds the
    /// halves' centroid bounds, in registers, where keeping them per bin cost half the binning).
    struct Bin {
        V4 lo, hi;
        std::uint32_t n;
    };
    /// The SAH's choice for a range: axis (-1: none found) and first bin of the right half, with
    /// both halves' boxes (lo, hi; clo and chi are left empty).
    struct Split {
        int axis = -1, bin = 0;
        T cost = std::numeric_limits<T>::infinity();
        Range left, right;
    };
    static constexpr int kMaxBins = 32;

    /// Bins of centroids on each axis: floor((c - clo) * scale) clamped to [0, bins - 1], with vector
    /// max and min (no branches). NaN or out-of-range positions (extents that overflow to inf near
    /// the largest finite values make scale 0 and inf * 0 = NaN) land in the end bins.
    struct Binning {
        V4 clo, scale, last;
        Binning(const Range& range, const T* sc, int bins)
            : clo(range.clo), scale(make4(sc[0], sc[1], sc[2], T(0))), last(splat(T(bins - 1))) {}
        /// Lane a: the bin of centroid c on axis a.
        std::array<int, 3> bins_of(const V4& c) const {
            const V16 zero{};
            V4 g;
            for (int k = 0; k < kHalves; ++k) {
                const V16 f = (c.h[k] - clo.h[k]) * scale.h[k];
                const V16 m = f > zero ? f : zero;
                g.h[k] = m < last.h[k] ? m : last.h[k];
            }
            return {int(g[0]), int(g[1]), int(g[2])};
        }
    };
    /// Leaf tests cost one per vector of four shapes (one batch-kernel call each).
    static T blocks(std::uint32_t k) { return T((k + 3) / 4); }

    /// Binned SAH over all three axes, binned in one pass over prims [begin, end) of buf_[src]. Out
    /// of line: its bins live on the stack only while it runs, not down the recursion.
    __attribute__((noinline)) Split choose(std::uint32_t begin, std::uint32_t end, int src, const Range& range,
                                           int bins, const T* scale) const {
        const std::uint32_t count = end - begin;
        // Small ranges bin along their longest centroid extent only (a third of the work; the
        // split found is nearly always that axis's anyway).
        int a0 = 0, a1 = 3;
        if (count <= set_.one_axis_below) {
            for (int a = 1; a < 3; ++a)  // the smallest positive scale (bins / extent): the longest
                if (scale[a] > T(0) && (!(scale[a0] > T(0)) || scale[a] < scale[a0])) a0 = a;
            a1 = a0 + 1;
        }
        // Two sets of bins, for even and odd prims: consecutive prims often share a bin (they are
        // in Morton order), and one set would chain each prim's update to the last one's store.
        Bin bin[2][3][kMaxBins];
        const Range none = Range::empty();
        for (auto& set : bin)
            for (int a = a0; a < a1; ++a)
                for (int b = 0; b < bins; ++b) set[a][b] = {none.lo, none.hi, 0};
        const Binning binning(range, scale, bins);
        const Prim* prims = buf_[src].data();
        auto put = [&](Bin (&set)[3][kMaxBins], const Prim& p) {
            const std::array<int, 3> at = binning.bins_of(p.centroid());
            for (int a = a0; a < a1; ++a) {
                Bin& b = set[a][at[a]];
                b.lo = vmin(b.lo, p.lo);
                b.hi = vmax(b.hi, p.hi);
                ++b.n;
            }
        };
        std::uint32_t i = begin;
        for (; i + 1 < end; i += 2) {
            put(bin[0], prims[i]);
            put(bin[1], prims[i + 1]);
        }
        if (i < end) put(bin[0], prims[i]);
        for (int a = a0; a < a1; ++a)
            for (int b = 0; b < bins; ++b) {
                bin[0][a][b].lo = vmin(bin[0][a][b].lo, bin[1][a][b].lo);
                bin[0][a][b].hi = vmax(bin[0][a][b].hi, bin[1][a][b].hi);
                bin[0][a][b].n += bin[1][a][b].n;
            }
        Split best;
        for (int a = a0; a < a1; ++a) {
            if (!(scale[a] > T(0))) continue;
            Range right[kMaxBins];
            T right_cost[kMaxBins];
            Range acc = Range::empty();
            std::uint32_t rn = 0;
            for (int b = bins - 1; b > 0; --b) {
                acc.lo = vmin(acc.lo, bin[0][a][b].lo);
                acc.hi = vmax(acc.hi, bin[0][a][b].hi);
                rn += bin[0][a][b].n;
                right[b] = acc;
                right_cost[b] = rn ? area(acc.lo, acc.hi) * blocks(rn) : T(0);
            }
            Range left = Range::empty();
            std::uint32_t ln = 0;
            for (int b = 0; b < bins - 1; ++b) {
                left.lo = vmin(left.lo, bin[0][a][b].lo);
                left.hi = vmax(left.hi, bin[0][a][b].hi);
                ln += bin[0][a][b].n;
                if (ln == 0 || ln == count) continue;
                const T cost = area(left.lo, left.hi) * blocks(ln) + right_cost[b + 1];
                if (cost < best.cost) best = {a, b + 1, cost, left, right[b + 1]};
            }
        }
        return best;
    }

    /// Ranges of at most this many prims skip the bins (small_split()). Most ranges are that small
    /// (10^6 spheres: of 989 000 ranges to split, 520 000 hold 2 or 3 prims and 245 000 hold 4
    /// to 7), and setting up and sweeping the bins costs more than their prims do.
    static constexpr std::uint32_t kSmall = 4;

    /// The axis of ext's largest component (x when none is larger, or all are NaN).
    static int longest_axis(const V4& ext) {
        int axis = 0;
        if (ext[1] > ext[axis]) axis = 1;
        if (ext[2] > ext[axis]) axis = 2;
        return axis;
    }

    /// Whether a leaf of `count` prims beats the best split of `range` found (its halves' summed
    /// area * blocks: `split_cost`), or no leaf may hold them (false).
    bool leaf_is_cheaper(std::uint32_t count, std::uint32_t max_leaf, T split_cost, const Range& range) const {
        const T parent_area = area(range.lo, range.hi);
        const T cost = T(set_.split_cost) + (parent_area > T(0) ? split_cost / parent_area : blocks(count));
        return count <= max_leaf && cost >= blocks(count);
    }

    /// The SAH's best split of a small range (count <= kSmall), exactly: its prims sorted in place
    /// by centroid along the longest centroid extent (the axis the bins would use), every split of
    /// that order costed. False when all centroids coincide (node() then decides as for any
    /// range); else true, with the halves [begin, mid) and [mid, end), their bounds and `cost`.
    bool small_split(std::uint32_t begin, std::uint32_t end, const Range& range, int src, std::uint32_t& mid,
                     Range& left, Range& right, T& cost) {
        const std::uint32_t count = end - begin;
        const int axis = longest_axis(sub(range.chi, range.clo));
        if (!(range.chi[axis] - range.clo[axis] > T(0))) return false;
        Prim* p = buf_[src].data() + begin;
        T key[kSmall];
        for (std::uint32_t k = 0; k < count; ++k) {
            key[k] = p[k].centroid()[axis];
            // Insertion sort (NaN centroids, of empty boxes, stay where they are: no comparison
            // with NaN is true, so nothing is undefined).
            for (std::uint32_t j = k; j > 0 && key[j] < key[j - 1]; --j) {
                std::swap(key[j], key[j - 1]);
                std::swap(p[j], p[j - 1]);
            }
        }
        Range pre[kSmall], suf[kSmall];  // pre[k]: prims [0, k); suf[k]: prims [k, count)
        Range acc = Range::empty();
        for (std::uint32_t k = 1; k < count; ++k) {
            acc.add(p[k - 1]);
            pre[k] = acc;
        }
        acc = Range::empty();
        for (std::uint32_t k = count - 1; k > 0; --k) {
            acc.add(p[k]);
            suf[k] = acc;
        }
        std::uint32_t best = 0;
        T best_cost = std::numeric_limits<T>::infinity();
        for (std::uint32_t k = 1; k < count; ++k) {
            const T cost = area(pre[k].lo, pre[k].hi) * blocks(k) + area(suf[k].lo, suf[k].hi) * blocks(count - k);
            if (cost < best_cost) best_cost = cost, best = k;
        }
        if (best == 0) return false;
        mid = begin + best;
        left = pre[best];
        right = suf[best];
        cost = best_cost;
        return true;
    }

    /// Builds the subtree over prims [begin, end) of buf_[src] (bounds `range`) and returns its
    /// node's index. Splits move the prims into the other buffer, left half first, so each level
    /// reads one buffer and writes the other; leaves record their prims' ids in tree_.order.
    std::uint32_t node(std::uint32_t begin, std::uint32_t end, const Range& range, int depth, int src) {
        tree_.depth = std::max(tree_.depth, depth);
        const auto index = std::uint32_t(tree_.nodes.size());
        tree_.nodes.push_back({});
        tree_.nodes[index].lo = Vec3<T>(range.lo[0], range.lo[1], range.lo[2]);
        tree_.nodes[index].hi = Vec3<T>(range.hi[0], range.hi[1], range.hi[2]);
        const std::uint32_t count = end - begin;
        auto make_leaf = [&] {
            tree_.nodes[index].first = begin;
            tree_.nodes[index].count = count;
            for (std::uint32_t k = begin; k < end; ++k) tree_.order[k] = buf_[src][k].id();
            return index;
        };
        // The two children over [begin, mid) and [mid, end) of buf_[dst].
        auto make_inner = [&](std::uint32_t mid, const Range& left, const Range& right, int dst) {
            node(begin, mid, left, depth + 1, dst);
            const std::uint32_t right_child = node(mid, end, right, depth + 1, dst);
            tree_.nodes[index].first = right_child;
            tree_.nodes[index].count = 0;
            return index;
        };
        if (count <= 1) return make_leaf();
        const std::uint32_t max_leaf = std::uint32_t(std::max(1, set_.max_leaf_size));
        std::uint32_t mid;
        Range left, right;
        if (count <= kSmall && depth < set_.max_depth) {  // sorted in place: the halves stay in src
            T cost;
            if (small_split(begin, end, range, src, mid, left, right, cost))
                return leaf_is_cheaper(count, max_leaf, cost, range) ? make_leaf() : make_inner(mid, left, right, src);
            if (count <= max_leaf) return make_leaf();
        }
        // Fewer bins than shapes would only repeat candidate splits.
        const int bins = std::clamp(std::min(set_.bins, int(count)), 2, kMaxBins);
        const V4 ext = sub(range.chi, range.clo);
        T scale[3];
        for (int a = 0; a < 3; ++a) scale[a] = ext[a] > T(0) ? T(bins) / ext[a] : T(0);
        const Split split = depth < set_.max_depth ? choose(begin, end, src, range, bins, scale) : Split{};
        int dst = src;
        if (split.axis >= 0) {
            if (leaf_is_cheaper(count, max_leaf, split.cost, range)) return make_leaf();
            const int axis = split.axis, first_right = split.bin;
            const Binning binning(range, scale, bins);
            // Without branches: each prim is written to the next free slots from both the front
            // (left half) and the back (right half) of the range in the other buffer, and the
            // side it belongs to keeps it; the other copy is overwritten later (or is the same slot).
            // Each half's centroid bounds are gathered on the way: the centroid goes to its own
            // side's min and max and a NaN (all bits set) to the other's, which ignore it.
            dst = src ^ 1;
            const Prim* in = buf_[src].data();
            Prim* out = buf_[dst].data();
            std::uint32_t l = begin, r = end;
            left = split.left;
            right = split.right;
            const Range none = Range::empty();
            left.clo = right.clo = none.clo;
            left.chi = right.chi = none.chi;
            using Lane = std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>;
            for (std::uint32_t i = begin; i < end; ++i) {
                const Prim p = in[i];
                const V4 c = p.centroid();
                const std::uint32_t to_left = binning.bins_of(c)[axis] < first_right;
                out[l] = p;
                out[r - 1] = p;
                l += to_left;
                r -= 1 - to_left;
                const I on_left = I{} - Lane(to_left);  // all bits set where the prim goes left
                V4 cl, cr;
                for (int k = 0; k < kHalves; ++k) {
                    cl.h[k] = V16(I(c.h[k]) | ~on_left);
                    cr.h[k] = V16(I(c.h[k]) | on_left);
                }
                left.clo = vmin(left.clo, cl);
                left.chi = vmax(left.chi, cl);
                right.clo = vmin(right.clo, cr);
                right.chi = vmax(right.chi, cr);
            }
            mid = l;
        } else {
            if (count <= max_leaf) return make_leaf();
            // All centroids coincide (or the tree is too deep): split at the median of the longest
            // axis (NaN centroids, of empty boxes, order first), in place.
            const int axis = longest_axis(ext);
            mid = begin + count / 2;
            auto key = [axis](const Prim& p) {
                const T c = p.centroid()[axis];
                return c == c ? c : -std::numeric_limits<T>::infinity();
            };
            LargeVector<Prim>& prims = buf_[src];
            std::nth_element(prims.begin() + begin, prims.begin() + mid, prims.begin() + end,
                             [&](const Prim& x, const Prim& y) { return key(x) < key(y); });
            left = right = Range::empty();
            for (std::uint32_t k = begin; k < mid; ++k) left.add(prims[k]);
            for (std::uint32_t k = mid; k < end; ++k) right.add(prims[k]);
        }
        return make_inner(mid, left, right, dst);
    }

    /// Sorts the prims of buf_[0] by the Morton code of their centroid in the scene's centroid
    /// bounds (10 bits per axis; NaN centroids, of empty boxes, code 0) into buf_[1], their codes
    /// into codes_.
    void morton_sort(const Range& all) {
        const auto n = std::uint32_t(buf_[0].size());
        const V4 ext = sub(all.chi, all.clo);
        T scale[3];
        for (int a = 0; a < 3; ++a) scale[a] = ext[a] > T(0) ? T(1023.99) / ext[a] : T(0);
        auto spread = [](std::uint32_t x) {  // 10 bits to every third bit
            x = (x | (x << 16)) & 0x030000ffu;
            x = (x | (x << 8)) & 0x0300f00fu;
            x = (x | (x << 4)) & 0x030c30c3u;
            x = (x | (x << 2)) & 0x09249249u;
            return x;
        };
        std::vector<std::uint64_t> keys(n), tmp(n);  // code << 32 | prim index
        for (std::uint32_t i = 0; i < n; ++i) {
            const V4 c = buf_[0][i].centroid();
            std::uint32_t code = 0;
            for (int a = 0; a < 3; ++a) {
                const T f = (c[a] - all.clo[a]) * scale[a];
                const std::uint32_t q = f > T(0) ? (f < T(1023) ? std::uint32_t(f) : 1023u) : 0u;
                code |= spread(q) << (2 - a);
            }
            keys[i] = std::uint64_t(code) << 32 | i;
        }
        // Least significant digit first, 10 bits at a time over the 30-bit code.
        for (int shift = 32; shift < 62; shift += 10) {
            std::uint32_t hist[1025] = {};
            for (std::uint32_t i = 0; i < n; ++i) ++hist[((keys[i] >> shift) & 1023u) + 1];
            for (int d = 0; d < 1024; ++d) hist[d + 1] += hist[d];
            for (std::uint32_t i = 0; i < n; ++i) tmp[hist[(keys[i] >> shift) & 1023u]++] = keys[i];
            keys.swap(tmp);
        }
        codes_.resize(n);
        for (std::uint32_t i = 0; i < n; ++i) {
            buf_[1][i] = buf_[0][std::uint32_t(keys[i])];
            codes_[i] = std::uint32_t(keys[i] >> 32);
        }
    }

    /// The top of the tree over Morton-sorted prims: a node per range whose codes differ at `bit`,
    /// split there; small ranges (or equal codes) go to the SAH. Bounds are the children's union.
    std::uint32_t top(std::uint32_t begin, std::uint32_t end, int bit, int depth) {
        const std::uint32_t count = end - begin;
        std::uint32_t mid = begin;
        while (bit >= 0 && count > set_.morton_leaf) {
            // Codes are sorted: the first with `bit` set, among those sharing the higher bits.
            const std::uint32_t mask = 1u << bit;
            auto it = std::partition_point(codes_.begin() + begin, codes_.begin() + end,
                                           [mask](std::uint32_t c) { return !(c & mask); });
            mid = std::uint32_t(it - codes_.begin());
            if (mid != begin && mid != end) break;
            --bit;
        }
        if (bit < 0 || count <= set_.morton_leaf) {
            Range r = Range::empty();
            for (std::uint32_t k = begin; k < end; ++k) r.add(buf_[1][k]);
            return node(begin, end, r, depth, 1);
        }
        tree_.depth = std::max(tree_.depth, depth);
        const auto index = std::uint32_t(tree_.nodes.size());
        tree_.nodes.push_back({});
        top(begin, mid, bit - 1, depth + 1);
        const std::uint32_t right = top(mid, end, bit - 1, depth + 1);
        BinNode<T>& b = tree_.nodes[index];
        b.lo = glm::min(tree_.nodes[index + 1].lo, tree_.nodes[right].lo);
        b.hi = glm::max(tree_.nodes[index + 1].hi, tree_.nodes[right].hi);
        b.first = right;
        b.count = 0;
        return index;
    }

    Settings set_;
    std::vector<std::uint32_t> codes_;
    LargeVector<Prim> buf_[2];  ///< the prims, and room to partition them into (see node())
    Tree<T> tree_;
};

}  // namespace raypick::bvh_build
