"""`memtree facts`: the durable facts, their history and the audit trail."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from .cli_common import JsonOpt, emit_json, open_memory, user_errors

facts_app = typer.Typer(
    name="facts",
    help="Durable facts: one current truth per subject, its history, and the audit trail.\n\n"
    'Example: memtree facts search "deploy"',
    no_args_is_help=False,
    invoke_without_command=True,
)


def _render_fact(fact: Any, history: bool = False) -> str:
    data = fact.to_json()
    lines = [
        f"{data['category']:15} {data['subject']}: {data['fact']} (since {data['valid_from']}"
        + (f", seen {data['seen']}x" if data.get("seen", 1) > 1 else "")
        + ")"
    ]
    if history:
        lines += [
            f"{'':15}   was: {old['fact']} ({old['valid_from']} .. {old.get('valid_until', '?')})"
            for old in data["history"]
        ]
    return "\n".join(lines)


@facts_app.callback()
def facts_list(
    ctx: typer.Context,
    category: Annotated[str | None, typer.Option(help="Only this category, e.g. preference.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """List the current facts (preferences and constraints first).

    Example: memtree facts --category preference
    """
    if ctx.invoked_subcommand is not None:
        return
    with user_errors():
        facts = open_memory(ctx).facts(category)
    if as_json:
        emit_json([f.to_json() for f in facts])
    else:
        typer.echo("\n".join(_render_fact(f) for f in facts) if facts else "no facts yet (they come from compaction)")


@facts_app.command("search")
def facts_search(
    ctx: typer.Context, query: Annotated[str, typer.Argument(show_default=False)], as_json: JsonOpt = False
) -> None:
    """Facts whose subject or text match the query's words.

    Example: memtree facts search "access token"
    """
    with user_errors():
        found = open_memory(ctx).search_facts(query)
    if as_json:
        emit_json([f.to_json() for f in found])
    else:
        typer.echo("\n".join(_render_fact(f) for f in found) if found else f"no fact matches {query!r}")


@facts_app.command("show")
def facts_show(
    ctx: typer.Context, subject: Annotated[str, typer.Argument(show_default=False)], as_json: JsonOpt = False
) -> None:
    """One fact with its history (what it was before, until when, and why it changed).

    Example: memtree facts show deploy_platform
    """
    with user_errors():
        fact = open_memory(ctx).fact(subject)
    if as_json:
        emit_json(fact.to_json())
    else:
        typer.echo(_render_fact(fact, history=True))


@facts_app.command("log")
def facts_log(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """The audit trail: every merge, supersession and resolution, with the rule that decided.

    Example: memtree facts log --json
    """
    with user_errors():
        events = open_memory(ctx).fact_log()
    if as_json:
        emit_json([e.to_json() for e in events])
        return
    for e in events:
        undone = f" (undone by {e.reversed_by})" if e.reversed_by else ""
        typer.echo(f"{e.id} {e.date} {e.kind:11} {e.subject}: {e.old!r} -> {e.new!r} [{e.rule}]{undone}")


@facts_app.command("undo")
def facts_undo(
    ctx: typer.Context, event_id: Annotated[str, typer.Argument(show_default=False)], as_json: JsonOpt = False
) -> None:
    """Reverse a merge, supersession or resolution from the audit log (recorded in facts/overrides.yaml).

    Example: memtree facts undo 3f9a2c1d
    """
    with user_errors():
        result = open_memory(ctx).undo(event_id)
    if as_json:
        emit_json(result.to_json())
    else:
        typer.echo(f"undone: {event_id} (recorded as {result.undo}); facts/ and ROOT.md rebuilt")
