"""OpenAI Chat Completions streams: grammar and accumulator."""
