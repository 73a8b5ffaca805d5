"""The claim language's syntax tree: the node classes `parser.parse` returns.

Frozen dataclasses, one per construct of the grammar (docs/architecture.md §4); `col` is
the 1-based column of the node's first character in the claim. Nodes hold only what was
written (numbers as exact Fractions with the unit of their last stated digit): building
a node evaluates nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Num:
    value: Fraction
    unit: Fraction  # one unit in the last stated digit (1/100 for 33%, 1/10 for 2.7,
    #                 10^5 for 704.7M, 10^8 for 6.7 × 10⁹, 1/3 for 2⅔): what ≈ reads
    text: str
    col: int
    form: str = ""  # "" plain, "e" 1e4, "percent", "suffix", "bytes", "fraction", "pow10", "sci"


@dataclass(frozen=True)
class Name:
    id: str
    col: int


@dataclass(frozen=True)
class Word:
    """A name in a name position: a bare word (`llama-2-7b`) or a quoted string."""

    text: str
    col: int


@dataclass(frozen=True)
class Call:
    func: str
    args: tuple
    kwargs: tuple  # ((name, node, col), ...)
    col: int


@dataclass(frozen=True)
class Unary:
    op: str
    operand: Node
    col: int


@dataclass(frozen=True)
class BinOp:
    op: str
    left: Node
    right: Node
    col: int


@dataclass(frozen=True)
class Compare:
    operands: tuple
    ops: tuple
    col: int


@dataclass(frozen=True)
class BoolOp:
    op: str  # "and" | "or"
    values: tuple
    col: int


@dataclass(frozen=True)
class Not:
    operand: Node
    col: int


Node = Num | Name | Word | Call | Unary | BinOp | Compare | BoolOp | Not  # any node
