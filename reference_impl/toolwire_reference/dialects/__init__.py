"""One package per dialect, ``<name>/`` (collected by ``toolwire_reference.registry``), and what their
codecs share: ``common.py`` (tool lists and function objects), ``openai_common.py`` (the tools, tool
choice and call bodies of the OpenAI dialects and the Chat-like ones), the Chat Completions family's
``chat_request.py``, ``chat_response.py`` and ``chat_stream.py``, and ``response_common.py`` (reading and
writing responses)."""
