// The page: the board and what it shows (attacks, the completion count,
// one completion, the search, the solutions by symmetry class). The
// library runs in workers (worker.js), the empty board's count on the GPU
// where the browser has WebGPU (gpu.js); the search the page animates is
// search.js.

import { backtrack } from './search.js';

const MIN_N = 4;
const MAX_N = 20;
const START_N = 8;
const CLASSES_MAX_N = 10;
// A count the plan puts above this many seconds waits for "Count anyway".
const AUTO_LIMIT_S = 20;
// Nodes a second the library's serial count makes in WebAssembly, until
// this browser has timed a count of its own (Chromium 156 on a 2-core
// x86-64 Linux machine: 76 to 82 million at n = 14 to 16).
let rate = 60e6;
// The same on this browser's GPU (the nodes of the CPU's plan, which is
// what the page estimates with): the CPU's guess until a count is timed.
let gpuRate = rate;
// Why the page does not ask for the GPU: `?gpu=off`, or a worker found
// no WebGPU or no adapter (null: it asks).
let gpuMissing =
  new URLSearchParams(location.search).get('gpu') === 'off' ? 'the page was asked not to use it: ?gpu=off' : null;

// ---- Workers ----------------------------------------------------------

const wasm = fetch('queens.wasm')
  .then((response) => {
    if (!response.ok) throw new Error(`queens.wasm: ${response.status} ${response.statusText}`);
    return response.arrayBuffer();
  })
  .then((bytes) => WebAssembly.compile(bytes));

class Cancelled extends Error {}

// A worker for one kind of question. A new question ends the worker still
// busy with the previous one (its answer is no longer wanted) and starts
// another: the library cannot be interrupted inside a count, a worker can.
class Lane {
  constructor() {
    this.worker = null;
    this.pending = null;
    this.id = 0;
  }

  async ask(request) {
    if (this.pending) {
      this.worker.terminate();
      this.worker = null;
      this.pending.reject(new Cancelled());
      this.pending = null;
    }
    const module = await wasm;
    if (!this.worker) {
      this.worker = new Worker('worker.js');
      this.worker.postMessage({ module });
      this.worker.onmessage = ({ data }) => {
        const pending = this.pending;
        if (!pending || data.id !== pending.id) return;
        this.pending = null;
        if (data.ok) {
          pending.resolve({ value: data.value, ms: data.ms });
        } else {
          // After a trap the module is not to be trusted: start afresh.
          this.worker.terminate();
          this.worker = null;
          pending.reject(new Error(data.error));
        }
      };
      this.worker.onerror = (event) => {
        const pending = this.pending;
        this.pending = null;
        this.worker = null;
        if (pending) pending.reject(new Error(event.message || 'the worker failed'));
      };
    }
    const id = ++this.id;
    return new Promise((resolve, reject) => {
      this.pending = { id, resolve, reject };
      this.worker.postMessage({ ...request, id });
    });
  }
}

const countLane = new Lane();
const showLane = new Lane();
const classesLane = new Lane();

// ---- The position -----------------------------------------------------

const EMPTY = 0;
const QUEEN = 1;
const BLOCKED = 2;

const state = {
  n: START_N,
  squares: new Array(START_N * START_N).fill(EMPTY),
  focus: 0,
  shown: null, // a completion shown in ghost queens: a column a row
  search: null,
};

const $ = (id) => document.getElementById(id);
const board = $('board');
let cells = [];

function queensOf() {
  const queens = [];
  state.squares.forEach((s, i) => {
    if (s === QUEEN) queens.push([Math.floor(i / state.n), i % state.n]);
  });
  return queens;
}

// The position as Problem::from_board reads it.
function boardText() {
  const { n, squares } = state;
  let text = '';
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) text += '.Qx'[squares[r * n + c]];
    text += '\n';
  }
  return text;
}

const attacks = (a, b) =>
  a[0] === b[0] || a[1] === b[1] || Math.abs(a[0] - b[0]) === Math.abs(a[1] - b[1]);

// How many of `queens` attack each square (a queen does not attack its
// own square).
function attackCounts(n, queens) {
  const counts = new Array(n * n).fill(0);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      for (const q of queens) {
        if ((q[0] !== r || q[1] !== c) && attacks(q, [r, c])) counts[r * n + c]++;
      }
    }
  }
  return counts;
}

// ---- Drawing ----------------------------------------------------------

const QUEEN_SVG = '<svg viewBox="0 0 40 40" aria-hidden="true"><use href="#queen"/></svg>';

function buildBoard() {
  const { n } = state;
  board.style.setProperty('--n', n);
  board.replaceChildren();
  cells = [];
  for (let r = 0; r < n; r++) {
    const row = document.createElement('div');
    row.setAttribute('role', 'row');
    for (let c = 0; c < n; c++) {
      const cell = document.createElement('div');
      cell.setAttribute('role', 'gridcell');
      cell.className = `cell ${(r + c) % 2 ? 'dark' : 'light'}`;
      cell.dataset.row = r;
      cell.dataset.col = c;
      cell.tabIndex = -1;
      cell.innerHTML = `${QUEEN_SVG}<span class="num"></span>`;
      row.append(cell);
      cells.push(cell);
    }
    board.append(row);
  }
  state.focus = Math.min(state.focus, n * n - 1);
  cells[state.focus].tabIndex = 0;
}

// The queens on the board now: the position's, and the search's own.
function shownQueens() {
  const queens = queensOf();
  const search = state.search;
  if (search) {
    search.cols.forEach((c, r) => {
      if (c >= 0 && search.given[r] < 0) queens.push([r, c]);
    });
  }
  return queens;
}

function render() {
  const { n, squares, shown, search } = state;
  const queens = shownQueens();
  const counts = attackCounts(n, queens);
  const searchQueens = new Set();
  if (search) search.cols.forEach((c, r) => c >= 0 && searchQueens.add(r * n + c));
  const event = search?.event;
  const blamed = new Set((event?.kind === 'conflict' ? event.by : []).map(([r, c]) => r * n + c));
  for (let i = 0; i < n * n; i++) {
    const r = Math.floor(i / n);
    const c = i % n;
    const cell = cells[i];
    const square = squares[i];
    const queen = square === QUEEN || searchQueens.has(i);
    const ghost = !queen && shown !== null && shown[r] === c;
    const k = counts[i];
    cell.dataset.attacks = k;
    cell.style.setProperty('--k', Math.min(k, 4));
    cell.classList.toggle('queen', queen);
    cell.classList.toggle('searched', queen && square !== QUEEN);
    cell.classList.toggle('ghost', ghost);
    cell.classList.toggle('blocked', square === BLOCKED);
    cell.classList.toggle('conflict', queen && k > 0);
    cell.classList.toggle('attacked', !queen && square !== BLOCKED && k > 0);
    cell.classList.toggle('blamed', blamed.has(i));
    // Booleans only: classList.toggle(name, undefined) flips the class.
    const here = Boolean(event) && event.r === r && event.c === c;
    cell.classList.toggle('try-ok', here && event.kind === 'place');
    cell.classList.toggle('try-bad', here && (event.kind === 'conflict' || event.kind === 'blocked'));
    cell.classList.toggle('try-back', here && event.kind === 'remove');
    cell.querySelector('.num').textContent = !queen && square !== BLOCKED && k > 0 ? k : '';
    let what = square === BLOCKED ? 'blocked' : queen ? 'queen' : ghost ? 'a completion has a queen here' : 'empty';
    if (k > 0) what += `, attacked by ${k}`;
    cell.setAttribute('aria-label', `row ${r + 1}, column ${c + 1}: ${what}`);
  }
}

// ---- Editing ----------------------------------------------------------

function edit(i, to) {
  const { squares } = state;
  squares[i] = squares[i] === to ? EMPTY : to;
  changed();
}

function changed() {
  stopSearch();
  state.shown = null;
  $('show-one').textContent = 'Show one';
  $('show-note').textContent = '';
  render();
  recount(false);
}

function setSize(n) {
  state.n = n;
  state.squares = new Array(n * n).fill(EMPTY);
  state.focus = 0;
  buildBoard();
  changed();
  loadClasses();
}

function moveFocus(to) {
  cells[state.focus].tabIndex = -1;
  state.focus = to;
  cells[to].tabIndex = 0;
  cells[to].focus();
}

board.addEventListener('click', (e) => {
  const cell = e.target.closest('.cell');
  if (!cell) return;
  const i = cells.indexOf(cell);
  moveFocus(i);
  const block = e.shiftKey || document.querySelector('input[name=mode]:checked').value === 'block';
  edit(i, block ? BLOCKED : QUEEN);
});

board.addEventListener('keydown', (e) => {
  const { n } = state;
  const r = Math.floor(state.focus / n);
  const c = state.focus % n;
  const moves = {
    ArrowUp: [Math.max(r - 1, 0), c],
    ArrowDown: [Math.min(r + 1, n - 1), c],
    ArrowLeft: [r, Math.max(c - 1, 0)],
    ArrowRight: [r, Math.min(c + 1, n - 1)],
    Home: [r, 0],
    End: [r, n - 1],
  };
  if (moves[e.key]) {
    const [r2, c2] = moves[e.key];
    moveFocus(r2 * n + c2);
  } else if (e.key === 'Enter' || e.key === ' ') {
    edit(state.focus, QUEEN);
  } else if (e.key === 'x' || e.key === 'X' || e.key === 'b' || e.key === 'B') {
    edit(state.focus, BLOCKED);
  } else if (e.key === 'Delete' || e.key === 'Backspace') {
    if (state.squares[state.focus] !== EMPTY) edit(state.focus, state.squares[state.focus]);
  } else {
    return;
  }
  e.preventDefault();
});

// ---- Counting ---------------------------------------------------------

const countOut = $('count');
let countRound = 0;
let progressTimer = null;

function showCount(stateName, text, exact = '') {
  countOut.dataset.state = stateName;
  countOut.dataset.count = exact;
  countOut.textContent = text;
}

// Where the last count ran: `gpu`, `cpu`, or '' (nothing counted).
function showWhere(where, text = '') {
  const out = $('count-where');
  out.dataset.where = where;
  out.textContent = text;
}

function plural(k, one, many) {
  return `${k.toLocaleString('en')} ${k === 1 ? one : many}`;
}

async function recount(force) {
  const round = ++countRound;
  clearInterval(progressTimer);
  const note = $('count-note');
  const anyway = $('count-anyway');
  anyway.hidden = true;
  const board = boardText();
  showCount('counting', '…');
  showWhere('');
  note.textContent = '';
  // The GPU runs whole-board plans only: the empty board.
  const empty = state.squares.every((s) => s === EMPTY);
  const gpu = empty && gpuMissing === null;
  try {
    const { value: plan } = await countLane.ask({ op: 'cost', board, rate: gpu ? gpuRate : rate });
    if (round !== countRound) return;
    const estimate = `The library's plan estimates the search at ${plural(plan.cost, 'node', 'nodes')}: about ${plan.human} here`;
    if (plan.seconds > AUTO_LIMIT_S && !force && plan.known !== null) {
      // The empty board: its total is OEIS A000170's, which the library
      // holds; counting it here would only take long to agree.
      showCount('known', BigInt(plan.known).toLocaleString('en'), plan.known);
      note.textContent = `OEIS A000170's total for the empty ${state.n} x ${state.n} board, not counted here: ${estimate.charAt(0).toLowerCase()}${estimate.slice(1)}.`;
      anyway.hidden = false;
      anyway.textContent = `Count anyway (about ${plan.human})`;
      return;
    }
    if (plan.seconds > AUTO_LIMIT_S && !force) {
      showCount('long', 'not counted yet');
      note.textContent = `${estimate}. Place or block more squares to narrow it, or count anyway.`;
      anyway.hidden = false;
      anyway.textContent = `Count anyway (about ${plan.human})`;
      return;
    }
    if (plan.seconds > 1) {
      const started = performance.now();
      note.textContent = `${estimate}; counting in the background.`;
      progressTimer = setInterval(() => {
        const spent = (performance.now() - started) / 1000;
        showCount('counting', `counting… ${spent.toFixed(0)} s of about ${plan.human}`);
      }, 500);
    }
    const { value: counted, ms } = await countLane.ask({ op: 'count', board, n: state.n, gpu });
    if (round !== countRound) return;
    clearInterval(progressTimer);
    const { count } = counted;
    showCount('done', BigInt(count).toLocaleString('en'), count);
    if (counted.missing) gpuMissing = counted.why;
    // The nodes a second this browser makes, from counts long enough to time.
    if (ms > 200 && counted.gpu) gpuRate = (gpuRate + plan.cost / (ms / 1000)) / 2;
    if (ms > 200 && !counted.gpu) rate = (rate + plan.cost / (ms / 1000)) / 2;
    note.textContent = ms > 1000 ? `Counted in ${(ms / 1000).toFixed(1)} s.` : '';
    if (counted.gpu) {
      showWhere('gpu', `Counted on the GPU (${counted.adapter}, through WebGPU).`);
    } else {
      const why = counted.why || gpuMissing || 'the GPU counts the empty board only';
      showWhere('cpu', `Counted on the CPU (${why}).`);
    }
  } catch (e) {
    if (e instanceof Cancelled || round !== countRound) return;
    clearInterval(progressTimer);
    showCount('error', '—');
    note.textContent = e.message;
  }
}

$('count-anyway').addEventListener('click', () => recount(true));

// ---- Show one ---------------------------------------------------------

$('show-one').addEventListener('click', async () => {
  const button = $('show-one');
  const note = $('show-note');
  if (state.shown) {
    state.shown = null;
    button.textContent = 'Show one';
    note.textContent = '';
    render();
    return;
  }
  note.textContent = 'searching…';
  try {
    const { value } = await showLane.ask({ op: 'first', board: boardText() });
    if (value.cols) {
      state.shown = value.cols;
      button.textContent = 'Hide it';
      note.textContent = 'The first completion in lexicographic order, in outline.';
    } else if (value.conflict) {
      const [a, b] = value.conflict;
      note.textContent = `None: the queens on ${a[0] + 1}:${a[1] + 1} and ${b[0] + 1}:${b[1] + 1} attack each other.`;
    } else {
      note.textContent = 'None: this position has no completion.';
    }
    render();
  } catch (e) {
    if (!(e instanceof Cancelled)) note.textContent = e.message;
  }
});

// ---- The search -------------------------------------------------------

const SPEEDS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, Infinity];
let timer = null;

function speed() {
  return SPEEDS[Number($('speed').value)];
}

function showSpeed() {
  const s = speed();
  $('speed-label').textContent = s === Infinity ? 'as fast as it goes' : `${s} steps a second`;
}

function startSearch() {
  const { n, squares } = state;
  const given = new Array(n).fill(-1);
  const blocked = new Set();
  for (let i = 0; i < n * n; i++) {
    const r = Math.floor(i / n);
    if (squares[i] === QUEEN) {
      if (given[r] >= 0) {
        setSearchStatus('idle', `Two queens share row ${r + 1}: the search takes one queen a row.`);
        return false;
      }
      given[r] = i % n;
    }
    if (squares[i] === BLOCKED) blocked.add(i);
  }
  state.shown = null;
  state.search = {
    steps: backtrack(n, given, blocked),
    given,
    cols: new Array(n).fill(-1),
    event: null,
    nodes: 0,
    conflicts: 0,
    solutions: 0,
    running: false,
    done: false,
  };
  return true;
}

function setSearchStatus(name, text) {
  const status = $('search-status');
  status.dataset.state = name;
  status.textContent = text;
}

// One step; false once the search has ended.
function step() {
  const search = state.search;
  const { value: event, done } = search.steps.next();
  if (done) return false;
  search.event = event;
  const at = event.r === undefined ? '' : `${event.r + 1}:${event.c + 1}`;
  switch (event.kind) {
    case 'start':
      search.nodes++;
      search.text = 'The empty board: the root of the search.';
      break;
    case 'place':
      search.nodes++;
      search.cols[event.r] = event.c;
      search.text = event.given
        ? `Row ${event.r + 1} has its given queen on ${at}.`
        : `A queen on ${at}: no queen attacks it. Down to row ${event.r + 2}.`;
      break;
    case 'conflict': {
      search.conflicts++;
      const by = event.by.map(([r, c]) => `${r + 1}:${c + 1}`).join(' and ');
      search.text = `${at} is attacked by the ${event.by.length > 1 ? 'queens' : 'queen'} on ${by}.`;
      break;
    }
    case 'blocked':
      search.text = `${at} is blocked.`;
      break;
    case 'remove':
      search.cols[event.r] = -1;
      search.text = `Back up: the queen on ${at} goes, and row ${event.r + 1} tries its next square.`;
      break;
    case 'solution':
      search.solutions++;
      search.text = `A solution, the ${ordinal(search.solutions)}.`;
      if ($('pause-solution').checked) search.running = false;
      break;
    case 'done':
      search.done = true;
      search.running = false;
      search.text = `Done: ${plural(search.solutions, 'solution', 'solutions')}, ${plural(search.nodes, 'node', 'nodes')}, ${plural(search.conflicts, 'conflict', 'conflicts')}.`;
      break;
  }
  return !search.done;
}

function ordinal(k) {
  const tens = k % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][k % 10] || 'th';
  return `${k}${suffix}`;
}

function showSearch() {
  const search = state.search;
  $('search-nodes').textContent = search ? search.nodes.toLocaleString('en') : '0';
  $('search-conflicts').textContent = search ? search.conflicts.toLocaleString('en') : '0';
  $('search-solutions').textContent = search ? search.solutions.toLocaleString('en') : '0';
  $('search-run').textContent = search?.running ? 'Pause' : 'Run';
  if (search) setSearchStatus(search.done ? 'done' : search.running ? 'running' : 'paused', search.text);
  render();
}

function tick() {
  const search = state.search;
  if (!search || !search.running) return;
  const now = performance.now();
  const s = speed();
  if (s === Infinity) {
    while (search.running && performance.now() - now < 15) step();
  } else {
    search.budget += ((now - search.last) * s) / 1000;
    search.last = now;
    while (search.running && search.budget >= 1) {
      search.budget--;
      step();
    }
  }
  showSearch();
  if (search.running) timer = setTimeout(tick, s === Infinity ? 0 : Math.max(1000 / s, 16));
}

function stopSearch() {
  clearTimeout(timer);
  if (state.search) {
    state.search = null;
    setSearchStatus('idle', '');
    showSearch();
  }
}

$('search-step').addEventListener('click', () => {
  if (!state.search || state.search.done) {
    if (!startSearch()) return;
  }
  state.search.running = false;
  clearTimeout(timer);
  step();
  showSearch();
});

$('search-run').addEventListener('click', () => {
  if (!state.search || state.search.done) {
    if (!startSearch()) return;
  }
  const search = state.search;
  search.running = !search.running;
  clearTimeout(timer);
  if (search.running) {
    search.budget = 1;
    search.last = performance.now();
    tick();
  } else {
    showSearch();
  }
});

$('search-reset').addEventListener('click', stopSearch);
$('speed').addEventListener('input', showSpeed);

// ---- The solutions, by symmetry class ---------------------------------

function thumbnail(cols) {
  const n = cols.length;
  let squares = '';
  cols.forEach((c, r) => {
    squares += `<rect x="${c}" y="${r}" width="1" height="1"/>`;
  });
  return `<svg viewBox="0 0 ${n} ${n}" style="--n: ${n}" aria-hidden="true">${squares}</svg>`;
}

async function loadClasses() {
  const details = $('solutions');
  const note = $('classes-note');
  const list = $('classes');
  if (!details.open) return;
  const n = state.n;
  list.replaceChildren();
  if (n > CLASSES_MAX_N) {
    note.textContent = `Listed for boards up to ${CLASSES_MAX_N}: this one has too many to browse.`;
    return;
  }
  note.textContent = 'listing…';
  try {
    const { value } = await classesLane.ask({ op: 'classes', n });
    if (value.n !== state.n) return;
    note.textContent = value.solutions
      ? `${plural(value.solutions, 'solution', 'solutions')} in ${plural(value.classes.length, 'class', 'classes')}: the boards of a class are turns and reflections of each other. Pick one to put it on the board.`
      : 'No solution on this board.';
    value.classes.forEach((cls, k) => {
      const section = document.createElement('div');
      section.className = 'class';
      const symmetric = cls.symmetries.filter((t) => t !== 'identity');
      const title = document.createElement('h3');
      title.textContent = `Class ${k + 1}: ${plural(cls.boards.length, 'board', 'boards')}${
        symmetric.length ? `, unchanged by ${symmetric.join(', ')}` : ''
      }`;
      const thumbs = document.createElement('div');
      thumbs.className = 'thumbs';
      for (const cols of cls.boards) {
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'thumb';
        button.innerHTML = thumbnail(cols);
        button.setAttribute('aria-label', `solution ${cols.map((c) => c + 1).join(' ')}`);
        button.addEventListener('click', () => {
          state.squares.fill(EMPTY);
          cols.forEach((c, r) => {
            state.squares[r * n + c] = QUEEN;
          });
          changed();
          board.scrollIntoView({ block: 'nearest' });
        });
        thumbs.append(button);
      }
      section.append(title, thumbs);
      list.append(section);
    });
  } catch (e) {
    if (!(e instanceof Cancelled)) note.textContent = e.message;
  }
}

$('solutions').addEventListener('toggle', loadClasses);

// ---- Start ------------------------------------------------------------

const sizes = $('size');
for (let n = MIN_N; n <= MAX_N; n++) {
  const option = document.createElement('option');
  option.value = n;
  option.textContent = `${n} × ${n}`;
  option.selected = n === START_N;
  sizes.append(option);
}
sizes.addEventListener('change', () => setSize(Number(sizes.value)));
$('clear').addEventListener('click', () => {
  state.squares.fill(EMPTY);
  changed();
});
$('auto-limit').textContent = `${AUTO_LIMIT_S} s`;
showSpeed();
setSize(START_N);
wasm.catch((e) => {
  showCount('error', '—');
  $('count-note').textContent = `${e.message}: build it with web/build.sh (docs/web.md).`;
});
