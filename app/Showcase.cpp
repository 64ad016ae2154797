#include "app/Showcase.h"

#include <cmath>
#include <string>

#include "app/SceneEdit.h"
#include <raypick/scene/Euler.h>

namespace raypick::app {

namespace {
void add(Scene& s, const std::string& name, const Shape<double>& shape) {
    SceneShape x;
    x.name = name;
    x.shape = shape;
    s.shapes.push_back(std::move(x));
}
}  // namespace

Scene showcase_scene() {
    Scene s;
    Sphere<double> sphere;
    sphere.center = {-3.0, 1.0, 0.0};
    sphere.radius = 1.0;
    add(s, "sphere", sphere);

    Aabb<double> box;
    box.min = {-0.75, 0.0, -0.75};
    box.max = {0.75, 1.5, 0.75};
    add(s, "box", box);

    Obb<double> obb;
    obb.center = {3.0, 1.0, 0.0};
    obb.rotation = rotation_from_euler_degrees({20.0, 35.0, 10.0});
    obb.half_extents = {1.0, 0.6, 0.4};
    add(s, "oriented box", obb);

    Capsule<double> cap;
    cap.a = {-1.5, 0.6, 3.0};
    cap.b = {1.5, 1.4, 3.0};
    cap.radius = 0.5;
    add(s, "capsule", cap);

    Aabb<double> flat;
    flat.min = {-3.5, 0.0, -3.5};
    flat.max = {-2.5, 1.0, -3.5};
    add(s, "flat box (z)", flat);

    Capsule<double> ball;
    ball.a = ball.b = {3.0, 0.7, 3.0};
    ball.radius = 0.7;
    add(s, "capsule a == b", ball);

    Capsule<double> segment;
    segment.a = {1.0, 0.2, -3.0};
    segment.b = {3.5, 1.8, -3.0};
    segment.radius = 0.0;
    add(s, "capsule radius 0", segment);

    SceneCamera cam;
    cam.eye = {7.0, 6.0, 10.0};
    cam.target = {0.0, 0.8, 0.0};
    s.camera = cam;
    return s;
}

Scene generated_scene(std::size_t count) {
    Scene s;
    s.shapes.reserve(count);
    const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(count))));
    const double spacing = 3.0;
    const double offset = (side - 1) * spacing * 0.5;
    for (std::size_t i = 0; i < count; ++i) {
        const int gx = static_cast<int>(i) % side, gz = static_cast<int>(i) / side;
        const Vec3d at(gx * spacing - offset, 1.0 + 0.5 * std::sin(0.7 * i), gz * spacing - offset);
        const auto type = static_cast<ShapeType>(i % kShapeTypeCount);
        SceneShape x;
        x.name = std::string(shape_type_name(type)) + " " + std::to_string(i);
        x.shape = make_shape(type, at);
        if (type == ShapeType::Obb) {
            auto& b = std::get<Obb<double>>(x.shape);
            b.rotation = rotation_from_euler_degrees({13.0 * i, 29.0 * i, 7.0 * i});
        }
        s.shapes.push_back(std::move(x));
    }
    return s;  // no camera: the demo frames the whole grid
}

}  // namespace raypick::app
