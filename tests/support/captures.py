"""Where the vendored captures of real provider traffic are: ``corpus/captures/`` of the corpus toolwire uses
(the checkout's, or the installed wheel's). They are part of the repository, so a test never skips for
want of them: a missing capture is a failure."""

from __future__ import annotations

from toolwire.paths import corpus_dir

CAPTURES = corpus_dir() / "captures"
