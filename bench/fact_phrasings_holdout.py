"""A small BLIND check for the durable-fact extractor: never tune on it.

Written before the facts2 tuning round started, without reading the extractor's cues or the
held-out split's templates; its names and values are its own. It is measured once before and once
after a tuning round, and only reported; a miss here is a sign that tuning overfit its material,
not a case to fix. Once a round has looked at its misses it is no longer blind: write a new one.

Same format as fact_phrasings.py:
STATEMENTS: (speaker, sentence, category_or_None, value): value is a substring a correct fact holds.
CHANGES: (speaker, old_sentence, new_sentence, old_value, new_value).
"""

STATEMENTS: tuple[tuple[str, str, str | None, str], ...] = (
    # preferences
    ("user", "I'd much rather get a written summary than a meeting", "preference", "written summary"),
    ("user", "tea, not coffee, is my thing in the afternoon", "preference", "tea"),
    ("user", "please always use British spelling in my docs", "preference", "British spelling"),
    ("user", "I like my standup notes as bullet points", "preference", "bullet points"),
    ("user", "for Thistle I want merge commits, no squashing", "preference", "merge commits"),
    ("user", "I'm vegan, so no dairy in any recipe you suggest", "preference", "vegan"),
    # constraints
    ("user", "Quillon's customer data must stay inside the EU", "constraint", "EU"),
    ("user", "the Ferrule API only lets us make 120 calls a minute", "constraint", "120 calls a minute"),
    ("user", "Nadia is allergic to shellfish", "constraint", "shellfish"),
    ("user", "we can't spend more than 5,000 dollars on the conference booth", "constraint", "5,000 dollars"),
    ("user", "no releases of Thistle during the last week of the quarter", "constraint", "last week of the quarter"),
    ("user", "Wednesday afternoons are off limits for meetings", "constraint", "Wednesday afternoons"),
    # decisions
    ("user", "we settled on Terraform for the infra code", "decision", "Terraform"),
    ("user", "Bramble is deployed on Hetzner", "decision", "Hetzner"),
    ("user", "the orders service uses Kafka for its events", "decision", "Kafka"),
    ("user", "we picked pnpm as the package manager for the monorepo", "decision", "pnpm"),
    ("user", "Larkspur's CI runs on Drone", "decision", "Drone"),
    ("user", "summer holiday this year is Lisbon, booked it", "decision", "Lisbon"),
    # entities
    ("user", "Ilse is the one who owns the checkout flow", "entity", "Ilse"),
    ("user", "Marek heads up the data platform team", "entity", "Marek"),
    ("user", "Yuki is our QA lead", "entity", "QA lead"),
    ("user", "my brother Andrei moved to Porto last year", "entity", "Porto"),
    ("user", "Pilar's birthday is on October 12", "entity", "October 12"),
    ("user", "our account manager at Vexa is Hollis Grant", "entity", "Hollis Grant"),
    # domain facts
    ("user", "the design review happens every Wednesday at 14:00", "domain_fact", "14:00"),
    ("user", "Bramble runs on Python 3.12", "domain_fact", "3.12"),
    ("user", "Corbel invoices go out every two weeks", "domain_fact", "every two weeks"),
    ("user", "the worker's visibility timeout is 90 seconds", "domain_fact", "90 seconds"),
    # failure patterns
    ("user", "the Larkspur build breaks whenever the npm cache is stale", "failure_pattern", "npm cache"),
    (
        "assistant",
        "The import job times out because the CSV has more than a million rows.",
        "failure_pattern",
        "million rows",
    ),
    # not facts
    ("user", "ok pushing the fix now", None, ""),
    ("user", "can you look at why the Bramble tests are red?", None, ""),
    ("user", "I'll ping Marek about it after lunch", None, ""),
    ("user", "KeyError: 'customer_id' in orders/handlers.py line 88", None, ""),
    ("user", "today I'm mostly doing code review", None, ""),
    ("user", "maybe we should try Kafka for the orders service?", None, ""),
    ("user", "the deploy took 12 minutes this time", None, ""),
    ("user", "Yuki said the staging build looked fine", None, ""),
    ("user", "let's revisit the CI choice next quarter", None, ""),
    ("user", "thanks, that worked", None, ""),
)

CHANGES: tuple[tuple[str, str, str, str, str], ...] = (
    ("user", "Bramble is deployed on Hetzner", "Bramble moved to Scaleway last week", "Hetzner", "Scaleway"),
    ("user", "Ilse owns the checkout flow", "checkout is Tomas's now, Ilse handed it over", "Ilse", "Tomas"),
    (
        "user",
        "Larkspur's CI runs on Drone",
        "we replaced Drone with GitHub Actions for Larkspur",
        "Drone",
        "GitHub Actions",
    ),
    ("user", "the orders service uses Kafka for its events", "orders events go through NATS now", "Kafka", "NATS"),
    ("user", "Yuki is our QA lead", "Yuki is engineering manager now", "QA lead", "engineering manager"),
    ("user", "my brother Andrei lives in Porto", "Andrei relocated to Madrid", "Porto", "Madrid"),
    ("user", "the design review is every Wednesday at 14:00", "design review moved to 15:30", "14:00", "15:30"),
    ("user", "Bramble runs on Python 3.11", "Bramble is on Python 3.12 now", "3.11", "3.12"),
    (
        "user",
        "the Ferrule API lets us make 120 calls a minute",
        "Ferrule raised our limit to 300 calls a minute",
        "120 calls a minute",
        "300 calls a minute",
    ),
    ("user", "I prefer tabs for indentation", "I've come around to spaces for indentation", "tabs", "spaces"),
    ("user", "we use npm for the monorepo", "no more npm, the monorepo is on pnpm", "npm", "pnpm"),
    ("user", "Corbel gets invoiced monthly", "from now on Corbel is invoiced quarterly", "monthly", "quarterly"),
    (
        "user",
        "our account manager at Vexa is Hollis Grant",
        "Vexa gave us a new account manager, Rhea Stone",
        "Hollis Grant",
        "Rhea Stone",
    ),
    (
        "user",
        "Marek heads up the data platform team",
        "Marek left, Sunita took over the data platform team",
        "Marek",
        "Sunita",
    ),
    (
        "user",
        "the worker's visibility timeout is 90 seconds",
        "turns out the visibility timeout is 120 seconds, not 90",
        "90 seconds",
        "120 seconds",
    ),
)
