"""`python -m ffnverify` is the `ffnverify` command."""

import sys

from ffnverify.cli import main

sys.exit(main())
