// Edmonds' cardinality matching search (alternating trees, blossoms shrunk), warm-started and
// restricted to a vertex subset of a fixed CSR graph whose edges are switched on and off by a
// per-edge flag: the exact "can these vertices all be matched?" test of the fide-dutch
// tie-break (engine.py, _TieBreak), costing the part of the graph the search touches.
//
// The question answered: given the graph on the chosen vertices (the global CSR rows of those
// vertices, edges whose flag is set and whose other end is chosen too, plus an optional hub
// vertex joined to some of them), is there a matching covering every vertex marked "need"?
// Start: a given matching (each pair an edge of that graph). For each exposed need vertex x,
// one search from x looks for
//   * an augmenting path (x ... y, y exposed): flipped, x and y become covered, or
//   * an even alternating path x ... z to a covered vertex z that is not needed: flipped
//     (a "shift"), x becomes covered and z exposed.
// Each keeps every covered need vertex covered. If the search from x finds neither, no
// matching covers all the need vertices: take one, N, that does; the component of x in
// M xor N is an alternating path from x starting with an N edge; if it ends with an N edge
// its end is M-exposed (an augmenting path from x), else its end is N-exposed, so not needed,
// and reached from x by an even alternating path ending with an M edge. Edmonds' search from
// x with blossoms shrunk finds an augmenting path from x when there is one, and when it
// finds none, labels even (outer) exactly the vertices an even alternating path from x
// reaches, so it would have found either.
//
// The shrinking follows the classic O(V^3) formulation (base[], p[], lca over the tree):
// p[v] of an odd vertex is the even vertex it was reached from; inside a shrunk blossom p[]
// of the even vertices points along the blossom, so that walking v, p[v], mate[p[v]], ...
// from any vertex reached from the tree flips an alternating path to the root.
#pragma once

#include <cstdint>
#include <vector>

namespace cover {

struct Graph {
    // Global CSR: row g is other[starts[g] .. starts[g + 1]), edge ids in eid (flags index).
    const int64_t* starts;
    const int64_t* other;
    const int64_t* eid;
    const uint8_t* usable;  // per edge id: switched on
    int64_t global_n;       // rows of the CSR
    int64_t edges;          // size of usable (edge ids outside it are ignored)
};

class Search {
  public:
    // verts: local -> global vertex (a value < 0 or >= global_n is the hub, which has no CSR
    // row: its neighbours are the vertices flagged in `leaver`). need: must be covered.
    // mate: the starting matching, local indices (-1: exposed); left as the final one.
    Search(const Graph& g, const int64_t* verts, int64_t k, const uint8_t* need,
           const uint8_t* leaver, int64_t* mate)
        : g_(g), verts_(verts), k_(k), need_(need), leaver_(leaver), mate_(mate),
          local_(g.global_n, -1), used_(k), blossom_(k), p_(k), base_(k), queue_(k) {
        hub_ = -1;
        for (int64_t i = 0; i < k; ++i) {
            int64_t x = verts[i];
            if (x < 0 || x >= g.global_n)
                hub_ = i;
            else
                local_[x] = (int32_t)i;
        }
    }

    // Returns -1 when every need vertex is covered, else the first need vertex x that cannot
    // be (the matching then covers the need vertices processed before it). Then even[v] says
    // whether v is even (outer) in the completed search from x: reached from x by an even
    // alternating path. (With x the only exposed vertex of a matching covering all but x,
    // these are exactly the v such that the graph less v has a perfect matching: flip the
    // path from x to v.)
    int64_t run(uint8_t* even) {
        for (int64_t x = 0; x < k_; ++x) {
            if (!need_[x] || mate_[x] >= 0) continue;
            if (!search(x)) {
                for (int64_t i = 0; i < k_; ++i) even[i] = used_[i] ? 1 : 0;
                return x;
            }
        }
        return -1;
    }

  private:
    template <class F>
    void neighbours(int64_t v, F&& f) {
        if (v == hub_) {
            for (int64_t i = 0; i < k_; ++i)
                if (leaver_[i] && i != hub_) f(i);
            return;
        }
        int64_t gv = verts_[v];
        for (int64_t i = g_.starts[gv], end = g_.starts[gv + 1]; i < end; ++i) {
            int64_t e = g_.eid[i], x = g_.other[i];
            if (e < 0 || e >= g_.edges || !g_.usable[e] || x < 0 || x >= g_.global_n) continue;
            int32_t w = local_[x];
            if (w >= 0) f(w);
        }
        if (hub_ >= 0 && leaver_[v]) f(hub_);
    }

    int64_t lca(int64_t a, int64_t b) {
        std::vector<char> seen(k_, 0);
        for (;;) {
            a = base_[a];
            seen[a] = 1;
            if (mate_[a] < 0) break;  // the root
            a = p_[mate_[a]];
        }
        for (;;) {
            b = base_[b];
            if (seen[b]) return b;
            b = p_[mate_[b]];
        }
    }

    void mark_path(int64_t v, int64_t b, int64_t child) {
        while (base_[v] != b) {
            blossom_[base_[v]] = blossom_[base_[mate_[v]]] = 1;
            p_[v] = child;
            child = mate_[v];
            v = p_[mate_[v]];
        }
    }

    // Flip the alternating path that ends at v (v is exposed now, p[v] its even neighbour).
    void flip(int64_t v) {
        while (v >= 0) {
            int64_t pv = p_[v], ppv = mate_[pv];
            mate_[v] = pv;
            mate_[pv] = v;
            v = ppv;
        }
    }

    // One search from the exposed vertex root: true if it covered root (augment or shift).
    bool search(int64_t root) {
        for (int64_t i = 0; i < k_; ++i) {
            used_[i] = 0;
            p_[i] = -1;
            base_[i] = i;
        }
        used_[root] = 1;
        int64_t head = 0, tail = 0;
        queue_[tail++] = root;
        int64_t found = -1;  // exposed end of an augmenting path
        int64_t shifted = -1;  // an even vertex, not needed, to uncover
        auto make_even = [&](int64_t z) {
            used_[z] = 1;
            queue_[tail++] = z;
            if (shifted < 0 && z != root && !need_[z]) shifted = z;
        };
        while (head < tail && found < 0 && shifted < 0) {
            int64_t v = queue_[head++];
            neighbours(v, [&](int64_t to) {
                if (found >= 0 || shifted >= 0) return;
                if (base_[v] == base_[to] || mate_[v] == to) return;
                if (to == root || (mate_[to] >= 0 && p_[mate_[to]] >= 0)) {
                    int64_t cur = lca(v, to);
                    std::fill(blossom_.begin(), blossom_.end(), 0);
                    mark_path(v, cur, to);
                    mark_path(to, cur, v);
                    for (int64_t i = 0; i < k_; ++i) {
                        if (!blossom_[base_[i]]) continue;
                        base_[i] = cur;
                        if (!used_[i]) make_even(i);
                    }
                } else if (p_[to] < 0) {
                    p_[to] = v;
                    if (mate_[to] < 0) {
                        found = to;
                        return;
                    }
                    make_even(mate_[to]);
                }
            });
        }
        if (found >= 0) {
            flip(found);
            return true;
        }
        if (shifted >= 0) {
            int64_t y = mate_[shifted];
            mate_[shifted] = -1;
            mate_[y] = -1;
            flip(y);
            return true;
        }
        return false;
    }

    const Graph& g_;
    const int64_t* verts_;
    int64_t k_;
    const uint8_t* need_;
    const uint8_t* leaver_;
    int64_t* mate_;
    int64_t hub_;
    std::vector<int32_t> local_;
    std::vector<char> used_, blossom_;
    std::vector<int64_t> p_, base_, queue_;
};

}  // namespace cover
