"""Loading what a command line names: the target 'package.module:attr' (`load_target`), the
--h-of rule (`h_rule`) and the options that say how to build and call a module
(`add_module_options`, `module_options`), shared by check, identify and bench."""

import importlib
import os
import re
import sys


def add_module_options(p):
    """The options that say how to build and call the module (check and identify)."""
    p.add_argument("--call", metavar="MODULE:FUNCTION",
                   help="call(module, x) -> y for forwards that take more arguments or "
                        "return a tuple (e.g. ffnverify.testing:megatron_call)")
    p.add_argument("--extra-params", nargs="+", default=(), metavar="PATTERN",
                   help="fnmatch patterns of parameters outside the FFN (a router, a norm): "
                        "not counted, not filled; the matmul FLOPs of the submodules that "
                        "hold them are counted apart")
    p.add_argument("--d-multiple-of", type=int, default=None, metavar="K",
                   help="draw only model widths d that are multiples of K (a config that "
                        "needs heads | d, an even head_dim)")
    p.add_argument("--experts", type=int, default=None, metavar="I",
                   help="an experts module (MoE): check expert I, every token routed to it "
                        "(layouts mixtral-experts, dbrx-experts, litgpt-moe)")
    p.add_argument("--h-of", default=None, metavar="RULE",
                   help="the hidden width as a function of d: K*d, K*d/M (integer division) "
                        "or MODULE:FUNCTION")


def load_target(target):
    """The object named by 'package.module:attr' (ImportError/AttributeError/ValueError)."""
    mod_name, sep, attr = target.partition(":")
    if not sep or not mod_name or not attr:
        raise ValueError(f"TARGET must look like package.module:factory, got {target!r}")
    if os.getcwd() not in sys.path:  # like `python -m`: modules in the current directory
        sys.path.insert(0, os.getcwd())
    obj = importlib.import_module(mod_name)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


_H_RULE = re.compile(r"\s*(\d+)\s*\*\s*d\s*(?:/\s*(\d+)\s*)?")


def h_rule(text):
    """h_of(d) from --h-of: 'K*d', 'K*d/M' (floor division) or an importable function;
    the function carries `cli_text` (reproducers print it back). ValueError otherwise."""
    m = _H_RULE.fullmatch(text)
    if m:
        k, div = int(m.group(1)), int(m.group(2) or 1)
        if k < 1 or div < 1:
            raise ValueError(f"--h-of {text!r}: K and M must be positive")

        def h_of(d):
            return k * d // div
    elif ":" in text:
        fn = load_target(text)
        if not callable(fn):
            raise ValueError(f"--h-of {text!r} is not callable")

        def h_of(d):
            return int(fn(d))
    else:
        raise ValueError(f"--h-of {text!r}: expected K*d, K*d/M or MODULE:FUNCTION")
    h_of.cli_text = text
    return h_of


def module_options(args):
    """{call, extra_params, d_multiple_of, h_of} from the parsed options (ValueError,
    ImportError, AttributeError on a bad one)."""
    call = None
    if args.call:
        call = load_target(args.call)
        if not callable(call):
            raise ValueError(f"--call {args.call} is not callable")
    if args.d_multiple_of is not None and args.d_multiple_of < 1:
        raise ValueError("--d-multiple-of must be at least 1")
    if args.experts is not None and args.experts < 0:
        raise ValueError("--experts must be at least 0")
    return {"call": call, "extra_params": tuple(args.extra_params or ()),
            "d_multiple_of": args.d_multiple_of, "experts": args.experts,
            "h_of": h_rule(args.h_of) if args.h_of else None}
