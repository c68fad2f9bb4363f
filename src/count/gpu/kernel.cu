// The GPU executor's per-task search, compiled at run time with NVRTC: two
// kernels, one walk.
//
// One thread searches one task at a time: a placement of the first rows,
// given as the three masks of the next row (bit i = column i; `diag` moves
// one column towards the high bits per row, `anti` towards the low bits).
// When its task is done it writes the task's count and takes the next task
// from a global counter, in the same loop, so a warp's lanes stay busy
// until the tasks run out rather than until the slowest task of the warp
// ends.
//
//   count_tasks          the mirror engine's tasks, three words each: every
//                        row allows every column of the board.
//   count_tasks_allowed  the constellations engine's, four words each: the
//                        fourth is the index of the task's start among the
//                        tables, n words a start: the columns each row
//                        allows given the queens fixed on the border (a
//                        side queen's row allows its column alone).
//
// count_task_allowed in mod.rs is the same walk in Rust, the reference the
// tests run without a GPU; tests/gpu/harness.cpp runs this file on the
// CPU. Keep the three in step.
//
// The first task is taken before the loop and the next ones inside it, the
// same call twice: the version with one fetch path inside the loop (a "no
// task yet" mark) ran n = 20 in 3.8 s and n = 21 in 28.4 s on an H100,
// against 3.6 s and 26.0 s for this one (two sessions; results/).
//
// Measured on an H100 at n = 20 (results/), count_tasks (then written out
// by hand; NVRTC 13 compiles the template below to the same PTX for it):
// this kernel 4.0 s; the state in registers with a word a level on the
// stack 7.7 s (a step back up is a step of its own, and a warp runs both
// kinds of step); the last two rows counted at once 4.1 s; the top frame
// cached in registers 4.8 s. count_tasks_allowed has not been timed yet.

// Threads per block, fixed at compile time so that the stack's stride is
// a constant (`-DQUEENS_BLOCK=128`); else read at run time.
#ifdef QUEENS_BLOCK
#define STRIDE QUEENS_BLOCK
#else
#define STRIDE blockDim.x
#endif

// The open squares of a row of the mirror engine's tasks: those no queen
// above attacks, anywhere on the board.
struct EveryColumn {
    unsigned int full;

    __device__ __forceinline__ unsigned int open(unsigned int c, unsigned int d,
                                                 unsigned int a) const {
        return ~(c | d | a) & full;
    }
};

// The open squares of a row of a constellations task: those no queen above
// attacks, among those the row's table allows. There is one queen a row
// above, so the row the masks are for is the number of columns taken; the
// table is read through the read-only cache, and neighbouring tasks (and so
// mostly a warp's lanes) share one table.
struct AllowedColumns {
    const unsigned int *table;

    __device__ __forceinline__ unsigned int open(unsigned int c, unsigned int d,
                                                 unsigned int a) const {
        return ~(c | d | a) & __ldg(table + __popc(c));
    }
};

// The mirror engine's tasks: three words each.
struct MirrorTasks {
    typedef EveryColumn Rows;
    const unsigned int *words;
    unsigned int full;

    __device__ __forceinline__ Rows read(unsigned int task, unsigned int &c, unsigned int &d,
                                         unsigned int &a) const {
        c = words[3 * task];
        d = words[3 * task + 1];
        a = words[3 * task + 2];
        return Rows{full};
    }
};

// The constellations engine's tasks: four words each, the last the index
// of the task's table among `tables`, `n` words each.
struct StartTasks {
    typedef AllowedColumns Rows;
    const uint4 *words;
    const unsigned int *tables;
    unsigned int n;

    __device__ __forceinline__ Rows read(unsigned int task, unsigned int &c, unsigned int &d,
                                         unsigned int &a) const {
        const uint4 t = words[task];
        c = t.x;
        d = t.y;
        a = t.z;
        return Rows{tables + t.w * n};
    }
};

// Reads task `task` into the first frame of `mine`: the number of frames
// it leaves (0 when the task's next row has no open square).
template <class Tasks>
__device__ __forceinline__ int begin(const Tasks &tasks, unsigned int task,
                                     typename Tasks::Rows &rows, uint4 *mine) {
    unsigned int c, d, a;
    rows = tasks.read(task, c, d, a);
    const unsigned int open = rows.open(c, d, a);
    if (open == 0) return 0;
    mine[0] = make_uint4(c, d, a, open);
    return 1;
}

// A frame is a row's three masks and its columns still open (x, y, z, w).
// The stack of frames sits in shared memory, level-major (frame
// `level * STRIDE + threadIdx.x`), so a warp's 32 frames are 512
// contiguous bytes: a 16-byte access per lane with no bank conflict. Each
// step takes one column of the top frame, pops the frame when that was its
// last column, and pushes the row below unless it is dead or is the last
// row, whose open squares are counted with one popcount. A child may take
// its popped parent's slot, so the depth is read from the queens placed:
// the children of a frame with `target` (n - 2) queens lie on the last row.
template <class Tasks>
__device__ __forceinline__ void count_all(const Tasks &tasks,
                                          unsigned long long *__restrict__ counts,
                                          unsigned int task_count,
                                          unsigned int *__restrict__ next, int target) {
    extern __shared__ uint4 frames[];
    uint4 *mine = frames + threadIdx.x;

    unsigned int task = atomicAdd(next, 1u);
    if (task >= task_count) return;
    typename Tasks::Rows rows;
    int top = begin(tasks, task, rows, mine);
    unsigned long long count = 0;

    for (;;) {
        if (top == 0) {
            counts[task] = count;
            task = atomicAdd(next, 1u);
            if (task >= task_count) return;
            count = 0;
            top = begin(tasks, task, rows, mine);
            continue;
        }
        const int level = top - 1;
        const uint4 f = mine[level * STRIDE];
        const unsigned int bit = f.w & (0u - f.w);
        const unsigned int rest = f.w ^ bit;
        mine[level * STRIDE].w = rest;
        if (rest == 0) top = level;
        const unsigned int c = f.x | bit;
        const unsigned int d = (f.y | bit) << 1;
        const unsigned int a = (f.z | bit) >> 1;
        const unsigned int free = rows.open(c, d, a);
        if (__popc(f.x) == target) {
            count += __popc(free);
        } else if (free != 0) {
            mine[top * STRIDE] = make_uint4(c, d, a, free);
            ++top;
        }
    }
}

extern "C" __global__ void count_tasks(const unsigned int *__restrict__ tasks,
                                       unsigned long long *__restrict__ counts,
                                       unsigned int task_count,
                                       unsigned int *__restrict__ next,
                                       unsigned int full, int target) {
    count_all(MirrorTasks{tasks, full}, counts, task_count, next, target);
}

extern "C" __global__ void count_tasks_allowed(const uint4 *__restrict__ tasks,
                                               const unsigned int *__restrict__ tables,
                                               unsigned long long *__restrict__ counts,
                                               unsigned int task_count,
                                               unsigned int *__restrict__ next,
                                               unsigned int n, int target) {
    count_all(StartTasks{tasks, tables, n}, counts, task_count, next, target);
}
