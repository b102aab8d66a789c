"""The one error type the CLI turns into a one-line message and an exit code."""
from __future__ import annotations


class UserError(Exception):
    """Bad input from the user: printed as one line, never as a traceback."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code
