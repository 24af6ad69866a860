"""The lesson's matmul kernels and the tools around them (numba and numpy only, no Qt).

- matmul: the naive and tiled float32 kernels (numba.cuda) and their launch geometry;
- runner: the lesson's launch order, correctness checks against a float64 reference, timing;
- hold: the kernel queued ahead of a timed launch so that dispatch stays out of the time;
- ncu_command: the capture command for one kernel's first timed launch;
- sizes, sizes_table: the timing at each size of a list, each point's spread and stable flag,
  and its table;
- __main__: `python -m viewer.kernels check | time | ncu-command | profile-target` (check at 512 on
  a GPU, at 32 on numba's CUDA simulator).

Importing this package imports nothing heavy; import the modules you need.
"""
