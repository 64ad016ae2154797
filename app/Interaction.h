// raypick demo: mouse interaction — hover, click to pick, camera gestures, dragging shapes and
// their handles (with X/Y/Z axis constraints). No GL, no ImGui: it reads a plain InputState.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/Camera.h"
#include "app/Commands.h"
#include "app/MeshPicking.h"
#include "app/Picking.h"
#include "app/SceneEdit.h"

namespace raypick::app {

/// One frame of input, in window coordinates.
struct InputState {
    double mouse_x = 0.0, mouse_y = 0.0;
    double width = 1.0, height = 1.0;  ///< window size
    bool left_down = false, left_pressed = false, left_released = false;
    bool right_down = false, right_pressed = false;
    bool middle_down = false, middle_pressed = false;
    double wheel = 0.0;
    bool shift = false;
    bool key_x = false, key_y = false, key_z = false;  ///< held: constrain a drag to that axis
    bool ui_wants_mouse = false;                       ///< ImGui owns the mouse this frame
};

class Interaction {
public:
    /// Processes one frame. Hover and click pick the nearest shape or mesh instance; a drag of a
    /// shape, a handle or an instance is a gesture of `editor` (one undo step); the hover pick's
    /// hierarchies follow the editor's changes.
    void update(const InputState& in, SceneEditor& editor, Selection& sel, Camera& camera);

    bool dragging() const { return mode_ == Mode::DragShape || mode_ == Mode::DragHandle || mode_ == Mode::DragInstance; }
    bool busy() const { return mode_ != Mode::Idle; }
    /// What the current gesture does ("" when idle), for the status line.
    std::string status(const Scene& scene) const;
    /// Cancels a gesture (e.g. when the scene is replaced).
    void cancel() { mode_ = Mode::Idle; }

    /// The hierarchy behind hover and click picks (its last pick time is shown in Stats).
    const ScenePicker& picker() const { return picker_; }
    /// The same hierarchy, for the mouse ray's every-hit cast (App::cast_ray): one tree, synced once.
    ScenePicker& picker() { return picker_; }

    /// The instances' hierarchy behind hover and click picks, for the mouse ray's instance hit.
    InstancePicker& instance_picker() { return instances_; }
    const InstancePicker& instance_picker() const { return instances_; }
    /// Pixel radius within which a handle is grabbed.
    static constexpr double kHandlePickRadius = 9.0;

private:
    enum class Mode { Idle, PressedEmpty, Orbit, Pan, DragShape, DragHandle, DragInstance };
    enum class Axis { Free, X, Y, Z };

    Vec3d drag_target(const Ray<double>& ray, Axis axis) const;

    Mode mode_ = Mode::Idle;
    double press_x_ = 0.0, press_y_ = 0.0, last_x_ = 0.0, last_y_ = 0.0;
    std::size_t target_ = 0;
    int handle_ = -1;
    Vec3d grab_{0.0};
    Vec3d plane_normal_{0.0, 0.0, 1.0};
    Vec3d last_point_{0.0};
    Shape<double> start_shape_;
    SceneInstance start_instance_;
    Axis axis_ = Axis::Free;
    ScenePicker picker_;
    InstancePicker instances_;
};

/// Points a dragged handle snaps to: the shape's other handles, and a sphere's centre (radius 0).
std::vector<Vec3d> snap_targets(const Shape<double>& shape, int dragged_handle);

/// Closest point to `ray` on the line through `p` along `axis` (p itself if they are parallel).
Vec3d closest_on_line(const Ray<double>& ray, const Vec3d& p, const Vec3d& axis);
/// Where `ray` meets the plane through `p` with normal `n`, if it does (t >= 0).
std::optional<Vec3d> hit_plane(const Ray<double>& ray, const Vec3d& p, const Vec3d& n);

}  // namespace raypick::app
