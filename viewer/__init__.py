"""ncu-reader: read Nsight Compute reports in the lesson's order."""

__version__ = "0.1.0"
