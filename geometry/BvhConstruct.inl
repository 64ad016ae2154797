// raypick geometry: Bvh's construction: the binary tree (BvhBuild.h) collapsed into wide nodes at least
// surface-area cost (plan(), collapse()), the leaf blocks (make_leaf()), the compact node copies,
// and update() with its refit.
// Part of Bvh.h (included at its end); not a header of its own.
#pragma once

namespace raypick {

template <typename T> Aabb<T> Bvh<T>::padded_bounds(const Shape<T>& s) const {
    if (!is_valid(s)) return {Vec3<T>(infinity<T>()), Vec3<T>(-infinity<T>())};
    Aabb<T> b = bounds(s);
    if (!pad_) return b;
    // Pad outward, on every axis alike, by a few ulps of the shape's largest coordinate: the scale
    // at which bounds() and the shape's own cast round (a zero-size shape far out on one axis is
    // decided at that scale on the others too), so rounding never cuts off what the cast accepts.
    const T eps = std::numeric_limits<T>::epsilon();
    const T m = std::max(detail::max_abs(b.min), detail::max_abs(b.max));
    const Vec3<T> pad(m * (T(8) * eps) + std::numeric_limits<T>::min());
    return {b.min - pad, b.max + pad};
}

template <typename T> void Bvh<T>::build(const std::vector<Shape<T>>& shapes, BvhOptions options) {
    const auto n = static_cast<std::uint32_t>(shapes.size());
    nodes_.clear();
    parent_.clear();
    leaves_.clear();
    depth_ = 0;
    options.max_leaf_size = std::clamp(options.max_leaf_size, 1, 100);  // leaf counts fit in 8 bits
    options_ = options;
    pad_ = options.pad_bounds;
    isa_ = effective_isa(options.node_test_isa);
    root_lo_ = Vec3<T>(infinity<T>());
    root_hi_ = Vec3<T>(-infinity<T>());
    bvh_build::Settings settings;
    settings.max_leaf_size = options.max_leaf_size;
    settings.bins = options.bins;
    settings.max_depth = kMaxDepth;
    settings.morton_min = options.morton_above < kNone ? options.morton_above + 1 : kNone;
    settings.morton_leaf = std::max<std::uint32_t>(options.morton_leaf, 1u);
    // The shapes' types by index, noted while the builder reads every shape in order anyway: the
    // slots' types below are then looked up in n bytes, not in the shapes themselves.
    std::vector<std::uint8_t> type_by_id(n);
    bvh_build::Tree<T> tree = bvh_build::Builder<T>().build(
        n,
        [&](std::uint32_t i) {
            type_by_id[i] = std::uint8_t(shapes[i].index());
            return padded_bounds(shapes[i]);
        },
        settings);
    LargeVector<BinNode>& bin = tree.nodes;
    depth_ = tree.depth;
    id_of_ = std::move(tree.order);
    slot_of_.resize(n);
    type_of_.resize(n);
    std::size_t chunks = 0;
    for (std::uint32_t s = 0; s < n; ++s) {
        slot_of_[id_of_[s]] = s;
        const int type = type_by_id[id_of_[s]];
        type_of_[s] = std::uint8_t(type);
        chunks += bvh_leaf::section_chunks<T>(type, 1);
    }
    leaf_of_.assign(n, ChildRef{});
    lane_of_.assign(n, 0);
    if (n > 0) {
        // Upper bounds (untouched reserved pages cost nothing): no reallocation while collapsing.
        nodes_.reserve(bin.size() / 2 + 1);
        leaves_.reserve(2 * chunks);  // leaves of several shapes pad their fields: at most twice
        root_lo_ = bin[0].lo;
        root_hi_ = bin[0].hi;
        std::vector<How> how(bin.size(), How{});
        plan(bin, 0, how);
        collapse(bin, how, 0, ChildRef{kNone, 0}, shapes);
    }
    encode_compact();
}

template <typename T> void Bvh<T>::encode_compact() {
    compact_.clear();
    const std::size_t bytes = nodes_.size() * sizeof(Node) + leaves_.size() * sizeof(bvh_leaf::Chunk);
    if (bytes <= options_.compact_above_bytes.value_or(detail::last_level_cache_bytes() / 2)) return;
    // Reserved, not resized: resize() would zero the 256 bytes a node that encode() writes anyway.
    compact_.reserve(nodes_.size());
    bvh_node::Compact<T> c;
    for (const Node& n : nodes_) {
        if (!bvh_node::encode(n, c)) {
            compact_.clear();
            return;
        }
        compact_.push_back(c);
    }
}

template <typename T>
void Bvh<T>::set_child(std::uint32_t node, std::uint32_t k, const Vec3<T>& lo, const Vec3<T>& hi) {
    for (int a = 0; a < 3; ++a) {
        nodes_[node].lo[a][k] = lo[a];
        nodes_[node].hi[a][k] = hi[a];
    }
}

/// Appends the leaf block of slots [first, first + count) and returns its child reference.
template <typename T>
std::uint32_t Bvh<T>::make_leaf(std::uint32_t first, std::uint32_t count, bvh_leaf::LeafInfo& info,
                                const std::vector<Shape<T>>& shapes) {
    using namespace bvh_leaf;
    TypeCounts counts{};
    for (std::uint32_t s = first; s < first + count; ++s) ++counts[type_of_[s]];
    // Leaves are made in slot order, and a slot's shape is a random read of `shapes`: start
    // reading the shapes of the slots kAhead on now (each slot once, as the leaves tile the slots),
    // so those misses overlap the leaves made meanwhile. Without it this function took a fifth of
    // a build of 10^6 spheres.
    constexpr std::uint32_t kAhead = 64;
    const auto n = std::uint32_t(id_of_.size());
    for (std::uint32_t s = first + kAhead; s < std::min(n, first + count + kAhead); ++s) {
        const char* p = reinterpret_cast<const char*>(&shapes[id_of_[s]]);
        __builtin_prefetch(p);
        __builtin_prefetch(p + sizeof(Shape<T>) - 1);
    }
    const std::size_t offset = leaves_.size();
    std::size_t size = 0;
    info = leaf_layout<T>(counts, size);
    if (offset + size > kOffsetMask) throw std::length_error("raypick::Bvh: too many shapes for the leaf storage");
    leaves_.resize(offset + size);  // value-initialised: zeroed (ids of padding lanes stay 0)
    Chunk* leaf = &leaves_[offset];
    if (info.type == kMixed) {  // the header: the sections' types and counts
        unsigned char* header = leaf->b;
        for (int type = 0; type < kShapeTypeCount; ++type) {
            if (!counts[std::size_t(type)]) continue;
            header[1 + 2 * header[0]] = std::uint8_t(type);
            header[2 + 2 * header[0]] = counts[std::size_t(type)];
            ++header[0];
        }
    }
    for_each_section<T>(leaf, info, [&](const Section<T, Chunk>& sec) {
        std::uint8_t lane = 0;
        std::uint32_t first_of_type = kNone;
        for (std::uint32_t s = first; s < first + count; ++s) {
            if (type_of_[s] != sec.type) continue;
            if (first_of_type == kNone) first_of_type = s;
            sec.ids()[lane] = id_of_[s];
            write_lane(sec, lane, shapes[id_of_[s]]);
            lane_of_[s] = lane++;
        }
        for (std::size_t l = lane; l < sec.padded; ++l) write_lane(sec, l, shapes[id_of_[first_of_type]]);
    });
    // Cache lines the block may touch (it need not start on a line).
    const std::size_t lines = std::min<std::size_t>(8, (size * sizeof(Chunk) + 63) / 64 + 1);
    return kLeaf | std::uint32_t((lines - 1) << 28) | std::uint32_t(offset);
}

template <typename T> bvh_leaf::Candidate<T> Bvh<T>::candidate_at(std::uint32_t slot) const {
    const ChildRef leaf = leaf_of_[slot];
    const Node& node = nodes_[leaf.node];
    const int type = type_of_[slot];
    const auto sec = bvh_leaf::section<T>(&leaves_[node.child[leaf.k] & kOffsetMask], node.leaf[leaf.k], type);
    return {T(0), id_of_[slot], sec.fields(), std::uint32_t(sec.padded), lane_of_[slot], type};
}

template <typename T> Shape<T> Bvh<T>::shape_at(std::uint32_t slot) const { return candidate_at(slot).shape(); }

template <typename T>
typename Bvh<T>::Sub Bvh<T>::plan(const LargeVector<BinNode>& bin, std::uint32_t b, std::vector<How>& how) const {
    // Costs in node visits: a wide node's box test, or a vector of leaf shapes of one type (a lone
    // shape of its type is one scalar test) weighted by what that type's test costs against a node
    // test (ShapeTraits::leaf_cost, the weights that give the fastest picks among 10^6 shapes of
    // the type: docs/performance.md), times the probability of a visit, the box's area.
    constexpr double kNodeCost = 1.0;
    double kLeafVectorCost[kShapeTypeCount];
    {
        int t = 0;
        for_each_shape_type([&](auto tag) { kLeafVectorCost[t++] = decltype(tag)::Traits::leaf_cost; });
    }
    const BinNode& node = bin[b];
    double area;
    {
        double e[3];
        for (int a = 0; a < 3; ++a) {
            const double d = double(node.hi[a]) - double(node.lo[a]);  // empty box: negative
            e[a] = d > 0 ? std::min(d, 1e100) : 0.0;                    // no inf (inf * 0 = NaN)
        }
        area = e[0] * e[1] + e[1] * e[2] + e[2] * e[0];
    }
    auto leaf_cost = [&](const std::array<std::uint32_t, kShapeTypeCount>& n) {
        double c = 0;
        for (int t = 0; t < kShapeTypeCount; ++t)
            c += kLeafVectorCost[t] * double((n[std::size_t(t)] + bvh_leaf::lanes<T>() - 1) / bvh_leaf::lanes<T>());
        return area * c;
    };
    Sub s;
    if (node.count) {
        s.n.fill(0);
        for (std::uint32_t k = node.first; k < node.first + node.count; ++k) ++s.n[type_of_[k]];
        s.cost[0] = leaf_cost(s.n);  // one slot: the flat rest is never read (see below)
        return s;
    }
    const Sub l = plan(bin, b + 1, how), r = plan(bin, node.first, how);
    std::uint32_t total = 0;
    for (int t = 0; t < kShapeTypeCount; ++t) total += (s.n[t] = l.n[t] + r.n[t]);
    How& h = how[b];
    // Both children sharing j slots: the best k for the left one. Selects, not branches: which
    // k wins is data dependent and a branch is mispredicted most of the time. Only the splits the
    // children can use: a subtree of m binary leaves never fills more than m slots (its cost[] is
    // flat from m on), so a k with k > l.slots or j - k > r.slots costs no less than the nearest
    // k without, and j beyond l.slots + r.slots gains nothing. The minimum is the same. Most
    // binary nodes are near the leaves, so this is a few additions where all W^2 / 2 take a
    // fifth of a build at 16 wide. For the same reason cost[] is kept only up to slots (every
    // read below stays within a child's slots), and how[b][i] beyond them stays 0 (`how` starts
    // zeroed: no better than with i - 1 slots).
    const int most = std::min(W, l.slots + r.slots);
    s.slots = most;
    double dist[W + 1];
    std::uint8_t split[W + 1];
    for (int j = 2; j <= most; ++j) {
        const int k0 = std::max(1, j - r.slots), k1 = std::min(j - 1, l.slots);
        double d = l.cost[k0 - 1] + r.cost[j - k0 - 1];
        std::uint8_t at = std::uint8_t(k0);
        for (int k = k0 + 1; k <= k1; ++k) {
            const double c = l.cost[k - 1] + r.cost[j - k - 1];
            at = c < d ? std::uint8_t(k) : at;
            d = c < d ? c : d;
        }
        dist[j] = d;
        split[j] = at;
    }
    h[0] = split[most];
    const double inner = area * kNodeCost + dist[most];
    const double leaf = total <= std::uint32_t(options_.max_leaf_size) ? leaf_cost(s.n)
                                                                       : std::numeric_limits<double>::infinity();
    h[1] = leaf < inner;
    s.cost[0] = leaf < inner ? leaf : inner;
    for (int i = 2; i <= most; ++i) {
        const bool better = dist[i] < s.cost[i - 2];
        h[i] = better ? split[i] : 0;
        s.cost[i - 1] = better ? dist[i] : s.cost[i - 2];
    }
    return s;
}

template <typename T>
std::uint32_t Bvh<T>::collapse(const LargeVector<BinNode>& bin, const std::vector<How>& how, std::uint32_t b,
                               ChildRef up, const std::vector<Shape<T>>& shapes) {
    // The node's children, following plan(): binary node, and whether it becomes one leaf.
    struct Kid {
        std::uint32_t b;
        bool leaf;
    };
    std::array<Kid, W> kids{};
    int n = 0;
    auto gather = [&](auto& self, std::uint32_t x, int i) -> void {
        while (i > 1 && how[x][std::size_t(i)] == 0) --i;
        if (i == 1) {
            kids[std::size_t(n++)] = {x, bin[x].count != 0 || how[x][1] != 0};
            return;
        }
        const int k = how[x][std::size_t(i)];
        self(self, x + 1, k);
        self(self, bin[x].first, i - k);
    };
    if (bin[b].count) {
        kids[std::size_t(n++)] = {b, true};  // a lone leaf (the whole tree is one leaf)
    } else {
        gather(gather, b + 1, how[b][0]);
        gather(gather, bin[b].first, W - how[b][0]);
    }
    const auto index = static_cast<std::uint32_t>(nodes_.size());
    nodes_.push_back({});
    parent_.push_back(up);
    for (std::uint32_t k = 0; k < std::uint32_t(W); ++k) {
        nodes_[index].child[k] = kNone;
        nodes_[index].leaf[k] = {};
        set_child(index, k, Vec3<T>(infinity<T>()), Vec3<T>(-infinity<T>()));
    }
    for (int k = 0; k < n; ++k) {
        const BinNode& c = bin[kids[std::size_t(k)].b];
        set_child(index, std::uint32_t(k), c.lo, c.hi);
        if (kids[std::size_t(k)].leaf) {
            // The subtree's slots: from its leftmost leaf's first to its rightmost leaf's last.
            std::uint32_t lo = kids[std::size_t(k)].b, hi = lo;
            while (!bin[lo].count) ++lo;
            while (!bin[hi].count) hi = bin[hi].first;
            const std::uint32_t first = bin[lo].first, count = bin[hi].first + bin[hi].count - first;
            bvh_leaf::LeafInfo info;
            const std::uint32_t ref = make_leaf(first, count, info, shapes);
            nodes_[index].child[k] = ref;
            nodes_[index].leaf[k] = info;
            for (std::uint32_t s = first; s < first + count; ++s) leaf_of_[s] = {index, std::uint32_t(k)};
        } else {
            const std::uint32_t child =
                collapse(bin, how, kids[std::size_t(k)].b, ChildRef{index, std::uint32_t(k)}, shapes);
            nodes_[index].child[k] = child;
        }
    }
    return index;
}

template <typename T> void Bvh<T>::refit_up(ChildRef ref, Vec3<T> lo, Vec3<T> hi) {
    while (ref.node != kNone) {
        set_child(ref.node, ref.k, lo, hi);
        if (!compact_.empty() && !bvh_node::encode(nodes_[ref.node], compact_[ref.node])) compact_.clear();
        Vec3<T> nlo(infinity<T>()), nhi(-infinity<T>());
        const Node& n = nodes_[ref.node];
        for (int k = 0; k < W; ++k)
            for (int a = 0; a < 3; ++a) {
                nlo[a] = std::min(nlo[a], n.lo[a][k]);
                nhi[a] = std::max(nhi[a], n.hi[a][k]);
            }
        lo = nlo;
        hi = nhi;
        ref = parent_[ref.node];
    }
    root_lo_ = lo;
    root_hi_ = hi;
}

template <typename T> void Bvh<T>::update(std::uint32_t index, const Shape<T>& shape) {
    if (index >= slot_of_.size()) return;
    const std::uint32_t slot = slot_of_[index];
    if (type_of_[slot] != std::uint8_t(shape.index())) {
        // A change of type changes the leaf's layout: rebuild (rare; a drag keeps the type).
        std::vector<Shape<T>> all(size());
        for (std::uint32_t s = 0; s < size(); ++s) all[id_of_[s]] = shape_at(s);
        all[index] = shape;
        build(all, options_);
        return;
    }
    const ChildRef leaf = leaf_of_[slot];
    bvh_leaf::Chunk* block = &leaves_[nodes_[leaf.node].child[leaf.k] & kOffsetMask];
    const bvh_leaf::LeafInfo info = nodes_[leaf.node].leaf[leaf.k];
    bvh_leaf::write_lane(bvh_leaf::section<T>(block, info, int(shape.index())), lane_of_[slot], shape);
    // The leaf's new box: the union of its shapes' (read from the block itself).
    Vec3<T> lo(infinity<T>()), hi(-infinity<T>());
    bvh_leaf::for_each_shape<T>(block, info, [&](std::uint32_t, const Shape<T>& s) {
        const Aabb<T> b = padded_bounds(s);
        lo = glm::min(lo, b.min);
        hi = glm::max(hi, b.max);
    });
    refit_up(leaf, lo, hi);
}

}  // namespace raypick
