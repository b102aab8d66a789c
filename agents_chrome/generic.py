"""The fallback profile for agents we have no rules for.

It strips what every TUI shares (spinners, borders, progress bars,
interrupt hints, timers) and opens a user turn at the usual prompt markers;
anything else on screen is taken as the assistant's answer. Crude, but far
better than the raw screen.
"""
from __future__ import annotations

from agents_chrome.profile import ChromeProfile
from agents_chrome.rules import COMMON_CHROME, LineRule


class GenericProfile(ChromeProfile):
    name = "generic"
    rules = (
        *COMMON_CHROME,
        LineRule("star-spinner", "chrome", r"^\s*[✻✶✳✢·✽*◐◓◑◒⠋]\s+\w+…?\s*(\(.*\))?\s*$"),
        LineRule("timer", "chrome", r"\(\d+(\.\d+)?s\b.*\)\s*$|\b\d+m?\s?\d+s\b.*tokens"),
        LineRule("box-side", "chrome", r"^\s*[│┃║]\s*$"),
        LineRule("prompt", "user", r"^\s*(?:[>❯›✨┃]|\$)\s+(?P<body>\S.*)$"),
        LineRule("answer-bullet", "assistant", r"^\s*[●•✦⏺]\s+(?P<body>.*)$"),
    )


PROFILE = GenericProfile()
