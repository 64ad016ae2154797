#include "app/History.h"

#include <utility>

namespace raypick::app {

void History::record(Command command) {
    command.serial = next_serial_++;
    undo_.push_back(std::move(command));
    while (undo_.size() > max_steps_) {
        base_state_ = undo_.front().serial;  // the state the next oldest step starts from
        undo_.pop_front();
    }
    redo_.clear();
}

const Command* History::undo() {
    if (undo_.empty()) return nullptr;
    redo_.push_back(std::move(undo_.back()));
    undo_.pop_back();
    return &redo_.back();
}

const Command* History::redo() {
    if (redo_.empty()) return nullptr;
    undo_.push_back(std::move(redo_.back()));
    redo_.pop_back();
    return &undo_.back();
}

void History::clear() {
    undo_.clear();
    redo_.clear();
    base_state_ = next_serial_++;
}

}  // namespace raypick::app
