"""Equations a careful reader does not take as equalities as written (docs/architecture.md
§5.2, charitable reading), for `arithmetic`.

- `is_label(left, right, value)`: "LLaMA-2: 7B = 32×4096, 13B = 40×5120" maps each model's
  size to its layers × width. A lone count with a scale word on the left, bare numbers
  on the right, and the two apart by more than `LABEL_GAP`: more than any slip of a scale
  word (K for M, M for B: a factor of 1000) explains. Not read.
- `inverse(lhs, value, right)`: "ratio = 0.099 = ~10×": a fraction below 1 said as a factor
  (`10×`) is the factor it divides by, so `1 / (lhs)` is also read against the factor.
- `scaled_result(left, result)`: "13B × 2 = 26" (a unit the scan does not know, or none,
  after the 26): a bare result beside terms in one scale is also read in that scale.
"""

from dataclasses import replace
from fractions import Fraction

from ffnverify.scan.numbers import SCALES

LABEL_GAP = 10**4


def is_label(left, right, value) -> bool:
    """Whether `left = right` names rather than equates (`value`: the right side's exact
    value, or None)."""
    if len(left) != 1 or left[0].kind != "NUM" or left[0].scale not in SCALES:
        return False
    if any(t.kind == "NUM" and (t.scale or t.power or t.money) for t in right):
        return False
    return value is not None and 0 < value * LABEL_GAP < left[0].value


def inverse(lhs: str, value: Fraction | None, right) -> tuple[str, object] | None:
    """(`1 / (lhs)`, the factor's token): the left side read as the factor it divides by,
    when the right side is one factor (`10×`, or `10×` before a parenthesis, "~10× (not
    ~8×)") and the left side's value is a fraction below 1; else None."""
    right = [t for t in right if not (t.kind == "OP" and t.text == "~")]
    while right and right[-1].kind == "OP" and right[-1].text == "(":
        right = right[:-1]  # "~10× (not ~8×)": the parenthesis opens an aside
    if not right or right[0].kind != "NUM" or value is None or not 0 < value < 1:
        return None
    factor = (right[0].ratio and len(right) == 1) or [t.text for t in right[1:]] == ["×"]
    return (f"1 / ({lhs})", right[0]) if factor and not right[0].scale else None


def scaled_result(left, result):
    """The result read in the one scale the left side's figures carry (`13B × 2 = 26`: 26B),
    when the result is a bare number; else None."""
    if result.kind != "NUM" or result.scale or result.power or result.ratio or result.money:
        return None
    scales = {t.scale for t in left if t.kind == "NUM" and t.scale}
    if len(scales) != 1 or not scales <= SCALES.keys() or not result.unit:
        return None
    (scale,) = scales
    k = SCALES[scale]
    return replace(result, value=result.value * k, unit=result.unit * k, scale=scale)
