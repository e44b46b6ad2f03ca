"""The toolwire corpus against sample-gateway: one test per check, beside the project's other tests.

    pytest tests/test_toolwire.py -n auto          # -k / -m select checks, e.g. -m toolwire_must

Known failures are listed in toolwire-expectations.toml (xfailed); refresh it after a run with
    toolwire expectations update --from reports/sample-gateway.results.jsonl
and read the report with
    toolwire report reports/sample-gateway.results.jsonl -o reports/sample-gateway.md
"""

from toolwire.testing import ToolwireSuite


class TestSampleGateway(ToolwireSuite):
    adapter = "python:toolwire_adapter:Translator"
    expectations = "../toolwire-expectations.toml"
    results = "../reports/sample-gateway.results.jsonl"
