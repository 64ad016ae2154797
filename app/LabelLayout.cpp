#include "app/LabelLayout.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace raypick::app {

namespace {
constexpr double kOffset = 8.0;  // from the anchor to the label's near edge

struct Box {
    double x0, y0, x1, y1;
    bool overlaps(const Box& o, double gap) const {
        return x0 < o.x1 + gap && o.x0 < x1 + gap && y0 < o.y1 + gap && o.y0 < y1 + gap;
    }
};
}  // namespace

namespace {
std::string wrap(const std::string& text, std::size_t max_chars, const std::string& indent, bool groups) {
    max_chars = std::max<std::size_t>(max_chars, indent.size() + 4);
    std::string out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        std::string line = text.substr(start, end - start);
        while (line.size() > max_chars) {
            // The last break that keeps the piece within max_chars: after "; ", else at a space
            // outside parentheses and brackets (a vector stays whole), else at any space.
            std::vector<int> depth(line.size() + 1, 0);
            for (std::size_t k = 0; k < line.size(); ++k)
                depth[k + 1] = depth[k] + (line[k] == '(' || line[k] == '[' ? 1 : line[k] == ')' || line[k] == ']' ? -1 : 0);
            std::size_t cut = std::string::npos;
            for (std::size_t k = max_chars; groups && k > 0 && cut == std::string::npos; --k)
                if (line[k] == ' ' && line[k - 1] == ';') cut = k;
            for (std::size_t k = max_chars; groups && k > 0 && cut == std::string::npos; --k)
                if (line[k] == ' ' && depth[k] == 0) cut = k;
            for (std::size_t k = max_chars; k > 0 && cut == std::string::npos; --k)
                if (line[k] == ' ') cut = k;
            if (cut == std::string::npos || cut <= indent.size()) cut = max_chars;  // one long word: cut it
            out += line.substr(0, cut) + "\n";
            std::size_t rest = cut;
            while (rest < line.size() && line[rest] == ' ') ++rest;
            line = indent + line.substr(rest);
        }
        out += line;
        if (end >= text.size()) break;
        out += '\n';
        start = end + 1;
    }
    return out;
}

}  // namespace

std::string wrap_text(const std::string& text, std::size_t max_chars) { return wrap(text, max_chars, "", false); }

std::string wrap_label(const std::string& text, std::size_t max_chars) { return wrap(text, max_chars, "  ", true); }

std::optional<RayLabelAnchor> ray_label_anchor(const Camera& camera, const Ray<double>& ray, double t0, double t1,
                                               double width, double height) {
    auto shown = [&](double t) -> std::optional<ScreenPoint> {
        const auto p = camera.project(ray.at(t), width, height);
        if (!p || !(p->depth >= 0.0 && p->depth <= 1.0) || !(p->x >= 0.0 && p->x <= width && p->y >= 0.0 && p->y <= height))
            return std::nullopt;
        return p;
    };
    if (const auto p = shown(t0)) return RayLabelAnchor{p->x, p->y, false};
    if (!(t1 > t0) || !std::isfinite(t0) || !std::isfinite(t1)) return std::nullopt;
    // The first of a few samples along the ray that shows, then halving the step back to the edge.
    constexpr int kSamples = 256;
    double outside = t0, inside = t1;
    bool found = false;
    for (int k = 1; k <= kSamples && !found; ++k) {
        const double t = t0 + (t1 - t0) * k / kSamples;
        if (shown(t)) {
            inside = t;
            found = true;
        } else {
            outside = t;
        }
    }
    if (!found) return std::nullopt;
    for (int k = 0; k < 40; ++k) {
        const double mid = 0.5 * (outside + inside);
        (shown(mid) ? inside : outside) = mid;
    }
    const auto p = shown(inside);
    return RayLabelAnchor{p->x, p->y, true};
}

std::vector<LabelBox> layout_labels(const std::vector<ScreenLabel>& labels, const ViewRect& region,
                                    double line_height, double gap) {
    std::vector<std::size_t> order(labels.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return labels[a].anchor_y < labels[b].anchor_y ||
               (labels[a].anchor_y == labels[b].anchor_y && labels[a].anchor_x < labels[b].anchor_x);
    });
    const double left = region.x + gap, right = region.x + region.width - gap;
    const double top = region.y + gap, bottom = region.y + region.height - gap;
    std::vector<LabelBox> out(labels.size());
    std::vector<Box> placed;
    for (std::size_t i : order) {
        const ScreenLabel& l = labels[i];
        // 1. Beside the anchor, inside the region where it fits.
        double x = l.anchor_x + kOffset;
        if (x + l.width > right) x = l.anchor_x - kOffset - l.width;
        x = std::max(left, std::min(x, right - l.width));
        double y = l.anchor_y - line_height * 0.5;
        y = std::max(top, std::min(y, bottom - l.height));
        const double y_pref = y;
        // 2. Clear of the labels placed before: below the one in the way, else above it.
        auto first_overlap = [&](double bx, double by) -> const Box* {
            const Box b{bx, by, bx + l.width, by + l.height};
            for (const Box& p : placed)
                if (b.overlaps(p, gap)) return &p;
            return nullptr;
        };
        double y_down = y;
        for (const Box* o = first_overlap(x, y_down); o; o = first_overlap(x, y_down)) y_down = o->y1 + gap;
        if (y_down + l.height <= bottom || placed.empty()) {
            y = y_down;
        } else {
            double y_up = y;
            for (const Box* o = first_overlap(x, y_up); o; o = first_overlap(x, y_up)) y_up = o->y0 - gap - l.height;
            y = y_up >= top ? y_up : y_down;  // no room either way: below, clipped by the region
        }
        placed.push_back({x, y, x + l.width, y + l.height});
        out[i].x = x;
        out[i].y = y;
        out[i].line_height = line_height;
        out[i].moved = std::abs(y - y_pref) > 0.5 || std::abs(y_pref - (l.anchor_y - line_height * 0.5)) > line_height;
    }
    return out;
}

}  // namespace raypick::app
