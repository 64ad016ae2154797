// raypick scene files: where an error is — JSON pointers, their line and column in the file's
// text, and the SceneLoadError that names them.
#include <raypick/scene/detail/ErrorLocation.h>

#include <algorithm>
#include <utility>

namespace raypick {

namespace scene_detail {

namespace {

/// Finds the byte offset where the value at `target` starts in valid JSON `s`. Only descends along
/// the target path, so its recursion depth is the path's length.
class Locator {
public:
    Locator(const std::string& s, const Tokens& target) : s_(s), target_(target) {}

    std::optional<std::size_t> run() {
        if (descend(0)) return found_;
        return std::nullopt;
    }

private:
    const std::string& s_;
    const Tokens& target_;
    std::size_t i_ = 0;
    std::size_t found_ = 0;

    void ws() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
    }
    std::string string() {  // at '"'; decodes the simple escapes (enough to compare keys)
        std::string out;
        ++i_;
        while (i_ < s_.size() && s_[i_] != '"') {
            if (s_[i_] == '\\' && i_ + 1 < s_.size()) {
                const char c = s_[++i_];
                switch (c) {
                    case 'n': out += '\n'; break;
                    case 't': out += '\t'; break;
                    case 'r': out += '\r'; break;
                    case 'b': out += '\b'; break;
                    case 'f': out += '\f'; break;
                    case 'u': out += "\\u"; break;
                    default: out += c;
                }
            } else {
                out += s_[i_];
            }
            ++i_;
        }
        ++i_;
        return out;
    }
    void skip_value() {  // non-recursive
        ws();
        int nest = 0;
        while (i_ < s_.size()) {
            const char c = s_[i_];
            if (c == '"') {
                string();
                if (nest == 0) return;
                continue;
            }
            if (c == '{' || c == '[') ++nest;
            else if (c == '}' || c == ']') {
                if (nest == 0) return;  // end of the enclosing container
                if (--nest == 0) { ++i_; return; }
            } else if (nest == 0 && (c == ',' || c == ' ' || c == '\n' || c == '\r' || c == '\t')) {
                return;
            }
            ++i_;
        }
    }
    /// At a value whose path is target_[0..depth); true when the target was found inside it.
    bool descend(std::size_t depth) {
        ws();
        if (depth == target_.size()) {
            found_ = i_;
            return true;
        }
        if (i_ >= s_.size()) return false;
        const std::string& want = target_[depth];
        if (s_[i_] == '{') {
            ++i_;
            std::optional<std::size_t> best;  // nlohmann keeps the last of duplicate keys
            for (;;) {
                ws();
                if (i_ >= s_.size() || s_[i_] == '}') break;
                if (s_[i_] == ',') { ++i_; continue; }
                if (s_[i_] != '"') break;
                const std::string key = string();
                ws();
                if (i_ < s_.size() && s_[i_] == ':') ++i_;
                if (key == want) {
                    Locator probe(s_, target_);
                    probe.i_ = i_;
                    if (probe.descend(depth + 1)) best = probe.found_;
                }
                skip_value();
            }
            if (!best) return false;
            found_ = *best;
            return true;
        }
        if (s_[i_] == '[') {
            ++i_;
            std::size_t index = 0;
            for (;;) {
                ws();
                if (i_ >= s_.size() || s_[i_] == ']') return false;
                if (s_[i_] == ',') { ++i_; ++index; continue; }
                if (std::to_string(index) == want) return descend(depth + 1);
                skip_value();
            }
        }
        return false;
    }
};

/// 1-based line and column (in bytes) of byte `offset` of `s`.
void line_column(const std::string& s, std::size_t offset, int& line, int& column) {
    offset = std::min(offset, s.size());
    line = 1;
    std::size_t line_start = 0;
    for (std::size_t k = 0; k < offset; ++k)
        if (s[k] == '\n') {
            ++line;
            line_start = k + 1;
        }
    column = int(offset - line_start) + 1;
}

/// "line 12, column 5 (/shapes/3/radius)", either part left out when unknown or empty.
std::string place(int line, int column, const std::string& pointer) {
    std::string w;
    if (line > 0) w = "line " + std::to_string(line) + ", column " + std::to_string(column);
    if (!pointer.empty()) w += (w.empty() ? "" : " ") + std::string("(") + pointer + ")";
    return w;
}

}  // namespace

Tokens Path::tokens() const {
    Tokens out;
    for (const Path* p = this; p && p->kind != Root; p = p->parent) {
        if (p->kind == CKey) out.push_back(p->ckey);
        else if (p->kind == SKey) out.push_back(*p->skey);
        else out.push_back(std::to_string(p->index));
    }
    std::reverse(out.begin(), out.end());
    return out;
}

std::string pointer_of(const Tokens& tokens) {
    std::string out;
    for (const auto& tok : tokens) {
        out += '/';
        for (char c : tok) {
            if (c == '~') out += "~0";
            else if (c == '/') out += "~1";
            else out += c;
        }
    }
    return out;
}

void fail(const Path& path, std::string message) { throw Fail{path.tokens(), std::move(message)}; }

SceneLoadError error_in_text(const Fail& f, const std::string& text, const std::string& file_label) {
    SceneLoadError err;
    err.file = file_label;
    err.pointer = pointer_of(f.path);
    if (const auto off = Locator(text, f.path).run()) line_column(text, *off, err.line, err.column);
    err.where = place(err.line, err.column, err.pointer.empty() ? "document root" : err.pointer);
    err.message = f.message;
    return err;
}

SceneLoadError error_in_scene(const Fail& f) {
    SceneLoadError err;
    err.pointer = pointer_of(f.path);
    err.where = err.pointer.empty() ? "document root" : err.pointer;
    err.message = f.message;
    return err;
}

SceneLoadError error_at_offset(const std::string& text, std::size_t offset, std::string message,
                               const std::string& file_label) {
    SceneLoadError err;
    err.file = file_label;
    line_column(text, offset, err.line, err.column);
    err.where = place(err.line, err.column, "");
    err.message = std::move(message);
    return err;
}

SceneLoadError error_at_token(const std::string& text, const std::string& token, std::string message,
                              const std::string& file_label) {
    SceneLoadError err;
    err.file = file_label;
    const auto at = token.empty() ? std::string::npos : text.find(token);
    if (at != std::string::npos) {
        line_column(text, at, err.line, err.column);
        err.where = place(err.line, err.column, "");
    }
    err.message = std::move(message);
    return err;
}

}  // namespace scene_detail

std::string SceneLoadError::what() const {
    std::string out = file.empty() ? std::string("<scene>") : file;
    if (!where.empty()) out += ": " + where;
    out += ": " + message;
    return out;
}

}  // namespace raypick
