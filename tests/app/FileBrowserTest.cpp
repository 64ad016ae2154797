// The Open / Save-as dialog's model (app/FileBrowser.h) on real folders: what is listed, how it is
// navigated, what choosing a path asks for, the recent files; and what the demo remembers between
// runs (app/UserConfig.h): where, in what form, and that a broken file never stops it.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "app/FileBrowser.h"
#include "app/UserConfig.h"

using namespace raypick;
using namespace raypick::app;
namespace fs = std::filesystem;

namespace {

/// A fresh folder for the current test under the system's temporary folder.
fs::path fresh_dir() {
    const fs::path dir = fs::temp_directory_path() / ("raypick_file_browser_test_" + std::to_string(::getpid())) /
                         ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

void touch(const fs::path& p, const std::string& text = "{}") { std::ofstream(p) << text; }

std::vector<std::string> names(const DirListing& l) {
    std::vector<std::string> out;
    for (const DirEntry& e : l.entries) out.push_back((e.is_dir ? "d:" : "f:") + e.name);
    return out;
}

bool running_as_root() { return ::geteuid() == 0; }

}  // namespace

TEST(FileBrowser, ListsFoldersThenSceneAndModelFilesSortedAndHidesTheRest) {
    const fs::path d = fresh_dir();
    touch(d / "b.json");
    touch(d / "A.JSON");
    touch(d / "notes.txt");
    touch(d / "model.obj");
    touch(d / ".hidden.json");
    fs::create_directories(d / "zeta");
    fs::create_directories(d / "alpha");
    fs::create_directories(d / ".git");
    const DirListing l = list_directory(d.string());
    EXPECT_EQ(l.error, "");
    EXPECT_EQ(names(l), (std::vector<std::string>{"d:alpha", "d:zeta", "f:A.JSON", "f:b.json", "f:model.obj"}));
    EXPECT_EQ(l.entries[3].size, 2u);
    EXPECT_TRUE(has_scene_extension("city.GLTF"));
    EXPECT_TRUE(has_scene_extension("torus.glb"));
    EXPECT_TRUE(has_scene_extension("x/y.Json"));
    EXPECT_FALSE(has_scene_extension("y.json.bak"));
}

TEST(FileBrowser, AnUnreadableOrMissingFolderIsAnErrorNamingIt) {
    const fs::path d = fresh_dir();
    const DirListing missing = list_directory((d / "nope").string());
    EXPECT_NE(missing.error.find("nope"), std::string::npos) << missing.error;
    EXPECT_TRUE(missing.entries.empty());
    touch(d / "file.json");
    EXPECT_NE(list_directory((d / "file.json").string()).error.find("not a folder"), std::string::npos);
    if (running_as_root()) GTEST_SKIP() << "root reads every folder";
    fs::create_directories(d / "locked");
    touch(d / "locked" / "inside.json");
    ::chmod((d / "locked").c_str(), 0);
    const DirListing locked = list_directory((d / "locked").string());
    ::chmod((d / "locked").c_str(), 0755);
    EXPECT_NE(locked.error.find("locked"), std::string::npos) << locked.error;
    EXPECT_TRUE(locked.entries.empty());
}

TEST(FileBrowser, NavigatesIntoFoldersAndUpAndKeepsTheFolderOnError) {
    const fs::path d = fresh_dir();
    fs::create_directories(d / "sub");
    touch(d / "sub" / "inner.json");
    FileBrowser b;
    b.start(FileBrowser::Mode::Open, d.string());
    EXPECT_EQ(b.listing().dir, d.string());
    ASSERT_EQ(b.listing().entries.size(), 1u);
    b.click(b.listing().entries[0]);  // the folder: entered
    EXPECT_EQ(b.listing().dir, (d / "sub").string());
    b.click(b.listing().entries[0]);  // the file: its name in the path field
    EXPECT_EQ(b.path_text(), "inner.json");
    EXPECT_EQ(b.chosen_path(), (d / "sub" / "inner.json").string());
    EXPECT_TRUE(b.go_up());
    EXPECT_EQ(b.listing().dir, d.string());
    EXPECT_FALSE(b.go_to((d / "gone").string()));
    EXPECT_EQ(b.listing().dir, d.string()) << "the folder shown stays";
    EXPECT_NE(b.error().find("gone"), std::string::npos);
    EXPECT_EQ(parent_dir("/"), "/");
    EXPECT_EQ(parent_dir("/a/b/"), "/a");
}

TEST(FileBrowser, ADoubleClickActsOnTheEntryItsFirstClickWasOn) {
    // assets/models-like: a folder whose first entry lands under the pointer once the first click
    // has entered it. The second click of the double click must not open that file.
    const fs::path d = fresh_dir();
    fs::create_directories(d / "models");
    touch(d / "models" / "city.gltf");
    touch(d / "scene.json");
    FileBrowser b;
    b.start(FileBrowser::Mode::Open, d.string());
    ASSERT_EQ(b.listing().entries.size(), 2u);
    ASSERT_TRUE(b.listing().entries[0].is_dir);
    EXPECT_EQ(b.click(b.listing().entries[0]), FileBrowser::Action::None);  // first click: entered
    ASSERT_EQ(b.listing().dir, (d / "models").string());
    ASSERT_EQ(b.listing().entries.size(), 1u);
    // The second click lands on city.gltf, which the first click did not touch: nothing happens.
    EXPECT_EQ(b.click(b.listing().entries[0], true), FileBrowser::Action::None);
    EXPECT_EQ(b.path_text(), "") << "the file under the pointer is not even chosen";
    EXPECT_EQ(b.listing().dir, (d / "models").string());
    // A real double click on the file opens it.
    EXPECT_EQ(b.click(b.listing().entries[0]), FileBrowser::Action::None);
    EXPECT_EQ(b.path_text(), "city.gltf");
    EXPECT_EQ(b.click(b.listing().entries[0], true), FileBrowser::Action::Open);
    EXPECT_EQ(b.chosen_path(), (d / "models" / "city.gltf").string());
    // A double click whose first click was on a file and second on another file: nothing.
    b.go_up();
    ASSERT_EQ(b.listing().entries.size(), 2u);
    b.click(b.listing().entries[1]);
    EXPECT_EQ(b.click(b.listing().entries[0], true), FileBrowser::Action::None);
    EXPECT_EQ(b.listing().dir, d.string()) << "the folder is not entered by a stray second click";
}

TEST(FileBrowser, StartsInTheNearestReadableParentOfAFolderThatIsGone) {
    const fs::path d = fresh_dir();
    FileBrowser b;
    b.start(FileBrowser::Mode::Open, (d / "was" / "here").string());
    EXPECT_EQ(b.listing().dir, d.string());
    EXPECT_EQ(b.listing().error, "");
}

TEST(FileBrowser, ChoosingOpensExistingFilesEntersFoldersAndRefusesMissingOnes) {
    const fs::path d = fresh_dir();
    touch(d / "scene.json");
    fs::create_directories(d / "more");
    FileBrowser b;
    b.start(FileBrowser::Mode::Open, d.string());
    EXPECT_EQ(b.choose(), FileBrowser::Action::None);  // nothing typed
    EXPECT_NE(b.error(), "");
    b.path_text() = "scene.json";
    EXPECT_EQ(b.choose(), FileBrowser::Action::Open);
    EXPECT_EQ(b.error(), "");
    b.path_text() = "missing.json";
    EXPECT_EQ(b.choose(), FileBrowser::Action::None);
    EXPECT_NE(b.error().find("missing.json"), std::string::npos);
    b.path_text() = (d / "more").string();  // a folder typed: entered
    EXPECT_EQ(b.choose(), FileBrowser::Action::None);
    EXPECT_EQ(b.listing().dir, (d / "more").string());
    EXPECT_EQ(b.path_text(), "");
}

TEST(FileBrowser, SaveAsAddsTheExtensionAndAsksBeforeOverwriting) {
    const fs::path d = fresh_dir();
    touch(d / "old.json");
    FileBrowser b;
    b.start(FileBrowser::Mode::SaveAs, d.string(), "new");
    EXPECT_EQ(b.chosen_path(), (d / "new.json").string());
    EXPECT_EQ(b.choose(), FileBrowser::Action::Save);
    b.path_text() = "old";
    EXPECT_EQ(b.choose(), FileBrowser::Action::ConfirmOverwrite);
    b.path_text() = "no_such_folder/x.json";
    EXPECT_EQ(b.choose(), FileBrowser::Action::None);
    EXPECT_NE(b.error().find("no_such_folder"), std::string::npos);
}

TEST(RecentFiles, NewestFirstAbsoluteWithoutDuplicatesAndBounded) {
    std::vector<std::string> recent;
    add_recent_file(recent, "/a/x.json");
    add_recent_file(recent, "/a/y.json");
    add_recent_file(recent, "/a/../a/x.json");  // the same file again: moved to the front
    EXPECT_EQ(recent, (std::vector<std::string>{"/a/x.json", "/a/y.json"}));
    add_recent_file(recent, "rel.json");
    EXPECT_EQ(recent.front(), (fs::current_path() / "rel.json").string());
    for (int i = 0; i < 20; ++i) add_recent_file(recent, "/f" + std::to_string(i) + ".json");
    EXPECT_EQ(recent.size(), kMaxRecentFiles);
    EXPECT_EQ(recent.front(), "/f19.json");
}

TEST(UserConfig, LivesInXdgConfigHomeElseHomeDotConfigNeverTheWorkingDirectory) {
    EXPECT_EQ(config_dir("/x/cfg", "/home/u"), "/x/cfg/raypick");
    EXPECT_EQ(config_dir(nullptr, "/home/u"), "/home/u/.config/raypick");
    EXPECT_EQ(config_dir("relative", "/home/u"), "/home/u/.config/raypick") << "a relative XDG_CONFIG_HOME is ignored";
    EXPECT_EQ(config_dir("", ""), "");
    EXPECT_EQ(config_dir(nullptr, nullptr), "");
}

TEST(UserConfig, SettingsRoundTripThroughTheirText) {
    UserSettings s;
    s.view.solid = true;
    s.view.show_grid = false;
    s.view.normal_length = 1.25f;
    s.view.compare.enabled[0] = true;
    s.view.raycast.enabled = true;
    s.view.raycast.shading = RaycastShading::Difference;
    s.view.raycast.placement = RaycastPlacement::Over;
    s.view.raycast.margin = 2;
    s.last_dir = "/some where/dir";
    s.recent = {"/a b/one.json", "/two.json"};
    const SettingsParse p = parse_settings(settings_text(s), UserSettings{});
    EXPECT_TRUE(p.problems.empty()) << p.problems.front();
    EXPECT_TRUE(p.settings.view.solid);
    EXPECT_FALSE(p.settings.view.show_grid);
    EXPECT_FLOAT_EQ(p.settings.view.normal_length, 1.25f);
    EXPECT_EQ(p.settings.view.compare.enabled, s.view.compare.enabled);
    EXPECT_TRUE(p.settings.view.raycast.enabled);
    EXPECT_EQ(p.settings.view.raycast.shading, RaycastShading::Difference);
    EXPECT_EQ(p.settings.view.raycast.placement, RaycastPlacement::Over);
    EXPECT_EQ(p.settings.view.raycast.margin, 2);
    EXPECT_EQ(p.settings.last_dir, "/some where/dir");
    EXPECT_EQ(p.settings.recent, s.recent);
}

TEST(UserConfig, BrokenLinesAreListedAndSkippedTheRestTaken) {
    UserSettings base;
    base.view.show_grid = true;
    const std::string text = "solid = true\n"
                             "garbage line\n"
                             "show_grid = maybe\n"
                             "no_such_key = 1\n"
                             "normal_length = nan\n"
                             "compare = sphere,teapot\n"
                             "\x01\xff binary = \xfe\n"
                             "show_exit = false\n";
    const SettingsParse p = parse_settings(text, base);
    EXPECT_TRUE(p.settings.view.solid);
    EXPECT_FALSE(p.settings.view.show_exit);
    EXPECT_TRUE(p.settings.view.show_grid) << "a bad value keeps what was there";
    EXPECT_FLOAT_EQ(p.settings.view.normal_length, base.view.normal_length);
    ASSERT_EQ(p.problems.size(), 6u);
    EXPECT_NE(p.problems[0].find("line 2"), std::string::npos) << p.problems[0];
    EXPECT_NE(p.problems[1].find("show_grid"), std::string::npos) << p.problems[1];
}

TEST(UserConfig, FilesAreWrittenIntoADirectoryMadeOnDemandAndReadBack) {
    const fs::path d = fresh_dir() / "deep" / "raypick";
    std::string error;
    EXPECT_FALSE(read_config_file(d.string(), kSettingsFile, error));  // not there yet: no error
    EXPECT_EQ(error, "");
    EXPECT_EQ(write_config_file(d.string(), kSettingsFile, "solid = true\n"), std::nullopt);
    const auto text = read_config_file(d.string(), kSettingsFile, error);
    ASSERT_TRUE(text);
    EXPECT_EQ(*text, "solid = true\n");
    // A folder where the file should be: an error to show, not a crash.
    fs::create_directories(d / kImGuiIniFile);
    EXPECT_FALSE(read_config_file(d.string(), kImGuiIniFile, error));
    EXPECT_NE(error.find(kImGuiIniFile), std::string::npos);
    EXPECT_NE(write_config_file(d.string(), kImGuiIniFile, "x"), std::nullopt);
    // A config directory that cannot be made (a file in its place).
    touch(d.parent_path() / "blocked");
    const auto err = write_config_file((d.parent_path() / "blocked" / "raypick").string(), kSettingsFile, "x");
    ASSERT_TRUE(err);
    EXPECT_NE(err->find("blocked"), std::string::npos) << *err;
}
