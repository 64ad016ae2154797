#include "app/History.h"

#include <utility>

namespace raypick::app {

void History::record(Command command) {
    undo_.push_back(std::move(command));
    while (undo_.size() > max_steps_) undo_.pop_front();
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
}

}  // namespace raypick::app
