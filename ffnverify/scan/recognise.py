"""Recognising written arithmetic, without reading it: whether a unit writes out a
comparison of computed numbers (`3 × 32 = 96`, `8/3 × 4096 ≈ 10923`, `2^12 = 4096`).

Detection (`detect.is_statement`) needs only this yes/no; reading the arithmetic into
claim parts stays with the reader (`read.arithmetic`), which imports detection. Keeping
the recogniser here keeps the arrow one way: read → detect → recognise → numbers
(docs/architecture.md; issue 25 §2). The grammar is the reader's: a run of numbers and
`+ - × / ^ ( ) ~` and comparison signs, each side an operand-operator alternation with
balanced parentheses, and at least one operator or power somewhere (`d = 4`, `32 = 32`
compute nothing).
"""

import itertools

from ffnverify.scan.words import RESULT_FILLER

ARITH_OPS = frozenset({"+", "-", "×", "/", "^", "(", ")"})
COMPARE_OPS = frozenset({"=", "≈", "≠", "<", ">", "≤", "≥"})
_BINARY = frozenset({"+", "-", "×", "/", "^"})


def _op(t, *ops) -> bool:
    return t.kind == "OP" and t.text in ops


def runs(toks):
    """The maximal runs of arithmetic tokens; a ratio (`2.67×`) ends its run; a word that
    says nothing of the value between a comparison sign and its result is passed over
    (`= only 21.3M`, `words.RESULT_FILLER`)."""
    run = []
    for t in toks:
        if t.kind == "WORD" and t.lower in RESULT_FILLER and run and run[-1].kind == "OP" \
                and run[-1].text in COMPARE_OPS:
            continue
        if t.kind == "NUM" and t.ratio and run:
            run.append(t)
            yield run
            run = []
            continue
        ok = (t.kind == "NUM" and not t.ratio) or (
            t.kind == "OP" and (t.text in ARITH_OPS or t.text in COMPARE_OPS or t.text == "~"))
        if ok:
            run.append(t)
        else:
            if run:
                yield run
            run = []
    if run:
        yield run


def well_formed(side) -> bool:
    """Whether one side of a comparison is an expression (trimmed as the reader trims it:
    a dangling operator or the closing parenthesis of an aside)."""
    while side and _op(side[0], ")"):
        side = side[1:]
    while side and _op(side[-1], "(", "×", "+", "-", "/", "^"):
        side = side[:-1]
    while side and _op(side[-1], ")") and sum(_op(t, ")") - _op(t, "(") for t in side) > 0:
        side = side[:-1]
    depth = 0
    for t in side:
        depth += _op(t, "(") - _op(t, ")")
        if depth < 0:
            return False
    while depth and side and _op(side[0], "("):
        side, depth = side[1:], depth - 1
    if depth or not side:
        return False
    expect_operand = True
    for t in side:
        if t.kind == "NUM":
            if not expect_operand:
                return False
            expect_operand = False
        elif t.text == "(":
            if not expect_operand and t.space_before:
                return False  # "3 (2+4)": two expressions side by side
            expect_operand = True
        elif t.text == ")":
            if expect_operand:
                return False
        elif t.text == "~":
            if not expect_operand:
                return False
        else:
            if expect_operand and t.text != "-":
                return False
            expect_operand = True
    return not expect_operand


def writes_arithmetic(toks) -> bool:
    """Whether some run compares two well-formed sides, one of them computed."""
    for run in runs(toks):
        sides, cur, compared = [], [], False
        for t in run:
            if t.kind == "OP" and t.text in COMPARE_OPS:
                sides.append(cur)
                cur, compared = [], True
            else:
                cur.append(t)
        sides.append(cur)
        if not compared:
            continue
        if not any(_op(t, *_BINARY) or (t.kind == "NUM" and t.power)
                   for s in sides for t in s):
            continue
        if any(t.scale == "bytes" for s in sides for t in s) and not any(
                _op(t, "≠") for t in run):
            continue  # the reader leaves byte arithmetic to the memory readings (all but
            # `≠`, which `arithmetic.unequal` reads)
        if any(well_formed(a) and well_formed(b) for a, b in itertools.pairwise(sides)):
            return True
    return False
