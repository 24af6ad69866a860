"""The plain core every other package stands on: the Report model, metric names and units, the
formatting of values, kernel names, jobs, atomic writes, the shipped files, the display check."""
