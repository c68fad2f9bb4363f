// The page's GPU: the portable GPU executor's kernel (kernel.wgsl, which
// web/build.sh copies beside the page from src/count/gpu/) run through
// WebGPU on the tasks the module cuts (web/wasm/src/gpu.rs), as the
// native executor runs it through wgpu (src/count/gpu/portable.rs).
// Loaded by worker.js (importScripts): a worker has navigator.gpu where
// the page has. It defines one global, `gpu`.

const gpu = (() => {
  // Invocations a workgroup, as the native executor asks for; halved
  // where the adapter's workgroup memory holds fewer stacks.
  const WORKGROUP = 64;
  // Steps an invocation walks a dispatch (the kernel's STEPS): the count
  // runs in rounds, each dispatch resuming the walks the last one paused,
  // so that no dispatch holds the GPU long enough for the browser or the
  // system to reset it (Windows gives a dispatch 2 s). Below llvmpipe's
  // 65535 iterations a loop, as natively, for a browser on lavapipe.
  const STEPS = 1 << 14;
  // Workgroups a dispatch: enough for a large GPU's lanes (65,536
  // invocations), and on a software adapter few, so that a round of
  // STEPS steps stays short on a few CPU cores.
  const GROUPS = 1024;
  const SOFTWARE_GROUPS = 64;

  // Why the GPU is not used: no WebGPU, or no adapter. Distinct from a
  // GPU that fails during a count.
  class Missing extends Error {}

  // The device, opened by the first count (a promise).
  let opened = null;

  // The adapter's name as the page shows it: `nvidia ampere`, `google
  // swiftshader` (browsers give no more without a user's consent).
  function describe(info) {
    const name = info.description || [info.vendor, info.architecture].filter(Boolean).join(' ');
    return name || 'an adapter that gives no name';
  }

  async function open() {
    if (!navigator.gpu) throw new Missing('this browser has no WebGPU');
    const adapter = await navigator.gpu.requestAdapter({ powerPreference: 'high-performance' });
    if (!adapter) throw new Missing('WebGPU is here but found no adapter');
    const info = adapter.info || {};
    // SwiftShader is Chromium's Vulkan on the CPU; a fallback adapter is
    // a browser's own software one.
    const software = info.isFallbackAdapter === true || info.architecture === 'swiftshader';
    const { limits } = adapter;
    const device = await adapter.requestDevice({
      requiredLimits: {
        maxComputeWorkgroupStorageSize: limits.maxComputeWorkgroupStorageSize,
        maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
        maxBufferSize: limits.maxBufferSize,
      },
    });
    const response = await fetch('kernel.wgsl');
    if (!response.ok) throw new Error(`kernel.wgsl: ${response.status} ${response.statusText}`);
    const name = `${describe(info)}${software ? ', a GPU run on the CPU' : ''}`;
    return { device, name, software, kernel: await response.text(), pipelines: new Map() };
  }

  // The invocations of a workgroup whose stacks hold `frames` frames (16
  // bytes each).
  function workgroupFor(limits, frames) {
    let size = Math.min(WORKGROUP, limits.maxComputeInvocationsPerWorkgroup);
    while (size > 1 && 16 * frames * size > limits.maxComputeWorkgroupStorageSize) size /= 2;
    if (16 * frames * size > limits.maxComputeWorkgroupStorageSize) {
      throw new Error(`the GPU's workgroup memory cannot hold a stack of ${frames} frames`);
    }
    return size;
  }

  // The kernel compiled for `frames` frames a stack and `size`
  // invocations a workgroup, with the constants the native executor puts
  // before it: tasks of four words, the fourth its unit's table.
  async function pipelineFor(g, frames, size) {
    const key = `${frames} ${size}`;
    if (!g.pipelines.has(key)) {
      const code = `const WORKGROUP: u32 = ${size}u;
const FRAMES: u32 = ${frames}u;
const WIDTH: u32 = 4u;
const STEP: u32 = 1u;
const STEPS: u32 = ${STEPS}u;
fn table_of(task: u32) -> u32 { return tasks[WIDTH * task + 3u] * params.n; }
${g.kernel}`;
      const module = g.device.createShaderModule({ label: 'queens count_tasks', code });
      g.pipelines.set(
        key,
        g.device.createComputePipelineAsync({
          label: 'queens count_tasks',
          layout: 'auto',
          compute: { module, entryPoint: 'count_tasks' },
        }),
      );
    }
    return g.pipelines.get(key);
  }

  // `bytes` bytes of `buffer` (made with COPY_SRC), once the GPU is done.
  async function read(device, buffer, bytes) {
    const out = device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const encoder = device.createCommandEncoder();
    encoder.copyBufferToBuffer(buffer, 0, out, 0, bytes);
    device.queue.submit([encoder.finish()]);
    await out.mapAsync(GPUMapMode.READ);
    const words = new Uint32Array(out.getMappedRange().slice(0));
    out.destroy();
    return words;
  }

  // Counts the tasks of `job` (web_gpu_tasks's answer) whose words and
  // tables lie in `memory`: two words a task, low first.
  async function launch(g, job, memory) {
    const { device } = g;
    const frames = job.n - 1 - job.depth;
    const size = workgroupFor(device.limits, frames);
    const pipeline = await pipelineFor(g, frames, size);
    device.pushErrorScope('out-of-memory');
    device.pushErrorScope('validation');
    const buffers = [];
    const buffer = (bytes, usage) => {
      const made = device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE | usage });
      buffers.push(made);
      return made;
    };
    const upload = (words, usage = 0) => {
      const made = buffer(words.byteLength, GPUBufferUsage.COPY_DST | usage);
      device.queue.writeBuffer(made, 0, words);
      return made;
    };
    const tasks = upload(new Uint32Array(memory.buffer, job.words, job.tasks * job.width));
    const tables = upload(new Uint32Array(memory.buffer, job.tables, job.tables_len));
    const counts = buffer(8 * job.tasks, GPUBufferUsage.COPY_SRC);
    const next = upload(new Uint32Array(1));
    const params = device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    buffers.push(params);
    const groups = Math.min(Math.ceil(job.tasks / size), g.software ? SOFTWARE_GROUPS : GROUPS);
    // A walk saved between rounds: five words and four a frame.
    const state = buffer(4 * groups * size * (5 + 4 * frames), 0);
    const paused = upload(new Uint32Array(1), GPUBufferUsage.COPY_SRC);
    const group = device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [tasks, tables, counts, next, params, state, paused].map((b, binding) => ({
        binding,
        resource: { buffer: b },
      })),
    });
    let words = null;
    let failure = null;
    try {
      for (let round = 0; ; round++) {
        device.queue.writeBuffer(params, 0, new Uint32Array([job.tasks, job.n, job.n - 2, round]));
        device.queue.writeBuffer(paused, 0, new Uint32Array(1));
        const encoder = device.createCommandEncoder();
        const pass = encoder.beginComputePass();
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, group);
        pass.dispatchWorkgroups(groups);
        pass.end();
        device.queue.submit([encoder.finish()]);
        if ((await read(device, paused, 4))[0] === 0) break;
      }
      words = await read(device, counts, 8 * job.tasks);
    } catch (e) {
      failure = e;
    }
    // Both scopes are popped, whatever happened, for the next count's.
    const errors = [await device.popErrorScope(), await device.popErrorScope()];
    buffers.forEach((b) => b.destroy());
    const error = errors.find(Boolean) || failure;
    if (error) throw new Error(error.message || String(error));
    return words;
  }

  // The empty `n`-board's completions counted on the GPU, as a decimal
  // string, checked by the module against OEIS A000170; `call` is the
  // worker's call into the module `lib`. Throws `Missing` where there is
  // no GPU to count on, another error where it failed.
  async function count(lib, call, n) {
    opened ??= open();
    const g = await opened;
    const job = JSON.parse(call('web_gpu_tasks', n));
    if (job.tasks > 0) {
      let counts;
      try {
        counts = await launch(g, job, lib.memory);
      } catch (e) {
        // The device may be lost: the next count opens another.
        opened = null;
        throw e;
      }
      // Fresh view: the memory may have grown since the tasks were cut.
      new Uint32Array(lib.memory.buffer, job.counts, 2 * job.tasks).set(counts);
    }
    return { count: JSON.parse(call('web_gpu_total')).count, adapter: g.name };
  }

  return { count, Missing };
})();
