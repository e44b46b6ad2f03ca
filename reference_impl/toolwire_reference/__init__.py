"""toolwire's reference translator: tool definitions and tool choices between LLM wire dialects.

Public API: ``translate``, ``TranslationError``, ``Translator``, ``__version__``. Standard library
only at run time.
"""

from .errors import TranslationError
from .translate import translate
from .translator import Translator

__version__ = "0.1.0"

__all__ = ["TranslationError", "Translator", "translate", "__version__"]
