"""Run a black-box translating proxy: ``http:<config.toml>``.

The config (TOML; paths relative to the current directory)::

    name = "my-gateway"                   # the report's name (default: http-proxy <client>><upstream>)
    version = "1.2.3"                     # the proxy's version, in the report's header (default: unknown)
    language = "go"                       # what it is written in, informative (default: unknown)
    client_dialect = "anthropic"          # what clients speak to the proxy
    upstream_dialect = "openai-chat"      # what the proxy speaks to its upstream
    # either the command that starts the proxy ({port}: a free port chosen for it, {upstream_url}: the
    # mock upstream's base URL, {config_dir}: this file's directory; substituted in the arguments and in
    # env values) …
    command = ["toolwire", "serve", "--listen", "127.0.0.1:{port}", "--client-dialect", "anthropic",
               "--upstream-dialect", "openai-chat", "--upstream-url", "{upstream_url}"]
    env = {}                              # extra environment variables for the command
    # … or the base URL of a proxy already running, configured to use http://127.0.0.1:<mock_port>
    # url = "http://127.0.0.1:8080"
    # mock_port = 18080                   # the mock upstream's port: needed with `url` (the running proxy
    #                                     # is configured to call it); default 0, any free port, which a
    #                                     # `command` gets as {upstream_url}
    client_endpoint = "/v1/messages"      # default: the client dialect's real path
    headers = {"anthropic-version" = "2023-06-01"}   # extra headers on every client request ({port},
                                          # {upstream_url} and {config_dir} substituted in the values)
    api_key = "sk-test"                   # sent in the client dialect's key header (default: a random one)
    secrets = ["sk-upstream"]             # other keys the proxy holds (its own config's): never written
    profile = {}                          # the profile values the proxy implements, a value or a list of
                                          # values per key (default: each key's default)
    error_codes = "own"                   # "toolwire" when its refusals carry toolwire's codes
    validates_input = false               # true when it refuses input invalid in its own dialect (and is
                                          # judged on that; INTERPRETING.md "Error expectations")
    model = "gpt-4o"                      # the model the harness's own stream requests name (default
                                          # toolwire-model): for a proxy that looks it up; its response
                                          # requests name the model the upstream's reply names, if any
    pin_model = true                      # response requests name `model` too (default false): for a
                                          # proxy that routes only the names it lists; one that reports
                                          # the model its client asked for then differs from the reply's
    family_model = "gpt-4.1"              # for a proxy that routes by model name: a case's request naming
                                          # a model of another provider's family names this one instead
                                          # (a reasoning one when it asks for reasoning), as a user of the
                                          # route does (a foreign name takes the proxy down code paths no
                                          # such user takes: LiteLLM fakes streams for unknown names)
    ready_timeout = 20                    # seconds the command has to accept connections
    ready_log = "Ready for connections!"  # text the command logs once it has started (default: none);
                                          # the first check waits for it too, so a startup banner the
                                          # proxy prints after it accepts connections never lands in a
                                          # check's log excerpt (the same log every run)
    upstream_usage = "finish-chunk"       # an OpenAI Chat upstream that sends a stream's usage on the chunk
                                          # with the finish_reason (GitHub Copilot's API) rather than in a
                                          # last chunk of its own (OpenAI's, the default "own-chunk")
    [[documented_drops]]                  # a request member it leaves out on purpose toward the upstream
    kind = "request"                      # (one table each; INTERPRETING.md "Error expectations")
    target = "openai-responses"
    member = "stop"
    ref = "https://…"                     # where the proxy documents the drop

The harness runs a mock upstream (:mod:`toolwire.adapters.upstream`; aiohttp, 127.0.0.1, the upstream
dialect's real paths) that records
the request the proxy sends and answers with a canned response or stream (SSE written one event per
write, each read by the proxy before the next; the ``delivery=coalesced`` and ``delivery=split`` variants
deliver the same stream in one write, or in two writes per event: :mod:`toolwire.adapters.delivery`). Declared
kinds, for this pair only:

- ``request`` client → upstream: the case's request goes through the proxy; the output is the body the
  mock received (the mock answers a minimal valid response or stream).
- ``response`` upstream → client: a minimal client request goes through the proxy, naming the model the
  case's payload names (:func:`reply_model`: a client asks for the model that answers, so a proxy that
  reports the model its client asked for is judged as one that reports the upstream's); the mock answers
  the case's payload (an error body with the provider's status: ``toolwire.adapters.http_errors``); the
  output is the proxy's response body. The upstream's error forwarded as an error answer is the refusal
  ``response.invalid``.
- ``stream`` upstream → client: the same with a streaming request (an OpenAI Chat one asks for usage,
  ``stream_options.include_usage``) and the case's events as SSE; the output is the events of the proxy's
  SSE.

A proxy refuses the client's input by answering a 4xx status with an error body in a provider's error
shape (an upstream's reply it cannot use, also with a 5xx status, as a gateway answers 502): a refusal
(where the corpus expects one, right; see ``error_codes``). A proxy that speaks toolwire's codes
(``corpus/errors.json``; ``toolwire serve`` does) carries the code in the error object's ``code`` (with
the JSON Pointer in ``param``) or, Gemini style, in an ``ErrorInfo`` detail's ``reason``
(``metadata.path``), also mid-stream in a last error event. Any other error answer (a 5xx to the client's
own input, a body that is no error) is a crash (``errored``), with the status and body. The API key is
never written to results: it is replaced by ``[redacted]`` wherever it would appear, and so are the
``secrets`` and every key the proxy sent the mock upstream (its credential headers, Gemini's ``key``
query parameter), in outputs, refusal messages and the proxy's log shown with an errored check.

Each check is its own exchange: a fresh connection (``Connection: close``; a loopback handshake costs
far less than the exchange), so a connection a proxy aborted or hung up never fails the next check, and
no check's verdict depends on keep-alive timing. The log shown with an errored check is what the proxy
logged from the check's start until its log went quiet (``LOG_QUIET``): its own, never the one before's.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import secrets
import shlex
import signal
import socket
import subprocess
import tempfile
import time
import tomllib
from collections.abc import Callable
from typing import Any

from ..descriptors import descriptor, model_member, without_model_member
from ..endpoints import PROVIDER_DIALECTS, http_client, is_dialect_path
from ..http_errors import error_status
from ..jsonvalue import clip
from ..paths import corpus_dir, unlocalize
from ..peers._common import accumulated_body, family_model
from ..protocol import UNSUPPORTED, TranslationRefusal
from ..streams.sse import events_from_sse
from .base import Adapter, AdapterError, Answer
from .upstream import MIN_SECRET, LoopThread, MockUpstream, usage_on_finish_chunk, without_path_model

__all__ = ["HttpAdapter", "client_refusal", "load_config", "refusal_in", "reply_model"]

MODEL = "toolwire-model"
#: after a check errs, the proxy's log counts as finished once it has been quiet this long (seconds) …
LOG_QUIET = 0.25
#: … or after this long, for a proxy that never stops logging
LOG_SETTLE_MAX = 3.0

#: a model name that may also stand in a URL path (a Gemini client's ``/v1beta/models/{model}:…``)
_MODEL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")


def reply_model(dialect: str, payload: Any) -> str | None:
    """The model an upstream reply of ``dialect`` names (``model``; Gemini's ``modelVersion``), when it is a
    plain model name, else None."""
    name = http_client(dialect).reply_model(payload)
    return name if isinstance(name, str) and _MODEL_NAME.fullmatch(name) else None


def _error_codes() -> frozenset[str]:
    try:
        return frozenset(json.loads((corpus_dir() / "errors.json").read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return frozenset()


def _error_object(obj: Any) -> dict[str, Any] | None:
    """The error object of an error body or event in any provider's shape (``{"error": {…}}``, Anthropic's
    ``{"type": "error", "error": {…}}``), or None."""
    if not isinstance(obj, dict):
        return None
    err = obj.get("error")
    if not isinstance(err, dict):
        err = obj if obj.get("type") == "error" else None
    return err if isinstance(err, dict) else None


def client_refusal(obj: Any, status: int) -> dict[str, Any] | None:
    """A 4xx or 5xx answer whose body is an error in a provider's shape: the proxy refused the client's input
    or the upstream's reply (a gateway answers 502 for a reply it cannot use; LiteLLM answers 500 to a
    tool_choice it rejects on purpose). The client gets an error either way, so it is a refusal; its code is
    the error's own (``type``, ``code`` or ``status``) after the status, never a toolwire code, and a
    refusal where a translation is expected is still a failure, with the status in its code."""
    err = _error_object(obj)
    if err is None or not 400 <= status < 600:
        return None
    own = next((err[k] for k in ("type", "code", "status") if isinstance(err.get(k), str) and err[k]), None)
    message = err.get("message")
    return {
        "code": f"http.{status}" + (f".{own}" if own else ""),
        "message": message if isinstance(message, str) else clip(json.dumps(err), 500),
        "path": None,
    }


def refusal_in(obj: Any, codes: frozenset[str]) -> dict[str, Any] | None:
    """``{"code", "message", "path"}`` when ``obj`` is an error body or event carrying a toolwire code."""
    err = _error_object(obj)
    if err is None:
        return None
    found: list[tuple[Any, Any]] = [
        (err.get("code"), err.get("param")),
        (err.get("toolwire_code"), err.get("path")),
    ]
    for detail in err.get("details") or []:
        if isinstance(detail, dict):
            meta = detail.get("metadata") if isinstance(detail.get("metadata"), dict) else {}
            found.append((detail.get("reason"), meta.get("path")))
    for code, path in found:
        if isinstance(code, str) and code in codes:
            message = err.get("message")
            return {
                "code": code,
                "message": message if isinstance(message, str) else code,
                "path": path if isinstance(path, str) else None,
            }
    return None


CONFIG_KEYS = frozenset(
    {
        "client_dialect", "upstream_dialect", "name", "version", "language", "command", "env", "url",
        "mock_port", "client_endpoint", "headers", "api_key", "secrets", "profile", "error_codes", "model",
        "pin_model", "family_model",
        "validates_input", "ready_timeout", "ready_log", "upstream_usage", "documented_drops",
    }
)  # fmt: skip
"""The keys an ``http:`` config may hold (a misspelt one is an error, never silently ignored)."""


def load_config(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read and check an ``http:`` config file."""
    try:
        with open(path, "rb") as fh:
            cfg = tomllib.load(fh)
    except OSError as exc:
        raise AdapterError(f"http:{path}: cannot read the config: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise AdapterError(f"http:{path}: the config is not valid TOML: {exc}") from exc
    unknown = sorted(set(cfg) - CONFIG_KEYS)
    if unknown:
        raise AdapterError(
            f"http:{path}: unknown key {unknown[0]!r} (a recipe knows {', '.join(sorted(CONFIG_KEYS))})"
        )
    for key in ("client_dialect", "upstream_dialect"):
        if cfg.get(key) not in PROVIDER_DIALECTS:
            raise AdapterError(f"http:{path}: {key} must be one of {', '.join(PROVIDER_DIALECTS)}")
    if not cfg.get("command") and not cfg.get("url"):
        raise AdapterError(f"http:{path}: give the proxy's `url` or the `command` that starts it")
    if cfg.get("upstream_usage", "own-chunk") not in ("own-chunk", "finish-chunk"):
        raise AdapterError(f'http:{path}: `upstream_usage` must be "own-chunk" or "finish-chunk"')
    if cfg.get("upstream_usage") == "finish-chunk" and cfg["upstream_dialect"] != "openai-chat":
        raise AdapterError(f"http:{path}: `upstream_usage` is about an openai-chat upstream")
    if "pin_model" in cfg and not isinstance(cfg["pin_model"], bool):
        raise AdapterError(f"http:{path}: `pin_model` must be true or false, not {cfg['pin_model']!r}")
    if cfg.get("pin_model") and not cfg.get("model"):
        raise AdapterError(f"http:{path}: `pin_model` pins the config's `model`: give one")
    return cfg


def _last_lines(text: str, limit: int) -> str:
    """The whole lines at the end of ``text`` that fit in ``limit`` characters (the last line cut, marked
    ``…``, when it alone is longer): a log excerpt that starts where a line does, the same every run."""
    lines = text.rstrip().split("\n")
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        if kept and size + len(line) + 1 > limit:
            break
        kept.append(line)
        size += len(line) + 1
    return clip("\n".join(reversed(kept)), limit)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class HttpAdapter(Adapter):
    """A translating proxy run black-box through HTTP (see the module docstring)."""

    def __init__(
        self,
        spec: str,
        config_path: str,
        timeout: float | None = 30.0,
        cwd: str | os.PathLike[str] | None = None,
    ) -> None:
        try:
            import aiohttp  # noqa: F401
        except ModuleNotFoundError as exc:
            raise AdapterError(
                f"{spec}: the http: adapter needs aiohttp (a dependency of toolwire): pip install aiohttp"
            ) from exc
        # the caller's directory (pytest may run elsewhere: --toolwire-adapter-cwd): the config and the
        # proxy's command resolve against it, as they would in the user's shell
        self.cwd = os.path.abspath(cwd) if cwd is not None else os.getcwd()
        path = os.path.join(self.cwd, config_path)
        cfg = load_config(path)
        self.config_dir = os.path.dirname(os.path.abspath(path))
        self.cfg = cfg
        self.client = cfg["client_dialect"]
        #: how a client calls the client dialect (its descriptor's ``http_client``)
        self.http = http_client(self.client)
        self.upstream = cfg["upstream_dialect"]
        self.api_key = str(cfg.get("api_key") or "tw-key-" + secrets.token_hex(12))
        listed = cfg.get("secrets") or []
        if not isinstance(listed, list) or not all(isinstance(x, str) for x in listed):
            raise AdapterError(f"http:{path}: `secrets` must be a list of strings")
        self.secrets = [x for x in listed if len(x) >= MIN_SECRET]
        self.codes = _error_codes()
        self.proc: subprocess.Popen[bytes] | None = None
        self._log: Any = None
        #: where the running proxy's part of :attr:`_log` starts (a restarted proxy appends to it)
        self._log_start = 0
        self.loop = LoopThread()
        self.session: Any = None
        self.mock = MockUpstream(self.upstream, self.loop, int(cfg.get("mock_port", 0))).start()
        self.port = _free_port()
        self.base_url = str(cfg.get("url") or "http://127.0.0.1:{port}").replace("{port}", str(self.port))
        # a proxy may implement several values of a key (a list), like any other implementation
        profile = {
            str(k): [str(x) for x in (v if isinstance(v, list) else [v])]
            for k, v in (cfg.get("profile") or {}).items()
        }
        caps = {
            "name": str(cfg.get("name") or f"http-proxy {self.client}>{self.upstream}"),
            "version": str(cfg.get("version") or "unknown"),
            "language": str(cfg.get("language") or "unknown"),
            "kinds": {
                "request": [[self.client, self.upstream]],
                "response": [[self.upstream, self.client]],
                "stream": [[self.upstream, self.client]],
            },
            "profiles": profile,
            "error_codes": str(cfg.get("error_codes") or "own"),
            "validates_input": cfg.get("validates_input", False),
            **({"documented_drops": cfg["documented_drops"]} if "documented_drops" in cfg else {}),
            "http": {
                "client_dialect": self.client,
                "upstream_dialect": self.upstream,
                "client_endpoint": self._endpoint(False),
            },
        }
        super().__init__(spec=spec, capabilities=caps, timeout=timeout)
        try:
            if cfg.get("command"):
                self._start_proxy()
        except BaseException:
            self.close()
            raise

    # -- the proxy process -------------------------------------------------------------------------------
    def _subst(self, text: str) -> str:
        text = text.replace("{upstream_url}", self.mock.url).replace("{port}", str(self.port))
        return text.replace("{config_dir}", self.config_dir)

    def _start_proxy(self) -> None:
        command = self.cfg["command"]
        argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
        argv = [self._subst(a) for a in argv]
        env = dict(os.environ)
        env.update({str(k): self._subst(str(v)) for k, v in (self.cfg.get("env") or {}).items()})
        if self._log is None:  # one log across restarts: a check's marks stay valid in it
            self._log = tempfile.TemporaryFile()  # noqa: SIM115 (kept open for the adapter's lifetime)
        self._log_start = self._log_size()
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=self._log,
                stderr=self._log,
                env=env,
                cwd=self.cwd,
                start_new_session=os.name == "posix",
            )
        except OSError as exc:
            raise AdapterError(f"{self.spec}: cannot start {shlex.join(argv)!r}: {exc}") from exc
        deadline = time.monotonic() + float(self.cfg.get("ready_timeout", 20))
        host, port = "127.0.0.1", self.port
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AdapterError(
                    f"{self.spec}: the proxy exited with status {self.proc.returncode} before "
                    f"accepting connections:\n{self._tail()}"
                )
            if self._ready_logged():
                with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
                    return
            time.sleep(0.05)
        waited_for = f" and log {self.cfg['ready_log']!r}" if self.cfg.get("ready_log") else ""
        raise AdapterError(
            f"{self.spec}: the proxy did not accept connections on {host}:{port}{waited_for} in time:\n"
            f"{self._tail()}"
        )

    def _ready_logged(self) -> bool:
        """Whether the proxy has logged the recipe's ``ready_log`` text (True when the recipe names none)."""
        wanted = self.cfg.get("ready_log")
        if not wanted or self._log is None:
            return True
        return str(wanted).encode() in self._log_bytes(self._log_start)

    def _tail(self) -> str:
        if self._log is None:
            return ""
        tail = self._log_bytes(max(self._log_start, self._log_size() - 2000))
        return self._scrub(tail.decode("utf-8", "replace"))

    def _ensure_proxy(self) -> None:
        if self.cfg.get("command") and (self.proc is None or self.proc.poll() is not None):
            status = self.proc.returncode if self.proc is not None else None
            tail = self._tail()
            self._stop_proxy()
            self._start_proxy()
            if status is not None:
                raise RuntimeError(f"the proxy had exited (status {status}); restarted. Its output:\n{tail}")

    def _stop_proxy(self) -> None:
        if self.proc is not None:
            with contextlib.suppress(OSError):
                if os.name == "posix":
                    os.killpg(self.proc.pid, signal.SIGTERM)
                else:
                    self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(OSError):
                    os.killpg(self.proc.pid, signal.SIGKILL) if os.name == "posix" else self.proc.kill()
                self.proc.wait(5)
            self.proc = None

    def close(self) -> None:
        self._stop_proxy()
        if self.session is not None:
            with contextlib.suppress(Exception):
                self.loop.run(self.session.close(), 5)
            self.session = None
        self.mock.stop()
        self.loop.stop()
        if self._log is not None:
            self._log.close()
            self._log = None

    def logged_secrets(self) -> list[str]:
        """The keys the proxy wrote into its own log (its output, across restarts), by what they are: a
        proxy that logs its client's key or its upstream's hands a credential to whoever reads its logs."""
        if self._log is None:
            return []
        self._settle_log()  # what it logs about the last exchange is in
        text = self._log_bytes(0)
        sent = sorted(self.mock.keys - {self.api_key, *self.secrets})
        kinds = (
            ("the client's API key", [self.api_key]),
            ("a key of the recipe's `secrets`", self.secrets),
            ("a key it sent the upstream", sent),
        )
        logged = [
            what for what, keys in kinds if any(k.encode() in text for k in keys if len(k) >= MIN_SECRET)
        ]
        return logged

    # -- one exchange ------------------------------------------------------------------------------------
    def _endpoint(self, stream: bool, model: str | None = None) -> str:
        path = self.cfg.get("client_endpoint")
        return self.http.request_path(model or MODEL, stream, str(path) if path else None)

    def _minimal_request(self, model: str | None = None) -> dict[str, Any]:
        """The smallest request of the client dialect, naming ``model``, else the config's ``model`` (default:
        the descriptor's)."""
        body = self.http.minimal_request()
        if "model" in body and (model or self.cfg.get("model")):
            body["model"] = model or str(self.cfg["model"])
        return body

    def _client_headers(self) -> dict[str, str]:
        headers = {"content-type": "application/json", **self.http.key_headers(self.api_key)}
        headers.update({str(k): self._subst(str(v)) for k, v in (self.cfg.get("headers") or {}).items()})
        return headers

    async def _exchange(self, body: Any, stream: bool, model: str | None = None) -> tuple[int, bytes]:
        from aiohttp import ClientSession, ClientTimeout, TCPConnector

        if self.session is None:
            # a fresh connection per exchange (``force_close``): a check never meets the connection the
            # previous one left behind (a proxy that aborted a response, or closes idle keep-alive
            # connections, would else reset the next check's request, or not, as timing has it)
            self.session = ClientSession(
                connector=TCPConnector(force_close=True), timeout=ClientTimeout(total=self.timeout or None)
            )
        url = self.base_url.rstrip("/") + self._endpoint(stream, model)
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        async with self.session.post(url, data=data, headers=self._client_headers()) as resp:
            return resp.status, await resp.read()

    def _keys(self) -> list[str]:
        """Every key never to be written: the client's, the config's ``secrets``, those the mock saw (the
        longest first, so that a key containing another is replaced whole)."""
        keys = {self.api_key, *self.secrets, *self.mock.keys}
        return sorted(keys, key=lambda k: (-len(k), k))

    def _scrub(self, text: str) -> str:
        for key in self._keys():
            text = text.replace(key, "[redacted]")
        return text

    def _clean(self, value: Any) -> Any:
        text = json.dumps(value, ensure_ascii=False)
        scrubbed = self._scrub(text)
        return json.loads(scrubbed) if scrubbed != text else value

    def _clean_refusal(self, exc: TranslationRefusal) -> TranslationRefusal:
        """``exc`` with the keys taken out of its message (a proxy's error may quote a key)."""
        message = self._scrub(exc.message)
        return exc if message == exc.message else TranslationRefusal(exc.code, message, exc.path)

    def _send(
        self, plan: dict[str, Any] | None, body: Any, stream: bool, model: str | None = None
    ) -> tuple[int, bytes, Any]:
        self._ensure_proxy()
        self.mock.reset(plan)
        status, raw = self.loop.run(self._exchange(body, stream, model), (self.timeout or None))
        return status, raw, self.mock.recorded

    def _refuse_or_crash(self, status: int, raw: bytes, where: str) -> Any:
        text = raw.decode("utf-8", "replace")
        try:
            body = json.loads(text)
        except ValueError:
            body = None
        refusal = refusal_in(body, self.codes) or client_refusal(body, status)
        if refusal is not None:
            raise TranslationRefusal(refusal["code"], self._scrub(str(refusal["message"])), refusal["path"])
        raise RuntimeError(self._scrub(f"the proxy answered HTTP {status} {where}: {clip(text, 1000)}"))

    def _check_recorded(self, recorded: Any, status: int, raw: bytes, stream: bool) -> None:
        if recorded is None:
            self._refuse_or_crash(status, raw, "without calling the upstream")
        self._upstream_problem(recorded)
        if stream and not recorded["stream"]:
            raise RuntimeError("the proxy did not ask the upstream for a stream for a streaming request")

    def _upstream_problem(self, recorded: dict[str, Any]) -> None:
        """Raise what was wrong with the request the proxy sent its upstream, if anything. A proxy that called
        another API of the same provider (LiteLLM bridges a reasoning model on its Chat route to the Responses
        API) made a routing choice the provider serves; this recipe's mock serves one API, so there is nothing
        to judge (``protocol.unsupported``): a recipe with that upstream dialect judges the route."""
        problem = recorded["problem"]
        if not problem:
            return
        provider = self.upstream.split("-")[0]
        other = next(
            (
                d
                for d in PROVIDER_DIALECTS
                if d != self.upstream and d.split("-")[0] == provider and is_dialect_path(d, recorded["path"])
            ),
            None,
        )
        if other is not None:
            raise TranslationRefusal(
                UNSUPPORTED,
                f"{problem}: the proxy chose the {other} API of the same provider for this request, which "
                f"this recipe's {self.upstream} upstream does not serve",
            )
        raise RuntimeError(problem)

    def _refuse_unasked(self, asking: dict[str, Any], recorded: Any) -> None:
        """Skip a check whose client request asked for what the reply answers (``asking``) where the proxy
        refused that request without calling its upstream: it never gets such a reply."""
        if asking and recorded is None:
            raise TranslationRefusal(
                UNSUPPORTED,
                f"the proxy refuses a request asking for what this reply answers ({', '.join(asking)}), "
                "so it never gets this reply",
            )

    def _refuse_unanswerable(self, recorded: Any, reply: Callable[[], Any]) -> None:
        """Skip a check whose upstream reply (``reply()``, a response body) the provider never gives the
        request the proxy sent: more than one call where it asked for at most one (``parallel_tool_calls:
        false``; the dialect's ``http_client.single_call``), or a member it gives only when asked
        (``http_client.only_when_asked``). What the proxy makes of it says nothing of it."""
        client = http_client(self.upstream)
        calls = client.calls_beyond_one(recorded.get("body"), reply)
        if calls is not None:
            raise TranslationRefusal(
                UNSUPPORTED,
                f"the proxy asked the {self.upstream} upstream for at most one tool call per reply, which "
                f"the provider guarantees; a reply with {calls} calls never reaches it",
            )
        unasked = client.unasked(recorded.get("body"), reply)
        if unasked is not None:
            raise TranslationRefusal(
                UNSUPPORTED, f"the proxy's {self.upstream} upstream request never gets this reply: {unasked}"
            )

    def _call(self, kind: str, source: str, target: str, payload: Any, profile: dict[str, str]) -> Any:
        mark = self._log_size()
        try:
            return self._clean(self._call_inner(kind, payload))
        except TranslationRefusal as exc:
            raise self._clean_refusal(exc) from None
        except AdapterError:
            raise
        except Exception as exc:
            raise RuntimeError(self._crash_text(exc, mark) + self._recover(exc)) from None

    def _routed(self, payload: Any) -> Any:
        """The request with its model of another provider's family replaced by the config's
        ``family_model`` (when set; a reasoning model for a request that asks for reasoning)."""
        default = self.cfg.get("family_model")
        if not default or not isinstance(payload, dict) or not isinstance(payload.get("model"), str):
            return payload
        return {**payload, "model": family_model(self.upstream, payload["model"], str(default), payload)}

    def _path_model(self, payload: Any) -> tuple[Any, str | None]:
        """For a client dialect that names the model in the path: the request without the member that names
        it there (INTERPRETING.md, "The model of a request") and that model, which goes into the URL."""
        spec = descriptor(self.client)
        member = model_member(spec)
        model = payload.get(member) if member and isinstance(payload, dict) else None
        if not self.http.model_in_path or not isinstance(model, str) or not model:
            return payload, None
        return without_model_member(spec, payload), model.removeprefix("models/")

    def _call_inner(self, kind: str, payload: Any) -> Any:
        if kind == "request":
            payload, named = self._path_model(payload)
            status, raw, recorded = self._send(None, self._routed(payload), False, named)
            if recorded is None:
                self._refuse_or_crash(status, raw, "without calling the upstream")
            self._upstream_problem(recorded)
            body = recorded["body"]
            if body is None:
                raise RuntimeError(f"the proxy sent the upstream a body that is not JSON: {recorded['raw']}")
            unnamed = self.http.model_in_path and not named
            if unnamed and isinstance(body, dict) and body.get("model") == MODEL:
                body = {k: v for k, v in body.items() if k != "model"}  # the URL's model, not the source's
            if http_client(self.upstream).model_in_path:
                body = without_path_model(body, recorded["path"])
            return body
        if kind == "response":
            upstream_status = error_status(self.upstream, payload)
            plan = {"json": payload, "status": upstream_status or 200}
            pinned = self.cfg.get("pin_model")
            model = str(self.cfg["model"]) if pinned else reply_model(self.upstream, payload)
            asking = http_client(self.upstream).asking_for(self.client, lambda: payload)
            status, raw, recorded = self._send(plan, {**self._minimal_request(model), **asking}, False, model)
            self._refuse_unasked(asking, recorded)
            self._check_recorded(recorded, status, raw, False)
            self._refuse_unanswerable(recorded, lambda: payload)
            try:
                body = json.loads(raw)
            except ValueError:
                body = None
            if upstream_status is not None and status >= 400 and _error_object(body) is not None:
                # the upstream's error reached the client as an error: what a proxy does with an error body
                # (the corpus's `response.invalid`: never a successful turn)
                raise TranslationRefusal(
                    "response.invalid",
                    f"the upstream's HTTP {upstream_status} error reached the client as HTTP {status}: "
                    + clip(str((_error_object(body) or {}).get("message", "")), 500),
                )
            if status >= 300:
                self._refuse_or_crash(status, raw, "to a response")
            if body is None:
                raise RuntimeError(f"the proxy's response body is not JSON: {clip(repr(raw), 500)}")
            return body
        raise ValueError(f"kind {kind!r} is not run through the http adapter")

    def translate_stream_delivered(
        self, source: str, target: str, events: list[Any], profile: dict[str, str], delivery: str
    ) -> Answer:
        """:meth:`translate_stream` with the upstream's stream delivered in the shape ``delivery``
        (:mod:`toolwire.adapters.delivery`; the ``delivery=…`` variants of stream checks)."""
        return self._answer(lambda: self._call_stream(source, target, events, dict(profile), delivery))

    def _call_stream(
        self, source: str, target: str, events: list[Any], profile: dict[str, str], delivery: str = "events"
    ) -> Any:
        mark = self._log_size()
        try:
            return self._clean(self._stream_inner(events, delivery))
        except TranslationRefusal as exc:
            raise self._clean_refusal(exc) from None
        except AdapterError:
            raise
        except Exception as exc:
            raise RuntimeError(self._crash_text(exc, mark) + self._recover(exc)) from None

    def _recover(self, exc: Exception) -> str:
        """After the connection to a proxy started here failed (refused, dropped): restart the proxy if it no
        longer accepts connections though its process lives on (a server whose worker died), so that one
        crash errors one check, not every later one. Returns what to add to the check's message."""
        from aiohttp import ClientConnectionError

        if not isinstance(exc, ClientConnectionError) or not self.cfg.get("command") or self.proc is None:
            return ""
        for _ in range(3):  # a server on its way down may still accept for a moment
            time.sleep(0.1)
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
            except OSError:
                break
        else:
            return ""
        self._stop_proxy()
        self._start_proxy()
        self._settle_log()  # what the new process logs as it starts is no later check's
        return "\nthe proxy no longer accepted connections though its process was running: restarted"

    def _log_size(self) -> int:
        """How much the proxy has logged so far (where this check's part of its log starts)."""
        if self._log is None:
            return 0
        return os.fstat(self._log.fileno()).st_size

    def _log_bytes(self, start: int) -> bytes:
        """The proxy's log from byte ``start`` to its end. Read with ``pread``: the proxy writes through the
        same open file, so moving its offset (``seek``) would make the proxy write over its own log."""
        if self._log is None:
            return b""
        return os.pread(self._log.fileno(), max(0, self._log_size() - start), start)

    def _settle_log(self) -> None:
        """Wait until the proxy has logged nothing for :data:`LOG_QUIET` seconds (at most
        :data:`LOG_SETTLE_MAX`): what a proxy logs about an aborted exchange (its error handler runs after
        the client saw the abort) then lands in the check that caused it, not the next one."""
        if self._log is None or self.proc is None:
            return
        deadline = time.monotonic() + LOG_SETTLE_MAX
        size, quiet_since = self._log_size(), time.monotonic()
        while time.monotonic() < deadline and time.monotonic() - quiet_since < LOG_QUIET:
            time.sleep(0.02)
            now = self._log_size()
            if now != size:
                size, quiet_since = now, time.monotonic()

    def _crash_text(self, exc: Exception, mark: int) -> str:
        """An errored check's message: what went wrong, then what the proxy logged from the check's start
        (``mark``) until its log went quiet (its last 2000 characters), as a ``cmd:`` harness's stderr is
        shown."""
        text = f"{type(exc).__name__}: {exc}"
        self._settle_log()
        if self._log is not None and self._log_size() > mark:
            raw = self._log_bytes(max(mark, self._log_size() - 64 * 1024))
            logged = _last_lines(unlocalize(raw.decode("utf-8", "replace")), 2000)
            if logged:
                text += f"\nthe proxy's log during this check:\n{logged}"
        return self._scrub(text)

    def _stream_inner(self, events: list[Any], delivery: str) -> Any:
        # the usage a case's stream carries is asked for, as a client that wants it does (OpenAI Chat sends
        # none without ``stream_options.include_usage``; a proxy that follows it would fail for that)
        reply = _accumulated_once(events, self.upstream)
        asking = http_client(self.upstream).asking_for(self.client, reply)
        body = self.http.stream_body({**self._minimal_request(), **asking})
        if self.cfg.get("upstream_usage") == "finish-chunk":
            events = usage_on_finish_chunk(events)
        status, raw, recorded = self._send({"events": events, "delivery": delivery}, body, True)
        self._refuse_unasked(asking, recorded)
        self._check_recorded(recorded, status, raw, True)
        self._refuse_unanswerable(recorded, reply)
        if status >= 300:
            self._refuse_or_crash(status, raw, "to a streaming request")
        out = events_from_sse(raw)
        if out:
            refusal = refusal_in(out[-1].get("data"), self.codes)
            if refusal is not None:
                raise TranslationRefusal(refusal["code"], str(refusal["message"]), refusal["path"])
        return out


def _accumulated_once(events: list[Any], dialect: str) -> Callable[[], Any]:
    """The response body the upstream stream ``events`` accumulate to (None when they do not), read lazily
    and at most once: what the harness asks the proxy for and what it refuses to hand it read the same."""
    return functools.cache(lambda: accumulated_body(events, dialect))
