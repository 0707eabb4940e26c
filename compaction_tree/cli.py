"""The `memtree` command: parse, make one call on api.Memory, render. Nothing else lives here: what a
command does is in api.py, so the Python API and the command line cannot drift apart.

Output for agents is `--json` on stdout; progress and errors go to stderr. Errors the core
raises on purpose (MemtreeError) become one line with a hint and a documented exit code;
anything else is a bug and keeps its traceback.

Imports are deferred to the commands that need them: `memtree add` runs after every agent
turn, so it must not pay for rich, tiktoken or litellm. What every command shares is in
cli_common.py, `memtree facts` in cli_facts.py, the progress bars in progress.py.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from . import errors
from .cli_common import JsonOpt, emit_json, fail, make_app, open_memory, open_vault, user_errors
from .cli_facts import facts_app
from .progress import file_progress, is_big, level_progress

if TYPE_CHECKING:
    from collections.abc import Callable

    from .compaction import CompactReport
    from .ingest import ImportReport

CONTEXT_MAX_CHARS = 9_500  # under Claude Code's 10,000-character cap on hook output, with room to spare

app = make_app(help="A memory for AI agents, kept as plain files in a git-tracked folder.", no_args_is_help=True)
app.add_typer(facts_app)


@app.callback()
def main_options(
    ctx: typer.Context,
    vault: Annotated[
        Path | None,
        typer.Option(
            "--vault",
            help="The vault folder (default: $MEMTREE_VAULT, then the nearest folder upward with memtree.yaml).",
            show_default=False,
        ),
    ] = None,
    hook_log: Annotated[
        bool,
        typer.Option(
            "--hook-log",
            help="For agent hooks: a failure appends a line to the vault's .memtree/hooks.log "
            "(shown by `memtree status`) and exits 1, never 2.",
        ),
    ] = False,
) -> None:
    ctx.obj = vault
    if hook_log:
        from .hooklog import HOOK

        HOOK.start(vault, ctx.invoked_subcommand)


@app.command()
def init(
    ctx: typer.Context,
    timezone_name: Annotated[
        str | None, typer.Option("--timezone", help="IANA time zone (default: the system's, or UTC).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Create a vault here (or at --vault); running it again changes nothing.

    Example: memtree init --timezone Europe/Paris
    """
    from .api import Memory
    from .config import init_target

    with user_errors():
        memory = Memory.init(init_target(ctx.obj), timezone_name)
    root, created = memory.path, list(memory.created)
    if as_json:
        emit_json({"vault": str(root), "created": created, "timezone": memory.vault.config.timezone})
    elif created:
        typer.echo(f"initialized memtree vault in {root} ({', '.join(created)})")
    else:
        typer.echo(f"{root} is already a memtree vault; nothing changed")


@app.command()
def add(
    ctx: typer.Context,
    text: Annotated[
        str | None, typer.Argument(help="The chunk's text, or - to read it from stdin.", show_default=False)
    ] = None,
    timestamp: Annotated[
        str | None, typer.Option(help="ISO 8601; naive times are in the vault's zone (default: now).")
    ] = None,
    speaker: Annotated[str, typer.Option(help="Who said it.")] = "user",
    source: Annotated[str | None, typer.Option(help="Where it came from, e.g. claude-code.")] = None,
    session: Annotated[str | None, typer.Option(help="A session or conversation id.")] = None,
    topic: Annotated[list[str] | None, typer.Option("--topic", help="A topic (repeatable).")] = None,
    importance: Annotated[float | None, typer.Option(help="0 to 1.")] = None,
    chunk_id: Annotated[
        str | None, typer.Option("--id", help="The chunk id (default: derived from the content).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Store one conversation chunk (create-only, atomic).

    Example: memtree add "We chose Postgres" --speaker user --topic database
    """
    if text is None or text == "-":
        if text is None and sys.stdin.isatty():
            fail(errors.UsageError("no text given", hint="pass it as an argument, or pipe it in with `memtree add -`"))
        # the newline that ends `echo`'s output is not part of the turn: `echo T | memtree add -` and
        # `memtree add T` store the same chunk under the same id
        text = sys.stdin.read().rstrip("\r\n")
    with user_errors():
        result = open_memory(ctx).add(
            text,
            timestamp=timestamp,
            speaker=speaker,
            source=source,
            session=session,
            topics=topic or (),
            importance=importance,
            id=chunk_id,
        )
    if as_json:
        emit_json(result.to_json())
        return
    typer.echo(result.id)
    notes = []
    if not result.created:
        notes.append("already stored; nothing changed")
    if result.redactions:
        notes.append(f"redacted {sum(result.redactions.values())} secret(s): {', '.join(result.redactions)}")
    if notes:
        sys.stderr.write(f"memtree: {result.id}: {'; '.join(notes)}\n")


@app.command()
def remember(
    ctx: typer.Context,
    text: Annotated[str, typer.Argument(help="The fact, as a statement.", show_default=False)],
    subject: Annotated[
        str | None, typer.Option(help="Its subject key, e.g. deploy_target (default: derived from the text).")
    ] = None,
    category: Annotated[
        str | None,
        typer.Option(
            help="preference, constraint, decision, domain_fact, entity or failure_pattern (default: derived)."
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Record a fact now: stored as a chunk, in facts/ and ROOT.md at once; a new value supersedes the old.

    Example: memtree remember "Deploys go to Fly.io." --subject deploy_target --category decision
    """
    with user_errors():
        result = open_memory(ctx).remember(text, subject=subject, category=category)
    if as_json:
        emit_json(result.to_json())
        return
    typer.echo(f"{result.category} {result.subject}: {result.fact} ({result.id})")
    if not result.applied:
        sys.stderr.write(
            "memtree: a compaction is running: the fact is stored, and the next `memtree compact` puts it in "
            "facts/ and ROOT.md\n"
        )
    elif result.current is not None and result.current.history and result.current.current.sources[-1] == result.id:
        sys.stderr.write(f"memtree: {result.subject}: supersedes {result.current.history[0].fact!r}\n")


@app.command("import")
def import_(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="The export to import.", show_default=False)],
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format",
            help="jsonl, claude-code, codex, gemini, chatgpt, claude-ai, openai or locomo (default: detected).",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Import a JSONL file, a Claude Code or Codex transcript, a ChatGPT or Claude.ai export, LoCoMo JSON.

    Example: memtree import chats.jsonl
    """
    with user_errors(), file_progress("importing", enabled=is_big(file)) as progress:
        report = open_memory(ctx).import_file(file, fmt, progress)
    if as_json:
        emit_json(report.to_json())
    else:
        _echo_import(report)
    if report.kept_nothing:
        # Records that fail are a partial import (exit 6) as ever; a file whose every record was
        # skipped is the wrong input (a subagent's transcript, another format): exit 4.
        verb = "could be imported" if report.partial else "was kept"
        sys.stderr.write(f"memtree: nothing in {report.file} {verb} (hint: {_kept_nothing_hint(report)})\n")
        if not report.partial:
            raise typer.Exit(errors.BAD_INPUT)
    if report.partial:
        raise typer.Exit(errors.PARTIAL)


def _echo_import(report: ImportReport) -> None:
    skipped = report.skipped_text()
    kinds = ", ".join(f"{count} {kind}" for kind, count in sorted(report.evidence.items()))
    typer.echo(
        f"{report.file} ({report.format}): {report.added} added, {report.existing} already stored, "
        f"{len(report.failed)} failed"
        + (f", {skipped}" if skipped else "")
        + (f"; kept for recall only: {kinds}" if kinds else "")
        + (f", {sum(report.redactions.values())} secret(s) redacted" if report.redactions else "")
    )
    for position, reason in report.failed[:20]:
        sys.stderr.write(f"memtree: skipped {position}: {reason}\n")
    if len(report.failed) > 20:
        sys.stderr.write(f"memtree: ... and {len(report.failed) - 20} more (see --json)\n")


def _kept_nothing_hint(report: ImportReport) -> str:
    """Why a file gave nothing: a subagent's transcript, another format, or only bad records."""
    from .importers import FORMAT_HINT, detect_format

    if report.skipped.get("sidechain"):  # and nothing else kept: a subagent's own file
        return "it holds a subagent's side conversation; import the session's own transcript"
    try:
        detected = detect_format(Path(report.file))
    except errors.MemtreeError:
        detected = None
    if detected and detected != report.format:
        return f"it looks like {detected}, not {report.format}; pass --format {detected} or leave --format out"
    if report.failed:
        return f"is it {report.format}? {FORMAT_HINT}"
    return f"every record was skipped ({report.skipped_text()}); is it {report.format}? {FORMAT_HINT}"


@app.command()
def status(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """Counts, tokens per level, coverage, lag, problems and the last run.

    Example: memtree status --json
    """
    with user_errors():
        report = open_memory(ctx).status()
    if as_json:
        emit_json(report)
        return
    s = report["summaries"]
    lines = [
        f"vault     {report['vault']} ({report['timezone']})",
        f"chunks    {report['chunks']:,} ({report['raw_tokens']:,} tokens), "
        f"{report['first'] or '-'} .. {report['last'] or '-'}",
        f"summaries {s['daily']} daily, {s['weekly']} weekly, {s['monthly']} monthly "
        f"({sum(report['summary_tokens'].values()):,} tokens)",
        f"lag       compacted through {report['compacted_through'] or 'nothing yet'}; "
        f"{report['uncompacted_chunks']:,} chunk(s) not yet in a daily summary",
        _retention_line(report),
        f"problems  {report['problems']} unreadable file(s)"
        + (" (`memtree doctor` lists them, and anything else out of place)" if report["problems"] else ""),
    ]
    run = report["last_run"]
    if run:
        lines.append(
            f"last run  {run.get('finished', '?')}: {run.get('written', 0)} written, {run.get('calls', 0)} LLM calls, "
            f"${run.get('cost', 0):.4f}"
        )
        if run.get("not_committed"):
            lines.append(f"          not committed: {run['not_committed']}")
    if report["embeddings"]:
        e = report["embeddings"]
        lines.append(
            f"meaning   {e['embedded']:,} of {e['chunks']:,} chunk(s) embedded with {e['model']} (recall.embeddings)"
        )
    if report["last_hook_failure"]:
        lines.append(f"hooks     last failure {report['last_hook_failure']} (all: .memtree/hooks.log)")
    typer.echo("\n".join(lines))


def _retention_line(report: dict[str, Any]) -> str:
    r = report["retention"]
    size = sum(f["bytes"] for f in r["store"].values())
    return (
        f"store     {sum(f['files'] for f in r['store'].values()):,} files, {size / 1e6:.1f} MB; "
        f"{r['pruned_chunks']:,} chunk(s) pruned ({r['prune_rate']:.0%}); "
        f"consolidation lag {report['consolidation_lag_days'] or 0} day(s)"
    )


@app.command()
def doctor(
    ctx: typer.Context,
    fix: Annotated[
        bool, typer.Option("--fix", help="Delete stale temp files and move misplaced chunks (nothing else).")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """List every file the vault cannot read or that sits in the wrong place.

    Example: memtree doctor --fix
    """
    with user_errors():
        report = open_memory(ctx).doctor(fix=fix)
    remaining = len(report.problems) - len(report.fixed)
    if as_json:
        emit_json(report.to_json())
    else:
        for p in report.problems:
            typer.echo(f"{p.kind:13} {p.path}: {p.message}" + (f" [fix: {p.fix}]" if p.fix and not fix else ""))
        for line in report.fixed:
            typer.echo(f"fixed         {line}")
        typer.echo(
            f"{report.chunks_ok} chunks and {report.summaries_ok} summaries OK, {len(report.problems)} problem(s)"
            + (f", {len(report.fixed)} fixed, {remaining} left" if fix else "")
        )
    if remaining > 0:
        raise typer.Exit(errors.UNSAFE)


@app.command()
def compact(
    ctx: typer.Context,
    model: Annotated[
        str | None,
        typer.Option(
            help="A LiteLLM model string (default: $MEMTREE_MODEL, then memtree.yaml, "
            "else the built-in extractive summarizer)."
        ),
    ] = None,
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run", help="Print the plan and the estimated tokens and cost; make no calls, write nothing."
        ),
    ] = False,
    max_calls: Annotated[
        int | None, typer.Option(min=0, help="Stop after this many LLM calls; the rest waits for the next run.")
    ] = None,
    max_cost: Annotated[
        float | None, typer.Option(min=0, help="Stop before spending more than this many dollars.")
    ] = None,
    commit: Annotated[
        bool,
        typer.Option(
            "--commit",
            help="git commit memtree's changed files (chunks, summaries, facts, ROOT.md; never .memtree/ "
            "nor other files); refused mid-merge, mid-rebase, on a detached HEAD.",
        ),
    ] = False,
    allow_network_fs: Annotated[
        bool, typer.Option("--allow-network-fs", help="Run on NFS/SMB/sshfs, where locks are unreliable.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Summarize closed days, weeks and months, then rebuild ROOT.md.

    Example: memtree compact --model openai/gpt-4o-mini --max-cost 0.50
    """
    with user_errors(), level_progress(enabled=not as_json) as progress:
        memory = open_memory(ctx)
        report = memory.compact(
            model,
            max_calls=max_calls,
            max_cost=max_cost,
            dry_run=dry_run,
            commit=commit,
            progress=progress,
            allow_network_fs=allow_network_fs,
        )
    outcome = report.commit
    if outcome and outcome.outside_git:
        sys.stderr.write(f"memtree: {memory.path} is not in a git work tree; nothing committed\n")
    committed = outcome.committed if outcome else None
    for warning in report.warnings:
        sys.stderr.write(f"memtree: warning: {warning}\n")
    if as_json:
        emit_json({**report.to_json(), "committed": committed})
    else:
        typer.echo(_describe(report, committed))
    if outcome and outcome.error:
        fail(outcome.error)  # the compaction is done: said what it did, now why no commit
    if report.failed:
        raise typer.Exit(errors.PARTIAL)


def _describe(report: CompactReport, committed: str | None) -> str:
    if report.skipped:
        return report.skipped
    if report.dry_run and report.estimate is not None:
        e = report.estimate
        units = ", ".join(f"{n} {level}" for level, n in e["units"].items())
        return (
            f"plan: {units}; about {e['input_tokens']:,} input and {e['output_tokens']:,} output tokens, "
            f"${e['cost']:.4f} (dry run: nothing called, nothing written)"
        )
    lines = [
        f"compacted: {len(report.written)} written, {len(report.deleted)} deleted, {report.unchanged} unchanged, "
        f"{len(report.failed)} failed; {report.calls} LLM call(s), {report.cache_hits} cached, "
        f"{report.input_tokens + report.output_tokens:,} tokens, ${report.cost:.4f}; "
        f"ROOT.md {'rebuilt' if report.root_changed else 'unchanged'} ({report.seconds:.1f}s)"
    ]
    lines += [f"  failed {unit}: {reason.removeprefix(unit + ': ')}" for unit, reason in sorted(report.failed)]
    lines += [f"  blocked {unit}: {reason}" for unit, reason in report.blocked[:10]]
    if report.deferred:
        lines.append(f"  budget reached: {len(report.deferred)} unit(s) left for the next run")
    if committed:
        lines.append(f"  committed {committed}")
    return "\n".join(lines)


@app.command()
def root(
    ctx: typer.Context,
    check: Annotated[
        bool, typer.Option("--check", help="Exit 9 when ROOT.md is stale, changing nothing (for hooks and CI).")
    ] = False,
) -> None:
    """Rebuild ROOT.md (no LLM call) and print it.

    Example: memtree root --check
    """
    with user_errors():
        memory = open_memory(ctx)
        stale = memory.root_is_stale() if check else None
        text = memory.root() if not check else ""
    if stale:
        sys.stderr.write("memtree: ROOT.md is stale (run `memtree root` or `memtree compact`)\n")
        raise typer.Exit(errors.STALE)
    sys.stdout.write(text if not check else "ROOT.md is up to date\n")


@app.command()
def recall(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(help="A question or keywords.", show_default=False)],
    budget: Annotated[
        int | None, typer.Option(help="Token budget for the evidence (default: budgets.recall, 5000).")
    ] = None,
    ids: Annotated[
        bool, typer.Option("--ids", help="Label each quoted line with its chunk id (for forget; costs budget).")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Fetch the evidence for a question within a token budget.

    Example: memtree recall "how do refresh tokens rotate?" --budget 2000
    """
    with user_errors():
        result = open_memory(ctx).recall(query, budget, ids=ids)
    for note in result.notes:
        sys.stderr.write(f"memtree: note: {note}\n")
    if as_json:
        emit_json(result.to_json())
    elif result.context:
        sys.stdout.write(result.context)
        sys.stderr.write(f"memtree: {len(result.sources)} chunk(s), {result.tokens} of {result.budget} tokens\n")
    else:
        sys.stderr.write("memtree: nothing in memory matches that question\n")


@app.command()
def know(
    ctx: typer.Context,
    topic: Annotated[str, typer.Argument(help="A topic, name or phrase.", show_default=False)],
    as_json: JsonOpt = False,
) -> None:
    """Answer "do I have context on TOPIC?": known or not, when last seen, and where to look.

    Example: memtree know "refresh tokens" --json
    """
    with user_errors():
        answer = open_memory(ctx).know(topic)
    if as_json:
        emit_json(answer.to_json())
        return
    if not answer.known:
        typer.echo(f"unknown: nothing in memory mentions {answer.topic!r}")
        return
    typer.echo(
        f"known: {answer.topic!r}, {answer.mentions} mention(s), {answer.first_seen} .. {answer.last_seen}"
        + ("" if answer.in_root else " (not in ROOT.md)")
    )
    for place in answer.see[:6]:
        typer.echo(f"  see {place}")
    for entry in answer.entries:
        typer.echo(f"  {entry['date']} [{entry['source']}] {entry['text']}")


@app.command()
def context(
    ctx: typer.Context,
    max_chars: Annotated[
        int,
        typer.Option(
            "--max-chars",
            min=0,
            help="Characters at most; ROOT.md sheds gists, then lines, then names to fit "
            "(Claude Code files SessionStart output over 10,000 away). 0: no cap.",
        ),
    ] = CONTEXT_MAX_CHARS,
) -> None:
    """Print the session-start block: ROOT.md plus how to use it.

    Example: memtree context >> system_prompt.md
    """
    with user_errors():
        block = open_memory(ctx).context(max_chars)
    sys.stdout.write(block)


@app.command()
def mcp(ctx: typer.Context) -> None:
    """Serve the vault to MCP clients over stdio: context, recall, know, facts, remember and add as tools,
    ROOT.md and its summaries as resources. Needs the package's mcp extra (README.md, MCP server).
    In Claude Code: claude mcp add memtree -- memtree --vault DIR mcp

    Example: memtree --vault ~/agent-memory mcp
    """
    with user_errors():
        vault = open_vault(ctx)  # a vault that cannot be found fails here, before the server starts
        serve = _mcp_serve()
    with contextlib.suppress(KeyboardInterrupt):  # the client (or a terminal) interrupted it: a normal stop
        serve(vault.root)


@app.command()
def forget(
    ctx: typer.Context,
    chunk_ids: Annotated[
        list[str], typer.Argument(help="Ids of the chunks to take out of memory.", show_default=False)
    ],
    model: Annotated[
        str | None, typer.Option(help="The summarizer for the summaries to regenerate (as compact).")
    ] = None,
    allow_network_fs: Annotated[
        bool, typer.Option("--allow-network-fs", help="Run on NFS/SMB/sshfs, where locks are unreliable.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Remove chunks and regenerate exactly the summaries, facts and ROOT.md that used them.

    Example: memtree forget 3f2a9c0d1e2b4a5c (an id that starts with "-": memtree forget -- -x)
    """
    with user_errors():
        report = open_memory(ctx).forget(*chunk_ids, model=model, allow_network_fs=allow_network_fs)
    if as_json:
        emit_json(report.to_json())
    else:
        done = report.compaction
        typer.echo(
            f"forgot {len(report.forgotten)} chunk(s); purged {report.cache_purged} cached answer(s); "
            f"regenerated {len(done.written) if done else 0} and removed {len(done.deleted) if done else 0} "
            "summaries"
        )
        typer.echo("note: git history still holds the old files; see README.md, Forgetting")
    if report.compaction and report.compaction.failed:
        raise typer.Exit(errors.PARTIAL)


@app.command()
def prune(
    ctx: typer.Context,
    older_than: Annotated[
        str | None, typer.Option("--older-than", help="Age window, e.g. 90d (default: retention.older_than_days).")
    ] = None,
    apply: Annotated[bool, typer.Option("--apply", help="Delete the chunks listed (default: a dry run).")] = False,
    allow_network_fs: Annotated[
        bool, typer.Option("--allow-network-fs", help="Run on NFS/SMB/sshfs, where locks are unreliable.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """List (and with --apply delete) old raw chunks that a committed summary covers; see README, Retention.

    Example: memtree prune --older-than 180d --apply
    """
    with user_errors():
        report = open_memory(ctx).prune(older_than, apply=apply, allow_network_fs=allow_network_fs)
    if as_json:
        emit_json(report.to_json())
        return
    for chunk in report.pruned[:50]:
        reasons = ", ".join(chunk["reasons"]) or "no cue"
        typer.echo(
            f"{'pruned' if apply else 'would prune'} {chunk['path']} (importance {chunk['importance']}: {reasons})"
        )
    if len(report.pruned) > 50:
        typer.echo(f"... and {len(report.pruned) - 50} more (see --json)")
    kept = ", ".join(f"{n} {reason}" for reason, n in sorted(report.kept.items()) if n) or "none"
    gate = report.gate
    typer.echo(
        f"{'pruned' if apply else 'would prune'} {len(report.pruned)} chunk(s) of days before {report.cutoff}"
        f" (floor {report.floor}); kept: {kept}"
    )
    typer.echo(
        f"recall gate: {gate.questions} summary line(s) asked, {gate.answered_before} answered"
        + (f", {gate.answered_after} still answered after" if gate.answered_after is not None else "")
        + f"; {gate.kept} chunk(s) kept for it ({report.seconds:.1f}s)"
    )
    if not apply:
        typer.echo("dry run: nothing deleted (pass --apply)")


@app.command()
def demo(
    directory: Annotated[
        Path | None, typer.Option("--dir", help="Where to build the demo vault (default: a new temporary folder).")
    ] = None,
) -> None:
    """Build a scratch copy of the sample vault, compact it, and show ROOT.md, a recall and know.

    Example: memtree demo
    """
    from .api import Memory
    from .demo import EXAMPLE_QUESTION, EXAMPLE_TOPICS, build_sample_vault, scratch_copy

    with user_errors():
        target = scratch_copy(directory)
        sys.stderr.write(f"memtree demo: building three months of a coding agent's memory in {target}\n")
        with level_progress(enabled=True) as progress:
            vault, imported, report = build_sample_vault(target, progress)
        memory = Memory(vault)
        found = memory.recall(EXAMPLE_QUESTION, 800)
        answers = [memory.know(topic) for topic in EXAMPLE_TOPICS]
    s = report
    sys.stderr.write(
        f"memtree demo: {imported.added} chunks imported; {len(s.written)} summaries written "
        f"in {s.seconds:.1f}s with the built-in summarizer (no LLM)\n\n"
    )
    sys.stdout.write((vault.root / "ROOT.md").read_text(encoding="utf-8"))
    typer.echo(f'\n$ memtree recall "{EXAMPLE_QUESTION}" --budget 800')
    sys.stdout.write(found.context)
    for topic, answer in zip(EXAMPLE_TOPICS, answers, strict=True):
        typer.echo(f'\n$ memtree know "{topic}"')
        typer.echo(
            f"known: {answer.mentions} mention(s), {answer.first_seen} .. {answer.last_seen}, "
            f"see {', '.join(answer.see[:2])}"
            if answer.known
            else "unknown: nothing in memory mentions it"
        )
    typer.echo(f"\nThe vault is in {vault.root}; try: memtree --vault {vault.root} status")


@app.command()
def schedule(
    ctx: typer.Context,
    hour: Annotated[int, typer.Option(min=0, max=23)] = 3,
    minute: Annotated[int, typer.Option(min=0, max=59)] = 15,
) -> None:
    """Print a crontab line and a systemd timer that compact nightly and commit.

    Example: memtree schedule --hour 4
    """
    from .schedule import schedule_text

    with user_errors():
        vault = open_vault(ctx)
    typer.echo(schedule_text(vault, _installed_command(), hour, minute))


# ---------------------------------------------------------------- helpers


def _installed_command() -> str:
    """This memtree's absolute path: cron and systemd have their own PATH, and a `.venv/bin/memtree`
    run without activating the venv is on no PATH at all."""
    import shutil

    beside = Path(sys.executable).parent / "memtree"  # the script of the environment running now
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("memtree")
    return str(Path(found).absolute()) if found else "memtree"


def _mcp_serve() -> Callable[[Path], None]:
    try:
        from .mcp_server import serve
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in ("mcp", "mcp_types"):
            raise
        raise errors.MemtreeError(
            "the MCP server needs the mcp package, which is not installed",
            hint="pip install 'memtree[mcp]' (or .venv/bin/pip install -e '.[mcp]' in a checkout)",
        ) from None
    return serve


def _subcommand(argv: list[str]) -> str | None:
    rest = iter(argv)
    for arg in rest:
        if arg == "--vault":
            next(rest, None)
        elif not arg.startswith("-"):
            return arg
    return None


def main() -> None:
    if _subcommand(sys.argv[1:]) == "add":
        # `memtree add` runs after every agent turn: a group holding just `add` saves building the
        # click commands of every other subcommand (~10 ms of a ~130 ms cold start, measured).
        fast = make_app()
        fast.callback()(main_options)
        fast.command()(add)
        fast(prog_name="memtree")
    else:
        app(prog_name="memtree")
