"""Anthropic Messages streams: grammar and accumulator."""
