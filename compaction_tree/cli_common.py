"""What every `memtree` command shares: one-line errors with a hint and an exit code, JSON on
stdout, the vault from --vault. Light on purpose: `memtree add` loads it after every agent turn."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

from . import errors
from .errors import MemtreeError
from .hooklog import HOOK

if TYPE_CHECKING:
    from .api import Memory
    from .vault import Vault

# click's exceptions, wherever this typer keeps them (0.28 vendors click as typer._click)
_CLICK: Any = sys.modules[typer.BadParameter.__module__]
_NO_ARGS: Any = getattr(_CLICK, "NoArgsIsHelpError", ())


class OneLineErrors(TyperGroup):
    """Click's own errors (a bad option, a missing argument) as one line with a hint, like every
    other memtree error, instead of a boxed usage panel: agents and cron logs read stderr too."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            self._standalone(args, prog_name, complete_var, **extra)
        except SystemExit as exc:
            if HOOK.enabled and exc.code not in (None, errors.OK):
                HOOK.record(exc.code)
                # never 2 (a usage error): Claude Code reads a hook's exit 2 as "block", and a Stop hook
                # that blocks keeps the agent from finishing its turn
                sys.exit(errors.ERROR)
            raise
        except Exception as exc:  # a bug: logged, then its traceback as always
            if HOOK.enabled:
                HOOK.record(f"1 ({type(exc).__name__}: {exc})")
            raise
        finally:
            HOOK.stop()

    def _standalone(
        self, args: Sequence[str] | None, prog_name: str | None, complete_var: str | None, **extra: Any
    ) -> NoReturn:
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except _NO_ARGS as exc:  # `memtree` alone: the help, as click prints it
            exc.show()
            sys.exit(exc.exit_code)
        except _CLICK.ClickException as exc:
            ctx = getattr(exc, "ctx", None)
            where = ctx.command_path if ctx is not None else (prog_name or "memtree")
            message = " ".join(exc.format_message().split()).rstrip(".")
            message = message[:1].lower() + message[1:]
            hint = f"see `{where} --help`"
            value = _dash_value(exc, sys.argv[1:] if args is None else list(args))
            if value is not None:  # `memtree forget -rf`: an id, not options -r and -f
                hint += f"; if {value} is a value, not an option, put -- before it: `{where} -- {value}`"
            sys.stderr.write(f"memtree: error: {message} (hint: {hint})\n")
            sys.exit(exc.exit_code)
        except (typer.Abort, getattr(_CLICK, "Abort", typer.Abort)):
            sys.stderr.write("memtree: aborted\n")
            sys.exit(errors.ERROR)
        sys.exit(code if isinstance(code, int) else errors.OK)  # typer.Exit(n) comes back as n


def _dash_value(exc: Any, args: list[str]) -> str | None:
    """The argument click read as unknown short options, when the command also takes values (ids,
    text) that may start with "-" (a mistyped --long-option is just that)."""
    ctx = getattr(exc, "ctx", None)
    if not isinstance(exc, _CLICK.NoSuchOption) or ctx is None or exc.option_name.startswith("--"):
        return None
    if not any(getattr(param, "param_type_name", "") == "argument" for param in ctx.command.params):
        return None
    before_dashes = args[: args.index("--")] if "--" in args else args
    return next((arg for arg in before_dashes if arg.startswith(exc.option_name)), None)


def make_app(**settings: Any) -> typer.Typer:
    return typer.Typer(
        name="memtree",
        cls=OneLineErrors,
        add_completion=False,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
        **settings,
    )


JsonOpt = Annotated[bool, typer.Option("--json", help="Print stable JSON on stdout.")]


def fail(exc: MemtreeError) -> NoReturn:
    hint = f" (hint: {exc.hint})" if exc.hint else ""
    sys.stderr.write(f"memtree: error: {exc.message}{hint}\n")
    raise typer.Exit(exc.exit_code)


@contextlib.contextmanager
def user_errors() -> Iterator[None]:
    """Translates the core's errors, once, at the edge."""
    try:
        yield
    except MemtreeError as exc:
        fail(exc)


def emit_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False) + "\n")


def open_vault(ctx: typer.Context) -> Vault:
    from .vault import Vault

    return Vault.open(ctx.obj)


def open_memory(ctx: typer.Context) -> Memory:
    """The vault of --vault (or found), as the library API: each command makes one call on it."""
    from .api import Memory

    return Memory.open(ctx.obj)
