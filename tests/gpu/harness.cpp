// Runs the GPU kernels of src/count/gpu/kernel.cu on the CPU, one thread of
// one block, so that tests without a GPU check the CUDA source itself.
// The test that builds this file replaces the kernels' `extern __shared__`
// arrays with the buffers below and includes the kernel source after it.
//
//   harness count_tasks N DEPTH  ->  prints the sum of every task's count,
//   the tasks being all placements of the first DEPTH rows (no symmetry).
//
//   harness count_tasks_allowed FILE  ->  prints each task's count, a line
//   each. FILE holds whitespace-separated numbers: n, the number of tasks,
//   the number of table words, then four words a task and the tables, as a
//   launch uploads them (written by tests/gpu.rs).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

struct Dim { unsigned x; };
static const Dim threadIdx = {0};
static const Dim blockDim = {1};
struct uint4 { unsigned x, y, z, w; };
static uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { return {x, y, z, w}; }
static unsigned atomicAdd(unsigned *p, unsigned v) { unsigned old = *p; *p += v; return old; }
static int __popc(unsigned x) { return __builtin_popcount(x); }
static int __ffs(unsigned x) { return __builtin_ffs(x); }
template <class T> static T __ldg(const T *p) { return *p; }
#define __global__
#define __device__
#define __forceinline__ inline
#define __restrict__

static uint4 shared_frames[64];

#include "kernel.cu"

static void tasks(int n, int depth, int row, unsigned c, unsigned d, unsigned a, std::vector<unsigned> &out) {
    if (row == depth) { out.push_back(c); out.push_back(d); out.push_back(a); return; }
    unsigned full = (n == 32) ? ~0u : ((1u << n) - 1);
    for (unsigned open = ~(c | d | a) & full; open; open &= open - 1) {
        unsigned bit = open & (0u - open);
        tasks(n, depth, row + 1, c | bit, (d | bit) << 1, (a | bit) >> 1, out);
    }
}

// The count_tasks_allowed mode: see the top of the file.
static int allowed(const char *path) {
    FILE *in = fopen(path, "r");
    if (!in) return 2;
    unsigned n, count, table_words;
    if (fscanf(in, "%u %u %u", &n, &count, &table_words) != 3) return 2;
    std::vector<uint4> t(count);
    for (uint4 &task : t)
        if (fscanf(in, "%u %u %u %u", &task.x, &task.y, &task.z, &task.w) != 4) return 2;
    std::vector<unsigned> tables(table_words);
    for (unsigned &word : tables)
        if (fscanf(in, "%u", &word) != 1) return 2;
    fclose(in);
    std::vector<unsigned long long> counts(count, 0);
    unsigned next = 0;
    count_tasks_allowed(t.data(), tables.data(), counts.data(), count, &next, n, n - 2);
    for (unsigned long long c : counts) printf("%llu\n", c);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && !strcmp(argv[1], "count_tasks_allowed")) return allowed(argv[2]);
    if (argc != 4) return 2;
    const char *kernel = argv[1];
    int n = atoi(argv[2]), depth = atoi(argv[3]);
    std::vector<unsigned> t;
    tasks(n, depth, 0, 0, 0, 0, t);
    unsigned count = t.size() / 3, next = 0, full = (n == 32) ? ~0u : ((1u << n) - 1);
    std::vector<unsigned long long> counts(count, 0);
    if (!strcmp(kernel, "count_tasks")) count_tasks(t.data(), counts.data(), count, &next, full, n - 2);
    else return 2;
    unsigned long long total = 0;
    for (unsigned long long c : counts) total += c;
    printf("%llu\n", total);
    return 0;
}
