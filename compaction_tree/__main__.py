"""python -m compaction_tree: the same as the `memtree` command."""

from .cli import main

main()
