"""Not a test module: a program that uses the whole API, for `mypy --strict`
(CI runs it), so that the stubs type what users write."""

import queens


def main() -> None:
    total: int = queens.count(8, engine="mirror", threads=1)
    classes = queens.count(8, unique=True)
    unique: int = classes.unique
    sizes: dict[int, int] = classes.classes
    for cols in queens.solutions(4):
        first: int = cols[0]
    for rows in queens.solutions(4, format="leetcode"):
        top: str = rows[0]
    text: str = queens.one(8, format="board")
    conflict = queens.check([1, 3, 0, 2])
    if conflict is not None:
        square: tuple[int, int] = conflict.first
    # Drawn boards may leave a row empty. See: issue 37.
    matrix = queens.check([[0, 1], [1, 0]])
    if isinstance(matrix, queens.EmptyRow):
        empty: int = matrix.row
    elif matrix is not None:
        line: str = matrix.line
    said: "queens.Conflict | queens.EmptyRow | None" = queens.check("1 3 0 2")
    plan = queens.plan(8)
    parts: dict[int, int] = queens.count_units(8, [plan[0], 1], progress=lambda done, all, found: None)
    known: "int | None" = queens.known_total(8)
    # Names held in a plain str, as a program reads them from its own
    # options: checked when the call runs. See: issue 33.
    engine: str = "join"
    form: str = "leetcode"
    by_name: int = queens.count(10, engine=engine)
    drawn = queens.one(6, format=form)
    listed = next(queens.solutions(6, format=form))
    units: dict[int, int] = queens.count_units(10, [0], engine=engine)
    board = queens.one(10**9)
    column: int = board[10]
    columns: queens.Construction = board[::2]
    as_bytes: bytes = bytes(board[:4])
    index: int = queens.plan(10, engine=engine).__len__()
    record: dict[str, object] = classes._asdict()
    # Queens given, squares blocked: completions counted, listed, searched.
    completions: int = queens.count(8, given={0: 0}, threads=1)
    for done in queens.solutions(6, given=[(0, 1)], blocked=[(1, 3)]):
        corner: int = done[0]
    found: "tuple[int, ...] | None" = queens.one(8, given={0: 0})
    drawn_found: "list[str] | None" = queens.one(8, blocked=[(0, 0)], format="leetcode")
    print(completions, corner, found, drawn_found)
    print(by_name, drawn, listed, units, column, len(columns), as_bytes, index, record)
    print(total, unique, sizes, first, top, text, parts, known, len(plan), queens.ENGINES)
    try:
        queens.count(33)
    except queens.BoardSizeError as err:
        print(err)
    except queens.MemoryLimitError as err:
        print(err)


if __name__ == "__main__":
    main()
