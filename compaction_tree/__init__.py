"""memtree: a memory for AI agents kept as plain files in a git-tracked folder.

Importing this package never pulls in litellm, tiktoken or rich.
"""

from .errors import MemtreeError
from .model import Chunk

__all__ = ["Chunk", "MemtreeError"]
__version__ = "0.1.0"
