"""toolwire: conformance suite for LLM tool-calling wire-format translators."""

__version__ = "0.1.0"
