"""Canonical streams (toolwire's neutral model): grammar and accumulator."""
