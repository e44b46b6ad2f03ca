"""toolwire: conformance suite for LLM tool-calling wire-format translators (the harness).

Data flows one way: corpus → adapter → judge → results → report. Each part is a subpackage that imports
only the parts listed after it and the foundation (``tests/harness/test_import_graph.py`` checks it;
docs/architecture.md says more):

- foundation (``paths``, ``jsonvalue``, ``protocol``, ``descriptors``, ``endpoints``, ``tool_names``): where
  the corpus lives, JSON values, the Translator protocol, the dialect descriptors and the providers' HTTP
  paths read from them, the tool names a tool choice refers to; imports no part.
- ``streams/``: SSE framing, stream payloads, each dialect's grammar and accumulator side by side
  (``streams/<dialect>/``), re-chunking, the incrementality measure; imports the foundation only.
- ``corpus/``: loading the corpus and its checks, lint, matchers, equivalent spellings, wire schemas,
  projections, declared capabilities, the variant checks; may import ``streams``.
- ``peers/``: the bundled adapters for other Python libraries; may import ``streams``.
- ``adapters/``: calling an implementation in-process (``python:``), as a process (``cmd:``) or as a proxy
  (``http:``, with its mock upstream); may import ``corpus``, ``peers``, ``streams``.
- ``judge/``: whether a check applies, running it through an adapter, the verdict; may import
  ``adapters``, ``corpus``, ``streams``.
- ``results``: the results file; may import ``judge``, ``corpus``.
- ``reports/``: Markdown, HTML matrix, badges, bugs, diffs, scoring, from results files; may import
  ``results``, ``corpus``.
- the top (``runner``, ``plugin``, ``testing``, ``cli``, ``expectations``, ``selection``, ``reproducible``,
  ``init_cmd``, ``new_dialect``): the run, the pytest plugin and the commands; may import any part. No
  module imports ``toolwire_reference``: the ``reference`` adapter names it as a string, and so does the
  CLI for the reference's own tools (``toolwire serve``, ``toolwire translate``:
  ``toolwire_reference.serve``, ``.cli``).
"""

__version__ = "0.1.0"
