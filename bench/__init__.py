"""toolwire's speed benchmark (``make bench``, ``python bench/run.py``): a script package, not in the wheel.

``operations`` draws the timed payloads from the corpus, ``measure`` times calls (medians after a warm-up),
long streams (cost per event, peak memory) and the suite's own wall time, ``report`` prints the table and
writes ``reports/benchmarks.md``, ``run`` is the command line.
"""
