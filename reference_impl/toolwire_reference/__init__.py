"""toolwire's reference translator: tool definitions and tool choices between LLM wire dialects.

Public API: ``translate``, ``translate_stream``, ``TranslationError``, ``Translator``,
``__version__``. Standard library only at run time.
"""

from .errors import TranslationError
from .transcode import translate_stream
from .translate import translate
from .translator import Translator

__version__ = "0.1.0"

__all__ = ["TranslationError", "Translator", "translate", "translate_stream", "__version__"]
