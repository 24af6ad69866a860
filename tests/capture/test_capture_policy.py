"""The shipped polkit action: one action, the helper's id, an administrator every time, no GUI
annotation, and an exec.path pkexec can match (a canonical path in a libexec directory)."""

from __future__ import annotations

import posixpath
import xml.etree.ElementTree as ET
from pathlib import Path, PurePosixPath

import pytest

from viewer.capture.helper import protocol

POLICY = Path(__file__).resolve().parents[2] / "resources" / f"{protocol.ACTION_ID}.policy"
EXEC_PATH = "org.freedesktop.policykit.exec.path"


@pytest.fixture(scope="module")
def action() -> ET.Element:
    root = ET.parse(POLICY).getroot()
    assert root.tag == "policyconfig"
    actions = root.findall("action")
    assert len(actions) == 1
    return actions[0]


def annotations(action: ET.Element) -> dict[str, str]:
    return {a.get("key", ""): (a.text or "").strip() for a in action.findall("annotate")}


def test_the_file_is_a_polkit_1_policyconfig():
    text = POLICY.read_text(encoding="utf-8")
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>')
    assert "<!DOCTYPE policyconfig PUBLIC" in text
    assert '"-//freedesktop//DTD PolicyKit Policy Configuration 1.0//EN"' in text
    assert (ET.parse(POLICY).getroot().findtext("vendor") or "").strip()


def test_the_action_id_is_the_helpers(action):
    assert action.get("id") == protocol.ACTION_ID == "io.github.ncu-reader.capture"


def test_the_dialog_says_what_root_will_run(action):
    assert (action.findtext("description") or "").strip()
    message = action.findtext("message") or ""
    for words in ("Nsight Compute", "root", "matmul"):
        assert words in message


def test_only_an_active_session_and_an_administrator_every_time(action):
    defaults = action.find("defaults")
    assert defaults is not None
    got = {child.tag: (child.text or "").strip() for child in defaults}
    # auth_admin, not auth_admin_keep: the target runs as root, so each capture asks.
    assert got == {"allow_any": "no", "allow_inactive": "no", "allow_active": "auth_admin"}


def test_no_allow_gui_and_no_other_annotation(action):
    keys = annotations(action)
    assert "org.freedesktop.policykit.exec.allow_gui" not in keys
    assert set(keys) == {EXEC_PATH}


def test_exec_path_is_a_canonical_libexec_path_of_the_helper(action):
    path = annotations(action)[EXEC_PATH]
    pure = PurePosixPath(path)
    assert pure.is_absolute()
    assert posixpath.normpath(path) == path  # no "..", ".", "//" or trailing slash
    assert pure.name == protocol.HELPER_NAME
    assert "libexec" in pure.parts[:-1]
    # pkexec compares canonical paths: on merged-/usr systems /bin and /sbin are links.
    assert pure.parts[1] not in ("bin", "sbin")
