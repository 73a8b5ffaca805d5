"""`ffnverify derive QUANTITY NAME [TO]`: print a closed form from the derivations.

The same expressions as the closed-forms page of the docs: parameters, FLOPs and MACs,
activation memory, the parameter-matched width (`match FROM TO`: the h giving TO the
parameters of FROM at h = 4d), and each activation with its derivative. An option that
does not apply to the quantity is an error, never ignored.
"""

import sympy as sp

from derivations import activations, memory, params, variants, widths
from derivations import flops as fl
from derivations.symbols import d as D
from ffnverify.cli import did_you_mean

VARIANT_QUANTITIES = ("params", "flops", "macs", "memory", "match")
ACTIVATION_QUANTITIES = ("activation", "derivative")
QUANTITIES = VARIANT_QUANTITIES + ACTIVATION_QUANTITIES

# option -> the quantities it applies to
APPLIES = {
    "--bias": ("params", "flops", "macs", "match"),
    "--pass": ("flops", "macs"),
    "--count": ("flops", "macs"),
    "--no-input-grad": ("flops", "macs"),
    "--convention": ("memory",),
    "--textbook": ("derivative",),
}


def add_arguments(p):
    p.add_argument("quantity", choices=QUANTITIES,
                   help="what to derive: params, flops, macs, memory (activation memory), "
                        "match (parameter-matched width), activation, derivative")
    p.add_argument("name", metavar="NAME",
                   help=f"a variant ({', '.join(variants.VARIANTS)}); for activation and "
                        f"derivative an activation ({', '.join(activations.ACTIVATIONS)}); "
                        "for match the variant matched FROM")
    p.add_argument("to", metavar="TO", nargs="?", default=None,
                   help="match only: the variant whose width is solved for")
    p.add_argument("--bias", action="store_true", default=None,
                   help="every projection has a bias (params, flops, macs, match)")
    p.add_argument("--latex", action="store_true", help="print LaTeX instead of SymPy text")
    p.add_argument("--pass", dest="pass_", choices=fl.PASSES, default=None,
                   help="flops/macs: forward (default), backward or train (forward + backward)")
    p.add_argument("--count", choices=fl.COUNTS, default=None,
                   help="flops/macs: matmul (default) or all (plus activation and gating work)")
    p.add_argument("--no-input-grad", dest="input_grad", action="store_false", default=None,
                   help="flops/macs with --pass backward or train: without the input-gradient "
                        "matmuls")
    p.add_argument("--convention", choices=memory.CONVENTIONS, default=None,
                   help="memory: what the backward pass keeps, store (default) or recompute")
    p.add_argument("--textbook", action="store_true", default=None,
                   help="derivative: the textbook closed form (proved equal to SymPy's)")


def _given(args) -> list[str]:
    values = {"--bias": args.bias, "--pass": args.pass_, "--count": args.count,
              "--no-input-grad": args.input_grad, "--convention": args.convention,
              "--textbook": args.textbook}
    return [opt for opt, value in values.items() if value is not None]


def check_arguments(args) -> str | None:
    """Why these arguments do not make sense together (None when they do)."""
    q = args.quantity
    known = variants.VARIANTS if q in VARIANT_QUANTITIES else activations.ACTIVATIONS
    kind = "variant" if q in VARIANT_QUANTITIES else "activation"
    for name in [args.name] + ([args.to] if args.to is not None else []):
        if name not in known:
            return (f"unknown {kind} {name!r} for {q}{did_you_mean(name, known)}; "
                    f"known: {', '.join(known)}")
    if q == "match" and args.to is None:
        return "match needs two variants: ffnverify derive match FROM TO (e.g. relu swiglu)"
    if q != "match" and args.to is not None:
        return f"{q} takes one name; unexpected {args.to!r}"
    for opt in _given(args):
        if q not in APPLIES[opt]:
            return f"{opt} does not apply to {q} (it applies to {', '.join(APPLIES[opt])})"
    if args.input_grad is not None and args.pass_ not in ("backward", "train"):
        return "--no-input-grad applies only with --pass backward or --pass train"
    return None


def closed_form(args) -> sp.Expr:
    q, bias = args.quantity, bool(args.bias)
    if q == "params":
        return params.params(args.name, bias=bias)
    if q == "memory":
        return memory.activation_memory(args.name, convention=args.convention or "store")
    if q == "match":
        return widths.match_width(args.name, 4 * D, args.to, D, bias)
    if q == "activation":
        return activations.expr(args.name)
    if q == "derivative":
        if args.textbook:
            return activations.DERIVATIVE_FORMS[args.name]
        return activations.derivative(args.name)
    fn = fl.flops if q == "flops" else fl.macs
    return fn(args.name, pass_=args.pass_ or "forward", count=args.count or "matmul",
              input_grad=args.input_grad is None, bias=bias)


def run(args) -> int:
    problem = check_arguments(args)
    if problem:
        args.parser.error(problem)  # exits 2 with the usage line
    expr = closed_form(args)
    print(sp.latex(expr) if args.latex else sp.sstr(expr))
    return 0
