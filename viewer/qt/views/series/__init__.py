"""The Series view: every report open as one series, its table and plot."""
