"""memtree: a memory for AI agents kept as plain files in a git-tracked folder.

The library API is `Memory` (see compaction_tree/api.py); the command line is `memtree`.
Importing this package never pulls in litellm, tiktoken or rich.
"""

from .api import Memory
from .errors import MemtreeError
from .model import Chunk

__all__ = ["Chunk", "Memory", "MemtreeError"]
__version__ = "0.1.0"
