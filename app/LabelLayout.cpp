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
