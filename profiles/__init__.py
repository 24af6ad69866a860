"""The shipped captures (a data package: read through viewer.core.shipped)."""
