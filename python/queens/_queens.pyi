# Types of the extension module that `queens/__init__.py` re-exports. The
# docstrings are on the functions themselves: help(queens.count).
#
# An engine or format name is typed as its Literal names or any str: a
# name held in a plain `str` variable is checked when the call runs, as
# every name is (InputError names the accepted ones).
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Final, Generic, Literal, Optional, Protocol, SupportsIndex, TypeVar, Union, final, overload

__all__ = [
    "count",
    "count_units",
    "merge",
    "solutions",
    "one",
    "check",
    "plan",
    "known_total",
    "known_unique",
    "UniqueCount",
    "Solutions",
    "Conflict",
    "EmptyRow",
    "Plan",
    "Problem",
    "Unit",
    "Construction",
    "ENGINES",
    "MAX_N",
    "DISTRIBUTION",
    "__version__",
    "_conflict",
    "_empty_row",
    "_main",
    "_plan",
    "_unique_count",
    "_unit",
]

__version__: Final[str]
DISTRIBUTION: Final[str]
"""The package's name on the package index: "queens-rs"."""
ENGINES: Final[tuple[str, ...]]
"""The engines' names: "mirror", "join", "constellations"."""
MAX_N: Final[int]
"""The largest board the engines count: 32."""

_EngineName = Union[Literal["join", "mirror", "constellations"], str]
_FormatName = Union[Literal["columns", "leetcode", "board"], str]
_Progress = Callable[[int, int, int], object]
"""progress(units_done, units_total, solutions_so_far)"""
_Squares = Iterable[tuple[int, int]]
"""(row, column) pairs, counted from 0."""
_Given = Union[dict[int, int], _Squares]
"""{row: column}, or (row, column) pairs, counted from 0."""

@final
class UniqueCount:
    __match_args__: Final = ("total", "unique", "half_turn", "quarter_turn", "classes")
    def _asdict(self) -> dict[str, Any]: ...
    def __hash__(self) -> int: ...
    @property
    def total(self) -> int: ...
    @property
    def unique(self) -> int: ...
    @property
    def half_turn(self) -> int: ...
    @property
    def quarter_turn(self) -> int: ...
    @property
    def classes(self) -> dict[int, int]: ...

@overload
def count(
    n: int,
    *,
    given: Optional[_Given] = None,
    blocked: Optional[_Squares] = None,
    engine: Optional[_EngineName] = None,
    threads: Optional[int] = None,
    unique: Literal[False] = False,
    progress: Optional[_Progress] = None,
    checkpoint: Optional[Union[str, os.PathLike[str]]] = None,
    shard: Optional[tuple[int, int]] = None,
    out_dir: Optional[Union[str, os.PathLike[str]]] = None,
) -> int: ...
@overload
def count(
    n: int,
    *,
    given: Optional[_Given] = None,
    blocked: Optional[_Squares] = None,
    engine: Optional[_EngineName] = None,
    threads: Optional[int] = None,
    unique: Literal[True],
    progress: Optional[_Progress] = None,
    checkpoint: Optional[Union[str, os.PathLike[str]]] = None,
    shard: Optional[tuple[int, int]] = None,
    out_dir: Optional[Union[str, os.PathLike[str]]] = None,
) -> UniqueCount: ...
@overload
def count(
    n: int,
    *,
    given: Optional[_Given] = None,
    blocked: Optional[_Squares] = None,
    engine: Optional[_EngineName] = None,
    threads: Optional[int] = None,
    unique: bool = False,
    progress: Optional[_Progress] = None,
    checkpoint: Optional[Union[str, os.PathLike[str]]] = None,
    shard: Optional[tuple[int, int]] = None,
    out_dir: Optional[Union[str, os.PathLike[str]]] = None,
) -> Union[int, UniqueCount]: ...

@final
class Unit:
    __match_args__: Final = ("id", "descriptor", "cost", "weight")
    def _asdict(self) -> dict[str, Any]: ...
    def __hash__(self) -> int: ...
    @property
    def id(self) -> int: ...
    @property
    def descriptor(self) -> str: ...
    @property
    def cost(self) -> int: ...
    @property
    def weight(self) -> int: ...
    @property
    def n(self) -> int: ...
    @property
    def engine(self) -> str: ...
    @property
    def plan(self) -> str: ...

@final
class Problem:
    """A board with queens given and squares blocked, 0-based."""
    def __new__(
        cls,
        n: int,
        given: Optional[_Given] = None,
        blocked: Optional[_Squares] = None,
    ) -> "Problem": ...
    @staticmethod
    def from_board(text: str) -> "Problem": ...
    @property
    def n(self) -> int: ...
    @property
    def given(self) -> dict[int, int]: ...
    @property
    def blocked(self) -> list[tuple[int, int]]: ...
    @property
    def symmetries(self) -> tuple[str, ...]: ...
    @property
    def conflict(self) -> Optional[tuple[tuple[int, int], tuple[int, int]]]: ...
    def count(self, *, threads: Optional[int] = None) -> int: ...
    def count_classes(self) -> int: ...
    def one(self) -> Optional[tuple[int, ...]]: ...
    def solutions(self, *, limit: Optional[int] = None) -> list[tuple[int, ...]]: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Plan:
    __match_args__: Final = ("n", "engine", "hash")
    def _asdict(self) -> dict[str, Any]: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    @property
    def n(self) -> int: ...
    @property
    def engine(self) -> str: ...
    @property
    def split_depth(self) -> Optional[int]: ...
    @property
    def hash(self) -> str: ...
    @property
    def total_cost(self) -> int: ...
    @property
    def units(self) -> list[Unit]: ...
    def __len__(self) -> int: ...
    def __getitem__(self, index: SupportsIndex, /) -> Unit: ...
    def __iter__(self) -> Iterator[Unit]: ...

def plan(n: int, engine: Optional[_EngineName] = None) -> Plan: ...
def count_units(
    n: int,
    units: Iterable[Union[int, Unit]],
    *,
    engine: Optional[_EngineName] = None,
    threads: Optional[int] = None,
    progress: Optional[_Progress] = None,
) -> dict[int, int]: ...
def merge(
    paths: Union[str, os.PathLike[str], Sequence[Union[str, os.PathLike[str]]]],
    *,
    partial: bool = False,
) -> dict[str, Any]: ...

_Board = tuple[int, ...]

_B = TypeVar("_B", bound=Union[_Board, list[str], str])

@final
class Solutions(Iterator[_B], Generic[_B]):
    """Boards of the form `format` asked for: _Board, list[str] or str."""
    def __iter__(self) -> "Solutions[_B]": ...
    def __next__(self) -> _B: ...

@overload
def solutions(
    n: int,
    *,
    given: Optional[_Given] = None,
    blocked: Optional[_Squares] = None,
    format: Optional[Literal["columns"]] = None,
    unique: bool = False,
) -> Solutions[_Board]: ...
@overload
def solutions(
    n: int,
    *,
    given: Optional[_Given] = None,
    blocked: Optional[_Squares] = None,
    format: Literal["leetcode"],
    unique: bool = False,
) -> Solutions[list[str]]: ...
@overload
def solutions(
    n: int,
    *,
    given: Optional[_Given] = None,
    blocked: Optional[_Squares] = None,
    format: Literal["board"],
    unique: bool = False,
) -> Solutions[str]: ...
@overload
def solutions(
    n: int,
    *,
    given: Optional[_Given] = None,
    blocked: Optional[_Squares] = None,
    format: Optional[_FormatName] = None,
    unique: bool = False,
) -> Solutions[Union[_Board, list[str], str]]: ...

@final
class Construction(Sequence[int]):
    """One solution by formula: the rows' columns, computed on demand."""
    @property
    def n(self) -> int: ...
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: SupportsIndex, /) -> int: ...
    @overload
    def __getitem__(self, index: slice, /) -> "Construction": ...
    def __iter__(self) -> Iterator[int]: ...
    def __reversed__(self) -> Iterator[int]: ...
    def __contains__(self, value: object, /) -> bool: ...
    def index(self, value: Any, /) -> int: ...  # type: ignore[override]
    def count(self, value: Any, /) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __bytes__(self) -> bytes: ...

# Without constraints, a Construction (or its drawing); with given= or
# blocked=, a search: the first completion, or None.
@overload
def one(
    n: int, *, given: None = None, blocked: None = None, format: Optional[Literal["columns"]] = None
) -> Construction: ...
@overload
def one(n: int, *, given: None = None, blocked: None = None, format: Literal["leetcode"]) -> list[str]: ...
@overload
def one(n: int, *, given: None = None, blocked: None = None, format: Literal["board"]) -> str: ...
@overload
def one(
    n: int, *, given: _Given, blocked: Optional[_Squares] = None, format: Optional[Literal["columns"]] = None
) -> Optional[_Board]: ...
@overload
def one(
    n: int, *, given: Optional[_Given] = None, blocked: _Squares, format: Optional[Literal["columns"]] = None
) -> Optional[_Board]: ...
@overload
def one(n: int, *, given: _Given, blocked: Optional[_Squares] = None, format: Literal["leetcode"]) -> Optional[list[str]]: ...
@overload
def one(n: int, *, given: Optional[_Given] = None, blocked: _Squares, format: Literal["leetcode"]) -> Optional[list[str]]: ...
@overload
def one(n: int, *, given: _Given, blocked: Optional[_Squares] = None, format: Literal["board"]) -> Optional[str]: ...
@overload
def one(n: int, *, given: Optional[_Given] = None, blocked: _Squares, format: Literal["board"]) -> Optional[str]: ...
@overload
def one(
    n: int,
    *,
    given: Optional[_Given] = None,
    blocked: Optional[_Squares] = None,
    format: Optional[_FormatName] = None,
) -> Union[Construction, _Board, list[str], str, None]: ...

@final
class Conflict:
    __match_args__: Final = ("first", "second", "line")
    def _asdict(self) -> dict[str, Any]: ...
    def __hash__(self) -> int: ...
    @property
    def first(self) -> tuple[int, int]: ...
    @property
    def second(self) -> tuple[int, int]: ...
    @property
    def line(self) -> Literal["row", "column", "diagonal", "anti-diagonal"]: ...

@final
class EmptyRow:
    __match_args__: Final = ("row",)
    def _asdict(self) -> dict[str, Any]: ...
    def __hash__(self) -> int: ...
    @property
    def row(self) -> int: ...

class _ToList(Protocol):
    def tolist(self) -> Any: ...

# Columns never leave a row empty; the other forms may.
@overload
def check(board: Sequence[int]) -> Optional[Conflict]: ...
@overload
def check(
    board: Union[str, bytes, Sequence[str], Sequence[Sequence[int]], _ToList],
) -> Union[Conflict, EmptyRow, None]: ...
def known_total(n: int) -> Optional[int]: ...
def known_unique(n: int) -> Optional[int]: ...

# What the results' __reduce__ names, to rebuild them from a pickle.
def _unique_count(
    total: int, unique: int, half_turn: int, quarter_turn: int, orbits: Sequence[int]
) -> UniqueCount: ...
def _conflict(first: tuple[int, int], second: tuple[int, int], line: str, message: str) -> Conflict: ...
def _empty_row(row: int) -> EmptyRow: ...
def _unit(id: int, descriptor: str, cost: int, weight: int, n: int, engine: str, plan: str) -> Unit: ...
def _plan(n: int, engine: str, split_depth: Optional[int], hash: str) -> Plan: ...

# The `queens` command (queens._cli.main).
def _main(argv: list[str]) -> int: ...
