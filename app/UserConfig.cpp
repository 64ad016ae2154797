#include "app/UserConfig.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <system_error>

#include <raypick/scene/AtomicFile.h>

namespace raypick::app {

namespace fs = std::filesystem;

std::string config_dir(const char* xdg_config_home, const char* home) {
    // The XDG base directory rules: a relative XDG_CONFIG_HOME is invalid and ignored.
    if (xdg_config_home && xdg_config_home[0] == '/') return (fs::path(xdg_config_home) / "raypick").string();
    if (home && home[0] == '/') return (fs::path(home) / ".config" / "raypick").string();
    return {};
}

std::string config_dir() { return config_dir(std::getenv("XDG_CONFIG_HOME"), std::getenv("HOME")); }

namespace {

/// Each remembered option: its key, how it is written and how a value is read (false: refused).
struct Field {
    const char* key;
    std::function<std::string(const UserSettings&)> write;
    std::function<bool(UserSettings&, const std::string&)> read;
};

bool read_bool(const std::string& v, bool& out) {
    if (v == "true" || v == "1") out = true;
    else if (v == "false" || v == "0") out = false;
    else return false;
    return true;
}

bool read_float(const std::string& v, float& out, float lo, float hi) {
    char* end = nullptr;
    const float x = std::strtof(v.c_str(), &end);
    if (v.empty() || !end || *end != '\0' || !std::isfinite(x) || x < lo || x > hi) return false;
    out = x;
    return true;
}

Field flag(const char* key, bool ViewOptions::*member) {
    return {key, [member](const UserSettings& s) { return std::string(s.view.*member ? "true" : "false"); },
            [member](UserSettings& s, const std::string& v) { return read_bool(v, s.view.*member); }};
}

const std::vector<Field>& fields() {
    static const std::vector<Field> list = {
        flag("show_entry", &ViewOptions::show_entry),
        flag("show_exit", &ViewOptions::show_exit),
        flag("show_normals", &ViewOptions::show_normals),
        flag("show_ray", &ViewOptions::show_ray),
        flag("show_misses", &ViewOptions::show_misses),
        flag("show_scene_rays", &ViewOptions::show_scene_rays),
        flag("show_handles", &ViewOptions::show_handles),
        flag("show_grid", &ViewOptions::show_grid),
        flag("solid", &ViewOptions::solid),
        {"normal_length", [](const UserSettings& s) { return std::to_string(s.view.normal_length); },
         [](UserSettings& s, const std::string& v) { return read_float(v, s.view.normal_length, 0.0f, 1e6f); }},
        // The compared types by name, so that adding a shape type keeps the others' choice.
        {"compare",
         [](const UserSettings& s) {
             std::string names;
             for (int t = 0; t < kShapeTypeCount; ++t)
                 if (s.view.compare.enabled[std::size_t(t)])
                     names += (names.empty() ? "" : ",") + std::string(shape_type_name(static_cast<ShapeType>(t)));
             return names;
         },
         [](UserSettings& s, const std::string& v) {
             std::array<bool, kShapeTypeCount> enabled{};
             std::stringstream in(v);
             for (std::string name; std::getline(in, name, ',');) {
                 const auto type = shape_type_named(name);
                 if (!type) return false;
                 enabled[std::size_t(*type)] = true;
             }
             s.view.compare.enabled = enabled;
             return true;
         }},
        {"compare_sphere_geometric",
         [](const UserSettings& s) { return std::string(s.view.compare.sphere_geometric ? "true" : "false"); },
         [](UserSettings& s, const std::string& v) { return read_bool(v, s.view.compare.sphere_geometric); }},
        {"raycast", [](const UserSettings& s) { return std::string(s.view.raycast.enabled ? "true" : "false"); },
         [](UserSettings& s, const std::string& v) { return read_bool(v, s.view.raycast.enabled); }},
        {"raycast_shading", [](const UserSettings& s) { return std::string(raycast_shading_name(s.view.raycast.shading)); },
         [](UserSettings& s, const std::string& v) { return parse_raycast_shading(v, s.view.raycast.shading); }},
        {"raycast_half_resolution",
         [](const UserSettings& s) { return std::string(s.view.raycast.half_resolution ? "true" : "false"); },
         [](UserSettings& s, const std::string& v) { return read_bool(v, s.view.raycast.half_resolution); }},
        {"raycast_placement",
         [](const UserSettings& s) {
             return std::string(s.view.raycast.placement == RaycastPlacement::Over ? "over" : "beside");
         },
         [](UserSettings& s, const std::string& v) {
             if (v != "over" && v != "beside") return false;
             s.view.raycast.placement = v == "over" ? RaycastPlacement::Over : RaycastPlacement::Beside;
             return true;
         }},
        {"raycast_opacity", [](const UserSettings& s) { return std::to_string(s.view.raycast.opacity); },
         [](UserSettings& s, const std::string& v) { return read_float(v, s.view.raycast.opacity, 0.0f, 1.0f); }},
        {"raycast_margin", [](const UserSettings& s) { return std::to_string(s.view.raycast.margin); },
         [](UserSettings& s, const std::string& v) {
             float m = 0.0f;
             if (!read_float(v, m, 0.0f, 16.0f) || m != std::floor(m)) return false;
             s.view.raycast.margin = static_cast<int>(m);
             return true;
         }},
        {"last_dir", [](const UserSettings& s) { return s.last_dir; },
         [](UserSettings& s, const std::string& v) {
             s.last_dir = v;
             return true;
         }},
    };
    return list;
}

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return {};
    const auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

}  // namespace

std::string settings_text(const UserSettings& settings) {
    std::string out = "# raypick: the remembered options and the recent files (most recent first); rewritten on exit\n";
    for (const Field& f : fields()) {
        const std::string value = f.write(settings);
        if (value.find('\n') == std::string::npos) out += std::string(f.key) + " = " + value + "\n";
    }
    for (const std::string& r : settings.recent)
        if (r.find('\n') == std::string::npos && r == trim(r)) out += "recent = " + r + "\n";
    return out;
}

SettingsParse parse_settings(const std::string& text, const UserSettings& base) {
    SettingsParse p;
    p.settings = base;
    std::vector<std::string> recent;
    bool any_recent = false;
    std::istringstream in(text);
    int n = 0;
    for (std::string line; std::getline(in, line);) {
        ++n;
        const std::string t = trim(line);
        if (t.empty() || t[0] == '#') continue;
        const auto eq = t.find('=');
        if (eq == std::string::npos) {
            p.problems.push_back("line " + std::to_string(n) + ": expected 'key = value', got '" + t + "'");
            continue;
        }
        const std::string key = trim(t.substr(0, eq)), value = trim(t.substr(eq + 1));
        if (key == "recent") {
            any_recent = true;
            if (!value.empty() && recent.size() < kMaxRecentFiles &&
                std::find(recent.begin(), recent.end(), value) == recent.end())
                recent.push_back(value);
            continue;
        }
        const auto f = std::find_if(fields().begin(), fields().end(), [&](const Field& x) { return key == x.key; });
        if (f == fields().end()) {
            p.problems.push_back("line " + std::to_string(n) + ": unknown key '" + key + "'");
        } else if (!f->read(p.settings, value)) {
            p.problems.push_back("line " + std::to_string(n) + ": bad value '" + value + "' for " + key);
        }
    }
    if (any_recent) p.settings.recent = recent;
    return p;
}

std::optional<std::string> read_config_file(const std::string& dir, const std::string& name, std::string& error) {
    error.clear();
    const fs::path path = fs::path(dir) / name;
    std::error_code ec;
    if (!fs::exists(path, ec)) return std::nullopt;
    if (fs::is_directory(path, ec)) {
        error = path.string() + ": is a directory";
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = path.string() + ": cannot read (" + std::strerror(errno) + ")";
        return std::nullopt;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::optional<std::string> write_config_file(const std::string& dir, const std::string& name, const std::string& text) {
    if (dir.empty()) return std::string("no config directory (neither XDG_CONFIG_HOME nor HOME is set)");
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return dir + ": cannot create the config directory (" + ec.message() + ")";
    return write_file_atomically((fs::path(dir) / name).string(), text);
}

}  // namespace raypick::app
