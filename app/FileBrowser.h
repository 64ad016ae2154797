// raypick demo: the Open / Save-as dialog's model, without a window — the folder shown, its
// listing filtered to the files the demo opens, navigation, the path typed or chosen, and what
// choosing a path means (open it, save there, or ask before overwriting). The ImGui dialog
// (app/ui/FilePopups.cpp) draws it and calls it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace raypick::app {

/// The extensions the dialog lists, lower case with the dot: scene files, then the model files the
/// demo opens as a scene of one mesh (scene/Model.h). The first is the one Save as adds; scenes are
/// only ever saved as JSON (save_scene() refuses a model extension).
inline constexpr std::array<std::string_view, 4> kSceneFileExtensions = {".json", ".obj", ".gltf", ".glb"};

/// Whether `path` ends in one of kSceneFileExtensions (case-insensitively).
bool has_scene_extension(const std::string& path);

struct DirEntry {
    std::string name;  ///< the file or folder name, no path
    bool is_dir = false;
    std::uintmax_t size = 0;  ///< bytes, files only
};

/// One folder's entries: its sub-folders, then the files with a scene extension, each sorted by
/// name; hidden entries (a leading dot) left out. `error` says why the folder could not be read
/// (then `entries` is empty).
struct DirListing {
    std::string dir;  ///< absolute and normalised
    std::vector<DirEntry> entries;
    std::string error;
};
DirListing list_directory(const std::string& dir);

/// The parent of folder `dir` ("/" stays "/").
std::string parent_dir(const std::string& dir);

/// How many recent files are kept.
inline constexpr std::size_t kMaxRecentFiles = 10;
/// Puts `path` (made absolute) first in `recent`, removing an earlier entry of the same file and
/// the oldest beyond kMaxRecentFiles.
void add_recent_file(std::vector<std::string>& recent, const std::string& path);

class FileBrowser {
public:
    enum class Mode { Open, SaveAs };
    /// What the user's choice asks the caller to do.
    enum class Action { None, Open, Save, ConfirmOverwrite };

    /// Starts the dialog in `mode` showing `dir` (the first of `dir`, its parents and the working
    /// directory that can be read), with `file_name` in the path field (Save as: the current name).
    void start(Mode mode, const std::string& dir, const std::string& file_name = "");
    Mode mode() const { return mode_; }
    const DirListing& listing() const { return listing_; }
    /// Reads the folder again (its files may have changed).
    void refresh();
    /// Shows folder `dir`; on error the listing's error says why and the folder shown stays.
    bool go_to(const std::string& dir);
    bool go_up() { return go_to(parent_dir(listing_.dir)); }

    /// The path field's text: a name in the folder shown, or a path (absolute or relative to it).
    std::string& path_text() { return path_text_; }
    /// Clicking an entry: a folder is entered, a file's name goes into the path field. The second
    /// click of a double click (`double_click`) acts on the entry the first click was on: on that
    /// file it chooses it (returns choose()'s action); on anything else — the entry that came under
    /// the pointer after the first click entered a folder — it does nothing.
    Action click(const DirEntry& entry, bool double_click = false);
    /// The path the field names, absolute; Save as adds the default extension to a name without one.
    std::string chosen_path() const;
    /// Choosing the path in the field (the Open / Save button, Enter, a double click on a file):
    /// a folder is entered (Action::None); Open asks to open an existing file; Save as asks to save
    /// or, when the file exists, to confirm overwriting it. Problems go to error().
    Action choose();
    /// An error to show in the dialog (empty: none): the folder could not be read, no such file, ...
    const std::string& error() const { return error_; }
    void set_error(std::string message) { error_ = std::move(message); }

private:
    Mode mode_ = Mode::Open;
    DirListing listing_;
    std::string path_text_;
    std::string error_;
    std::string last_clicked_;  ///< the entry the last single click was on (absolute path)
};

}  // namespace raypick::app
