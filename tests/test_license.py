"""The LICENSE file is the MIT License that pyproject.toml names (tests/test_wheel.py checks that
the wheel carries it)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The MIT License as SPDX records it (https://spdx.org/licenses/MIT.html), with its holder.
MIT = """\
MIT License

Copyright (c) 2026 the ncu-reader authors

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
"""


def project() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        table: dict[str, object] = tomllib.load(f)["project"]
    return table


def test_pyproject_names_the_mit_license_and_its_file() -> None:
    assert project()["license"] == "MIT"  # an SPDX expression
    assert project()["license-files"] == ["LICENSE"]


def test_the_license_file_is_the_mit_license() -> None:
    assert (ROOT / "LICENSE").read_text(encoding="utf-8") == MIT
