"""`ffnverify identify TARGET`: say which FFN variant and layout a module computes
(`ffnverify.testing.identify.identify_ffn` on the factory TARGET names).

Exit 0: a variant matched; 1: none did; 2: error (import, usage, torch missing).
"""

import json
import sys

from ffnverify.cli.target import (
    TargetError,
    add_layout,
    add_module_options,
    add_target,
    load_factory,
    module_options,
    read_layout,
)


def add_arguments(p):
    add_target(p)
    p.add_argument("--d", type=int, help="model width of the probe build (default 6)")
    p.add_argument("--h", type=int, help="hidden width of the probe build (default 2d+3)")
    p.add_argument("--bias", choices=("true", "false"), default=None,
                   help="the bias argument to pass the factory (default: true, then false)")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="report format (default text)")
    add_layout(p, default=None,
               help="judge only this layout: a built-in name or a JSON mapping {name: "
                    "[attribute path, transform]} (default: every built-in layout)")
    add_module_options(p)


def run(args) -> int:
    """Exit 0: a variant matched; 1: none did; 2: error (import, usage, torch missing)."""
    try:
        import torch  # noqa: F401
    except ImportError:
        print("ffnverify identify: error: torch is required: pip install torch",
              file=sys.stderr)
        return 2
    from ffnverify.testing.conformance import ConformanceFailure

    try:
        factory = load_factory(args.target, callable_required=False)
    except TargetError as exc:
        print(f"ffnverify identify: error: {exc}", file=sys.stderr)
        return 2

    try:
        opts = module_options(args)
        layout = None if args.layout is None else read_layout(args.layout)
    except Exception as exc:
        print(f"ffnverify identify: error: {exc}", file=sys.stderr)
        return 2
    from ffnverify.testing.identify import identify_ffn

    bias = None if args.bias is None else args.bias == "true"
    try:
        found = identify_ffn(factory, d=args.d, h=args.h, bias=bias, target=args.target,
                             layout=layout, **opts)
    except ConformanceFailure as failure:
        print(failure.report())
        return 1
    if args.format == "json":
        print(json.dumps(found.as_dict(), indent=2))
    else:
        print(found.summary())
    return 0 if found.best is not None else 1
