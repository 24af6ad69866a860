"""The views, one folder each: what a tab shows of the open report."""
