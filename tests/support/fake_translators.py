"""Small fake translators for the harness's own tests: they exercise the harness (applicability, judging,
refusals, crashes, timeouts, fresh ids) without depending on what the reference translator does.

- :class:`Fake`: the base: declares what it is told (kinds, profiles, error codes);
- :class:`Canned`: answers from a table of canned payloads, by (kind, source, target);
- :class:`Oracle`: answers each check of a corpus with that check's own expectation (its matchers
  instantiated), or refuses where the corpus expects a refusal, with the corpus's code and path;
- :class:`Refusing`: refuses every input with one code; :class:`Crashing`: raises an exception that is no
  refusal; :class:`Hanging`: answers only once released; :class:`Lying`: declares pairs it does not
  translate, and answers with its input unchanged;
- :class:`InventingIds`: a response and stream translator whose outputs carry tool-call ids it invents,
  either fresh for every response or the same every time.
"""

from __future__ import annotations

import hashlib
import json
import threading
from typing import Any

from toolwire.corpus import Check, Corpus
from toolwire.corpus.capabilities import KINDS
from toolwire.corpus.matchers import instantiate
from toolwire.protocol import TranslationRefusal

#: every pair of every kind
EVERYTHING = {kind: [["*", "*"]] for kind in KINDS}


class Fake:
    """A translator that declares ``kinds``, ``profiles``, ``error_codes`` and ``validates_input`` as told
    (it validates its input unless told otherwise: judged on every refusal the corpus expects); subclasses
    answer."""

    name = "fake"

    def __init__(
        self,
        kinds: dict[str, list[list[str]]] | None = None,
        profiles: dict[str, list[str]] | None = None,
        codes: str = "toolwire",
        validates: bool = True,
    ) -> None:
        self.kinds = kinds if kinds is not None else EVERYTHING
        self.profiles = profiles or {}
        self.codes = codes
        self.validates = validates

    def capabilities(self) -> dict[str, Any]:
        """What the test told it to declare."""
        return {
            "name": self.name,
            "version": "0",
            "kinds": self.kinds,
            "profiles": self.profiles,
            "error_codes": self.codes,
            "validates_input": self.validates,
        }

    def translate(self, kind: str, source: str, target: str, payload: Any, profile: dict[str, str]) -> Any:
        raise NotImplementedError

    def translate_stream(self, source: str, target: str, events: list[Any], profile: dict[str, str]) -> Any:
        return self.translate("stream", source, target, events, profile)


class Canned(Fake):
    """Answers ``answers[(kind, source, target)]`` (``"*"`` in a key matches any value)."""

    name = "canned"

    def __init__(self, answers: dict[tuple[str, str, str], Any], **declared: Any) -> None:
        super().__init__(**declared)
        self.answers = answers

    def translate(self, kind: str, source: str, target: str, payload: Any, profile: dict[str, str]) -> Any:
        for (k, s, t), answer in self.answers.items():
            if k in ("*", kind) and s in ("*", source) and t in ("*", target):
                return json.loads(json.dumps(answer))
        raise TranslationRefusal("fake.no_answer", f"no canned answer for {kind} {source}>{target}")


class Oracle(Fake):
    """Answers every check of ``corpus`` (other than stream checks) with its expectation: the payload with its
    matchers instantiated (:func:`toolwire.corpus.matchers.instantiate`, the sample lint validates: every
    ``$id`` the same, a ``$regex`` an empty string), or the expected refusal. Among the checks with the
    same input, the one whose ``when`` the profile carries, and the most specific, answers."""

    name = "oracle"

    def __init__(self, corpus: Corpus, **declared: Any) -> None:
        super().__init__(**declared)
        self.checks: dict[tuple[str, str, str, str], list[Check]] = {}
        for check in corpus.checks():
            if check.kind != "stream" and not check.round_trip and check.variant is None:
                self.checks.setdefault(_key(check.kind, check.source, check.target, check.source_payload), [])
                self.checks[_key(check.kind, check.source, check.target, check.source_payload)].append(check)

    def translate(self, kind: str, source: str, target: str, payload: Any, profile: dict[str, str]) -> Any:
        candidates = [
            check
            for check in self.checks.get(_key(kind, source, target, payload), [])
            if all(profile.get(k) == v for k, v in check.when.items())
        ]
        if not candidates:
            raise TranslationRefusal("fake.no_answer", f"no check of the corpus has this {kind} input")
        # the most specific; a case's own source before another case's source projected into this dialect
        check = max(candidates, key=lambda c: (len(c.when), c.projection is None))
        if "error" in check.expectation:
            want = check.expected_error
            raise TranslationRefusal(str(want.get("code")), "as the corpus expects", want.get("path"))
        return instantiate(check.expectation.get("payload"))[0]


def _key(kind: str, source: str, target: str, payload: Any) -> tuple[str, str, str, str]:
    return kind, source, target, json.dumps(payload, sort_keys=True)


class Refusing(Fake):
    """Refuses every input with ``code`` at ``path``."""

    name = "refusing"

    def __init__(self, code: str = "fake.refused", path: str | None = None, **declared: Any) -> None:
        super().__init__(**declared)
        self.code, self.path = code, path

    def translate(self, kind: str, source: str, target: str, payload: Any, profile: dict[str, str]) -> Any:
        raise TranslationRefusal(self.code, "refused by the fake", self.path)


class Crashing(Fake):
    """Raises a ``KeyError`` (no refusal: a crash) on every input."""

    name = "crashing"

    def translate(self, kind: str, source: str, target: str, payload: Any, profile: dict[str, str]) -> Any:
        raise KeyError("fake crash")


class Hanging(Fake):
    """Answers ``{}`` only once :attr:`release` is set (a test sets it when it is done)."""

    name = "hanging"

    def __init__(self, **declared: Any) -> None:
        super().__init__(**declared)
        self.release = threading.Event()

    def translate(self, kind: str, source: str, target: str, payload: Any, profile: dict[str, str]) -> Any:
        self.release.wait()
        return {}


class Lying(Fake):
    """Declares every pair and answers with its input unchanged: a translation that translates nothing."""

    name = "lying"

    def translate(self, kind: str, source: str, target: str, payload: Any, profile: dict[str, str]) -> Any:
        return payload


class InventingIds(Fake):
    """Translates responses and streams into an Anthropic-shaped output with one ``tool_use`` block whose
    id it invents: from the input (which names the response, so the next response gets another id) when
    ``fresh``, else ``toolu_1`` every time (as a translator numbering calls anew per response)."""

    name = "inventing-ids"

    def __init__(self, fresh: bool, **declared: Any) -> None:
        super().__init__(**{"kinds": {"response": [["*", "*"]], "stream": [["*", "*"]]}, **declared})
        self.fresh = fresh

    def _id(self, payload: Any) -> str:
        if not self.fresh:
            return "toolu_1"
        return "toolu_" + hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:12]

    def translate(self, kind: str, source: str, target: str, payload: Any, profile: dict[str, str]) -> Any:
        block = {"type": "tool_use", "id": self._id(payload), "name": "f", "input": {}}
        return {"type": "message", "role": "assistant", "content": [block]}

    def translate_stream(self, source: str, target: str, events: list[Any], profile: dict[str, str]) -> Any:
        block = {"type": "tool_use", "id": self._id(events), "name": "f", "input": {}}
        start = {"type": "content_block_start", "index": 0, "content_block": block}
        return [{"event": "content_block_start", "data": start}]
