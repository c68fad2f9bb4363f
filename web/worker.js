// One worker: the queens library (queens.wasm, built by web/build.sh from
// web/wasm) answering the page's questions one at a time, off the page's
// thread. The page sends the compiled module first, then requests
// {id, op, ...}; each answer is {id, ok, value | error, ms}, ms being the
// time the library took. The page ends a worker whose answer it no
// longer wants (terminate), so nothing here needs to stop early.

importScripts('gpu.js');

let lib = null;
let ready = null;

// Writes `text` into the module's input buffer.
function put(text) {
  const bytes = new TextEncoder().encode(text);
  const at = lib.web_input(bytes.length);
  new Uint8Array(lib.memory.buffer, at, bytes.length).set(bytes);
}

// Calls export `name`; its answer is JSON (status 0) or a message (1).
function call(name, ...args) {
  const status = lib[name](...args);
  // Fresh view: the call may have grown the memory.
  const out = new Uint8Array(lib.memory.buffer, lib.web_output(), lib.web_output_len());
  const text = new TextDecoder().decode(out);
  if (status !== 0) throw new Error(text);
  return text;
}

const ops = {
  // The plan's estimate of the search, and what it comes to at `rate`
  // nodes a second, as the command line words durations.
  cost({ board, rate }) {
    put(board);
    const plan = JSON.parse(call('web_cost'));
    const seconds = plan.cost / rate;
    return { ...plan, seconds, human: call('web_human_duration', seconds) };
  },
  // The board's completions: {count, gpu, adapter | why, missing}. With
  // `gpu` (the page asks for the empty board only) on the GPU where there
  // is one, else, or where it fails, on the CPU, saying why.
  async count({ board, n, gpu: wanted }) {
    if (wanted) {
      try {
        return { ...(await gpu.count(lib, call, n)), gpu: true };
      } catch (e) {
        const missing = e instanceof gpu.Missing;
        const why = missing ? e.message : `the GPU failed: ${e.message}`;
        put(board);
        return { count: JSON.parse(call('web_count')).count, gpu: false, why, missing };
      }
    }
    put(board);
    return { count: JSON.parse(call('web_count')).count, gpu: false };
  },
  first({ board }) {
    put(board);
    return JSON.parse(call('web_first_completion'));
  },
  classes({ n }) {
    return JSON.parse(call('web_classes', n));
  },
};

self.onmessage = async ({ data }) => {
  if (data.module) {
    ready = WebAssembly.instantiate(data.module, {}).then((instance) => {
      lib = instance.exports;
    });
    return;
  }
  try {
    await ready;
    const started = performance.now();
    const value = await ops[data.op](data);
    self.postMessage({ id: data.id, ok: true, value, ms: performance.now() - started });
  } catch (e) {
    self.postMessage({ id: data.id, ok: false, error: String(e.message || e) });
  }
};
