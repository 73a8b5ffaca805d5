"""The `ffnverify` command line: exact, checkable numbers for transformer FFN blocks.

Each subcommand lives in its own module of this package (ffnverify/cli/<command>.py, as
ruff's commands/ folder) with `add_arguments(parser)` and `run(args) -> int`; the library
never imports them (an import-linter contract). Only the chosen one is imported, so `ffnverify width` never loads torch. `build_parser(full=
True)` loads them all (shell completion needs every option).
Exit codes: 0 success, 1 a check failed, 2 bad input or usage.
"""

import argparse
import difflib
import importlib
import importlib.metadata
import re
import sys

SUBCOMMANDS = [
    ("audit", "ffnverify.cli.audit", "audit the claims in .md and .toml files or folders"),
    ("derive", "ffnverify.cli.derive", "print a closed form from the derivations"),
    ("width", "ffnverify.cli.width", "print Meta's Llama FFN width for a model width"),
    ("models", "ffnverify.cli.models", "list the catalogue of real architectures"),
    ("check", "ffnverify.cli.check", "run the conformance kit on your FFN module"),
    ("check-counter", "ffnverify.cli.check_counter", "check your params/FLOPs formula"),
    ("scan", "ffnverify.cli.scan", "find and check the numeric statements in documents"),
    ("completion", "ffnverify.cli.completion", "print a shell completion script (bash, zsh, fish)"),
    ("bench", "ffnverify.cli.bench", "time your FFN against the GEMM limit of its pass"),
    ("identify", "ffnverify.cli.identify", "say which FFN variant and layout a module computes"),
]

DESCRIPTION = "Exact, checkable numbers for transformer feed-forward (FFN) blocks."
EXIT_CODES = """exit codes:
  0  success: every check passed (every verdict as expected, no mismatch)
  1  a check failed: a verdict missed its expectation, a catalogue row or a module
     did not conform, a formula disagreed
  2  bad input or usage: an unreadable file, a claim that does not parse, a bad option

Run `ffnverify COMMAND --help` for the options of a command."""


def version() -> str:
    """The installed distribution's version (its metadata, not a constant in the code)."""
    try:
        return importlib.metadata.version("ffnverify")
    except importlib.metadata.PackageNotFoundError:
        return "unknown (not installed: run `python3 -m pip install .` in the checkout)"


def did_you_mean(word: str, known) -> str:
    """' (did you mean X?)' for the closest of `known` to a mistyped `word`, else ''."""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


class _Parser(argparse.ArgumentParser):
    """argparse with a did-you-mean for a mistyped command, option or choice."""

    def error(self, message):
        bad = _INVALID_CHOICE.search(message)
        if bad:
            choices = [c.strip().strip("'\"") for c in bad.group(2).split(",")]
            message += did_you_mean(bad.group(1), choices)
        super().error(message)


_INVALID_CHOICE = re.compile(r"invalid choice: '([^']*)' \(choose from (.*)\)")


def _unknown_options(parser, extras) -> str:
    """'unrecognized arguments: …' with a did-you-mean for each mistyped option."""
    known = [o for a in parser._actions for o in a.option_strings]
    words = [e + did_you_mean(e.split("=", 1)[0], known) if e.startswith("-") else e
             for e in extras]
    return "unrecognized arguments: " + " ".join(words)


def build_parser(argv=(), full=False) -> argparse.ArgumentParser:
    """The parser; with `full`, every subcommand's options, else only the chosen one's."""
    parser = _Parser(
        prog="ffnverify", description=DESCRIPTION,
        epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}",
                        help="print the installed version and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                title="commands", parser_class=_Parser)
    chosen = next((a for a in argv if not a.startswith("-")), None)
    for name, module, help_text in SUBCOMMANDS:
        p = sub.add_parser(name, help=help_text, description=help_text, epilog=EXIT_CODES,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        if full or name == chosen:
            mod = importlib.import_module(module)
            mod.add_arguments(p)
            p.set_defaults(run=mod.run, parser=p)
    return parser


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv)
    args, extras = parser.parse_known_args(argv)
    if extras:  # the subcommand's own usage, not the top level's
        getattr(args, "parser", parser).error(_unknown_options(getattr(args, "parser", parser),
                                                               extras))
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
