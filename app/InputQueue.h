// raypick demo: the window's input events, queued and handed to ImGui a frame at a time. ImGui 1.86
// reads a key as held or not once per frame (io.KeysDown, set by the GLFW backend's key callback):
// a key pressed and released between two frames — a quick tap, or keys sent together — would never
// be seen down. The queue hands on a frame's events in order up to the first one that would undo,
// in the same frame, a press or release already handed on (a key's or a mouse button's); the rest
// wait for the next frame. No GLFW here: the demo's loop (app/DemoLoop.cpp) fills and drains it.
#pragma once

#include <cstddef>
#include <deque>
#include <vector>

namespace raypick::app {

/// One window event as GLFW reports it (actions: GLFW_RELEASE 0, GLFW_PRESS 1, GLFW_REPEAT 2).
struct InputEvent {
    enum class Kind { Key, Char, MouseButton, Scroll, CursorEnter, Focus };
    static constexpr int kRelease = 0, kPress = 1, kRepeat = 2;
    Kind kind = Kind::Key;
    int code = 0;      ///< Key: the key; MouseButton: the button; Char: the code point; CursorEnter, Focus: 0 or 1
    int scancode = 0;  ///< Key
    int action = 0;    ///< Key, MouseButton
    int mods = 0;      ///< Key, MouseButton
    double x = 0.0, y = 0.0;  ///< Scroll
};

class InputQueue {
public:
    void push(const InputEvent& e) { pending_.push_back(e); }
    /// This frame's events, in order: every pending event up to (not including) the first press or
    /// release of a key or mouse button whose state an earlier event of this frame already changed.
    /// The rest stay queued for the next frame.
    std::vector<InputEvent> take_frame();
    bool empty() const { return pending_.empty(); }
    std::size_t size() const { return pending_.size(); }

private:
    std::deque<InputEvent> pending_;
};

}  // namespace raypick::app
