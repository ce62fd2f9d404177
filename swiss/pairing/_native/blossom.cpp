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
//        zoff: int64[B+1], zmem: int64[...], wide: bool): the B blossoms of non-zero value
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

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <thread>
#include <vector>

#include <lemon/matching.h>
#include "warm_matching.h"
#include "dense_matching.h"
#include "cover_search.h"
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
static inline bool is_odd(const __int128& x) { return (x & 1) != 0; }
static inline bool is_odd(const I256& x) { return (x.w[0] & 1) != 0; }
static inline I256 plus_one(const I256& x) { return x + I256(1); }
static inline __int128 plus_one(const __int128& x) { return x + 1; }

// A warm start (see warm_matching.h): from potentials pot (scaled by 4, no blossoms: the
// caller has spread each blossom's value over its members) and a partial matching mate, make
// the state warmInit() needs: a matched pair stays matched only if its edge is in the graph
// and tight; both ends of every edge that violates pot are freed; every free vertex gets the
// lowest potential that keeps all its edges feasible (given the potentials fixed so far),
// rounded up to an even number. Only potentials of free vertices change, and only so that
// every edge is feasible: matched edges stay tight. Returns how many vertices are free.
template <class V>
static int64_t warm_repair(const Arrays& a, const std::vector<V>& w4, std::vector<V>* pot,
                           std::vector<int64_t>* mate) {
    Py_ssize_t n = a.n;
    std::vector<int64_t> off(n + 1, 0), adj(2 * a.m);
    for (Py_ssize_t e = 0; e < a.m; ++e) { ++off[a.us[e] + 1]; ++off[a.vs[e] + 1]; }
    for (Py_ssize_t i = 0; i < n; ++i) off[i + 1] += off[i];
    std::vector<int64_t> fill(off.begin(), off.end() - 1);
    for (Py_ssize_t e = 0; e < a.m; ++e) { adj[fill[a.us[e]]++] = e; adj[fill[a.vs[e]]++] = e; }
    std::vector<char> tight(n, 0);  // matched to its mate by a tight edge of this graph
    for (Py_ssize_t e = 0; e < a.m; ++e) {
        int64_t u = a.us[e], v = a.vs[e];
        if ((*mate)[u] == v && (*mate)[v] == u && (*pot)[u] + (*pot)[v] == w4[e])
            tight[u] = tight[v] = 1;
    }
    std::vector<char> free_(n, 0);
    for (Py_ssize_t i = 0; i < n; ++i) free_[i] = !tight[i];
    for (Py_ssize_t e = 0; e < a.m; ++e) {
        int64_t u = a.us[e], v = a.vs[e];
        if ((*pot)[u] + (*pot)[v] < w4[e]) {
            free_[u] = free_[v] = 1;
            if ((*mate)[u] >= 0) free_[(*mate)[u]] = 1;
            if ((*mate)[v] >= 0) free_[(*mate)[v]] = 1;
        }
    }
    int64_t freed = 0;
    for (Py_ssize_t u = 0; u < n; ++u) {
        if (!free_[u]) continue;
        ++freed;
        (*mate)[u] = -1;
        if (off[u] == off[u + 1]) continue;  // isolated: no perfect matching anyway
        bool first = true;
        V best(0);
        for (int64_t i = off[u]; i < off[u + 1]; ++i) {
            int64_t e = adj[i];
            int64_t v = a.us[e] == u ? a.vs[e] : a.us[e];
            V need = w4[e] - (*pot)[v];
            if (first || best < need) { best = need; first = false; }
        }
        if (is_odd(best)) best = plus_one(best);
        (*pot)[u] = best;
    }
    return freed;
}

template <class V>
static PyObject* solve_with(const Arrays& a, const std::vector<I256>& weights, bool wide,
                            const I256* y0 = nullptr, const int64_t* mate0 = nullptr) {
    typedef lemon::SmartGraph G;
    G g;
    g.reserveNode((int)a.n);
    g.reserveEdge((int)a.m);
    std::vector<G::Node> nodes(a.n);
    for (Py_ssize_t i = 0; i < a.n; ++i) nodes[i] = g.addNode();
    for (Py_ssize_t e = 0; e < a.m; ++e) g.addEdge(nodes[a.us[e]], nodes[a.vs[e]]);
    // The map made after the edges: sized once, not grown (and copied) edge by edge. A
    // SmartGraph numbers its edges 0, 1, ... in the order they were added.
    G::EdgeMap<V> wmap(g);
    for (Py_ssize_t e = 0; e < a.m; ++e) {
        V value;
        from_i256(weights[e], &value);
        wmap[g.edgeFromId((int)e)] = value;
    }
    typedef lemon::WarmPerfectMatching<G, G::EdgeMap<V> > M;
    M mwpm(g, wmap);
    bool ok;
    int64_t freed = (int64_t)a.n;
    if (y0 == nullptr) {
        Py_BEGIN_ALLOW_THREADS
        ok = mwpm.run();  // fractional initialisation: faster than init() here, small or large
        Py_END_ALLOW_THREADS
    } else {
        std::vector<V> pot(a.n), w4(a.m);
        std::vector<int64_t> mate(mate0, mate0 + a.n);
        for (Py_ssize_t i = 0; i < a.n; ++i) from_i256(y0[i], &pot[i]);
        for (Py_ssize_t e = 0; e < a.m; ++e) from_i256(weights[e] * 4, &w4[e]);
        Py_BEGIN_ALLOW_THREADS
        freed = warm_repair<V>(a, w4, &pot, &mate);
        mwpm.warmInit(nodes, pot, mate);
        ok = mwpm.start();
        Py_END_ALLOW_THREADS
    }
    if (!ok) Py_RETURN_NONE;
    std::vector<int64_t> mate(a.n);
    std::vector<I256> y(a.n);
    for (Py_ssize_t i = 0; i < a.n; ++i) {
        G::Node other = mwpm.mate(nodes[i]);
        mate[i] = other == lemon::INVALID ? -1 : g.id(other);
        y[i] = to_i256(mwpm.nodeValue(nodes[i]));
    }
    // Only the blossoms of non-zero value: a zero adds nothing to any dual sum or check,
    // and listing the members of every level of a deep nest of them (seen over thousands of
    // vertices of equal weights) costs time and memory quadratic in the vertices.
    std::vector<I256> zval;
    std::vector<int64_t> zoff(1, 0), zmem;
    for (int b = 0; b < mwpm.blossomNum(); ++b) {
        I256 z = to_i256(mwpm.blossomValue(b));
        if (!(z.w[0] | z.w[1] | z.w[2] | z.w[3])) continue;
        zval.push_back(z);
        for (typename M::BlossomIt it(mwpm, b); it != lemon::INVALID; ++it)
            zmem.push_back(g.id(static_cast<G::Node>(it)));
        zoff.push_back((int64_t)zmem.size());
    }
    Py_ssize_t nb = (Py_ssize_t)zval.size();
    return Py_BuildValue(
        "(y#y#y#y#y#OL)", (const char*)mate.data(), (Py_ssize_t)(8 * a.n), (const char*)y.data(),
        (Py_ssize_t)(32 * a.n), (const char*)zval.data(), (Py_ssize_t)(32 * nb),
        (const char*)zoff.data(), (Py_ssize_t)(8 * (nb + 1)), (const char*)zmem.data(),
        (Py_ssize_t)(8 * zmem.size()), wide ? Py_True : Py_False, (long long)freed);
}

// Weights below 2**120 run on __int128 (LEMON scales them by 4 and its potentials move by
// bounded amounts); the caller verifies the returned certificate exactly in any case.
static bool fits_i128(const I256& w) {
    I256 limit;
    limit.w[1] = 1ULL << 56;  // 2**120
    return w < limit && -limit < w;
}

// Warm potentials must leave the same headroom: below 2**124 in absolute value.
static bool fits_i128_pot(const I256& y) {
    I256 limit;
    limit.w[1] = 1ULL << 60;  // 2**124
    return y < limit && -limit < y;
}

// solve(n, us, vs, comps, k, mults[, wide[, y0, mate0]]): y0 (32 bytes per vertex) and mate0
// (int64 per vertex, -1 for none) warm-start the solve (see warm_repair); the optimum is the
// same, only the work differs.
static PyObject* solve(PyObject*, PyObject* args) {
    Py_ssize_t n, k;
    int force_wide = 0;
    Py_buffer us, vs, comps, mults;
    Py_buffer y0 = {}, mate0 = {};
    if (!PyArg_ParseTuple(args, "ny*y*y*ny*|py*y*", &n, &us, &vs, &comps, &k, &mults, &force_wide,
                          &y0, &mate0))
        return nullptr;
    PyObject* result = nullptr;
    Arrays a;
    bool warm = y0.buf != nullptr && mate0.buf != nullptr;
    if (read_edges(n, us, vs, comps, k, mults, &a) &&
        (!warm || (check_len(y0, 32 * n, "y0") && check_len(mate0, 8 * n, "mate0")))) {
        std::vector<I256> weights(a.m);
        bool narrow = !force_wide;
        for (Py_ssize_t e = 0; e < a.m; ++e) {
            weights[e] = edge_weight(a, e);
            narrow = narrow && fits_i128(weights[e]);
        }
        const I256* yw = warm ? (const I256*)y0.buf : nullptr;
        const int64_t* mw = warm ? (const int64_t*)mate0.buf : nullptr;
        for (Py_ssize_t i = 0; warm && narrow && i < n; ++i) narrow = fits_i128_pot(yw[i]);
        result = narrow ? solve_with<__int128>(a, weights, false, yw, mw)
                        : solve_with<I256>(a, weights, true, yw, mw);
    }
    PyBuffer_Release(&us);
    PyBuffer_Release(&vs);
    PyBuffer_Release(&comps);
    PyBuffer_Release(&mults);
    if (y0.buf) PyBuffer_Release(&y0);
    if (mate0.buf) PyBuffer_Release(&mate0);
    return result;
}

// -- price -------------------------------------------------------------------------------------
static inline __int128 narrow(const I256& x) {
    __int128 r;
    from_i256(x, &r);
    return r;
}

// -- solve_small: the O(n^3) dense solver for small graphs (dense_matching.h) ----------------
// Weights (shifted to start at 1, doubled) must stay below 2**112 on __int128: dense_fits
// says whether their span does.
static const int SMALL_MAX_VERTICES = 128;

static bool dense_fits(const I256& span, Py_ssize_t n) {
    I256 limit;
    limit.w[1] = 1ULL << 46;  // 2**110
    return span < limit && n <= SMALL_MAX_VERTICES;
}

// The dense solver on edges (us[e], vs[e]) of weights[e] (>= 0): the mates as int64 bytes,
// None when there is no perfect matching, False when the weights are too large for it.
static PyObject* dense_solve(Py_ssize_t n, const int64_t* us, const int64_t* vs, Py_ssize_t m,
                             const std::vector<I256>& weights) {
    if (n % 2) Py_RETURN_NONE;
    I256 wmin(0), wmax(0);
    for (Py_ssize_t e = 0; e < m; ++e) {
        if (e == 0 || weights[e] < wmin) wmin = weights[e];
        if (e == 0 || wmax < weights[e]) wmax = weights[e];
    }
    if (!dense_fits(wmax - wmin, n)) Py_RETURN_FALSE;
    std::vector<int64_t> mate;
    int pairs;
    Py_BEGIN_ALLOW_THREADS
    dense::Matching<__int128> solver((int)n);
    // Shifted to start at 1 (0 marks a missing edge; the same constant on every edge changes
    // no perfect matching's rank) and doubled (even weights: exact halvings).
    for (Py_ssize_t e = 0; e < m; ++e)
        solver.set((int)us[e], (int)vs[e], (narrow(weights[e] - wmin) + 1) * 2);
    pairs = solver.run(&mate);
    Py_END_ALLOW_THREADS
    if (2 * pairs < n) Py_RETURN_NONE;
    return PyBytes_FromStringAndSize((const char*)mate.data(), 8 * n);
}

// The dense solver's run in the integer type S on the shifted, doubled weights: the mates
// and the duals as __int128 (the certificate is checked in 128 bits whatever S is).
template <class S>
static int run_dense(Py_ssize_t n, const Arrays& a, const std::vector<I256>& weights,
                     const I256& wmin, std::vector<int64_t>* mate, std::vector<__int128>* lab,
                     std::vector<__int128>* zlab, std::vector<std::vector<int>>* members) {
    dense::Matching<S> solver((int)n);
    for (Py_ssize_t e = 0; e < a.m; ++e)
        solver.set((int)a.us[e], (int)a.vs[e], S((narrow(weights[e] - wmin) + 1) * 2));
    int pairs = solver.run(mate);
    if (2 * pairs == n) {
        std::vector<S> y, z;
        solver.duals(&y, &z, members);
        lab->assign(y.begin(), y.end());
        zlab->assign(z.begin(), z.end());
    }
    return pairs;
}

// Below this span of the weights the dense solver runs in 64-bit integers (about twice as
// fast as 128 bits there): the doubled weights stay below 2**46, and the duals within a few n
// times the largest weight (n <= 128), far from 2**63, as __int128 below 2**112 is from
// 2**127. Its certificate is checked exactly in 128 bits in any case.
static bool dense_fits_64(const I256& span) {
    I256 limit((long long)1 << 44);
    return span < limit;
}

// want_tight: the result also lists the edges whose reduced cost is zero (the tight edges,
// found by the certificate check on every edge anyway), as int64 indices.
static PyObject* dense_with_duals(Py_ssize_t n, const Arrays& a,
                                  const std::vector<I256>& weights, bool want_tight) {
    if (n % 2) Py_RETURN_NONE;
    if (n == 0 || a.m == 0) Py_RETURN_FALSE;  // (the caller handles the trivial cases)
    I256 wmin(0), wmax(0);
    for (Py_ssize_t e = 0; e < a.m; ++e) {
        if (e == 0 || weights[e] < wmin) wmin = weights[e];
        if (e == 0 || wmax < weights[e]) wmax = weights[e];
    }
    if (!dense_fits(wmax - wmin, n) || !fits_i128(wmin)) Py_RETURN_FALSE;
    typedef __int128 V;
    std::vector<int64_t> mate;
    std::vector<V> lab, zlab;
    std::vector<std::vector<int>> members;
    int pairs;
    bool valid = true;
    std::vector<V> y(n);
    std::vector<int64_t> tight;
    bool fast = dense_fits_64(wmax - wmin);
    Py_BEGIN_ALLOW_THREADS
    if (fast)
        pairs = run_dense<int64_t>(n, a, weights, wmin, &mate, &lab, &zlab, &members);
    else
        pairs = run_dense<V>(n, a, weights, wmin, &mate, &lab, &zlab, &members);
    if (2 * pairs == n) {
        // Doubled weights W = 2 (w - wmin + 1): lab_u + lab_v + z - 2 W = y_u + y_v + z - 4 w
        // with y = lab + 2 wmin - 2.
        V shift = narrow(wmin) * 2 - 2;
        for (Py_ssize_t v = 0; v < n; ++v) y[v] = lab[v] + shift;
        // The check: blossom membership as one list of blossoms per vertex.
        size_t nb = zlab.size();
        std::vector<std::vector<int>> holds(n);
        for (size_t b = 0; b < nb && valid; ++b) {
            if (zlab[b] < 0) valid = false;
            for (int v : members[b]) holds[v].push_back((int)b);
            if (zlab[b] > 0) {
                size_t inside = 0;
                std::vector<char> in(n, 0);
                for (int v : members[b]) in[v] = 1;
                for (int v : members[b]) inside += mate[v] >= 0 && in[mate[v]];
                if (inside / 2 != (members[b].size() - 1) / 2) valid = false;
            }
        }
        for (Py_ssize_t e = 0; e < a.m && valid; ++e) {
            int64_t u = a.us[e], v = a.vs[e];
            V slack = y[u] + y[v] - narrow(weights[e]) * 4;
            for (int b : holds[u])
                if (std::find(holds[v].begin(), holds[v].end(), b) != holds[v].end())
                    slack += zlab[b];
            if (slack < 0 || (mate[u] == v && slack != 0)) valid = false;
            if (want_tight && slack == 0) tight.push_back(e);
        }
        // A duplicated edge keeps one weight in the dense matrix: the check above covers
        // every copy, and the matched pair must be tight on one of them (it was on the one
        // kept), so nothing more is needed.
    }
    Py_END_ALLOW_THREADS
    if (2 * pairs < n) Py_RETURN_NONE;
    if (!valid) Py_RETURN_FALSE;
    std::vector<I256> yw(n), zw(zlab.size());
    for (Py_ssize_t v = 0; v < n; ++v) yw[v] = to_i256(y[v]);
    std::vector<int64_t> zoff(zlab.size() + 1, 0), zmem;
    for (size_t b = 0; b < zlab.size(); ++b) {
        zw[b] = to_i256(zlab[b]);
        for (int v : members[b]) zmem.push_back(v);
        zoff[b + 1] = (int64_t)zmem.size();
    }
    Py_ssize_t nb = (Py_ssize_t)zlab.size();
    if (want_tight)
        return Py_BuildValue(
            "(y#y#y#y#y#OLy#)", (const char*)mate.data(), (Py_ssize_t)(8 * n),
            (const char*)yw.data(), (Py_ssize_t)(32 * n), (const char*)zw.data(),
            (Py_ssize_t)(32 * nb), (const char*)zoff.data(), (Py_ssize_t)(8 * (nb + 1)),
            (const char*)zmem.data(), (Py_ssize_t)(8 * zmem.size()), Py_False, (long long)n,
            (const char*)tight.data(), (Py_ssize_t)(8 * tight.size()));
    return Py_BuildValue(
        "(y#y#y#y#y#OL)", (const char*)mate.data(), (Py_ssize_t)(8 * n), (const char*)yw.data(),
        (Py_ssize_t)(32 * n), (const char*)zw.data(), (Py_ssize_t)(32 * nb),
        (const char*)zoff.data(), (Py_ssize_t)(8 * (nb + 1)), (const char*)zmem.data(),
        (Py_ssize_t)(8 * zmem.size()), Py_False, (long long)n);
}

// solve_dense(n, us, vs, comps, k, mults) -> what solve() returns (the mates and a dual
// solution in its convention), None (no perfect matching) or False (too large for the dense
// solver, or its certificate did not check: the caller uses solve()). The dense solver's
// duals are turned into solve()'s (scaled by 4: y_u + y_v + z_uv - 4 w >= 0) and checked
// exactly on every edge here: every edge feasible, every matched edge tight, every blossom
// dual >= 0 and every blossom with a positive dual full. So what is returned is an optimum
// with a valid certificate, whichever solver found it. With tight=True the tuple has one
// more item: the indices of the edges of reduced cost zero (int64 bytes).
static PyObject* solve_dense(PyObject*, PyObject* args) {
    Py_ssize_t n, k;
    Py_buffer us, vs, comps, mults;
    int want_tight = 0;
    if (!PyArg_ParseTuple(args, "ny*y*y*ny*|p", &n, &us, &vs, &comps, &k, &mults, &want_tight))
        return nullptr;
    PyObject* result = nullptr;
    Arrays a;
    if (read_edges(n, us, vs, comps, k, mults, &a)) {
        std::vector<I256> weights(a.m);
        for (Py_ssize_t e = 0; e < a.m; ++e) weights[e] = edge_weight(a, e);
        result = dense_with_duals(n, a, weights, want_tight != 0);
    }
    PyBuffer_Release(&us);
    PyBuffer_Release(&vs);
    PyBuffer_Release(&comps);
    PyBuffer_Release(&mults);
    return result;
}

// solve_small(n, us, vs, comps, k, mults) -> mate (int64[n]) | None (no perfect matching)
//   | False (too large for the small solver: the caller uses solve()). Mates only, no duals.
static PyObject* solve_small(PyObject*, PyObject* args) {
    Py_ssize_t n, k;
    Py_buffer us, vs, comps, mults;
    if (!PyArg_ParseTuple(args, "ny*y*y*ny*", &n, &us, &vs, &comps, &k, &mults)) return nullptr;
    PyObject* result = nullptr;
    Arrays a;
    if (read_edges(n, us, vs, comps, k, mults, &a)) {
        std::vector<I256> weights(a.m);
        for (Py_ssize_t e = 0; e < a.m; ++e) weights[e] = edge_weight(a, e);
        result = dense_solve(n, a.us, a.vs, a.m, weights);
    }
    PyBuffer_Release(&us);
    PyBuffer_Release(&vs);
    PyBuffer_Release(&comps);
    PyBuffer_Release(&mults);
    return result;
}

// The pricing loop on V = __int128 (when the caller vouches that weights are below 2**120 and
// duals below 2**124, so nothing can overflow) or on I256.
// The blossom forest (parent, depth: the laminar family of a dual solution) with binary
// lifting: the lowest common ancestor of two blossoms in O(log depth) steps. Blossoms nest
// hundreds deep at 10,000 players, and walking up parent by parent took half of a pricing pass.
struct BlossomTree {
    const int64_t* depth = nullptr;
    int levels = 1;
    int64_t nb = 0;
    std::vector<int64_t> up;  // up[k * nb + b]: the 2**k-th ancestor of b, or -1

    BlossomTree(const int64_t* parent, const int64_t* depth_, int64_t nb_) : depth(depth_), nb(nb_) {
        int64_t deepest = 0;
        for (int64_t b = 0; b < nb; ++b) deepest = std::max(deepest, depth[b]);
        while ((int64_t(1) << levels) <= deepest) ++levels;
        up.assign(levels * nb, -1);
        for (int64_t b = 0; b < nb; ++b) up[b] = parent[b];
        for (int k = 1; k < levels; ++k)
            for (int64_t b = 0; b < nb; ++b) {
                int64_t mid = up[(k - 1) * nb + b];
                up[k * nb + b] = mid < 0 ? -1 : up[(k - 1) * nb + mid];
            }
    }

    // The innermost blossom holding both a and b (blossoms, not vertices), or -1.
    int64_t lca(int64_t a, int64_t b) const {
        if (a < 0 || b < 0) return -1;
        if (depth[a] < depth[b]) std::swap(a, b);
        int64_t diff = depth[a] - depth[b];
        for (int k = 0; diff; ++k, diff >>= 1)
            if (diff & 1) a = up[k * nb + a];
        if (a == b) return a;
        for (int k = levels - 1; k >= 0; --k) {
            int64_t x = up[k * nb + a], y = up[k * nb + b];
            if (x != y) { a = x; b = y; }
        }
        return up[a];  // the common parent, or -1 when a and b are in different trees
    }
};

// The sum of z over the blossoms holding both u and v: cumz of the innermost blossom that
// holds both (their lowest common ancestor in the blossom forest), nothing if there is none.
template <class V>
static inline void add_shared_blossoms(V& slack, int64_t bu, int64_t bv, const BlossomTree& tree,
                                       const std::vector<V>& cumz) {
    int64_t common = tree.lca(bu, bv);
    if (common >= 0) slack += cumz[common];
}

template <class V>
static void price_loop(const Arrays& a, const std::vector<V>& y, const int64_t* inner,
                       const int64_t* parent, const int64_t* depth, const std::vector<V>& cumz,
                       const std::vector<V>& mults, std::vector<int64_t>* bad,
                       std::vector<double>* how) {
    BlossomTree tree(parent, depth, (int64_t)cumz.size());
    for (Py_ssize_t e = 0; e < a.m; ++e) {
        int64_t u = a.us[e], v = a.vs[e];
        V w(0);
        for (Py_ssize_t c = 0; c < a.k; ++c) {
            int64_t b = a.comps[c * a.m + e];
            if (b) w += mults[c] * (long long)b;
        }
        V slack = y[u] + y[v] - w * 4;
        if (!(slack < V(0))) continue;
        add_shared_blossoms(slack, inner[u], inner[v], tree, cumz);
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

// -- price_model: the pricing pass of one round, components computed here --------------------
// The numpy model (swiss/pairing/weights.py, RoundModel._raw_players) is the definition; this
// restates it for player pairs of the systems dutch, burstein and monrad only, so that a pricing
// pass needs no numpy temporaries (about ten int64 arrays per edge block otherwise).
// tests/test_pairing_exact_scale.py compares the two on random edges for every flag.
// Components, in order: a tier per repeat multiplicity, colour bound (colors), bye rank
// (has_bye: 0 for a player pair), score difference, colour (colors), the system's terms,
// tie-break. Benefit = high - raw for costs, raw for the rewards (Burstein, tie-break).
// System codes: 0 monrad, 1 burstein, 2 dutch, 3 random, 4 random2, 5 override (the caller's
// n x n matrix of benefits, the simulator's maximum strength difference).
enum { SYS_MONRAD, SYS_BURSTEIN, SYS_DUTCH, SYS_RANDOM, SYS_RANDOM2, SYS_OVERRIDE, SYS_COUNT };
static const int64_t RANDOM_BITS = 20;

struct Model {
    int64_t n = 0, nv = 0;
    const int64_t *score, *cd, *gsize, *gpos, *ids;
    const int64_t *met_keys, *met_times, *met_off, *exc_keys, *exc_off;
    const int64_t *tiers, *highs;
    const int64_t* highs_sys = nullptr;  // highs of the system's terms
    const int32_t* segmax = nullptr;  // random systems: per row u and run j, the largest draw
                                      // of the pairs (u, v > u in j), see random_table
    int64_t run = 1, runs = 0;
    const int64_t* pi = nullptr;     // override: n x n benefits
    // the score tier's cost by score difference (0..top); absent: the difference itself
    const int64_t* score_cost = nullptr;
    int64_t ntiers = 0, system = 0, bound = 0;
    bool colors = false, hard = false, has_bye = false;
    uint64_t base = 0;       // the tie-break's seed word
    uint64_t draw_base = 0;  // the random systems' draws' seed word (base ^ DRAW_SALT)
};

// The index of pair u < v in the row-major upper triangle of n x n.
static inline int64_t tri_index(int64_t n, int64_t u, int64_t v) {
    return u * n - u * (u + 1) / 2 + (v - u - 1);
}

// Whether key is in keys[lo:hi] (sorted: one vertex's few partners), and at which index.
static inline bool has_key(const int64_t* keys, int64_t lo, int64_t hi, int64_t key, int64_t* at) {
    int64_t end = hi;
    while (lo < hi) {
        int64_t mid = (lo + hi) >> 1;
        if (keys[mid] < key) lo = mid + 1; else hi = mid;
    }
    *at = lo;
    return lo < end && keys[lo] == key;
}

// A seeded hash of the unordered pair a, b (splitmix64's finaliser over the seed word and the
// pair, with the pair's own two multipliers): the tie-break and the random systems' draws.
static inline uint64_t pair_hash(uint64_t base, uint64_t a, uint64_t b, uint64_t ka,
                                 uint64_t kb) {
    uint64_t lo = a < b ? a : b, hi = a < b ? b : a;
    uint64_t x = base + lo * ka + hi * kb;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

// The random systems' draw of the pair of player ids a, b: pair_hash of the round's draw seed
// word, mapped onto 1 .. 2**20 - 1 by a multiply and shift. Made on demand for any pair, so
// no structure of the round grows with the square of the players. weights.py's pair_draws
// (numpy) and pair_draw (Python) are the same.
static const uint64_t DRAW_SALT = 0xD1B54A32D192ED03ULL;
static inline int32_t pair_draw(uint64_t draw_base, uint64_t a, uint64_t b) {
    uint64_t x = pair_hash(draw_base, a, b, 0xA24BAED4963EE407ULL, 0x9FB21C651E98DF25ULL);
    return (int32_t)(((x >> 32) * ((1ULL << RANDOM_BITS) - 1)) >> 32) + 1;
}

static inline uint64_t tiebreak(uint64_t base, uint64_t a, uint64_t b) {
    return pair_hash(base, a, b, 0x94D049BB133111EBULL, 0x2545F4914F6CDD1DULL) >> (64 - 16);
}

// Whether player pair u < v is an edge of the round's graph (not excluded: forbidden, or a
// rematch under "forbid", or beyond the colour bound when it is absolute).
static inline bool model_edge(const Model& m, int64_t u, int64_t v) {
    int64_t at;
    if (has_key(m.exc_keys, m.exc_off[u], m.exc_off[u + 1], u * m.n + v, &at)) return false;
    int64_t csum = m.cd[u] + m.cd[v];
    if (csum < 0) csum = -csum;
    return !(m.hard && csum >= m.bound);
}

// The benefits of player pair u < v into out[]; false when the pair is not an edge.
static inline bool model_benefits(const Model& m, int64_t u, int64_t v, int64_t* out) {
    int64_t key = u * m.n + v;
    int64_t at;
    if (has_key(m.exc_keys, m.exc_off[u], m.exc_off[u + 1], key, &at)) return false;
    int64_t csum = m.cd[u] + m.cd[v];
    if (csum < 0) csum = -csum;
    if (m.hard && csum >= m.bound) return false;
    int c = 0;
    if (m.ntiers) {
        int64_t times = 0;
        if (has_key(m.met_keys, m.met_off[u], m.met_off[u + 1], key, &at)) times = m.met_times[at];
        for (int64_t t = 0; t < m.ntiers; ++t, ++c) out[c] = m.highs[c] - (times == m.tiers[t]);
    }
    if (m.colors) { out[c] = m.highs[c] - (csum >= m.bound); ++c; }
    if (m.has_bye) { out[c] = m.highs[c]; ++c; }
    int64_t sd = m.score[u] - m.score[v];
    if (sd < 0) sd = -sd;
    out[c] = m.highs[c] - (m.score_cost ? m.score_cost[sd] : sd); ++c;
    if (m.colors) { out[c] = m.highs[c] - csum; ++c; }
    int64_t d = v - u;
    switch (m.system) {
        case SYS_MONRAD:
            out[c] = m.highs[c] - d; ++c;
            break;
        case SYS_BURSTEIN:
            out[c] = d; out[c + 1] = d * d; c += 2;
            break;
        case SYS_DUTCH: {
            int64_t g = m.score[u] == m.score[v] ? m.gsize[u] : 0;
            int64_t off = g - 2 * d;
            if (off < 0) off = -off;
            out[c] = m.highs[c] - off; out[c + 1] = m.highs[c + 1] - off * off; c += 2;
            break;
        }
        case SYS_RANDOM:
        case SYS_RANDOM2: {
            int64_t value = pair_draw(m.draw_base, (uint64_t)m.ids[u], (uint64_t)m.ids[v]);
            // Random2: a bonus across the halves of a score group (top half: 2 pos < size)
            if (m.system == SYS_RANDOM2 && m.score[u] == m.score[v] &&
                (2 * m.gpos[u] < m.gsize[u]) != (2 * m.gpos[v] < m.gsize[v]))
                value += int64_t(1) << RANDOM_BITS;
            out[c] = value; ++c;
            break;
        }
        default:  // override
            out[c] = m.pi[u * m.n + v]; ++c;
    }
    out[c] = (int64_t)tiebreak(m.base, (uint64_t)m.ids[u], (uint64_t)m.ids[v]);
    return true;
}

// The system's terms of player pair u < v (as benefits) times mc[0], mc[1] (their
// multipliers, times 4): with the run pair's bounds of the other components, an exact upper
// bound of the edge's 4 w that costs a few multiplications (no exclusion lookups, no
// tie-break hash, no component array).
template <class V>
static inline V system_terms(const Model& m, int64_t u, int64_t v, const V* mc) {
    int64_t d = v - u;
    switch (m.system) {
        case SYS_MONRAD:
            return mc[0] * (long long)(m.highs_sys[0] - d);
        case SYS_BURSTEIN:
            return mc[0] * (long long)d + mc[1] * (long long)(d * d);
        case SYS_DUTCH: {
            int64_t g = m.score[u] == m.score[v] ? m.gsize[u] : 0;
            int64_t off = g - 2 * d;
            if (off < 0) off = -off;
            return mc[0] * (long long)(m.highs_sys[0] - off) +
                   mc[1] * (long long)(m.highs_sys[1] - off * off);
        }
        case SYS_RANDOM:
        case SYS_RANDOM2: {
            int64_t value = pair_draw(m.draw_base, (uint64_t)m.ids[u], (uint64_t)m.ids[v]);
            if (m.system == SYS_RANDOM2 && m.score[u] == m.score[v] &&
                (2 * m.gpos[u] < m.gsize[u]) != (2 * m.gpos[v] < m.gsize[v]))
                value += int64_t(1) << RANDOM_BITS;
            return mc[0] * (long long)value;
        }
        default:
            return mc[0] * (long long)m.pi[u * m.n + v];
    }
}

// ub[c * np_ + p] bounds component c of every pair of run pair p from above, so that
// 4 * sum_c ub[c] * mults[c] >= 4 w for each of its edges: a row (u) or an edge whose
// potentials already reach it cannot violate (blossom values only add), and is skipped
// without computing its components.
template <class V>
static void price_model_loop(const Model& m, const int64_t* ri, const int64_t* rj, Py_ssize_t np_,
                             const int64_t* starts, const int64_t* ends, const int64_t* ub,
                             Py_ssize_t k, const std::vector<V>& y, const int64_t* inner,
                             const int64_t* parent, const int64_t* depth,
                             const std::vector<V>& cumz, const std::vector<V>& mults,
                             std::vector<int64_t>* bad, std::vector<double>* how,
                             int64_t* priced, Py_ssize_t first = 0, Py_ssize_t stride = 1,
                             std::vector<size_t>* cuts = nullptr) {
    std::vector<int64_t> ben(k);
    std::vector<double> yd(m.nv), multd(k);
    for (int64_t v = 0; v < m.nv; ++v) yd[v] = to_double(to_i256(y[v]));
    for (Py_ssize_t c = 0; c < k; ++c) multd[c] = to_double(to_i256(mults[c]));
    BlossomTree tree(parent, depth, (int64_t)cumz.size());
    const Py_ssize_t cs = k - 1 - (m.system == SYS_BURSTEIN || m.system == SYS_DUTCH ? 2 : 1);
    std::vector<V> mults4;  // the system's terms' multipliers, times 4
    for (Py_ssize_t c = cs; c < k - 1; ++c) mults4.push_back(mults[c] * 4);
    int64_t count = 0;
    for (Py_ssize_t p = first; p < np_; p += stride) {
        if (cuts && p != first) cuts->push_back(bad->size());  // where run pair p starts
        int64_t i = ri[p], j = rj[p];
        V bound(0);
        for (Py_ssize_t c = 0; c < k; ++c)
            if (ub[c * np_ + p]) bound += mults[c] * (long long)ub[c * np_ + p];
        bound = bound * 4;
        V ymin_j = y[starts[j]];
        for (int64_t v = starts[j] + 1; v < ends[j]; ++v)
            if (y[v] < ymin_j) ymin_j = y[v];
        // 4 x the run pair's bounds of every component but the system's terms (an edge's
        // bound adds its exact terms, system_terms).
        V rest(0);
        for (Py_ssize_t c = 0; c < k; ++c)
            if ((c < cs || c == k - 1) && ub[c * np_ + p]) rest += mults[c] * (long long)ub[c * np_ + p];
        rest = rest * 4;
        // Random systems: the run pair's bound holds its largest draw; a row's own largest
        // draw into run j (segmax) bounds that row tighter (its top of 32 draws, not of 1,024).
        const int32_t* seg = nullptr;
        int64_t c_r = k - 2, ub_r = 0, bonus = 0;
        if (m.segmax && starts[j] == j * m.run) {
            seg = m.segmax;
            ub_r = ub[c_r * np_ + p];
            bonus = m.system == SYS_RANDOM2 && ub_r >= (int64_t(1) << RANDOM_BITS)
                        ? int64_t(1) << RANDOM_BITS : 0;
        }
        for (int64_t u = starts[i]; u < ends[i]; ++u) {
            V row_bound = bound;
            if (seg) {
                int64_t gap = ub_r - (seg[u * m.runs + j] + bonus);
                if (gap > 0) row_bound = bound - mults[c_r] * (long long)gap * 4;
            }
            if (!(y[u] + ymin_j < row_bound)) continue;
            for (int64_t v = i == j ? u + 1 : starts[j]; v < ends[j]; ++v) {
                if (!(y[u] + y[v] < row_bound)) continue;
                // Then against the edge's own bound (its exact system terms, the run pair's
                // bounds of the rest): at round 1, Burstein's duals are tight on the rank
                // distance of every pair across the middle and only its square tells those
                // pairs apart, so the run pair's bound (its largest distance) skipped none of
                // them: 25 million weights computed at 10,000 players, for 5,000 tight edges.
                if (!(y[u] + y[v] < rest + system_terms<V>(m, u, v, mults4.data()))) continue;
                if (!model_benefits(m, u, v, ben.data())) continue;
                ++count;
                // A floating-point filter first: every term is within a relative 2**-50 of
                // its exact value, so a slack above 1e-9 of the magnitudes is truly >= 0.
                double wd = 0;
                for (Py_ssize_t c = 0; c < k; ++c) wd += multd[c] * (double)ben[c];
                double sd = yd[u] + yd[v] - 4 * wd;
                if (sd > 1e-9 * (std::fabs(yd[u]) + std::fabs(yd[v]) + 4 * wd) + 1) continue;
                V w(0);
                for (Py_ssize_t c = 0; c < k; ++c)
                    if (ben[c]) w += mults[c] * (long long)ben[c];
                V slack = y[u] + y[v] - w * 4;
                if (!(slack < V(0))) continue;
                add_shared_blossoms(slack, inner[u], inner[v], tree, cumz);
                if (slack < V(0)) {
                    bad->push_back(u * m.nv + v);
                    how->push_back(to_double(to_i256(slack)));
                }
            }
        }
    }
    if (cuts) cuts->push_back(bad->size());
    *priced = count;
}

// price_model_loop on `threads` threads: thread t takes the run pairs p = t, t + threads, ...
// (interleaved, so that each gets a fair share of the dense and the sparse parts), and the
// results are put back in the order of p: the output is the same whatever the thread count.
template <class V>
static void price_model_threads(const Model& m, const int64_t* ri, const int64_t* rj,
                                Py_ssize_t np_, const int64_t* starts, const int64_t* ends,
                                const int64_t* ub, Py_ssize_t k, const std::vector<V>& y,
                                const int64_t* inner, const int64_t* parent, const int64_t* depth,
                                const std::vector<V>& cumz, const std::vector<V>& mults,
                                std::vector<int64_t>* bad, std::vector<double>* how,
                                int64_t* priced, int threads) {
    if (threads <= 1 || np_ < 4 * threads) {
        price_model_loop<V>(m, ri, rj, np_, starts, ends, ub, k, y, inner, parent, depth, cumz,
                            mults, bad, how, priced);
        return;
    }
    std::vector<std::vector<int64_t>> bads(threads);
    std::vector<std::vector<double>> hows(threads);
    std::vector<std::vector<size_t>> cuts(threads);
    std::vector<int64_t> counts(threads, 0);
    auto work = [&](int t) {
        price_model_loop<V>(m, ri, rj, np_, starts, ends, ub, k, y, inner, parent, depth, cumz,
                            mults, &bads[t], &hows[t], &counts[t], t, threads, &cuts[t]);
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(work, t);
    work(0);
    for (auto& th : pool) th.join();
    std::vector<size_t> pos(threads, 0);
    for (Py_ssize_t p = 0; p < np_; ++p) {
        int t = (int)(p % threads);
        size_t end = cuts[t][p / threads];
        bad->insert(bad->end(), bads[t].begin() + pos[t], bads[t].begin() + end);
        how->insert(how->end(), hows[t].begin() + pos[t], hows[t].begin() + end);
        pos[t] = end;
    }
    *priced = 0;
    for (int64_t c : counts) *priced += c;
}

static bool read_model(PyObject* spec, Model* m, std::vector<Py_buffer>* held) {
    // spec = (n, nv, system, colors, hard, has_bye, bound, base, score, cd, gsize, ids,
    //         met_keys, met_times, met_off, exc_keys, exc_off, tiers, highs, gpos, draws,
    //         segmax, run, pi[, score_cost])
    // draws is unused (empty: the random systems' draws are made on demand, pair_draw),
    // segmax (int32 per row and run of `run` ranks, see random_table; may be empty) and pi
    // (int64 n x n; override) are empty for the other systems.
    long long n, nv, system, bound, run;
    int colors, hard, has_bye;
    unsigned long long base;
    Py_buffer b[16];
    memset(&b[15], 0, sizeof(Py_buffer));  // optional: release is a no-op while obj is NULL
    if (!PyArg_ParseTuple(spec, "LLLpppLKy*y*y*y*y*y*y*y*y*y*y*y*y*y*Ly*|y*", &n, &nv, &system,
                          &colors, &hard, &has_bye, &bound, &base, &b[0], &b[1], &b[2], &b[3],
                          &b[4], &b[5], &b[6], &b[7], &b[8], &b[9], &b[10], &b[11], &b[12],
                          &b[13], &run, &b[14], &b[15]))
        return false;
    for (auto& x : b) held->push_back(x);
    bool ok = check_len(b[0], 8 * n, "score") && check_len(b[1], 8 * n, "cd") &&
              check_len(b[2], 8 * n, "gsize") && check_len(b[3], 8 * n, "ids") &&
              check_len(b[5], b[4].len, "met_times") && check_len(b[6], 8 * (n + 1), "met_off") &&
              check_len(b[8], 8 * (n + 1), "exc_off") && check_len(b[11], 8 * n, "gpos");
    if (!ok) return false;
    if (system < 0 || system >= SYS_COUNT) {
        PyErr_SetString(PyExc_ValueError, "system code must be 0 (monrad), 1 (burstein), "
                        "2 (dutch), 3 (random), 4 (random2) or 5 (override)");
        return false;
    }
    bool random = system == SYS_RANDOM || system == SYS_RANDOM2;
    if (system == SYS_OVERRIDE && !check_len(b[14], 8 * n * n, "pi")) return false;
    if (run < 1) run = 1;
    int64_t runs = (n + run - 1) / run;
    if (b[13].len && !check_len(b[13], 4 * n * runs, "segmax")) return false;
    m->gpos = (const int64_t*)b[11].buf;
    m->segmax = random && b[13].len ? (const int32_t*)b[13].buf : nullptr;
    m->run = run;
    m->runs = runs;
    m->pi = system == SYS_OVERRIDE ? (const int64_t*)b[14].buf : nullptr;
    if (b[15].obj) {
        // one cost per score difference 0..top, top = the largest difference of two scores
        int64_t lo = 0, hi = 0;
        const int64_t* sc = (const int64_t*)b[0].buf;
        for (int64_t i = 0; i < n; ++i) {
            if (i == 0 || sc[i] < lo) lo = sc[i];
            if (i == 0 || sc[i] > hi) hi = sc[i];
        }
        if (!check_len(b[15], 8 * (hi - lo + 1), "score_cost")) return false;
        m->score_cost = (const int64_t*)b[15].buf;
    }
    m->n = n; m->nv = nv; m->system = system; m->bound = bound; m->base = base;
    m->draw_base = base ^ DRAW_SALT;
    m->colors = colors; m->hard = hard; m->has_bye = has_bye;
    m->score = (const int64_t*)b[0].buf; m->cd = (const int64_t*)b[1].buf;
    m->gsize = (const int64_t*)b[2].buf; m->ids = (const int64_t*)b[3].buf;
    m->met_keys = (const int64_t*)b[4].buf; m->met_times = (const int64_t*)b[5].buf;
    m->met_off = (const int64_t*)b[6].buf; m->exc_keys = (const int64_t*)b[7].buf;
    m->exc_off = (const int64_t*)b[8].buf; m->tiers = (const int64_t*)b[9].buf;
    m->ntiers = b[9].len / 8; m->highs = (const int64_t*)b[10].buf;
    int terms = system == SYS_BURSTEIN || system == SYS_DUTCH ? 2 : 1;
    if (b[10].len / 8 >= terms + 1) m->highs_sys = m->highs + b[10].len / 8 - 1 - terms;
    return true;
}

static Py_ssize_t model_width(const Model& m) {
    int terms = m.system == SYS_BURSTEIN || m.system == SYS_DUTCH ? 2 : 1;
    return m.ntiers + (m.colors ? 2 : 0) + (m.has_bye ? 1 : 0) + 1 + terms + 1;
}

static void release(std::vector<Py_buffer>* held) {
    for (auto& x : *held) PyBuffer_Release(&x);
}

// price_model(spec, ri, rj, starts, ends, ub, mults, y, inner, parent, depth, cumz, narrow
//             [, threads])
//   -> (keys u * nv + v of the violating player pairs, their reduced costs as float64,
//       how many edges had their weight computed); the same for any thread count.
static PyObject* price_model(PyObject*, PyObject* args) {
    PyObject* spec;
    int use_narrow = 0, threads = 1;
    Py_buffer rib, rjb, sb, eb, ubb, mults, yb, innerb, parentb, depthb, cumzb;
    if (!PyArg_ParseTuple(args, "Oy*y*y*y*y*y*y*y*y*y*y*p|i", &spec, &rib, &rjb, &sb, &eb, &ubb,
                          &mults, &yb, &innerb, &parentb, &depthb, &cumzb, &use_narrow, &threads))
        return nullptr;
    threads = std::max(1, std::min(threads, 64));
    std::vector<Py_buffer> held = {rib, rjb, sb, eb, ubb, mults, yb, innerb, parentb, depthb, cumzb};
    PyObject* result = nullptr;
    Model m;
    if (read_model(spec, &m, &held)) {
        Py_ssize_t k = model_width(m), nb = parentb.len / 8, np_ = rib.len / 8;
        if (check_len(mults, 32 * k, "mults") && check_len(rjb, rib.len, "rj") &&
            check_len(eb, sb.len, "ends") && check_len(yb, 32 * m.nv, "y") &&
            check_len(innerb, 8 * m.nv, "inner") && check_len(depthb, 8 * nb, "depth") &&
            check_len(cumzb, 32 * nb, "cumz") && check_len(ubb, 8 * k * np_, "ub")) {
            const I256* y = (const I256*)yb.buf;
            const I256* cumz = (const I256*)cumzb.buf;
            const int64_t* ub = (const int64_t*)ubb.buf;
            std::vector<I256> mv(k);
            for (Py_ssize_t c = 0; c < k; ++c) std::memcpy(mv[c].w, (const char*)mults.buf + 32 * c, 32);
            std::vector<int64_t> bad;
            std::vector<double> how;
            int64_t priced = 0;
            const int64_t *ri = (const int64_t*)rib.buf, *rj = (const int64_t*)rjb.buf;
            const int64_t *st = (const int64_t*)sb.buf, *en = (const int64_t*)eb.buf;
            const int64_t* inner = (const int64_t*)innerb.buf;
            const int64_t* parent = (const int64_t*)parentb.buf;
            const int64_t* depth = (const int64_t*)depthb.buf;
            Py_BEGIN_ALLOW_THREADS
            if (use_narrow) {
                std::vector<__int128> y2(m.nv), cumz2(nb), mults2(k);
                for (Py_ssize_t i = 0; i < m.nv; ++i) y2[i] = narrow(y[i]);
                for (Py_ssize_t i = 0; i < nb; ++i) cumz2[i] = narrow(cumz[i]);
                for (Py_ssize_t i = 0; i < k; ++i) mults2[i] = narrow(mv[i]);
                price_model_threads<__int128>(m, ri, rj, np_, st, en, ub, k, y2, inner, parent,
                                              depth, cumz2, mults2, &bad, &how, &priced, threads);
            } else {
                std::vector<I256> y2(y, y + m.nv), cumz2(cumz, cumz + nb);
                price_model_threads<I256>(m, ri, rj, np_, st, en, ub, k, y2, inner, parent, depth,
                                          cumz2, mv, &bad, &how, &priced, threads);
            }
            Py_END_ALLOW_THREADS
            result = Py_BuildValue("(y#y#L)", (const char*)bad.data(), (Py_ssize_t)(8 * bad.size()),
                                   (const char*)how.data(), (Py_ssize_t)(8 * how.size()),
                                   (long long)priced);
        }
    }
    release(&held);
    return result;
}

// The random systems' candidates: each player's k partners in its score group with the
// largest random terms, ties towards the smaller partner (a total order: the set does not
// depend on how the rows are split over threads). Found without a per-pair heap: each player
// u gets a threshold thr[u] that about 3 k of its terms reach (the draws are uniform), the
// walk keeps every pair whose term reaches the threshold of either end (one vectorised
// comparison per pair), and u's best k are chosen among its kept pairs. That is exact when
// at least k kept pairs reach thr[u] (every pair left out is below it), and when thr[u] is 1
// (every pair is kept); otherwise (about one player in 10**5) u's group is scanned whole.
struct Kept {
    int32_t u, v, term;
};

static inline bool term_before(const std::pair<int32_t, int32_t>& a,
                               const std::pair<int32_t, int32_t>& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
}

// random_table(spec, run, k[, threads]) -> (segmax: int32 per player u and run j of `run` consecutive
// ranks, the largest draw of the pairs (u, v > u) with v in run j; runmax: int64 per pair of
// runs, i <= j in numpy.triu_indices order, the largest draw between them; partners: us, vs
// (int64, u < v, with repeats), each player's k partners inside its score group with the
// largest random term (draw, plus Random2's bonus across the halves): candidate edges, since
// the random systems' optimum sits on high draws that no position in the standings predicts).
// The draws are made on demand (pair_draw), a row at a time per thread: nothing of n**2 size.
static PyObject* random_table(PyObject*, PyObject* args) {
    PyObject* spec;
    Py_ssize_t run, k, threads = 1;
    if (!PyArg_ParseTuple(args, "Onn|n", &spec, &run, &k, &threads)) return nullptr;
    std::vector<Py_buffer> held;
    PyObject* result = nullptr;
    Model m;
    if (read_model(spec, &m, &held)) {
        if (run < 1 || k < 1) {
            PyErr_SetString(PyExc_ValueError, "run, k >= 1");
        } else {
            int64_t n = m.n, runs = (n + run - 1) / run;
            PyObject* seg = PyBytes_FromStringAndSize(nullptr, 4 * n * runs);
            std::vector<int64_t> runmax(runs * (runs + 1) / 2, 0);
            std::vector<int64_t> pu, pv;  // the candidates
            bool second = m.system == SYS_RANDOM2;
            if (seg) {
                int32_t* segmax = (int32_t*)PyBytes_AS_STRING(seg);
                std::fill(segmax, segmax + n * runs, 0);
                Py_BEGIN_ALLOW_THREADS
                int64_t total = n * (n - 1) / 2;
                const bool every_pair = m.exc_off[n] == 0 && !m.hard;
                // The draws of row u (pairs u, v > u; 0 for the pairs that are not edges).
                auto draw_row = [&](int64_t u, int32_t* row) {
                    const uint64_t a = (uint64_t)m.ids[u];
                    for (int64_t v = u + 1; v < n; ++v)
                        row[v - u - 1] = every_pair || model_edge(m, u, v)
                            ? pair_draw(m.draw_base, a, (uint64_t)m.ids[v]) : 0;
                };
                // Random2's halves, and where each score group ends (players are in rank
                // order, so a group is a run of equal scores; otherwise every later player is
                // checked).
                std::vector<int32_t> top(n);
                std::vector<int64_t> group_end(n, n);
                bool runs_of_scores = true;
                for (int64_t u = 0; u < n; ++u) {
                    top[u] = 2 * m.gpos[u] < m.gsize[u];
                    if (u && m.score[u] != m.score[u - 1] &&
                        (m.score[u] > m.score[u - 1]) != (m.score[n - 1] > m.score[0]))
                        runs_of_scores = false;
                }
                for (int64_t u = n - 2; u >= 0; --u)
                    group_end[u] = m.score[u + 1] == m.score[u] ? group_end[u + 1] : u + 1;
                // The row maxima and the kept pairs, rows split over the threads (balanced by
                // pairs); the run maxima are taken from the row maxima after.
                int nt = (int)std::max<Py_ssize_t>(1, std::min<Py_ssize_t>(threads, 64));
                if (n < 2 * nt) nt = 1;
                std::vector<int64_t> cut(nt + 1, n);
                cut[0] = 0;
                for (int64_t u = 0, t = 0, part = 1; u < n && part < nt; ++u) {
                    t += n - 1 - u;
                    if (t * nt >= total * part) cut[part++] = u + 1;
                }
                // Thresholds: partners in u's group (and, for Random2, in its other half,
                // whose terms carry the bonus), 3 k of them expected above.
                const int32_t B = int32_t(1) << RANDOM_BITS;
                std::vector<int32_t> thr(n, 1);
                {
                    std::map<int64_t, std::pair<int64_t, int64_t>> groups;  // players, top half
                    for (int64_t u = 0; u < n; ++u) {
                        auto& g = groups[m.score[u]];
                        g.first += 1;
                        g.second += top[u];
                    }
                    const int64_t want = 3 * k;
                    for (int64_t u = 0; u < n; ++u) {
                        const auto& g = groups[m.score[u]];
                        int64_t partners = g.first - 1;
                        int64_t across = top[u] ? g.first - g.second : g.second;
                        if (second && across > 4 * k)
                            thr[u] = B + (int32_t)std::max<int64_t>(1, B - B * want / across);
                        else if (partners > 4 * k)
                            thr[u] = (int32_t)std::max<int64_t>(1, B - B * want / partners);
                    }
                }
                std::vector<std::vector<Kept>> kept(nt);
                // Per run j of the row: its largest draw, and whether any term in u's group
                // reaches the threshold of u or of the partner, 8 pairs at a time in one
                // vectorised loop; only those 8 are then looked at one by one.
                auto work = [&](int w) {
                    std::vector<Kept>& mine = kept[w];
                    std::vector<int32_t> buffer(n);
                    for (int64_t u = cut[w]; u < cut[w + 1]; ++u) {
                        int32_t* srow = segmax + u * runs;
                        const int32_t* row = buffer.data();  // [v - u - 1]
                        draw_row(u, buffer.data());
                        const int32_t top_u = top[u], thr_u = thr[u];
                        const int64_t end = runs_of_scores ? group_end[u] : n;
                        for (int64_t j = (u + 1) / run; j < runs; ++j) {
                            const int64_t lo = std::max(u + 1, j * run);
                            const int64_t hi = std::min(n, (j + 1) * run);
                            const int64_t mid = std::min(hi, std::max(lo, end));
                            int32_t best = 0;
                            for (int64_t c0 = lo; c0 < mid; c0 += 8) {
                                const int64_t c1 = std::min(mid, c0 + 8);
                                int32_t hit = 0;
                                for (int64_t v = c0; v < c1; ++v) {
                                    int32_t value = row[v - u - 1];
                                    best = std::max(best, value);
                                    int32_t term = value + (second & (value != 0) &
                                                            (top_u != top[v])) * B;
                                    hit |= term >= std::min(thr_u, thr[v]);
                                }
                                if (!hit) continue;
                                for (int64_t v = c0; v < c1; ++v) {
                                    int32_t value = row[v - u - 1];
                                    int32_t term = value + (second && value && top_u != top[v]) * B;
                                    if (term < std::min(thr_u, thr[v])) continue;
                                    if (!runs_of_scores && m.score[v] != m.score[u]) continue;
                                    mine.push_back({(int32_t)u, (int32_t)v, term});
                                }
                            }
                            for (int64_t v = mid; v < hi; ++v) best = std::max(best, row[v - u - 1]);
                            srow[j] = best;
                        }
                    }
                };
                std::vector<std::thread> pool;
                for (int w = 1; w < nt; ++w) pool.emplace_back(work, w);
                work(0);
                for (auto& th : pool) th.join();
                for (int64_t u = 0; u < n; ++u) {
                    int64_t i = u / run, row = i * runs - i * (i - 1) / 2 - i;
                    const int32_t* srow = segmax + u * runs;
                    for (int64_t j = i; j < runs; ++j)
                        runmax[row + j] = std::max<int64_t>(runmax[row + j], srow[j]);
                }
                // Each player's kept pairs (term, partner), then its best k.
                std::vector<int64_t> at(n + 1, 0);
                for (const auto& list : kept)
                    for (const Kept& x : list) { ++at[x.u + 1]; ++at[x.v + 1]; }
                for (int64_t u = 0; u < n; ++u) at[u + 1] += at[u];
                std::vector<std::pair<int32_t, int32_t>> items(at[n]);
                {
                    std::vector<int64_t> fill(at.begin(), at.end() - 1);
                    for (const auto& list : kept)
                        for (const Kept& x : list) {
                            items[fill[x.u]++] = {x.term, x.v};
                            items[fill[x.v]++] = {x.term, x.u};
                        }
                }
                std::vector<std::pair<int32_t, int32_t>> whole;
                for (int64_t u = 0; u < n; ++u) {
                    auto first = items.begin() + at[u], last = items.begin() + at[u + 1];
                    int64_t reach = 0;
                    for (auto it = first; it != last; ++it) reach += it->first >= thr[u];
                    if (reach < k && thr[u] > 1) {  // too few above the threshold: every pair
                        whole.clear();
                        for (int64_t v = 0; v < n; ++v) {
                            if (v == u || m.score[v] != m.score[u]) continue;
                            int64_t lo = std::min(u, v), hi = std::max(u, v);
                            int32_t value = every_pair || model_edge(m, lo, hi)
                                ? pair_draw(m.draw_base, (uint64_t)m.ids[lo], (uint64_t)m.ids[hi])
                                : 0;
                            int32_t term = value + (second && value && top[u] != top[v]) * B;
                            if (term) whole.push_back({term, (int32_t)v});
                        }
                        first = whole.begin();
                        last = whole.end();
                    }
                    auto stop = first + std::min<int64_t>(k, last - first);
                    std::partial_sort(first, stop, last, term_before);
                    for (auto it = first; it != stop; ++it) {
                        int64_t v = it->second;
                        pu.push_back(std::min(u, v));
                        pv.push_back(std::max(u, v));
                    }
                }
                Py_END_ALLOW_THREADS
                result = Py_BuildValue("(Ny#y#y#)", seg, (const char*)runmax.data(),
                                       (Py_ssize_t)(8 * runmax.size()), (const char*)pu.data(),
                                       (Py_ssize_t)(8 * pu.size()), (const char*)pv.data(),
                                       (Py_ssize_t)(8 * pv.size()));
            }
        }
    }
    release(&held);
    return result;
}

// solve_model_small(spec, bye_us, bye_comps, mults) -> mate | None | False, as solve_small,
// on the round's whole graph: every player pair's components computed here (model_benefits),
// the bye edges' (u, n) given (k x len(bye_us) int64, from the numpy model). The simulator's
// pairing in one call, with no edge arrays.
static PyObject* solve_model_small(PyObject*, PyObject* args) {
    PyObject* spec;
    Py_buffer byeb, bcompb, mults;
    if (!PyArg_ParseTuple(args, "Oy*y*y*", &spec, &byeb, &bcompb, &mults)) return nullptr;
    std::vector<Py_buffer> held = {byeb, bcompb, mults};
    PyObject* result = nullptr;
    Model m;
    if (read_model(spec, &m, &held)) {
        Py_ssize_t k = model_width(m), nb = byeb.len / 8;
        if (check_len(mults, 32 * k, "mults") && check_len(bcompb, 8 * k * nb, "bye_comps")) {
            std::vector<I256> mv(k);
            for (Py_ssize_t c = 0; c < k; ++c)
                std::memcpy(mv[c].w, (const char*)mults.buf + 32 * c, 32);
            const int64_t* bye = (const int64_t*)byeb.buf;
            const int64_t* bcomp = (const int64_t*)bcompb.buf;
            std::vector<int64_t> us, vs, ben(k);
            std::vector<I256> weights;
            for (int64_t u = 0; u < m.n; ++u)
                for (int64_t v = u + 1; v < m.n; ++v) {
                    if (!model_benefits(m, u, v, ben.data())) continue;
                    I256 w(0);
                    for (Py_ssize_t c = 0; c < k; ++c)
                        if (ben[c]) w += mul_u64(mv[c], (uint64_t)ben[c]);
                    us.push_back(u);
                    vs.push_back(v);
                    weights.push_back(w);
                }
            bool valid = true;
            for (Py_ssize_t e = 0; e < nb; ++e) {
                if (bye[e] < 0 || bye[e] >= m.n || m.nv != m.n + 1) { valid = false; break; }
                I256 w(0);
                for (Py_ssize_t c = 0; c < k; ++c)
                    if (bcomp[c * nb + e]) w += mul_u64(mv[c], (uint64_t)bcomp[c * nb + e]);
                us.push_back(bye[e]);
                vs.push_back(m.n);
                weights.push_back(w);
            }
            if (!valid)
                PyErr_SetString(PyExc_ValueError, "bye edges need a bye vertex and players");
            else
                result = dense_solve(m.nv, us.data(), vs.data(), (Py_ssize_t)us.size(), weights);
        }
    }
    release(&held);
    return result;
}

// model_components(spec, us, vs) -> (int64 components, row-major k x m; uint8 is-edge flags)
// (for the test that holds this restatement to the numpy model)
static PyObject* model_components(PyObject*, PyObject* args) {
    PyObject* spec;
    Py_buffer usb, vsb;
    if (!PyArg_ParseTuple(args, "Oy*y*", &spec, &usb, &vsb)) return nullptr;
    std::vector<Py_buffer> held = {usb, vsb};
    PyObject* result = nullptr;
    Model m;
    if (read_model(spec, &m, &held) && check_len(vsb, usb.len, "vs")) {
        Py_ssize_t k = model_width(m), count = usb.len / 8;
        const int64_t *us = (const int64_t*)usb.buf, *vs = (const int64_t*)vsb.buf;
        std::vector<int64_t> comps(k * count), ben(k);
        std::vector<uint8_t> ok(count);
        bool valid = true;
        for (Py_ssize_t e = 0; e < count; ++e) {
            if (us[e] < 0 || us[e] >= vs[e] || vs[e] >= m.n) { valid = false; break; }
            ok[e] = model_benefits(m, us[e], vs[e], ben.data());
            for (Py_ssize_t c = 0; c < k; ++c) comps[c * count + e] = ok[e] ? ben[c] : 0;
        }
        if (!valid)
            PyErr_SetString(PyExc_ValueError, "pairs must be player pairs u < v");
        else
            result = Py_BuildValue("(y#y#)", (const char*)comps.data(), (Py_ssize_t)(8 * comps.size()),
                                   (const char*)ok.data(), (Py_ssize_t)count);
    }
    release(&held);
    return result;
}

// cover(starts, other, eid, usable, verts, need, leaver, mate, even) -> -1 or the first need
// vertex (local index) no matching covers with the others (cover_search.h). mate (int64,
// writable): the start matching in local indices, left as the final one; even (uint8,
// writable): when a vertex is returned, the even vertices of its failed search.
static PyObject* cover_fn(PyObject*, PyObject* args) {
    Py_buffer sb, ob, eb, ub, vb, nb, lb, mb, evb;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*w*w*", &sb, &ob, &eb, &ub, &vb, &nb, &lb, &mb,
                          &evb))
        return nullptr;
    PyObject* result = nullptr;
    int64_t rows = sb.len / 8 - 1, k = vb.len / 8;
    if (rows < 0 || ob.len != eb.len || nb.len != k || lb.len != k || mb.len != 8 * k ||
        evb.len != k) {
        PyErr_SetString(PyExc_ValueError, "cover: inconsistent buffer sizes");
    } else {
        const int64_t* starts = (const int64_t*)sb.buf;
        const int64_t* eid = (const int64_t*)eb.buf;
        const int64_t* verts = (const int64_t*)vb.buf;
        int64_t* mate = (int64_t*)mb.buf;
        // (edge ids and other ends are checked where they are read: no pass over the CSR)
        bool ok = starts[0] == 0 && starts[rows] == ob.len / 8;
        for (int64_t i = 0; ok && i < rows; ++i) ok = starts[i] <= starts[i + 1];
        for (int64_t i = 0; ok && i < k; ++i) ok = mate[i] >= -1 && mate[i] < k;
        int hubs = 0;
        for (int64_t i = 0; ok && i < k; ++i) hubs += verts[i] < 0 || verts[i] >= rows;
        if (!ok || hubs > 1) {
            PyErr_SetString(PyExc_ValueError, "cover: bad edge ids, mates or more than one hub");
        } else {
            int64_t bad;
            Py_BEGIN_ALLOW_THREADS
            cover::Graph g{starts, (const int64_t*)ob.buf, eid, (const uint8_t*)ub.buf, rows,
                           (int64_t)ub.len};
            cover::Search s(g, verts, k, (const uint8_t*)nb.buf, (const uint8_t*)lb.buf, mate);
            bad = s.run((uint8_t*)evb.buf);
            Py_END_ALLOW_THREADS
            result = PyLong_FromLongLong(bad);
        }
    }
    PyBuffer_Release(&sb);
    PyBuffer_Release(&ob);
    PyBuffer_Release(&eb);
    PyBuffer_Release(&ub);
    PyBuffer_Release(&vb);
    PyBuffer_Release(&nb);
    PyBuffer_Release(&lb);
    PyBuffer_Release(&mb);
    PyBuffer_Release(&evb);
    return result;
}

static PyMethodDef methods[] = {
    {"solve", solve, METH_VARARGS,
     "solve(n, us, vs, comps, k, mults[, wide]) -> None or (mate, y, zval, zoff, zmem, wide)"},
    {"solve_dense", solve_dense, METH_VARARGS,
     "solve_dense(n, us, vs, comps, k, mults, tight=False) -> what solve() returns (and the "
     "tight edges' indices with tight), None or False"},
    {"solve_small", solve_small, METH_VARARGS,
     "solve_small(n, us, vs, comps, k, mults) -> mate bytes, None (no perfect matching) or False"},
    {"price", price, METH_VARARGS,
     "price(n, us, vs, comps, k, mults, y, inner, parent, depth, cumz) -> (edges, slacks)"},
    {"price_model", price_model, METH_VARARGS,
     "price_model(spec, ri, rj, starts, ends, ub, mults, y, inner, parent, depth, cumz, narrow) "
     "-> (keys, slacks, priced)"},
    {"random_table", random_table, METH_VARARGS,
     "random_table(spec, run, k[, threads]) -> (segment maxima, run maxima, partner us, vs)"},
    {"solve_model_small", solve_model_small, METH_VARARGS,
     "solve_model_small(spec, bye_us, bye_comps, mults) -> mate bytes, None or False"},
    {"model_components", model_components, METH_VARARGS,
     "model_components(spec, us, vs) -> (components, is_edge)"},
    {"cover", cover_fn, METH_VARARGS,
     "cover(starts, other, eid, usable, verts, need, leaver, mate, even) -> -1 or a need vertex "
     "no matching covers (Edmonds' search, cover_search.h)"},
    {nullptr, nullptr, 0, nullptr}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_blossom",
                                    "Exact maximum weight perfect matching with duals (LEMON).",
                                    -1, methods};

PyMODINIT_FUNC PyInit__blossom(void) { return PyModule_Create(&module); }
