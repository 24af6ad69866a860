"""The Source view: source lines and SASS with ncu's per-instruction counters."""
