// raypick demo: where text labels of points in the 3D view go so that no two overlap. No GL, no
// ImGui: the App measures the texts and draws the boxes this places.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "app/Camera.h"
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

/// `text` with every line longer than `max_chars` broken at its last space within them (a line
/// with none cut at `max_chars`): words, and so numbers, stay whole. For a monospaced font
/// (ImGui's default) this bounds the text's width. (ImGui's own wrapping also breaks after a '.'
/// or ',', so "0.7927" could become "0." and "7927".)
std::string wrap_text(const std::string& text, std::size_t max_chars);
/// A label's lines in the view: as wrap_text(), but broken after the last "; " (between a failed
/// expectation's fields) where there is one, else at the last space outside parentheses and
/// brackets (a vector stays whole), else at any space; continuation lines indented by two spaces.
std::string wrap_label(const std::string& text, std::size_t max_chars);

/// Where a scene ray's label goes in a width x height view of `camera` (view coordinates): at the
/// ray's origin when that shows in the view, else where the ray's drawn part [t0, t1] comes into
/// the view (`from_outside`: the label then says where the ray comes from). Nothing when no part
/// of it shows.
struct RayLabelAnchor {
    double x = 0.0, y = 0.0;
    bool from_outside = false;
};
std::optional<RayLabelAnchor> ray_label_anchor(const Camera& camera, const Ray<double>& ray, double t0, double t1,
                                               double width, double height);

/// Places each label beside its anchor (right of it, its first line centred on it; left of it when
/// there is no room on the right), inside `region` where it fits, and moves a label that would
/// overlap one placed before it (labels are placed top to bottom by anchor) down below it, or up
/// above it when there is no room below; boxes keep `gap` pixels apart. `line_height`: the
/// height of one line of text. The result is in the order of `labels`.
std::vector<LabelBox> layout_labels(const std::vector<ScreenLabel>& labels, const ViewRect& region,
                                    double line_height = 13.0, double gap = 2.0);

}  // namespace raypick::app
