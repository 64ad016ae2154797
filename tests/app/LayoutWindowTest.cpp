// The demo's layout under a display: with the panels docked at the window's edges, every case file
// opens with every shape inside the free region — the 3D view less every window drawn over it —
// as the renderer projects it (the harness's --layout-report), and the check fails when a panel
// is put over the view (--cover-view).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "AppRunner.h"

namespace fs = std::filesystem;
using namespace raypick::app::test;

namespace {

constexpr int kW = 1280, kH = 720;

struct Rect {
    double x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0;
    std::string name;
};

/// What --layout-report wrote: the 3D view, the windows drawn, each shape's projected bounds
/// (empty when a corner of its bounds is behind the near plane).
struct LayoutReport {
    std::optional<Rect> view;
    std::vector<Rect> panels;
    std::vector<std::pair<std::string, std::optional<Rect>>> shapes;
};

LayoutReport read_report(const fs::path& path) {
    LayoutReport r;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string kind;
        ls >> kind;
        auto rest = [&] {
            std::string name;
            std::getline(ls >> std::ws, name);
            return name;
        };
        if (kind == "view") {
            Rect v;
            double w = 0.0, h = 0.0;
            ls >> v.x0 >> v.y0 >> w >> h;
            v.x1 = v.x0 + w;
            v.y1 = v.y0 + h;
            r.view = v;
        } else if (kind == "panel") {
            Rect p;
            double w = 0.0, h = 0.0;
            ls >> p.x0 >> p.y0 >> w >> h;
            p.x1 = p.x0 + w;
            p.y1 = p.y0 + h;
            p.name = rest();
            r.panels.push_back(p);
        } else if (kind == "shape") {
            std::string first;
            ls >> first;
            if (first == "-") {
                r.shapes.push_back({rest(), std::nullopt});
                continue;
            }
            Rect b;
            b.x0 = std::stod(first);
            ls >> b.y0 >> b.x1 >> b.y1;
            b.name = rest();
            r.shapes.push_back({b.name, b});
        }
    }
    return r;
}

bool overlap(const Rect& a, const Rect& b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; }

/// Every shape whose projected bounds are not inside the free region, with the reason; empty when
/// every shape is inside it.
std::vector<std::string> shapes_outside_free_region(const LayoutReport& r) {
    std::vector<std::string> problems;
    if (!r.view) return {"no view in the report"};
    const Rect& v = *r.view;
    for (const auto& [name, box] : r.shapes) {
        if (!box) {
            problems.push_back(name + ": behind the near plane");
            continue;
        }
        if (box->x0 < v.x0 || box->y0 < v.y0 || box->x1 > v.x1 || box->y1 > v.y1)
            problems.push_back(name + ": outside the view");
        for (const Rect& p : r.panels)
            if (overlap(*box, p)) problems.push_back(name + ": under the window \"" + p.name + "\"");
    }
    return problems;
}

/// Runs the harness on `scene` at kW x kH in screenshot mode with `extra` options; its layout report.
LayoutReport layout_of(const std::string& scene, const std::string& stem, const std::string& extra = "") {
    const fs::path png = tmp_dir() / (stem + ".png"), report = tmp_dir() / (stem + ".txt");
    fs::remove(report);
    const AppRun run = run_harness("--scene " + quote(scene) + " --width " + std::to_string(kW) + " --height " +
                                   std::to_string(kH) + " --screenshot " + quote(png.string()) + " --layout-report " +
                                   quote(report.string()) + " " + extra);
    EXPECT_EQ(run.code, 0) << scene << ": " << run.output;
    EXPECT_TRUE(fs::exists(report)) << run.output;
    return read_report(report);
}

std::string joined(const std::vector<std::string>& lines) {
    std::string s;
    for (const std::string& l : lines) s += "\n  " + l;
    return s;
}

std::vector<fs::path> case_files() {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(RAYPICK_SOURCE_ASSETS_DIR))
        if (e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace

TEST(AppLayout, EveryCaseFileShowsEveryShapeInsideTheFreeRegion) {
    REQUIRE_DISPLAY();
    const std::vector<fs::path> files = case_files();
    ASSERT_GE(files.size(), 20u);
    for (const fs::path& f : files) {
        const LayoutReport r = layout_of(f.string(), f.stem().string());
        ASSERT_TRUE(r.view) << f;
        EXPECT_FALSE(r.shapes.empty()) << f;
        // The docked columns leave the view more than half of the window's width.
        EXPECT_GT(r.view->x1 - r.view->x0, 0.5 * kW) << f;
        const auto problems = shapes_outside_free_region(r);
        EXPECT_TRUE(problems.empty()) << f << ":" << joined(problems);
    }
}

// The control: a panel over the middle of the view covers shapes, and the same check says so.
TEST(AppLayout, TheCheckFailsWhenAPanelCoversTheView) {
    REQUIRE_DISPLAY();
    const std::string showcase = std::string(RAYPICK_SOURCE_ASSETS_DIR) + "/showcase.json";
    const LayoutReport r = layout_of(showcase, "covered", "--cover-view");
    const auto problems = shapes_outside_free_region(r);
    ASSERT_FALSE(problems.empty());
    EXPECT_NE(joined(problems).find("Covering panel"), std::string::npos) << joined(problems);
}

// A file's camera that leaves shapes out of the view is not taken: the view is framed instead.
TEST(AppLayout, AFileCameraThatCutsShapesOffIsReplacedByFraming) {
    REQUIRE_DISPLAY();
    const fs::path file = tmp_dir() / "cut.json";
    std::ofstream(file) << R"({"camera": {"eye": [0, 0, 6], "target": [0, 0, 0], "fov_y_degrees": 45},
        "shapes": [{"name": "near", "type": "sphere", "center": [0, 0, 0], "radius": 1},
                   {"name": "far_right", "type": "sphere", "center": [40, 0, 0], "radius": 1}]})";
    const LayoutReport r = layout_of(file.string(), "cut");
    ASSERT_EQ(r.shapes.size(), 2u);
    const auto problems = shapes_outside_free_region(r);
    EXPECT_TRUE(problems.empty()) << joined(problems);
}
