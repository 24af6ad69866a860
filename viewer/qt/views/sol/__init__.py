"""Speed Of Light, the reading order's first step."""
