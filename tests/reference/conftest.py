"""The reference's unit tests compare two translations of one input, so the random part of the ids it
generates for responses and streams (``calls.IdGenerator``, fresh per translation) is pinned here to
nothing, as a seed would be (ids read ``call_1``, ``call_2``, …); tests marked ``unpinned_ids``
(``test_generated_ids_are_fresh_per_translation``) see the real behaviour."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from toolwire_reference import calls


@pytest.fixture(autouse=True)
def pinned_id_salt(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    if "unpinned_ids" not in request.keywords:
        monkeypatch.setattr(calls.secrets, "token_hex", lambda n=8: "")  # ids as call_1, call_2, …
    yield
