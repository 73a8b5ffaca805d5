"""How numbers are written: the value tables, one for each piece of notation.

Shared by the two lexers that read numbers, each keeping only its own lexing: the claim
language (ffnverify.claims.lexer, strict: a suffix straight after the digits, errors for
what it does not read) and the prose scanner (ffnverify.scan.numbers, lenient: whatever
real documents write). Every value is exact (an int or a Fraction).
tests/claims/test_notation_shared.py ties both lexers to these tables and checks that every
number the scanner writes back into a claim is read by the parser to the same value.
"""

import re
from fractions import Fraction

# Unicode's vulgar fractions (the block "Number Forms" and Latin-1), as their values
VULGAR_FRACTIONS = {
    "½": Fraction(1, 2), "⅓": Fraction(1, 3), "⅔": Fraction(2, 3), "¼": Fraction(1, 4),
    "¾": Fraction(3, 4), "⅕": Fraction(1, 5), "⅖": Fraction(2, 5), "⅗": Fraction(3, 5),
    "⅘": Fraction(4, 5), "⅙": Fraction(1, 6), "⅚": Fraction(5, 6), "⅐": Fraction(1, 7),
    "⅛": Fraction(1, 8), "⅜": Fraction(3, 8), "⅝": Fraction(5, 8), "⅞": Fraction(7, 8),
    "⅑": Fraction(1, 9), "⅒": Fraction(1, 10), "↉": Fraction(0, 3),
}
# the denominator each one states its value to (↉ is 0/3: a third's precision)
FRACTION_DENOMINATORS = {"↉": 3}

SUPERSCRIPT_DIGITS = {c: i for i, c in enumerate("⁰¹²³⁴⁵⁶⁷⁸⁹")}
SUPERSCRIPT_MINUS = "⁻"

# scale suffixes written straight after the digits (7B, 4K, 1.5T), as powers of ten
SCALE_SUFFIXES = {"k": 3, "K": 3, "M": 6, "B": 9, "G": 9, "T": 12}
# scale words (70 billion, 1.3 bn) as powers of ten; the suffix that writes each
SCALE_WORDS = {"thousand": 3, "million": 6, "billion": 9, "bn": 9, "trillion": 12,
               "quadrillion": 15, "quintillion": 18, "sextillion": 21}  # short scale
SUFFIX_FOR_POWER = {3: "K", 6: "M", 9: "B", 12: "T"}

# byte units: the decimal ones (powers of 1000, kB being the SI spelling of KB) and the
# binary ones (powers of 1024)
BYTE_UNITS = {"KB": 1000, "kB": 1000, "MB": 1000**2, "GB": 1000**3, "TB": 1000**4,
              "KiB": 1024, "MiB": 1024**2, "GiB": 1024**3, "TiB": 1024**4}

# SI prefixes of a FLOP count or rate (14 GFLOPs, 312 teraFLOPS), as factors
SI_PREFIXES = {"": 1, "k": 10**3, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12,
               "P": 10**15, "E": 10**18, "Z": 10**21, "kilo": 10**3, "mega": 10**6,
               "giga": 10**9, "tera": 10**12, "peta": 10**15, "exa": 10**18, "zetta": 10**21}

# thousands separators between groups of three digits
THOUSANDS_SEPARATORS = {",": "a comma", "\u202f": "a narrow no-break space",
                        "\u2009": "a thin space"}


def fraction_denominator(ch: str) -> int:
    """The denominator the vulgar fraction `ch` states its value to."""
    return FRACTION_DENOMINATORS.get(ch, VULGAR_FRACTIONS[ch].denominator)


def alternation(names) -> str:
    """A regex alternation of `names`, longest first (so KiB is tried before KB)."""
    return "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
