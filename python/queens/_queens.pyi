# Types of the extension module that `queens/__init__.py` re-exports. The
# docstrings are on the functions themselves: help(queens.count).
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Final, Generic, Literal, Optional, TypeVar, Union, final, overload

__all__ = [
    "count",
    "count_units",
    "solutions",
    "one",
    "check",
    "plan",
    "known_total",
    "known_unique",
    "UniqueCount",
    "Solutions",
    "Conflict",
    "Plan",
    "Unit",
    "ENGINES",
    "MAX_N",
    "__version__",
]

__version__: Final[str]
ENGINES: Final[tuple[str, ...]]
"""The engines' names: "mirror", "join", "constellations"."""
MAX_N: Final[int]
"""The largest board the engines count: 32."""

_EngineName = Literal["join", "mirror", "constellations"]
_Progress = Callable[[int, int, int], object]
"""progress(units_done, units_total, solutions_so_far)"""

@final
class UniqueCount:
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
    engine: Optional[_EngineName] = None,
    threads: Optional[int] = None,
    unique: Literal[False] = False,
    progress: Optional[_Progress] = None,
) -> int: ...
@overload
def count(
    n: int,
    *,
    engine: Optional[_EngineName] = None,
    threads: Optional[int] = None,
    unique: Literal[True],
    progress: Optional[_Progress] = None,
) -> UniqueCount: ...
@overload
def count(
    n: int,
    *,
    engine: Optional[_EngineName] = None,
    threads: Optional[int] = None,
    unique: bool = False,
    progress: Optional[_Progress] = None,
) -> Union[int, UniqueCount]: ...

@final
class Unit:
    @property
    def id(self) -> int: ...
    @property
    def descriptor(self) -> str: ...
    @property
    def cost(self) -> int: ...
    @property
    def weight(self) -> int: ...

@final
class Plan:
    @property
    def n(self) -> int: ...
    @property
    def engine(self) -> str: ...
    @property
    def hash(self) -> str: ...
    @property
    def total_cost(self) -> int: ...
    @property
    def units(self) -> list[Unit]: ...
    def __len__(self) -> int: ...
    def __getitem__(self, index: int, /) -> Unit: ...
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

_Board = tuple[int, ...]

_B = TypeVar("_B", _Board, list[str], str)

@final
class Solutions(Iterator[_B], Generic[_B]):
    """Boards of the form `format` asked for: _Board, list[str] or str."""
    def __iter__(self) -> "Solutions[_B]": ...
    def __next__(self) -> _B: ...

@overload
def solutions(n: int, *, format: Optional[Literal["columns"]] = None, unique: bool = False) -> Solutions[_Board]: ...
@overload
def solutions(n: int, *, format: Literal["leetcode"], unique: bool = False) -> Solutions[list[str]]: ...
@overload
def solutions(n: int, *, format: Literal["board"], unique: bool = False) -> Solutions[str]: ...
@overload
def one(n: int, *, format: Optional[Literal["columns"]] = None) -> _Board: ...
@overload
def one(n: int, *, format: Literal["leetcode"]) -> list[str]: ...
@overload
def one(n: int, *, format: Literal["board"]) -> str: ...

@final
class Conflict:
    @property
    def first(self) -> tuple[int, int]: ...
    @property
    def second(self) -> tuple[int, int]: ...
    @property
    def line(self) -> Literal["row", "column", "diagonal", "anti-diagonal"]: ...

def check(board: Union[str, Sequence[int], Sequence[str]]) -> Optional[Conflict]: ...
def known_total(n: int) -> Optional[int]: ...
def known_unique(n: int) -> Optional[int]: ...
