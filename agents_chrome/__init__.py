"""Per-agent chrome rules and turn segmentation."""
