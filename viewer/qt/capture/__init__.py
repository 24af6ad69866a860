"""Capture in the window: the dialog and the run behind it."""
