"""`python -m viewer.capture.helper`: the helper, run from a checkout (as an ordinary user)."""

from .main import entry

entry()
