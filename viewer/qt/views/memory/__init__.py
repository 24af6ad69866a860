"""The memory chart, the reading order's second step: the chart item and its painter."""
