"""capsule-capture: record, replay and archive coding-agent terminals."""
__version__ = "0.1.0"
