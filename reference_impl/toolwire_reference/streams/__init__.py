"""What the dialects' stream codecs share: ``base.py`` (the decoder and encoder bases and the filters between
them), ``text_calls.py`` (the ``stream.text-calls=parse`` filter) and ``sse.py`` (SSE text read and written).

The transcoder that joins a source decoder to a target encoder is ``toolwire_reference.transcode``.
"""
