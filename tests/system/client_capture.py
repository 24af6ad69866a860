"""make test-system's client step: `python -m viewer capture ARGS` with the driver's params file
given, since the throwaway machine has no NVIDIA driver to say `RmProfilingAdminOnly: 1`.

    python3 tests/system/client_capture.py PARAMS_FILE [capture args...]
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from viewer.capture import client
from viewer.terminal import capture_terminal


def main(argv: list[str]) -> int:
    params = Path(argv[0])
    return capture_terminal.cli(argv[1:], route_fn=lambda: client.choose_route(params=params))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
