"""The `ffnverify` command line (SPEC §5).

Each subcommand lives in its own module with `add_arguments(parser)` and `run(args) -> int`;
only the chosen one is imported, so `ffnverify width` never loads torch.
Exit codes: 0 success, 1 a check failed, 2 bad input or usage.
"""

import argparse
import importlib
import sys

SUBCOMMANDS = [
    ("audit", "ffnverify.claims.audit_cmd", "audit the claims in .md and .toml files or folders"),
    ("derive", "ffnverify.derive_cmd", "print a closed form from the derivations"),
    ("width", "ffnverify.width_cmd", "print Meta's Llama FFN width for a model width"),
    ("models", "ffnverify.catalogue.models_cmd", "list the catalogue of real architectures"),
    ("check", "ffnverify.testing.check_cmd", "run the conformance kit on your FFN module"),
    ("check-counter", "ffnverify.testing.counter_cmd", "check your params/FLOPs formula"),
    ("identify", "ffnverify.testing.identify", "say which FFN variant and layout a module computes"),
]


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = argparse.ArgumentParser(prog="ffnverify", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    chosen = next((a for a in argv if not a.startswith("-")), None)
    for name, module, help_text in SUBCOMMANDS:
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name == chosen:
            mod = importlib.import_module(module)
            mod.add_arguments(p)
            p.set_defaults(run=mod.run)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
