"""Fact wordings for the "dev3" split of the synthetic corpus (bench/corpus.py): tuning material.

A third set of new wordings, after bench/corpus_fresh.py (split "fresh", held out) and
bench/corpus_dev2.py (split "dev2").  Split "dev3" takes the test split's names, questions and
other banks, like fresh, with these fact-bearing banks instead: for every spec that plants a fact
(kinds "stable" and "change") new ``state``, ``change`` and ``again`` templates, three per bank; for
every distractor spec four new ``state`` templates (hypotheticals, questions, temporary arrangements,
rejected options, idle maybes: never a durable fact).  Same slots and conventions as corpus_dev2.py.

They were written blind to the fact extractor (from corpus.py's templates and slot pools only, in
sentence shapes neither corpus.py, corpus_fresh.py nor corpus_dev2.py uses), and dev3 was measured
once, before anything was tuned on it, as a second figure for wordings the extractor never met.
Since then it is tuning material, like dev2: fresh stays the held-out figure.

``DEV3[spec key][bank]`` is a tuple of templates; corpus.py uses them for split "dev3" and records
them as ``spec.dev3_bank.index`` in ``meta["templates"]``.
"""

from __future__ import annotations


def _items(text: str) -> tuple[str, ...]:
    """ "a | b" -> ("a", "b"), line breaks inside an item are spaces (corpus._items; corpus imports this module)."""
    return tuple(item.strip() for item in " ".join(text.split()).split("|"))


DEV3: dict[str, dict[str, tuple[str, ...]]] = {
    # ------------------------------------------------------------ change specs
    "hosting": {
        "state": _items("""
            re {proj}: hosting is {v}. cheapest option that didn't make ops cry, so that's where it goes |
            spent all tuesday on pricing pages and the upshot is that {proj} gets hosted by {v}, boss signed off |
            if anyone asks where {proj} lives: {v}. infra approved it yesterday and the account is set up
        """),
        "change": _items("""
            the {proj} cutover is done, took all night but it's running on {v} and the {old} account is cancelled |
            since {old} doubled their prices, {proj} got packed up and shipped over to {v}; all traffic is
            there now |
            correction for the infra doc: {proj} isn't on {old} anymore, it was rehomed on {v} last week
        """),
        "again": _items("""
            the {v} status page says degraded in eu, which explains why {proj} is sluggish since that's where
            it runs |
            onboarding the new dev on {proj}, step one was getting them a {v} login so they can see the deploys |
            whoever set up autoscaling for {proj} on {v}, thank you, it ate the launch spike
        """),
    },
    "standup": {
        "state": _items("""
            new to {team}? the one meeting you can't skip is standup, {v} each morning |
            {v} every weekday is {team}'s standup, which is why you never catch them before that |
            re {team}: standup happens daily at {v} in the small room, remote folks dial in
        """),
        "change": _items("""
            half of {team} is in another timezone now so we dropped the {old} standup, they meet at {v} every day |
            calendar invites for the {team} standup are updated to {v} daily. ignore any stale {old} ones |
            {team} standup is a {v} thing as of this week, {old} kept colliding with the all-hands so it
            moved for good
        """),
        "again": _items("""
            bus was late and I nearly missed {team}'s {v} standup again |
            blocked on the review, will raise it at the {v} {team} standup tomorrow |
            {team} standup ({v}) today was mostly people complaining about the outage
        """),
    },
    "coffee": {
        "state": _items("""
            tell you what, my whole personality before 10am is {v}. that's my order every single day |
            whenever someone does a coffee run they already know, {v} for me, never anything else |
            the baristas downstairs start on my {v} the moment I walk in, that's how predictable my order is
        """),
        "change": _items("""
            my stomach couldn't deal with {old} anymore, so my order's {v} these days and honestly I like it more |
            plot twist, I'm team {v} now. gave up {old} on a dare and never went back |
            the loyalty card lady was confused when I asked for {v}, but {old} is done, that's my new regular
        """),
        "again": _items("""
            the new place on the corner makes a decent {v}, finally somewhere near the office |
            sipping my {v} while the build runs, life is good |
            you can tell it's monday, I'm on my third {v}
        """),
    },
    "datastore": {
        "state": _items("""
            after the load tests we chose {v} for {svc}, mostly because the team already knows it inside out |
            re {svc} storage: {v}. writing up the reasoning for the wiki but it's decided |
            {svc} is going to be backed by {v}, the spike convinced even the skeptics
        """),
        "change": _items("""
            dropped the {old} tables for {svc} this morning, it's been served from {v} for a week and nothing
            broke |
            {svc} storage switch is final, it sits on {v}. the {old} cluster only stays around for the audit
            snapshot |
            ok so {old} couldn't keep up with {svc}'s write load and we rebuilt its persistence on {v}, cutover done
        """),
        "again": _items("""
            someone ran a full table scan on {svc}'s {v} in prod and everything crawled lol |
            the {svc} on-call runbook needs a section on {v} failover |
            {v} upgrade for {svc} is scheduled for thursday night, minor version only
        """),
    },
    "owner": {
        "state": _items("""
            the person to bug about {svc} is {v}, they wrote most of it and own it today |
            {svc} ownership sits with {v}, so any breaking change goes past them first |
            quick map of who owns what, since you asked: {svc}, that's {v}
        """),
        "change": _items("""
            {old} rolled off {svc} this sprint and {v} picked it up as owner, so send the questions their way |
            fyi the ownership sheet is updated, {svc} lists {v} where it used to say {old} |
            {v} is the new {svc} owner, {old} asked to hand it off since they're joining the ml team
        """),
        "again": _items("""
            the {svc} incident review landed on {v}'s calendar, makes sense since it's their service |
            {v} merged the {svc} dependency bumps themselves, owner privileges |
            new {svc} alerts need {v}'s ok, being the owner and all
        """),
    },
    "rate_limit": {
        "state": _items("""
            re {client}: the contract caps them at {v}, anything above gets a 429 |
            {v} is all {client} gets from our API. sales tried to wiggle more out of us, finance said no |
            told {client}'s devs today that their ceiling on our API is {v}, it's set in the gateway
        """),
        "change": _items("""
            {client} paid for the enterprise tier so the gateway lets them do {v} now, the old {old} cap is
            removed |
            after the sync issues with {client} we reworked their quota: it's {v} from today, {old} is gone |
            the {old} quota {client} had is history, their api key has been on {v} since the renewal
        """),
        "again": _items("""
            {client}'s new mobile app is going to push close to {v}, warned their team |
            graph for {client} sat flat at {v} all afternoon, they're maxing out the quota |
            explained to {client}'s new CTO why their requests get throttled at {v}
        """),
    },
    "diet": {
        "state": _items("""
            background for meal stuff: I'm {v} and have been since my teens |
            everyone in my house eats whatever except me, I'm {v}, so plan my lunches that way |
            {v} here, for ethical reasons mostly, so keep recipe suggestions in line with that
        """),
        "change": _items("""
            long story short, blood tests came back weird and I'm {v} now instead of {old} |
            ok I lasted three years as {old} but I've been {v} since january, so update your picture of me |
            my partner and I both switched, the {old} days are over and we eat {v} at home now
        """),
        "again": _items("""
            doing a {v} meal prep on sunday, any good batch-cook ideas? |
            the conference catering had exactly one {v} option and it was sad |
            mom still forgets I'm {v} every time I visit
        """),
    },
    "lives_in": {
        "state": _items("""
            my {rel} {p} calls {v} home, has for ages |
            you'd like my {rel} {p}, they live in {v} and run a tiny bookshop there |
            every summer we stay with {p} in {v}, my {rel}, it's where they've settled
        """),
        "change": _items("""
            {p} sold the flat in {old}, my {rel} is settled in {v} since last month |
            my {rel} {p} said goodbye to {old} for good. new job, new city: {v} |
            can't pop round to {p}'s anymore since they moved out of {old}, they're in {v} for good now
        """),
        "again": _items("""
            {p} is throwing a housewarming in {v} next weekend, need to find a flight |
            the package for {p} finally arrived in {v}, customs took ages |
            {p} swears the coffee in {v} beats anything here
        """),
    },
    "sprint_length": {
        "state": _items("""
            {team} plans in blocks of {v}, that's their sprint, with a demo at the end |
            fyi for the roadmap: a {team} sprint is {v} long, so plan deliverables in chunks of that |
            with {team} it's {v} per sprint, has been since the team formed
        """),
        "change": _items("""
            after two missed goals {team} gave up on sprints of {old}, every sprint is {v} from here |
            updated the {team} jira board, sprint duration is set to {v} where it was {old}, and it's permanent |
            {team} sprint cadence changed: {v} going forward, we're not going back to {old}
        """),
        "again": _items("""
            {team} is already behind and a sprint there is only {v}, rough |
            sprint goal for {team}'s next {v}: ship the new onboarding |
            {team} demos on friday after {v} of sprint work, come watch
        """),
    },
    "lib_version": {
        "state": _items("""
            heads up before you copy stuff from stackoverflow, our {lib} is {v} |
            {v} is the {lib} release we have in prod, and it's pinned |
            re {lib}: we run {v} across every service, so match that locally
        """),
        "change": _items("""
            spent the whole day on the {lib} upgrade, we're on {v} now and {old} is out of the lockfile |
            {lib} {old} had a cve so we jumped straight to {v}, deployed this morning |
            the {lib} in prod is {v} now. {old} is gone, so those compat shims can be deleted
        """),
        "again": _items("""
            the deprecation warnings in {lib} {v} are spamming the test output |
            {lib} {v} handles the timeout edge case properly, nice |
            pointed the readme's docs link at {lib} {v}
        """),
    },
    "answer_format": {
        "state": _items("""
            one thing about me: I read fastest with {v}, so answer that way |
            {v} is how I like answers from you, please default to it |
            for this whole chat and after: my preference is {v} every time you explain something
        """),
        "change": _items("""
            ok new rule for your answers, I've gone off {old} and I want {v} |
            a coworker showed me how she reads docs and now I'm sold on {v}, so drop {old} |
            answers with {old} aren't working for me anymore, use {v} from now on please
        """),
        "again": _items("""
            good, {v} again, that's why I keep coming back |
            you forgot {v} in that last one, that's my preference |
            {v} made that way clearer, keep it up
        """),
    },
    "swim_day": {
        "state": _items("""
            {kid}'s swimming lesson is the {v} one at the leisure centre, every week |
            my {v}s are booked solid, {kid} has swimming after school |
            every {v} I sit poolside while {kid} does lessons
        """),
        "change": _items("""
            the swim school reshuffled and {kid} is in a {v} class now, {old} is done |
            we moved {kid}'s swimming off {old} because of the new piano lessons, so {v} from now on |
            {kid} is on {v} for swimming going forward, the {old} group was way too big
        """),
        "again": _items("""
            {kid} finally dived in at {v} swimming, so proud |
            packing {kid}'s goggles for {v} swimming |
            {kid}'s swim ran late this {v}, dinner at 8
        """),
    },
    "friday_cutoff": {
        "state": _items("""
            we don't touch {proj} prod after {v} on a friday, on-call wants their weekend |
            {proj} friday rule is {v}, after that it's monday's problem |
            re {proj}: friday deploys end at {v}, it's in the release policy
        """),
        "change": _items("""
            {proj} release policy got rewritten, the {old} friday cutoff is scrapped and the new last call is {v} |
            after the on-call survey, {proj}'s friday freeze starts at {v}; {old} is retired |
            ops changed the {proj} friday cutoff to {v} for good, so the old {old} deadline no longer applies
        """),
        "again": _items("""
            merged the {proj} hotfix with 20 min to spare before the {v} friday cutoff |
            too late for the {v} friday cutoff, so the {proj} release goes out monday |
            the {proj} release train leaves at {v} on fridays and I missed it again
        """),
    },
    "ci": {
        "state": _items("""
            {proj}'s ci is {v}, the config lives in the repo root |
            re {proj}: builds and tests go through {v}, picked it because it's basically free for us |
            we went with {v} for building {proj}, mostly because everyone already knew it
        """),
        "change": _items("""
            {proj} builds got ported off {old}, every pipeline runs on {v} now and the old runners are shut down |
            ripped out the {old} config for {proj} today, {v} handles every build from here |
            after months of {old} flakiness {proj} went over to {v}, migration finished friday
        """),
        "again": _items("""
            {proj} build cache on {v} is busted again, clean builds take forever |
            added a lint step to the {proj} {v} pipeline |
            {v} minutes are burning fast this month, {proj} builds are the main culprit
        """),
    },
    "running_goal": {
        "state": _items("""
            signed up with a coach and we're working toward {v}, four sessions a week |
            the big running target for me this year is {v}, doing four runs a week for it |
            if you're building me a training plan, the aim is {v}
        """),
        "change": _items("""
            my physio talked me out of {old}, I'm training for {v} now |
            ok I've given up on {old}, the new target is {v} and honestly it's more fun |
            {v} is what I'm chasing now; {old} got scrapped when the race was cancelled
        """),
        "again": _items("""
            easy recovery run today, prep for {v} is on track |
            lost a toenail training for {v}, worth it |
            my running club is helping me with pacing for {v}
        """),
    },
    "deploy_failure": {
        "state": _items("""
            figured out the {svc} deploy problem: {v}. that's it every time |
            the reason {svc} deploys go sideways is that {v}, pretty confident now |
            {svc} deploys die every time {v}, I checked the last ten runs
        """),
        "change": _items("""
            I told everyone {svc} deploys died because {old}. I was wrong, it's because {v} |
            {svc} deploy investigation closed: root cause is that {v}, not that {old} like we thought |
            patched {svc} on the theory that {old}, deploys kept failing anyway. the real cause turned out to
            be that {v}
        """),
        "again": _items("""
            {svc} deploy went red in staging, {v} again |
            kicked off a {svc} deploy, it died because {v}, rerun fixed it |
            wrote a runbook entry for {svc}: if the deploy fails, it's because {v}
        """),
    },
    "role": {
        "state": _items("""
            {p} is the {v} on the team, in case you need someone to sign off |
            our {v} is {p}, joined from another company last year |
            fyi {p}'s job here is {v}, so bring them the relevant questions
        """),
        "change": _items("""
            {p} got the {v} title after two years as {old} |
            {p} is {v} as of this month, they were {old} before the reorg |
            the {old} role is open again since {p} moved over to {v}
        """),
        "again": _items("""
            {p} is running the planning session, that's part of being {v} |
            had my first 1:1 with {p}, they're a really good {v} |
            {p} did the hiring loop today, one of the joys of being {v}
        """),
    },
    # ------------------------------------------------------------ stable specs
    "merge_style": {
        "state": _items("""
            re {proj}: I've been burned by spaghetti histories before, so it's {v} on that repo and I'd like it
            to stay that way |
            we had a whole thread about it and I'm calling it for {proj}: {v}. please follow that whenever you
            land something |
            the way {proj} branches should end up on main is via {v}, call me old-fashioned but that's my pick
        """),
        "again": _items("""
            cleaning up the {proj} changelog this morning and honestly the {v} make it so readable, glad we do
            it that way |
            new hire on {proj} asked why the merge button is locked to {v}, pointed them at my rant from last
            year |
            while you're in the {proj} repo can you land #482 too? {v} like the rest of them, obviously
        """),
    },
    "alerts": {
        "state": _items("""
            the {svc} pager situation: my phone is a graveyard of muted channels, so {v} is the one format I
            actually notice |
            tell the on-call bot that {v} is how {svc} should reach me, I've tried the other options and they
            just get lost |
            if {svc} ever needs my attention it has to come as {v}. learned that after sleeping through two
            incidents lol
        """),
        "again": _items("""
            {svc} threw a cert warning last night, came in as {v} like it should, fixed it over coffee |
            redoing the grafana folders today, left my {svc} routing alone since {v} is still exactly what I
            want there |
            fyi the new disk rule for {svc} inherits my {v} setting, no need to touch it
        """),
    },
    "migration_window": {
        "state": _items("""
            ops and I shook on it: {proj} schema migrations get applied {v}, full stop. daytime traffic can't
            take the locks |
            lesson from the last outage is that {proj} only gets migrated {v}. it's written into the runbook
            now |
            q: when are we allowed to run the {proj} migrations? a: {v}, and at no other time, the DBAs were
            very clear
        """),
        "again": _items("""
            wrote the {proj} migration for the new billing columns, it'll sit there until our usual slot
            ({v}) |
            the {proj} release notes say the migration goes in {v}, since that's the only time we're allowed
            to |
            approved a {proj} PR with a migration in it, but told them it ships {v}, that's our migration slot
        """),
    },
    "indent": {
        "state": _items("""
            every editor I own is configured for {v}, so when you write code for me pls match it |
            petty but real: code indented with anything but {v} makes my eye twitch. {v} please, every time |
            style-wise the one thing I truly care about is indentation, and my answer there is {v}
        """),
        "again": _items("""
            that script looks good, and since it's in {v} I can paste it straight into my repo |
            ran the formatter over my repo today, {v} in every file as usual, so your snippets fit right in |
            small nit on the last function: one block slipped out of {v}, which is how I always indent, can you
            fix that?
        """),
    },
    "seat": {
        "state": _items("""
            I've tried every spot on a plane and {v} is the only one where I survive the flight, so that's
            what I book |
            travel profile thing to remember about me: {v}. every trip, short hop or long haul |
            nobody believes me but I'd rather pay extra for {v} than sit anywhere else for free lol
        """),
        "again": _items("""
            boarding pass for the conference trip says {v}, crisis averted |
            the seat map for tuesday's flight was nearly full but I still snagged {v}, as usual |
            a guy offered to swap seats with me and I politely declined, I'm never giving up {v}
        """),
    },
    "residency": {
        "state": _items("""
            for anyone new on the {client} account: their data stays in {v}. it's in the DPA and it's not
            negotiable |
            the reason {client} picked us over the competition is that we host everything of theirs in {v},
            so that's locked in |
            heads up, {client} made {v} hosting a condition of the deal, which means every byte of theirs
            lives there
        """),
        "again": _items("""
            spinning up {client}'s staging db, region set to {v} without even thinking about it |
            {client}'s security questionnaire asked where we keep their data, answered {v} for the fifth
            time |
            the cheaper storage tier isn't offered in {v}, so {client} stays on the pricier one
        """),
    },
    "kid_allergy": {
        "state": _items("""
            so the thing with {kid} is {v}. one bite and we're in A&E, so it's banned from our house for good |
            we found out about {kid}'s allergy the hard way, {v} hidden in a cookie at nursery. the epipen
            lives in their bag now |
            anything you suggest for {kid}'s lunchbox has to be free of {v}, they have a real allergy
        """),
        "again": _items("""
            made {kid}'s birthday cake from scratch so I know for sure there's no {v} in it |
            {kid} asked why they can't share their friend's snack, had the {v} talk again |
            packing for the trip and emailing the airline about {v} in the meals, because of {kid}
        """),
    },
    "queue": {
        "state": _items("""
            after two weeks of spikes and arguing, {svc} will run its jobs on {v}. writing the ADR now |
            {v} got the nod for {svc}'s background work, mostly because half the team already knows it |
            re {svc}: the queue question is closed, we're using {v}
        """),
        "again": _items("""
            the {svc} retry storm last night was our bug, not {v}'s, the queue itself held up fine |
            adding a priority lane to {svc}'s {v} setup so the urgent jobs skip ahead |
            onboarding doc for {svc} now has a section on poking at the {v} workers
        """),
    },
    "api_versioning": {
        "state": _items("""
            the API guild met today and it's settled: versions are done with {v}, every public endpoint follows
            it |
            we argued about it for a month and in the end the public API is getting {v} |
            how we version the API is decided, {v}. shout if your team can't live with it, but it's not
            reopening
        """),
        "again": _items("""
            the deprecation email to partners walks through {v} since that's how our API works |
            writing the v3 endpoints now, {v} as always, so old clients keep working |
            a partner asked if we'd ever move the API off {v}, said nope
        """),
    },
    "contact": {
        "state": _items("""
            {client}'s side of the project runs through {v}, whoever else emails you, cc them |
            met the {client} team today, {v} is our person over there and honestly lovely |
            for the {client} account the name you need is {v}, they handle everything on their end
        """),
        "again": _items("""
            {v} from {client} sent over the signed renewal, fast as usual |
            running late for my call with {v} at {client}, can you drop them a quick note? |
            {client} wants a roadmap deck, {v} is forwarding it to their execs
        """),
    },
    "birthday": {
        "state": _items("""
            {p} is a {v} baby, so that's the day we do their birthday |
            writing this down so I stop forgetting: {p}, birthday, {v} |
            every year on {v} {p} swears they don't want a birthday fuss, and every year we make one anyway
        """),
        "again": _items("""
            the restaurant had a table free on {v} for {p}'s birthday, grabbed it |
            {p} already hinted what they want for {v}, birthday present sorted |
            wrapping paper bought, {p}'s birthday ({v}) is two weeks away
        """),
    },
    "their_pref": {
        "state": _items("""
            had a good chat with {p}, turns out they're way more productive with {v}, noting it for later |
            {p} was pretty clear in the retro: give them {v} and they do their best work |
            if {p} seems checked out, remember they want {v}, they told me that's what helps them most
        """),
        "again": _items("""
            planned the design review with {p} around {v}, since that's their thing, went smoothly |
            {p} thanked me for remembering about {v} |
            sketching next sprint's rituals with {p}'s love of {v} in mind
        """),
    },
    "failing": {  # the state is the assistant's answer to a lead ("why does {job} keep failing?")
        "state": _items("""
            I went through the recent runs and there's a consistent cause: {v}. Every failed run of {job} lines
            up with it, so that's the thing to fix. |
            This isn't random. The failures share one cause, which is that {v}, and that's what takes down
            {job} each time. |
            Good news, it's a single root cause: {job} goes down because {v}, and the logs show it on every
            failure.
        """),
        "again": _items("""
            {job} is red again this morning, and yep, {v} |
            spent my morning babysitting {job} since {v}, still not fixed |
            told the team to stop rerunning {job} blindly, it fails because {v}, not bad luck
        """),
    },
    "flaky": {
        "state": _items("""
            ok test_{fn} in {svc} isn't cursed after all: {v}. that's the whole story behind the flakes |
            spent the afternoon on {svc}'s flaky test_{fn}, and the culprit is that {v} |
            pinned down the {svc} flake, test_{fn} goes red at random since {v}
        """),
        "again": _items("""
            my {svc} PR got blocked by test_{fn} again because {v}, rerun fixed it |
            added a comment on test_{fn} in {svc} explaining that {v}, so people stop filing bugs |
            {svc} nightly had exactly one failure, test_{fn}, and of course {v}
        """),
    },
    "timeout": {  # the state is the assistant's answer to a lead ("how long does {svc} wait on upstreams?")
        "state": _items("""
            It's set to {v}. If an upstream hasn't answered {svc} by then, the call is abandoned and the error
            is passed back. |
            {svc} waits {v} on each upstream. Anything slower than that gets cut off with a timeout error. |
            That timeout is {v} in {svc}. It applies to every upstream call, so a slow dependency fails fast
            instead of hanging.
        """),
        "again": _items("""
            the supplier API was crawling today and {svc} kept giving up at {v}, as designed |
            wondering if {v} is still right for {svc}'s upstreams, we see a lot of timeouts there |
            load test showed {svc} requests dying at exactly {v} whenever the upstream stalled
        """),
    },
    "billing_cycle": {
        "state": _items("""
            from the signed order form: {client} gets invoiced {v}, net 30 |
            accounts receivable thing to know: {client} is billed {v}, set up that way since day one |
            {v} is how often {client} gets an invoice from us, they negotiated that into the contract
        """),
        "again": _items("""
            reconciling the books, {client} paid on schedule ({v}), no chasing needed |
            the {client} renewal doesn't change anything money-wise, we keep invoicing them {v} |
            finance tool migrated, checked that {client} is still set to be invoiced {v}, it is
        """),
    },
    "meeting_free": {
        "state": _items("""
            fair warning to whoever runs my calendar: {v} mornings belong to deep work, I turn down any meeting
            there |
            I've kept {v} mornings meeting-free for years, it's the only reason I get anything done, so keep it
            that way |
            my one calendar rule: nothing gets booked before lunch on a {v}
        """),
        "again": _items("""
            the all-hands got moved onto {v} morning so I'll catch the recording, my focus block stays |
            shipped the refactor during my meeting-free {v} morning, best routine I have |
            the recruiter wanted a {v} 9am, offered them the afternoon instead
        """),
    },
    "holiday": {
        "state": _items("""
            the great family debate is over, {hol} = {v}. my sister gets her way again lol |
            grandparents are joining us for {hol}, and since everyone agreed on {v} that's where we're all
            going |
            so we're spending {hol} in {v}, my partner found cheap flights and that settled it
        """),
        "again": _items("""
            learning a few phrases before we head to {v} for {hol} |
            a friend recommended a bakery in {v}, adding it to our list for {hol} |
            the dog sitter is booked for {hol} while we're away in {v}
        """),
    },
    "budget": {
        "state": _items("""
            we did the maths and the {event} can't cost more than {v}, my partner and I agreed |
            money talk re the {event}: {v} total is the most we'll spend, no matter how tempting the extras
            are |
            the {event} gets whatever fits under {v}, that's the number we committed to
        """),
        "again": _items("""
            the caterer's quote for the {event} fits under {v}, phew |
            had to drop the nicer option for the {event}, it would've pushed us past {v} |
            spreadsheet for the {event} updated, still comfortably inside the {v} cap
        """),
    },
    "sla": {
        "state": _items("""
            for context on {proj}: customers are contractually promised {v} uptime, so plan maintenance
            carefully |
            sales sold {proj} with a {v} uptime guarantee and that's what's in every contract |
            {v}. that's the uptime {proj} owes its customers per the SLA, in case anyone asks in the review
        """),
        "again": _items("""
            the {proj} incident cost us about 20 minutes, still above {v} for the month thankfully |
            drafting the {proj} maintenance plan so we don't dip under the {v} SLA |
            quarterly report is out, {proj} comfortably beat its {v} SLA again
        """),
    },
    # ------------------------------------------------------------ distractors (never a durable fact)
    "hypothetical": {
        "state": _items("""
            shower thought: how would {svc} behave if its whole data layer sat on {x}? not planning anything |
            devil's advocate, if {proj} had zero tests would we really ship slower? asking theoretically |
            were we to put {proj} on {x}, what's the first thing that breaks? curious, not pitching it |
            in a fantasy world with infinite budget {svc} would be on {x}, but we live in this one
        """),
    },
    "question": {
        "state": _items("""
            genuine q, has anyone run {x} in prod at roughly {svc}'s scale? |
            would you keep {proj}'s staging env around or kill it? no strong feelings yet |
            is {x} mature enough for something like {svc}, or are we early? |
            how long should {proj}'s release branches live, roughly? trying to figure it out
        """),
    },
    "temporary": {
        "state": _items("""
            {svc} is pinned to one replica until the memory leak fix ships, then autoscaling comes back |
            just through thursday, {proj} merges need my ok, the release is fragile |
            tonight only: {svc} alerts are muted for the maintenance, back on at 6am |
            while the lead is out this week I'm covering {proj} reviews, normal rotation resumes monday
        """),
    },
    "rejected": {
        "state": _items("""
            {x} for {svc}: the benchmarks were bad so we binned it |
            no to {x} on {proj}, nobody wants to maintain it, closing the RFC |
            looked into {x} for {svc} for a week, conclusion: not worth it, we're leaving it alone |
            {proj} on {x} isn't happening, the migration estimate killed it
        """),
    },
    "personal_maybe": {
        "state": _items("""
            sometimes I picture us living in {city}, then I remember the rent |
            might pick up climbing at some point? or just keep saying that forever lol |
            a sabbatical in {city} would be lovely, purely a someday thing |
            half-considering learning Japanese, probably won't though
        """),
    },
}
