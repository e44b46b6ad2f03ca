"""toolwire's reference translator: tools, tool choices, requests, responses, streams and text-embedded tool
calls between LLM wire dialects, through one canonical model (decode the source, validate once, encode the
target). Standard library only at run time (``serve``, the proxy, also needs aiohttp).

Public API: ``translate``, ``translate_stream``, ``TranslationError``, ``Translator``, ``__version__``.

Layout, from the tools down to the data (imports run one way, without cycles: ``test_reference_imports``):

- tools: ``cli`` (``toolwire translate``), ``serve`` (``toolwire serve``), ``harness`` (the subprocess
  protocol), ``translator`` (the harness-facing ``Translator``);
- entry points: ``translate`` (every kind), ``transcode`` (streams), ``text/`` (kind ``text``: the calls
  printed in a model's text);
- ``registry``: the dialects, each a package ``dialects/<name>/`` (``rules``, ``tools``, ``request``,
  ``response``, ``stream``) exporting one ``dialect.Dialect``; what the shared code knows of a dialect is
  data on its ``DialectRules`` (``http``: its API for ``serve``), read through the registry, or, by the
  modules the dialects import, through ``roster`` (which the registry fills);
- what the dialects share: ``dialects/common.py``, ``openai_common.py``, ``response_common.py``;
  ``streams/`` (stream codec bases and filters, SSE); ``request`` and ``messages`` (the canonical request and
  conversation), ``tools`` (tool validation), ``calls`` (arguments, ids, stop reasons), ``custom``,
  ``hosted``, ``reasoning``, ``signatures``, ``choice``, ``model``, ``schema/`` (JSON Schema rewrites);
- data and basics: ``rules`` (shared rules, ``DialectRules`` and ``HttpApi``), ``roster``, ``profiles``,
  ``errors``, ``_json``, ``version``.
"""

from .errors import TranslationError
from .transcode import translate_stream
from .translate import translate
from .translator import Translator
from .version import __version__

__all__ = ["TranslationError", "Translator", "translate", "translate_stream", "__version__"]
