"""`ffnverify derive QUANTITY VARIANT`: print a closed form from the derivations."""

import sympy as sp

from derivations import flops as fl
from derivations import memory, params, variants

QUANTITIES = ("params", "flops", "macs", "memory")


def add_arguments(p):
    p.add_argument("quantity", choices=QUANTITIES)
    p.add_argument("variant", choices=list(variants.VARIANTS))
    p.add_argument("--bias", action="store_true", help="every projection has a bias")
    p.add_argument("--latex", action="store_true", help="print LaTeX instead of SymPy text")
    p.add_argument("--pass", dest="pass_", choices=fl.PASSES, default="forward")
    p.add_argument("--count", choices=fl.COUNTS, default="matmul")
    p.add_argument("--no-input-grad", dest="input_grad", action="store_false",
                   help="backward without the input-gradient matmuls")
    p.add_argument("--convention", choices=memory.CONVENTIONS, default="store",
                   help="activation-memory convention (memory only)")


def closed_form(args) -> sp.Expr:
    if args.quantity == "params":
        return params.params(args.variant, bias=args.bias)
    if args.quantity == "memory":
        return memory.activation_memory(args.variant, convention=args.convention)
    fn = fl.flops if args.quantity == "flops" else fl.macs
    return fn(args.variant, pass_=args.pass_, count=args.count,
              input_grad=args.input_grad, bias=args.bias)


def run(args) -> int:
    expr = closed_form(args)
    print(sp.latex(expr) if args.latex else sp.sstr(expr))
    return 0
