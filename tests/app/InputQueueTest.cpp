// The window's input events handed on a frame at a time: a key pressed and released between two
// frames is seen down for a frame (ImGui 1.86 reads keys once a frame), in the order they came.
#include <gtest/gtest.h>

#include <vector>

#include "app/InputQueue.h"

using namespace raypick::app;

namespace {
InputEvent key(int code, int action) {
    InputEvent e;
    e.kind = InputEvent::Kind::Key;
    e.code = code;
    e.action = action;
    return e;
}
InputEvent button(int code, int action) {
    InputEvent e = key(code, action);
    e.kind = InputEvent::Kind::MouseButton;
    return e;
}
InputEvent chr(int c) {
    InputEvent e;
    e.kind = InputEvent::Kind::Char;
    e.code = c;
    return e;
}
constexpr int P = InputEvent::kPress, R = InputEvent::kRelease;
constexpr int kCtrl = 341, kShift = 340, kZ = 90, kEnter = 257;

std::vector<int> codes(const std::vector<InputEvent>& events) {
    std::vector<int> out;
    for (const InputEvent& e : events) out.push_back(e.action == R ? -e.code : e.code);
    return out;
}
}  // namespace

TEST(InputQueue, AQuickCtrlShiftZIsDownForAFrameThenUp) {
    // All six events arrive between two frames (a tap shorter than a frame).
    InputQueue q;
    for (const InputEvent& e : {key(kCtrl, P), key(kShift, P), key(kZ, P), key(kZ, R), key(kShift, R), key(kCtrl, R)})
        q.push(e);
    EXPECT_EQ(codes(q.take_frame()), (std::vector<int>{kCtrl, kShift, kZ})) << "frame 1: all three down";
    EXPECT_EQ(codes(q.take_frame()), (std::vector<int>{-kZ, -kShift, -kCtrl})) << "frame 2: released";
    EXPECT_TRUE(q.empty());
    EXPECT_TRUE(q.take_frame().empty());
}

TEST(InputQueue, EventsKeepTheirOrderAndTypedTextStaysWithItsKeys) {
    InputQueue q;
    // "1", Enter typed faster than the frames: '1' down and its character, then Enter waits for
    // the frame after '1' is released.
    for (const InputEvent& e : {key(49, P), chr('1'), key(49, R), key(kEnter, P), key(kEnter, R)}) q.push(e);
    const std::vector<InputEvent> first = q.take_frame();
    ASSERT_EQ(first.size(), 2u);
    EXPECT_EQ(first[1].kind, InputEvent::Kind::Char);
    EXPECT_EQ(codes(q.take_frame()), (std::vector<int>{-49, kEnter}));
    EXPECT_EQ(codes(q.take_frame()), (std::vector<int>{-kEnter}));
    EXPECT_TRUE(q.empty());
}

TEST(InputQueue, AQuickClickIsPressedInOneFrameAndReleasedInTheNext) {
    InputQueue q;
    q.push(button(0, P));
    q.push(button(0, R));
    q.push(button(0, P));  // a double click inside one frame: four frames
    q.push(button(0, R));
    for (const int expected : {0, 0, 0, 0}) {
        const std::vector<InputEvent> f = q.take_frame();
        ASSERT_EQ(f.size(), 1u);
        EXPECT_EQ(f[0].code, expected);
    }
    EXPECT_TRUE(q.empty());
    // Different keys and buttons do not wait for each other; key repeats never split a frame.
    q.push(key(kZ, P));
    q.push(button(0, P));
    q.push(key(kZ, InputEvent::kRepeat));
    q.push(key(kEnter, P));
    EXPECT_EQ(q.take_frame().size(), 4u);
}
