"""A second hand-written TUNING set for the durable-fact extractor (not blind: tuned on).

Written for the facts2 round without reading the held-out split's templates; its names and values
are its own. Where fact_phrasings_dev.py is broad, this one leans on the wordings people use to
report a change ("X moved to Y", "we're on Y now", "Y replaced X", "no longer X, it's Y", "X handed
over to Y", "from now on Y", "turns out it's Y, not X"), on ownership, hosting and tooling moves,
schedules, people's roles and homes, and on look-alikes that state nothing durable (status, plans
for today, questions, pasted errors).

Same format as fact_phrasings.py:
STATEMENTS: (speaker, sentence, category_or_None, value): value is a substring a correct fact holds.
CHANGES: (speaker, old_sentence, new_sentence, old_value, new_value).
"""

STATEMENTS: tuple[tuple[str, str, str | None, str], ...] = (
    # ---- preferences --------------------------------------------------------------------------------------------
    ("user", "I like my coffee black, no sugar", "preference", "black"),
    ("user", "I'd rather you use metric units", "preference", "metric units"),
    ("user", "my editor of choice is Helix", "preference", "Helix"),
    ("user", "please write commit messages in the imperative", "preference", "imperative"),
    ("user", "I prefer reviews in the afternoon", "preference", "afternoon"),
    ("user", "for Sprocket I want rebase merges only", "preference", "rebase merges"),
    ("user", "I'm lactose intolerant, oat milk for me", "preference", "lactose intolerant"),
    ("user", "I always take the train when it's under four hours", "preference", "train"),
    # ---- constraints --------------------------------------------------------------------------------------------
    ("user", "Pontoon's data has to stay in Australia", "constraint", "Australia"),
    ("user", "the Gristle API caps us at 40 requests per second", "constraint", "40 requests per second"),
    ("user", "Ezra is allergic to peanuts", "constraint", "peanuts"),
    ("user", "the team lunch budget is 400 euros", "constraint", "400 euros"),
    ("user", "Sprocket deploys are frozen after 2pm on Fridays", "constraint", "2pm"),
    ("user", "we must never store card numbers ourselves", "constraint", "card numbers"),
    ("user", "Monday mornings are meeting-free for me", "constraint", "Monday mornings"),
    # ---- decisions ----------------------------------------------------------------------------------------------
    ("user", "Sprocket is hosted on Railway", "decision", "Railway"),
    ("user", "we went with Temporal for the workflow engine", "decision", "Temporal"),
    ("user", "the billing service stores its data in MySQL", "decision", "MySQL"),
    ("user", "Gristle's CI is Jenkins", "decision", "Jenkins"),
    ("user", "we use Sentry for error tracking", "decision", "Sentry"),
    ("user", "the reports worker pulls jobs from SQS", "decision", "SQS"),
    ("user", "we're doing New Year in Kraków", "decision", "Kraków"),
    ("user", "we settled on Pulumi for infrastructure", "decision", "Pulumi"),
    # ---- entities -----------------------------------------------------------------------------------------------
    ("user", "Priyanka owns the search service", "entity", "Priyanka"),
    ("user", "the mobile app is owned by Jakob", "entity", "Jakob"),
    ("user", "Amara is the on-call lead for infra", "entity", "Amara"),
    ("user", "Henrik works as a staff engineer", "entity", "staff engineer"),
    ("user", "my dad lives in Leeds", "entity", "Leeds"),
    ("user", "Lucia lives in Turin", "entity", "Turin"),
    ("user", "our contact at Ostrava Labs is Pavel Novak", "entity", "Pavel Novak"),
    ("user", "Noor's birthday is on May 14", "entity", "May 14"),
    ("user", "Felix has swimming on Wednesdays", "entity", "Wednesdays"),
    # ---- domain facts -------------------------------------------------------------------------------------------
    ("user", "the platform sync is at 11:15", "domain_fact", "11:15"),
    ("user", "Sprocket runs on Ruby 3.3", "domain_fact", "3.3"),
    ("user", "Ostrava Labs pays annually", "domain_fact", "annually"),
    ("user", "Gristle promises 99.95% uptime", "domain_fact", "99.95%"),
    ("user", "the session timeout is 20 minutes", "domain_fact", "20 minutes"),
    ("user", "the mobile team runs two-week sprints", "decision", "two-week"),
    # ---- failure patterns ---------------------------------------------------------------------------------------
    ("user", "the Sprocket deploy fails whenever the asset build runs out of memory", "failure_pattern", "out of memory"),
    ("assistant", "The webhook handler crashes when the payload has no customer field.", "failure_pattern", "customer field"),
    ("user", "test_invoice is flaky because it relies on dict ordering", "failure_pattern", "dict ordering"),
    # ---- not facts ----------------------------------------------------------------------------------------------
    ("user", "I'm looking at the Sprocket logs right now", None, ""),
    ("user", "can we move the sync to 11:30 tomorrow?", None, ""),
    ("user", "plan for today: fix the webhook, then review Jakob's PR", None, ""),
    ("user", "ConnectionRefusedError: [Errno 111] Connection refused", None, ""),
    ("user", "Railway seems slow today", None, ""),
    ("user", "Priyanka is out sick today", None, ""),
    ("user", "should we move billing to Postgres?", None, ""),
    ("user", "I'm going to try Pulumi on a side project first", None, ""),
    ("user", "just restarted the worker, let's see", None, ""),
    ("user", "we talked about moving to Fly.io but nothing's decided", None, ""),
    ("user", "done, merged Henrik's branch", None, ""),
    ("user", "heading out, back in an hour", None, ""),
)

CHANGES: tuple[tuple[str, str, str, str, str], ...] = (
    # hosting and tooling moves
    ("user", "Sprocket is hosted on Railway", "Sprocket moved to Render", "Railway", "Render"),
    ("user", "Gristle's CI is Jenkins", "we're on GitHub Actions now for Gristle", "Jenkins", "GitHub Actions"),
    ("user", "the billing service stores its data in MySQL", "billing is on Postgres now", "MySQL", "Postgres"),
    ("user", "we use Sentry for error tracking", "Rollbar replaced Sentry for error tracking", "Sentry", "Rollbar"),
    ("user", "the reports worker pulls jobs from SQS", "the reports worker no longer uses SQS, it's Redis now", "SQS", "Redis"),
    ("user", "we went with Temporal for the workflow engine", "from now on the workflow engine is Airflow", "Temporal", "Airflow"),
    ("user", "Pontoon runs on Heroku", "Pontoon isn't on Heroku anymore, it's on Fly.io", "Heroku", "Fly.io"),
    ("user", "we host the docs site on Netlify", "docs site lives on Vercel now", "Netlify", "Vercel"),
    ("user", "the Tarn API is deployed on AWS", "we migrated the Tarn API to GCP", "AWS", "GCP"),
    ("user", "we manage infra with Terraform", "infra is Pulumi these days, we dropped Terraform", "Terraform", "Pulumi"),
    ("user", "the Loam frontend is built with Webpack", "Loam switched its build to Vite", "Webpack", "Vite"),
    ("user", "Quire uses RabbitMQ as its broker", "Quire's broker is Kafka now", "RabbitMQ", "Kafka"),
    # ownership and people
    ("user", "Priyanka owns the search service", "search is owned by Dario now", "Priyanka", "Dario"),
    ("user", "the mobile app is owned by Jakob", "Jakob handed the mobile app over to Selin", "Jakob", "Selin"),
    ("user", "Amara is the on-call lead for infra", "Bilal took over as on-call lead for infra", "Amara", "Bilal"),
    ("user", "Henrik works as a staff engineer", "Henrik is a principal engineer now", "staff engineer", "principal engineer"),
    ("user", "Lucia lives in Turin", "Lucia moved to Milan", "Turin", "Milan"),
    ("user", "my dad lives in Leeds", "my dad lives in York now", "Leeds", "York"),
    ("user", "our contact at Ostrava Labs is Pavel Novak", "Ostrava Labs' contact is Jana Kral now", "Pavel Novak", "Jana Kral"),
    ("user", "Rune leads the data team", "Rune stepped down, Olga leads the data team now", "Rune", "Olga"),
    # schedules and settings
    ("user", "the platform sync is at 11:15", "platform sync moved to 13:00", "11:15", "13:00"),
    ("user", "Felix has swimming on Wednesdays", "Felix's swimming is on Fridays now", "Wednesdays", "Fridays"),
    ("user", "Ostrava Labs pays annually", "Ostrava Labs pays monthly now", "annually", "monthly"),
    ("user", "the session timeout is 20 minutes", "session timeout is 45 minutes from now on", "20 minutes", "45 minutes"),
    ("user", "Sprocket runs on Ruby 3.2", "Sprocket's on Ruby 3.3 now", "3.2", "3.3"),
    ("user", "the Gristle API caps us at 40 requests per second", "Gristle raised the cap to 100 requests per second", "40 requests per second", "100 requests per second"),
    ("user", "the team lunch budget is 400 euros", "lunch budget went up to 600 euros", "400 euros", "600 euros"),
    ("user", "Sprocket deploys are frozen after 2pm on Fridays", "Friday cutoff for Sprocket is noon now", "2pm", "noon"),
    ("user", "the mobile team runs two-week sprints", "mobile moved to one-week sprints", "two-week", "one-week"),
    # preferences and self
    ("user", "I like my coffee black", "I take my coffee with oat milk these days", "black", "oat milk"),
    ("user", "my editor of choice is Helix", "I've moved from Helix to Zed", "Helix", "Zed"),
    ("user", "I prefer reviews in the afternoon", "reviews in the morning work better for me now", "afternoon", "morning"),
    ("user", "for Sprocket I want rebase merges only", "for Sprocket, squash merges instead of rebase", "rebase merges", "squash merges"),
    # corrections and failure causes
    ("user", "Gristle promises 99.95% uptime", "turns out Gristle's SLA is 99.9%, not 99.95%", "99.95%", "99.9%"),
    ("user", "the Sprocket deploy fails whenever the asset build runs out of memory", "turns out the Sprocket deploy failures come from the DNS cache, not memory", "out of memory", "DNS cache"),
    ("user", "we're doing New Year in Kraków", "New Year plans changed, we're going to Riga instead", "Kraków", "Riga"),
    # the kinds of subject the synthetic corpus plants, in other words
    ("user", "Corvo lives on Hetzner", "Hetzner's gone, Corvo runs on DigitalOcean now", "Hetzner", "DigitalOcean"),
    ("user", "we deploy Brisa to Heroku", "Brisa is on Railway now, not Heroku", "Heroku", "Railway"),
    ("user", "the infra standup is at 9:15", "infra standup is 10:00 now", "9:15", "10:00"),
    ("user", "the design team stands up at 10:30", "design standup got pushed to 11:00", "10:30", "11:00"),
    ("user", "I always get a flat white", "these days I order a cortado instead of a flat white", "flat white", "cortado"),
    ("user", "my usual is an americano", "I'm on matcha lattes now", "americano", "matcha"),
    ("user", "the ledger-api keeps its data in MongoDB", "ledger-api's data lives in Postgres now", "MongoDB", "Postgres"),
    ("user", "the quotes service stores everything in DynamoDB", "quotes service moved to Cassandra", "DynamoDB", "Cassandra"),
    ("user", "Ines owns the invoicing service", "Marco owns invoicing now", "Ines", "Marco"),
    ("user", "Tariq is the owner of the ranking service", "ranking service has a new owner: Yara", "Tariq", "Yara"),
    ("user", "Brightwater is capped at 200 requests per minute", "Brightwater's limit is 500 requests per minute now", "200 requests per minute", "500 requests per minute"),
    ("user", "Kelso gets 20 requests per second on the API", "Kelso now gets 50 requests per second", "20 requests per second", "50 requests per second"),
    ("user", "I'm vegetarian", "I'm vegan now", "vegetarian", "vegan"),
    ("user", "I eat pescatarian", "no longer pescatarian, I'm eating keto", "pescatarian", "keto"),
    ("user", "my sister Maren lives in Bergen", "Maren is in Oslo now", "Bergen", "Oslo"),
    ("user", "my friend Dario lives in Naples", "Dario relocated to Rome last month", "Naples", "Rome"),
    ("user", "platform sprints last two weeks", "platform sprints are three weeks now", "two weeks", "three weeks"),
    ("user", "we're on Django 4.2", "we upgraded to Django 5.0", "4.2", "5.0"),
    ("user", "the project uses pandas 1.5", "pandas 2.1 now", "1.5", "2.1"),
    ("user", "please always give me bullet points", "I'd like short paragraphs from now on, not bullet points", "bullet points", "short paragraphs"),
    ("user", "Iris has swim lessons on Tuesdays", "Iris swims on Thursdays now", "Tuesdays", "Thursdays"),
    ("user", "never deploy Corvo after 4pm on Fridays", "Corvo's Friday cutoff is 1pm now", "4pm", "1pm"),
    ("user", "Brisa CI runs on Travis", "Brisa builds on CircleCI now", "Travis", "CircleCI"),
    ("user", "Kelso builds go through Jenkins", "Jenkins was replaced by Buildkite for Kelso", "Jenkins", "Buildkite"),
    ("user", "my goal this year is a half marathon", "new goal for the year: a full marathon", "half marathon", "full marathon"),
    ("user", "Ines is our data analyst", "Ines is a data scientist now", "data analyst", "data scientist"),
    ("user", "Tariq is the tech lead on the team", "Tariq became engineering manager", "tech lead", "engineering manager"),
    ("user", "the ledger-api deploys keep failing because the migrations time out", "ledger-api deploys actually fail because the health check is too strict, not the migrations", "migrations time out", "health check"),
)
