"""Reports from results files, pure functions of them: the Markdown report (:mod:`.markdown`), the combined
matrix (:mod:`.matrix`) as a page (:mod:`.html`) and badges (:mod:`.badges`), written by
``toolwire report combine`` (:mod:`.combine`); the translation bugs found (:mod:`.bugs`, reading format-1
files with :mod:`.legacy`); ``toolwire report diff`` (:mod:`.diff`); the scoring they share
(:mod:`.scoring`); ``toolwire report`` itself (:mod:`.cmd`). Imports ``toolwire.results`` and
``toolwire.corpus`` only."""
