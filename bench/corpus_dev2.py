"""Fact wordings for the "dev2" split of the synthetic corpus (bench/corpus.py): tuning material.

The dev and test splits of corpus.py share their fact templates by index parity, and split "fresh"
(held out, never tuned on) rewords them in bench/corpus_fresh.py.  This module holds a second
set of new wordings for split "dev2", which IS tuning material: tune on it freely, so that tuning
meets more ways of saying a fact than the dev and test templates offer, while fresh stays held out.
For every spec that plants a fact (kinds "stable" and "change") it has new ``state`` templates,
new ``change`` templates for the changes and new ``again`` templates for the later restatements;
for every distractor spec new ``state`` templates (still hypotheticals, questions, temporary
arrangements or rejected options: never a durable fact).  Everything else in a dev2 corpus (names,
questions, noise, leads, decoys) is the dev split's.

Each bank has twice as many templates as corpus_fresh.py has for it (so twice as many as the dev
split takes from the same bank of corpus.py), and uses the same slots as that bank under the same
conventions (a ``change`` names both ``{old}`` and ``{v}``; a ``state`` or ``again`` names ``{v}``
and the subject's slots; the ``state`` of an assistant-voiced spec is the assistant's answer).
They are written as people type in chat, in sentence shapes neither the corpus.py bank nor
corpus_fresh.py uses, and were written blind to the fact extractor: from corpus.py's templates and
slot pools only, without reading the extractor, its tests, its phrasing sets or its learned data.

``DEV2[spec key][bank]`` is a tuple of templates; corpus.py uses them for split "dev2" and records
them as ``spec.dev2_bank.index`` in ``meta["templates"]``.
"""

from __future__ import annotations


def _items(text: str) -> tuple[str, ...]:
    """ "a | b" -> ("a", "b"), line breaks inside an item are spaces (corpus._items; corpus imports this module)."""
    return tuple(item.strip() for item in " ".join(text.split()).split("|"))


DEV2: dict[str, dict[str, tuple[str, ...]]] = {
    # ------------------------------------------------------------ change specs
    "hosting": {
        "state": _items("""
            vote's in and {v} won, so that's where {proj} lives from now on |
            ok so {proj} hosting: compared pricing on like five providers and {v} wasn't even close, that's our
            pick |
            {v} it is for {proj}, signed the contract an hour ago |
            picked a host for {proj} at last: {v}. migration plan next week
        """),
        "change": _items("""
            bye bye {old}, {proj} got migrated to {v} over the weekend |
            {proj} hosting migration wrapped up, {old} account closed and everything's served from {v} |
            we pulled {proj} off {old} because of the price hike and put it on {v} |
            {old} kept having outages so {proj} lives on {v} now, dns flipped last night
        """),
        "again": _items("""
            deployed a {proj} hotfix to {v} in like 40 seconds, love it |
            {v} is having an incident rn and {proj} is down with it |
            added a second region for {proj} in the {v} dashboard |
            tbh searching {proj}'s logs on {v} is kinda painful
        """),
    },
    "standup": {
        "state": _items("""
            if you need the {team} crew in the morning, they're all on the standup call at {v} |
            joining {team} means a {v} standup every single day, no skipping |
            {team}'s daily sync happens at {v}, 15 min max |
            the {team} standup? {v}, every weekday, link's in the channel
        """),
        "change": _items("""
            {team} voted to shift standup to {v}, {old} was brutal for the folks on the west coast |
            updated the {team} standup invite. {old} is dead, long live {v} |
            so the {team} standup's getting moved, {v} every day now since {old} clashed with the exec sync |
            no more {old} standups for {team}! we meet at {v} now
        """),
        "again": _items("""
            running five min late to the {v} {team} standup, start without me |
            {team} standup at {v} was just everyone saying "no blockers" lol |
            set an alarm for {v} so I stop missing {team} standup |
            the {v} {team} standup clashes with school drop-off tomorrow, will join late
        """),
    },
    "coffee": {
        "state": _items("""
            my coffee order is boring: {v}, no sugar, nothing fancy |
            ngl I'm strictly {v} when it comes to coffee |
            whenever I'm at a cafe I get {v}, without fail |
            coffee-wise I like {v} best, been that way for years
        """),
        "change": _items("""
            swapped my {old} for {v} a couple weeks ago and not going back |
            ok confession: I've given up {old}. {v} is my drink now |
            the cafe guy was shocked I didn't order {old} today. it's {v} for me from now on |
            {old} was getting to be too much, so I'm on {v} these days
        """),
        "again": _items("""
            I'd kill for my {v} right now |
            the work cafe finally learned to make {v} properly |
            two {v}s in and the meeting still makes no sense |
            grabbing my usual {v} before the train, want anything?
        """),
    },
    "datastore": {
        "state": _items("""
            for {svc}'s persistence layer we're going {v}, the spike results were convincing |
            {v} won the bake-off for {svc}, so that's what it'll sit on |
            settled: {svc} keeps its state in {v}. no more debate in the channel pls |
            after comparing options, {svc}'s data goes in {v}. ADR is merged
        """),
        "change": _items("""
            {svc} data migration finished, {old} is out and {v} is serving reads and writes |
            the backfill's done, {svc} runs on {v} now. RIP {old} |
            we ripped {old} out of {svc} this sprint and replaced it with {v} |
            heads up: {svc} doesn't talk to {old} anymore, all queries hit {v}
        """),
        "again": _items("""
            tuned the {v} connection pool for {svc}, p99 dropped nicely |
            {svc} {v} schema migration went in clean |
            need read access to {svc}'s {v} db for the report, who do I ask? |
            the {v} storage bill for {svc} doubled, gotta look at retention
        """),
    },
    "owner": {
        "state": _items("""
            {svc} questions? {v}'s the one, they own it end to end |
            PRs touching {svc} need {v}'s approval, it's their service |
            who owns {svc}? {v}. always has |
            {svc} sits with {v}, they're the owner and the on-call lead for it
        """),
        "change": _items("""
            {v} officially inherited {svc} from {old} today |
            reorg news: {svc} goes to {v}, {old} is off it |
            {old} doesn't own {svc} anymore, so take {svc} stuff to {v} |
            handover done, {v} runs {svc} now and {old} can finally focus on the new thing
        """),
        "again": _items("""
            {v} wants all {svc} changes behind a flag, their service their rules |
            asked {v} to review the {svc} PR since it's theirs |
            {v} vetoed the {svc} rename, which is fair, they own the thing |
            {v} is out next week so {svc} stuff waits, nobody else owns it
        """),
    },
    "rate_limit": {
        "state": _items("""
            {client}'s API quota: {v}. don't raise it without sales signing off |
            heads up for the integration work: {client} can't go over {v} |
            per the contract we throttle {client} at {v} |
            the gateway config says {v} for {client}, that's the ceiling we agreed on
        """),
        "change": _items("""
            {client} upgraded their plan, throttle is {v} as of this morning and {old} is history |
            support ticket closed: {client} is allowed {v} now, previously {old} |
            {old} wasn't cutting it for {client}'s batch jobs so we gave them {v} |
            changed the gateway rule for {client}: {v} replaces {old}
        """),
        "again": _items("""
            {client}'s nightly sync is spiking right up to {v} |
            {client} asked if they could burst past {v}, told them no |
            load test for {client} at {v} looked fine |
            {client} got throttled at {v} during their launch, kinda expected
        """),
    },
    "diet": {
        "state": _items("""
            fyi whenever you suggest food: I'm {v} |
            I've been eating {v} since uni, so keep recipe ideas in that lane |
            as a {v} I'm picky about restaurant picks lol |
            my partner eats everything but I stick to {v} food, so meal plans should be {v}
        """),
        "change": _items("""
            ended my {old} phase, eating {v} now |
            doc wanted more protein in my diet, so {old} is out and I'm {v} now |
            heads up, diet change: {v} from here on. the {old} era is over |
            after a year of being {old} I've gone {v}
        """),
        "again": _items("""
            any {v} ideas for a dinner party? I'm hosting Sat |
            the work canteen finally has {v} options, win |
            being {v} at a bbq is a whole thing lol |
            bought a {v} cookbook, first recipe was a hit
        """),
    },
    "lives_in": {
        "state": _items("""
            my {rel} {p} is over in {v}, that's why I'm always flying there |
            {v} is home for my {rel}, {p} |
            if you ever hit {v}, my {rel} {p} lives there and knows all the good spots |
            we'll stay at my {rel} {p}'s place in {v}, they've lived there forever
        """),
        "change": _items("""
            {p} finally packed up and left {old}, they're in {v} now |
            my {rel} {p} took the job offer, so it's goodbye {old}, hello {v} |
            we'll have to visit {p} in {v} from now on, they gave up the place in {old} |
            can't believe {p} swapped {old} for {v}, but they seem happy there
        """),
        "again": _items("""
            {p} says it's snowing in {v}, jealous |
            {p} keeps sending me {v} restaurant recs |
            flight to see {p} in {v} is booked |
            {p} is hosting us in {v} next month
        """),
    },
    "sprint_length": {
        "state": _items("""
            each sprint in {team} runs {v}, demo on the last day |
            heads up for {team} newbies: sprint = {v} |
            in {team} we plan {v} of work at a time, that's our sprint |
            {team}'s sprint? {v}, start to finish
        """),
        "change": _items("""
            {team} retro outcome: sprints are {v} now, {old} felt wrong |
            from the next planning on, each {team} sprint lasts {v}; the {old} setup is done |
            {team} won't do sprints of {old} anymore, they run {v} now |
            manager approved it: {team} goes with {v} per sprint, replacing {old}
        """),
        "again": _items("""
            {team} sprint planning today, trying to fit {v} of work in |
            {v} flew by, {team} demo is tomorrow already |
            burndown for {team} looks good halfway through the {v} |
            {team} overcommitted again, {v} is never as long as it sounds
        """),
    },
    "lib_version": {
        "state": _items("""
            fwiw {lib} in our repo is {v} |
            {lib} {v} is what we run, pls don't use newer APIs |
            {lib} here is {v}, so newer docs may not match |
            we're running {lib} version {v} across all services
        """),
        "change": _items("""
            {lib} upgrade landed, {old} -> {v} |
            finally got off {lib} {old}, {v} is live after the test suite passed |
            {lib} got bumped to {v} today, so the {old} workarounds can go |
            dependabot PR merged, {lib} is at {v} now (bye {old})
        """),
        "again": _items("""
            found a bug in {lib} {v}, opening an issue upstream |
            the {lib} {v} changelog mentions our edge case |
            {lib} {v} and the new Python version get along fine |
            reading {lib} {v} source to figure out the retry logic
        """),
    },
    "answer_format": {
        "state": _items("""
            quick meta thing: {v} works best for me when you reply |
            can you default to {v}? easier for me to skim |
            {v}, always, when you answer me. long walls of text lose me |
            my brain likes {v}, so pls answer that way
        """),
        "change": _items("""
            tweak to how you answer me: {v} now, drop {old} |
            I know I asked for {old}, but {v} suits me better now |
            going forward swap {old} for {v} in your replies |
            been thinking, {old} isn't helping. {v} from here on pls
        """),
        "again": _items("""
            love that you did {v} here |
            could you redo that with {v}? that's how I like it |
            {v} is so much nicer, thanks for sticking to it |
            ty, {v} is exactly my style
        """),
    },
    "swim_day": {
        "state": _items("""
            {kid} swims {v}s at the leisure centre |
            {v} = pool day for {kid}, don't plan anything |
            {kid} started swim club, sessions are {v}s after school |
            can't do {v} evenings, {kid} has swimming
        """),
        "change": _items("""
            {kid}'s swim got moved to {v}, so {old} is free again |
            swim coach switched {kid}'s group, so it's {v} now and not {old} |
            {old} swimming is over for {kid}; new slot is {v} |
            {kid} begged to be in their friend's group, which means swimming moves off {old} onto {v}
        """),
        "again": _items("""
            {kid} forgot their towel at {v} swim, classic |
            {kid} did backstroke for the first time this {v} |
            {v} pool run with {kid}, then dinner |
            {kid} didn't want to go swimming this {v}, bribed them with ice cream
        """),
    },
    "friday_cutoff": {
        "state": _items("""
            Fridays: {proj} ships before {v} or it doesn't ship |
            {v} on a Friday is the hard stop for {proj} deploys |
            team rule, {proj} has no releases after {v} on Fridays, weekends are sacred |
            if it's Friday and past {v}, hands off {proj}
        """),
        "change": _items("""
            {proj} Friday cutoff update: {v} now. {old} didn't work for the EU folks |
            we redid the {proj} Friday rule: {old} is out, {v} is the last deploy time |
            after last Friday's mess, {proj} deploys stop at {v} on Fridays, not {old} like before |
            {proj}: Friday freeze {old} -> {v}, effective immediately
        """),
        "again": _items("""
            {v} Friday freeze on {proj} just kicked in, merge queue paused |
            rushing to get the {proj} fix in before {v}, it's Friday |
            missed {proj}'s {v} Friday window by ten minutes, Monday it is |
            it's Friday and five past {v}, so the {proj} patch waits
        """),
    },
    "ci": {
        "state": _items("""
            for {proj} we're standardizing on {v} for builds |
            {v} runs {proj}'s tests and builds, decided in today's infra sync |
            {proj} pipelines -> {v}. that's settled |
            chose {v} to build {proj}, mostly for the caching
        """),
        "change": _items("""
            {proj} moved CI to {v}, the {old} config is deleted |
            {old} licensing got silly so {proj} CI is on {v} now |
            no more {old} for {proj}, rewrote the whole pipeline for {v} this week |
            {proj}'s builds run on {v} starting today; we shut down {old}
        """),
        "again": _items("""
            {proj} is red on {v}, flaky e2e again |
            added a matrix build to {proj}'s {v} setup |
            {v} outage is blocking {proj} merges |
            {proj} on {v} takes 9 min end to end now
        """),
    },
    "running_goal": {
        "state": _items("""
            this year's running thing for me is {v} |
            signed up for a training plan aimed at {v} |
            all my runs are building up to {v} |
            the dream is {v}, and I'm giving it a proper go
        """),
        "change": _items("""
            coach and I agreed {old} was unrealistic, so I'm aiming at {v} now |
            bye {old}, hello {v}. running goal changed |
            switching my running focus to {v}, letting {old} go |
            after the injury, {old} is shelved and {v} is the new goal
        """),
        "again": _items("""
            hill reps today, all for {v} |
            legs dead but {v} is still the plan |
            bought new shoes, {v} here I come |
            my watch thinks I'm on pace for {v}
        """),
    },
    "deploy_failure": {
        "state": _items("""
            the root cause of all these {svc} deploy failures is that {v} |
            noticed a pattern in the {svc} rollouts: {v} and the deploy dies |
            {svc} can't deploy cleanly b/c {v}, that's what keeps happening |
            why does deploying {svc} keep blowing up? {v}. every single time
        """),
        "change": _items("""
            update on {svc} deploys: it was never that {old}. the real issue is that {v} |
            dug deeper into {svc}, the deploys fail because {v}; the theory that {old} was a red herring |
            so we blamed {svc}'s failed deploys on the fact that {old}, but actually {v} |
            second postmortem for {svc}: not because {old} after all, it's because {v}
        """),
        "again": _items("""
            {svc} rollout failed at 4pm, {v}, same as always |
            rolled back {svc} again since {v} |
            {svc} deploy #3 today, failed because {v}, I'm losing it |
            watched the {svc} deploy die live: {v}
        """),
    },
    "role": {
        "state": _items("""
            for context, {p} is the {v} here |
            {p} has been our {v} since last spring |
            our {v}? that's {p}, been that way for a while |
            {p} holds the {v} position on our team
        """),
        "change": _items("""
            {p} isn't {old} anymore, they took the {v} job last week |
            announcement today: {p} becomes {v}, handing off the {old} duties |
            {p} finally made the jump to {v} after years as {old} |
            new title for {p}: {v}. the {old} seat is open
        """),
        "again": _items("""
            {p} in full {v} mode today |
            {p} signed off on it, that's the {v}'s call |
            {p} did a great job as {v} in the planning session |
            meeting with {p}, our {v}, after lunch
        """),
    },
    # ------------------------------------------------------------ stable specs
    "merge_style": {
        "state": _items("""
            {v} for {proj} pls, that's my strong preference |
            on {proj} I want everything landed as {v} |
            my take for {proj} PRs: {v}, no debate |
            when merging into {proj}, {v} is what I like
        """),
        "again": _items("""
            landed the {proj} PR with {v}, per my usual preference |
            someone merged differently on {proj}, redid it with {v} |
            bisecting {proj} is way easier thanks to {v} |
            {v} on {proj} again today, old habits
        """),
    },
    "alerts": {
        "state": _items("""
            pls set up {svc} so alerts come to me as {v} |
            {v} is my preferred way to get {svc} alerts |
            {svc} alerting for me = {v}, thanks |
            I only want {svc} alerts as {v}, anything else gets lost
        """),
        "again": _items("""
            the {svc} alerting is finally right, {v} and nothing else |
            keep {svc} on {v} when you redo the alert config |
            glad we set {svc} up with {v}, way less noise |
            checked: {svc} alerts still go out as {v}
        """),
    },
    "migration_window": {
        "state": _items("""
            hard constraint on {proj}: if it migrates the db, it runs {v} |
            please don't ever migrate {proj}'s db except {v} |
            migrating {proj}? do it {v}. that's the only allowed time |
            the only time {proj} migrations may run is {v}
        """),
        "again": _items("""
            {proj} migration prepped, running it {v} per our window |
            the {proj} backfill migration goes out {v}, as required |
            the {proj} column drop is waiting for the window, {v} |
            sorry, {proj} migrations only {v}, so the PR waits
        """),
    },
    "indent": {
        "state": _items("""
            indentation preference: {v}. pls stick to it |
            I'm a {v} person when it comes to indenting |
            {v} for indents in anything you send me, that's how I like it |
            formatting thing: I like {v}, not anything else
        """),
        "again": _items("""
            the snippet came back with the wrong indent, swap it to {v} |
            {v}, thank you for remembering |
            reformatted to {v} before committing, as I like |
            pasted your code in and it was already {v}, perfect
        """),
    },
    "seat": {
        "state": _items("""
            when you look at flights for me, {v} is non-negotiable |
            I'm someone who needs {v} on planes |
            {v} or I'm miserable the whole flight |
            seat preference: {v}, always
        """),
        "again": _items("""
            airline put me in the middle, had to beg for {v} |
            {v} secured for next week's flight |
            online check-in opens at 6, gotta grab {v} |
            the upgrade wasn't worth it, I'd rather just have {v}
        """),
    },
    "residency": {
        "state": _items("""
            {client}'s contract says all their data lives in {v}, zero exceptions |
            compliance note: {client}'s data may only be stored in {v} |
            can't put {client} stuff on any server outside {v}, legal was clear |
            {v} is the only region {client}'s data is allowed in
        """),
        "again": _items("""
            provisioned the {client} replica in {v}, per their requirement |
            {client}'s DPO asked us to confirm again that their storage is in {v} |
            picked a region in {v} for {client}'s new logs bucket, obviously |
            {client} wanted proof their backups never leave {v}, sent it over
        """),
    },
    "kid_allergy": {
        "state": _items("""
            {kid} can't have {v}, proper allergy, ambulance-level |
            {kid} had a scary reaction to {v} last year, it's a real allergy so we avoid it completely |
            {v} + {kid} = hospital, learned that the hard way |
            the allergist confirmed it: {kid} has to avoid {v}, for good
        """),
        "again": _items("""
            read every label at the shop looking for {v}, thanks to {kid} |
            told the birthday party mum about {kid} and {v} |
            {kid}'s class is {v}-free now, the teacher sorted it |
            cafe swore the cake had zero {v} in it, {kid} was fine
        """),
    },
    "queue": {
        "state": _items("""
            {svc} jobs go through {v}, that's the call from architecture review |
            background processing for {svc}: {v}. done deciding |
            we'll build {svc}'s workers on {v} |
            {v} beat the alternatives for {svc}'s task queue
        """),
        "again": _items("""
            {svc}'s {v} workers are keeping up fine |
            bumped {v} concurrency for {svc}, jobs clearing faster |
            {v} dashboard for {svc} shows zero failed tasks |
            debugging a stuck {v} consumer in {svc}
        """),
    },
    "api_versioning": {
        "state": _items("""
            the API is going with {v}, arch review approved it |
            {v} it is for our public API, after three rounds of debate |
            public API versioning approach = {v}, locked in |
            for the API we'll use {v}, no more bikeshedding
        """),
        "again": _items("""
            new endpoint follows {v} like the rest of the API |
            had to explain {v} to a customer, they got it quickly |
            {v} for the API is paying off with the v2 rollout |
            the SDK generator now understands our {v}
        """),
    },
    "contact": {
        "state": _items("""
            {v} is our go-to at {client}, send everything their way |
            on the {client} side, {v} is the point of contact |
            need something from {client}? ping {v} |
            {client} gave us {v} as the contact for the whole project
        """),
        "again": _items("""
            {v} from {client} is asking for the status report |
            lunch with {client}'s {v} went well |
            {v} said {client} will renew, fingers crossed |
            emailed {v} at {client} the revised quote
        """),
    },
    "birthday": {
        "state": _items("""
            {p}'s bday is {v}, don't let me forget |
            mark {v} in the calendar: {p}'s birthday |
            every {v} we do cake for {p}, it's their birthday |
            {p}'s birthday falls on {v}
        """),
        "again": _items("""
            got {p} a gift for {v} |
            {p}'s bday dinner on {v}, booked a table |
            {v} is next week, need a birthday card for {p} |
            {p} wants something small for their birthday on {v}
        """),
    },
    "their_pref": {
        "state": _items("""
            {p} really works better with {v}, they said so in our 1:1 |
            learned today that {p} likes {v}, good to know |
            {p}'s preference, per our chat: {v} |
            if you're working with {p}, go for {v}, that's what they prefer
        """),
        "again": _items("""
            made sure to do {v} with {p} this week, they were happy |
            {p} brought up {v} again, they really mean it |
            stuck to {v} for {p}'s sake and it paid off |
            {p} was much happier with {v} today, as expected
        """),
    },
    "failing": {  # the state is the assistant's answer to a lead ("why does {job} keep failing?")
        "state": _items("""
            From what I can see, {job} fails because {v}. Fix that and it should go green. |
            The logs point to one thing: {v}. That's why {job} keeps dying. |
            Short version: {job} fails when {v}. |
            I'd bet on this: {v}. Every failed run of {job} I've looked at traces back to it.
        """),
        "again": _items("""
            {job} blew up overnight, {v} once more |
            {job} status: failed. reason: {v}. shocker |
            had to restart {job} by hand, {v} |
            {job} failed at 2am, {v}, same old
        """),
    },
    "flaky": {
        "state": _items("""
            mystery solved for {svc}'s test_{fn}: it's flaky because {v} |
            {svc}'s test_{fn} sometimes fails b/c {v} |
            the flake in {svc} (test_{fn}) comes from the fact that {v} |
            heads up, test_{fn} over in {svc} isn't broken, just flaky: {v}
        """),
        "again": _items("""
            test_{fn} flaked in {svc} on my PR, {v} |
            {svc} build went red on test_{fn}, {v}, hit rerun |
            another test_{fn} flake in {svc}, {v} |
            test_{fn} ({svc}) again, since {v}
        """),
    },
    "timeout": {  # the state is the assistant's answer to a lead ("how long does {svc} wait on upstreams?")
        "state": _items("""
            {v}. Past that, {svc} cancels the upstream call and returns an error. |
            In {svc}, upstreams have {v} before the call times out. |
            {svc} allows {v} for each upstream call before timing out. |
            Upstream requests from {svc} are given {v}, then they fail with a timeout.
        """),
        "again": _items("""
            {svc} timed out on the pricing API after {v} |
            {v} isn't enough for {svc} when the upstream is slow, seeing errors |
            bunch of 504s from {svc} right at {v} |
            {svc}'s upstream cutoff of {v} saved us during the provider outage
        """),
    },
    "billing_cycle": {
        "state": _items("""
            invoices for {client} go out {v} |
            we charge {client} {v}, it's in the MSA |
            finance note: {client} billing runs {v} |
            {client} settles up with us {v}
        """),
        "again": _items("""
            prepped the {v} invoice run, {client} included |
            {client} paid the {v} bill early |
            finance asked if {client} is still billed {v}, yes |
            {client} wants to keep paying {v}, told sales that's fine
        """),
    },
    "meeting_free": {
        "state": _items("""
            no meetings before noon on {v}s, I need that block for deep work |
            {v} mornings are sacred, don't put anything on my calendar |
            {v} before lunch is focus time for me, so decline anything that lands there |
            pls keep my {v} mornings empty, always
        """),
        "again": _items("""
            declined a {v} 10am, sorry not sorry |
            wrote a whole design doc on {v} morning with zero meetings |
            someone tried to sneak a sync onto {v} morning, nope |
            {v} morning focus block paid off again
        """),
    },
    "holiday": {
        "state": _items("""
            {hol} plans locked in: we're heading to {v} |
            we're doing {hol} in {v} this year, decided last night |
            {v} is where we'll be for {hol} |
            booked nothing yet but the destination for {hol} is settled: {v}
        """),
        "again": _items("""
            looking up restaurants in {v} for {hol} |
            kids are excited about {v} over {hol} |
            {hol} in {v}: flights done, just need a car |
            do I need a jacket for {v} over {hol}?
        """),
    },
    "budget": {
        "state": _items("""
            {v} is the absolute max for the {event} |
            the {event} gets {v} and not a cent more |
            budget ceiling for the {event}: {v} |
            we set {v} as the limit on the {event}, hard stop
        """),
        "again": _items("""
            with {v} total for the {event}, this quote is too much |
            tracking {event} costs against the {v} limit |
            cut a few extras, the {event} has to stay under {v} |
            {event} spend so far: about two thirds of {v}
        """),
    },
    "sla": {
        "state": _items("""
            {proj} promises customers {v} uptime |
            our {proj} contracts commit to {v} availability |
            {v} uptime is the {proj} SLA, don't forget that in the postmortem |
            {proj}'s SLA: {v}. that's what we're on the hook for
        """),
        "again": _items("""
            {proj} uptime this month was right at {v}, too close |
            that outage ate most of {proj}'s {v} error budget |
            {proj} is comfortably above {v} for the year |
            customers asked about {proj}'s {v} commitment in the QBR
        """),
    },
    # ------------------------------------------------------------ distractors (never a durable fact)
    "hypothetical": {
        "state": _items("""
            random thought, what would {svc} look like on {x}? not suggesting we do it |
            say hypothetically we dropped code review for {proj}, how fast would things break? |
            in some parallel universe where {proj} runs on {x}, do our costs drop? just wondering |
            if money were no object I'd rebuild {svc} with {x}, but obviously it is |
            purely speculative: could {svc} survive without its cache? |
            would {proj} even need a staging env if we had {x}? thought experiment, nothing more
        """),
    },
    "question": {
        "state": _items("""
            thoughts on {x} for {svc}? genuinely asking |
            is {proj} big enough to need {x} yet? |
            does it make sense to pin every dependency in {proj}, or is that overkill? |
            what's your take, should {svc} get its own database? |
            any reason not to try {x} on {proj}? |
            how many reviewers should a {proj} PR have, one or two?
        """),
    },
    "temporary": {
        "state": _items("""
            {svc} stays in read-only mode till the incident's closed, then we flip it back |
            skipping code review on {proj} for the hotfix only, back to normal after |
            for the next hour, nobody restart {svc} pls |
            this sprint only, {proj} bugs take priority over features |
            until the vendor patch lands, {svc} runs with debug logging on |
            for the demo tomorrow only, {proj} main is frozen
        """),
    },
    "rejected": {
        "state": _items("""
            {x} for {svc} got a firm no from the architects |
            we're not doing {x} on {proj}, decided after the cost estimate |
            tried to sell the team on {x} for {svc}, nobody bought it, so it's dead |
            {x} came up for {proj} again and we said no again |
            scrapped the idea of {x} for {svc}, too much ops overhead |
            {proj} + {x} = nope, we killed that proposal
        """),
    },
    "personal_maybe": {
        "state": _items("""
            one of these years I might learn to surf in {city}, or not lol |
            sometimes I think about quitting and opening a bakery. won't happen |
            kinda fantasizing about a month in {city}, no actual plans |
            maybe I'll take up pottery someday, who knows |
            if I weren't so lazy I'd cycle to work |
            could see us retiring to {city} maybe, way in the future
        """),
    },
}
