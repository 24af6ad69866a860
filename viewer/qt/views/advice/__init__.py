"""ncu's own advice (its rule results)."""
