"""`ffnverify completion SHELL`: a completion script for bash, zsh or fish, written by shtab
from the parser itself (every subcommand and option, so it never goes stale).

Install: bash `ffnverify completion bash > ~/.local/share/bash-completion/completions/ffnverify`,
zsh `ffnverify completion zsh > "${fpath[1]}/_ffnverify"`, fish
`ffnverify completion fish > ~/.config/fish/completions/ffnverify.fish`.
"""

import sys

SHELLS = ("bash", "zsh", "fish")


def add_arguments(p):
    p.add_argument("shell", choices=SHELLS, help="the shell to write the script for")


def run(args) -> int:
    try:
        import shtab
    except ImportError:
        print("ffnverify completion: error: shtab is not installed: pip install shtab",
              file=sys.stderr)
        return 2
    from ffnverify.cli import build_parser

    print(shtab.complete(build_parser(full=True), shell=args.shell), end="")
    return 0
