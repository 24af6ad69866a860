"""Occupancy, the reading order's third step, and its what-if curves."""
