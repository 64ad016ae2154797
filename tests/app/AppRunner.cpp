#include "AppRunner.h"

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#endif
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#include <stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace fs = std::filesystem;

namespace raypick::app::test {

bool have_display() {
    const char* d = std::getenv("DISPLAY");
    return d && *d;
}

fs::path tmp_dir() {
    const fs::path dir = fs::path(RAYPICK_TEST_TMP) / ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::create_directories(dir);
    return dir;
}

fs::path config_home() { return tmp_dir() / "config"; }

void use_test_config_home() { ::setenv("XDG_CONFIG_HOME", config_home().c_str(), 1); }

std::string quote(const std::string& s) { return "'" + s + "'"; }

namespace {
AppRun run(const char* exe, const std::string& args, const std::string& env) {
    const fs::path log = tmp_dir() / "log.txt";
    use_test_config_home();
    const std::string cmd = env + " " + quote(exe) + " " + args + " > " + quote(log.string()) + " 2>&1";
    const int status = std::system(cmd.c_str());
    AppRun r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream in(log);
    std::stringstream ss;
    ss << in.rdbuf();
    r.output = ss.str();
    return r;
}
}  // namespace

AppRun run_app(const std::string& args, const std::string& env) { return run(RAYPICK_APP_EXE, args, env); }
AppRun run_harness(const std::string& args, const std::string& env) { return run(RAYPICK_HARNESS_EXE, args, env); }

Image load_png(const std::string& path) {
    Image img;
    int channels = 0;
    unsigned char* data = stbi_load(path.c_str(), &img.width, &img.height, &channels, 3);
    if (!data) return img;
    img.rgb.assign(data, data + static_cast<std::size_t>(img.width) * static_cast<std::size_t>(img.height) * 3);
    stbi_image_free(data);
    return img;
}

}  // namespace raypick::app::test
