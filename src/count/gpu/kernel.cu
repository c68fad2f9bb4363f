// The GPU engine's per-task search, compiled at run time with NVRTC.
//
// One thread searches one task at a time: a placement of the first rows,
// given as the three masks of the next row (bit i = column i; `diag` moves
// one column towards the high bits per row, `anti` towards the low bits).
// When its task is done it writes the task's count and takes the next task
// from a global counter, in the same loop, so a warp's lanes stay busy
// until the tasks run out rather than until the slowest task of the warp
// ends.
//
// count_task in mod.rs is the same walk in Rust, the reference the tests
// run without a GPU; tests/gpu/harness.cpp runs this file on the CPU. Keep
// the three in step.
//
// The first task is taken before the loop and the next ones inside it, the
// same lines twice: the version with one fetch path inside the loop (a "no
// task yet" mark) ran n = 20 in 3.8 s and n = 21 in 28.4 s on an H100,
// against 3.6 s and 26.0 s for this one (two sessions; results/).
//
// Measured on an H100 at n = 20 (results/): this kernel 4.0 s; the state in
// registers with a word a level on the stack 7.7 s (a step back up is a
// step of its own, and a warp runs both kinds of step); the last two rows
// counted at once 4.1 s; the top frame cached in registers 4.8 s.

// Threads per block, fixed at compile time so that the stack's stride is
// a constant (`-DQUEENS_BLOCK=128`); else read at run time.
#ifdef QUEENS_BLOCK
#define STRIDE QUEENS_BLOCK
#else
#define STRIDE blockDim.x
#endif

// A frame is a row's three masks and its columns still open (x, y, z, w).
// The stack of frames sits in shared memory, level-major (frame
// `level * STRIDE + threadIdx.x`), so a warp's 32 frames are 512
// contiguous bytes: a 16-byte access per lane with no bank conflict. Each
// step takes one column of the top frame, pops the frame when that was its
// last column, and pushes the row below unless it is dead or is the last
// row, whose open squares are counted with one popcount. A child may take
// its popped parent's slot, so the depth is read from the queens placed:
// the children of a frame with `target` (n - 2) queens lie on the last row.
extern "C" __global__ void count_tasks(const unsigned int *__restrict__ tasks,
                                       unsigned long long *__restrict__ counts,
                                       unsigned int task_count,
                                       unsigned int *__restrict__ next,
                                       unsigned int full, int target) {
    extern __shared__ uint4 frames[];
    uint4 *mine = frames + threadIdx.x;

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
        const uint4 f = mine[level * STRIDE];
        const unsigned int bit = f.w & (0u - f.w);
        const unsigned int rest = f.w ^ bit;
        mine[level * STRIDE].w = rest;
        if (rest == 0) top = level;
        const unsigned int c = f.x | bit;
        const unsigned int d = (f.y | bit) << 1;
        const unsigned int a = (f.z | bit) >> 1;
        const unsigned int free = ~(c | d | a) & full;
        if (__popc(f.x) == target) {
            count += __popc(free);
        } else if (free != 0) {
            mine[top * STRIDE] = make_uint4(c, d, a, free);
            ++top;
        }
    }
}
