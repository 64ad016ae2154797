// raypick's Python module (_raypick, wrapped by the package python/raypick): a Scene of shapes and
// mesh instances over SceneBvh<float> or SceneBvh<double>, its queries over numpy arrays through
// the batch API (geometry/SceneBatch.h) with the GIL released, scene and model files through
// raypick::scene, and mesh generators. Arrays of the scene's dtype are read in place, whatever
// their strides; other arrays are converted once. Bad input raises TypeError or ValueError naming
// the function, the argument and the first bad index; nothing reaches the core unchecked.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <raypick/Version.h>
#include <raypick/geometry/MeshGenerators.h>
#include <raypick/geometry/SceneBatch.h>
#include <raypick/scene/Model.h>
#include <raypick/scene/SceneFile.h>
#include <raypick/scene/SceneMeshes.h>

namespace py = pybind11;
using namespace raypick;

namespace {

constexpr std::int64_t kEveryMaskBit = 0xFFFFFFFFll;

std::string num(double v) {
    std::ostringstream s;
    s.precision(17);
    s << v;
    return s.str();
}

std::string shape_text(const py::array& a) {
    std::string s = "(";
    for (py::ssize_t k = 0; k < a.ndim(); ++k) s += (k ? ", " : "") + std::to_string(a.shape(k));
    return s + (a.ndim() == 1 ? ",)" : ")");
}

std::string dtype_text(const py::array& a) { return py::str(a.dtype()).cast<std::string>(); }

// ---- reading arrays ---------------------------------------------------------------------------

/// An array argument read as T: the caller's array itself when it holds T at strides of whole
/// elements (no copy), else a C-contiguous copy converted once. Integers and booleans convert;
/// anything else (strings, objects, complex numbers) is a TypeError.
template <typename T> struct Real {
    py::array keep;
    const T* data = nullptr;
    std::vector<py::ssize_t> shape, strides;  ///< strides in elements

    py::ssize_t ndim() const { return py::ssize_t(shape.size()); }
    T at(py::ssize_t i, py::ssize_t j = 0, py::ssize_t k = 0) const {
        return data[i * strides[0] + (ndim() > 1 ? j * strides[1] : 0) + (ndim() > 2 ? k * strides[2] : 0)];
    }
};

py::array as_numeric(py::object obj, const std::string& where) {
    py::array a;
    if (py::isinstance<py::array>(obj)) a = py::reinterpret_borrow<py::array>(obj);
    else {
        a = py::array::ensure(obj);
        if (!a) throw py::type_error(where + " must be an array of numbers, got " + std::string(py::str(obj.get_type())));
    }
    const char k = a.dtype().kind();
    if (k != 'f' && k != 'i' && k != 'u' && k != 'b')
        throw py::type_error(where + " must hold real numbers, got an array of dtype " + dtype_text(a));
    return a;
}

template <typename T> Real<T> real(py::object obj, const std::string& where) {
    py::array a = as_numeric(obj, where);
    bool in_place = py::array_t<T>::check_(a);
    for (py::ssize_t k = 0; k < a.ndim() && in_place; ++k) in_place = a.strides(k) % py::ssize_t(sizeof(T)) == 0;
    if (!in_place) a = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(a);
    if (!a) throw py::type_error(where + ": cannot be read as " + (sizeof(T) == 4 ? "float32" : "float64"));
    Real<T> r;
    r.keep = a;
    r.data = static_cast<const T*>(a.data());
    for (py::ssize_t k = 0; k < a.ndim(); ++k) {
        r.shape.push_back(a.shape(k));
        r.strides.push_back(a.strides(k) / py::ssize_t(sizeof(T)));
    }
    return r;
}

/// n 3-vectors from an (n, 3) array, or one (3,) vector for all n when `broadcast` (n < 0: the
/// array decides). Every value must be finite.
template <typename T> struct Vectors {
    Real<T> array;
    Vec3View<T> view;
    bool single = false;  ///< a (3,) vector repeated
};

template <typename T>
void require_finite(const Vec3View<T>& v, std::size_t count, const std::string& where, bool single) {
    for (std::size_t i = 0; i < count; ++i) {
        const Vec3<T> p = v[i];
        if (!is_finite(p))
            throw py::value_error(where + (single ? "" : "[" + std::to_string(i) + "]") + " is not finite: (" + num(p.x) +
                                  ", " + num(p.y) + ", " + num(p.z) + ")");
        if (single) break;
    }
}

template <typename T> Vectors<T> vectors(py::object obj, const std::string& where, bool allow_single) {
    Vectors<T> v;
    v.array = real<T>(obj, where);
    const auto& a = v.array;
    if (a.ndim() == 2 && a.shape[1] == 3) {
        v.view = Vec3View<T>(a.data, std::size_t(a.shape[0]), a.strides[0], a.strides[1]);
    } else if (allow_single && a.ndim() == 1 && a.shape[0] == 3) {
        v.view = Vec3View<T>(a.data, 1, 0, a.strides[0]);
        v.single = true;
    } else {
        throw py::value_error(where + " must have shape (N, 3)" + std::string(allow_single ? " or (3,)" : "") + ", got " +
                              shape_text(a.keep));
    }
    require_finite(v.view, v.view.size, where, v.single);
    return v;
}

/// One 3-vector argument.
template <typename T> Vec3<T> vec3(py::object obj, const std::string& where) {
    const Real<T> a = real<T>(obj, where);
    if (a.ndim() != 1 || a.shape[0] != 3) throw py::value_error(where + " must have shape (3,), got " + shape_text(a.keep));
    const Vec3<T> v(a.at(0), a.at(1), a.at(2));
    if (!is_finite(v)) throw py::value_error(where + " is not finite: (" + num(v.x) + ", " + num(v.y) + ", " + num(v.z) + ")");
    return v;
}

/// The rays of a query: (N, 6) rows when `directions` is None, else origins and directions each
/// (N, 3), or one (3,) for every ray (a camera's eye, a light's direction).
template <typename T> struct Rays {
    Vectors<T> origins, directions;
    Real<T> rows;
    RayView<T> view;
};

template <typename T> Rays<T> rays(py::object origins, py::object directions, const std::string& fn) {
    Rays<T> r;
    if (directions.is_none()) {
        r.rows = real<T>(origins, fn + ": rays");
        const auto& a = r.rows;
        if (a.ndim() != 2 || a.shape[1] != 6)
            throw py::value_error(fn + ": rays (the first argument, without directions) must have shape (N, 6), got " +
                                  shape_text(a.keep) + "; or pass origins and directions of shape (N, 3)");
        r.view = RayView<T>::rows(a.data, std::size_t(a.shape[0]), a.strides[0], a.strides[1]);
        for (std::size_t i = 0; i < r.view.size(); ++i) {
            const Ray<T> ray = r.view[i];
            if (!is_finite(ray.origin) || !is_finite(ray.direction))
                throw py::value_error(fn + ": rays[" + std::to_string(i) + "] is not finite: (" + num(ray.origin.x) + ", " +
                                      num(ray.origin.y) + ", " + num(ray.origin.z) + ", " + num(ray.direction.x) + ", " +
                                      num(ray.direction.y) + ", " + num(ray.direction.z) + ")");
        }
        return r;
    }
    r.origins = vectors<T>(origins, fn + ": origins", true);
    r.directions = vectors<T>(directions, fn + ": directions", true);
    Vec3View<T> o = r.origins.view, d = r.directions.view;
    if (r.origins.single && !r.directions.single) o.size = d.size;
    else if (r.directions.single && !r.origins.single) d.size = o.size;
    else if (o.size != d.size)
        throw py::value_error(fn + ": " + std::to_string(o.size) + " origins but " + std::to_string(d.size) + " directions");
    r.view = RayView<T>(o, d);
    return r;
}

std::uint32_t mask_value(std::int64_t m, const std::string& where) {
    if (m < 0 || m > kEveryMaskBit) throw py::value_error(where + " must be in [0, 0xFFFFFFFF], got " + std::to_string(m));
    return std::uint32_t(m);
}

/// `count` integers: one for all, or a (count,) array of them.
std::vector<std::int64_t> integers_of(py::object obj, std::size_t count, const std::string& where) {
    if (py::isinstance<py::int_>(obj)) return std::vector<std::int64_t>(count, obj.cast<std::int64_t>());
    const py::array a = as_numeric(obj, where);
    if (a.dtype().kind() != 'i' && a.dtype().kind() != 'u' && a.size() > 0)
        throw py::type_error(where + " must be integers, got dtype " + dtype_text(a));
    if (a.ndim() != 1 || std::size_t(a.shape(0)) != count)
        throw py::value_error(where + " must be an integer or have shape (" + std::to_string(count) + ",), got " + shape_text(a));
    const auto v = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(a);
    return std::vector<std::int64_t>(v.data(), v.data() + count);
}

/// Per-object masks of a vectorised add: None (all bits), one integer for all, or (K,) integers.
std::vector<std::uint32_t> masks_of(py::object obj, std::size_t count, const std::string& where) {
    if (obj.is_none()) return std::vector<std::uint32_t>(count, 0xFFFFFFFFu);
    const auto v = integers_of(obj, count, where);
    std::vector<std::uint32_t> out;
    for (std::size_t i = 0; i < count; ++i) out.push_back(mask_value(v[i], where + "[" + std::to_string(i) + "]"));
    return out;
}

/// A length per object: one number for all or (K,).
template <typename T> std::vector<T> lengths_of(py::object obj, std::size_t count, const std::string& where) {
    const Real<T> a = real<T>(obj, where);
    std::vector<T> out;
    if (a.ndim() == 0) out.assign(count, a.data[0]);
    else if (a.ndim() == 1 && std::size_t(a.shape[0]) == count)
        for (std::size_t i = 0; i < count; ++i) out.push_back(a.at(py::ssize_t(i)));
    else throw py::value_error(where + " must be a number or have shape (" + std::to_string(count) + ",), got " + shape_text(a.keep));
    return out;
}

/// An affine map from a 4 x 4 (last row 0 0 0 1) or 3 x 4 matrix: world = M[:3, :3] @ p + M[:3, 3].
template <typename T> Affine<T> affine_from(const Real<T>& a, py::ssize_t k, bool stacked, const std::string& where) {
    const py::ssize_t rows = a.shape[stacked ? 1 : 0];
    const auto at = [&](py::ssize_t r, py::ssize_t c) { return stacked ? a.at(k, r, c) : a.at(r, c); };
    const std::string name = where + (stacked ? "[" + std::to_string(k) + "]" : "");
    if (rows == 4 && !(at(3, 0) == 0 && at(3, 1) == 0 && at(3, 2) == 0 && at(3, 3) == 1))
        throw py::value_error(name + ": the last row of a 4 x 4 affine matrix must be (0, 0, 0, 1), got (" + num(at(3, 0)) +
                              ", " + num(at(3, 1)) + ", " + num(at(3, 2)) + ", " + num(at(3, 3)) + ")");
    Affine<T> m;
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) m.linear[c][r] = at(r, c);
    for (int r = 0; r < 3; ++r) m.translation[r] = at(r, 3);
    if (const auto err = validate(m)) throw py::value_error(name + ": " + err->message);
    return m;
}

template <typename T> Affine<T> affine(py::object obj, const std::string& where) {
    if (obj.is_none()) return Affine<T>{};
    const Real<T> a = real<T>(obj, where);
    if (a.ndim() != 2 || (a.shape[0] != 4 && a.shape[0] != 3) || a.shape[1] != 4)
        throw py::value_error(where + " must have shape (4, 4) or (3, 4), got " + shape_text(a.keep));
    return affine_from(a, 0, false, where);
}

template <typename T> Mat3<T> rotation_at(const Real<T>& a, py::ssize_t k, bool stacked) {
    Mat3<T> m;
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) m[c][r] = stacked ? a.at(k, r, c) : a.at(r, c);
    return m;
}

// ---- the scene --------------------------------------------------------------------------------

template <typename T> py::array_t<T> new_array(std::initializer_list<py::ssize_t> shape) {
    return py::array_t<T>(std::vector<py::ssize_t>(shape));
}

/// Object ids and triangle indices as Python sees them: int64, -1 for none.
std::int64_t id_out(std::uint32_t v) { return v == 0xFFFFFFFFu ? -1 : std::int64_t(v); }

/// A vector's contents as a numpy array that owns them (no copy).
template <typename V> py::array owned(V&& v) {
    using X = typename std::decay_t<V>::value_type;
    auto* heap = new std::decay_t<V>(std::forward<V>(v));
    py::capsule free(heap, [](void* p) { delete static_cast<std::decay_t<V>*>(p); });
    return py::array_t<X>(py::ssize_t(heap->size()), heap->data(), free);
}

py::array offsets_array(std::vector<std::size_t>&& offsets) {
    static_assert(sizeof(std::size_t) == sizeof(std::int64_t), "offsets are 64-bit");
    auto* heap = new std::vector<std::size_t>(std::move(offsets));
    py::capsule free(heap, [](void* p) { delete static_cast<std::vector<std::size_t>*>(p); });
    // Offsets never exceed 2^63: the same bits read as int64, which numpy indexes with.
    return py::array_t<std::int64_t>(py::ssize_t(heap->size()), reinterpret_cast<const std::int64_t*>(heap->data()), free);
}

py::array counts_of(const std::vector<std::size_t>& offsets) {
    const std::size_t n = offsets.size() - 1;
    auto counts = new_array<std::int64_t>({py::ssize_t(n)});
    std::int64_t* c = counts.mutable_data();
    for (std::size_t i = 0; i < n; ++i) c[i] = std::int64_t(offsets[i + 1] - offsets[i]);
    return counts;
}

class PyScene {
public:
    explicit PyScene(bool is_double) : double_(is_double) {
        if (double_) d_ = std::make_unique<SceneBvh<double>>();
        else f_ = std::make_unique<SceneBvh<float>>();
    }

    bool is_double() const { return double_; }
    template <typename Fn> decltype(auto) visit(Fn&& fn) { return double_ ? fn(*d_) : fn(*f_); }

    /// Changes are refused while a query runs on another thread (queries release the GIL).
    void mutating(const char* what) const {
        if (queries_.load() != 0)
            throw std::runtime_error(std::string("Scene.") + what + ": the scene is being queried on another thread");
    }

    /// Held by a query: commits pending changes (with the GIL held), then counts the query as
    /// running until it ends.
    struct Query {
        PyScene& s;
        explicit Query(PyScene& scene) : s(scene) {
            if (s.visit([](auto& b) { return b.dirty(); })) {
                s.mutating("commit");
                s.visit([](auto& b) { b.commit(); });
            }
            ++s.queries_;
        }
        ~Query() { --s.queries_; }
    };

    ObjectId added(ObjectId id) {
        if (live_.size() <= id) live_.resize(id + 1, false);
        live_[id] = true;
        ++count_;
        return id;
    }
    void removed(ObjectId id) {
        live_[id] = false;
        --count_;
        names_.erase(id);
    }
    std::size_t count() const { return count_; }
    std::vector<std::int64_t> ids() const {
        std::vector<std::int64_t> out;
        for (std::size_t i = 0; i < live_.size(); ++i)
            if (live_[i]) out.push_back(std::int64_t(i));
        return out;
    }
    ObjectId object_id(std::int64_t id, const char* fn) const {
        if (id < 0 || std::size_t(id) >= live_.size() || !live_[std::size_t(id)])
            throw py::value_error(std::string("Scene.") + fn + ": no object " + std::to_string(id));
        return ObjectId(id);
    }
    std::map<ObjectId, std::string>& names() { return names_; }

private:
    bool double_;
    std::unique_ptr<SceneBvh<float>> f_;
    std::unique_ptr<SceneBvh<double>> d_;
    std::vector<bool> live_;
    std::size_t count_ = 0;
    std::map<ObjectId, std::string> names_;
    std::atomic<int> queries_{0};
};

template <typename S> struct ScalarOf;
template <typename T> struct ScalarOf<SceneBvh<T>> {
    using type = T;
};
template <typename S> using scalar_of = typename ScalarOf<std::decay_t<S>>::type;

template <typename T>
BatchOptions<T> options(double t_min, double t_max, std::int64_t mask, bool cull, int threads, const std::string& fn) {
    if (std::isnan(t_min) || std::isnan(t_max)) throw py::value_error(fn + ": t_min and t_max must not be NaN");
    if (t_min > t_max) throw py::value_error(fn + ": t_min (" + num(t_min) + ") is greater than t_max (" + num(t_max) + ")");
    if (threads < 0) throw py::value_error(fn + ": threads must be 0 (every core) or more, got " + std::to_string(threads));
    BatchOptions<T> o;
    o.t_min = T(t_min);
    o.t_max = T(t_max);
    o.filter.mask = mask_value(mask, fn + ": mask");
    o.filter.cull_back_faces = cull;
    o.threads = unsigned(threads);
    return o;
}

// Adding shapes: every shape is checked before any is added, so a bad one adds nothing.
template <typename T>
py::array add_shapes(PyScene& ps, SceneBvh<T>& s, const std::vector<Shape<T>>& shapes, const std::vector<std::uint32_t>& masks,
                     const std::string& fn) {
    ps.mutating(fn.c_str());
    for (std::size_t i = 0; i < shapes.size(); ++i)
        if (const auto err = validate(shapes[i]))
            throw py::value_error("Scene." + fn + ": " + shape_type_name(type_of(shapes[i])) + " " + std::to_string(i) + ": " +
                                  err->field + ": " + err->message);
    auto out = new_array<std::int64_t>({py::ssize_t(shapes.size())});
    for (std::size_t i = 0; i < shapes.size(); ++i) out.mutable_data()[i] = ps.added(s.add_shape(shapes[i], masks[i]));
    return out;
}

std::int64_t single_id(const py::array& ids) { return ids.cast<py::array_t<std::int64_t>>().at(0); }

/// Reads a ModelMesh-like mesh from numpy: vertices (N, 3), triangles (M, 3) integers in [0, N).
template <typename T> TriangleMesh<T> mesh_from(py::object vertices, py::object triangles, const std::string& fn) {
    TriangleMesh<T> m;
    const Vectors<T> v = vectors<T>(vertices, fn + ": vertices", false);
    m.positions.reserve(v.view.size);
    for (std::size_t i = 0; i < v.view.size; ++i) m.positions.push_back(v.view[i]);
    const py::array a = as_numeric(triangles, fn + ": triangles");
    if (a.dtype().kind() != 'i' && a.dtype().kind() != 'u' && a.size() > 0)
        throw py::type_error(fn + ": triangles must be integers, got dtype " + dtype_text(a));
    if (!(a.ndim() == 2 && a.shape(1) == 3) && !(a.ndim() == 1 && a.size() == 0))
        throw py::value_error(fn + ": triangles must have shape (M, 3), got " + shape_text(a));
    const auto idx = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(a);
    const std::int64_t* p = idx.data();
    const std::size_t count = a.ndim() == 2 ? std::size_t(a.shape(0)) : 0;
    const std::int64_t n = std::int64_t(m.positions.size());
    // An index beyond int64 wraps in the conversion above; uint64 arrays are checked as they are.
    const bool unsigned64 = a.dtype().kind() == 'u' && a.dtype().itemsize() == 8;
    m.indices.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        std::array<std::uint32_t, 3> tri{};
        for (int k = 0; k < 3; ++k) {
            const std::int64_t x = p[3 * i + std::size_t(k)];
            if (x < 0 || x >= n)
                throw py::value_error(fn + ": triangles[" + std::to_string(i) + ", " + std::to_string(k) + "] is " +
                                      (unsigned64 ? std::to_string(std::uint64_t(x)) : std::to_string(x)) +
                                      ", out of range for " + std::to_string(n) + " vertices");
            tri[std::size_t(k)] = std::uint32_t(x);
        }
        m.indices.push_back(tri);
    }
    return m;
}

// ---- queries ----------------------------------------------------------------------------------

template <typename T>
py::dict pick(PyScene& ps, SceneBvh<T>& s, py::object origins, py::object directions, const BatchOptions<T>& o) {
    const Rays<T> r = rays<T>(origins, directions, "Scene.pick");
    const auto n = py::ssize_t(r.view.size());
    auto t = new_array<T>({n});
    auto object = new_array<std::int64_t>({n}), triangle = new_array<std::int64_t>({n});
    auto point = new_array<T>({n, 3}), normal = new_array<T>({n, 3}), bary = new_array<T>({n, 3});
    auto front = new_array<bool>({n});
    {
        PyScene::Query q(ps);
        T *tp = t.mutable_data(), *pp = point.mutable_data(), *np = normal.mutable_data(), *bp = bary.mutable_data();
        bool* fp = front.mutable_data();
        std::int64_t *op = object.mutable_data(), *trp = triangle.mutable_data();
        py::gil_scoped_release release;
        std::vector<ObjectId> ids(static_cast<std::size_t>(n));
        std::vector<std::uint32_t> tris(static_cast<std::size_t>(n));
        scene_batch::pick(s, r.view, PickOutput<T>{tp, ids.data(), tris.data(), pp, np, bp, fp}, o);
        for (py::ssize_t i = 0; i < n; ++i) op[i] = id_out(ids[std::size_t(i)]), trp[i] = id_out(tris[std::size_t(i)]);
    }
    py::dict d;
    d["t"] = t, d["object"] = object, d["triangle"] = triangle, d["point"] = point, d["normal"] = normal;
    d["barycentric"] = bary, d["front"] = front;
    return d;
}

template <typename T>
py::array occluded(PyScene& ps, SceneBvh<T>& s, py::object origins, py::object directions, const BatchOptions<T>& o) {
    const Rays<T> r = rays<T>(origins, directions, "Scene.occluded");
    auto out = new_array<bool>({py::ssize_t(r.view.size())});
    PyScene::Query q(ps);
    bool* p = out.mutable_data();
    py::gil_scoped_release release;
    scene_batch::occluded(s, r.view, p, o);
    return out;
}

template <typename T>
py::dict crossings(PyScene& ps, SceneBvh<T>& s, py::object origins, py::object directions, const BatchOptions<T>& o) {
    const Rays<T> r = rays<T>(origins, directions, "Scene.crossings");
    CrossingsResults<T> c;
    std::vector<std::int64_t> object, triangle;
    std::vector<std::int8_t> kind;
    {
        PyScene::Query q(ps);
        py::gil_scoped_release release;
        c = scene_batch::crossings(s, r.view, o);
        object.resize(c.object.size()), triangle.resize(c.object.size()), kind.resize(c.object.size());
        for (std::size_t i = 0; i < c.object.size(); ++i)
            object[i] = id_out(c.object[i]), triangle[i] = id_out(c.triangle[i]), kind[i] = std::int8_t(c.kind[i]);
        std::vector<ObjectId>().swap(c.object);
        std::vector<std::uint32_t>().swap(c.triangle);
    }
    py::dict d;
    d["counts"] = counts_of(c.offsets);
    d["offsets"] = offsets_array(std::move(c.offsets));
    d["t"] = owned(std::move(c.t));
    d["object"] = owned(std::move(object));
    d["triangle"] = owned(std::move(triangle));
    d["kind"] = owned(std::move(kind));
    return d;
}

template <typename T> py::object contains(PyScene& ps, SceneBvh<T>& s, py::object points, py::object object, const BatchOptions<T>& o) {
    const Vectors<T> p = vectors<T>(points, "Scene.contains: points", false);
    if (!object.is_none()) {
        const ObjectId id = ps.object_id(object.cast<std::int64_t>(), "contains");
        auto out = new_array<bool>({py::ssize_t(p.view.size)});
        PyScene::Query q(ps);
        bool* b = out.mutable_data();
        py::gil_scoped_release release;
        scene_batch::contains_object(s, p.view, id, b, o);
        return std::move(out);
    }
    ContainsResults c;
    std::vector<std::int64_t> ids;
    {
        PyScene::Query q(ps);
        py::gil_scoped_release release;
        c = scene_batch::contains(s, p.view, o);
        ids.assign(c.object.begin(), c.object.end());
    }
    py::dict d;
    d["counts"] = counts_of(c.offsets);
    d["offsets"] = offsets_array(std::move(c.offsets));
    d["object"] = owned(std::move(ids));
    return std::move(d);
}

template <typename T> py::array classify(PyScene& ps, SceneBvh<T>& s, py::object points, std::int64_t object, const BatchOptions<T>& o) {
    const Vectors<T> p = vectors<T>(points, "Scene.classify: points", false);
    const ObjectId id = ps.object_id(object, "classify");
    auto out = new_array<std::int8_t>({py::ssize_t(p.view.size)});
    PyScene::Query q(ps);
    std::int8_t* c = out.mutable_data();
    py::gil_scoped_release release;
    static_assert(sizeof(Containment) == 1, "Containment is one byte");
    scene_batch::classify(s, p.view, id, reinterpret_cast<Containment*>(c), o);
    return out;
}

template <typename T>
py::dict closest_point(PyScene& ps, SceneBvh<T>& s, py::object points, double max_distance, const BatchOptions<T>& o) {
    const Vectors<T> p = vectors<T>(points, "Scene.closest_point: points", false);
    const auto n = py::ssize_t(p.view.size);
    auto distance = new_array<T>({n}), signed_distance = new_array<T>({n});
    auto object = new_array<std::int64_t>({n}), triangle = new_array<std::int64_t>({n});
    auto point = new_array<T>({n, 3}), normal = new_array<T>({n, 3}), bary = new_array<T>({n, 3});
    auto feature = new_array<std::int8_t>({n}), index = new_array<std::int8_t>({n});
    auto inside = new_array<bool>({n});
    {
        PyScene::Query q(ps);
        ClosestOutput<T> out{distance.mutable_data(), signed_distance.mutable_data(), nullptr, nullptr, point.mutable_data(),
                             normal.mutable_data(), bary.mutable_data(),
                             reinterpret_cast<Feature*>(feature.mutable_data()),
                             reinterpret_cast<std::uint8_t*>(index.mutable_data()), inside.mutable_data()};
        std::int64_t *op = object.mutable_data(), *tp = triangle.mutable_data();
        py::gil_scoped_release release;
        std::vector<ObjectId> ids(static_cast<std::size_t>(n));
        std::vector<std::uint32_t> tris(static_cast<std::size_t>(n));
        out.object = ids.data(), out.triangle = tris.data();
        scene_batch::closest_point(s, p.view, out, T(max_distance), o);
        for (py::ssize_t i = 0; i < n; ++i) op[i] = id_out(ids[std::size_t(i)]), tp[i] = id_out(tris[std::size_t(i)]);
    }
    py::dict d;
    d["distance"] = distance, d["signed_distance"] = signed_distance, d["object"] = object, d["triangle"] = triangle;
    d["point"] = point, d["normal"] = normal, d["barycentric"] = bary, d["feature"] = feature, d["feature_index"] = index;
    d["inside"] = inside;
    return d;
}

template <typename T>
py::array signed_distance(PyScene& ps, SceneBvh<T>& s, py::object points, double max_distance, const BatchOptions<T>& o) {
    const Vectors<T> p = vectors<T>(points, "Scene.signed_distance: points", false);
    auto out = new_array<T>({py::ssize_t(p.view.size)});
    PyScene::Query q(ps);
    T* d = out.mutable_data();
    py::gil_scoped_release release;
    scene_batch::signed_distance(s, p.view, d, T(max_distance), o);
    return out;
}

double max_distance_value(double m, const std::string& fn) {
    if (!(m >= 0)) throw py::value_error(fn + ": max_distance must be >= 0, got " + num(m));
    return m;
}

// ---- files ------------------------------------------------------------------------------------

template <typename T> void load_into(PyScene& ps, SceneBvh<T>& s, const std::string& path) {
    if (!std::ifstream(path).good()) throw py::value_error("raypick.load: cannot open " + path);
    if (model_format_of(path)) {
        auto loaded = load_model(path);
        if (auto* err = std::get_if<ModelLoadError>(&loaded)) throw py::value_error("raypick.load: " + err->what());
        const Model& model = std::get<Model>(loaded);
        std::vector<SceneBvh<double>::MeshId> meshes;
        for (const ModelMesh& m : model.meshes) meshes.push_back(s.add_mesh(triangle_mesh<T>(m)));
        for (const ModelInstance& mi : model.instances) {
            const ObjectId id = ps.added(s.add_instance(meshes.at(mi.mesh), affine_of<T>(mi.transform)));
            ps.names()[id] = !mi.name.empty() ? mi.name : model.meshes[mi.mesh].name;
        }
        return;
    }
    auto loaded = load_scene_file(path);
    if (auto* err = std::get_if<SceneLoadError>(&loaded)) throw py::value_error("raypick.load: " + err->what());
    const Scene& scene = std::get<Scene>(loaded);
    for (const SceneShape& sh : scene.shapes) {
        const Shape<T> shape = convert<T>(sh.shape);
        if (const auto err = validate(shape))  // a double shape may not survive the float conversion
            throw py::value_error("raypick.load: " + path + ": shape '" + sh.name + "' in this dtype: " + err->field + ": " + err->message);
        ps.names()[ps.added(s.add_shape(shape))] = sh.name;
    }
    PlacedMeshes<T> placed = place_meshes<T>(scene);
    std::vector<SceneBvh<double>::MeshId> meshes;
    for (auto& m : placed.meshes) meshes.push_back(s.add_mesh(std::move(m)));
    for (std::size_t k = 0; k < placed.instances.size(); ++k) {
        const auto& origin = placed.origin[k];
        const SceneInstance& si = scene.instances[origin.scene_instance];
        const ObjectId id = ps.added(s.add_instance(meshes[placed.instances[k].mesh], placed.instances[k].transform));
        const bool several = scene.meshes[si.mesh].model.instances.size() > 1;
        ps.names()[id] = several ? si.name + "[" + std::to_string(origin.placement) + "]" : si.name;
    }
}

bool dtype_is_double(py::object dtype) {
    const py::dtype d = py::dtype::from_args(py::reinterpret_borrow<py::object>(dtype));
    if (d.kind() == 'f' && d.itemsize() == 8) return true;
    if (d.kind() == 'f' && d.itemsize() == 4) return false;
    throw py::type_error("raypick.Scene: dtype must be numpy.float32 or numpy.float64, got " + py::str(py::handle(d)).cast<std::string>());
}

py::tuple mesh_arrays(const TriangleMesh<double>& m) {
    auto v = new_array<double>({py::ssize_t(m.positions.size()), 3});
    auto f = new_array<std::int64_t>({py::ssize_t(m.indices.size()), 3});
    for (std::size_t i = 0; i < m.positions.size(); ++i)
        for (int k = 0; k < 3; ++k) v.mutable_data()[3 * i + std::size_t(k)] = m.positions[i][k];
    for (std::size_t i = 0; i < m.indices.size(); ++i)
        for (int k = 0; k < 3; ++k) f.mutable_data()[3 * i + std::size_t(k)] = m.indices[i][std::size_t(k)];
    return py::make_tuple(v, f);
}

// ---- docstrings -------------------------------------------------------------------------------

const char* const kRaysDoc = R"(
Rays: ``origins`` and ``directions`` of shape (N, 3), either of them (3,) to share it between
every ray (a camera's eye, a light's direction); or one (N, 6) array of rows (ox, oy, oz, dx, dy,
dz) as ``origins`` with ``directions`` left out. Ray i is ``origins[i] + t * directions[i]``:
t is in units of the direction, which need not be unit length. Non-finite values raise
ValueError naming the first bad row; a zero direction is a ray that hits nothing.

Arrays of the scene's dtype are read in place whatever their strides; others are converted once.
Keyword arguments: ``t_min``, ``t_max`` (the range [t_min, t_max] of t, default [0, inf)),
``mask`` (an object takes part when its mask & mask != 0), ``cull_back_faces`` (skip triangles
met from behind: mesh triangles and triangle shapes), ``threads`` (0: every core). The answers do
not depend on the thread count. The GIL is released while the rays are cast. Pending changes are
committed first.
)";

const char* const kPickDoc = R"(The nearest hit of every ray.

Returns a dict of arrays indexed by ray: ``t`` (N,), ``object`` (N,) int64, ``triangle`` (N,)
int64, ``point`` (N, 3) = origin + t * direction, ``normal`` (N, 3) unit, ``barycentric`` (N, 3)
(a mesh triangle's weights of its vertices), ``front`` (N,) bool.

- A miss: t = inf, object = -1, triangle = -1, point, normal and barycentric zero, front False.
- A shape's hit is its first surface point in [t_min, t_max]: the exit when the ray starts inside
  (front False then). triangle is -1 for shapes.
- A mesh triangle's hit is exact and closed: a ray through an edge or vertex shared by triangles
  hits (one of them), so nothing leaks between triangles. Its normal is the triangle's winding
  normal (counter-clockwise seen from the front), front True when the ray meets that side.
- Ties: the smaller t, then a shape before an instance, then the lower slot, then the lower
  triangle.
)";

const char* const kOccludedDoc = R"(Whether anything is hit with t in [t_min, t_max], per ray: a bool (N,) array, exactly
where ``pick`` with the same arguments hits (a shadow ray, a line of sight), found by walks that
stop at the first hit. A range wholly inside a solid crosses no surface: not occluded.
)";

const char* const kCrossingsDoc = R"(Every crossing of every ray with an object's surface in [t_min, t_max].

Returns a dict: ``counts`` (N,) int64, ``offsets`` (N + 1,) int64 (ray i's crossings are the
entries offsets[i]:offsets[i + 1] of the flat arrays), and the flat arrays ``t``, ``object``
(int64), ``triangle`` (int64, -1 for shapes), ``kind`` (int8: raypick.CrossingKind ENTER 0,
LEAVE 1, TOUCH 2), sorted per ray by t, then object, then triangle.

- A shape gives its entry and exit in the range, or one TOUCH where they coincide (a tangent);
  a triangle shape ENTER through its front, LEAVE through its back.
- A mesh gives the crossings of raypick's crossing rule: a ray exactly through an edge or vertex
  shared by triangles crosses there ONCE (ENTER or LEAVE by the faces' direction), never twice
  and never zero times; where the surface folds back along the ray (a contour edge or vertex) it
  is one TOUCH. So along a ray from outside a closed mesh to beyond it, ENTER and LEAVE alternate
  and come out even.
)";

const char* const kContainsDoc = R"(Which objects' closed solids hold each point, exactly.

``points``: (N, 3). With ``object`` given (an id): a bool (N,) array, whether that object's
closed solid holds each point (False for an object without an inside: a triangle shape, an open
mesh). Without it: a dict ``counts`` (N,), ``offsets`` (N + 1,) and the flat int64 array
``object`` (point i's containing ids, in id order, are object[offsets[i]:offsets[i + 1]]),
among the objects whose mask & mask != 0.

The answer is exact: a point on the surface is held; a mesh instance holds a point when it is on
a triangle or the mesh's winding number about it is non-zero, counted along +x with raypick's
crossing rule, whose every sign is exact, so points whose +x ray passes exactly through an edge
or vertex are answered right (parity counts of ray hits get these wrong). Nothing is chosen at
random. The GIL is released; pending changes are committed first.
)";

const char* const kClassifyDoc = R"(Where each point stands against object ``object``'s solid: an int8 (N,) array of
raypick.Containment values: OUTSIDE 0, INSIDE 1, ON_SURFACE 2, NO_INSIDE 3 (a triangle shape,
or a mesh that is not closed: Scene.mesh_closure says why). Exact, as ``contains``.
)";

const char* const kClosestDoc = R"(The surface point nearest to each point, within max_distance.

``points``: (N, 3). Returns a dict of arrays indexed by point: ``distance`` (N,) >= 0 (also from
inside a solid), ``signed_distance`` (N,) (negative inside the nearest object's solid, exactly 0
on its surface: the sign is classify()'s, exact, never decided by rounding), ``object`` and
``triangle`` (int64; triangle -1 for shapes), ``point`` (N, 3) on the surface, ``normal`` (N, 3)
unit (the feature's outward normal; at a box's edge or corner the direction from the surface point
to the query point), ``barycentric`` (N, 3) (a mesh triangle's weights at the point),
``feature`` (int8: raypick.Feature FACE 0, EDGE 1, VERTEX 2) and ``feature_index`` (int8, per shape
type), ``inside`` (bool: strictly inside the nearest object's solid).

Nothing within max_distance (or only objects outside the mask): distance and signed_distance inf,
object and triangle -1, the rest zero. Ties: the smaller distance, then a shape before an
instance, then the lower slot, then the lower triangle. Where solids overlap the sign belongs to
the nearest object's surface, not to their union. Objects without an inside (triangle shapes,
open meshes) give the distance unsigned. Keyword arguments: ``max_distance``, ``mask``,
``threads`` (0: every core); the answers do not depend on the thread count. The GIL is released;
pending changes are committed first.
)";

const char* const kSignedDistanceDoc = R"(The signed distance from each point to the nearest surface: a (N,) array, negative inside the
nearest object's solid, exactly 0 on its surface, inf where nothing lies within max_distance.
The same numbers as closest_point()'s ``signed_distance``, without the rest.
)";

/// A binding over either scene: fn(ps, scene, args...) with the scene's scalar type, for a
/// function of the given Python-facing argument types.
template <typename... Args, typename Fn> auto dispatch(Fn fn) {
    return [fn](PyScene& ps, Args... args) { return ps.visit([&](auto& s) { return fn(ps, s, args...); }); };
}

}  // namespace

PYBIND11_MODULE(_raypick, m) {
    m.doc() = "raypick's compiled core: see the raypick package.";
    m.attr("__version__") = RAYPICK_VERSION_STRING;

    py::class_<PyScene> scene(m, "Scene", R"(A scene of shapes and triangle-mesh instances with exact ray and point queries.

Scene(dtype=numpy.float64): the dtype (numpy.float32 or numpy.float64) is the precision of the
core that stores the objects and answers the queries; query results come in it.

Objects (shapes, mesh instances) get integer ids, stable until removed and never given again;
meshes (add_mesh) get their own ids and are shared by instances. Each object has a 32-bit mask.
Changes (add_*, remove, set_*) take effect at commit(), which every query calls when changes
are pending, so explicit commit() calls are optional (one before timing queries keeps the
hierarchy build out of the timing). Changes while a query runs on another thread raise
RuntimeError.)");

    scene.def(py::init([](py::object dtype) { return std::make_unique<PyScene>(dtype_is_double(dtype)); }),
              py::arg("dtype") = py::module_::import("numpy").attr("float64"));
    scene.def_property_readonly("dtype", [](PyScene& ps) {
        return ps.is_double() ? py::dtype::of<double>() : py::dtype::of<float>();
    }, "numpy.float32 or numpy.float64: the precision of the core.");
    scene.def("__len__", &PyScene::count, "The number of objects (shapes and instances).");
    scene.def("__contains__", [](PyScene& ps, std::int64_t id) {
        return id >= 0 && ps.visit([&](auto& s) { return s.contains_object(ObjectId(id)); });
    });
    scene.def_property_readonly("object_ids", [](PyScene& ps) { return owned(ps.ids()); }, "The ids of the objects, ascending (int64).");
    scene.def_property_readonly("mesh_count", [](PyScene& ps) {
        return ps.visit([](auto& s) { return s.meshes().size(); });
    });
    scene.def_property_readonly("names", [](PyScene& ps) { return ps.names(); },
                                "Object id -> name, for the objects raypick.load() named (from the file).");
    scene.def_property_readonly("dirty", [](PyScene& ps) { return ps.visit([](auto& s) { return s.dirty(); }); },
                                "Whether changes wait for commit().");
    scene.def("__repr__", [](PyScene& ps) {
        const std::size_t meshes = ps.visit([](auto& s) { return s.meshes().size(); });
        return "<raypick.Scene " + std::string(ps.is_double() ? "float64" : "float32") + ": " + std::to_string(ps.count()) +
               " objects, " + std::to_string(meshes) + " meshes>";
    });

    scene.def("add_mesh", dispatch<py::object, py::object>([](PyScene& ps, auto& s, py::object vertices, py::object triangles) {
        using T = scalar_of<decltype(s)>;
        ps.mutating("add_mesh");
        TriangleMesh<T> mesh = mesh_from<T>(vertices, triangles, "Scene.add_mesh");
        if (mesh.indices.size() > 0xFFFFFFFEu) throw py::value_error("Scene.add_mesh: more than 2^32 - 2 triangles");
        // The hierarchy is built without the GIL (it touches nothing of the scene); the scene
        // itself changes with the GIL held, so no query or change on another thread sees it half done.
        std::shared_ptr<const MeshBvh<T>> bvh;
        {
            py::gil_scoped_release release;
            bvh = std::make_shared<const MeshBvh<T>>(std::move(mesh));
        }
        return std::int64_t(s.add_mesh(std::move(bvh)));
    }), py::arg("vertices"), py::arg("triangles"), R"(Adds a triangle mesh for instances to place; returns its mesh id.

vertices: (N, 3) finite numbers. triangles: (M, 3) integers, each in [0, N); a triangle's front
face is the side from which its vertices run counter-clockwise. Triangles sharing an edge must
share its vertices (indices), which is what makes the mesh watertight; a closed mesh (every edge
used by exactly two triangles, once each way) bounds a solid for contains/classify. The mesh's
hierarchy is built here, with the GIL released. ValueError names the first bad vertex or index.)");

    scene.def("mesh_closure", dispatch<std::int64_t>([](PyScene&, auto& s, std::int64_t mesh) -> py::object {
        if (mesh < 0 || std::size_t(mesh) >= s.meshes().size())
            throw py::value_error("Scene.mesh_closure: no mesh " + std::to_string(mesh));
        const MeshClosure& c = s.closure(typename std::decay_t<decltype(s)>::MeshId(mesh));
        if (c.closed()) return py::none();
        return py::str(*c.problem);
    }), py::arg("mesh"), "None when the mesh bounds a solid, else why not (the first open or misused edge).");

    scene.def("add_instance", dispatch<std::int64_t, py::object, std::int64_t>([](PyScene& ps, auto& s, std::int64_t mesh, py::object matrix, std::int64_t mask) {
        using T = scalar_of<decltype(s)>;
        ps.mutating("add_instance");
        if (mesh < 0 || std::size_t(mesh) >= s.meshes().size())
            throw py::value_error("Scene.add_instance: no mesh " + std::to_string(mesh) + " (" + std::to_string(s.meshes().size()) + " meshes)");
        const Affine<T> a = affine<T>(matrix, "Scene.add_instance: matrix");
        return std::int64_t(ps.added(s.add_instance(std::uint32_t(mesh), a, mask_value(mask, "Scene.add_instance: mask"))));
    }), py::arg("mesh"), py::arg("matrix") = py::none(), py::arg("mask") = kEveryMaskBit,
    R"(Places mesh ``mesh``; returns the object id.

matrix: (4, 4) affine (last row 0 0 0 1) or (3, 4), world = M[:3, :3] @ p + M[:3, 3]; None is the
identity. Rotation, scale (non-uniform, negative: a mirror keeps the mesh's front faces front)
and shear are allowed; a singular linear part raises ValueError.)");

    scene.def("add_instances", dispatch<py::object, py::object, py::object>([](PyScene& ps, auto& s, py::object mesh, py::object matrices, py::object masks) {
        using T = scalar_of<decltype(s)>;
        ps.mutating("add_instances");
        const Real<T> a = real<T>(matrices, "Scene.add_instances: matrices");
        if (a.ndim() != 3 || (a.shape[1] != 4 && a.shape[1] != 3) || a.shape[2] != 4)
            throw py::value_error("Scene.add_instances: matrices must have shape (K, 4, 4) or (K, 3, 4), got " + shape_text(a.keep));
        const std::size_t k = std::size_t(a.shape[0]);
        const std::vector<std::int64_t> mesh_ids = integers_of(mesh, k, "Scene.add_instances: mesh");
        const auto mask_list = masks_of(masks, k, "Scene.add_instances: masks");
        std::vector<Affine<T>> maps;
        for (std::size_t i = 0; i < k; ++i) {
            if (mesh_ids[i] < 0 || std::size_t(mesh_ids[i]) >= s.meshes().size())
                throw py::value_error("Scene.add_instances: mesh[" + std::to_string(i) + "]: no mesh " + std::to_string(mesh_ids[i]));
            maps.push_back(affine_from(a, py::ssize_t(i), true, "Scene.add_instances: matrices"));
        }
        auto out = new_array<std::int64_t>({py::ssize_t(k)});
        for (std::size_t i = 0; i < k; ++i)
            out.mutable_data()[i] = ps.added(s.add_instance(std::uint32_t(mesh_ids[i]), maps[i], mask_list[i]));
        return out;
    }), py::arg("mesh"), py::arg("matrices"), py::arg("masks") = py::none(),
    "Places meshes K times: mesh an id or (K,) ids, matrices (K, 4, 4) or (K, 3, 4), masks None, an int or (K,). Returns the (K,) ids; nothing is added if any is invalid.");

    // Shapes, one and many.
    scene.def("add_sphere", dispatch<py::object, double, std::int64_t>([](PyScene& ps, auto& s, py::object center, double radius, std::int64_t mask) {
        using T = scalar_of<decltype(s)>;
        const std::vector<Shape<T>> shapes{Sphere<T>{vec3<T>(center, "Scene.add_sphere: center"), T(radius)}};
        return single_id(add_shapes(ps, s, shapes, {mask_value(mask, "Scene.add_sphere: mask")}, "add_sphere"));
    }), py::arg("center"), py::arg("radius"), py::arg("mask") = kEveryMaskBit, "Adds a sphere (radius >= 0; 0 is a point); returns its id.");
    scene.def("add_spheres", dispatch<py::object, py::object, py::object>([](PyScene& ps, auto& s, py::object centers, py::object radii, py::object masks) {
        using T = scalar_of<decltype(s)>;
        const Vectors<T> c = vectors<T>(centers, "Scene.add_spheres: centers", false);
        const auto r = lengths_of<T>(radii, c.view.size, "Scene.add_spheres: radii");
        std::vector<Shape<T>> shapes;
        for (std::size_t i = 0; i < c.view.size; ++i) shapes.push_back(Sphere<T>{c.view[i], r[i]});
        return add_shapes(ps, s, shapes, masks_of(masks, shapes.size(), "Scene.add_spheres: masks"), "add_spheres");
    }), py::arg("centers"), py::arg("radii"), py::arg("masks") = py::none(),
    "Adds K spheres: centers (K, 3), radii (K,) or one number. Returns the (K,) ids; nothing is added if any is invalid.");

    scene.def("add_aabb", dispatch<py::object, py::object, std::int64_t>([](PyScene& ps, auto& s, py::object lo, py::object hi, std::int64_t mask) {
        using T = scalar_of<decltype(s)>;
        const std::vector<Shape<T>> shapes{Aabb<T>{vec3<T>(lo, "Scene.add_aabb: min"), vec3<T>(hi, "Scene.add_aabb: max")}};
        return single_id(add_shapes(ps, s, shapes, {mask_value(mask, "Scene.add_aabb: mask")}, "add_aabb"));
    }), py::arg("min"), py::arg("max"), py::arg("mask") = kEveryMaskBit,
    "Adds an axis-aligned box (min <= max per axis; equal: a flat box); returns its id.");
    scene.def("add_aabbs", dispatch<py::object, py::object, py::object>([](PyScene& ps, auto& s, py::object lo, py::object hi, py::object masks) {
        using T = scalar_of<decltype(s)>;
        const Vectors<T> a = vectors<T>(lo, "Scene.add_aabbs: mins", false), b = vectors<T>(hi, "Scene.add_aabbs: maxs", false);
        if (a.view.size != b.view.size) throw py::value_error("Scene.add_aabbs: mins and maxs differ in length");
        std::vector<Shape<T>> shapes;
        for (std::size_t i = 0; i < a.view.size; ++i) shapes.push_back(Aabb<T>{a.view[i], b.view[i]});
        return add_shapes(ps, s, shapes, masks_of(masks, shapes.size(), "Scene.add_aabbs: masks"), "add_aabbs");
    }), py::arg("mins"), py::arg("maxs"), py::arg("masks") = py::none(), "Adds K boxes: mins, maxs (K, 3). Returns the (K,) ids.");

    scene.def("add_obb", dispatch<py::object, py::object, py::object, std::int64_t>([](PyScene& ps, auto& s, py::object center, py::object rotation, py::object half, std::int64_t mask) {
        using T = scalar_of<decltype(s)>;
        const Real<T> r = real<T>(rotation, "Scene.add_obb: rotation");
        if (r.ndim() != 2 || r.shape[0] != 3 || r.shape[1] != 3)
            throw py::value_error("Scene.add_obb: rotation must have shape (3, 3), got " + shape_text(r.keep));
        const std::vector<Shape<T>> shapes{
            Obb<T>{vec3<T>(center, "Scene.add_obb: center"), rotation_at(r, 0, false), vec3<T>(half, "Scene.add_obb: half_extents")}};
        return single_id(add_shapes(ps, s, shapes, {mask_value(mask, "Scene.add_obb: mask")}, "add_obb"));
    }), py::arg("center"), py::arg("rotation"), py::arg("half_extents"), py::arg("mask") = kEveryMaskBit,
    R"(Adds an oriented box; returns its id. rotation: (3, 3), a proper rotation whose columns are the
box's axes (world = center + rotation @ local); half_extents >= 0.)");
    scene.def("add_obbs", dispatch<py::object, py::object, py::object, py::object>([](PyScene& ps, auto& s, py::object centers, py::object rotations, py::object halves, py::object masks) {
        using T = scalar_of<decltype(s)>;
        const Vectors<T> c = vectors<T>(centers, "Scene.add_obbs: centers", false);
        const Vectors<T> h = vectors<T>(halves, "Scene.add_obbs: half_extents", false);
        const Real<T> r = real<T>(rotations, "Scene.add_obbs: rotations");
        if (r.ndim() != 3 || std::size_t(r.shape[0]) != c.view.size || r.shape[1] != 3 || r.shape[2] != 3)
            throw py::value_error("Scene.add_obbs: rotations must have shape (" + std::to_string(c.view.size) + ", 3, 3), got " + shape_text(r.keep));
        if (h.view.size != c.view.size) throw py::value_error("Scene.add_obbs: centers and half_extents differ in length");
        std::vector<Shape<T>> shapes;
        for (std::size_t i = 0; i < c.view.size; ++i) shapes.push_back(Obb<T>{c.view[i], rotation_at(r, py::ssize_t(i), true), h.view[i]});
        return add_shapes(ps, s, shapes, masks_of(masks, shapes.size(), "Scene.add_obbs: masks"), "add_obbs");
    }), py::arg("centers"), py::arg("rotations"), py::arg("half_extents"), py::arg("masks") = py::none(),
    "Adds K oriented boxes: centers (K, 3), rotations (K, 3, 3), half_extents (K, 3). Returns the (K,) ids.");

    scene.def("add_capsule", dispatch<py::object, py::object, double, std::int64_t>([](PyScene& ps, auto& s, py::object a, py::object b, double radius, std::int64_t mask) {
        using T = scalar_of<decltype(s)>;
        const std::vector<Shape<T>> shapes{Capsule<T>{vec3<T>(a, "Scene.add_capsule: a"), vec3<T>(b, "Scene.add_capsule: b"), T(radius)}};
        return single_id(add_shapes(ps, s, shapes, {mask_value(mask, "Scene.add_capsule: mask")}, "add_capsule"));
    }), py::arg("a"), py::arg("b"), py::arg("radius"), py::arg("mask") = kEveryMaskBit,
    "Adds a capsule (the points within radius of segment ab; a == b is a sphere); returns its id.");
    scene.def("add_capsules", dispatch<py::object, py::object, py::object, py::object>([](PyScene& ps, auto& s, py::object a, py::object b, py::object radii, py::object masks) {
        using T = scalar_of<decltype(s)>;
        const Vectors<T> va = vectors<T>(a, "Scene.add_capsules: a", false), vb = vectors<T>(b, "Scene.add_capsules: b", false);
        if (va.view.size != vb.view.size) throw py::value_error("Scene.add_capsules: a and b differ in length");
        const auto r = lengths_of<T>(radii, va.view.size, "Scene.add_capsules: radii");
        std::vector<Shape<T>> shapes;
        for (std::size_t i = 0; i < va.view.size; ++i) shapes.push_back(Capsule<T>{va.view[i], vb.view[i], r[i]});
        return add_shapes(ps, s, shapes, masks_of(masks, shapes.size(), "Scene.add_capsules: masks"), "add_capsules");
    }), py::arg("a"), py::arg("b"), py::arg("radii"), py::arg("masks") = py::none(),
    "Adds K capsules: a, b (K, 3), radii (K,) or one number. Returns the (K,) ids.");

    scene.def("add_triangle", dispatch<py::object, py::object, py::object, std::int64_t>([](PyScene& ps, auto& s, py::object a, py::object b, py::object c, std::int64_t mask) {
        using T = scalar_of<decltype(s)>;
        const std::vector<Shape<T>> shapes{
            Triangle<T>{vec3<T>(a, "Scene.add_triangle: a"), vec3<T>(b, "Scene.add_triangle: b"), vec3<T>(c, "Scene.add_triangle: c")}};
        return single_id(add_shapes(ps, s, shapes, {mask_value(mask, "Scene.add_triangle: mask")}, "add_triangle"));
    }), py::arg("a"), py::arg("b"), py::arg("c"), py::arg("mask") = kEveryMaskBit,
    "Adds one triangle as a shape (front: a, b, c counter-clockwise); returns its id. It has no inside. Many triangles sharing edges belong in a mesh (add_mesh).");
    scene.def("add_triangles", dispatch<py::object, py::object, py::object, py::object>([](PyScene& ps, auto& s, py::object a, py::object b, py::object c, py::object masks) {
        using T = scalar_of<decltype(s)>;
        const Vectors<T> va = vectors<T>(a, "Scene.add_triangles: a", false), vb = vectors<T>(b, "Scene.add_triangles: b", false),
                         vc = vectors<T>(c, "Scene.add_triangles: c", false);
        if (va.view.size != vb.view.size || va.view.size != vc.view.size)
            throw py::value_error("Scene.add_triangles: a, b and c differ in length");
        std::vector<Shape<T>> shapes;
        for (std::size_t i = 0; i < va.view.size; ++i) shapes.push_back(Triangle<T>{va.view[i], vb.view[i], vc.view[i]});
        return add_shapes(ps, s, shapes, masks_of(masks, shapes.size(), "Scene.add_triangles: masks"), "add_triangles");
    }), py::arg("a"), py::arg("b"), py::arg("c"), py::arg("masks") = py::none(),
    "Adds K triangle shapes: a, b, c (K, 3). Returns the (K,) ids.");

    scene.def("remove", dispatch<std::int64_t>([](PyScene& ps, auto& s, std::int64_t id) {
        ps.mutating("remove");
        const ObjectId o = ps.object_id(id, "remove");
        s.remove(o);
        ps.removed(o);
    }), py::arg("id"), "Removes object ``id`` (at the next commit); its id is not given again.");
    scene.def("set_mask", dispatch<std::int64_t, std::int64_t>([](PyScene& ps, auto& s, std::int64_t id, std::int64_t mask) {
        ps.mutating("set_mask");
        s.set_mask(ps.object_id(id, "set_mask"), mask_value(mask, "Scene.set_mask: mask"));
    }), py::arg("id"), py::arg("mask"), "Sets object ``id``'s 32-bit mask (effective at once).");
    scene.def("get_mask", dispatch<std::int64_t>([](PyScene& ps, auto& s, std::int64_t id) {
        return std::int64_t(s.mask(ps.object_id(id, "get_mask")));
    }), py::arg("id"), "Object ``id``'s mask.");
    scene.def("set_transform", dispatch<std::int64_t, py::object>([](PyScene& ps, auto& s, std::int64_t id, py::object matrix) {
        using T = scalar_of<decltype(s)>;
        ps.mutating("set_transform");
        const ObjectId o = ps.object_id(id, "set_transform");
        const Affine<T> a = affine<T>(matrix, "Scene.set_transform: matrix");
        try {
            s.set_transform(o, a);
        } catch (const std::invalid_argument&) {
            throw py::value_error("Scene.set_transform: object " + std::to_string(id) + " is not a mesh instance");
        }
    }), py::arg("id"), py::arg("matrix"), "Moves mesh instance ``id`` (matrix as add_instance); takes effect at the next commit (a refit).");
    scene.def("commit", [](PyScene& ps) {
        ps.mutating("commit");
        ps.visit([](auto& s) { s.commit(); });
    }, "Builds or refits the hierarchies for the changes made since the last commit (with the GIL held: no other thread sees the scene half built). Queries call it when changes are pending.");

    // Queries.
    const std::string rays_doc = kRaysDoc;
    scene.def("pick", [](PyScene& ps, py::object origins, py::object directions, double t_min, double t_max, std::int64_t mask,
                         bool cull, int threads) {
        return ps.visit([&](auto& s) {
            using T = scalar_of<decltype(s)>;
            return pick<T>(ps, s, origins, directions, options<T>(t_min, t_max, mask, cull, threads, "Scene.pick"));
        });
    }, py::arg("origins"), py::arg("directions") = py::none(), py::kw_only(), py::arg("t_min") = 0.0,
       py::arg("t_max") = std::numeric_limits<double>::infinity(), py::arg("mask") = kEveryMaskBit, py::arg("cull_back_faces") = false,
       py::arg("threads") = 0, (std::string(kPickDoc) + rays_doc).c_str());
    scene.def("occluded", [](PyScene& ps, py::object origins, py::object directions, double t_min, double t_max, std::int64_t mask,
                             bool cull, int threads) {
        return ps.visit([&](auto& s) {
            using T = scalar_of<decltype(s)>;
            return occluded<T>(ps, s, origins, directions, options<T>(t_min, t_max, mask, cull, threads, "Scene.occluded"));
        });
    }, py::arg("origins"), py::arg("directions") = py::none(), py::kw_only(), py::arg("t_min") = 0.0,
       py::arg("t_max") = std::numeric_limits<double>::infinity(), py::arg("mask") = kEveryMaskBit, py::arg("cull_back_faces") = false,
       py::arg("threads") = 0, (std::string(kOccludedDoc) + rays_doc).c_str());
    scene.def("crossings", [](PyScene& ps, py::object origins, py::object directions, double t_min, double t_max, std::int64_t mask,
                              bool cull, int threads) {
        return ps.visit([&](auto& s) {
            using T = scalar_of<decltype(s)>;
            return crossings<T>(ps, s, origins, directions, options<T>(t_min, t_max, mask, cull, threads, "Scene.crossings"));
        });
    }, py::arg("origins"), py::arg("directions") = py::none(), py::kw_only(), py::arg("t_min") = 0.0,
       py::arg("t_max") = std::numeric_limits<double>::infinity(), py::arg("mask") = kEveryMaskBit, py::arg("cull_back_faces") = false,
       py::arg("threads") = 0, (std::string(kCrossingsDoc) + rays_doc).c_str());
    scene.def("contains", [](PyScene& ps, py::object points, py::object object, std::int64_t mask, int threads) {
        return ps.visit([&](auto& s) {
            using T = scalar_of<decltype(s)>;
            return contains<T>(ps, s, points, object, options<T>(0, 0, mask, false, threads, "Scene.contains"));
        });
    }, py::arg("points"), py::arg("object") = py::none(), py::kw_only(), py::arg("mask") = kEveryMaskBit, py::arg("threads") = 0, kContainsDoc);
    scene.def("classify", [](PyScene& ps, py::object points, std::int64_t object, int threads) {
        return ps.visit([&](auto& s) {
            using T = scalar_of<decltype(s)>;
            return classify<T>(ps, s, points, object, options<T>(0, 0, kEveryMaskBit, false, threads, "Scene.classify"));
        });
    }, py::arg("points"), py::arg("object"), py::kw_only(), py::arg("threads") = 0, kClassifyDoc);

    scene.def("closest_point", [](PyScene& ps, py::object points, double max_distance, std::int64_t mask, int threads) {
        return ps.visit([&](auto& s) {
            using T = scalar_of<decltype(s)>;
            return closest_point<T>(ps, s, points, max_distance_value(max_distance, "Scene.closest_point"),
                                    options<T>(0, 0, mask, false, threads, "Scene.closest_point"));
        });
    }, py::arg("points"), py::kw_only(), py::arg("max_distance") = std::numeric_limits<double>::infinity(),
       py::arg("mask") = kEveryMaskBit, py::arg("threads") = 0, kClosestDoc);
    scene.def("signed_distance", [](PyScene& ps, py::object points, double max_distance, std::int64_t mask, int threads) {
        return ps.visit([&](auto& s) {
            using T = scalar_of<decltype(s)>;
            return signed_distance<T>(ps, s, points, max_distance_value(max_distance, "Scene.signed_distance"),
                                      options<T>(0, 0, mask, false, threads, "Scene.signed_distance"));
        });
    }, py::arg("points"), py::kw_only(), py::arg("max_distance") = std::numeric_limits<double>::infinity(),
       py::arg("mask") = kEveryMaskBit, py::arg("threads") = 0, kSignedDistanceDoc);

    m.def("load", [](const std::string& path, py::object dtype) {
        auto ps = std::make_unique<PyScene>(dtype_is_double(dtype));
        ps->visit([&](auto& s) { load_into(*ps, s, path); });
        return ps;
    }, py::arg("path"), py::arg("dtype") = py::module_::import("numpy").attr("float64"),
    R"(Reads a scene into a new Scene: a raypick case file (.json: its shapes, and its meshes placed
by its instances, with model files read relative to it) or a model (.obj, .gltf, .glb: every mesh,
placed by the model's instances). Scene.names maps the ids to the file's names (an instance of a
model with several placements: "name[k]"). Errors raise ValueError with the loader's message
(file, line, what was expected).)");

    py::module_ gen = m.def_submodule("meshgen", "Closed triangle meshes for tests, examples and benchmarks, as (vertices, triangles) arrays.");
    gen.def("uv_sphere", [](int rings, int segments, double radius, py::object center) {
        const Vec3<double> c = center.is_none() ? Vec3<double>(0.0) : vec3<double>(center, "meshgen.uv_sphere: center");
        return mesh_arrays(meshgen::uv_sphere<double>(rings, segments, radius, c));
    }, py::arg("rings"), py::arg("segments"), py::arg("radius") = 1.0, py::arg("center") = py::none(),
    "A closed UV sphere of 2 * segments * (rings - 1) triangles, poles on z: (vertices (N, 3) float64, triangles (M, 3) int64).");
    gen.def("sphere", [](std::size_t triangles, double radius) { return mesh_arrays(meshgen::sphere<double>(triangles, radius)); },
            py::arg("triangles"), py::arg("radius") = 1.0, "A closed UV sphere of about ``triangles`` triangles about the origin.");
    gen.def("cube_grid", [](int n, double half) { return mesh_arrays(meshgen::cube_grid<double>(std::max(n, 1), half)); },
            py::arg("n"), py::arg("half") = 1.0,
            "The closed surface of the cube [-half, half]^3, each face an n x n grid of squares split along a diagonal: 12 n^2 triangles.");

    m.attr("ENTER") = int(CrossingKind::Enter);
    m.attr("LEAVE") = int(CrossingKind::Leave);
    m.attr("TOUCH") = int(CrossingKind::Touch);
    m.attr("OUTSIDE") = int(Containment::Outside);
    m.attr("INSIDE") = int(Containment::Inside);
    m.attr("ON_SURFACE") = int(Containment::OnSurface);
    m.attr("NO_INSIDE") = int(Containment::NoInside);
    m.attr("FACE") = int(Feature::Face);
    m.attr("EDGE") = int(Feature::Edge);
    m.attr("VERTEX") = int(Feature::Vertex);
}
