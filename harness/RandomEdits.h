// raypick harness: the random-edit driver (`raypick_harness --random-edits N [--seed S]`). Every
// frame it performs
// one step of a random action through the same commands the panels, menus and mouse use
// (app/Commands.h: add, duplicate, delete, rename, Inspector edits through edit_shape, drags of
// shapes and handles through Interaction with a synthetic InputState, File > Open of broken files,
// save and reopen, undo and redo), and checks the app against its own model: the stack of scenes
// undo must restore, worked out independently for the one-shot edits.
// No GL: the frame loop reports glGetError() to note_gl_error().
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "app/AppState.h"
#include "app/FrameDriver.h"
#include "app/Interaction.h"

namespace raypick::app {

struct RandomEditsOptions {
    int actions = 0;             ///< how many random actions
    std::uint64_t seed = 1;
    bool sabotage = false;       ///< test aid: the model skips one undo, so the checker must fail
    bool extreme = false;        ///< also type +-DBL_MAX into fields (finite, valid, sums overflow)
};

/// A scene file wrong in one way the loader must refuse.
struct BrokenFile {
    std::string name;
    std::string text;
};
/// The broken files File > Open is tried with (syntax, NaN, negative radius, overflow, skewed and
/// left-handed OBB axes, an infinite Euler angle, duplicate names, wrong types, binary, deep nesting, ...).
std::vector<BrokenFile> broken_scene_files();

/// A temporary directory, removed with everything in it when the owner goes.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

class RandomEdits : public FrameDriver {
public:
    /// Writes the broken files and records `s.scene()` as the model's first state.
    RandomEdits(const RandomEditsOptions& options, AppState& s);

    /// One frame, called instead of the real mouse input: checks the invariants of the state the
    /// previous frame left, then performs the next step of the current action (or starts one).
    void frame(AppState& s, Interaction& interaction);
    // FrameDriver: every frame's interaction is frame()'s.
    bool replaces_mouse() const override { return true; }
    void interact(AppState& s, Interaction& interaction) override { frame(s, interaction); }
    /// The GL error flag after the frame was drawn (GL_NO_ERROR = 0).
    void note_gl_error(unsigned error);

    /// All actions done and the last frame checked (or stopped after too many mismatches).
    bool done() const { return done_; }
    /// "random-edits: N actions, U undos, R redos, F refused edits, B bad files kept, M mismatches" and a
    /// second line with the count of every action kind.
    std::string summary() const;
    const std::vector<std::string>& mismatches() const { return mismatches_; }
    int exit_code() const { return mismatches_.empty() ? 0 : 1; }

    static constexpr std::size_t kMaxMismatches = 20;

private:
    enum class Kind { None, DragShape, DragHandle, DragUndo, Camera };
    /// A gesture spread over frames: one synthetic input per frame.
    struct Gesture {
        Kind kind = Kind::None;
        std::vector<InputState> inputs;
        std::size_t next = 0;
        Scene before;
        std::size_t shape = 0;
        int handle = -1;
        std::optional<Vec3d> snap_to;  ///< a handle drag aimed at this snap target
        bool exact = true;  ///< the snap must give an exactly degenerate shape (not an OBB's neighbour corner)
    };

    void check_invariants(const AppState& s, const Interaction& interaction);
    void start_action(AppState& s, Interaction& interaction);
    void continue_gesture(AppState& s, Interaction& interaction);
    void finish_gesture(AppState& s, Interaction& interaction);

    void act_add(AppState& s);
    void act_duplicate(AppState& s);
    void act_delete(AppState& s, const Interaction& interaction);
    void act_rename(AppState& s);
    void act_edit(AppState& s);
    void act_bad_file(AppState& s);
    void act_save_reopen(AppState& s);
    void act_open_other(AppState& s);
    void act_undo(AppState& s, Interaction& interaction, bool is_redo);
    void act_view(AppState& s);
    bool start_drag_shape(AppState& s, bool undo_midway);
    bool start_drag_handle(AppState& s);
    void start_camera(AppState& s);

    /// After an edit that the app recorded as one undo step.
    void model_push(const Scene& scene);
    /// The scene must be the model's current one.
    void expect_model(const AppState& s, const char* what);
    void mismatch(const std::string& what);
    InputState input_at(const AppState& s, double x, double y) const;
    std::optional<std::size_t> random_shape(const AppState& s);
    double random_value(bool for_size);
    double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }
    int below(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

    RandomEditsOptions opt_;
    std::mt19937_64 rng_;
    TempDir dir_;
    std::vector<std::string> bad_files_;
    std::deque<Scene> model_;  ///< model_[pos_] is the current scene; before it, what undo restores
    std::size_t pos_ = 0;
    Gesture gesture_;
    int action_ = 0;    ///< actions started
    std::string current_ = "start";  ///< the current action, for mismatch lines
    bool finishing_ = false, done_ = false;
    bool sabotaged_ = false;
    std::size_t undos_ = 0, redos_ = 0, refused_ = 0, bad_kept_ = 0, snaps_ = 0;
    std::map<std::string, int> kinds_;
    std::vector<std::string> mismatches_;
    std::vector<std::string> notes_;  ///< not failures: things worth a look (a refused save)
};

}  // namespace raypick::app
