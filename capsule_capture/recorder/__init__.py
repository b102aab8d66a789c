"""The recorder: a transparent PTY loop feeding an asciicast writer."""
