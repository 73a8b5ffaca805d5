"""`ClaimError`, the one error a claim's evaluation raises for its author.

Its own module so every part of the engine (the argument checks, the functions, certify,
the deciders) can raise it without importing another part: no import cycle runs through it.
"""


class ClaimError(Exception):
    """A claim that is well formed but cannot be evaluated (unknown name, bad argument)."""

    def __init__(self, message: str, col: int | None = None, param: str | None = None):
        super().__init__(message)
        self.message = message
        self.col = col
        self.param = param  # the argument at fault, so the error can point at it
