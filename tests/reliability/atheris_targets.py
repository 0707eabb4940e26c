"""C7: coverage-guided fuzzing with atheris (libFuzzer for Python) of the code that reads vault files
(the targets are in fuzz_targets.py). Run by test_fuzz.py in a child process, since libFuzzer ends
the process when it is done:

    python tests/reliability/atheris_targets.py TARGET [libFuzzer flags] CORPUS_DIR [SEED_DIR]

An exception other than the allowed ones, or a crash of the interpreter, is reported by libFuzzer,
which writes the input that caused it to -artifact_prefix.
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports(include=["compaction_tree", "yaml", "fuzz_targets"]):  # coverage feedback from these
    from fuzz_targets import TARGETS


def main() -> None:
    atheris.Setup([sys.argv[0], *sys.argv[2:]], TARGETS[sys.argv[1]])
    atheris.Fuzz()


if __name__ == "__main__":
    main()
