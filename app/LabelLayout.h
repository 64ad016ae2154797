// raypick demo: where text labels of points in the 3D view go so that no two overlap. No GL, no
// ImGui: the App measures the texts and draws the boxes this places.
#pragma once

#include <string>
#include <vector>

#include "app/ViewLayout.h"

namespace raypick::app {

/// A label to place: the screen point it belongs to (window coordinates) and its text's size.
struct ScreenLabel {
    double anchor_x = 0.0, anchor_y = 0.0;
    double width = 0.0, height = 0.0;
    std::string text;
};

/// Where a label's text goes (its top-left corner) and whether it left its preferred place beside
/// the anchor (then a leader line joins them).
struct LabelBox {
    double x = 0.0, y = 0.0;
    double line_height = 0.0;
    bool moved = false;
};

/// Places each label beside its anchor (right of it, its first line centred on it; left of it when
/// there is no room on the right), inside `region` where it fits, and moves a label that would
/// overlap one placed before it (labels are placed top to bottom by anchor) down below it, or up
/// above it when there is no room below; boxes keep `gap` pixels apart. `line_height`: the
/// height of one line of text. The result is in the order of `labels`.
std::vector<LabelBox> layout_labels(const std::vector<ScreenLabel>& labels, const ViewRect& region,
                                    double line_height = 13.0, double gap = 2.0);

}  // namespace raypick::app
