// swiss.pairing._blossom: exact maximum weight perfect matching with its dual solution.
//
// The matching itself is LEMON's MaxWeightedPerfectMatching (vendored headers, Boost licence,
// see LICENSE.LEMON): Edmonds' blossom algorithm with priority queues, O(n m log n), which
// exposes the dual solution (vertex potentials and blossom values, scaled by 4). Weights are
// exact integers: signed 128-bit when they are small enough, else a 256-bit two's complement
// integer (I256 below), both plugged into LEMON's Value template parameter.
//
// Interface (all arrays are little-endian bytes, so no numpy headers are needed to build):
//   solve(n, us, vs, comps, k, mults) -> None (no perfect matching) or
//       (mate: int64[n], y: 32 bytes per vertex, zval: 32 bytes per blossom,
//        zoff: int64[B+1], zmem: int64[...], wide: bool)
//   price(n, us, vs, comps, k, mults, y, inner, parent, depth, cumz[, narrow])
//       -> (int64 indices of the violating edges, their reduced costs as float64)
// An edge e joins us[e] and vs[e]; its weight is sum_c comps[c*m + e] * mults[c], where
// comps are non-negative int64 (the lexicographic components, as benefits) and mults are
// 256-bit multipliers. The caller guarantees that every weight stays below 2**246.
// Dual feasibility (scaled by 4): y[u] + y[v] + sum of z over blossoms holding u and v >= 4 w.
// price() returns the edges that violate it: the blossom sum is cumz[lca(inner[u], inner[v])]
// in the laminar tree given by parent/depth (inner = innermost blossom of a vertex, or -1).

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include <lemon/matching.h>
#include <lemon/smart_graph.h>

typedef unsigned __int128 u128;

// -- a 256-bit two's complement integer, just what LEMON's matching code needs -----------------
struct I256 {
    uint64_t w[4];
    I256() : w{0, 0, 0, 0} {}
    I256(long long x) {
        uint64_t fill = x < 0 ? ~0ULL : 0ULL;
        w[0] = (uint64_t)x;
        w[1] = w[2] = w[3] = fill;
    }
    I256(int x) : I256((long long)x) {}
    bool negative() const { return (int64_t)w[3] < 0; }
    I256& operator+=(const I256& b) {
        u128 c = 0;
        for (int i = 0; i < 4; ++i) {
            c += (u128)w[i] + b.w[i];
            w[i] = (uint64_t)c;
            c >>= 64;
        }
        return *this;
    }
    I256& operator-=(const I256& b) {
        uint64_t borrow = 0;
        for (int i = 0; i < 4; ++i) {
            u128 d = (u128)w[i] - b.w[i] - borrow;
            w[i] = (uint64_t)d;
            borrow = (uint64_t)(d >> 64) ? 1 : 0;
        }
        return *this;
    }
};

static inline I256 operator+(I256 a, const I256& b) { return a += b; }
static inline I256 operator-(I256 a, const I256& b) { return a -= b; }
static inline I256 operator-(const I256& a) { return I256() - a; }
static inline bool operator==(const I256& a, const I256& b) {
    return std::memcmp(a.w, b.w, sizeof a.w) == 0;
}
static inline bool operator!=(const I256& a, const I256& b) { return !(a == b); }
static inline bool operator<(const I256& a, const I256& b) {
    if (a.w[3] != b.w[3]) return (int64_t)a.w[3] < (int64_t)b.w[3];
    for (int i = 2; i >= 0; --i)
        if (a.w[i] != b.w[i]) return a.w[i] < b.w[i];
    return false;
}
static inline bool operator>(const I256& a, const I256& b) { return b < a; }
static inline bool operator<=(const I256& a, const I256& b) { return !(b < a); }
static inline bool operator>=(const I256& a, const I256& b) { return !(a < b); }

// Multiplication by a machine integer: exact modulo 2**256, so right for negative a too.
static inline I256 mul_u64(const I256& a, uint64_t m) {
    I256 r;
    u128 c = 0;
    for (int i = 0; i < 4; ++i) {
        c += (u128)a.w[i] * m;
        r.w[i] = (uint64_t)c;
        c >>= 64;
    }
    return r;
}
static inline I256 operator*(const I256& a, long long m) {
    return m < 0 ? -mul_u64(a, (uint64_t)(-m)) : mul_u64(a, (uint64_t)m);
}
static inline I256 operator*(const I256& a, int m) { return a * (long long)m; }
static inline I256 operator*(int m, const I256& a) { return a * (long long)m; }
// Division by a positive machine integer, truncating toward zero like C++'s built-in types.
static inline I256 div_pos(const I256& a, uint64_t d) {
    if (a.negative()) return -div_pos(-a, d);
    I256 r;
    u128 rem = 0;
    for (int i = 3; i >= 0; --i) {
        u128 cur = (rem << 64) | a.w[i];
        r.w[i] = (uint64_t)(cur / d);
        rem = cur % d;
    }
    return r;
}
static inline I256 operator/(const I256& a, int d) {
    return d < 0 ? -div_pos(a, (uint64_t)(-(long long)d)) : div_pos(a, (uint64_t)d);
}

namespace std {
template <>
class numeric_limits<I256> {
   public:
    static const bool is_specialized = true;
    static const bool is_integer = true;
    static const bool is_signed = true;
    static I256 max() {
        I256 r;
        r.w[0] = r.w[1] = r.w[2] = ~0ULL;
        r.w[3] = ~0ULL >> 1;
        return r;
    }
    static I256 min() { return -max() - I256(1); }
};
}  // namespace std

static inline I256 from_i128(__int128 x) {
    I256 r;
    r.w[0] = (uint64_t)(u128)x;
    r.w[1] = (uint64_t)((u128)x >> 64);
    r.w[2] = r.w[3] = x < 0 ? ~0ULL : 0ULL;
    return r;
}
static inline I256 to_i256(const I256& x) { return x; }
static inline I256 to_i256(__int128 x) { return from_i128(x); }
static inline void from_i256(const I256& x, I256* out) { *out = x; }
static inline void from_i256(const I256& x, __int128* out) {
    *out = (__int128)(((u128)x.w[1] << 64) | x.w[0]);
}

static double to_double(const I256& x) {
    if (x.negative()) return -to_double(-x);
    double r = 0;
    for (int i = 3; i >= 0; --i) r = r * 18446744073709551616.0 + (double)x.w[i];
    return r;
}

// -- argument helpers --------------------------------------------------------------------------
struct Arrays {
    Py_ssize_t n = 0, m = 0, k = 0;
    const int64_t* us = nullptr;
    const int64_t* vs = nullptr;
    const int64_t* comps = nullptr;
    std::vector<I256> mults;
};

static bool check_len(const Py_buffer& b, Py_ssize_t want, const char* what) {
    if (b.len != want) {
        PyErr_Format(PyExc_ValueError, "%s has %zd bytes, expected %zd", what, b.len, want);
        return false;
    }
    return true;
}

static bool read_edges(Py_ssize_t n, const Py_buffer& us, const Py_buffer& vs,
                       const Py_buffer& comps, Py_ssize_t k, const Py_buffer& mults, Arrays* a) {
    a->n = n;
    a->k = k;
    a->m = us.len / 8;
    if (!check_len(vs, a->m * 8, "vs") || !check_len(comps, a->m * k * 8, "comps") ||
        !check_len(mults, k * 32, "mults"))
        return false;
    a->us = (const int64_t*)us.buf;
    a->vs = (const int64_t*)vs.buf;
    a->comps = (const int64_t*)comps.buf;
    a->mults.resize(k);
    for (Py_ssize_t c = 0; c < k; ++c) std::memcpy(a->mults[c].w, (const char*)mults.buf + 32 * c, 32);
    for (Py_ssize_t e = 0; e < a->m; ++e) {
        if (a->us[e] < 0 || a->us[e] >= n || a->vs[e] < 0 || a->vs[e] >= n || a->us[e] == a->vs[e]) {
            PyErr_Format(PyExc_ValueError, "edge %zd joins invalid vertices", e);
            return false;
        }
    }
    return true;
}

static inline I256 edge_weight(const Arrays& a, Py_ssize_t e) {
    I256 w(0);
    for (Py_ssize_t c = 0; c < a.k; ++c) {
        int64_t b = a.comps[c * a.m + e];
        if (b) w += mul_u64(a.mults[c], (uint64_t)b);
    }
    return w;
}

// -- solve -------------------------------------------------------------------------------------
template <class V>
static PyObject* solve_with(const Arrays& a, const std::vector<I256>& weights, bool wide) {
    typedef lemon::SmartGraph G;
    G g;
    g.reserveNode((int)a.n);
    g.reserveEdge((int)a.m);
    std::vector<G::Node> nodes(a.n);
    for (Py_ssize_t i = 0; i < a.n; ++i) nodes[i] = g.addNode();
    G::EdgeMap<V> wmap(g);
    for (Py_ssize_t e = 0; e < a.m; ++e) {
        G::Edge edge = g.addEdge(nodes[a.us[e]], nodes[a.vs[e]]);
        V value;
        from_i256(weights[e], &value);
        wmap[edge] = value;
    }
    typedef lemon::MaxWeightedPerfectMatching<G, G::EdgeMap<V> > M;
    M mwpm(g, wmap);
    bool ok;
    Py_BEGIN_ALLOW_THREADS
    ok = mwpm.run();  // fractional initialisation: faster than init() here, small or large
    Py_END_ALLOW_THREADS
    if (!ok) Py_RETURN_NONE;
    std::vector<int64_t> mate(a.n);
    std::vector<I256> y(a.n);
    for (Py_ssize_t i = 0; i < a.n; ++i) {
        G::Node other = mwpm.mate(nodes[i]);
        mate[i] = other == lemon::INVALID ? -1 : g.id(other);
        y[i] = to_i256(mwpm.nodeValue(nodes[i]));
    }
    int nb = mwpm.blossomNum();
    std::vector<I256> zval(nb);
    std::vector<int64_t> zoff(nb + 1, 0), zmem;
    for (int b = 0; b < nb; ++b) {
        zval[b] = to_i256(mwpm.blossomValue(b));
        for (typename M::BlossomIt it(mwpm, b); it != lemon::INVALID; ++it)
            zmem.push_back(g.id(static_cast<G::Node>(it)));
        zoff[b + 1] = (int64_t)zmem.size();
    }
    return Py_BuildValue(
        "(y#y#y#y#y#O)", (const char*)mate.data(), (Py_ssize_t)(8 * a.n), (const char*)y.data(),
        (Py_ssize_t)(32 * a.n), (const char*)zval.data(), (Py_ssize_t)(32 * nb),
        (const char*)zoff.data(), (Py_ssize_t)(8 * (nb + 1)), (const char*)zmem.data(),
        (Py_ssize_t)(8 * zmem.size()), wide ? Py_True : Py_False);
}

// Weights below 2**120 run on __int128 (LEMON scales them by 4 and its potentials move by
// bounded amounts); the caller verifies the returned certificate exactly in any case.
static bool fits_i128(const I256& w) {
    I256 limit;
    limit.w[1] = 1ULL << 56;  // 2**120
    return w < limit && -limit < w;
}

static PyObject* solve(PyObject*, PyObject* args) {
    Py_ssize_t n, k;
    int force_wide = 0;
    Py_buffer us, vs, comps, mults;
    if (!PyArg_ParseTuple(args, "ny*y*y*ny*|p", &n, &us, &vs, &comps, &k, &mults, &force_wide))
        return nullptr;
    PyObject* result = nullptr;
    Arrays a;
    if (read_edges(n, us, vs, comps, k, mults, &a)) {
        std::vector<I256> weights(a.m);
        bool narrow = !force_wide;
        for (Py_ssize_t e = 0; e < a.m; ++e) {
            weights[e] = edge_weight(a, e);
            narrow = narrow && fits_i128(weights[e]);
        }
        result = narrow ? solve_with<__int128>(a, weights, false) : solve_with<I256>(a, weights, true);
    }
    PyBuffer_Release(&us);
    PyBuffer_Release(&vs);
    PyBuffer_Release(&comps);
    PyBuffer_Release(&mults);
    return result;
}

// -- price -------------------------------------------------------------------------------------
static inline __int128 narrow(const I256& x) {
    __int128 r;
    from_i256(x, &r);
    return r;
}

// The pricing loop on V = __int128 (when the caller vouches that weights are below 2**120 and
// duals below 2**124, so nothing can overflow) or on I256.
template <class V>
static void price_loop(const Arrays& a, const std::vector<V>& y, const int64_t* inner,
                       const int64_t* parent, const int64_t* depth, const std::vector<V>& cumz,
                       const std::vector<V>& mults, std::vector<int64_t>* bad,
                       std::vector<double>* how) {
    for (Py_ssize_t e = 0; e < a.m; ++e) {
        int64_t u = a.us[e], v = a.vs[e];
        V w(0);
        for (Py_ssize_t c = 0; c < a.k; ++c) {
            int64_t b = a.comps[c * a.m + e];
            if (b) w += mults[c] * (long long)b;
        }
        V slack = y[u] + y[v] - w * 4;
        if (!(slack < V(0))) continue;
        int64_t bu = inner[u], bv = inner[v];
        if (bu >= 0 && bv >= 0) {
            while (depth[bu] > depth[bv]) bu = parent[bu];
            while (depth[bv] > depth[bu]) bv = parent[bv];
            while (bu != bv && bu >= 0 && bv >= 0) {
                bu = parent[bu];
                bv = parent[bv];
            }
            if (bu >= 0 && bu == bv) slack += cumz[bu];
        }
        if (slack < V(0)) {
            bad->push_back(e);
            how->push_back(to_double(to_i256(slack)));
        }
    }
}

static PyObject* price(PyObject*, PyObject* args) {
    Py_ssize_t n, k;
    int use_narrow = 0;
    Py_buffer us, vs, comps, mults, yb, innerb, parentb, depthb, cumzb;
    if (!PyArg_ParseTuple(args, "ny*y*y*ny*y*y*y*y*y*|p", &n, &us, &vs, &comps, &k, &mults, &yb,
                          &innerb, &parentb, &depthb, &cumzb, &use_narrow))
        return nullptr;
    PyObject* result = nullptr;
    Arrays a;
    Py_ssize_t nb = parentb.len / 8;
    if (read_edges(n, us, vs, comps, k, mults, &a) && check_len(yb, 32 * n, "y") &&
        check_len(innerb, 8 * n, "inner") && check_len(depthb, 8 * nb, "depth") &&
        check_len(cumzb, 32 * nb, "cumz")) {
        const I256* y = (const I256*)yb.buf;
        const I256* cumz = (const I256*)cumzb.buf;
        const int64_t* inner = (const int64_t*)innerb.buf;
        const int64_t* parent = (const int64_t*)parentb.buf;
        const int64_t* depth = (const int64_t*)depthb.buf;
        std::vector<int64_t> bad;
        std::vector<double> how;
        Py_BEGIN_ALLOW_THREADS
        if (use_narrow) {
            std::vector<__int128> y2(n), cumz2(nb), mults2(k);
            for (Py_ssize_t i = 0; i < n; ++i) y2[i] = narrow(y[i]);
            for (Py_ssize_t i = 0; i < nb; ++i) cumz2[i] = narrow(cumz[i]);
            for (Py_ssize_t i = 0; i < k; ++i) mults2[i] = narrow(a.mults[i]);
            price_loop<__int128>(a, y2, inner, parent, depth, cumz2, mults2, &bad, &how);
        } else {
            std::vector<I256> y2(y, y + n), cumz2(cumz, cumz + nb);
            price_loop<I256>(a, y2, inner, parent, depth, cumz2, a.mults, &bad, &how);
        }
        Py_END_ALLOW_THREADS
        result = Py_BuildValue("(y#y#)", (const char*)bad.data(), (Py_ssize_t)(8 * bad.size()),
                               (const char*)how.data(), (Py_ssize_t)(8 * how.size()));
    }
    PyBuffer_Release(&us);
    PyBuffer_Release(&vs);
    PyBuffer_Release(&comps);
    PyBuffer_Release(&mults);
    PyBuffer_Release(&yb);
    PyBuffer_Release(&innerb);
    PyBuffer_Release(&parentb);
    PyBuffer_Release(&depthb);
    PyBuffer_Release(&cumzb);
    return result;
}

static PyMethodDef methods[] = {
    {"solve", solve, METH_VARARGS,
     "solve(n, us, vs, comps, k, mults[, wide]) -> None or (mate, y, zval, zoff, zmem, wide)"},
    {"price", price, METH_VARARGS,
     "price(n, us, vs, comps, k, mults, y, inner, parent, depth, cumz) -> (edges, slacks)"},
    {nullptr, nullptr, 0, nullptr}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_blossom",
                                    "Exact maximum weight perfect matching with duals (LEMON).",
                                    -1, methods};

PyMODINIT_FUNC PyInit__blossom(void) { return PyModule_Create(&module); }
