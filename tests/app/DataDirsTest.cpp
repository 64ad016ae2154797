// Where the demo finds its data: the build tree's assets/ link resolved to the source tree's
// folder, an installation's share/raypick/ beside bin/.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "app/DataDirs.h"

using namespace raypick::app;
namespace fs = std::filesystem;

TEST(DataDirs, DataFoldersAreNamedByWhereTheyReallyAre) {
    // The build tree's assets/ is a link to the source tree's: a case opened from the Presets or
    // the Case list is named, and saved, by its place in the source tree.
    const fs::path root = fs::temp_directory_path() / "raypick_data_dirs_test";
    fs::remove_all(root);
    fs::create_directories(root / "source" / "assets");
    fs::create_directories(root / "build" / "app");
    fs::create_directory_symlink(root / "source" / "assets", root / "build" / "app" / "assets");
    const std::vector<std::string> dirs = data_dirs("assets", (root / "build" / "app").string());
    ASSERT_EQ(dirs.size(), 2u);
    EXPECT_EQ(dirs[0], fs::canonical(root / "source" / "assets").string());
    EXPECT_EQ(dirs[1], (fs::canonical(root / "build") / "share" / "raypick" / "assets").string())
        << "an installation's share/raypick/assets beside bin/";
    EXPECT_EQ(resolved_path((root / "build" / "app" / "assets" / "x.json").string()),
              (fs::canonical(root / "source" / "assets") / "x.json").string());
}
