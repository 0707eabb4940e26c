"""Fact wordings for the "fresh" split of the synthetic corpus (bench/corpus.py).

The dev and test splits of corpus.py share their fact templates by index parity, and both have
been measured and tuned on.  This module holds new wordings for split "fresh", which nobody has
tuned on: for every spec that plants a fact (kinds "stable" and "change") new ``state``
templates, new ``change`` templates for the changes and new ``again`` templates for the later
restatements; for every distractor spec new ``state`` templates (still hypotheticals, questions,
temporary arrangements or rejected options: never a durable fact).  Everything else in a fresh
corpus (names, questions, noise, leads, decoys) is the test split's.

Each bank has as many templates as the test split takes from the same bank of corpus.py (its
odd entries), and uses the same slots as that bank under the same conventions (a ``change``
names both ``{old}`` and ``{v}``; a ``state`` or ``again`` names ``{v}`` and the subject's
slots).  They are written as people type in chat, in sentence shapes the corpus.py bank does not
use, and were written blind to the fact extractor: from corpus.py's templates and slot pools
only, without reading the extractor, its tests, its phrasing sets or its learned data.

``FRESH[spec key][bank]`` is a tuple of templates; corpus.py uses them for split "fresh" and
records them as ``spec.fresh_bank.index`` in ``meta["templates"]``.
"""

from __future__ import annotations


def _items(text: str) -> tuple[str, ...]:
    """ "a | b" -> ("a", "b"), line breaks inside an item are spaces (corpus._items; corpus imports this module)."""
    return tuple(item.strip() for item in " ".join(text.split()).split("|"))


FRESH: dict[str, dict[str, tuple[str, ...]]] = {
    # ------------------------------------------------------------ change specs
    "hosting": {
        "state": _items("""
            after way too much back and forth, {v} is where {proj} gets hosted. not reopening that |
            the team signed off this morning, {proj} will be hosted on {v}
        """),
        "change": _items("""
            {proj} is on {v} now, we finally ditched {old} last night |
            {v} took over from {old} as {proj}'s host this week, the cutover went smoothly
        """),
        "again": _items("""
            {proj}'s {v} bill came in lower than expected this month |
            the {proj} app on {v} restarted itself twice overnight, nothing serious
        """),
    },
    "standup": {
        "state": _items("""
            every morning at {v} the {team} folks get together for standup |
            {v} is when {team} has its daily standup, put it in your calendar
        """),
        "change": _items("""
            the {old} slot for {team} standup is gone, it's {v} from Monday |
            people kept missing the {old} {team} standup so it's at {v} going forward
        """),
        "again": _items("""
            can someone cover for me at {team} standup at {v}? dentist |
            new record: today's {team} standup at {v} was over in six minutes
        """),
    },
    "coffee": {
        "state": _items("""
            if you're ever buying me coffee: {v}, every time |
            pretty much all I drink at cafes is {v} tbh
        """),
        "change": _items("""
            dropped the {old} habit, {v} it is from here on |
            the barista had to learn my new order, {v}. the {old} days are over
        """),
        "again": _items("""
            queue at the cafe was huge but I got my {v} |
            spilled half my {v} on the keyboard, great start to the day
        """),
    },
    "datastore": {
        "state": _items("""
            design review agreed that {svc} gets its own {v} database |
            we picked {v} to back {svc}, schema PR coming tomorrow
        """),
        "change": _items("""
            {svc} cut over to {v} last night, the {old} cluster gets decommissioned next week |
            done with {old} for {svc}, all its tables live in {v} now
        """),
        "again": _items("""
            {svc}'s {v} instance is at 40% disk, fine for now |
            ran a restore drill for {svc} from the {v} backups, took 12 minutes
        """),
    },
    "owner": {
        "state": _items("""
            anything that breaks in {svc} goes to {v}, it's their service |
            {svc} is {v}'s baby, they make the calls there
        """),
        "change": _items("""
            {old} passed the torch on {svc}, {v} is running it from now on |
            with {old} moving teams, {svc} is {v}'s responsibility now
        """),
        "again": _items("""
            left the {svc} roadmap questions for {v}, it's their call |
            {v} got paged about {svc} at 3am again, perks of owning it
        """),
    },
    "rate_limit": {
        "state": _items("""
            anything above {v} from {client} gets throttled, that's in their contract |
            {client} can hit the API at up to {v}, beyond that it's 429s
        """),
        "change": _items("""
            {client} renegotiated, they get {v} from today and {old} no longer applies |
            updated {client}'s throttle to {v}; the old {old} setting is gone
        """),
        "again": _items("""
            {client}'s dashboard shows them close to the {v} ceiling |
            told {client} support that {v} is what their plan allows
        """),
    },
    "diet": {
        "state": _items("""
            been {v} for about two years now, so meal ideas need to fit that |
            for context on food stuff: I keep a {v} diet
        """),
        "change": _items("""
            I stopped being {old} last month, I'm {v} now |
            the {old} thing didn't stick, my doctor suggested going {v} and that's what I'm doing
        """),
        "again": _items("""
            found a great {v} place near work |
            my {v} meal prep for the week is done
        """),
    },
    "lives_in": {
        "state": _items("""
            {p} is my {rel}, lives out in {v} |
            {v} is where my {rel} {p} lives, we should visit more
        """),
        "change": _items("""
            {p} has a new address in {v}, sold the {old} flat last month |
            helped {p} move out of {old} on Saturday, their new place is in {v}
        """),
        "again": _items("""
            {p} showed me around their neighbourhood in {v} on a video call |
            sending {p}'s birthday present to {v}
        """),
    },
    "sprint_length": {
        "state": _items("""
            {team}'s sprints are {v} long, planning is on Mondays |
            the {team} folks settled on {v} per sprint
        """),
        "change": _items("""
            {team} is ditching the {old} rhythm, sprints will be {v} long from the next planning on |
            {old} per sprint wasn't working for {team}, they're doing {v} now
        """),
        "again": _items("""
            {team} sprint review today, {v} went by fast |
            {team} retro: {v} was just enough for the sprint goal
        """),
    },
    "lib_version": {
        "state": _items("""
            requirements have {lib} at {v}, in case you're reproducing |
            what's deployed is {lib} {v}, double-checked
        """),
        "change": _items("""
            {lib} went up to {v} today, {old} had that annoying bug |
            merged the renovate PR that moves {lib} past {old}; it's {v} everywhere now
        """),
        "again": _items("""
            CI runs against {lib} {v} and passes |
            looked something up in the {lib} {v} docs since that's what we run
        """),
    },
    "answer_format": {
        "state": _items("""
            format-wise I'd like {v}, that's how I read best |
            when you reply, stick to {v}
        """),
        "change": _items("""
            scrap the {old} thing, I'd rather have {v} these days |
            {old} isn't working for me anymore, switch to {v}
        """),
        "again": _items("""
            this is great, {v} like I asked |
            nice, {v} makes this so much easier to read
        """),
    },
    "swim_day": {
        "state": _items("""
            {v} afternoons I take {kid} to the pool for their lesson |
            {kid}'s got swimming on {v}, so that evening's always busy
        """),
        "change": _items("""
            the pool moved {kid} to the {v} group, so no more {old} swimming |
            {kid}'s swimming clashed with football on {old}, so it's {v} from next week
        """),
        "again": _items("""
            forgot {kid}'s goggles on {v} again, the lesson was fine though |
            {kid} swam a whole length at {v}'s lesson
        """),
    },
    "friday_cutoff": {
        "state": _items("""
            Friday releases of {proj} have to be out by {v}, anything later waits till Monday |
            on Fridays {proj} is frozen from {v} onwards
        """),
        "change": _items("""
            {proj}'s Friday freeze now kicks in at {v}; the {old} cutoff is retired |
            Friday deploys of {proj}: last call is {v} starting this week, {old} was the old limit
        """),
        "again": _items("""
            pushed the {proj} release to Monday, we missed the {v} Friday cutoff |
            someone tried a {proj} deploy after {v} on Friday, the bot blocked it
        """),
    },
    "ci": {
        "state": _items("""
            {proj}'s pipelines live in {v}, ping me for access |
            build and test for {proj} happens in {v}, that was the call
        """),
        "change": _items("""
            {proj} no longer builds on {old}, the pipelines were ported to {v} |
            last {old} job for {proj} ran yesterday, {v} does all the builds from now on
        """),
        "again": _items("""
            {proj} build on {v} took 14 minutes, needs caching |
            restarted the stuck {v} runner for {proj}
        """),
    },
    "running_goal": {
        "state": _items("""
            {v}, that's the running goal I'm working towards |
            running-wise I'm aiming for {v} this year
        """),
        "change": _items("""
            scrapped {old} after the knee thing, aiming for {v} instead |
            new running target is {v}; {old} is off the table
        """),
        "again": _items("""
            intervals this morning, {v} is getting closer |
            tempo run done, working towards {v}
        """),
    },
    "deploy_failure": {
        "state": _items("""
            every broken {svc} deploy traces back to the same thing: {v} |
            if a {svc} deploy goes red it's almost always because {v}
        """),
        "change": _items("""
            scratch my theory that {old}; the {svc} deploys actually fail because {v} |
            {svc} deploy postmortem says the failures happen because {v}; we'd assumed it was because {old}, wrong
        """),
        "again": _items("""
            had to redeploy {svc} twice today because {v} |
            guess why the {svc} deploy broke this morning? yep, {v}
        """),
    },
    "role": {
        "state": _items("""
            {p}'s title is {v}, in case the org chart confuses you |
            ask {p}, they're the team's {v}
        """),
        "change": _items("""
            {p} gave up the {old} job and is {v} starting this month |
            org update: {p} is stepping into the {v} role, leaving {old} behind
        """),
        "again": _items("""
            {p} presented the roadmap in their {v} capacity |
            good call from {p} today, the {v} job suits them
        """),
    },
    # ------------------------------------------------------------ stable specs
    "merge_style": {
        "state": _items("""
            {v} only on {proj} please, I like a tidy history |
            when you land things in {proj}, do it with {v}
        """),
        "again": _items("""
            set the {proj} repo default to {v} so nobody forgets |
            thanks for doing {v} on the {proj} branch
        """),
    },
    "alerts": {
        "state": _items("""
            when {svc} has a problem, {v} is how I want to hear about it |
            route {svc} alerting to me via {v}, other channels just get ignored
        """),
        "again": _items("""
            the {svc} disk warning came through as {v}, perfect |
            keeping {svc} on {v}, the setup is exactly right
        """),
    },
    "migration_window": {
        "state": _items("""
            {proj} database migrations happen {v} and at no other time |
            ops agreement for {proj}: we only touch the schema {v}
        """),
        "again": _items("""
            {proj} migration is ready, will apply it {v} like always |
            the {proj} index change goes in {v}, per the window
        """),
    },
    "indent": {
        "state": _items("""
            my editor is set to {v} and I'd like your code indented the same |
            code style thing: I indent using {v}
        """),
        "again": _items("""
            this snippet mixes styles, convert it to {v} |
            nice, the indentation's {v} this time
        """),
    },
    "seat": {
        "state": _items("""
            if you're booking a flight for me, I need {v} |
            on a plane I'm only happy with {v}
        """),
        "again": _items("""
            checked in early to grab {v} |
            swapped with someone so I'd have {v}
        """),
    },
    "residency": {
        "state": _items("""
            {client} only signed because we guaranteed their data is stored in {v}, nowhere else |
            storing {client} data outside {v} is a contract breach, don't
        """),
        "again": _items("""
            new backup bucket for {client} is in {v} as required |
            {client}'s auditor confirmed everything sits in {v}
        """),
    },
    "kid_allergy": {
        "state": _items("""
            {kid} reacts badly to {v} (proper allergy), we carry an epipen everywhere |
            {v} makes {kid} break out in hives, so it's off the menu
        """),
        "again": _items("""
            asked the restaurant about {v} for {kid}'s sake |
            grandma almost gave {kid} something with {v} in it
        """),
    },
    "queue": {
        "state": _items("""
            {svc}'s async work is going through {v}, agreed in today's review |
            picked {v} as the task queue behind {svc}
        """),
        "again": _items("""
            {v} backlog on {svc} spiked around noon |
            added a dead-letter queue to {svc}'s {v} setup
        """),
    },
    "api_versioning": {
        "state": _items("""
            the versioning scheme for our API is {v}, that's final |
            after the RFC we landed on {v} for the API
        """),
        "again": _items("""
            wrote the migration guide assuming {v}, like we agreed |
            the API gateway config follows {v}
        """),
    },
    "contact": {
        "state": _items("""
            if you need something from {client}, email {v}, they handle our account |
            {v} runs the relationship with us on the {client} side
        """),
        "again": _items("""
            got the signed SOW back from {v} at {client} |
            quick sync with {client}'s {v} tomorrow
        """),
    },
    "birthday": {
        "state": _items("""
            {p} was born on {v}, put it in the calendar |
            note for next year: {p} turns a year older every {v}
        """),
        "again": _items("""
            ordered a cake for {p}, {v} is close |
            party planning for {p}'s big day on {v}
        """),
    },
    "their_pref": {
        "state": _items("""
            heads up when working with {p}: they like {v} |
            {p} is a big fan of {v}, keep that in mind
        """),
        "again": _items("""
            set things up with {v} since {p} likes it that way |
            {p} was happy we went with {v}
        """),
    },
    "failing": {  # the state is the assistant's answer to a lead ("why does {job} keep failing?")
        "state": _items("""
            Every time {job} fails it's for one reason: {v}. |
            From the last few runs it's clear: when {v}, {job} fails. That's the cause each time.
        """),
        "again": _items("""
            rerunning {job}, it died because {v} again |
            ugh, {v}, so {job} didn't finish last night
        """),
    },
    "flaky": {
        "state": _items("""
            the reason {svc}'s test_{fn} passes and fails at random is that {v} |
            {svc} has a flaky test, test_{fn}, and it's because {v}
        """),
        "again": _items("""
            quarantining test_{fn} in {svc} until we fix it, it's still that {v} |
            {svc}: test_{fn} failed then passed on rerun, because {v}
        """),
    },
    "timeout": {  # the state is the assistant's answer to a lead ("how long does {svc} wait on upstreams?")
        "state": _items("""
            It's {v}: any upstream call from {svc} that takes longer is aborted. |
            Per the {svc} config, an upstream gets {v} to respond before the request is dropped.
        """),
        "again": _items("""
            lots of upstream timeouts at {v} in the {svc} logs this morning |
            the payment provider took longer than {v} so {svc} bailed
        """),
    },
    "billing_cycle": {
        "state": _items("""
            {client}'s contract has them paying us {v} |
            finance sends {client} an invoice {v}
        """),
        "again": _items("""
            reminded finance that {client} gets billed {v} |
            {client} paid on time again, billing them {v} works
        """),
    },
    "meeting_free": {
        "state": _items("""
            my calendar's closed every {v} morning, that's deep work time |
            if someone wants to meet on a {v} morning, the answer's no, that's my rule
        """),
        "again": _items("""
            moved the vendor call off {v} morning, protected time |
            got so much done this {v} morning without meetings
        """),
    },
    "holiday": {
        "state": _items("""
            we're going to {v} over {hol}, everyone agreed |
            after much arguing, {hol} will be spent in {v}
        """),
        "again": _items("""
            found a nice apartment in {v} for {hol} |
            {v} weather for {hol} looks mild
        """),
    },
    "budget": {
        "state": _items("""
            whatever we do for the {event}, it has to fit in {v} |
            agreed with my partner that the {event} costs {v} at most
        """),
        "again": _items("""
            spent about half of the {v} for the {event} so far |
            that quote would blow the {v} {event} budget
        """),
    },
    "sla": {
        "state": _items("""
            contractually {proj} must be up {v} of the time |
            {v} availability is what {proj} guarantees its customers
        """),
        "again": _items("""
            the {proj} status page shows {v} or better for the quarter |
            one more incident and {proj} drops below its {v}
        """),
    },
    # ------------------------------------------------------------ distractors (never a durable fact)
    "hypothetical": {
        "state": _items("""
            say {svc} were rewritten on {x}, how bad would the migration be? not proposing it, just curious |
            in a world where {proj} only deployed once a week, would QA keep up? pure thought experiment |
            if {x} cost nothing I'd be tempted to put {proj} on it, but that's a daydream
        """),
    },
    "question": {
        "state": _items("""
            is {x} a sensible choice for {svc}, or overkill? |
            how do teams usually decide whether {proj} needs {x}? asking before I pitch anything |
            would requiring two reviewers on every {proj} PR slow us down too much?
        """),
    },
    "temporary": {
        "state": _items("""
            while the vendor fixes their bug, route {svc} around the cache, we'll undo it tomorrow |
            {proj} releases are paused until Thursday's demo is over, then back to normal |
            during the migration tonight nobody merge into {proj}, just tonight
        """),
    },
    "rejected": {
        "state": _items("""
            the {x} proposal for {svc} got shot down in review |
            {proj} won't be using {x}, the team voted it down |
            spent a week prototyping {svc} on {x}, verdict: no, we're dropping the idea
        """),
    },
    "personal_maybe": {
        "state": _items("""
            daydreaming about a year abroad in {city}, not happening anytime soon |
            part of me wants to get a dog, but realistically not with this flat |
            if we won the lottery I'd buy a little place in {city}, one can dream
        """),
    },
}
