"""The rich console every command prints through.

rich answers a reader that left (`capsule-capture replay x.cast | head`) with exit status 1 and no
word, which reads as a failure in a script. Here a closed pipe ends the command as the plain-text
formats end it: quietly, status 0 (the CLI's BrokenPipeError handler).
"""
from __future__ import annotations

import os
import sys

from rich.console import Console


class PipeConsole(Console):
    """A rich Console whose closed pipe raises BrokenPipeError instead of exiting 1."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # the interpreter's last flush must not fail again
        raise BrokenPipeError

