"""What every view of the window is built from: the style, the worker thread, pickable rows, value
bars, the banner, pictures of a tab, on-demand reads, the reading tab's frame."""
