// Runs retrieval.cu's kernels on the CPU (cuda_emu.h) the way CudaEngine launches them, on data with several
// chunks, partial tiles, dimensions that are not multiples of 32, groups, stamp windows, free slots, duplicate rows,
// zero rows and row-copy queries, and compares every answer bit for bit with a brute-force reference that sums in
// index order as the CPU engine does. Prints "emulate: N runs match" and exits 0, or prints the first difference.
//
//   g++ -std=c++20 -O1 -ffp-contract=off -fno-strict-aliasing -Wno-unknown-pragmas emulate.cpp -o emulate && ./emulate
#include "cuda_emu.h"

#include "../../main/cuda/retrieval.cu"

#include <cinttypes>
#include <climits>
#include <cstdio>
#include <random>

namespace {

struct Config {
    int dim, chunkRows, rows, nq, k;
    int parts = 1;        // topk blocks per query and chunk (CudaEngine.topkParts), or over all chunks when whole
    bool whole = false;   // score_few only: every chunk's scores in one matrix, selected by one topk launch
    bool misalign = false;  // rows 4 bytes past a 16-byte boundary: score_few must not use 16-byte loads
};

enum Score { NARROW, WIDE, FEW };
constexpr const char* SCORE_NAME[3] = {"score_narrow", "score_wide", "score_few"};
constexpr int SCORE_TILE_ROWS[3] = {256, 128, FEW_THREADS};
constexpr int SCORE_TILE_QUERIES[3] = {8, 64, FEW_QUERIES};
constexpr int SCORE_BLOCK[3] = {SCORE_THREADS, SCORE_THREADS, FEW_THREADS};

int runs = 0;

bool run(const Config& c, Score kernel, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> gauss;
    const int groups[] = {0, 1, -1};
    std::vector<float> storage((size_t) c.rows * c.dim + 4);
    float* const rowData = storage.data() + (c.misalign ? 1 : 0);  // vector storage is 16-byte aligned
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

    std::copy(rows.begin(), rows.end(), rowData);

    const int chunks = (c.rows + c.chunkRows - 1) / c.chunkRows;
    const long long candLd = (long long) (c.whole ? 1 : chunks) * c.parts * c.k;
    const long long scoreLd = (long long) (c.whole ? chunks : 1) * c.chunkRows;
    // garbage that must never be read as a score or a candidate
    std::vector<float> scores((size_t) c.nq * scoreLd, 12345.0f);
    std::vector<float> candScores((size_t) c.nq * candLd, 54321.0f);
    std::vector<int> candSlots((size_t) c.nq * candLd, 777777);
    std::vector<float> outScores((size_t) c.nq * c.k, 1.0f);
    std::vector<int> outSlots((size_t) c.nq * c.k, 888888);
    for (int ch = 0; ch < chunks; ch++) {
        const int base = ch * c.chunkRows;
        const int n = std::min(c.chunkRows, c.rows - base);
        const unsigned gridX = (n + SCORE_TILE_ROWS[kernel] - 1) / SCORE_TILE_ROWS[kernel];
        const unsigned gridY = (c.nq + SCORE_TILE_QUERIES[kernel] - 1) / SCORE_TILE_QUERIES[kernel];
        const float* chunkRows = rowData + (size_t) base * c.dim;
        if (kernel == FEW) {
            launch(score_few, gridX, gridY, SCORE_BLOCK[kernel], chunkRows, (const int*) &group[base],
                   (const long long*) &stamp[base], n, c.dim, (const float*) queries.data(), (const int*) qg.data(),
                   (const long long*) qf.data(), (const long long*) qt.data(), c.nq, scores.data(), scoreLd,
                   (long long) (c.whole ? base : 0));
        } else {
            launch(kernel == NARROW ? score_narrow : score_wide, gridX, gridY, SCORE_BLOCK[kernel], chunkRows,
                   (const int*) &group[base], (const long long*) &stamp[base], n, c.dim, (const float*) queries.data(),
                   (const int*) qg.data(), (const long long*) qf.data(), (const long long*) qt.data(), c.nq,
                   scores.data(), scoreLd);
        }
        if (!c.whole) {
            launch(topk, c.nq, c.parts, TOPK_THREADS, (const float*) scores.data(), (const int*) scores.data(), 0,
                   scoreLd, n, base, c.k, candScores.data(), candSlots.data(), candLd, (long long) ch * c.parts * c.k);
        }
    }
    if (c.whole) {
        launch(topk, c.nq, c.parts, TOPK_THREADS, (const float*) scores.data(), (const int*) scores.data(), 0, scoreLd,
               c.rows, 0, c.k, candScores.data(), candSlots.data(), candLd, 0LL);
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
                std::printf("emulate: MISMATCH dim %d chunk %d rows %d queries %d k %d parts %d%s%s kernel %s seed %u: "
                            "query %d rank %d: got slot %d score %.9g, want slot %d score %.9g (%zu rows qualify)\n",
                            c.dim, c.chunkRows, c.rows, c.nq, c.k, c.parts, c.whole ? " whole" : "",
                            c.misalign ? " misaligned" : "", SCORE_NAME[kernel], seed,
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
    // every kernel, each chunk's top k selected on its own (as CudaEngine does for all but a few queries)
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
    // score_few alone, at every batch it takes (1 to 8 queries, one to four per thread) and beyond (blockIdx.y),
    // 16-byte and 4-byte row loads, partial tiles of rows and dimensions; mostly as CudaEngine runs it for a few
    // queries: all chunks scored into one matrix and selected by one topk launch (whole)
    const Config few[] = {
        {1024, 300, 700, 1, 10, 8, true},   // the job's width, one query: three chunks, the last partial
        {36, 300, 700, 2, 10, 4, true},     // 16-byte loads, one partial tile of 36 dimensions
        {30, 512, 1100, 3, 12, 1, false},   // dim % 4 != 0: 4-byte loads, one partial tile; chunks of 512
        {132, 1000, 1000, 4, 64, 3, true},  // two tiles and 4 dimensions, k 64; 1,000 rows: a partial block
        {7, 256, 600, 5, 5, 2, false},      // dimension 7, 5 queries in a thread's 8
        {64, 257, 520, 6, 10, 1, true},     // chunks of 257 rows: a 1-row block; one whole tile
        {33, 700, 1500, 7, 1, 2, true},     // 4-byte loads: a tile of 32 and one dimension, k 1
        {128, 300, 650, 8, 20, 2, false},   // a full block of 8 queries, two whole tiles
        {68, 300, 700, 8, 10, 1, true},     // a tile and 4 dimensions for 8 queries
        {40, 300, 700, 9, 10, 1, true},     // 9 queries: a block of 8 and one of 1
        {12, 300, 400, 64, 5, 1, true},     // 64 queries: 8 blocks of 8
        {16, 300, 400, 65, 5, 1, false},    // 65 queries: the last block has one
        {36, 300, 700, 2, 10, 1, false, true},    // misaligned rows: 4-byte loads although dim % 4 == 0
        {1024, 200, 230, 1, 10, 2, true, true},   // the same at the job's width
        {1, 50, 120, 3, 64, 2, true},       // dimension 1; fewer rows qualify than k
    };
    unsigned seed = 1;
    for (const Config& c : configs) {
        for (Score kernel : {NARROW, WIDE, FEW}) {
            if (!run(c, kernel, seed++)) {
                return 1;
            }
        }
    }
    for (const Config& c : few) {
        if (!run(c, FEW, seed++)) {
            return 1;
        }
    }
    std::printf("emulate: %d runs match\n", runs);
    return 0;
}
