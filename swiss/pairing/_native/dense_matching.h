// A light exact maximum weight perfect matching for small dense graphs (the simulator's
// 32-player rounds): Edmonds' blossom algorithm in its O(n^3) form over an adjacency matrix
// (Gabow's "slack per vertex" variant, as in the widely used UOJ #81 implementation), with no
// heaps and no graph objects. LEMON's matching (blossom.cpp) is O(n m log n) with priority
// queues, better at scale, but its set-up is about half of a 32-player pairing; this one
// allocates a few flat arrays and is done.
//
// It solves the *perfect* matching problem directly (the primal-dual method with free duals:
// a vertex dual may go negative, and the search only stops when every vertex is matched or
// when no dual change can grow a tree, which by Tutte's condition means no perfect matching).
// The duals start feasible and tight on many edges, with a greedy matching on tight edges
// (initial_duals). Integers stay exact: every weight is even, so are the starting duals, the
// vertices of an alternating tree all share one parity (they joined it by tight edges), and
// blossom duals change by 2d: every division by two below is of an even number.
//
// Edges have weight > 0 (the caller shifts every weight to start at one, which changes no
// perfect matching's rank, and doubles it); 0 marks a missing edge. V = __int128: the caller keeps the
// weights below 2**112, far from overflow (duals stay within a few n times the largest weight).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace dense {

template <class V>
class Matching {
   public:
    // n vertices 0..n-1; add edges with set(u, v, w) (w > 0; 0 = no edge). Slots: the
    // vertices 1..n, then the blossoms, at most n / 2 at a time (a laminar family of odd sets
    // of 3 or more vertices; an expanded blossom's slot is reused).
    explicit Matching(int n)
        : n_(n), cap_(n + n / 2 + 2), g_((size_t)cap_ * cap_), lab_(cap_), match_(cap_, 0),
          slack_(cap_, 0), st_(cap_), pa_(cap_, 0), from_((size_t)cap_ * (n + 1), 0),
          s_(cap_, -1), vis_(cap_, 0), flower_(cap_) {
        for (int u = 1; u < cap_; ++u)
            for (int v = 1; v < cap_; ++v) {
                Edge& e = at(u, v);
                e.u = u;
                e.v = v;
                e.w = V(0);
            }
    }

    void set(int u, int v, V w) {
        at(u + 1, v + 1).w = w;
        at(v + 1, u + 1).w = w;
    }

    // Runs the algorithm; mate[v] (0-based, -1 if unmatched) afterwards. Returns the number
    // of matched pairs (n / 2 exactly when a perfect matching exists).
    int run(std::vector<int64_t>* mate) {
        nx_ = n_;
        for (int u = 0; u < cap_; ++u) {
            st_[u] = u;
            flower_[u].clear();
        }
        for (int u = 1; u <= n_; ++u)
            for (int v = 1; v <= n_; ++v) from(u, v) = u == v ? u : 0;
        initial_duals();
        int pairs = 0;
        for (int u = 1; u <= n_; ++u) pairs += match_[u] != 0;
        pairs /= 2;
        while (2 * pairs < n_ && augment_once()) ++pairs;
        mate->assign(n_, -1);
        for (int u = 1; u <= n_; ++u)
            if (match_[u]) (*mate)[u - 1] = match_[u] - 1;
        return pairs;
    }

    // The dual solution after run(): lab (vertex v's dual at y[v], 0-based) and the
    // blossoms alive at the end, each with its dual and its vertices (0-based, nested
    // blossoms included: every blossom of the laminar family is listed). With the doubled
    // weights W of set(), every edge has lab_u + lab_v + (the duals of the blossoms holding
    // both) - 2 W >= 0, with equality on the matched edges.
    void duals(std::vector<V>* y, std::vector<V>* z, std::vector<std::vector<int>>* members) {
        y->assign(lab_.begin() + 1, lab_.begin() + n_ + 1);
        z->clear();
        members->clear();
        for (int b = n_ + 1; b <= nx_; ++b) {
            if (!st_[b]) continue;  // expanded: its slot is free
            z->push_back(lab_[b]);
            members->emplace_back();
            collect(b, &members->back());
        }
    }

   private:
    void collect(int x, std::vector<int>* out) const {
        if (x <= n_) {
            out->push_back(x - 1);
            return;
        }
        for (int y : flower_[x]) collect(y, out);
    }

    struct Edge {
        V w;
        int u, v;
    };
    int n_, cap_, nx_ = 0;
    std::vector<Edge> g_;
    std::vector<V> lab_;
    std::vector<int> match_, slack_, st_, pa_, from_, s_, vis_;
    std::vector<std::vector<int>> flower_;
    std::vector<int> queue_;
    size_t head_ = 0;
    int stamp_ = 0;

    Edge& at(int u, int v) { return g_[(size_t)u * cap_ + v]; }
    int& from(int b, int x) { return from_[(size_t)b * (n_ + 1) + x]; }
    V dist(const Edge& e) const { return lab_[e.u] + lab_[e.v] - e.w * 2; }

    // Feasible starting duals (lab_u + lab_v >= 2 w_uv on every edge) that make many edges
    // tight, and a greedy matching on tight edges: the phases then only augment from the
    // vertices it leaves free (16 phases from scratch at 32 players, a few from here).
    // Every weight is even (the caller doubles them), so every lab is even: the vertices of
    // an alternating tree share one parity and the halvings below are exact.
    void initial_duals() {
        for (int u = 1; u <= n_; ++u) {
            V best(0);
            for (int v = 1; v <= n_; ++v)
                if (at(u, v).w > best) best = at(u, v).w;
            lab_[u] = best;
        }
        for (int v = 1; v <= n_; ++v) {
            bool have = false;
            V low(0);
            for (int u = 1; u <= n_; ++u)
                if (u != v && at(u, v).w > V(0)) {
                    V need = at(u, v).w * 2 - lab_[u];
                    if (!have || low < need) low = need;
                    have = true;
                }
            if (!have) continue;
            lab_[v] = low;
            if (match_[v]) continue;
            for (int u = 1; u <= n_; ++u)
                if (u != v && !match_[u] && at(u, v).w > V(0) && dist(at(u, v)) == V(0)) {
                    match_[u] = v;
                    match_[v] = u;
                    break;
                }
        }
    }

    void update_slack(int u, int x) {
        if (!slack_[x] || dist(at(u, x)) < dist(at(slack_[x], x))) slack_[x] = u;
    }
    void set_slack(int x) {
        slack_[x] = 0;
        for (int u = 1; u <= n_; ++u)
            if (at(u, x).w > V(0) && st_[u] != x && s_[st_[u]] == 0) update_slack(u, x);
    }
    void push(int x) {
        if (x <= n_)
            queue_.push_back(x);
        else
            for (int y : flower_[x]) push(y);
    }
    void set_st(int x, int b) {
        st_[x] = b;
        if (x > n_)
            for (int y : flower_[x]) set_st(y, b);
    }
    int get_pr(int b, int xr) {
        std::vector<int>& f = flower_[b];
        int pr = (int)(std::find(f.begin(), f.end(), xr) - f.begin());
        if (pr % 2 == 1) {
            std::reverse(f.begin() + 1, f.end());
            return (int)f.size() - pr;
        }
        return pr;
    }
    void set_match(int u, int v) {
        match_[u] = at(u, v).v;
        if (u > n_) {
            Edge e = at(u, v);
            int xr = from(u, e.u), pr = get_pr(u, xr);
            for (int i = 0; i < pr; ++i) set_match(flower_[u][i], flower_[u][i ^ 1]);
            set_match(xr, v);
            std::rotate(flower_[u].begin(), flower_[u].begin() + pr, flower_[u].end());
        }
    }
    void augment(int u, int v) {
        for (;;) {
            int xnv = st_[match_[u]];
            set_match(u, v);
            if (!xnv) return;
            set_match(xnv, st_[pa_[xnv]]);
            u = st_[pa_[xnv]];
            v = xnv;
        }
    }
    int get_lca(int u, int v) {
        for (++stamp_; u || v; std::swap(u, v)) {
            if (u == 0) continue;
            if (vis_[u] == stamp_) return u;
            vis_[u] = stamp_;
            u = st_[match_[u]];
            if (u) u = st_[pa_[u]];
        }
        return 0;
    }
    void add_blossom(int u, int lca, int v) {
        int b = n_ + 1;
        while (b <= nx_ && st_[b]) ++b;
        if (b > nx_) ++nx_;
        lab_[b] = V(0);
        s_[b] = 0;
        match_[b] = match_[lca];
        std::vector<int>& f = flower_[b];
        f.clear();
        f.push_back(lca);
        for (int x = u, y; x != lca; x = st_[pa_[y]]) {
            f.push_back(x);
            f.push_back(y = st_[match_[x]]);
            push(y);
        }
        std::reverse(f.begin() + 1, f.end());
        for (int x = v, y; x != lca; x = st_[pa_[y]]) {
            f.push_back(x);
            f.push_back(y = st_[match_[x]]);
            push(y);
        }
        set_st(b, b);
        for (int x = 1; x <= nx_; ++x) at(b, x).w = at(x, b).w = V(0);
        for (int x = 1; x <= n_; ++x) from(b, x) = 0;
        for (int xs : f) {
            for (int x = 1; x <= nx_; ++x)
                // (a missing edge, weight 0, never stands for the blossom: with free duals
                // its "slack" can be the smallest)
                if (at(xs, x).w > V(0) &&
                    (at(b, x).w == V(0) || dist(at(xs, x)) < dist(at(b, x)))) {
                    at(b, x) = at(xs, x);
                    at(x, b) = at(x, xs);
                }
            for (int x = 1; x <= n_; ++x)
                if (from(xs, x)) from(b, x) = xs;
        }
        set_slack(b);
    }
    void expand_blossom(int b) {  // an inner blossom whose dual reached 0
        for (int x : flower_[b]) set_st(x, x);
        int xr = from(b, at(b, pa_[b]).u), pr = get_pr(b, xr);
        for (int i = 0; i < pr; i += 2) {
            int xs = flower_[b][i], xns = flower_[b][i + 1];
            pa_[xs] = at(xns, xs).u;
            s_[xs] = 1;
            s_[xns] = 0;
            slack_[xs] = 0;
            set_slack(xns);
            push(xns);
        }
        s_[xr] = 1;
        pa_[xr] = pa_[b];
        for (size_t i = pr + 1; i < flower_[b].size(); ++i) {
            int xs = flower_[b][i];
            s_[xs] = -1;
            set_slack(xs);
        }
        st_[b] = 0;
    }
    bool on_found_edge(const Edge& e) {
        int u = st_[e.u], v = st_[e.v];
        if (s_[v] == -1) {
            pa_[v] = e.u;
            s_[v] = 1;
            int nu = st_[match_[v]];
            slack_[v] = slack_[nu] = 0;
            s_[nu] = 0;
            push(nu);
        } else if (s_[v] == 0) {
            int lca = get_lca(u, v);
            if (!lca) {
                augment(u, v);
                augment(v, u);
                return true;
            }
            add_blossom(u, lca, v);
        }
        return false;
    }
    // One augmentation (true), or false when the matching is maximum.
    bool augment_once() {
        std::fill(s_.begin() + 1, s_.begin() + nx_ + 1, -1);
        std::fill(slack_.begin() + 1, slack_.begin() + nx_ + 1, 0);
        queue_.clear();
        head_ = 0;
        for (int x = 1; x <= nx_; ++x)
            if (st_[x] == x && !match_[x]) {
                pa_[x] = 0;
                s_[x] = 0;
                push(x);
            }
        if (queue_.empty()) return false;
        for (;;) {
            while (head_ < queue_.size()) {
                int u = queue_[head_++];
                if (s_[st_[u]] == 1) continue;
                for (int v = 1; v <= n_; ++v)
                    if (at(u, v).w > V(0) && st_[u] != st_[v]) {
                        if (dist(at(u, v)) == V(0)) {
                            if (on_found_edge(at(u, v))) return true;
                        } else {
                            update_slack(u, st_[v]);
                        }
                    }
            }
            bool have = false;
            V d(0);
            auto take = [&](V x) {
                if (!have || x < d) d = x;
                have = true;
            };
            for (int b = n_ + 1; b <= nx_; ++b)
                if (st_[b] == b && s_[b] == 1) take(lab_[b] / 2);
            for (int x = 1; x <= nx_; ++x)
                if (st_[x] == x && slack_[x]) {
                    if (s_[x] == -1)
                        take(dist(at(slack_[x], x)));
                    else if (s_[x] == 0)
                        take(dist(at(slack_[x], x)) / 2);
                }
            // Nothing can grow the trees, shrink a blossom or augment: by Tutte's condition
            // the graph has no perfect matching.
            if (!have) return false;
            for (int u = 1; u <= n_; ++u) {
                if (s_[st_[u]] == 0) {
                    lab_[u] -= d;
                } else if (s_[st_[u]] == 1) {
                    lab_[u] += d;
                }
            }
            for (int b = n_ + 1; b <= nx_; ++b)
                if (st_[b] == b) {
                    if (s_[st_[b]] == 0)
                        lab_[b] += d * 2;
                    else if (s_[st_[b]] == 1)
                        lab_[b] -= d * 2;
                }
            queue_.clear();
            head_ = 0;
            for (int x = 1; x <= nx_; ++x)
                if (st_[x] == x && slack_[x] && st_[slack_[x]] != x &&
                    dist(at(slack_[x], x)) == V(0))
                    if (on_found_edge(at(slack_[x], x))) return true;
            for (int b = n_ + 1; b <= nx_; ++b)
                if (st_[b] == b && s_[b] == 1 && lab_[b] == V(0)) expand_blossom(b);
        }
    }
};

}  // namespace dense
