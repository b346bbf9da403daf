// Runs retrieval.cu's kernels on the CPU (cuda_emu.h) the way CudaEngine launches them, on data with several
// chunks, partial tiles, dimensions that are not multiples of 32, groups, stamp windows, free slots, duplicate rows,
// zero rows and row-copy queries, and compares every answer bit for bit with a brute-force reference that sums in
// index order as the CPU engine does. Prints "emulate: N runs match" and exits 0, or prints the first difference.
//
//   g++ -std=c++20 -O1 -ffp-contract=off -Wno-unknown-pragmas emulate.cpp -o emulate && ./emulate
#include "cuda_emu.h"

#include "../../main/cuda/retrieval.cu"

#include <cinttypes>
#include <climits>
#include <cstdio>
#include <random>

namespace {

struct Config {
    int dim, chunkRows, rows, nq, k;
    int parts = 1;  // topk blocks per query and chunk (CudaEngine.topkParts)
};

constexpr int SCORE_TILE_ROWS[2] = {256, 128};
constexpr int SCORE_TILE_QUERIES[2] = {8, 64};

int runs = 0;

bool run(const Config& c, int kernel, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> gauss;
    const int groups[] = {0, 1, -1};
    std::vector<float> rows((size_t) c.rows * c.dim);
    std::vector<int> group(c.rows);
    std::vector<long long> stamp(c.rows);
    for (int r = 0; r < c.rows; r++) {
        group[r] = groups[rng() % 3];
        stamp[r] = rng() % 50;
        const int kind = rng() % 10;
        if (kind == 0 && r > 0) {
            const int from = r - 1 - (int) (rng() % std::min(r, 5));  // a duplicate of a recent row: a tie
            std::copy_n(&rows[(size_t) from * c.dim], c.dim, &rows[(size_t) r * c.dim]);
        } else {
            for (int d = 0; d < c.dim; d++) {
                rows[(size_t) r * c.dim + d] = kind == 1 ? 0.0f : gauss(rng);  // kind 1: a zero row, ties at 0
            }
        }
        if (rng() % 9 == 0) {
            stamp[r] = LLONG_MAX;  // a free slot, as CudaEngine marks it
            group[r] = INT_MIN;
        }
    }
    std::vector<float> queries((size_t) c.nq * c.dim);
    std::vector<int> qg(c.nq);
    std::vector<long long> qf(c.nq), qt(c.nq);
    for (int q = 0; q < c.nq; q++) {
        qg[q] = rng() % 7 == 0 ? 99 : groups[rng() % 3];
        switch (rng() % 3) {
            case 0: qf[q] = LLONG_MIN; qt[q] = LLONG_MAX; break;
            case 1: qf[q] = rng() % 25; qt[q] = qf[q] + 1 + rng() % 30; break;
            default: qf[q] = 7; qt[q] = 7; break;  // empty
        }
        int copy = rng() % 3 == 0 ? (int) (rng() % c.rows) : -1;
        for (int d = 0; d < c.dim; d++) {
            queries[(size_t) q * c.dim + d] = copy >= 0 ? rows[(size_t) copy * c.dim + d] : gauss(rng);
        }
    }

    const int chunks = (c.rows + c.chunkRows - 1) / c.chunkRows;
    const long long candLd = (long long) chunks * c.parts * c.k;
    std::vector<float> scores((size_t) c.nq * c.chunkRows, 12345.0f);  // garbage that must never be read as a score
    std::vector<float> candScores((size_t) c.nq * candLd, 54321.0f);
    std::vector<int> candSlots((size_t) c.nq * candLd, 777777);
    std::vector<float> outScores((size_t) c.nq * c.k, 1.0f);
    std::vector<int> outSlots((size_t) c.nq * c.k, 888888);
    auto score = kernel == 0 ? score_narrow : score_wide;
    for (int ch = 0; ch < chunks; ch++) {
        const int base = ch * c.chunkRows;
        const int n = std::min(c.chunkRows, c.rows - base);
        launch(score, (n + SCORE_TILE_ROWS[kernel] - 1) / SCORE_TILE_ROWS[kernel],
               (c.nq + SCORE_TILE_QUERIES[kernel] - 1) / SCORE_TILE_QUERIES[kernel], SCORE_THREADS,
               (const float*) &rows[(size_t) base * c.dim], (const int*) &group[base], (const long long*) &stamp[base],
               n, c.dim, (const float*) queries.data(), (const int*) qg.data(), (const long long*) qf.data(),
               (const long long*) qt.data(), c.nq, scores.data(), (long long) c.chunkRows);
        launch(topk, c.nq, c.parts, TOPK_THREADS, (const float*) scores.data(), (const int*) scores.data(), 0,
               (long long) c.chunkRows, n, base, c.k, candScores.data(), candSlots.data(), candLd,
               (long long) ch * c.parts * c.k);
    }
    launch(topk, c.nq, 1, TOPK_THREADS, (const float*) candScores.data(), (const int*) candSlots.data(), 1, candLd,
           (int) candLd, 0, c.k, outScores.data(), outSlots.data(), (long long) c.k, 0LL);
    runs++;

    for (int q = 0; q < c.nq; q++) {
        std::vector<std::pair<float, int>> ref;
        for (int r = 0; r < c.rows; r++) {
            if (group[r] == qg[q] && stamp[r] >= qf[q] && stamp[r] < qt[q]) {
                float s = 0.0f;
                for (int d = 0; d < c.dim; d++) {
                    s += queries[(size_t) q * c.dim + d] * rows[(size_t) r * c.dim + d];
                }
                ref.emplace_back(s, r);
            }
        }
        std::sort(ref.begin(), ref.end(), [](auto& a, auto& b) {
            return a.first > b.first || (a.first == b.first && a.second < b.second);
        });
        for (int j = 0; j < c.k; j++) {
            float gs = outScores[(size_t) q * c.k + j];
            int gx = outSlots[(size_t) q * c.k + j];
            bool ok;
            if (j < (int) ref.size()) {
                ok = gx == ref[j].second && std::memcmp(&gs, &ref[j].first, sizeof gs) == 0;
            } else {
                ok = gx == -1 && std::isnan(gs);
            }
            if (!ok) {
                std::printf("emulate: MISMATCH dim %d chunk %d rows %d queries %d k %d parts %d kernel %s seed %u: "
                            "query %d rank %d: got slot %d score %.9g, want slot %d score %.9g (%zu rows qualify)\n",
                            c.dim, c.chunkRows, c.rows, c.nq, c.k, c.parts, kernel == 0 ? "score_narrow" : "score_wide",
                            seed,
                            q, j, gx, gs, j < (int) ref.size() ? ref[j].second : -1,
                            j < (int) ref.size() ? ref[j].first : NAN, ref.size());
                return false;
            }
        }
    }
    return true;
}

}  // namespace

int main() {
    const Config configs[] = {
        {40, 300, 700, 1, 10},    // three chunks, the last partial; one query
        {40, 300, 700, 4, 64},    // k 64: the largest
        {64, 256, 257, 66, 5},    // two tiles of queries for score_wide, nine for score_narrow; a 1-row chunk
        {33, 1000, 1000, 9, 1},   // k 1; one tile of dimensions plus one column
        {1, 50, 120, 3, 64},      // dimension 1; fewer rows qualify than k: NaN / -1 padding
        {1024, 200, 230, 5, 10},  // the job's width
        {100, 5000, 4000, 2, 16}, // topk's batched loads (8 x 128 entries per pass) and its remainder loop
        {8, 2048, 2100, 3, 64},   // the same with k 64, ties from zero and duplicate rows
        {40, 300, 700, 1, 10, 4},     // a batch of one split in 4 parts per chunk (the last chunk's of 25 rows)
        {100, 5000, 4000, 1, 16, 3},  // parts of 1,334 entries: batched loads and remainder from an offset
        {8, 2048, 2050, 2, 64, 64},   // 64 parts: fewer entries than k in each, the last chunk's mostly empty
    };
    unsigned seed = 1;
    for (const Config& c : configs) {
        for (int kernel = 0; kernel < 2; kernel++) {
            if (!run(c, kernel, seed++)) {
                return 1;
            }
        }
    }
    std::printf("emulate: %d runs match\n", runs);
    return 0;
}
