#include "harness/RandomEdits.h"

#include <stdlib.h>  // mkdtemp

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <type_traits>

#include "app/SceneEdit.h"
#include "app/Showcase.h"
#include <raypick/scene/Euler.h>
#include <raypick/scene/NumberText.h>
#include <raypick/scene/SceneFile.h>

namespace raypick::app {

namespace fs = std::filesystem;

namespace {

// The editor's default undo depth (SceneEditor): the model forgets what the app's history forgets.
constexpr std::size_t kHistorySteps = 256;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kMax = std::numeric_limits<double>::max();

std::string num(double v) { return shortest(v); }

/// What differs between two scenes, in a few words.
std::string difference(const Scene& got, const Scene& want) {
    if (got.shapes.size() != want.shapes.size())
        return std::to_string(got.shapes.size()) + " shapes, expected " + std::to_string(want.shapes.size());
    for (std::size_t i = 0; i < got.shapes.size(); ++i) {
        if (got.shapes[i].name != want.shapes[i].name)
            return "shape " + std::to_string(i) + " is called '" + got.shapes[i].name + "', expected '" +
                   want.shapes[i].name + "'";
        if (!same_shape(got.shapes[i].shape, want.shapes[i].shape))
            return "shape " + std::to_string(i) + " '" + got.shapes[i].name + "' has other parameters (centre " +
                   full(shape_center(got.shapes[i].shape)) + ", expected " + full(shape_center(want.shapes[i].shape)) +
                   ")";
        if (got.shapes[i].description != want.shapes[i].description)
            return "shape " + std::to_string(i) + " has another description";
    }
    if (got.rays.size() != want.rays.size()) return "another number of rays";
    if (got.expectations.size() != want.expectations.size()) return "another number of expectations";
    return "rays, camera, expectations or description differ";
}

bool on_screen(const std::optional<ScreenPoint>& p, const ViewRect& v) {
    return p && std::isfinite(p->x) && std::isfinite(p->y) && p->x >= 1.0 && p->y >= 1.0 && p->x <= v.width - 1.0 &&
           p->y <= v.height - 1.0;
}

void write_file(const fs::path& p, const std::string& text) {
    std::ofstream out(p, std::ios::binary);
    out << text;
    if (!out) throw std::runtime_error("random-edits: cannot write " + p.string());
}

}  // namespace

// ---- TempDir -------------------------------------------------------------------------------------

TempDir::TempDir() {
    std::string pattern = (fs::temp_directory_path() / "raypick-random-edits-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("random-edits: cannot create a temporary directory");
    path_ = pattern;
}

TempDir::~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
}

// ---- set-up and reporting ------------------------------------------------------------------------

std::vector<BrokenFile> broken_scene_files() {
    return {
        {"syntax.json", "{\"shapes\": [ {\"name\": \"s\", \"type\": \"sphere\", \"center\": [0, 0, "},
        {"nan_string.json",
        "{\"shapes\": [{\"name\": \"s\", \"type\": \"sphere\", \"center\": [0, 0, 0], \"radius\": \"NaN\"}]}"},
        {"nan_literal.json",
        "{\"shapes\": [{\"name\": \"s\", \"type\": \"sphere\", \"center\": [NaN, 0, 0], \"radius\": 1}]}"},
        {"negative_radius.json",
        "{\"shapes\": [{\"name\": \"c\", \"type\": \"capsule\", \"a\": [0, 0, 0], \"b\": [0, 1, 0], \"radius\": -1}]}"},
        {"overflow.json",
        "{\"shapes\": [{\"name\": \"s\", \"type\": \"sphere\", \"center\": [1e999, 0, 0], \"radius\": 1}]}"},
        {"skewed_obb.json",
        "{\"shapes\": [{\"name\": \"o\", \"type\": \"obb\", \"center\": [0, 0, 0], \"half_extents\": [1, 1, 1], "
        "\"axes\": [[1, 0, 0], [0.5, 1, 0], [0, 0, 1]]}]}"},
        {"left_handed_obb.json",
        "{\"shapes\": [{\"name\": \"o\", \"type\": \"obb\", \"center\": [0, 0, 0], \"half_extents\": [1, 1, 1], "
        "\"axes\": [[1, 0, 0], [0, 1, 0], [0, 0, -1]]}]}"},
        {"infinite_euler_obb.json",
        "{\"shapes\": [{\"name\": \"o\", \"type\": \"obb\", \"center\": [0, 0, 0], \"half_extents\": [1, 1, 1], "
        "\"euler_degrees\": [1e999, 0, 0]}]}"},
        {"inverted_aabb.json",
        "{\"shapes\": [{\"name\": \"b\", \"type\": \"aabb\", \"min\": [1, 1, 1], \"max\": [0, 2, 2]}]}"},
        {"duplicate_names.json",
        "{\"shapes\": [{\"name\": \"s\", \"type\": \"sphere\", \"center\": [0, 0, 0], \"radius\": 1},"
        " {\"name\": \"s\", \"type\": \"sphere\", \"center\": [1, 0, 0], \"radius\": 1}]}"},
        {"wrong_types.json", "{\"shapes\": 5}"},
        {"array.json", "[1, 2, 3]"},
        {"empty.json", ""},
        {"binary.json", std::string("\x00\xff\xfe{\x01\x02", 6)},
        {"deep.json", std::string(5000, '[') + std::string(5000, ']')},
    };
}

RandomEdits::RandomEdits(const RandomEditsOptions& options, AppState& s) : opt_(options), rng_(options.seed) {
    const fs::path d = dir_.path();
    for (const BrokenFile& f : broken_scene_files()) {
        write_file(d / f.name, f.text);
        bad_files_.push_back((d / f.name).string());
    }
    fs::create_directories(d / "directory.json");
    bad_files_.push_back((d / "directory.json").string());
    bad_files_.push_back((d / "missing.json").string());
    model_.push_back(s.scene());
    pos_ = 0;
    // The model starts from the app's state: anything already undoable is not the driver's to check.
    if (s.editor.can_undo() || s.editor.can_redo()) s.editor.clear_history();
}

std::string RandomEdits::summary() const {
    std::ostringstream os;
    for (const std::string& n : notes_) os << n << "\n";
    os << "random-edits: " << action_ << " actions, " << undos_ << " undos, " << redos_ << " redos, " << refused_
       << " refused edits, " << bad_kept_ << " bad files kept, " << mismatches_.size() << " mismatches\n";
    os << "random-edits: kinds:";
    for (const auto& [k, n] : kinds_) os << " " << k << "=" << n;
    os << ", snapped=" << snaps_ << "\n";
    return os.str();
}

void RandomEdits::mismatch(const std::string& what) {
    if (mismatches_.size() >= kMaxMismatches) return;
    mismatches_.push_back("random-edits: mismatch at action " + std::to_string(action_) + " (" + current_ + "): " + what);
}

void RandomEdits::note_gl_error(unsigned error) {
    if (error != 0) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "0x%04x", error);
        mismatch(std::string("glGetError() = ") + buf + " after the frame was drawn");
    }
}

// ---- the model -----------------------------------------------------------------------------------

void RandomEdits::model_push(const Scene& scene) {
    model_.resize(pos_ + 1);
    model_.push_back(scene);
    ++pos_;
    while (pos_ > kHistorySteps) {
        model_.pop_front();
        --pos_;
    }
}

void RandomEdits::expect_model(const AppState& s, const char* what) {
    if (!(s.scene() == model_[pos_])) mismatch(std::string(what) + ": " + difference(s.scene(), model_[pos_]));
    if (s.editor.undo_count() != pos_ || s.editor.redo_count() != model_.size() - 1 - pos_)
        mismatch(std::string(what) + ": history has " + std::to_string(s.editor.undo_count()) + " undo / " +
                 std::to_string(s.editor.redo_count()) + " redo steps, the model " + std::to_string(pos_) + " / " +
                 std::to_string(model_.size() - 1 - pos_));
}

void RandomEdits::check_invariants(const AppState& s, const Interaction& interaction) {
    for (std::size_t i = 0; i < s.scene().shapes.size(); ++i)
        if (const auto err = validate(s.scene().shapes[i].shape))
            mismatch("shape " + std::to_string(i) + " '" + s.scene().shapes[i].name + "' is invalid: " + err->message);
    const std::size_t n = s.scene().shapes.size();
    if (s.sel.selected && *s.sel.selected >= n) mismatch("selected index out of range");
    if (s.sel.hovered && *s.sel.hovered >= n) mismatch("hovered index out of range");
    if (s.sel.hovered_handle >= 0) {
        if (!s.sel.selected || *s.sel.selected >= n ||
            static_cast<std::size_t>(s.sel.hovered_handle) >= handles(s.scene().shapes[*s.sel.selected].shape).size())
            mismatch("hovered handle " + std::to_string(s.sel.hovered_handle) + " does not exist");
    }
    const Camera& c = s.camera;
    if (!is_finite(c.target) || !std::isfinite(c.distance) || !(c.distance > 0.0) || !std::isfinite(c.yaw) ||
        !std::isfinite(c.pitch) || !(c.fov_y_degrees > 0.0 && c.fov_y_degrees < 180.0))
        mismatch("the camera is not finite (target " + num(c.target.x) + ", distance " + num(c.distance) + ", yaw " +
                 num(c.yaw) + ", pitch " + num(c.pitch) + ", fov " + num(c.fov_y_degrees) + ")");
    if (gesture_.kind == Kind::None && !interaction.busy()) expect_model(s, "between actions");
}

// ---- the frame -----------------------------------------------------------------------------------

void RandomEdits::frame(AppState& s, Interaction& interaction) {
    if (done_) return;
    try {
        check_invariants(s, interaction);
        if (mismatches_.size() >= kMaxMismatches) {
            done_ = true;
            return;
        }
        if (gesture_.kind != Kind::None) {
            continue_gesture(s, interaction);
        } else if (action_ >= opt_.actions) {
            // The state after the last action was checked. Last, undo everything and redo it all
            // again, every step checked; this frame is drawn too, after R (reset the camera), so
            // that --screenshot shows the final scene.
            current_ = "undo all, redo all";
            while (pos_ > 0 && mismatches_.size() < kMaxMismatches) {
                if (!undo(s)) {
                    mismatch("undo failed with " + std::to_string(pos_) + " steps left in the model");
                    break;
                }
                --pos_;
                ++undos_;
                expect_model(s, "undoing everything");
            }
            while (pos_ + 1 < model_.size() && mismatches_.size() < kMaxMismatches) {
                if (!redo(s)) {
                    mismatch("redo failed with " + std::to_string(model_.size() - 1 - pos_) + " steps left in the model");
                    break;
                }
                ++pos_;
                ++redos_;
                expect_model(s, "redoing everything");
            }
            if (undo(s) != (pos_ > 0) || redo(s) != (pos_ > 0)) mismatch("one more undo + redo at the end");
            expect_model(s, "at the end");
            interaction.cancel();
            reset_camera(s);
            done_ = true;
            return;
        } else {
            start_action(s, interaction);
        }
    } catch (const std::exception& e) {
        mismatch(std::string("exception: ") + e.what());
        gesture_ = Gesture{};
        interaction.cancel();
    }
    // The shown ray: through the synthetic cursor, or through a shape's centre (hits on degenerate
    // shapes, their markers and normals), as the Ray panel's frozen ray.
    const Vec3d eye = s.camera.eye();
    Ray<double> ray = s.camera.ray_from_pixel(uniform(0.0, s.viewport.width), uniform(0.0, s.viewport.height),
                                              s.viewport.width, s.viewport.height);
    if (!s.scene().shapes.empty() && below(2) == 0) {
        const std::size_t i = static_cast<std::size_t>(below(static_cast<int>(s.scene().shapes.size())));
        ray.origin = eye;
        ray.direction = shape_center(s.scene().shapes[i].shape) - eye;
    }
    if (is_valid(ray)) {
        s.ray.ray = ray;
        s.ray.valid = true;
        s.ray.frozen = true;
    }
}

InputState RandomEdits::input_at(const AppState& s, double x, double y) const {
    InputState in;
    in.mouse_x = x;
    in.mouse_y = y;
    in.width = s.viewport.width;
    in.height = s.viewport.height;
    return in;
}

std::optional<std::size_t> RandomEdits::random_shape(const AppState& s) {
    if (s.scene().shapes.empty()) return std::nullopt;
    return static_cast<std::size_t>(below(static_cast<int>(s.scene().shapes.size())));
}

double RandomEdits::random_value(bool for_size) {
    static constexpr double kSpecial[] = {kNaN,   kInf,  -kInf, -1.0,  -1e-300, -0.0, 0.0,  5e-324,
                                          1e-300, 1e-12, 1e12,  1e300, -1e300,  -5.0, 1e-9, 1e150};
    if (below(10) < 4) return for_size ? uniform(0.0, 2.0) : uniform(-4.0, 4.0);
    // --extreme-values: also the largest doubles, whose sums overflow (see docs/testing.md).
    if (opt_.extreme && below(8) == 0) return below(2) ? kMax : -kMax;
    return kSpecial[below(static_cast<int>(std::size(kSpecial)))];
}

void RandomEdits::start_action(AppState& s, Interaction& interaction) {
    ++action_;
    // Weights of the actions; without shapes, shape actions become adds.
    static constexpr int kWeights[] = {8, 5, 5, 6, 24, 8, 10, 3, 5, 6, 4, 2, 10, 7, 3};
    int total = 0;
    for (int w : kWeights) total += w;
    int r = below(total), k = 0;
    while (r >= kWeights[k]) r -= kWeights[k++];
    const bool empty = s.scene().shapes.empty();
    if (empty && (k == 1 || k == 2 || k == 3 || k == 4 || k == 5 || k == 6 || k == 7)) k = 0;
    bool started = true;
    switch (k) {
        case 0: act_add(s); break;
        case 1: act_duplicate(s); break;
        case 2: act_delete(s, interaction); break;
        case 3: act_rename(s); break;
        case 4: act_edit(s); break;
        case 5: started = start_drag_shape(s, false); break;
        case 6: started = start_drag_handle(s); break;
        case 7: started = start_drag_shape(s, true); break;
        case 8: start_camera(s); break;
        case 9: act_bad_file(s); break;
        case 10: act_save_reopen(s); break;
        case 11: act_open_other(s); break;
        case 12: act_undo(s, interaction, false); break;
        case 13: act_undo(s, interaction, true); break;
        default: act_view(s); break;
    }
    if (!started) start_camera(s);  // nothing to grab on screen: orbit instead
    if (gesture_.kind != Kind::None) {
        continue_gesture(s, interaction);  // its first input in this frame
    } else {
        // A hover at a random place (the picker over whatever the scene now holds).
        interaction.update(input_at(s, uniform(0.0, s.viewport.width), uniform(0.0, s.viewport.height)), s.editor,
                           s.sel, s.camera);
    }
}

// ---- one-shot actions (the panels' and menus' code paths) --------------------------------------

void RandomEdits::act_add(AppState& s) {
    current_ = "add";
    ++kinds_["add"];
    const Scene before = s.scene();
    const ShapeType type = ShapeType(below(kShapeTypeCount));
    add_and_select(s.editor, s.sel, type, s.camera.target);  // Scene panel > Add
    // The model: one new shape of the type's default parameters at the camera's target, with the
    // type's name and the first number not taken, appended and selected.
    Scene want = before;
    SceneShape added;
    added.name = unique_name(before, shape_type_name(type));
    added.shape = make_shape(type, s.camera.target);
    want.shapes.push_back(added);
    if (s.sel.selected != want.shapes.size() - 1) mismatch("add did not select the new shape");
    model_push(want);
}

void RandomEdits::act_duplicate(AppState& s) {
    current_ = "duplicate";
    ++kinds_["duplicate"];
    const std::size_t i = *random_shape(s);
    s.sel.selected = i;  // a click in the shape list, then Edit > Duplicate
    const Scene before = s.scene();
    if (!duplicate_selected(s.editor, s.sel)) {
        mismatch("duplicate of an existing shape refused");
        return;
    }
    // The model: a copy appended and selected, named "<name> copy N", moved half a unit along x and z.
    Scene want = before;
    SceneShape copy = before.shapes[i];
    copy.name = unique_name(before, before.shapes[i].name + " copy");
    copy.shape = translated(copy.shape, Vec3d(0.5, 0.0, 0.5));
    want.shapes.push_back(copy);
    if (s.sel.selected != want.shapes.size() - 1) mismatch("duplicate did not select the copy");
    model_push(want);
}

void RandomEdits::act_delete(AppState& s, const Interaction& interaction) {
    current_ = "delete";
    ++kinds_["delete"];
    const std::size_t i = *random_shape(s);
    s.sel.selected = i;  // Scene panel > Delete
    if (interaction.busy()) return;
    const Scene before = s.scene();
    if (!delete_selected(s.editor, s.sel)) {
        mismatch("delete of an existing shape refused");
        return;
    }
    if (s.sel.selected) mismatch("a shape is still selected after delete");
    // The model: the shape and the expectations about it gone, the others following their shapes.
    Scene want = before;
    delete_shape(want, i);
    if (want.shapes.size() + 1 != before.shapes.size()) mismatch("delete did not remove one shape");
    model_push(want);
}

void RandomEdits::act_rename(AppState& s) {
    current_ = "rename";
    ++kinds_["rename"];
    const std::size_t i = *random_shape(s);
    s.sel.selected = i;
    static const char* const kNames[] = {"",        " ",         "tab\there", "new\nline", "quote\" back\\slash",
                                         "\x01" "ctrl", "na\xc3\xafve \xe2\x9c\x93", "sphere 1", "box 1", "x"};
    std::string name;
    const int pick = below(static_cast<int>(std::size(kNames)) + 2);
    if (pick < static_cast<int>(std::size(kNames))) name = kNames[pick];
    else if (pick == static_cast<int>(std::size(kNames))) name = std::string(127, 'n');  // the field's limit
    else name = s.scene().shapes[static_cast<std::size_t>(below(static_cast<int>(s.scene().shapes.size())))].name;
    if (s.scene().shapes[i].name == name) return;  // the field was not changed: nothing happens
    bool taken = false;
    for (std::size_t k = 0; k < s.scene().shapes.size(); ++k)
        if (k != i && s.scene().shapes[k].name == name) taken = true;
    const bool expect_ok = !name.empty() && !taken;
    const Scene before = s.scene();
    if (s.editor.rename(i, name)) {  // Scene panel > Name, on deactivation after an edit
        Scene want = before;
        want.shapes[i].name = name;
        model_push(want);
        if (!expect_ok) mismatch("rename to '" + name + "' was accepted (empty or taken)");
    } else {
        ++refused_;
        if (expect_ok) mismatch("rename to a new non-empty name '" + name + "' was refused");
        if (!(s.scene() == before)) mismatch("a refused rename changed the scene");
    }
}

void RandomEdits::act_edit(AppState& s) {
    current_ = "edit";
    ++kinds_["edit"];
    const std::size_t i = *random_shape(s);
    s.sel.selected = i;
    Shape<double> candidate = s.scene().shapes[i].shape;
    bool expect_valid = true;
    std::string field;
    auto coordinate = [&](Vec3d& v, const char* name) {
        const int k = below(3);
        v[k] = random_value(false);
        expect_valid = std::isfinite(v[k]);
        field = std::string(name) + "." + "xyz"[k] + " = " + num(v[k]);
    };
    auto size = [&](double& v, const char* name) {
        v = random_value(true);
        expect_valid = std::isfinite(v) && v >= 0.0;
        field = std::string(name) + " = " + num(v);
    };
    std::visit(
        [&](auto& shape) {
            using S = std::decay_t<decltype(shape)>;
            if constexpr (std::is_same_v<S, Sphere<double>>) {
                if (below(2)) coordinate(shape.center, "center");
                else size(shape.radius, "radius");
            } else if constexpr (std::is_same_v<S, Aabb<double>>) {
                const bool min = below(2) == 0;
                coordinate(min ? shape.min : shape.max, min ? "min" : "max");
                expect_valid = expect_valid && shape.min.x <= shape.max.x && shape.min.y <= shape.max.y &&
                               shape.min.z <= shape.max.z;
            } else if constexpr (std::is_same_v<S, Obb<double>>) {
                const int what = below(4);
                if (what == 0) {
                    coordinate(shape.center, "center");
                } else if (what == 1) {
                    const int k = below(3);
                    size(shape.half_extents[k], "half_extents");
                } else if (what == 2) {  // Euler angles typed into the Inspector
                    Vec3d deg = euler_degrees_from_rotation(shape.rotation);
                    const int k = below(3);
                    deg[k] = below(3) == 0 ? random_value(false) : uniform(-720.0, 720.0);
                    shape.rotation = rotation_from_euler_degrees(deg);
                    expect_valid = is_finite(deg);
                    field = std::string("euler ") + "xyz"[k] + " = " + num(deg[k]);
                } else {  // a rotation matrix that is not one
                    Mat3<double> m = shape.rotation;
                    switch (below(5)) {
                        case 0: m[0] *= 1.5; field = "rotation column 0 scaled by 1.5"; break;
                        case 1: m[1] += m[0] * 0.5; field = "rotation sheared"; break;
                        case 2: m[2] = -m[2]; field = "rotation reflected (det -1)"; break;
                        case 3: m = Mat3<double>(0.0); field = "rotation zero"; break;
                        default: m[1][1] = kNaN; field = "rotation with NaN"; break;
                    }
                    shape.rotation = m;
                    expect_valid = false;
                }
            } else if constexpr (std::is_same_v<S, Capsule<double>>) {
                const int what = below(3);
                if (what == 0) coordinate(shape.a, "a");
                else if (what == 1) coordinate(shape.b, "b");
                else size(shape.radius, "radius");
            } else {  // any other type: one scalar of one of its fields, valid as the core says
                int fields = 0;
                for_each_field(shape, [&](const auto&, const auto&) { ++fields; });
                const int which = below(fields);
                int k = 0;
                for_each_field(shape, [&](const auto& f, auto& v) {
                    if (k++ != which) return;
                    auto& x = scalar_at(v, below(ScalarsOf<std::decay_t<decltype(v)>>::value));
                    x = f.role == FieldRole::Length || f.role == FieldRole::Extent ? random_value(true) : random_value(false);
                    field = std::string(f.name) + " = " + num(x);
                });
                expect_valid = is_valid(shape);
            }
        },
        candidate);
    // Ui::apply_edit, then App::update ends the gesture when no field is active: one undo step.
    if (same_shape(candidate, s.scene().shapes[i].shape)) return;
    const Scene before = s.scene();
    s.editor.begin_gesture();
    const auto err = s.editor.edit_shape(i, candidate);
    s.editor.end_gesture();
    if (err) {
        ++refused_;
        if (expect_valid) mismatch("valid edit " + field + " refused: " + *err);
        if (err->empty()) mismatch("edit " + field + " refused without a message");
        if (!(s.scene() == before)) mismatch("refused edit " + field + " changed the scene");
    } else {
        if (!expect_valid) mismatch("invalid edit " + field + " accepted");
        Scene want = before;
        want.shapes[i].shape = candidate;
        model_push(want);
    }
}

void RandomEdits::act_bad_file(AppState& s) {
    current_ = "bad file";
    ++kinds_["bad_file"];
    const std::string& path = bad_files_[static_cast<std::size_t>(below(static_cast<int>(bad_files_.size())))];
    current_ = "bad file " + fs::path(path).filename().string();
    const Scene before = s.scene();
    const std::size_t undo_before = s.editor.undo_count();
    const std::string path_before = s.scene_path;
    s.error_title.clear();
    if (open_scene(s, path)) {  // File > Open
        mismatch("the broken file " + path + " was opened");
        model_push(s.scene());
        return;
    }
    ++bad_kept_;
    if (s.error_title.empty() || s.error_message.empty()) mismatch("no message for the broken file " + path);
    if (!(s.scene() == before) || s.scene_path != path_before)
        mismatch("the scene or its path changed after failing to open " + path);
    if (s.editor.undo_count() != undo_before) mismatch("a failed open added an undo step");
}

void RandomEdits::act_save_reopen(AppState& s) {
    current_ = "save+reopen";
    ++kinds_["save_reopen"];
    const Scene before = s.scene();
    if (below(5) == 0) {  // File > Save as... a directory
        current_ = "save to a directory";
        s.error_title.clear();
        if (save_scene(s, (dir_.path() / "directory.json").string())) mismatch("saving over a directory succeeded");
        else if (s.error_title.empty()) mismatch("no message for a failed save");
        if (!(s.scene() == before)) mismatch("a failed save changed the scene");
        return;
    }
    const std::string path = (dir_.path() / "roundtrip.json").string();
    const bool expect_ok = !validate_scene(s.scene()).has_value();
    s.error_title.clear();
    const bool saved = save_scene(s, path);
    if (!(s.scene() == before)) mismatch("saving changed the scene");
    if (saved != expect_ok)
        mismatch(saved ? "a scene that validate_scene() refuses was saved" : "saving a valid scene failed: " + s.error_message);
    if (!saved) {  // validate_scene() refuses it (e.g. an expectation of a deleted shape): noted
        ++kinds_["save_refused"];
        if (notes_.size() < 5) notes_.push_back("random-edits: note: save refused at action " + std::to_string(action_) + ": " + s.error_message);
        return;
    }
    if (!open_scene(s, path)) {  // File > Open of what was just saved
        mismatch("reopening the saved file failed: " + s.error_message);
        return;
    }
    if (!(s.scene() == before)) mismatch("the saved and reopened scene differs: " + difference(s.scene(), before));
    model_push(s.scene());
}

void RandomEdits::act_open_other(AppState& s) {
    current_ = "open other";
    ++kinds_["open_other"];
    const int what = below(3);
    if (what == 0) {  // File > New empty scene
        replace_scene(s, Scene{}, "", true);
    } else if (what == 1) {  // Presets > Built-in showcase
        std::string p;
        replace_scene(s, default_scene(p), p, true);
    } else {  // Presets > a case file
        if (!s.case_files_scanned) scan_case_files(s);
        std::vector<const CaseFile*> good;
        for (const CaseFile& c : s.case_files)
            if (c.error.empty()) good.push_back(&c);
        if (good.empty()) return;
        const CaseFile& c = *good[static_cast<std::size_t>(below(static_cast<int>(good.size())))];
        current_ = "open " + c.name;
        if (!open_scene(s, c.path)) {
            mismatch("opening the case file " + c.path + " failed: " + s.error_message);
            return;
        }
    }
    model_push(s.scene());
}

void RandomEdits::act_undo(AppState& s, Interaction& interaction, bool is_redo) {
    current_ = is_redo ? "redo" : "undo";
    ++kinds_[current_];
    const int steps = below(8) == 0 ? 12 + below(30) : 1 + below(4);
    for (int k = 0; k < steps; ++k) {
        const bool expect = is_redo ? pos_ + 1 < model_.size() : pos_ > 0;
        const bool ok = is_redo ? redo(s) : undo(s);  // Ctrl+Z / Ctrl+Shift+Z
        interaction.cancel();
        if (ok != expect) mismatch(std::string(is_redo ? "redo" : "undo") + (ok ? " succeeded" : " failed") +
                                   " but the model " + (expect ? "had" : "had no") + " step");
        if (!ok) break;
        if (is_redo) {
            ++redos_;
            ++pos_;
        } else {
            ++undos_;
            if (opt_.sabotage && !sabotaged_ && pos_ > 0 && !(model_[pos_ - 1] == model_[pos_]))
                sabotaged_ = true;  // test aid: the model "forgets" this undo, so the check must fail
            else
                --pos_;
        }
        expect_model(s, is_redo ? "after redo" : "after undo");
        if (mismatches_.size() >= kMaxMismatches) break;
    }
}

void RandomEdits::act_view(AppState& s) {
    current_ = "view";
    ++kinds_["view"];
    switch (below(4)) {
        case 0: s.view.solid = !s.view.solid; break;
        case 1: s.view.show_handles = !s.view.show_handles; break;
        case 2:
            s.view.raycast.enabled = !s.view.raycast.enabled;  // Options > CPU ray-cast view
            s.view.raycast.half_resolution = true;
            s.view.raycast.shading = RaycastShading(below(4));
            s.view.raycast.placement = below(2) ? RaycastPlacement::Over : RaycastPlacement::Beside;
            break;
        default: s.view.compare.enabled.fill(!s.view.compare.enabled[0]); break;
    }
}

// ---- gestures (Interaction with a synthetic mouse) -------------------------------------------------

bool RandomEdits::start_drag_shape(AppState& s, bool undo_midway) {
    current_ = undo_midway ? "undo during a drag" : "drag shape";
    const std::size_t i = *random_shape(s);
    auto p = s.camera.project(shape_center(s.scene().shapes[i].shape), s.viewport.width, s.viewport.height);
    if (!on_screen(p, s.viewport)) {
        s.sel.selected = i;
        frame_selection(s);  // F
        p = s.camera.project(shape_center(s.scene().shapes[i].shape), s.viewport.width, s.viewport.height);
        if (!on_screen(p, s.viewport)) return false;
    }
    ++kinds_[undo_midway ? "drag_undo" : "drag"];
    Gesture g;
    g.kind = undo_midway ? Kind::DragUndo : Kind::DragShape;
    g.before = s.scene();
    g.shape = i;
    InputState press = input_at(s, p->x, p->y);
    press.left_pressed = press.left_down = true;
    g.inputs.push_back(press);
    const int axis = below(5);  // sometimes along X, Y or Z
    double x = p->x, y = p->y;
    for (int k = 0; k < 2; ++k) {
        x += uniform(-120.0, 120.0);
        y += uniform(-120.0, 120.0);
        InputState move = input_at(s, x, y);
        move.left_down = true;
        move.key_x = axis == 0;
        move.key_y = axis == 1;
        move.key_z = axis == 2;
        g.inputs.push_back(move);
    }
    if (!undo_midway) {
        InputState release = g.inputs.back();
        release.left_down = false;
        release.left_released = true;
        g.inputs.push_back(release);
    }
    gesture_ = std::move(g);
    return true;
}

bool RandomEdits::start_drag_handle(AppState& s) {
    current_ = "drag handle";
    const std::size_t i = *random_shape(s);
    s.sel.selected = i;  // a click in the shape list
    if (below(2) == 0) frame_selection(s);
    const Shape<double> shape = s.scene().shapes[i].shape;
    const std::vector<Handle> hs = handles(shape);
    const Handle h = hs[static_cast<std::size_t>(below(static_cast<int>(hs.size())))];
    const auto ph = s.camera.project(h.position, s.viewport.width, s.viewport.height);
    if (!on_screen(ph, s.viewport)) return false;
    Gesture g;
    g.kind = Kind::DragHandle;
    g.before = s.scene();
    g.shape = i;
    g.handle = h.id;
    double tx = ph->x + uniform(-100.0, 100.0), ty = ph->y + uniform(-100.0, 100.0);
    // Onto the point that makes it degenerate: zero size, a == b, radius 0, zero area (for the
    // types whose handles have one: a sphere's radius point, a capsule's ends, a box's corners, a
    // triangle's vertices).
    const bool degenerate_snap = std::holds_alternative<Sphere<double>>(shape) ||
                                 std::holds_alternative<Capsule<double>>(shape) ||
                                 std::holds_alternative<Aabb<double>>(shape) || std::holds_alternative<Obb<double>>(shape) ||
                                 std::holds_alternative<Triangle<double>>(shape);
    if (degenerate_snap && below(10) < 7) {
        Vec3d q = h.position;
        if (std::holds_alternative<Sphere<double>>(shape)) q = std::get<Sphere<double>>(shape).center;
        else if (std::holds_alternative<Capsule<double>>(shape)) q = hs[h.id == 0 ? 1 : 0].position;
        else if (std::holds_alternative<Triangle<double>>(shape)) q = hs[std::size_t((h.id + 1 + below(2)) % 3)].position;
        else {  // a box's corner
            const int other = h.id ^ (below(3) == 0 ? 7 : 1 << below(3));
            q = hs[static_cast<std::size_t>(other)].position;
            // An OBB's corner moved onto a neighbour corner is flat only up to rounding (the
            // extents are measured through the rotation); onto the opposite one it is exactly a point.
            g.exact = !(std::holds_alternative<Obb<double>>(shape) && other != (h.id ^ 7));
        }
        const auto pq = s.camera.project(q, s.viewport.width, s.viewport.height);
        if (pq && std::isfinite(pq->x) && std::isfinite(pq->y)) {
            tx = pq->x;
            ty = pq->y;
            g.snap_to = q;
        }
    }
    ++kinds_["drag_handle"];
    InputState press = input_at(s, ph->x, ph->y);
    press.left_pressed = press.left_down = true;
    g.inputs.push_back(press);
    InputState mid = input_at(s, (ph->x + tx) * 0.5 + 3.0, (ph->y + ty) * 0.5 - 2.0);
    mid.left_down = true;
    g.inputs.push_back(mid);
    InputState at = input_at(s, tx, ty);
    at.left_down = true;
    g.inputs.push_back(at);
    InputState release = at;
    release.left_down = false;
    release.left_released = true;
    g.inputs.push_back(release);
    gesture_ = std::move(g);
    return true;
}

void RandomEdits::start_camera(AppState& s) {
    current_ = "camera";
    ++kinds_["camera"];
    Gesture g;
    g.kind = Kind::Camera;
    g.before = s.scene();
    const double w = s.viewport.width, h = s.viewport.height;
    const int what = below(6);
    static const char* const kWhat[] = {"camera: F", "camera: R", "camera: wheel", "camera: orbit",
                                        "camera: Shift+right pan", "camera: middle pan"};
    current_ = kWhat[what];
    if (what == 0) {
        frame_selection(s);  // F
        return;
    }
    if (what == 1) {
        reset_camera(s);  // R
        return;
    }
    if (what == 2) {  // wheel
        InputState in = input_at(s, uniform(0.0, w), uniform(0.0, h));
        in.wheel = uniform(-4.0, 4.0);
        g.inputs.push_back(in);
    } else {  // right drag (orbit), Shift + right drag or middle drag (pan)
        double x = uniform(0.0, w), y = uniform(0.0, h);
        InputState press = input_at(s, x, y);
        if (what == 5) press.middle_pressed = press.middle_down = true;
        else press.right_pressed = press.right_down = true;
        press.shift = what == 4;
        g.inputs.push_back(press);
        for (int k = 0; k < 2; ++k) {
            x += uniform(-80.0, 80.0);
            y += uniform(-80.0, 80.0);
            InputState move = press;
            move.right_pressed = move.middle_pressed = false;
            move.mouse_x = x;
            move.mouse_y = y;
            g.inputs.push_back(move);
        }
        InputState release = g.inputs.back();
        release.right_down = release.middle_down = false;
        g.inputs.push_back(release);
    }
    gesture_ = std::move(g);
}

void RandomEdits::continue_gesture(AppState& s, Interaction& interaction) {
    if (gesture_.next < gesture_.inputs.size()) {
        InputState in = gesture_.inputs[gesture_.next++];
        in.width = s.viewport.width;  // the panels may have been toggled meanwhile
        in.height = s.viewport.height;
        interaction.update(in, s.editor, s.sel, s.camera);
        if (gesture_.next < gesture_.inputs.size()) return;
        if (gesture_.kind != Kind::DragUndo) {
            finish_gesture(s, interaction);
            return;
        }
        return;  // Ctrl+Z comes in the next frame, while the button is still down
    }
    finish_gesture(s, interaction);
}

void RandomEdits::finish_gesture(AppState& s, Interaction& interaction) {
    Gesture g = std::move(gesture_);
    gesture_ = Gesture{};
    if (g.kind == Kind::DragUndo) {
        // Ctrl+Z in the middle of a drag: the drag so far becomes a step, which is undone.
        const bool changed = s.scene() != model_[pos_];
        if (changed) model_push(s.scene());
        const bool expect = pos_ > 0;
        const bool ok = undo(s);
        interaction.cancel();
        if (ok) ++undos_;
        if (ok != expect) mismatch(std::string("undo during a drag ") + (ok ? "succeeded" : "failed") + " unexpectedly");
        if (ok) --pos_;
        expect_model(s, "after undo during a drag");
        return;
    }
    if (interaction.busy()) {
        mismatch("the gesture did not end after the button was released");
        interaction.cancel();
    }
    if (g.kind == Kind::Camera) {
        if (!(s.scene() == g.before)) mismatch("a camera gesture changed the scene");
        return;
    }
    if (s.scene().shapes.size() != g.before.shapes.size()) {
        mismatch("a drag changed the number of shapes");
    } else {
        int changed = 0;
        for (std::size_t k = 0; k < s.scene().shapes.size(); ++k) {
            if (s.scene().shapes[k].name != g.before.shapes[k].name) mismatch("a drag renamed a shape");
            if (!same_shape(s.scene().shapes[k].shape, g.before.shapes[k].shape)) ++changed;
        }
        if (changed > 1) mismatch("a drag changed " + std::to_string(changed) + " shapes");
    }
    if (g.kind == Kind::DragHandle && g.snap_to && g.shape < s.scene().shapes.size() &&
        same_shape(s.scene().shapes[g.shape].shape, move_handle(g.before.shapes[g.shape].shape, g.handle, *g.snap_to))) {
        ++snaps_;
        if (g.exact && degeneracies(s.scene().shapes[g.shape].shape).empty())
            mismatch("a handle snapped onto its opposite point but the shape is not degenerate");
    }
    if (s.scene() != model_[pos_]) model_push(s.scene());
    expect_model(s, "after the drag");
}

}  // namespace raypick::app
