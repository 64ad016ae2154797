#include "app/InputQueue.h"

#include <algorithm>
#include <utility>

namespace raypick::app {

std::vector<InputEvent> InputQueue::take_frame() {
    std::vector<InputEvent> out;
    std::vector<std::pair<InputEvent::Kind, int>> changed;  // keys and buttons pressed or released this frame
    while (!pending_.empty()) {
        const InputEvent& e = pending_.front();
        const bool toggles = (e.kind == InputEvent::Kind::Key || e.kind == InputEvent::Kind::MouseButton) &&
                             (e.action == InputEvent::kPress || e.action == InputEvent::kRelease);
        if (toggles) {
            const std::pair<InputEvent::Kind, int> id{e.kind, e.code};
            if (std::find(changed.begin(), changed.end(), id) != changed.end()) break;  // next frame
            changed.push_back(id);
        }
        out.push_back(e);
        pending_.pop_front();
    }
    return out;
}

}  // namespace raypick::app
