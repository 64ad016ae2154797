// raypick geometry: an allocator for the hierarchy's large arrays (nodes, leaf blocks, the
// builder's working copies of the shapes).
#pragma once

#include <cstddef>
#include <new>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace raypick {

/// std::allocator (over-aligned types get their alignment), except that blocks of 2 MiB or more are
/// 2 MiB-aligned and, on Linux, advised to use transparent huge pages (madvise MADV_HUGEPAGE; the
/// system's setting decides, and the advice is a no-op where it is "never"). A million-shape hierarchy is hundreds of megabytes
/// touched once while building: in 2 MiB pages that is a few hundred page faults instead of a
/// hundred thousand, and its random reads while picking miss the TLB less.
template <typename T> struct LargeAllocator {
    using value_type = T;
    static constexpr std::size_t kHuge = std::size_t(1) << 21;

    LargeAllocator() = default;
    template <typename U> LargeAllocator(const LargeAllocator<U>&) {}

    /// Whether T needs more alignment than plain operator new gives (nodes are cache-line aligned).
    static constexpr bool kOverAligned = alignof(T) > __STDCPP_DEFAULT_NEW_ALIGNMENT__;

    T* allocate(std::size_t n) {
        const std::size_t bytes = n * sizeof(T);
        if (bytes < kHuge) {
            if constexpr (kOverAligned) return static_cast<T*>(::operator new(bytes, std::align_val_t(alignof(T))));
            else return static_cast<T*>(::operator new(bytes));
        }
        const std::size_t rounded = (bytes + kHuge - 1) / kHuge * kHuge;
        void* p = ::operator new(rounded, std::align_val_t(kHuge));
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        madvise(p, rounded, MADV_HUGEPAGE);  // advice only: if it fails, nothing changes
#endif
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t n) {
        if (n * sizeof(T) >= kHuge) ::operator delete(p, std::align_val_t(kHuge));
        else if constexpr (kOverAligned) ::operator delete(p, std::align_val_t(alignof(T)));
        else ::operator delete(p);
    }
    template <typename U> bool operator==(const LargeAllocator<U>&) const { return true; }
    template <typename U> bool operator!=(const LargeAllocator<U>&) const { return false; }
};

/// A vector of large-array memory.
template <typename T> using LargeVector = std::vector<T, LargeAllocator<T>>;

}  // namespace raypick
