"""A capture request as the app holds it: the words a person chose, checked by the helper's own
grammar (viewer/capture/helper/protocol.py), and the reports one run of it makes. No Qt."""

from __future__ import annotations

from dataclasses import dataclass

from viewer.capture.helper import protocol as h


class RequestError(ValueError):
    """A request the helper would refuse; the text says why."""


@dataclass(frozen=True)
class Request:
    """One run of the helper: target naive|tiled|both, dim (an int, or the text a person typed:
    one size or a list, `256,512,1024`), set, clock. `reports()` are its reports, one each."""

    target: str
    dim: int | str
    set: str
    clock: str

    def _words(self) -> list[str]:
        dim = self.dim if isinstance(self.dim, str) else repr(self.dim)
        return ["capture", "--target", self.target, "--dim", dim, "--set", self.set,
                "--clock", self.clock]

    def parsed(self) -> h.Request:
        """The helper's own reading of this request; RequestError where it would refuse it."""
        try:
            return h.parse_request(self._words())
        except h.Refusal as exc:
            raise RequestError(exc.message) from None

    def validate(self) -> None:
        """RequestError unless the helper's own grammar accepts this request."""
        self.parsed()

    def args(self) -> list[str]:
        """The helper's arguments, validated."""
        self.validate()
        return self._words()

    def reports(self) -> list[Request]:
        """A request of one report for each report of this run, in the helper's order (size by
        size, naive before tiled)."""
        return [Request(s.target, s.dim, self.set, self.clock) for s in self.parsed().shots]
