"""The hierarchical roofline: the view, its chart and its words."""
