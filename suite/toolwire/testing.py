"""The suite class a project subclasses to run the toolwire corpus beside its own tests.

    # tests/test_toolwire.py
    from toolwire.testing import ToolwireSuite

    class TestMyTranslator(ToolwireSuite):
        adapter = "python:my_gateway.toolwire_adapter:Adapter"
        expectations = "toolwire-expectations.toml"

pytest collects every corpus check under the class (``tests/test_toolwire.py::TestMyTranslator::<check
id>``), so ``-k``, ``-m``, xdist and ``--junitxml`` work as for any test. Relative paths are read from the
test file's directory. An attribute left at ``None`` takes the ``--toolwire-*`` option or the
``toolwire_*`` setting of the pytest configuration (``docs/pytest.md``).
"""

from __future__ import annotations

__all__ = ["ToolwireSuite"]


class ToolwireSuite:
    """Base of a test class whose tests are the corpus checks of one translator (the plugin,
    ``toolwire.plugin``, collects them); set ``adapter`` at least."""

    #: the translator: ``reference``, ``python:pkg.module:obj``, ``peer:NAME``, ``cmd:<command>`` or
    #: ``http:CONFIG``
    adapter: str | None = None
    #: known failures (TOML): listed checks that fail are xfailed, that pass are xpassed
    expectations: str | None = None
    #: fail on an xpassed check or an expectations entry that matches no check
    strict_expectations: bool | None = None
    #: a corpus directory (default: the bundled corpus)
    corpus: str | None = None
    #: write the results (``results.jsonl``) here
    results: str | None = None
    #: seconds one translation may take before its check is errored as hung
    timeout: float | None = None
    #: stop after this many errored checks
    max_errors: int | None = None
    #: ``cmd:`` adapters: the directory the process starts in
    adapter_cwd: str | None = None
    #: ``cmd:`` adapters: validate every answer against the protocol's schemas
    validate_protocol: bool | None = None
