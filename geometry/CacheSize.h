// raypick geometry: the size of this machine's last-level cache, for choices that depend on what
// stays in cache (Bvh's compact nodes).
#pragma once

#include <cstddef>
#include <fstream>
#include <string>

namespace raypick::detail {

/// Bytes of one cache as sysfs writes it ("32768K", "2M", "512"); 0 if unreadable.
inline std::size_t parse_cache_size(const std::string& s) {
    std::size_t n = 0, i = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') n = n * 10 + std::size_t(s[i++] - '0');
    if (i == 0) return 0;
    if (i < s.size() && (s[i] == 'K' || s[i] == 'k')) return n << 10;
    if (i < s.size() && (s[i] == 'M' || s[i] == 'm')) return n << 20;
    if (i < s.size() && (s[i] == 'G' || s[i] == 'g')) return n << 30;
    return n;
}

/// The size of the highest-level data or unified cache of CPU 0, as Linux reports it in
/// /sys/devices/system/cpu/cpu0/cache (8 MB where that cannot be read). Read once.
/// Not sysconf(_SC_LEVEL3_CACHE_SIZE): glibc derives that from cpuid, and in a virtual machine on
/// an AMD EPYC it said 256 MB where the guest's L3 is 32 MB (what lscpu and sysfs say).
inline std::size_t last_level_cache_bytes() {
    static const std::size_t bytes = [] {
        int best_level = 0;
        std::size_t best = 0;
        for (int i = 0; i < 16; ++i) {
            const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
            std::ifstream level_file(dir + "level"), type_file(dir + "type"), size_file(dir + "size");
            int level = 0;
            std::string type, size;
            if (!(level_file >> level) || !(type_file >> type) || !(size_file >> size)) continue;
            if (type == "Instruction") continue;
            const std::size_t b = parse_cache_size(size);
            if (b > 0 && level > best_level) best_level = level, best = b;
        }
        return best > 0 ? best : std::size_t(8) << 20;
    }();
    return bytes;
}

}  // namespace raypick::detail
