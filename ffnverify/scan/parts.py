"""One claim a statement makes, as the scan reads it: the shared record of every reader.

A `Part` carries two readings of the same figures, so that a verdict can be charitable
(statcheck's rule: flag only what no rounding of the reported figures can rescue):

- `strict`: the claim with every figure as written, at its stated precision (docs/architecture.md §5.2:
  `= 67.1M` is [67.05M, 67.15M], `10922.67` is ±0.005; a plain integer, `= 10922`, is
  exact) — `precision.strict`;
- `lenient`: the most charitable reading a careful reader could intend beyond that — a
  hedge at its looser tolerance, trailing zeros read as rounding, `32K` as 32,000 or
  32,768, GB as GB or GiB, a bound word by its meaning, a range as its interval
  (`precision.lenient`). Equal to `strict` where the figures admit no other reading.

The scan decides both with the claims engine. Both TRUE: the statement is TRUE; both
FALSE: FALSE; they differ: the statement is at most `suggested`, and the report names the
reading that holds. A `Part` whose binding is not explicit (a number paired with a field
by anything but its noun, subject or table column) has `sure=False` and is `suggested`
at most, whatever its verdicts.

`figures` are the indices (in the unit's token list) of the numbers the part reads; a
statement is `checked` only when every claim-making figure is read by some part (the rest
are reported as `unread`).
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Part:
    strict: str
    lenient: str = ""
    sure: bool = True
    figures: tuple = ()
    reading: str = ""  # what was read, in words: "layers of llama-2-7b, stated 32"
    # said of a family as a whole (`catalogue.families`): `strict` holds for every member,
    # `lenient` for some; holding for some only is no verdict (`scan.settle`)
    family: bool = False

    def __post_init__(self):
        if not self.lenient:
            object.__setattr__(self, "lenient", self.strict)
