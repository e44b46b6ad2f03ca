"""Gemini streamGenerateContent streams: grammar and accumulator."""
