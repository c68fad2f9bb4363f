// The GPU engine's per-task search, compiled at run time with NVRTC.
//
// One thread searches one task at a time: a placement of the first rows,
// given as the three masks of the next row (bit i = column i; `diag` moves
// one column left-to-right per row, `anti` the other way). When its task is
// done it writes the task's count and takes the next task from a global
// counter, in the same loop, so a warp's lanes stay busy until the tasks run
// out rather than until the slowest task of the warp ends.
//
// Variants under measurement (results/): count_tasks (state in registers,
// a word a level on the stack), count_tasks_frames (whole frames, one child
// a step) and count_tasks_frames2 (frames, the last two rows at once).

#define INDEX_SHIFT 27u
#define OPEN_MASK ((1u << INDEX_SHIFT) - 1u)

// The state lives in registers: the masks of the row being filled and its
// columns still open. The stack holds a word a level in shared memory,
// level-major (word `level * blockDim.x + threadIdx.x`), so a warp's 32
// words sit in 32 banks: the columns still open on that level, with the
// index of the queen taken there in the top five bits. Going back up a
// level undoes that queen from the masks, so the diagonals are kept in 64
// bits (`diag` row bit i at bit i, `anti` at bit 32 + i): a 32-bit mask
// loses a bit off its end at each level down that the levels above need
// back. `last` is the level whose children lie on the last row: their open
// squares are counted, not placed.
extern "C" __global__ void count_tasks(const unsigned int *__restrict__ tasks,
                                       unsigned long long *__restrict__ counts,
                                       unsigned int task_count,
                                       unsigned int *__restrict__ next,
                                       unsigned int full, int last) {
    extern __shared__ unsigned int stack[];
    unsigned int *mine = stack + threadIdx.x;
    const unsigned int stride = blockDim.x;

    unsigned int task = atomicAdd(next, 1u);
    if (task >= task_count) return;
    unsigned int cols = tasks[3 * task];
    unsigned long long diag = tasks[3 * task + 1];
    unsigned long long anti = (unsigned long long)tasks[3 * task + 2] << 32;
    unsigned int open = ~(cols | (unsigned int)diag | (unsigned int)(anti >> 32)) & full;
    int level = 0;
    unsigned long long count = 0;

    for (;;) {
        if (open != 0) {
            const unsigned int bit = open & (0u - open);
            open ^= bit;
            const unsigned int c = cols | bit;
            const unsigned long long d = (diag | bit) << 1;
            const unsigned long long a = (anti | ((unsigned long long)bit << 32)) >> 1;
            const unsigned int free = ~(c | (unsigned int)d | (unsigned int)(a >> 32)) & full;
            if (level == last) {
                count += __popc(free);
            } else if (free != 0) {
                mine[level * stride] = open | ((unsigned int)(__ffs(bit) - 1) << INDEX_SHIFT);
                ++level;
                cols = c;
                diag = d;
                anti = a;
                open = free;
            }
        } else if (level > 0) {
            --level;
            const unsigned int word = mine[level * stride];
            const unsigned int bit = 1u << (word >> INDEX_SHIFT);
            open = word & OPEN_MASK;
            cols ^= bit;
            diag = (diag >> 1) & ~(unsigned long long)bit;
            anti = (anti << 1) & ~((unsigned long long)bit << 32);
        } else {
            counts[task] = count;
            task = atomicAdd(next, 1u);
            if (task >= task_count) return;
            cols = tasks[3 * task];
            diag = tasks[3 * task + 1];
            anti = (unsigned long long)tasks[3 * task + 2] << 32;
            open = ~(cols | (unsigned int)diag | (unsigned int)(anti >> 32)) & full;
            count = 0;
        }
    }
}

// The same count with whole frames (masks and open columns, 16 bytes) on a
// shared-memory stack: each step takes one child of the top frame, pops
// the frame when that was its last child, and pushes the child unless it
// is counted or dead. No step is spent going back up, at four times the
// stack traffic. A child may take its popped parent's slot, so the depth
// is read from the columns taken: the children of a frame with `target`
// queens lie on the last row.
extern "C" __global__ void count_tasks_frames(const unsigned int *__restrict__ tasks,
                                              unsigned long long *__restrict__ counts,
                                              unsigned int task_count,
                                              unsigned int *__restrict__ next,
                                              unsigned int full, int last) {
    extern __shared__ uint4 frames[];
    uint4 *mine = frames + threadIdx.x;
    const unsigned int stride = blockDim.x;

    unsigned int task = atomicAdd(next, 1u);
    if (task >= task_count) return;
    int top = 0;
    unsigned long long count = 0;
    const int target = __popc(tasks[3 * task]) + last;
    {
        const uint4 root = make_uint4(tasks[3 * task], tasks[3 * task + 1], tasks[3 * task + 2], 0u);
        const unsigned int open = ~(root.x | root.y | root.z) & full;
        if (open != 0) {
            mine[0] = make_uint4(root.x, root.y, root.z, open);
            top = 1;
        }
    }

    for (;;) {
        if (top == 0) {
            counts[task] = count;
            task = atomicAdd(next, 1u);
            if (task >= task_count) return;
            count = 0;
            const unsigned int cols = tasks[3 * task];
            const unsigned int diag = tasks[3 * task + 1];
            const unsigned int anti = tasks[3 * task + 2];
            const unsigned int open = ~(cols | diag | anti) & full;
            if (open != 0) {
                mine[0] = make_uint4(cols, diag, anti, open);
                top = 1;
            }
            continue;
        }
        const int level = top - 1;
        const uint4 f = mine[level * stride];
        const unsigned int bit = f.w & (0u - f.w);
        const unsigned int rest = f.w ^ bit;
        mine[level * stride].w = rest;
        if (rest == 0) top = level;
        const unsigned int c = f.x | bit;
        const unsigned int d = (f.y | bit) << 1;
        const unsigned int a = (f.z | bit) >> 1;
        const unsigned int free = ~(c | d | a) & full;
        if (__popc(f.x) == target) {
            count += __popc(free);
        } else if (free != 0) {
            mine[top * stride] = make_uint4(c, d, a, free);
            ++top;
        }
    }
}

// count_tasks_frames, finishing the last two rows without a frame: a child
// on row n - 2 leaves two columns open, p and q. Row n - 2 may take those
// of them in `free`, row n - 1 those its diagonals leave open (`last_row`);
// p above q or q above p, never two neighbours. The frames whose queens
// number `target` (n - 3) have their children on row n - 2.
__device__ __forceinline__ unsigned int two_rows(unsigned int c, unsigned int d, unsigned int a,
                                                 unsigned int free, unsigned int full) {
    const unsigned int rest = full & ~c;
    const unsigned int last_row = rest & ~((d << 1) | (a >> 1));
    const unsigned int ways = __popc(free) * __popc(last_row) - __popc(free & last_row);
    return (rest & (rest >> 1)) ? 0u : ways;
}

extern "C" __global__ void count_tasks_frames2(const unsigned int *__restrict__ tasks,
                                               unsigned long long *__restrict__ counts,
                                               unsigned int task_count,
                                               unsigned int *__restrict__ next,
                                               unsigned int full, int target) {
    extern __shared__ uint4 frames[];
    uint4 *mine = frames + threadIdx.x;
    const unsigned int stride = blockDim.x;

    unsigned int task = atomicAdd(next, 1u);
    if (task >= task_count) return;
    int top = 0;
    unsigned long long count = 0;
    {
        const unsigned int cols = tasks[3 * task];
        const unsigned int diag = tasks[3 * task + 1];
        const unsigned int anti = tasks[3 * task + 2];
        const unsigned int open = ~(cols | diag | anti) & full;
        if (open != 0) {
            mine[0] = make_uint4(cols, diag, anti, open);
            top = 1;
        }
    }

    for (;;) {
        if (top == 0) {
            counts[task] = count;
            task = atomicAdd(next, 1u);
            if (task >= task_count) return;
            count = 0;
            const unsigned int cols = tasks[3 * task];
            const unsigned int diag = tasks[3 * task + 1];
            const unsigned int anti = tasks[3 * task + 2];
            const unsigned int open = ~(cols | diag | anti) & full;
            if (open != 0) {
                mine[0] = make_uint4(cols, diag, anti, open);
                top = 1;
            }
            continue;
        }
        const int level = top - 1;
        const uint4 f = mine[level * stride];
        const unsigned int bit = f.w & (0u - f.w);
        const unsigned int rest = f.w ^ bit;
        mine[level * stride].w = rest;
        if (rest == 0) top = level;
        const unsigned int c = f.x | bit;
        const unsigned int d = (f.y | bit) << 1;
        const unsigned int a = (f.z | bit) >> 1;
        const unsigned int free = ~(c | d | a) & full;
        if (__popc(f.x) == target) {
            count += two_rows(c, d, a, free, full);
        } else if (free != 0) {
            mine[top * stride] = make_uint4(c, d, a, free);
            ++top;
        }
    }
}

// Frames with the top one in registers: a step takes one column of the
// register frame; a live child replaces it, after the frame is stored if it
// has columns left; an exhausted frame is replaced by the one below, loaded
// at the next step. The stack only holds frames with columns left, so at
// most one load a step and no store of a frame's last column. `target` is
// n - 2: the children of a frame with that many queens lie on the last row.
extern "C" __global__ void count_tasks_cached(const unsigned int *__restrict__ tasks,
                                              unsigned long long *__restrict__ counts,
                                              unsigned int task_count,
                                              unsigned int *__restrict__ next,
                                              unsigned int full, int target) {
    extern __shared__ uint4 frames[];
    uint4 *mine = frames + threadIdx.x;
    const unsigned int stride = blockDim.x;

    unsigned int task = atomicAdd(next, 1u);
    if (task >= task_count) return;
    unsigned int cols = tasks[3 * task];
    unsigned int diag = tasks[3 * task + 1];
    unsigned int anti = tasks[3 * task + 2];
    unsigned int open = ~(cols | diag | anti) & full;
    int top = 0;
    unsigned long long count = 0;

    for (;;) {
        if (open == 0) {
            if (top == 0) {
                counts[task] = count;
                task = atomicAdd(next, 1u);
                if (task >= task_count) return;
                cols = tasks[3 * task];
                diag = tasks[3 * task + 1];
                anti = tasks[3 * task + 2];
                open = ~(cols | diag | anti) & full;
                count = 0;
                continue;
            }
            --top;
            const uint4 f = mine[top * stride];
            cols = f.x;
            diag = f.y;
            anti = f.z;
            open = f.w;
        }
        const unsigned int bit = open & (0u - open);
        open ^= bit;
        const unsigned int c = cols | bit;
        const unsigned int d = (diag | bit) << 1;
        const unsigned int a = (anti | bit) >> 1;
        const unsigned int free = ~(c | d | a) & full;
        if (__popc(cols) == target) {
            count += __popc(free);
        } else if (free != 0) {
            if (open != 0) {
                mine[top * stride] = make_uint4(cols, diag, anti, open);
                ++top;
            }
            cols = c;
            diag = d;
            anti = a;
            open = free;
        }
    }
}
