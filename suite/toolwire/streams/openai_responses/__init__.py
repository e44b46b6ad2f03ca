"""OpenAI Responses streams: grammar and accumulator."""
