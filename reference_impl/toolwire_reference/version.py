"""The reference translator's version (``toolwire_reference.__version__``, its ``hello`` and capabilities)."""

__version__ = "0.1.0"
