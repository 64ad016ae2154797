// raypick demo: the built-in scenes — the showcase (used when no file is given and
// assets/showcase.json is absent), an empty scene and a generated N-shape scene. No GL.
#pragma once

#include <cstddef>

#include <raypick/scene/Scene.h>

namespace raypick::app {

/// One shape of each type plus the degenerate ones people should look at (a squeezed box, a
/// capsule with a == b, a zero-radius capsule).
Scene showcase_scene();

/// `count` shapes of every type, sizes and rotations varied, spread in 3D — a double helix, towers
/// around it and floating clusters — deterministic (a fixed seed). For the large-scene demo and
/// benchmarks (--shapes N), with a camera that shows it.
Scene generated_scene(std::size_t count);

}  // namespace raypick::app
