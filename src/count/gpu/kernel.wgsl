// The portable GPU executor's per-task search (WGSL, through wgpu): the
// walk of kernel.cu, for any GPU. Keep the three copies in step: this file,
// kernel.cu, and count_task_allowed in reference.rs (the tests' reference).
//
// One invocation searches one task at a time: a placement of the first
// rows, given as the three masks of the next row (bit i = column i; `diag`
// moves one column towards the high bits per row, `anti` towards the low
// bits). When its task is done it writes the task's count and takes the
// next task from a global counter, so an invocation stays busy until the
// tasks run out rather than until the slowest task of its subgroup ends.
//
// The host puts before this file the constants WORKGROUP (invocations per
// workgroup), FRAMES (the most frames a stack holds: n - 1 - depth), WIDTH
// (words per task: 3, or 4 with the index of the task's table), STEP and
// STEPS (rounds, below), and `fn table_of(task: u32) -> u32`: where the
// task's table starts (`tables[table_of(task) + row]`: the columns a row
// allows). The mirror plan's tasks have no table: they read one of its own
// at 0, every row allowing every column.
//
// Rounds. llvmpipe (lavapipe, Vulkan on the CPU) leaves a shader's outer
// loop after 65535 iterations in all, dropping the walk where it stands.
// So on a software adapter an invocation walks at most STEPS steps a
// launch (STEP = 1), then saves its walk in `state` and counts itself in
// `paused`; the host launches again (`params.round` 1, 2, ...) until no
// invocation paused, and each one resumes where it stopped. On a GPU
// STEP = 0: the step counter stays 0, the compiler drops the pause, and
// one launch is all.
//
// WGSL has no 64-bit integers everywhere, so a count is two words, low
// first, the carry added by hand: one step adds at most 32.

struct Params {
    // Tasks in this launch.
    task_count: u32,
    // The board's size: a table's length.
    n: u32,
    // The queens of a frame whose children lie on the last row (n - 2).
    last: u32,
    // 0 for a launch's first round; else resume the walks in `state`.
    round: u32,
}

@group(0) @binding(0) var<storage, read> tasks: array<u32>;
@group(0) @binding(1) var<storage, read> tables: array<u32>;
@group(0) @binding(2) var<storage, read_write> counts: array<vec2<u32>>;
@group(0) @binding(3) var<storage, read_write> next: atomic<u32>;
@group(0) @binding(4) var<uniform> params: Params;
// An invocation's walk between rounds: its task + 1 (0: none left), the
// frames on its stack, its count (low, high), its table, then the frames.
@group(0) @binding(5) var<storage, read_write> state: array<u32>;
@group(0) @binding(6) var<storage, read_write> paused: atomic<u32>;

// A frame is a row's three masks and its columns still open (x, y, z, w).
// The stacks sit in workgroup memory, level-major (frame
// `level * WORKGROUP + invocation`), so neighbouring invocations' frames
// are neighbours.
var<workgroup> frames: array<vec4<u32>, FRAMES * WORKGROUP>;

// The open squares of a row: those no queen above attacks, among those the
// row's table allows. There is one queen a row above, so the row the masks
// are for is the number of columns taken.
fn open(c: u32, d: u32, a: u32, table: u32) -> u32 {
    return ~(c | d | a) & tables[table + countOneBits(c)];
}

@compute @workgroup_size(WORKGROUP)
fn count_tasks(
    @builtin(local_invocation_index) me: u32,
    @builtin(workgroup_id) group: vec3<u32>,
) {
    let saved = (group.x * WORKGROUP + me) * (5u + 4u * FRAMES);
    var task = 0u;
    var table = 0u;
    var top = 0u;
    var low = 0u;
    var high = 0u;
    if (params.round == 0u) {
        task = atomicAdd(&next, 1u);
        if (task >= params.task_count) {
            return;
        }
        // Reads task `task` into the first frame: one frame, or none when
        // the task's next row has no open square. (Written twice, here and
        // in the loop, as kernel.cu does: one fetch path in the loop was
        // slower.)
        let c = tasks[WIDTH * task];
        let d = tasks[WIDTH * task + 1u];
        let a = tasks[WIDTH * task + 2u];
        table = table_of(task);
        let free = open(c, d, a, table);
        if (free != 0u) {
            frames[me] = vec4<u32>(c, d, a, free);
            top = 1u;
        }
    } else {
        if (state[saved] == 0u) {
            return;
        }
        task = state[saved] - 1u;
        top = state[saved + 1u];
        low = state[saved + 2u];
        high = state[saved + 3u];
        table = state[saved + 4u];
        for (var level = 0u; level < top; level = level + 1u) {
            let at = saved + 5u + 4u * level;
            frames[level * WORKGROUP + me] =
                vec4<u32>(state[at], state[at + 1u], state[at + 2u], state[at + 3u]);
        }
    }
    var step = 0u;
    loop {
        if (step == STEPS) {
            state[saved] = task + 1u;
            state[saved + 1u] = top;
            state[saved + 2u] = low;
            state[saved + 3u] = high;
            state[saved + 4u] = table;
            for (var level = 0u; level < top; level = level + 1u) {
                let at = saved + 5u + 4u * level;
                let f = frames[level * WORKGROUP + me];
                state[at] = f.x;
                state[at + 1u] = f.y;
                state[at + 2u] = f.z;
                state[at + 3u] = f.w;
            }
            atomicAdd(&paused, 1u);
            return;
        }
        step = step + STEP;
        if (top == 0u) {
            counts[task] = vec2<u32>(low, high);
            task = atomicAdd(&next, 1u);
            if (task >= params.task_count) {
                if (STEP != 0u) {
                    state[saved] = 0u;
                }
                return;
            }
            low = 0u;
            high = 0u;
            let c = tasks[WIDTH * task];
            let d = tasks[WIDTH * task + 1u];
            let a = tasks[WIDTH * task + 2u];
            table = table_of(task);
            let free = open(c, d, a, table);
            if (free != 0u) {
                frames[me] = vec4<u32>(c, d, a, free);
                top = 1u;
            }
            continue;
        }
        // Take one column of the top frame; pop the frame when that was
        // its last; push the row below unless it is dead or the last row,
        // whose open squares are counted at once. A child may take its
        // popped parent's slot, so the depth is read from the queens
        // placed.
        let level = top - 1u;
        let slot = level * WORKGROUP + me;
        let f = frames[slot];
        let bit = f.w & (0u - f.w);
        let rest = f.w ^ bit;
        frames[slot].w = rest;
        if (rest == 0u) {
            top = level;
        }
        let c = f.x | bit;
        let d = (f.y | bit) << 1u;
        let a = (f.z | bit) >> 1u;
        let free = open(c, d, a, table);
        if (countOneBits(f.x) == params.last) {
            let found = countOneBits(free);
            low = low + found;
            if (low < found) {
                high = high + 1u;
            }
        } else if (free != 0u) {
            frames[top * WORKGROUP + me] = vec4<u32>(c, d, a, free);
            top = top + 1u;
        }
    }
}
