"""JSON Schema handling the dialects share: generic walkers (``walk``), checks (``checks``) and small pure
node functions (``keywords``, ``nullable``, ``strict``, ``refs``, ``limits``, ``clasp``); the OpenAI rewrite
composes them in ``dialects/openai_common.py``, Gemini's in ``dialects/gemini/schema.py``."""
