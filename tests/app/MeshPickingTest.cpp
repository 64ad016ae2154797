// Picking over shapes and mesh instances together (the demo's hover and click) against brute force,
// and instance edits through the command layer: refits, undo and redo, duplicate and delete.
#include <gtest/gtest.h>

#include <random>

#include "app/MeshPicking.h"
#include <raypick/scene/ModelGenerators.h>

using namespace raypick;
using namespace raypick::app;

namespace {

/// Spheres and boxes mixed with instances of an icosphere and a torus (one mirrored, one rotated
/// and scaled non-uniformly), all within a few units of the origin.
Scene mixed_scene() {
    Scene s;
    for (int k = 0; k < 6; ++k) {
        SceneShape sh;
        sh.name = "shape " + std::to_string(k);
        const Vec3<double> c(-4.0 + 1.6 * k, (k % 2) ? 1.0 : -1.0, (k % 3) - 1.0);
        if (k % 2) sh.shape = Sphere<double>{c, 0.6};
        else sh.shape = Aabb<double>{c - Vec3<double>(0.5), c + Vec3<double>(0.5)};
        s.shapes.push_back(sh);
    }
    s.meshes.push_back({"ball", "", make_icosphere(2, 0.8), ""});
    s.meshes.push_back({"ring", "", make_torus(1.0, 0.3, 24, 12), ""});
    const auto add = [&](const char* name, std::size_t mesh, Vec3<double> at, Vec3<double> euler, Vec3<double> scale) {
        SceneInstance i;
        i.name = name;
        i.mesh = mesh;
        i.translation = at;
        i.euler_degrees = euler;
        i.scale = scale;
        s.instances.push_back(i);
    };
    add("ball a", 0, {0, 0, 2}, {0, 0, 0}, {1, 1, 1});
    add("ball mirrored", 0, {2, 0.5, -2}, {10, 20, 30}, {-1, 1.5, 1});
    add("ring", 1, {-2, 0, 0}, {90, 0, 0}, {1.2, 1, 0.7});
    add("ring 2", 1, {1, -1, 1}, {0, 45, 0}, {1, 1, 1});
    return s;
}

/// An icosphere "ball" (unit radius) at the origin and a box "wall" across +z, z in [3, 3.5].
Scene ball_behind_wall() {
    Scene s;
    s.meshes.push_back({"ball", "", make_icosphere(2, 1.0), ""});
    SceneInstance inst;
    inst.name = "ball";
    s.instances.push_back(inst);
    SceneShape wall;
    wall.name = "wall";
    wall.shape = Aabb<double>{Vec3<double>(-2, -2, 3), Vec3<double>(2, 2, 3.5)};
    s.shapes.push_back(wall);
    return s;
}

/// A ray from a random point on a sphere of radius 9 towards a random point near the origin.
Ray<double> random_ray(std::mt19937& rng) {
    std::uniform_real_distribution<double> u(-1.0, 1.0), near(-4.0, 4.0);
    Vec3<double> o;
    do o = Vec3<double>(u(rng), u(rng), u(rng));
    while (glm::length(o) < 0.1 || glm::length(o) > 1.0);
    o = 9.0 * glm::normalize(o);
    const Vec3<double> target(near(rng), near(rng) * 0.5, near(rng));
    return {o, glm::normalize(target - o)};
}

/// Whether pick_scene() over the editor gives exactly the brute-force answer for `rays` random rays;
/// counts the shape and instance hits into `shapes` and `instances`.
void expect_same_picks(ScenePicker& sp, InstancePicker& ip, const SceneEditor& editor, std::mt19937& rng, int rays,
                       int& shapes, int& instances) {
    for (int r = 0; r < rays; ++r) {
        const Ray<double> ray = random_ray(rng);
        const auto got = pick_scene(sp, ip, editor, ray);
        const auto want = pick_scene_nearest(editor.scene(), ray);
        ASSERT_EQ(got.has_value(), want.has_value()) << "ray " << r;
        if (!got) continue;
        EXPECT_EQ(got->shape, want->shape) << "ray " << r;
        EXPECT_EQ(got->instance, want->instance) << "ray " << r;
        EXPECT_EQ(got->t, want->t) << "ray " << r;
        if (got->mesh) {
            ASSERT_TRUE(want->mesh.has_value());
            EXPECT_EQ(got->mesh->instance, want->mesh->instance);
            EXPECT_EQ(got->mesh->hit.triangle, want->mesh->hit.triangle);
            ++instances;
        } else {
            ++shapes;
        }
    }
}

}  // namespace

TEST(MeshPicking, ShapesAndInstancesMatchBruteForce) {
    SceneEditor editor(mixed_scene());
    ScenePicker sp;
    InstancePicker ip;
    std::mt19937 rng(7);
    int shapes = 0, instances = 0;
    expect_same_picks(sp, ip, editor, rng, 3000, shapes, instances);
    // The scene is mixed enough that both kinds win often.
    EXPECT_GT(shapes, 100);
    EXPECT_GT(instances, 100);
}

TEST(MeshPicking, NearerShapeHidesInstanceAndBack) {
    SceneEditor editor(ball_behind_wall());
    ScenePicker sp;
    InstancePicker ip;
    const Ray<double> from_front{{0, 0, 10}, {0, 0, -1}};
    const Ray<double> from_back{{0, 0, -10}, {0, 0, 1}};
    const auto a = pick_scene(sp, ip, editor, from_front);
    ASSERT_TRUE(a && a->shape);
    EXPECT_EQ(*a->shape, 0u);
    EXPECT_DOUBLE_EQ(a->t, 10.0 - 3.5);
    const auto b = pick_scene(sp, ip, editor, from_back);
    ASSERT_TRUE(b && b->instance && b->mesh);
    EXPECT_EQ(*b->instance, 0u);
    EXPECT_NEAR(b->t, 9.0, 0.05);  // the icosphere is inscribed in the unit sphere
    EXPECT_TRUE(b->mesh->hit.front);
}

TEST(MeshPicking, ReadoutsNameTheNearerOfShapeAndMesh) {
    SceneEditor editor(ball_behind_wall());
    InstancePicker ip;
    const auto readout = [&](const Ray<double>& ray, PickResult& shapes) {
        shapes = cast_all(editor.scene(), ray, CompareOptions{});
        const double shape_t = shapes.nearest ? shapes.shapes[*shapes.nearest].surface->t : infinity<double>();
        return triangle_readout(ip, editor, ray, shape_t);
    };
    // From the back only the ball is hit: it is what the ray picks, and the report says where.
    PickResult back;
    const auto behind = readout({{0, 0, -10}, {0, 0, 1}}, back);
    ASSERT_TRUE(behind);
    EXPECT_FALSE(behind->hidden);
    const auto picked = picked_name(editor.scene(), back, &*behind);
    ASSERT_TRUE(picked);
    EXPECT_EQ(picked->name, "ball (mesh, triangle " + std::to_string(behind->hit.hit.triangle) + ")");
    EXPECT_EQ(picked->t, behind->hit.hit.t);
    const std::string text = format_result(editor.scene(), back, false, &*behind);
    EXPECT_NE(text.find("picked: " + picked->name + " at t " + full(picked->t)), std::string::npos) << text;
    EXPECT_NE(text.find("[mesh] ball: triangle " + std::to_string(behind->hit.hit.triangle) + "\n"), std::string::npos);
    EXPECT_NE(text.find("barycentric " + full(behind->hit.hit.barycentric) + ", front face"), std::string::npos);
    EXPECT_NE(text.find("face normal " + full(behind->hit.hit.normal)), std::string::npos);
    // From the front the wall is nearer: it is picked, and the ball's triangle is reported behind it.
    PickResult front;
    const auto hidden = readout({{0, 0, 10}, {0, 0, -1}}, front);
    ASSERT_TRUE(hidden);
    EXPECT_TRUE(hidden->hidden);
    const auto wall_picked = picked_name(editor.scene(), front, &*hidden);
    ASSERT_TRUE(wall_picked);
    EXPECT_EQ(wall_picked->name, "wall");
    EXPECT_EQ(wall_picked->t, 10.0 - 3.5);
    EXPECT_NE(format_result(editor.scene(), front, false, &*hidden).find("(behind the picked shape)"), std::string::npos);
    // A ray that misses both picks nothing.
    PickResult none;
    const auto missed = readout({{5, 5, 10}, {0, 0, -1}}, none);
    EXPECT_FALSE(missed);
    EXPECT_FALSE(picked_name(editor.scene(), none, nullptr));
    EXPECT_NE(format_result(editor.scene(), none, false).find("picked: none\n"), std::string::npos);
}

TEST(MeshPicking, MovesRefitAndFollowUndoRedo) {
    SceneEditor editor(mixed_scene());
    ScenePicker sp;
    InstancePicker ip;
    std::mt19937 rng(11);
    int shapes = 0, instances = 0;
    expect_same_picks(sp, ip, editor, rng, 200, shapes, instances);
    ASSERT_EQ(ip.rebuilds(), 1u);

    // A drag: many moves in one gesture, each refitting, none rebuilding.
    editor.begin_gesture();
    for (int step = 1; step <= 5; ++step) {
        SceneInstance moved = editor.scene().instances[1];
        moved.translation += Vec3<double>(-0.4, 0.1, 0.3);
        ASSERT_FALSE(editor.edit_instance(1, moved).has_value());
        expect_same_picks(sp, ip, editor, rng, 100, shapes, instances);
    }
    EXPECT_TRUE(editor.end_gesture());
    EXPECT_EQ(ip.rebuilds(), 1u);
    EXPECT_EQ(ip.refits(), 5u);

    // Rotation, mirror and scale through the Inspector's path; then undo and redo them.
    SceneInstance turned = editor.scene().instances[2];
    turned.euler_degrees = {30, -60, 15};
    turned.scale = {-0.8, 1.3, 2.0};
    ASSERT_FALSE(editor.edit_instance(2, turned).has_value());
    expect_same_picks(sp, ip, editor, rng, 300, shapes, instances);
    const Scene after = editor.scene();
    ASSERT_TRUE(editor.undo());
    EXPECT_EQ(editor.scene().instances[2], mixed_scene().instances[2]);
    expect_same_picks(sp, ip, editor, rng, 300, shapes, instances);
    ASSERT_TRUE(editor.undo());  // the whole drag in one step
    EXPECT_EQ(editor.scene(), mixed_scene());
    expect_same_picks(sp, ip, editor, rng, 300, shapes, instances);
    ASSERT_TRUE(editor.redo());
    ASSERT_TRUE(editor.redo());
    EXPECT_EQ(editor.scene(), after);
    expect_same_picks(sp, ip, editor, rng, 300, shapes, instances);
    EXPECT_EQ(ip.rebuilds(), 1u);
}

TEST(MeshPicking, DuplicateAndDeleteRebuild) {
    SceneEditor editor(mixed_scene());
    Selection sel;
    ScenePicker sp;
    InstancePicker ip;
    std::mt19937 rng(3);
    int shapes = 0, instances = 0;

    sel.select_instance(2);
    ASSERT_TRUE(duplicate_selected(editor, sel));
    ASSERT_EQ(editor.scene().instances.size(), 5u);
    EXPECT_EQ(sel.selected_instance, std::optional<std::size_t>(4));
    EXPECT_FALSE(sel.selected.has_value());
    const SceneInstance& copy = editor.scene().instances[4];
    EXPECT_EQ(copy.name, "ring copy 1");
    EXPECT_EQ(copy.mesh, 1u);
    EXPECT_EQ(copy.translation, editor.scene().instances[2].translation + kDuplicateOffset);
    expect_same_picks(sp, ip, editor, rng, 300, shapes, instances);

    sel.select_instance(0);
    ASSERT_TRUE(delete_selected(editor, sel));
    EXPECT_FALSE(sel.selected_instance.has_value());
    ASSERT_EQ(editor.scene().instances.size(), 4u);
    EXPECT_EQ(editor.scene().instances[0].name, "ball mirrored");
    expect_same_picks(sp, ip, editor, rng, 300, shapes, instances);

    ASSERT_TRUE(editor.undo());
    ASSERT_TRUE(editor.undo());
    EXPECT_EQ(editor.scene(), mixed_scene());
    expect_same_picks(sp, ip, editor, rng, 300, shapes, instances);
    EXPECT_EQ(ip.rebuilds(), 3u);  // the first pick (after the duplicate), the delete, the two undos seen together
}

TEST(MeshPicking, InvalidInstanceEditsAreRefused) {
    SceneEditor editor(mixed_scene());
    const std::uint64_t v = editor.version();
    SceneInstance flat = editor.scene().instances[0];
    flat.scale = {1, 0, 1};
    const auto err = editor.edit_instance(0, flat);
    ASSERT_TRUE(err.has_value());
    EXPECT_NE(err->find("scale"), std::string::npos);
    SceneInstance far = editor.scene().instances[0];
    far.translation.x = infinity<double>();
    EXPECT_TRUE(editor.edit_instance(0, far).has_value());
    EXPECT_FALSE(editor.edit_instance(9, editor.scene().instances[0]) == std::nullopt);
    EXPECT_EQ(editor.version(), v);
    EXPECT_EQ(editor.scene(), mixed_scene());
    EXPECT_FALSE(editor.can_undo());
}

TEST(MeshPicking, ChangeSetsNameMovedInstances) {
    SceneEditor editor(mixed_scene());
    const std::uint64_t v0 = editor.version();
    SceneInstance moved = editor.scene().instances[3];
    moved.translation.y += 1.0;
    ASSERT_FALSE(editor.edit_instance(3, moved).has_value());
    const ChangeSet c = editor.changes_since(v0);
    EXPECT_EQ(c.instances_modified, std::vector<std::size_t>{3});
    EXPECT_FALSE(c.instance_structure);
    EXPECT_FALSE(c.structure);
    EXPECT_TRUE(c.modified.empty());
    ASSERT_TRUE(editor.remove_instance(3));
    EXPECT_TRUE(editor.changes_since(v0).instance_structure);
}

TEST(MeshPicking, InstanceBoundsCoverEveryPlacement) {
    const Scene s = mixed_scene();
    const auto b = instance_bounds(s, 0);
    ASSERT_TRUE(b.has_value());
    EXPECT_NEAR(b->min.z, 2.0 - 0.8, 0.05);
    EXPECT_NEAR(b->max.z, 2.0 + 0.8, 0.05);
    EXPECT_FALSE(instance_bounds(s, 17).has_value());
}

// ---- model files opened as scenes ----------------------------------------------------------------

#include <filesystem>
#include <fstream>

#include "app/AppState.h"

namespace {

/// A fresh folder for this test's files.
std::filesystem::path test_dir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    const auto dir = std::filesystem::temp_directory_path() / ("raypick_meshpicking_" + std::string(info->name()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

}  // namespace

TEST(MeshPicking, AModelFileOpensAsOneMeshAndOneIdentityInstance) {
    const auto dir = test_dir();
    const std::string path = (dir / "ring.glb").string();
    const Model torus = make_torus(1.0, 0.3, 24, 12);
    ASSERT_FALSE(save_model_file(path, torus).has_value());

    AppState s;
    s.editor.reset(mixed_scene());
    ASSERT_TRUE(open_scene(s, path)) << s.error_message;
    const Scene& scene = s.scene();
    EXPECT_TRUE(scene.shapes.empty());
    ASSERT_EQ(scene.meshes.size(), 1u);
    ASSERT_EQ(scene.instances.size(), 1u);
    EXPECT_EQ(scene.meshes[0].name, "ring");
    EXPECT_EQ(std::filesystem::path(scene.meshes[0].file), std::filesystem::absolute(path).lexically_normal());
    EXPECT_EQ(scene.meshes[0].model.meshes.size(), torus.meshes.size());
    EXPECT_EQ(scene.meshes[0].model.meshes[0].triangles, torus.meshes[0].triangles);
    EXPECT_EQ(scene.instances[0], (SceneInstance{"ring", 0, Vec3<double>(0.0), Vec3<double>(0.0), Vec3<double>(1.0), ""}));
    // Saving must not write scene JSON over the model: the scene has no path of its own.
    EXPECT_TRUE(s.scene_path.empty());
    EXPECT_EQ(scene_title(s), "(unsaved scene from " + path + ")");
    // Framed: the camera looks at the torus's centre and sees all of it.
    const Aabb<double> b = scene_bounds(scene);
    EXPECT_NEAR(b.max.x, 1.3, 1e-3);
    EXPECT_NEAR(s.camera.target.x, 0.0, 1e-9);
    // One undo step back to the scene before.
    ASSERT_TRUE(undo(s));
    EXPECT_EQ(s.scene(), mixed_scene());
}

TEST(MeshPicking, ABrokenModelFileKeepsTheSceneAndSaysWhy) {
    const auto dir = test_dir();
    const std::string path = (dir / "broken.obj").string();
    std::ofstream(path) << "v 0 0 0\nv 1 0 0\nf 1 2 7\n";
    const auto loaded = load_model(path);
    ASSERT_TRUE(std::holds_alternative<ModelLoadError>(loaded));
    const std::string why = std::get<ModelLoadError>(loaded).what();

    AppState s;
    s.editor.reset(mixed_scene());
    const std::uint64_t v = s.editor.version();
    EXPECT_FALSE(open_scene(s, path));
    EXPECT_EQ(s.editor.version(), v);
    EXPECT_EQ(s.scene(), mixed_scene());
    EXPECT_NE(s.error_message.find(why), std::string::npos) << s.error_message;
    EXPECT_FALSE(s.error_title.empty());
}
