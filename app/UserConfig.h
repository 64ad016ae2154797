// raypick demo: what it remembers between runs — the view options, the file dialog's folder and
// the recent files (settings.txt) and ImGui's window layout (imgui.ini) — in the user's config
// directory. No GL, no ImGui: the App applies what is read here.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "app/AppState.h"
#include "app/FileBrowser.h"

namespace raypick::app {

/// $XDG_CONFIG_HOME/raypick if XDG_CONFIG_HOME is set to an absolute path, else
/// $HOME/.config/raypick; empty when neither gives one. `xdg_config_home` and `home` are the
/// variables' values (null: unset). Never the working directory.
std::string config_dir(const char* xdg_config_home, const char* home);
/// config_dir() of this process's environment.
std::string config_dir();

/// The remembered state.
struct UserSettings {
    ViewOptions view;
    std::string last_dir;              ///< the folder the file dialog showed last
    std::vector<std::string> recent;   ///< most recent first
};

/// The text of settings.txt: one `key = value` a line, recent files one `recent = PATH` line each.
std::string settings_text(const UserSettings& settings);

struct SettingsParse {
    UserSettings settings;               ///< `base` with every valid line applied
    std::vector<std::string> problems;   ///< "line N: ..." for each line ignored
};
/// Reads settings.txt's text over `base`: unknown keys, bad values and malformed lines are
/// ignored and listed, never fatal.
SettingsParse parse_settings(const std::string& text, const UserSettings& base);

/// Reads `dir`/`name`; nullopt when the file does not exist, else its text or, in `error`, why it
/// could not be read.
std::optional<std::string> read_config_file(const std::string& dir, const std::string& name, std::string& error);
/// Writes `text` to `dir`/`name` (the directory created on demand; written to a temporary file
/// and renamed, so a failed write leaves the old file). Returns the error message, or nullopt.
std::optional<std::string> write_config_file(const std::string& dir, const std::string& name, const std::string& text);

inline constexpr const char* kSettingsFile = "settings.txt";
inline constexpr const char* kImGuiIniFile = "imgui.ini";

}  // namespace raypick::app
