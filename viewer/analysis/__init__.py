"""What the app reads out of a report, with no Qt: the Speed Of Light reading, the memory chart's
layout, occupancy curves, the roofline, warp stalls, ncu's advice, every metric and its diff,
time by kernel, the kernel timing run and the exports."""
