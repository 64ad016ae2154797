// raypick scene model: what a scene/case file holds, in double precision (files are exact; the
// float core gets convert<float>()). Shared by the demo, the command-line caster and the tests.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "geometry/Shape.h"

namespace raypick {

struct SceneShape {
    std::string name;
    Shape<double> shape;
};

struct SceneRay {
    std::string name;
    Ray<double> ray;
    double t_min = 0.0;
    double t_max = infinity<double>();
};

struct SceneCamera {
    Vec3<double> eye{6.0, 4.0, 8.0};
    Vec3<double> target{0.0};
    double fov_y_degrees = 45.0;
};

struct Scene {
    std::vector<SceneShape> shapes;
    std::vector<SceneRay> rays;
    std::optional<SceneCamera> camera;
};

}  // namespace raypick
