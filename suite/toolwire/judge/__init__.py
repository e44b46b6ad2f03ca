"""The judge: whether a check applies to an implementation, running it through an adapter, and the verdict.

- :mod:`.checks`: applicability, the profile handed over, the verdict on an answer (:class:`CheckResult`);
- :mod:`.run`: :func:`run_check`, one check of any kind, sent to its runner;
- :mod:`.streams`: ``stream`` checks and their variants; :mod:`.fresh_ids`: the fresh-id variant;
- :mod:`.lifting`: ``tools`` / ``tool_choice`` checks sent inside a request.
"""

from .checks import OUTCOMES, CheckResult, applicable, judge
from .run import run_check

__all__ = ["OUTCOMES", "CheckResult", "applicable", "judge", "run_check"]
