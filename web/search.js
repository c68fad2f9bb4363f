// The backtracking search the page animates, one step at a time: the
// textbook algorithm, written to be read. (The count beside it is the
// library's far faster bitmask search, in the worker; this one is for
// watching.)
//
// Row by row from the top, it tries each square of the row from the left.
// A square that a queen attacks (one placed above, or a given queen
// anywhere) is a conflict; a free one gets a queen, and the search goes
// down a row. A row with no square left sends it back up: the queen above
// is removed and the search tries the next square of that row. A row
// with a given queen offers that square only; a blocked square is never
// used. Every completion of the position is found, in lexicographic
// order, and the nodes of the tree it walks are the empty board and each
// queen it places: 153 on the empty 6-board, OEIS A319283, the figure
// `queens ladder 6` prints for its row-by-row steps.

// Yields one event a step:
//   {kind: 'start'}                        the empty board (the root node)
//   {kind: 'place', r, c, given}           a queen placed: a node
//   {kind: 'conflict', r, c, by}           (r, c) is attacked by the queens `by`, [[r, c], ...]
//   {kind: 'blocked', r, c}                (r, c) is blocked
//   {kind: 'solution', cols}               every row has its queen
//   {kind: 'remove', r, c}                 backtracking: the queen of row r goes
//   {kind: 'done'}                         every square tried
// `given[r]` is the column of row r's given queen, or -1; `blocked` holds
// r * n + c of each blocked square.
export function* backtrack(n, given, blocked) {
  const cols = new Array(n).fill(-1);

  // The queens that attack (r, c): those placed in the rows above, and
  // the given queens of the rows below.
  function attackers(r, c) {
    const by = [];
    for (let row = 0; row < r; row++) {
      if (cols[row] === c || Math.abs(cols[row] - c) === r - row) by.push([row, cols[row]]);
    }
    for (let row = r + 1; row < n; row++) {
      const g = given[row];
      if (g >= 0 && (g === c || Math.abs(g - c) === row - r)) by.push([row, g]);
    }
    return by;
  }

  function* row(r) {
    if (r === n) {
      yield { kind: 'solution', cols: cols.slice() };
      return;
    }
    for (let c = 0; c < n; c++) {
      if (given[r] >= 0 && c !== given[r]) continue;
      if (blocked.has(r * n + c)) {
        yield { kind: 'blocked', r, c };
        continue;
      }
      const by = attackers(r, c);
      if (by.length > 0) {
        yield { kind: 'conflict', r, c, by };
        continue;
      }
      cols[r] = c;
      yield { kind: 'place', r, c, given: given[r] >= 0 };
      yield* row(r + 1);
      cols[r] = -1;
      yield { kind: 'remove', r, c };
    }
  }

  yield { kind: 'start' };
  yield* row(0);
  yield { kind: 'done' };
}
