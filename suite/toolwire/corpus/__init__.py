"""The corpus: loading it and enumerating its checks (:mod:`.load`), linting it (:mod:`.lint`), and what the
judge reads from it (matchers, equivalent spellings, wire schemas, projections,
declared capabilities). ``toolwire.corpus.load_corpus`` and the other names of :mod:`.load` stay importable
from here."""

from .load import (
    Case,
    Check,
    Corpus,
    CorpusError,
    check_id,
    is_lossless,
    load_corpus,
    profile_reaches,
    resolve_profile,
)

__all__ = [
    "Case",
    "Check",
    "Corpus",
    "CorpusError",
    "check_id",
    "is_lossless",
    "load_corpus",
    "profile_reaches",
    "resolve_profile",
]
