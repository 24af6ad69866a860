"""Warp stalls."""
