"""The kernel list: its dock, its table, grouping by name."""
