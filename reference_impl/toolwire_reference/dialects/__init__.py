"""One package per dialect (``canonical``, ``openai_chat``, ``openai_responses``, ``anthropic``,
``gemini``; collected by ``toolwire_reference.registry``), and what their codecs share: ``common.py`` (tool
lists and function objects), ``openai_common.py`` (the two OpenAI dialects' tools, tool choice and call
bodies) and ``response_common.py`` (reading and writing responses)."""
