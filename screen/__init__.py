"""The virtual screen: pyte with scrollback, alternate screen and frames."""
