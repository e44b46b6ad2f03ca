"""What every stream transcoder shares: the decoder and encoder bases, the thinking filter, errors.

A **decoder** reads one dialect's stream events (``{"event"?, "data"}``, corpus/RULES.md, "Streams") and
returns canonical stream events (plain dicts, the ``data`` of a canonical event); an **encoder** reads
canonical events and returns the target dialect's events. Both are incremental: ``feed(event)`` returns
what that event lets them emit *now*, ``close()`` what is left at the end of the input. State is a few
counters and the blocks that are open, never the stream.

Canonical block indices are positions in the final content, assigned by the decoder in the order
blocks open. Text opens lazily (on the first non-empty fragment: empty text is no content, as in the
``response`` kind). :class:`ThinkingFilter` drops thinking blocks (``stream.thinking=drop``, or a target
with no thinking form) and renumbers the blocks after them.

Errors: ``stream.invalid_event`` at ``/<event position>/data/...`` for an event that cannot be read,
``stream.truncated`` (path ``""``) from ``close()`` when the input ended before its terminal event.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .. import roster, signatures
from .._json import MAX_DEPTH, check_depth, json_type, nests_deeper
from ..calls import derived_id
from ..custom import WRAP_PARAMETER, has_custom_tools, wrapping
from ..errors import Segments, TranslationError, fail, pointer
from ..rules import DialectRules


def truncated(dialect: str, missing: str) -> TranslationError:
    return TranslationError(
        "stream.truncated", f"the {dialect} stream ended before {missing} (truncated)", ""
    )


def stream_id(prefix: str, model: Any) -> str:
    """The response id a target requires when the source stream has none: deterministic, like the
    ``response`` kind's, but from what is known when the stream starts (the model)."""
    return derived_id(prefix, "stream", model or "")


Handler = Callable[[Any, Any], list[dict]]


def handler_table(cls: type, kinds: Iterable[str], method: Callable[[str], str]) -> dict[str, Handler]:
    """Event type -> the method of ``cls`` (named ``method(type)``, when it has one) that reads it.
    Decoders and encoders dispatch through such a table: faster than building a name per event, and an
    event type from the input names no other method (``_init__`` is not ``__init__``)."""
    return {kind: fn for kind in kinds if (fn := getattr(cls, method(kind), None)) is not None}


class JsonTracker:
    """Whether the JSON text fed so far is one complete value (an object for tool arguments), with O(1)
    state: nesting depth and string/escape flags. Used to close a tool call as soon as its arguments are
    complete (any further non-blank text would make them invalid JSON)."""

    __slots__ = ("depth", "in_string", "escape", "started", "complete")

    def __init__(self) -> None:
        self.depth = 0
        self.in_string = self.escape = self.started = self.complete = False

    def feed(self, text: str) -> bool:
        for char in text:
            if self.in_string:
                if self.escape:
                    self.escape = False
                elif char == "\\":
                    self.escape = True
                elif char == '"':
                    self.in_string = False
            elif char == '"':
                self.in_string = True
            elif char in "{[":
                self.depth += 1
                self.started = True
            elif char in "}]":
                self.depth -= 1
                if self.depth == 0 and self.started:
                    self.complete = True
        return self.complete


class Decoder:
    """Base of the per-dialect decoders: event bookkeeping and the canonical event builders."""

    dialect = ""
    terminal = "its terminal event"

    def __init__(self, profile: Mapping[str, str]) -> None:
        self.profile = profile
        self.position = -1  # position of the event being read, in the input
        self.started = False
        self.ended = False
        self.blocks = 0  # canonical blocks opened so far
        self.calls = 0  # tool calls opened so far
        self.text_block: tuple[str, int, Any] | None = None  # (kind, index, key) of the open text/thinking
        self.open_calls: dict[Any, int] = {}  # source key -> canonical index

    # ---- input -----------------------------------------------------------------------------
    def feed(self, event: Any) -> list[dict]:
        self.position += 1
        if not isinstance(event, dict) or "data" not in event:
            raise fail(
                "stream.invalid_event", 'a stream event is an object {"event"?, "data"}', (self.position,)
            )
        try:  # the event is level 1 (the stream, the array of events, is level 0): its values are 2
            deep = nests_deeper(event.values(), MAX_DEPTH - 2)
        except RecursionError:
            deep = True
        if deep:
            check_depth(event, (self.position,), 1)  # the exact answer, and the path of the refusal
        try:
            return self.on_data(event["data"])
        except TranslationError as exc:
            if exc.code == "response.invalid":  # a shared response reader refused a member
                here = pointer((self.position,))
                path = exc.path if exc.path.startswith(here + "/") else pointer(self.path())
                raise TranslationError("stream.invalid_event", exc.message, path) from exc
            raise
        except (KeyError, IndexError, TypeError, AttributeError, ValueError) as exc:
            raise self.invalid(
                f"cannot read this {self.dialect} event ({type(exc).__name__}: {exc})"
            ) from exc

    def close(self) -> list[dict]:
        if self.ended:
            return []
        out = self.on_close()
        if out is None:
            raise truncated(self.dialect, self.terminal)
        return out

    def on_data(self, data: Any) -> list[dict]:
        raise NotImplementedError

    def on_close(self) -> list[dict] | None:
        """Events that end a stream whose terminal event is missing but whose end is certain, or None
        (truncated)."""
        return None

    def invalid(self, message: str, *segments: str | int) -> TranslationError:
        return fail("stream.invalid_event", message, (self.position, "data", *segments))

    def string(self, value: Any, what: str, *segments: str | int) -> str:
        """``value`` when it is a string, else ``stream.invalid_event``: every fragment, id and name a
        decoder passes on goes through here, so the encoders only ever see strings."""
        if isinstance(value, str):
            return value
        raise self.invalid(f"{what} must be a string, not {json_type(value)}", *segments)

    def after_end(self, data: Any) -> list[dict]:
        raise self.invalid(f"an event after the end of the {self.dialect} stream")

    def path(self, *segments: str | int) -> Segments:
        return (self.position, "data", *segments)

    # ---- canonical events --------------------------------------------------------------------
    def start(self, response_id: Any = None, model: Any = None) -> list[dict]:
        self.started = True
        event: dict = {"type": "message_start"}
        if isinstance(response_id, str) and response_id:
            event["id"] = response_id
        if isinstance(model, str) and model:
            event["model"] = model
        return [event]

    def text(
        self, kind: str, text: str, key: Any = None, signature: Any = None, signed: bool = False
    ) -> list[dict]:
        """A text or thinking fragment for the block ``key`` (opens it when it is not the open one).

        ``signed``: the source promises a signature for this thinking block (it may come at its end);
        carried as the internal member ``signed`` on the block's first event (an Anthropic target streams
        such thinking at once and holds unsigned thinking; the canonical encoder leaves it out)."""
        if type(text) is not str:
            self.string(text, f"a {kind} fragment")
        if signature is not None:
            self.string(signature, "a signature")
        out: list[dict] = []
        if not text and signature is None:
            return out
        opening = self.text_block is None or self.text_block[0] != kind or self.text_block[2] != key
        if opening:
            out += self.close_text()
            self.text_block = (kind, self.new_block(), key)
        event = {"type": f"{kind}_delta", "index": self.text_block[1], "text": text}
        if opening and signed:
            event["signed"] = True
        if signature is not None:
            self.sign(event, signature)
        out.append(event)
        return out

    def sign(self, event: dict, signature: str) -> None:
        """Put ``signature`` on ``event`` with its issuer: this decoder's dialect (a canonical source
        says the issuer itself, or leaves it unknown)."""
        event["signature"] = signature
        if roster.issues_signatures(self.dialect):
            event["origin"] = self.dialect

    def close_text(self, key: Any = None, any_key: bool = True) -> list[dict]:
        if self.text_block is None or (not any_key and self.text_block[2] != key):
            return []
        index = self.text_block[1]
        self.text_block = None
        return [{"type": "block_end", "index": index}]

    def start_call(self, key: Any, call_id: str, name: str, **extra: Any) -> list[dict]:
        for value, what in ((call_id, "a tool call's id"), (name, "a tool call's name")):
            if not self.string(value, what):  # an empty id pairs no result; no provider has a nameless tool
                raise self.invalid(f"{what} must not be empty")
        out = self.close_text()
        index = self.new_block()
        self.calls += 1
        self.open_calls[key] = index
        event = {"type": "tool_call_start", "index": index, "id": call_id, "name": name}
        signature = extra.pop("signature", None)
        event.update({k: v for k, v in extra.items() if v is not None})
        if signature:  # an empty signature signs nothing
            self.sign(event, signature)
        out.append(event)
        return out

    def call_delta(self, key: Any, fragment: str, member: str = "arguments") -> list[dict]:
        """A fragment of the open call ``key``: its JSON arguments text, or (``member="input"``) a
        custom (free-form) call's input text."""
        if type(fragment) is not str:
            self.string(fragment, f"an {member} fragment")
        if not fragment:
            return []
        return [{"type": "tool_call_delta", "index": self.open_calls[key], member: fragment}]

    def end_call(self, key: Any) -> list[dict]:
        index = self.open_calls.pop(key, None)
        return [] if index is None else [{"type": "block_end", "index": index}]

    def close_all(self) -> list[dict]:
        out = self.close_text()
        for key in list(self.open_calls):
            out += self.end_call(key)
        return out

    def finish(self, stop_reason: str, usage: Any = None, stop_sequence: Any = None) -> list[dict]:
        out = self.close_all()
        event: dict = {"type": "message_end", "stop_reason": stop_reason}
        if isinstance(stop_sequence, str):
            event["stop_sequence"] = stop_sequence
        if usage:
            event["usage"] = usage
        out.append(event)
        self.ended = True
        return out

    def error(self, code: Any, message: Any) -> list[dict]:
        self.ended = True
        return [
            {
                "type": "error",
                "error": {
                    "code": str(code) if code not in (None, "") else "error",
                    "message": message if isinstance(message, str) else "",
                },
            }
        ]

    def new_block(self) -> int:
        self.blocks += 1
        return self.blocks - 1


class Encoder:
    """Base of the per-dialect encoders: dispatch on the canonical event type."""

    dialect = ""

    #: canonical event type -> the encoder's ``on_<type>`` (made for each subclass from its methods)
    handlers: dict[str, Handler] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        kinds = [name.removeprefix("on_") for name in dir(cls) if name.startswith("on_")]
        cls.handlers = handler_table(cls, kinds, lambda kind: "on_" + kind)

    def __init__(self, profile: Mapping[str, str]) -> None:
        self.profile = profile
        self.ended = False

    def feed(self, event: dict) -> list[dict]:
        if self.ended:
            return []
        return self.handlers[event["type"]](self, event)

    def close(self) -> list[dict]:
        if not self.ended:  # the decoders raise first; a defence for direct use
            raise truncated("canonical", "message_end")
        return []


class CustomCallGuard:
    """Custom (free-form) tool calls for a target stream without them (Anthropic, Gemini, and Chat, whose
    chunk type ``ChoiceDeltaToolCall`` is a function call only): ``content.unsupported`` at the source
    event that starts one, as the ``response`` kind refuses them (RULES.md "Custom (free-form) tools");
    under ``custom.tools=wrap`` (Anthropic, Gemini) the call of the function the tool became, its input
    streamed as the JSON text ``{"input": "…"}`` fragment by fragment.

    Fast-lane promise (``transcode.StreamTranscoder``): a block is wrapped or not from its start, so once
    it passed a plain delta of a block unchanged, it passes the block's later plain deltas unchanged."""

    def __init__(self, target: DialectRules, decoder: Decoder, profile: Mapping[str, str]) -> None:
        self.active = not target.custom_streams
        self.wrap = wrapping(profile) and not has_custom_tools(target)
        self.target = target.name
        self.decoder = decoder
        self.wrapped: set[int] = set()  # open blocks of wrapped calls

    def feed(self, event: dict) -> list[dict]:
        if not self.active:
            return [event]
        kind = event["type"]
        if kind == "tool_call_start" and event.get("custom"):
            if not self.wrap:
                what = f"a call of the custom (free-form) tool {event['name']!r}"
                message = f"{what} has no equivalent in {self.target}"
                raise fail("content.unsupported", message, (self.decoder.position, "data"))
            self.wrapped.add(event["index"])
            start = {k: v for k, v in event.items() if k != "custom"}
            opening = json.dumps({WRAP_PARAMETER: ""})[:-2]  # '{"input": "'
            return [start, {"type": "tool_call_delta", "index": event["index"], "arguments": opening}]
        if event.get("index") not in self.wrapped:
            return [event]
        if kind == "tool_call_delta":
            escaped = json.dumps(event["input"], ensure_ascii=False)[1:-1]  # the text inside a JSON string
            if not escaped:
                return []
            return [{"type": "tool_call_delta", "index": event["index"], "arguments": escaped}]
        if kind == "block_end":
            self.wrapped.discard(event["index"])
            return [{"type": "tool_call_delta", "index": event["index"], "arguments": '"}'}, event]
        return [event]


class SignatureFilter:
    """Leaves out the signatures ``target`` may not receive (RULES.md, "Thinking and signatures": a
    signature goes back only to the dialect that issued it), and the promise of one (``signed``) when
    the source's own signatures cannot reach the target; a thinking fragment left with nothing to say
    is dropped.

    Fast-lane promise: a plain text or argument delta (no ``signature``, no ``signed``) passes unchanged
    and changes no state; it follows thinking blocks only."""

    def __init__(self, source: str, target: str) -> None:
        self.target = target
        self.foreign_source = target != "canonical" and roster.issues_signatures(source) and source != target
        self.opened: set[int] = set()  # thinking blocks something was sent for
        self.silent: set[int] = set()  # thinking blocks nothing was sent for (yet): their end too is left out

    def feed(self, event: dict) -> list[dict]:
        kind, index = event["type"], event.get("index")
        if kind == "block_end" and index in self.silent:
            self.silent.discard(index)
            return []
        if kind == "block_end":
            self.opened.discard(index)
        if "signature" not in event and not (self.foreign_source and "signed" in event):
            return self._sent(event)
        event = signatures.strip_foreign(event, self.target)
        if self.foreign_source and "signed" in event:
            event = {k: v for k, v in event.items() if k != "signed"}
        if kind == "thinking_delta" and not event["text"] and "signature" not in event:
            if index not in self.opened:
                self.silent.add(index)
            return []
        return self._sent(event)

    def _sent(self, event: dict) -> list[dict]:
        if event["type"] == "thinking_delta":
            self.silent.discard(event["index"])
            self.opened.add(event["index"])
        return [event]


class ThinkingFilter:
    """Drops thinking blocks when they are not kept, and renumbers the blocks that follow.

    Fast-lane promise: a block's number is settled by its first event, so once it passed a delta of a
    block unchanged, it passes the block's later deltas unchanged."""

    def __init__(self, keep: bool) -> None:
        self.keep = keep
        self.next = 0
        self.index: dict[int, int | None] = {}  # open source block -> output index (None: dropped)

    def feed(self, event: dict) -> list[dict]:
        if "index" not in event:
            return [event]
        source = event["index"]
        if source not in self.index:
            if event["type"] == "thinking_delta" and not self.keep:
                self.index[source] = None
            else:
                self.index[source] = self.next
                self.next += 1
        target = self.index[source]
        if event["type"] == "block_end":
            del self.index[source]
        if target is None:
            return []
        if target == source:
            return [event]
        return [{**event, "index": target}]
