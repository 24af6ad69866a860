"""Every metric, and the full diff of two kernels."""
