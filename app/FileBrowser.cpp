#include "app/FileBrowser.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <system_error>

namespace raypick::app {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

fs::path absolute_normal(const fs::path& p) {
    std::error_code ec;
    fs::path a = fs::absolute(p, ec);
    if (ec) a = p;
    a = a.lexically_normal();
    // "/a/b/" normalises to "/a/b/" (an empty last part): drop it, except for the root.
    if (a.has_relative_path() && a.filename().empty()) a = a.parent_path();
    return a;
}

}  // namespace

bool has_scene_extension(const std::string& path) {
    const std::string ext = lower(fs::path(path).extension().string());
    return std::any_of(kSceneFileExtensions.begin(), kSceneFileExtensions.end(),
                       [&](std::string_view e) { return ext == e; });
}

DirListing list_directory(const std::string& dir) {
    DirListing l;
    l.dir = absolute_normal(dir).string();
    std::error_code ec;
    if (!fs::is_directory(l.dir, ec)) {
        l.error = "cannot read the folder " + l.dir + ": " + (fs::exists(l.dir, ec) ? "not a folder" : "no such folder");
        return l;
    }
    fs::directory_iterator it(l.dir, ec);
    if (ec) {
        l.error = "cannot read the folder " + l.dir + ": " + ec.message();
        return l;
    }
    for (; it != fs::directory_iterator() && !ec; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.empty() || name[0] == '.') continue;
        std::error_code e2;
        DirEntry entry;
        entry.name = name;
        entry.is_dir = it->is_directory(e2);  // follows links
        if (!entry.is_dir) {
            if (!has_scene_extension(name)) continue;
            entry.size = it->file_size(e2);
            if (e2) entry.size = 0;
        }
        l.entries.push_back(std::move(entry));
    }
    if (ec) {  // the folder could not be read to its end
        l.error = "cannot read the folder " + l.dir + ": " + ec.message();
        l.entries.clear();
        return l;
    }
    std::sort(l.entries.begin(), l.entries.end(), [](const DirEntry& a, const DirEntry& b) {
        if (a.is_dir != b.is_dir) return a.is_dir;
        const std::string la = lower(a.name), lb = lower(b.name);
        return la != lb ? la < lb : a.name < b.name;
    });
    return l;
}

void add_recent_file(std::vector<std::string>& recent, const std::string& path) {
    if (path.empty()) return;
    std::error_code ec;
    fs::path abs = fs::absolute(path, ec);
    const std::string entry = (ec ? fs::path(path) : abs.lexically_normal()).string();
    recent.erase(std::remove(recent.begin(), recent.end(), entry), recent.end());
    recent.insert(recent.begin(), entry);
    if (recent.size() > kMaxRecentFiles) recent.resize(kMaxRecentFiles);
}

std::string parent_dir(const std::string& dir) {
    const fs::path p = absolute_normal(dir);
    return (p.has_relative_path() ? p.parent_path() : p).string();
}

void FileBrowser::start(Mode mode, const std::string& dir, const std::string& file_name) {
    mode_ = mode;
    error_.clear();
    path_text_ = file_name;
    // The first readable folder of `dir` and its parents, else the working directory.
    fs::path d = absolute_normal(dir.empty() ? fs::path(".") : fs::path(dir));
    for (;;) {
        listing_ = list_directory(d.string());
        if (listing_.error.empty() || !d.has_relative_path()) break;
        d = d.parent_path();
    }
    if (!listing_.error.empty()) listing_ = list_directory(".");
}

void FileBrowser::refresh() {
    DirListing l = list_directory(listing_.dir);
    if (l.error.empty()) listing_ = std::move(l);
    else error_ = l.error;
}

bool FileBrowser::go_to(const std::string& dir) {
    DirListing l = list_directory(dir);
    if (!l.error.empty()) {
        error_ = l.error;
        return false;
    }
    listing_ = std::move(l);
    error_.clear();
    return true;
}

FileBrowser::Action FileBrowser::click(const DirEntry& entry, bool double_click) {
    const std::string path = (fs::path(listing_.dir) / entry.name).string();
    if (double_click) {
        if (path != last_clicked_ || entry.is_dir) return Action::None;  // the first click acted already
        path_text_ = entry.name;
        return choose();
    }
    last_clicked_ = path;
    if (entry.is_dir) go_to(path);
    else {
        path_text_ = entry.name;
        error_.clear();
    }
    return Action::None;
}

std::string FileBrowser::chosen_path() const {
    if (path_text_.empty()) return {};
    fs::path p(path_text_);
    if (p.is_relative()) p = fs::path(listing_.dir) / p;
    p = absolute_normal(p);
    std::error_code ec;
    if (mode_ == Mode::SaveAs && !p.has_extension() && !fs::is_directory(p, ec))
        p += std::string(kSceneFileExtensions.front());
    return p.string();
}

FileBrowser::Action FileBrowser::choose() {
    const std::string path = chosen_path();
    if (path.empty()) {
        error_ = mode_ == Mode::Open ? "choose a file to open" : "type a file name to save to";
        return Action::None;
    }
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        if (go_to(path)) path_text_.clear();
        return Action::None;
    }
    error_.clear();
    if (mode_ == Mode::Open) {
        if (!fs::exists(path, ec)) {
            error_ = path + ": no such file";
            return Action::None;
        }
        return Action::Open;
    }
    const fs::path parent = fs::path(path).parent_path();
    if (!fs::is_directory(parent, ec)) {
        error_ = parent.string() + ": no such folder";
        return Action::None;
    }
    return fs::exists(path, ec) ? Action::ConfirmOverwrite : Action::Save;
}

}  // namespace raypick::app
