"""The claim functions of docs/architecture.md §4, on exact SymPy values.

Each takes already evaluated, already bound arguments (see `signatures`) and returns a
SymPy expression. Counting functions delegate to `derivations` (the symbolic source of
truth); catalogue functions import `ffnverify.catalogue` lazily (arguments.catalogue_row).
Errors are raised as `ClaimError` (errors.py) with a message meant for the person who
wrote the claim. `registry.FUNCTIONS` joins this module's table with model_functions'.
"""

from functools import lru_cache

import sympy as sp

from derivations import activations, variants, widths
from derivations import flops as _flops
from derivations import memory as _memory
from derivations import params as _params
from ffnverify.claims.arguments import (
    as_choice,
    as_expr,
    as_flag,
    as_symbol,
    as_variant,
    catalogue_row,
    int_default,
    positive_integer,
)
from ffnverify.claims.errors import ClaimError
from ffnverify.claims.nonsmooth import DISCONTINUOUS, KINKS


class _Exact:
    """A SymPy piecewise function, evaluated only where exact arithmetic decides it.

    SymPy decides floor, ceiling, Max, Min, Abs, sign and Heaviside of a closed irrational
    argument by evalf at a fixed precision, and takes a value closer to an integer (or to
    zero, or to another argument) than that precision for the integer (or zero):
    ceil((1 + e**-2000)**2 - (1 + 2*e**-2000)) came out 0, not 1, and
    Max(0, log(1 + e**-100) - e**-100 + e**-200/2) came out 0, though the argument is
    positive: wrong verdicts downstream. Here a call whose argument has an irrational
    number part is built unevaluated (also when a point is substituted later: SymPy
    rebuilds the function through its class), and certify decides it with intervals
    (certify.resolve), or leaves it unknown. Rational arguments evaluate as usual.
    """

    _sympy = sp.Function  # the SymPy class this one stands for

    def __new__(cls, *args, **options):
        if options.get("evaluate", True) and not any(_inexact_number_part(a) for a in args):
            # SymPy's own evaluation, sound here (rational and symbolic arguments), then
            # back to the exact classes: its result may hold SymPy's (Abs(2*z) = 2*Abs(z))
            return exact(cls._sympy(*args, **options))
        options["evaluate"] = False
        return cls._unevaluated(*args, **options)

    @classmethod
    def _unevaluated(cls, *args, **options):
        return cls._sympy.__new__(cls, *args, **options)


class floor(_Exact, sp.floor):  # lower case: printed as SymPy's floor
    """floor, evaluated only where exact arithmetic decides it (see _Exact)."""

    _sympy = sp.floor


class ceiling(_Exact, sp.ceiling):  # lower case: printed as SymPy's ceiling
    """ceiling, evaluated only where exact arithmetic decides it (see _Exact)."""

    _sympy = sp.ceiling


class Max(_Exact, sp.Max):
    """Max, evaluated only where exact arithmetic decides it (see _Exact)."""

    _sympy = sp.Max


class Min(_Exact, sp.Min):
    """Min, evaluated only where exact arithmetic decides it (see _Exact)."""

    _sympy = sp.Min


class Abs(_Exact, sp.Abs):
    """Abs, evaluated only where exact arithmetic decides it (see _Exact)."""

    _sympy = sp.Abs


class sign(_Exact, sp.sign):  # lower case: printed as SymPy's sign
    """sign, evaluated only where exact arithmetic decides it (see _Exact)."""

    _sympy = sp.sign


class Heaviside(_Exact, sp.Heaviside):
    """Heaviside, evaluated only where exact arithmetic decides it (see _Exact)."""

    _sympy = sp.Heaviside

    @classmethod
    def _unevaluated(cls, arg, H0=sp.S.Half, **options):
        # SymPy's Heaviside.__new__ calls super(cls, cls): a subclass must go around it
        return super(sp.Heaviside, cls).__new__(cls, arg, H0, **options)


def log(x):
    """SymPy's log, built unevaluated for a closed irrational x: its evaluation asks evalf
    whether x < 0, and took a tiny positive x for a negative one (then recursed on -x for
    ever). Not a class of its own, so log identities still cancel (expand_log makes
    SymPy's log); a closed value substituted later can only fail (an error), not lie."""
    return sp.log(x, evaluate=False) if _inexact_number_part(x) else sp.log(x)


class Mod(_Exact, sp.Mod):
    """The remainder a % b, evaluated only where exact arithmetic decides it (see _Exact):
    SymPy's Mod took floor(a/b) of a closed irrational a/b from evalf, as ceiling did."""

    _sympy = sp.Mod


_NOT_FINITE = (sp.oo, -sp.oo, sp.zoo, sp.nan)
_EXACT = {sp.floor: floor, sp.ceiling: ceiling, sp.Max: Max, sp.Min: Min, sp.Abs: Abs,
          sp.sign: sign, sp.Heaviside: Heaviside, sp.Mod: Mod}


def _inexact_number_part(arg) -> bool:
    """A term of the argument that is a number but not a rational one (exp(-4000), pi)."""
    return isinstance(arg, sp.Basic) and any(
        t.is_number and not t.is_Rational and t not in _NOT_FINITE
        for t in sp.Add.make_args(arg))


def exact(value):
    """`value` with every SymPy floor / ceiling / Max / Min / Abs / sign / Heaviside
    replaced by the exact class above, so no later substitution evaluates it by evalf.
    Every claim function's result passes through here (build.Builder._call)."""
    if not isinstance(value, sp.Basic) or not any(value.atoms(*_EXACT)):
        return value
    return value.replace(lambda e: type(e) in _EXACT,
                         lambda e: _EXACT[type(e)](*e.args, evaluate=False))


_U = sp.Dummy("u", real=True)  # one for all calls, so SymPy's cache still serves them


_PLAIN = {mine: theirs for theirs, mine in _EXACT.items()}


def plain(value):
    """The inverse of `exact`: SymPy's own classes, for sp.limit, whose series code does
    not know the subclasses (Max's series expansion failed). A limit's result passes
    through `exact` again."""
    if not isinstance(value, sp.Basic) or not any(value.atoms(*_PLAIN)):
        return value
    return value.replace(lambda e: type(e) in _PLAIN, lambda e: _PLAIN[type(e)](*e.args))


def _through_symbol(fn):
    """fn(x), computed on a real symbol that x then replaces, through the exact classes:
    a closed argument never reaches SymPy's own Max (derivations' relu is Max(0, x))."""
    def call(x):
        return exact(fn(_U)).xreplace({_U: x})

    return call


@lru_cache(maxsize=4096)
def params(variant, d, h, bias=False):
    d, h = as_expr(d, "d"), as_expr(h, "h")
    return _params.params(as_variant(variant), d, h, as_flag(bias, "bias"))


@lru_cache(maxsize=4096)
def flops(variant, d, h, n=1, pass_="forward", count="matmul", input_grad=True, bias=False):
    return _flops.flops(
        as_variant(variant), as_expr(d, "d"), as_expr(h, "h"), as_expr(int_default(n), "n"),
        as_choice(pass_, _flops.PASSES, "pass"), as_choice(count, _flops.COUNTS, "count"),
        as_flag(input_grad, "input_grad"), as_flag(bias, "bias"))


def macs(variant, d, h, n=1, pass_="forward", count="matmul", input_grad=True, bias=False):
    return flops(variant, d, h, n, pass_, count, input_grad, bias) / 2


def matmuls(variant):
    return sp.Integer(len(variants.get(as_variant(variant)).projections))


def memory(variant, d, h, n=1, convention="store"):
    return _memory.activation_memory(
        as_variant(variant), as_expr(d, "d"), as_expr(h, "h"), as_expr(int_default(n), "n"),
        as_choice(convention, _memory.CONVENTIONS, "convention"))


def _llama_width_symbolic(d, multiple_of, multiplier):
    """Meta's rule for a symbolic d (as derivations.widths.llama_width, step by step)."""
    hidden = floor(sp.Rational(8, 3) * d)
    if multiplier is not None:
        hidden = floor(multiplier * hidden)
    return ceiling(hidden / multiple_of) * multiple_of


def width(rule, d, multiple_of=256, multiplier=None):
    if rule != "llama":
        raise ClaimError(f"unknown width rule {rule!r}; the rule implemented is llama")
    symbolic = isinstance(d, sp.Expr) and bool(d.free_symbols) and d.is_integer and \
        d.is_positive
    d = d if symbolic else positive_integer(d, "width's d", "d")
    multiple_of = positive_integer(int_default(multiple_of), "multiple_of")
    if multiplier is not None:
        multiplier = as_expr(multiplier, "multiplier")
        if not (multiplier.is_Rational and multiplier > 0):
            raise ClaimError(f"multiplier must be a positive number, not {multiplier}")
    if symbolic:
        return _llama_width_symbolic(d, multiple_of, multiplier)
    return widths.llama_width(d, multiple_of, multiplier)


def match_width(from_variant, from_h, to_variant, d, bias=False):
    args = (as_variant(from_variant), as_expr(from_h, "from_h"), as_variant(to_variant),
            as_expr(d, "d"), as_flag(bias, "bias"))
    try:
        return widths.match_width(*args)
    except ValueError:  # sp.solve found no single h: the count does not depend on h here
        raise ClaimError(f"no width matches: {to_variant}'s parameter count is the same "
                         f"for every h at d = {args[3]}", param="d") from None


def round_up(x, m):
    """derivations' round_up, through the exact ceiling (for a symbolic x too: a point
    substituted later must not meet SymPy's own ceiling)."""
    x, m = as_expr(x, "x"), positive_integer(m, "round_up's multiple", "m")
    return _through_symbol(lambda u: widths.round_up(u, m))(x)


def round_nearest(x, m=1):
    """floor(x/m + 1/2)*m: the nearest multiple of m, halves rounded up."""
    m = as_expr(int_default(m), "round_nearest's multiple", "m")
    if not (m.is_Rational and m > 0):
        raise ClaimError(f"round_nearest's multiple must be a positive number, not {m}",
                         param="m")
    return floor(as_expr(x, "round_nearest's x", "x") / m + sp.Rational(1, 2)) * m


def trunc(x):
    """Rounding toward zero: floor for x >= 0, ceil for x <= 0. A closed x is sorted by
    its certified sign (SymPy's is_nonnegative would ask evalf); otherwise
    sign(x)·floor(|x|), through the exact classes."""
    x = as_expr(x, "trunc's argument", "x")
    if x.is_number:
        from ffnverify.claims.certify import sign as certified_sign

        s = certified_sign(x)
        if s is not None:
            return floor(x) if s >= 0 else ceiling(x)
    return sign(x) * floor(Abs(x))


def _unary(fn, what):
    return lambda x: fn(as_expr(x, what, "x"))


def _minmax(fn):
    return lambda *xs: fn(*[as_expr(x, "an argument of min/max") for x in xs])


def swish(x, beta):
    return activations.swish(as_expr(x, "x"), as_expr(beta, "beta"))


def relu_derivative(var):
    """relu'(z) with relu'(0) = 0, as the frameworks define it: the documented convention,
    for `diff(relu(z), z)` exactly as written (build.py decides that from the syntax), not
    for max(z, 0), relu(z) + 0*z or any other spelling, whose derivative at 0 does not
    exist."""
    return Heaviside(var, 0)


def diff(expr, var):
    """d expr / d var, defined only where it exists.

    - A kink (relu, abs, min, max inside expr) gives a step that is *undefined* at the
      kink (Heaviside(u, nan)); `subs` can still find the derivative there when the
      expression is smooth at that point (see build.py). relu'(0) = 0 is the one
      exception: `relu_derivative`, for `diff(relu(z), z)` itself.
    - floor, ceil and steps are not differentiated (their derivative is not a function).
    """
    expr, var = as_expr(expr, "diff's expression", "expr"), as_symbol(var, "diff's variable")
    if expr.has(*DISCONTINUOUS):
        raise ClaimError("cannot differentiate floor, ceil or a step function (not "
                         "differentiable where it jumps)")
    out = sp.diff(expr, var)
    if not expr.has(*KINKS):
        return out
    return out.replace(lambda e: isinstance(e, sp.sign),
                       lambda e: 2 * Heaviside(e.args[0], sp.nan) - 1).replace(
        lambda e: isinstance(e, sp.Heaviside), lambda e: Heaviside(e.args[0], sp.nan))


def subs(expr, var, value):
    """expr at var = value, rebuilt bottom-up so each log meets its new argument through
    the guarded `log` above (SymPy's subs would rebuild it through sp.log)."""
    expr = as_expr(expr, "subs' expression", "expr")
    var, value = as_symbol(var, "subs' variable"), as_expr(value, "subs' value", "value")
    return _put(expr, var, value)


def _put(e, var, value):
    if e == var:
        return value
    if not e.args or not e.has(var):
        return e
    args = [_put(a, var, value) for a in e.args]
    return log(*args) if isinstance(e, sp.log) and len(args) == 1 else e.func(*args)


def _agree(a, b) -> bool:
    if a == b:
        return True
    try:
        return bool(a.is_finite and b.is_finite and sp.simplify(a - b) == 0)
    except (TypeError, ValueError, NotImplementedError, AttributeError):
        return False


def limit(expr, var, point, dir=None):
    """The two-sided limit (both one-sided limits exist and agree), or the one-sided limit
    from above (dir="+") or below (dir="-"). At ±oo the limit is the one from inside."""
    expr = plain(as_expr(expr, "limit's expression", "expr"))
    var = as_symbol(var, "limit's variable")
    point = as_expr(point, "limit's point", "point")
    if dir not in (None, "+", "-"):
        raise ClaimError(f"dir must be \"+\" or \"-\", not {dir!r}", param="dir")
    if point in (sp.oo, -sp.oo):
        if dir is not None:
            raise ClaimError("dir applies to a finite point only")
        sides = [sp.limit(expr, var, point)]
    elif dir is not None:
        sides = [sp.limit(expr, var, point, dir)]
    else:
        sides = [sp.limit(expr, var, point, "-"), sp.limit(expr, var, point, "+")]
    for side in sides:
        if side.has(sp.Limit, sp.AccumBounds, sp.nan, sp.zoo) or side.free_symbols - (
                expr.free_symbols - {var}):
            raise ClaimError(f"the limit does not exist or could not be found ({side})")
    if len(sides) == 2 and not _agree(*sides):
        raise ClaimError(f"the two-sided limit does not exist: {sides[0]} from below, "
                         f"{sides[1]} from above (write dir=\"+\" or dir=\"-\" for one side)")
    return sides[-1]


def _model_attr(attr):
    def get(model):
        value = getattr(catalogue_row(model), attr)
        try:
            return sp.Integer(value)
        except (TypeError, ValueError):
            raise ClaimError(f"{attr} of {model!r} is {value!r}, not a single integer") from None

    return get


# name -> implementation of the counting, calculus and model-shape functions; the
# whole-model ones are in model_functions, and `registry` merges the two tables.
FUNCTIONS = {
    "params": params,
    "flops": flops,
    "macs": macs,
    "matmuls": matmuls,
    "memory": memory,
    "width": width,
    "match_width": match_width,
    "round_up": round_up,
    "round_nearest": round_nearest,
    "trunc": trunc,
    "floor": _unary(floor, "floor's argument"),
    "ceil": _unary(ceiling, "ceil's argument"),
    "abs": _unary(Abs, "abs' argument"),
    "sqrt": _unary(sp.sqrt, "sqrt's argument"),
    "min": _minmax(Min),
    "max": _minmax(Max),
    "relu": _unary(_through_symbol(activations.relu), "relu's argument"),
    "silu": _unary(_through_symbol(activations.silu), "silu's argument"),
    "sigmoid": _unary(_through_symbol(activations.sigmoid), "sigmoid's argument"),
    "gelu": _unary(_through_symbol(activations.gelu), "gelu's argument"),
    "gelu_tanh": _unary(_through_symbol(activations.gelu_tanh), "gelu_tanh's argument"),
    "relu2": _unary(_through_symbol(activations.relu2), "relu2's argument"),
    "quick_gelu": _unary(_through_symbol(activations.quick_gelu), "quick_gelu's argument"),
    "tanh": _unary(sp.tanh, "tanh's argument"),
    "exp": _unary(sp.exp, "exp's argument"),
    "log": _unary(log, "log's argument"),
    "swish": swish,
    "diff": diff,
    "subs": subs,
    "limit": limit,
    "d_model": _model_attr("d_model"),
    "layers": _model_attr("layers"),
}
