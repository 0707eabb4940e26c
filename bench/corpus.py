#!/usr/bin/env python3
"""Synthetic evaluation corpus for memtree: months of user/assistant conversations with planted truth.

What it makes
  ``generate(seed, days=90, chunks_per_day=(20, 60), start=date(2025, 1, 6), split="dev", tz="UTC")``
  returns a ``Corpus``: conversation chunks in memtree's JSONL contract plus ground truth
  (questions with exact evidence chunk ids, awareness probes, durable facts and their changes).
  The same arguments always give the same corpus, byte for byte (seeded ``random.Random``
  instances only; no set-iteration order is relied on).

  Days: weekdays are mostly active (~8% quiet, ~8% very busy at ~2.6x), weekends are mostly
  empty (a few short personal chats), and every ~2 months there is a quiet stretch of 4-8 days.
  ``chunks_per_day`` is the mean per *calendar* day (an int, or a range whose midpoint is the
  mean and whose width drives the day-to-day spread): totals land near ``days * mean`` before
  planting adds a few percent (``days=365, chunks_per_day=100`` -> ~36,500 chunks; 100,000
  chunks: ``days=1000, chunks_per_day=100`` or ``days=365, chunks_per_day=274``).
  Active days hold several sessions (2-30 turns each) in three domains: a software project
  (auth, APIs, databases, deployment, bugs, code review, tests, performance, frontend), work
  planning (sprints, meetings, hiring, roadmap, writing) and personal life (travel, cooking,
  fitness, health, family, hobbies, home).  Noise: greetings, small talk, "ok thanks",
  repeated messages, re-asked questions, long assistant explanations (200-600 tokens) with
  lists and code.  Session time runs from ~07:00 to ~23:30 local time; no more than
  ``MAX_CHUNKS_PER_DAY`` chunks fit a day at one-second resolution.

Planted truth (``plant=True``, the default; ``plant=False`` gives the noise only, fastest)
  Per 90 days about: 50 single-hop, 30 multi-hop, 30 temporal, 25 update and 25 paraphrase
  questions (scaled with ``days``, capped where a pool of unique values runs out).
  * single-hop: one fact in one chunk, asked in other words; the answer string occurs in it.
  * multi-hop: 2-3 chunks on different days (a chain through a shared entity, a 3-step
    person -> customer -> plan -> feature chain, or a list gathered over several days).
  * temporal: a one-off event told as "today"/"this morning"; the answer is the session's
    local date (YYYY-MM-DD); the evidence holds the event's key terms.
  * update: a value that changed 1-2 times; asks for the current value; the evidence is the
    chunk that introduced the latest value (it contains it).
  * paraphrase: the question uses synonyms for the statement's words (vehicle/car,
    physician/doctor, eatery/restaurant...), sharing little beyond an entity name with it; 1-2
    decoy chunks on other days use the question's own words about the same entity in another
    sense ("Dana is reviewing every vehicle purchase request"), so lexical matching has to work
    for it (``meta["decoys"][question id]``).
  ``asked_at`` is the end of the corpus (the day after the last day, 09:00 local) for all.
  ``meta["question_keys"][id]`` lists terms the evidence chunks must contain between them.

  Probes: ``present`` (entity names, planted rare values seen once or twice, noun phrases,
  some lower-cased or singular where the corpus has them capitalised or plural),
  ``absent_clean`` (no content word, no stem and no >=4-letter prefix relation with any word of
  the corpus) and ``absent_near`` (shares a word with the corpus, or a word of it starts with a
  corpus word of >=4 letters as "author"/"auth", but never occurs as the phrase).  Every label
  is checked against the text the way membench does: whole words, case-insensitive, a
  plural "s"/"es" allowed, over "speaker: text" lines.  ``meta["probe_mentions"]`` has the
  number of chunks mentioning each present topic.

  Facts: ``PlantedFact`` per category (preference, constraint, decision, domain_fact, entity,
  failure_pattern).  A changed fact yields one record per value: the old one has
  ``superseded_on`` (the date of the change) and ``superseded_by`` (the new value, a string);
  about 30% of stable facts are restated on later days in other words (``stated_in`` then has
  several ids).  Reported speech about someone else's preference ("Priya told me they prefer
  async code reviews") IS planted, as an ``entity`` fact with that person as subject.  Distractors
  that look like facts but are not durable are listed in ``meta["distractors"]`` (kinds:
  hypothetical, question, temporary, rejected) and are never PlantedFacts.

Held-out splits ("dev", "test", "dev2", "dev3", "fresh"): tune on dev, dev2, dev3 and test; report fresh, held out
  * Every planted template bank (fact statements, changes, corroborations, question wordings,
    multi-hop hops, leads, decoys, distractors) is split by index parity: dev (and dev2) uses the
    even entries, test (and fresh) the odd ones.  ``meta["templates"]`` records the key
    (``spec.bank.index``) of every planted chunk and question; ``template_text(key)`` returns the template.
  * Entity pools are split the same way: people, kids, cities, clients, projects, services,
    teams, and every planted-only value pool (pet names, hotels, books, restaurants, surnames,
    gifts, cars, races, plants, flags, symptoms, fixes, blockers, causes, talks, evaluated
    tools, plans, allergens, documents, appointments, rooms, code names...).
  * Shared by all splits: the noise templates (the background distribution), the technical
    vocabulary (libraries, databases), dishes, relations, weekdays, roles and small value lists
    (times, versions, fact values such as hosting platforms or diets).
  * Three splits replace every fact-bearing bank by new wordings (``REPLACED_BANKS``), written blind
    to the fact extractor: the ``state``, ``change`` and ``again`` banks of every stable and change
    spec, and the ``state`` bank of every distractor.  Their keys carry the split's prefix
    (``BANK_PREFIX``): ``spec.<split>_bank.index`` (``hosting.fresh_change.1``, ``hosting.dev2_state.3``).
    Each such split has its own random streams and chunk ids, so its days and values differ from
    those of the split whose pools it shares.
  * "dev2" is tuning material, like dev and test: the dev split (its entity pools and its half of
    every other bank) with the fact-bearing banks from bench/corpus_dev2.py (twice as many
    wordings per bank as fresh has, for variety).  Chunk ids "v" + seed ("d" + seed is dev's).
  * "dev3" is tuning material too, measured once before any tuning as a second figure for unseen wordings:
    the test split with the fact-bearing banks from bench/corpus_dev3.py (three wordings per
    bank, four per distractor).  Chunk ids "w" + seed.
  * "fresh" is held out from all tuning (dev, dev2, dev3 and test are all tuned on): the test split with
    the fact-bearing banks from bench/corpus_fresh.py.  Chunk ids "f" + seed.

meta
  generator, seed, split, days, chunks_per_day, start, tz, plant, stats (counts, chars, tokens
  as chars/4); with planting also asked_at, question_keys, templates, distractors, decoys,
  probe_mentions and present_variants (present topics whose exact case and number never occur).

Script
  python bench/corpus.py --seed 1 --days 90 --split dev --out DIR
  writes DIR/chunks.jsonl, questions.json, probes.json, facts.json, meta.json and prints stats.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

try:  # imported as bench.corpus
    from .corpus_dev2 import DEV2
    from .corpus_dev3 import DEV3
    from .corpus_fresh import FRESH
except ImportError:  # run as a script, or imported as "corpus" with bench/ on sys.path
    from corpus_dev2 import DEV2
    from corpus_dev3 import DEV3
    from corpus_fresh import FRESH

GENERATOR_VERSION = "1"
T = TypeVar("T")
SPLITS = ("dev", "test", "fresh", "dev2", "dev3")
# which half of every split bank and pool a split uses: dev and dev2 the even entries, test, fresh and dev3 the odd ones
PARITY = {"dev": 0, "test": 1, "fresh": 1, "dev2": 0, "dev3": 1}
# splits whose fact-bearing banks are replaced by new wordings: {split: {spec key: {bank: templates}}}
REPLACED_BANKS: dict[str, dict[str, dict[str, tuple[str, ...]]]] = {"fresh": FRESH, "dev2": DEV2, "dev3": DEV3}
# template keys of the replaced banks: "spec.<prefix><bank>.index" ("hosting.fresh_change.1")
BANK_PREFIX = {split: f"{split}_" for split in REPLACED_BANKS}
FRESH_PREFIX = BANK_PREFIX["fresh"]
DEV2_PREFIX = BANK_PREFIX["dev2"]
# chunk, session and question ids start with this + seed: a split's first letter, but "v" for dev2 ("d" is dev's)
# and "w" for dev3
ID_PREFIX = {"dev": "d", "test": "t", "fresh": "f", "dev2": "v", "dev3": "w"}
CATEGORIES = ("single-hop", "multi-hop", "temporal", "update", "paraphrase")
PROBE_LABELS = ("present", "absent_clean", "absent_near")
FACT_CATEGORIES = ("preference", "constraint", "decision", "domain_fact", "entity", "failure_pattern")
# Question specs whose every template tells of something that happened ("Kestrel 3.20 shipped today",
# "finished the race in 1:50"), judged from the dev templates: a fact stored from one of their chunks is
# wrong. The other question specs often state a true standing fact nobody labelled ("Viktor is allergic
# to soy" for a question about the party), which the facts evaluation neither counts right nor wrong.
EVENT_SPECS = frozenset(
    {
        "appointment", "booked_flights", "book", "evaluated", "gift", "kid_event", "last_day", "outage",
        "postmortem", "race_day", "race_time", "release", "rollback", "signed", "submitted", "ticket",
    }
)  # fmt: skip
MAX_CHUNKS_PER_DAY = 20_000
# questions per 90 days, by category
QUESTIONS_PER_90_DAYS = {"single-hop": 50, "multi-hop": 30, "temporal": 30, "update": 25, "paraphrase": 25}
STABLE_FACTS_PER_90_DAYS = 36
DISTRACTORS_PER_90_DAYS = 20
PROBES_PER_LABEL = 80


# ---------------------------------------------------------------- public records


@dataclass(frozen=True)
class Question:
    id: str
    question: str
    answer: str
    category: str  # one of CATEGORIES
    evidence: tuple[str, ...]  # chunk ids
    asked_at: str  # ISO 8601 with offset


@dataclass(frozen=True)
class Probe:
    topic: str
    label: str  # one of PROBE_LABELS


@dataclass(frozen=True)
class PlantedFact:
    category: str  # one of FACT_CATEGORIES
    subject: str
    value: str
    stated_in: tuple[str, ...]  # chunk ids, first statement first
    valid_from: date
    superseded_on: date | None = None
    superseded_by: str | None = None  # the value that replaced this one


@dataclass
class Corpus:
    chunks: list[dict[str, Any]]
    questions: list[Question] = field(default_factory=list)
    probes: list[Probe] = field(default_factory=list)
    facts: list[PlantedFact] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)


# ---------------------------------------------------------------- data tables
# The tables below are text: _words splits on whitespace; _items splits on "|" (line breaks inside
# an item are just spaces), so long templates wrap freely; _pairs splits items on " = ".


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def _items(text: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in " ".join(text.split()).split("|"))


def _pairs(text: str) -> tuple[tuple[str, str], ...]:
    return tuple((a.strip(), b.strip()) for a, _, b in (item.partition(" = ") for item in _items(text)))


def _evals(text: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """ "purpose: tool, tool, ..." items."""
    return tuple(
        (p.strip(), tuple(t.strip() for t in tools.split(",")))
        for p, _, tools in (item.partition(":") for item in _items(text))
    )


def _code(text: str) -> str:
    return textwrap.dedent(text).strip("\n")


def _threads(text: str) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """ "shorts|paragraphs|code; ..." -> per opener, the indexes of the replies that answer it."""
    return tuple(
        tuple(tuple(int(i) for i in part.split(",") if i.strip()) for part in entry.split("|"))
        for entry in text.split(";")
    )


# ---------------------------------------------------------------- entity pools
# Pools in SPLIT_POOLS are halved by index parity: dev takes the even entries, test the odd ones.

PEOPLE = _words("""
    Priya Marcus Dana Tomas Ingrid Kwame Lena Rafael Mei Jonas Aisha Felix Sofia Omar Hana Diego Nadia Erik
    Yusuf Clara Arjun Freya Mateo Leila Viktor Zoe Kenji Amara Lukas Ines Sami Greta Tariq Noor Bruno Elif Anton
    Maya Idris Selma Hugo Nikhil Astrid Caleb Yara Emil Thea Dmitri Lucia Femi Pavel Signe Ravi Chloe Mateus
    Wanjiru Oskar Beatriz Jalen Saoirse Henrik Leticia Kofi Annika Tobias Mirela Ezra Paloma Farah Gideon
    Marisol Anders Chiara Nils Zainab Quentin Renata Stellan Imani Joaquin Elodie Bashir Kalinda Teodor Ayla
    Cyrus Margit Lior Odette
""")
KIDS = _words("""
    Milo Ada Theo Nora Leo Ellie Finn Luna Arlo Mina Otto Rumi Elsa Kai Pia Juno Remy Zara Ezio Lotte
""")
CITIES = _items("""
    Lisbon | Porto | Lyon | Kyoto | Osaka | Montreal | Seville | Valencia | Krakow | Prague | Vienna | Budapest
    | Copenhagen | Oslo | Helsinki | Tallinn | Riga | Edinburgh | Dublin | Galway | Bristol | Leeds | Bordeaux |
    Marseille | Turin | Bologna | Naples | Athens | Thessaloniki | Istanbul | Tbilisi | Marrakesh | Cape Town |
    Nairobi | Accra | Lima | Cusco | Bogota | Medellin | Mexico City | Oaxaca | Austin | Denver | Seattle |
    Chicago | Toronto | Vancouver | Melbourne | Auckland | Wellington | Singapore | Hanoi | Seoul | Busan |
    Taipei | Ljubljana | Zagreb | Antwerp | Ghent | Hamburg
""")
CLIENTS = _items("""
    Northwind Traders | Acme Logistics | Brightpath Learning | Larkspur Health | Tidewater Bank | Meridian Foods
    | Bluefin Labs | Copperleaf Energy | Quillstone Media | Pinecrest Insurance | Redwood Analytics | Solstice
    Travel | Orchard Robotics | Lumen Retail | Fablehouse | Keystone Freight | Silverline Telecom | Ironbark
    Mining | Wavelength Audio | Cobalt Dental | Saltmarsh Studios | Evergreen Clinics | Halcyon Games | Vantage
    Realty
""")
PROJECTS = _words("""
    Kestrel Osprey Heron Falcon Magpie Wren Puffin Plover Starling Tern Ibis Curlew
""")
SERVICES = _words("""
    billing-service auth-gateway search-indexer notification-worker ledger-api media-proxy report-builder
    invoice-renderer checkout-api profile-service export-worker sync-daemon webhook-relay catalog-api
    pricing-engine scheduler-service geo-lookup email-dispatcher inventory-sync payout-worker feed-builder
    tenant-admin usage-meter document-store event-bus session-broker ocr-worker recommendation-api
""")
TEAMS = _words("""
    platform payments growth mobile data infra search onboarding identity reliability analytics commerce
""")

# planted-only value pools (never used by the noise), also split
PET_NAMES = _words("""
    Biscuit Pickles Waffles Mochi Noodle Ziggy Juniper Clementine Bramble Marzipan Nugget Ruffles Sprocket Tater
    Gizmo Chutney Truffle Dumpling Pretzel Cosmo Figaro Pudding Bonbon Pippin Rascal Churro Tinsel Snickerdoodle
    Wasabi Paddington Radish Zucchini
""")
HOTELS = _items("""
    Hotel Miramar | Casa Lumen | Pension Elvira | Hotel Cerulean | the Alder Inn | Harbourview Lodge | the
    Granary Hotel | Old Mill Guesthouse | Hotel Solara | Villa Rosmarin | the Linden House | Hotel Azalea |
    Quayside Rooms | the Foundry Hotel | Casa Palmera | Hotel Montclair | the Wickham | Saltbox Inn | Hotel
    Oriel | Larchmont Suites | the Ropewalk Hotel | Hotel Belvue | Driftwood Lodge | Casa Ondina | Hotel Tivola
    | the Marlowe | Hotel Vesper | the Cloister Inn | Ambra Suites | Hotel Nordlys | the Tannery Hotel |
    Fernhill Lodge | Hotel Calypso | Casa Tortuga
""")
BOOKS = _items("""
    The Glass Orchard | Nine Rivers North | The Lantern Keeper | A Field Guide to Silence | The Cartographer's
    Daughter | Slow Engines | The Weight of Small Things | Harbour Lights | The Quiet Compiler | Paper Moons |
    Salt and Timber | Winter Arithmetic | The Borrowed Summer | Under the Linden | A Theory of Kites | The
    Patient Gardener | Signal and Drift | The Clockmaker's Apprentice | Brass Wolves | The Unfinished Map |
    Letters from the Lighthouse | Seven Small Rebellions | The Second Spring | Night Trains | The Honest Machine
    | Feathers and Ink | An Atlas of Rain | The Long Refactor | Copper Sky | The Tin Violin
""")
RESTAURANTS = _items("""
    Casa Azul | Trattoria Nonna Lina | Bistro Verde | the Copper Pot | Sakura Kitchen | El Faro | Little Saigon
    Grill | Maison Fleur | Taverna Kyma | Osteria Bellini | Brasserie Lumiere | Mesa Roja | the Green Fig |
    Hoshi Noodle Bar | Dal Moro | Cantina Sol | the Salted Anchor | Yuzu House | Pho Thanh | Smokehouse 41 |
    Kaffeehaus Weiss | Mama Ngozi's | Tandoor Nights | Bodega Alta | Izakaya Kumo | the Brass Kettle | Chez
    Margaux | Forno Antico | Ceviche Lab | Lotus Terrace | Hearth and Rye | Tapas Ribera | Osteria Fumo | the
    Lemon Tree Cafe
""")
SURNAMES = _words("""
    Okafor Lindqvist Moreau Castellano Brennan Nakamura Haddad Kowalski Albrecht Delacroix Fitzgerald Oyelaran
    Vasquez Sorensen Mbeki Petrakis Ferreira Halloran Ishikawa Novak Rahman Whitlock Dubois Achterberg Marchetti
    Eriksen Quispe Tanaka Abernathy Goldberg Szabo Olsen Chaudhry Romero Kuznetsova Iyer
""")
GIFTS = _items("""
    a pottery class voucher | a Polaroid camera | noise-cancelling headphones | a cast-iron skillet | a hammock
    | a star map print | a kayak rental voucher | a vintage record player | a leather journal | a weighted
    blanket | a telescope | an espresso grinder | a wine-tasting tour | a silk scarf | a bonsai kit | a board
    game about trains | a fountain pen | hiking poles | a cooking class | a framed family photo | a Lego
    architecture set | a massage voucher | a yoga mat | concert tickets | a bread maker | an e-reader | a picnic
    basket | a camera drone | a sketchbook set | a herb garden kit | a climbing harness | a label maker
""")
CARS = _items("""
    Skoda Octavia | Toyota Corolla | Kia Niro | Volvo V60 | Mazda 3 | Renault Zoe | Honda Jazz | Hyundai Ioniq |
    VW Golf | Peugeot 208 | Subaru Outback | Ford Focus | Tesla Model 3 | Nissan Leaf | Fiat 500 | Mini Cooper |
    BMW i3 | Dacia Duster | Citroen C4 | Seat Leon | Audi A4 | Polestar 2 | Kia Ceed | Toyota Yaris
""")
RACES = _items("""
    the Riverside 10K | the Harbour Half | the Lakeshore 5K | the Autumn Trail 15K | the City Bridges Run | the
    Old Town 10K | the Canal Half Marathon | the Frost Run | the Hill Dash | the Parkland 5K | the Midsummer 10K
    | the Coastal 21K | the Vineyard Run | the Night Owl 8K | the Forest Relay | the Castle 10K | the Meadow Run
    | the Docklands 5K | the Ridge Trail Race | the Spring Sprint 5K | the Orchard 10K | the Bay Loop Half | the
    Lantern Run | the Northside 10K
""")
PLANTS = _items("""
    fiddle-leaf fig | monstera | snake plant | olive tree | lemon tree | peace lily | string of pearls | bird of
    paradise | rubber plant | pothos | ZZ plant | calathea | jade plant | spider plant | maidenhair fern |
    orchid | bonsai maple | kentia palm | aloe vera | staghorn fern | hoya | money tree
""")
FEATURE_FLAGS = _pairs("""
    the new checkout = checkout_v2_enabled | bulk export = enable_bulk_export | the redesigned dashboard =
    dashboard_redesign | dark mode = ui_dark_theme | SAML login = sso_saml_beta | usage-based billing =
    metered_billing | the onboarding tour = show_onboarding_tour | CSV imports = csv_import_v3 | instant payouts
    = payouts_instant | the AI summaries = ai_summaries_preview | multi-currency invoices =
    invoice_multi_currency | team workspaces = workspaces_ga | offline mode = mobile_offline_sync | the referral
    program = referrals_enabled | two-factor enforcement = enforce_2fa | scheduled reports = reports_scheduler |
    the new search = search_v2 | webhook retries = webhook_retry_policy | audit log export = audit_export_beta |
    custom domains = custom_domains_enabled | live chat support = support_chat_widget | granular permissions =
    rbac_granular | invoice reminders = dunning_reminders | the mobile paywall = mobile_paywall_test
""")
SYMPTOMS = _items("""
    duplicate emails on signup | blank PDF invoices | timeouts on the export endpoint | wrong currency symbol on
    receipts | missing avatars after upload | double-charged refunds | stale search results | broken pagination
    on page 2 | garbled umlauts in CSV exports | off-by-one totals in reports | login loops on Safari | empty
    notification digests | mismatched timezones in calendar invites | slow autocomplete | truncated webhook
    payloads | 404s on shared links | frozen progress bars during import | negative stock counts | expiry
    warnings for active users | images rotated sideways | missing line items on invoices | duplicated rows after
    sync | unsent password resets | random 502s behind the proxy | scrambled sort order on mobile | zero-byte
    backups | wrong tax on EU orders | ghost notifications
""")
FIXES = _items("""
    a missing await in the retry handler | an index on tenant_id | escaping the filename header | pinning the
    font package | switching the worker to UTC | a lock around the balance update | bumping the proxy buffer
    size | deduplicating on the idempotency key | clearing the CDN cache on deploy | reading EXIF orientation
    before resizing | a guard for empty payloads | raising the connection pool size | fixing the cursor
    comparison | encoding the CSV as UTF-8 with a BOM | rounding after summing | refreshing the token before the
    batch | a unique constraint on external_id | a retry with jitter | moving the job to the high-priority queue
    | resetting the session TTL on activity | normalizing emails to lowercase | keyset pagination on created_at
    | setting the timezone on the invite | a timeout on the upstream call | streaming the upload instead of
    buffering it | a transaction around the sync | trimming whitespace in the SKU | disabling HTTP/2 on the
    legacy proxy
""")
BLOCKERS = _items("""
    a security review from the compliance team | the new VPC peering | the data retention sign-off | the
    vendor's SDK release | budget approval for a larger database | legal's review of the DPA | the SSO
    certificate from IT | the design team's final mocks | sandbox access from the payments provider | the
    load-test environment | the schema freeze ending | a rate-limit increase from the API partner | procurement
    signing the license | the old queue being drained | a decision on multi-region | the observability migration
    | the penetration test results | the App Store review | a replacement for the deprecated maps API | the
    accessibility audit | the translation files from the agency | the new on-call rotation | DNS changes at the
    registrar | the export format from finance
""")
SLOW_CAUSES = _items("""
    an N+1 query in the serializer | a missing index on created_at | synchronous calls to the pricing engine | a
    cold cache after every deploy | JSON encoding of huge nested payloads | a regex that backtracks on long
    inputs | logging every request body | a sequential scan on the events table | DNS resolution on every
    request | loading all rows into memory before paging | unbatched writes to the audit table | lock contention
    on the counters row | a fresh TLS handshake to the upstream on every call | thumbnails generated on the fly
    | lazy loading in the ORM templates | retries piling up behind a slow dependency | gzip at the highest
    compression level | a single-threaded worker pool | per-request feature flag lookups | pagination with huge
    offsets
""")
COST_DRIVERS = _items("""
    log ingestion from debug logging | cross-region data transfer | an oversized database instance | idle GPU
    nodes | unused load balancers | snapshot retention of 90 days | egress to the analytics vendor | a runaway
    cron creating temp files | too many NAT gateway hours | the premium support tier | per-seat monitoring
    licences | provisioned IOPS on the replicas | a forgotten staging cluster | high-cardinality metrics | batch
    jobs on on-demand instances | CDN invalidations | duplicate backups to two buckets | extra replicas in the
    search cluster | tracing at 100% sampling | large container images pulled on every scale-up
""")
TALKS = _items("""
    zero-downtime schema changes | observability on a budget | property-based testing | scaling Postgres reads |
    blameless incident reviews | building an internal developer platform | accessibility in design systems |
    migrating a monolith one slice at a time | rate limiting strategies | cost-aware cloud architecture |
    mentoring junior engineers | event sourcing in practice | type hints in large codebases | privacy by design
    | on-call without burnout | caching patterns that don't lie | writing useful postmortems | API design for
    humans | offline-first mobile apps | shipping small batches
""")
FAILING_JOBS = _items("""
    the nightly export | the e2e suite | the iOS build | the backup cron | the search reindex | the invoice
    batch | the staging deploy | the warehouse sync | the Android release build | the weekly digest email | the
    log rotation job | the smoke tests | the billing reconciliation | the thumbnail worker | the sitemap
    generator | the data retention purge | the certificate renewal | the Terraform plan check | the translation
    sync | the CSV importer
""")
FAILURE_CAUSES = _items("""
    the S3 credentials expire after 12 hours | the test database isn't reset between runs | the runner runs out
    of disk space | Chrome updates break the headless driver | a migration locks the orders table | DNS lookups
    time out inside the container | the job starts before the replica catches up | the provisioning profile
    expires every month | the API token rotates at midnight | two copies of the job run at the same time | the
    temp directory fills up with old artifacts | the upstream feed changes its date format | memory spikes past
    the container limit | the mock server port is already taken | the VPN drops the connection after an hour |
    the lockfile drifts from the manifest | the third-party sandbox returns 503s | daylight saving time shifts
    the cron schedule | the cache key ignores the locale | large attachments exceed the queue message size
""")
EVALS = _evals("""
    PDF export: WeasyPrint, ReportLab, Puppeteer, wkhtmltopdf | feature flags: LaunchDarkly, Unleash, Flagsmith,
    GrowthBook | site search: Meilisearch, Typesense, Elasticsearch, Algolia | transactional email: Postmark,
    SendGrid, Mailgun, Amazon SES | image resizing: imgproxy, Thumbor, Cloudinary, ImageKit | error tracking:
    Rollbar, Bugsnag, Honeybadger, Airbrake | customer login: Clerk, Ory, FusionAuth, SuperTokens | product
    analytics: PostHog, Amplitude, Mixpanel, Heap | status pages: Statuspage, Instatus, Better Stack, Cachet |
    docs hosting: Mintlify, ReadMe, Docusaurus, GitBook | background jobs: Dramatiq, Huey, Arq, Procrastinate |
    load testing: k6, Locust, Gatling, Vegeta
""")
PLANS = _pairs("""
    Starter = email support | Growth = audit logs | Scale = SAML single sign-on | Enterprise = a dedicated
    support engineer | Business = custom roles | Premier = data residency options | Studio = unlimited projects
    | Agency = white-label reports | Plus = priority support | Ultimate = a 99.99% uptime guarantee
""")
ALLERGENS = _words("""
    peanuts sesame shellfish kiwi walnuts mustard celery lupin cashews strawberries soy mango hazelnuts
    buckwheat pistachios sulphites
""")
DOCS = _items("""
    tax return | visa application | grant proposal | mortgage application | passport renewal | insurance claim |
    planning permission request | school application | pension transfer form | residence permit renewal | jury
    duty deferral | childcare subsidy form
""")
APPOINTMENTS = _items("""
    flu shot | dental cleaning | eye exam | tetanus booster | blood test | physio assessment | skin check |
    hearing test | allergy test | MRI scan | hepatitis vaccine | cholesterol check
""")
APPLIANCES = _pairs("""
    fridge = refrigerator | washing machine = laundry appliance | couch = sofa | laptop = notebook computer |
    boiler = water heater | oven = cooker | bike = bicycle | TV = television | dishwasher = dish-cleaning
    appliance | hoover = vacuum cleaner | phone = mobile handset | garage door = car port door
""")

FLAKY_CAUSES = _items("""
    it depends on row order from a query without ORDER BY | it compares timestamps to the second | it shares a
    fixture with the export tests | it uses the real clock and breaks at midnight | the mock server starts too
    slowly | it relies on the order parallel jobs finish in | it reads an environment variable another test sets
    | it leaves temp files that the next run trips over | it asserts on a float without a tolerance | a random
    seed makes the sample empty sometimes | it waits a fixed 100 ms for the worker | it depends on the test
    database's sequence values
""")
DEPLOY_CAUSES = _items("""
    the health check times out while caches warm up | image pulls hit the registry rate limit | the migration
    job loses its lock | the config map is missing a key | the new pods run out of memory | the old pods take
    too long to drain | the secrets mount arrives after the app starts | the DNS record for the database lags
    behind | two migrations run at once | the disk on the build box fills up | the readiness probe points at the
    wrong port | a feature flag lookup fails on startup
""")
# initiative code names: every adjective with every noun (the split halves the combinations)
CODENAMES = [
    f"{adjective} {noun}"
    for adjective in _words("Amber Silent Crimson Hidden Northern Quiet Rapid Silver Golden Hollow Iron Velvet")
    for noun in _words("Fox Harbor Lantern Comet Orchard Summit Anchor Compass Meadow Beacon Glacier Canyon")
]
ROOMS = _items("""
    room 4B | the Atlas room | room 2.17 | the Greenhouse room | the Boardroom | the Lighthouse room | room 5C |
    the Library room | the Fjord room | the Quarry room | room 3A | the Observatory room | room 6D | the
    Meridian room | room 1.04 | the Harbour room
""")

# fmt: off
SPLIT_POOLS: dict[str, Any] = {
    "people": PEOPLE, "kids": KIDS, "cities": CITIES, "clients": CLIENTS, "projects": PROJECTS,
    "services": SERVICES, "teams": TEAMS, "pet_names": PET_NAMES, "hotels": HOTELS, "books": BOOKS,
    "restaurants": RESTAURANTS, "surnames": SURNAMES, "gifts": GIFTS, "cars": CARS, "races": RACES,
    "plants": PLANTS, "feature_flags": FEATURE_FLAGS, "symptoms": SYMPTOMS, "fixes": FIXES,
    "blockers": BLOCKERS, "slow_causes": SLOW_CAUSES, "cost_drivers": COST_DRIVERS, "talks": TALKS,
    "failing_jobs": FAILING_JOBS, "failure_causes": FAILURE_CAUSES, "evals": EVALS, "plans": PLANS,
    "allergens": ALLERGENS, "docs": DOCS, "appointments": APPOINTMENTS, "appliances": APPLIANCES,
    "rooms": ROOMS, "flaky_causes": FLAKY_CAUSES, "deploy_causes": DEPLOY_CAUSES, "codenames": CODENAMES,
}
# fmt: on

LIBS = _words("""
    SQLAlchemy Alembic FastAPI Django Flask Celery pydantic httpx requests pytest Hypothesis React Next.js Vite
    Tailwind Prisma Redis Kafka RabbitMQ Grafana Prometheus Terraform Docker Kubernetes Nginx Caddy Gunicorn
    uvicorn Stripe boto3 Pandas Polars DuckDB OpenTelemetry ruff mypy Playwright Storybook Jinja2 structlog
""")
DISHES = _items("""
    shakshuka | risotto | pad thai | dal | ramen | lasagna | banana bread | focaccia | chili | paella | green
    curry | gnocchi | pho | bibimbap | minestrone | tagine | moussaka | pierogi | enchiladas | carbonara |
    falafel | frittata | lentil soup | jambalaya | fish pie | mushroom stroganoff
""")
RELS = _items("""
    sister | brother | mom | dad | cousin | aunt | uncle | best friend | neighbour | partner | mother-in-law |
    brother-in-law
""")
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
ROLES = _items("""
    tech lead | engineering manager | staff engineer | product manager | product designer | QA lead | data
    engineer | site reliability engineer | support lead | security engineer
""")
TIMES = _items("""
    7:05am | 7:40am | 8:15am | 9:50am | 11:20am | 12:35pm | 1:45pm | 3:10pm | 4:55pm | 6:25pm | 8:40pm | 9:15pm
""")
MONTH_NAMES = _words("January February March April May June July August September October November December")


def _numbers(lo: int, hi: int) -> list[str]:
    return [str(i) for i in range(lo, hi)]


# fmt: off
NOISE_POOLS: dict[str, Any] = {
    "rel": RELS, "lib": LIBS, "lib2": LIBS, "dish": DISHES, "dish2": DISHES, "weekday": WEEKDAYS[:5],
    "n": _numbers(2, 10), "nn": _numbers(11, 99), "nnn": _numbers(120, 990), "pct": _numbers(3, 60),
    "ms": [str(i) for i in range(80, 2400, 35)], "month": MONTH_NAMES,
    "tbl": _words("""orders invoices events users sessions line_items payments audit_events subscriptions tenants
                     shipments"""),
    "col": _words("created_at tenant_id status user_id external_id updated_at email order_id"),
    "endpoint": _words("""/api/v2/orders /api/v2/search /reports/export /api/v1/accounts /webhooks/incoming
                          /api/v2/invoices /internal/health /api/v2/users/me"""),
    "fn": _words("""parse_invoice apply_discount sync_accounts build_report resolve_tenant send_digest
                    compute_totals normalize_address refresh_cache merge_profiles load_settings render_receipt"""),
    "err": _items("""
        KeyError: 'items' | TypeError: 'NoneType' object is not subscriptable | IntegrityError: duplicate key
        value violates unique constraint | ConnectionResetError | TimeoutError | ValueError: invalid literal for
        int() | AttributeError: 'dict' object has no attribute 'id' | RecursionError: maximum recursion depth
        exceeded | UnicodeDecodeError | ZeroDivisionError
    """),
}
# fmt: on


# ---------------------------------------------------------------- noise: generic chat

GREET_USER = _items("""
    morning! | hey | hi again | ok, back | quick question | hey, got a minute? | good morning :) | evening. one
    more thing before I log off | hi! coffee in hand, let's go | yo | hello hello | back from lunch | ok I'm
    here | hi, short one today | morning, rough night but let's do this
""")
GREET_ASSIST = _items("""
    Morning! What are we working on? | Hi! What's up? | Sure, go ahead. | Hey! Happy to help. | Welcome back.
    Where were we? | Hi there, what do you need? | Of course, shoot. | Good morning! What's on the list today?
""")
ACK_USER = _items("""
    ok thanks | thanks! | got it | perfect, that worked | makes sense | ok | cool | nice, thx | great, thanks a
    lot | ah right | yep | that did it | hmm ok | will try that | sounds good | ok thanks | thank you!! | oh
    nice | right, of course | good call | ok that helps | k
""")
ACK_ASSIST = _items("""
    You're welcome! | Glad that helped. | Any time. | Good luck with it! | Let me know how it goes. | Happy to
    help, ping me if it breaks again. | Great, one less thing. | No problem at all. | Nice! Anything else? |
    Cool, shout if something looks off.
""")
SMALLTALK_USER = _items("""
    ugh, long day | the weather is awful today | I need more coffee | can't believe it's {weekday} already | my
    {rel} says hi lol | the neighbours are drilling again | finally some sun today | brain is fried | how's it
    going? | just got back from lunch, food coma | so many emails today | the wifi at this cafe is terrible |
    slept badly, bear with me | one of those days where nothing compiles | short week for me, taking {weekday}
    off
""")
SMALLTALK_ASSIST = _items("""
    Sounds like a lot. Want to keep things short today? | Ha, hang in there. | Doing well, thanks for asking!
    What can I help with? | Coffee first, then code. Sensible order. | Sorry to hear that. Let's try to get one
    thing finished at least. | Say hi back! | Enjoy the sun if you can step out for a bit. | Fair enough. We can
    take it slow.
""")
CLOSE_USER = _items("""
    that's all for now | I'll pick this up tomorrow | ok logging off, thanks | gotta run, kid pickup | let's
    continue after lunch | calling it a day | done for today, thanks for the help | brb, meeting | ok I'll try
    this tonight
""")
CLOSE_ASSIST = _items("""
    Sounds good, talk later! | Have a good evening. | See you tomorrow. | Good luck in the meeting! | Enjoy the
    rest of your day. | Talk soon.
""")
REPEAT_PREFIX = (
    "sorry, asking again because I lost the thread: ",
    "again: ",
    "repeating since it didn't go through: ",
    "ok one more time: ",
    "I know I asked before but ",
)
ASSIST_REPEAT_PREFIX = (
    "As I mentioned earlier: ",
    "Same answer as before, really. ",
    "To recap what I said before: ",
)
LIST_INTRO = _items("""
    A few things to check: | Here's what I'd do, in order: | Quick checklist: | Options, roughly by effort: |
    Things that usually help: | In short:
""")
CLOSING_OFFER = _items("""
    Want me to write that up as a ticket? | Happy to go deeper on any of these. | If you paste the output I can
    narrow it down. | Let me know which option you pick. | I can draft the code for the first step if that
    helps. | Does that match what you're seeing?
""")


@dataclass(frozen=True)
class _Topic:
    name: str
    domain: str
    open: tuple[str, ...]
    short: tuple[str, ...]
    para: tuple[str, ...]
    items: tuple[str, ...]
    follow: tuple[str, ...]
    code: tuple[str, ...] = ()
    # per opener: (matching short replies, matching paragraphs, matching code snippets), by index
    threads: tuple[tuple[tuple[int, ...], ...], ...] = ()


# fmt: off
TOPICS: tuple[_Topic, ...] = (
    _Topic(
        "auth", "software",
        open=_items("""
            the login for {proj} keeps returning 401 right after the token refresh, any idea why? | how should
            we store refresh tokens for the {proj} mobile app? | can you look at my JWT validation middleware?
            something feels off | {p} asked whether we can add SSO for {client}. how much work is that
            realistically? | password reset emails take like {n} minutes to arrive, is that on our side? |
            what's the cleanest way to do role-based permissions in {svc}? | users are getting logged out
            randomly on {proj}, started after yesterday's release | do we need PKCE for the SPA or is the
            implicit flow still ok? | how long should session cookies live for an internal admin tool? | {svc}
            is rejecting tokens issued by {svc2}, clock skew maybe?
        """),
        short=_items("""
            Most likely the refresh races with an in-flight request: two calls refresh at once and the second
            one presents a token that was already rotated. | Use the authorization code flow with PKCE; the
            implicit flow is deprecated for single-page apps. | I'd keep refresh tokens in the platform
            keychain, never in plain local storage. | Check the exp and nbf claims against the server clock
            first. A skew of even {n} seconds can do this. | For an internal tool, 8 to 12 hours with sliding
            expiry is a reasonable default. | That sounds like the cookie's SameSite setting changed with the
            release. | Realistically a few weeks. The protocol part is quick; account linking and admin controls
            take the time. | Probably on our side: transactional mail shouldn't wait behind batch jobs in the
            same queue. | Keep one can(user, action, resource) check and map roles to permissions in data, not
            code. | Looks mostly fine, but pin the allowed algorithms and check the audience too.
        """),
        para=_items("""
            The usual culprit is token rotation. When refresh tokens are single-use, two tabs (or two parallel
            API calls) that both notice an expired access token will both try to refresh. The first wins, the
            second presents an already-rotated token and the server treats it as reuse, which revokes the whole
            token family. Queue refreshes behind a single promise on the client so only one is ever in flight. |
            For SSO the work splits into three parts: the protocol itself (SAML or OIDC, and {client} will tell
            you which one their identity provider supports), account linking for users who already have
            passwords, and the admin side: who can enforce SSO for a tenant and what happens to existing
            sessions when they do. The protocol is the easy part; the edge cases around linking are where the
            time goes. | Role-based access control works best when permissions are checked in one place. Define
            permissions as verbs on resources (invoice:read, invoice:refund), map roles to sets of permissions
            in data rather than code, and make every handler ask a single can(user, action, resource) function.
            That keeps {svc} from growing ad-hoc admin checks everywhere. | On the JWT side, validate the
            signature with an explicit algorithm allow-list, check iss and aud, and allow a small leeway for
            clock skew, around 30 seconds. Never accept alg none, and never pick the key from an unverified
            header field without a list of known key ids. | Slow password-reset emails are usually the queue,
            not the mail provider. If the email job shares a worker pool with heavy exports, it waits behind
            them. A separate high-priority queue for transactional mail fixes it, and a metric for time from
            request to send shows when it regresses.
        """),
        items=_items("""
            Log the token id and expiry on every 401 so failures can be correlated | Rotate signing keys with
            overlapping validity windows | Set HttpOnly, Secure and SameSite=Lax on the cookie | Rate-limit the
            login endpoint per account and per IP | Invalidate sessions when the password changes | Keep access
            tokens short-lived, around 15 minutes | Return the same error for unknown user and wrong password
        """),
        follow=_items("""
            ok and where do I put the leeway, in the decode call? | what about the web app, same thing? | would
            that also explain the logouts on {proj}? | {p} thinks we should just make tokens last a week lol |
            can you write the test for that? | and if {client} uses Azure AD? | hmm, the clocks look fine though
        """),
        code=(
            _code("""
                ```python
                def verify(token: str) -> dict:
                    return jwt.decode(
                        token,
                        key=PUBLIC_KEY,
                        algorithms=["RS256"],
                        audience="{svc}",
                        leeway=30,
                    )
                ```
            """),
            _code("""
                ```ts
                let refreshing: Promise<string> | null = null;

                export async function accessToken(): Promise<string> {{
                  if (!refreshing) {{
                    refreshing = refresh().finally(() => (refreshing = null));
                  }}
                  return refreshing;
                }}
                ```
            """),
        ),
        threads=_threads("0,3|0|1; 2||; 9,3|3|0; 6|1|; 7|4|; 8|2|; 5,0|0|1; 1||; 4||; 3|3|0"),
    ),
    _Topic(
        "api", "software",
        open=_items("""
            what's a sane pagination scheme for {endpoint}? offset is getting slow | should the {svc} webhooks
            be signed? {client} is asking | we're getting 429s from the partner API. how do I back off properly?
            | how do I version the public API without breaking {client}? | can you draft an OpenAPI snippet for
            {endpoint}? | is it ok to return 200 with an error body? {p} does that everywhere in {svc} |
            idempotency keys for POST requests, worth it for payments? | the response for {endpoint} is {nn}kb,
            way too big. ideas? | REST or GraphQL for the new {proj} mobile endpoints? | how should {svc} report
            validation errors to clients?
        """),
        short=_items("""
            Switch to cursor pagination: return an opaque cursor built from (created_at, id) and filter with a
            WHERE clause instead of OFFSET. | Yes, sign them with an HMAC over the raw body plus a timestamp,
            and document how to verify it. | Exponential backoff with full jitter, and honour Retry-After when
            the partner sends it. | Please don't return 200 for errors; clients, proxies and monitoring all rely
            on the status code. | For payments, idempotency keys are close to mandatory. | Trim the payload
            first: most clients only need a handful of fields. | Start from an example request and response;
            I'll sketch the schema around them. | REST for a mobile app this size; GraphQL pays off when many
            clients need very different shapes of data. | Return a 422 with a list of field errors, each with a
            path and a machine-readable code. | Additive changes only, and run old and new versions side by side
            when you must break something.
        """),
        para=_items("""
            Offset pagination gets slower the deeper you go, because the database still has to walk and discard
            every skipped row. Cursor pagination keeps each page cheap: sort by a unique, stable key (created_at
            plus id as a tie-breaker), hand the client an opaque cursor with the last values it saw, and ask for
            rows strictly after it. It also stops pages from shifting when new rows arrive mid-scroll. | Webhook
            signing is cheap insurance. Compute an HMAC-SHA256 over the timestamp and the exact raw body, send
            it in a header, and have receivers reject anything older than five minutes to stop replays. Give
            {client} a small verification snippet in their language, because most integration bugs come from
            re-serialising the JSON before checking the signature. | For versioning, the main rule is additive
            changes only within a version: new optional fields and new endpoints are fine, renames and removals
            are not. When you do need a breaking change, run both versions side by side, publish a deprecation
            date, and log which clients still call the old one so you can nudge them personally. | Idempotency
            keys let a client retry safely after a timeout. Store the key with the request hash and the response
            for a day or so; a repeat with the same key returns the stored response, and a repeat with the same
            key but a different body is a 422. Without this, a flaky network turns into double charges. |
            Validation errors are easiest to consume as a 422 with a list of problems, each with a field path, a
            machine-readable code and a human message. Clients can then highlight the right form field without
            parsing English, and you can translate messages later without breaking anyone.
        """),
        items=_items("""
            Return Retry-After on 429 and 503 | Use ISO 8601 timestamps with offsets everywhere | Never reuse a
            field name with a different meaning | Publish a changelog for the public API | Add request ids to
            every response for support | Cap page sizes on the server side | Make list endpoints filterable by
            updated_at for syncs
        """),
        follow=_items("""
            what does the cursor look like, base64 of json? | and how do clients know there's a next page? | ok
            but {client} already built against the old format | how long do we keep the idempotency keys? | {p}
            says GraphQL would solve all of this haha | can you write the verification snippet in python?
        """),
        code=(
            _code("""
                ```python
                def sign(secret: bytes, timestamp: str, body: bytes) -> str:
                    message = timestamp.encode() + b"." + body
                    return hmac.new(secret, message, hashlib.sha256).hexdigest()
                ```
            """),
            _code("""
                ```sql
                SELECT id, created_at, total
                FROM {tbl}
                WHERE (created_at, id) > (%(after_ts)s, %(after_id)s)
                ORDER BY created_at, id
                LIMIT 50;
                ```
            """),
        ),
        threads=_threads("0|0|1; 1|1|0; 2||; 9|2|; 6||; 3|4|; 4|3|; 5||; 7||; 8|4|"),
    ),
    _Topic(
        "database", "software",
        open=_items("""
            this query on {tbl} takes {ms} ms, can you help me read the EXPLAIN output? | do we need an index on
            {tbl}.{col}? | the Postgres connection pool keeps maxing out during the nightly job | how do I add a
            NOT NULL column to a big table without locking it? | should we use UUIDs or bigint ids for the new
            tables? | deadlock detected in {svc} again, {n} times this morning | what's the difference between
            READ COMMITTED and REPEATABLE READ in practice? | {p} wants to denormalize {tbl} into a JSONB
            column, thoughts? | the replica lag spiked to {nn} seconds during the import | vacuum seems to never
            finish on {tbl}
        """),
        short=_items("""
            An index on {col} will help only if the query filters or sorts on it; paste the plan and we'll see.
            | Add the column as nullable, backfill in batches, then add the constraint as NOT VALID and validate
            it. | For new tables I'd go with bigint identity columns unless ids are generated outside the
            database. | Deadlocks like that usually mean two code paths lock the same rows in different orders.
            | In practice: READ COMMITTED sees other commits mid-transaction, REPEATABLE READ doesn't. | A pool
            that maxes out during a batch job usually means the job holds connections while doing slow work. |
            Paste the EXPLAIN ANALYZE output and I'll walk through it. | Keep the hot fields as real columns;
            JSONB is fine for the long tail. | Lag during imports is write volume: batch smaller and pause when
            lag crosses a threshold. | Vacuum that never finishes usually means a long-running transaction is
            holding back cleanup.
        """),
        para=_items("""
            Reading the plan from the inside out: the sequential scan on {tbl} is where the time goes, and the
            row estimate is off by two orders of magnitude, which is why the planner chose a hash join. Run
            ANALYZE on the table first; if the estimate is still wrong, the filter on {col} probably correlates
            with another column and extended statistics would help. | Adding a NOT NULL column safely is a
            three-step dance. First add it as nullable with no default rewrite, which is instant. Then backfill
            in batches of a few thousand rows with a short sleep between them so the replicas keep up. Finally
            add a CHECK constraint as NOT VALID, validate it separately (that only takes a weak lock), and then
            SET NOT NULL becomes a metadata change. | Connection pools run dry when something holds a connection
            longer than it needs. Batch jobs are the classic case: they open a transaction, then call an
            external API inside it. Move the slow calls outside the transaction, give the job its own small
            pool, and set a statement timeout so one stuck query can't starve the web workers. | JSONB is great
            for data you read as a blob and rarely filter on. Once you need to query inside it, join on it or
            enforce constraints, you end up rebuilding columns with expression indexes and losing the planner's
            statistics. I'd keep the hot fields as real columns and put only the long tail in JSONB. | Replica
            lag during big imports is mostly write volume. Batching helps, but so does importing into an
            unlogged staging table and then inserting into the real table in chunks, so each chunk is a
            reasonable amount of WAL. Watch the lag metric and pause the importer when it crosses a threshold.
        """),
        items=_items("""
            Run ANALYZE after large imports | Set statement_timeout for web requests | Use CREATE INDEX
            CONCURRENTLY | Keep transactions short and never call external APIs inside them | Monitor replica
            lag | Lock rows in a consistent order | Prefer partial indexes for status filters
        """),
        follow=_items("""
            here's the plan, the seq scan is on {tbl} | how big should the batches be? | would a partial index
            work? | ok the estimate says 12 rows but it's 40k | and how do I find which code paths lock in which
            order? | {p} is worried about the migration taking the site down
        """),
        code=(
            _code("""
                ```sql
                ALTER TABLE {tbl} ADD COLUMN region text;
                -- backfill in batches, then:
                ALTER TABLE {tbl} ADD CONSTRAINT {tbl}_region_nn CHECK (region IS NOT NULL) NOT VALID;
                ALTER TABLE {tbl} VALIDATE CONSTRAINT {tbl}_region_nn;
                ```
            """),
            _code("""
                ```sql
                CREATE INDEX CONCURRENTLY idx_{tbl}_{col}
                    ON {tbl} ({col})
                    WHERE status = 'open';
                ```
            """),
            _code("""
                ```python
                with engine.connect() as conn:
                    conn.execute(text("SET statement_timeout = '5s'"))
                    rows = conn.execute(query).fetchall()
                ```
            """),
        ),
        threads=_threads("6,0|0|1; 0||1; 5|2|2; 1|1|0; 2||; 3||; 4||; 7|3|; 8|4|; 9||"),
    ),
    _Topic(
        "deploy", "software",
        open=_items("""
            the deploy for {svc} is stuck at the health check | how do I set up blue-green deploys for {proj}? |
            the Docker image for {svc} is {nnn} MB, how do I slim it down? | CI took {nn} minutes today, can we
            cache dependencies better? | what's the best way to run migrations as part of the deploy? | the
            canary for {svc} shows {pct}% more errors, roll back or wait? | how do I manage env vars across
            staging and prod without copy-pasting? | the helm chart for {svc} has grown into a monster | can we
            deploy {svc} without downtime? | {p} wants preview environments for every pull request
        """),
        short=_items("""
            A stuck health check usually means the app binds to the wrong port or the check hits an endpoint
            that needs the database. | Use a multi-stage build and a slim base image; that alone often halves
            it. | Cache on the lockfile hash, not the branch name. | With {pct}% more errors I'd roll back first
            and investigate after. | Run migrations as a separate step before the new code goes live, and keep
            them backwards compatible. | Keep config in one place per environment and inject it at deploy time.
            | Split it per concern, and move environment differences into values files. | Yes, with rolling
            updates and readiness checks, as long as migrations are backwards compatible. | Preview environments
            are great if they're cheap; start with one per PR that expires after a day. | Two identical
            environments and an atomic traffic switch; the database changes are the hard part.
        """),
        para=_items("""
            Health checks should answer one question: can this process serve traffic? If the check queries the
            database and the database is slow during deploys, the orchestrator kills healthy pods and the
            rollout never finishes. Split it into a liveness check that only proves the process is up and a
            readiness check that verifies dependencies with a short timeout. | For a slimmer image, build in one
            stage with compilers and dev headers, then copy only the installed packages and the app into a slim
            runtime stage. Add a .dockerignore so tests, fixtures and the git history stay out of the build
            context. Pin the base image by digest so rebuilds are reproducible. | Blue-green needs two things to
            be boring: a way to switch traffic atomically (a load balancer target or a DNS weight) and database
            changes that both versions can live with. The second part is the real work: expand the schema first,
            deploy code that writes both shapes, migrate data, then contract in a later release. | Migrations
            during deploys are safest when they are backwards compatible with the code that is already running.
            Run them as a one-off job before the rollout, make them idempotent, and set a lock timeout so a
            migration waiting on a busy table fails fast instead of blocking every query behind it. | When a
            canary shows more errors, compare like with like: same endpoints, same tenants, same time window. If
            the extra errors are concentrated on one endpoint and reproducible, roll back immediately. If they
            are spread thinly, it might be noise from a small sample, but rolling back is cheap and waiting is
            not.
        """),
        items=_items("""
            Separate liveness and readiness checks | Pin base images by digest | Cache dependencies on the
            lockfile hash | Keep migrations backwards compatible | Make rollbacks a single command | Alert on
            error rate per release | Tag images with the git sha
        """),
        follow=_items("""
            the check hits /internal/health which does a db query, so yeah | what base image would you use? |
            how do we do the expand/contract thing with an ORM? | rolled back. now what? | and secrets? we just
            paste them in the dashboard right now | {p} says the pipeline is fine, it's the tests
        """),
        code=(
            _code("""
                ```dockerfile
                FROM python:3.11-slim AS build
                COPY requirements.txt .
                RUN pip install --prefix=/install -r requirements.txt

                FROM python:3.11-slim
                COPY --from=build /install /usr/local
                COPY app/ /app
                CMD ["gunicorn", "app.main:app"]
                ```
            """),
            _code("""
                ```yaml
                readinessProbe:
                  httpGet:
                    path: /internal/ready
                    port: 8080
                  periodSeconds: 5
                livenessProbe:
                  httpGet:
                    path: /internal/live
                    port: 8080
                ```
            """),
        ),
        threads=_threads("0|0|1; 9|2|; 1|1|0; 2||; 4|3|; 3|4|; 5||; 6||; 7|2,3|1; 8||"),
    ),
    _Topic(
        "bugs", "software",
        open=_items("""
            getting `{err}` in {svc} when the payload is empty | there's a race condition somewhere in the {svc}
            worker, jobs run twice | memory usage of {svc} grows by {nnn} MB per hour, smells like a leak |
            timezone bug: invoices created after 11pm show up on the next day | the CSV import chokes on names
            with accents | {p} found that retries in {svc} aren't idempotent, we charged a test customer twice
            in staging | flaky test in {svc}: test_{fn} fails maybe 1 in {nn} runs | users see stale data for a
            few seconds after saving their profile | {fn} returns None sometimes and I can't reproduce it
            locally | stack trace from prod, can you make sense of it? `{err}` in {fn}
        """),
        short=_items("""
            That error means {fn} got a response without the field it expects. Guard it and log the payload. |
            Jobs running twice usually means the visibility timeout is shorter than the job's runtime. | Steady
            growth per hour points at a cache without a size limit or a list that is only ever appended to. |
            Store timestamps in UTC and convert to the customer's zone only for display. | Read the file as
            UTF-8 explicitly; the default encoding on the worker is probably ASCII. | Stale reads right after a
            write usually come from reading a replica. | Retries need an idempotency key, otherwise every retry
            is a new charge. | One in {nn} smells like ordering or time. Run it in a loop with the seed printed.
            | A None that comes and goes usually means a race or a query result without a fixed order.
        """),
        para=_items("""
            For the duplicate jobs: most queues give a worker a lease on a message for a fixed visibility
            timeout. If the job takes longer than that, the message becomes visible again and a second worker
            picks it up. Either extend the lease while working, or make the job idempotent with a unique key so
            the second run notices the first one already finished. | To find the leak, take two heap snapshots
            an hour apart and diff them by type. In Python, tracemalloc with 25 frames is good enough, and the
            top entry of the diff is usually the culprit: a module-level dict used as a cache, a list of
            callbacks that is never cleared, or a logging handler that keeps records. | Date bugs at 11pm are
            almost always a UTC conversion done in the wrong place. The invoice is created at 23:30 local time,
            stored as 05:30 UTC the next day, and then grouped by the UTC date. The fix is to group by the date
            in the customer's timezone, which means storing the timezone with the account and doing the
            conversion in one helper. | Flaky tests that fail one run in {nn} are usually about ordering or
            time. Run the test in a loop with a random seed printed, and check for shared state: a module-level
            fixture, a test that depends on dict order from a database query without ORDER BY, or a timestamp
            comparison that breaks when the clock ticks over a second. | Read-your-writes problems come from
            routing reads to a replica right after a write. Send the user's own reads to the primary for a few
            seconds after they write (a cookie with the write timestamp is enough), or read back from the
            primary in the same request that saved the data.
        """),
        items=_items("""
            Add the request id to every log line | Reproduce with the exact payload from the logs | Write the
            failing test before the fix | Check what changed in the last deploy | Look for shared mutable state
            | Bisect if the regression is recent | Add a metric so it can't come back silently
        """),
        follow=_items("""
            ok it's definitely the visibility timeout, it's 30s and the job takes 45 | where do I put
            tracemalloc? | the test passes alone but fails in the full run | found it, the cache never evicts |
            {p} says it only happens for {client} | can you write a regression test?
        """),
        code=(
            _code("""
                ```python
                import tracemalloc

                tracemalloc.start(25)
                before = tracemalloc.take_snapshot()
                # ... run for a while ...
                after = tracemalloc.take_snapshot()
                for stat in after.compare_to(before, "traceback")[:10]:
                    print(stat)
                ```
            """),
            _code("""
                ```python
                def {fn}(payload: dict) -> dict | None:
                    items = payload.get("items")
                    if not items:
                        log.warning("empty payload", extra={{"keys": list(payload)}})
                        return None
                    return summarize(items)
                ```
            """),
        ),
        threads=_threads("0||1; 1|0|; 2|1|0; 3|2|; 4||; 6|0|; 7|3|; 5|4|; 8|3|1; 0||1"),
    ),
    _Topic(
        "review", "software",
        open=_items("""
            can you review this PR? it's the refactor of {fn} in {svc} | {p} left {nn} comments on my pull
            request, half of them nitpicks. how do I handle that? | is this function too long? it's {nnn} lines
            | how do you write a good PR description? | should I split this PR? it touches {svc} and {svc2} |
            how do I review a PR in a codebase I don't know well? | I approved a PR that broke {svc}, feel bad
            about it | naming question: {fn} or something clearer?
        """),
        short=_items("""
            Split it: reviewers give better feedback on two focused PRs than on one sprawling one. | Answer the
            substantive comments, batch-accept the nitpicks, and suggest a linter rule for the rest. | Length
            alone isn't the problem; mixing levels of abstraction is. | A good description says why, what
            changed, how it was tested and what to look at first. | It happens to everyone. The fix is a test
            that would have caught it, not more guilt. | Happy to. Paste the diff and tell me which part you're
            least sure about. | If it needs a comment to explain what it does, the name could be clearer;
            describe the result, not the steps. | Start from the tests, then read the diff from the entry point
            inwards.
        """),
        para=_items("""
            When a review has lots of nitpicks, separate them from the comments about behaviour. Reply to the
            behavioural ones individually, since they deserve a discussion, and handle the style ones in one
            commit with a short note. If the same nitpick keeps coming up, propose a formatter or linter rule so
            nobody has to spend review time on it again. | For a long function, look for the seams: blocks
            introduced by a comment, loops that build a value used once, and nested conditionals that each
            handle one case. Each of those is a candidate for a helper with a name that says what it does. Aim
            for a top-level function that reads like a summary of the steps. | Reviewing code you don't know:
            start from the tests, since they show the intended behaviour, then read the diff from the entry
            point inwards. Ask questions rather than asserting, and say which comments are blocking. It's fine
            to approve with a note saying which parts you couldn't evaluate. | The most useful PR descriptions
            are short and structured: the motivation in two sentences, the approach, anything surprising, how
            you tested it, and where reviewers should focus. Screenshots for UI changes and a rollout plan for
            risky ones save a round trip.
        """),
        items=_items("""
            Keep PRs under a few hundred lines when possible | Mark blocking comments explicitly | Link the
            ticket | Describe how it was tested | Separate refactors from behaviour changes | Respond to every
            comment, even with a thumbs up
        """),
        follow=_items("""
            ok here's the diff for {fn} | {p} insists on the nitpicks though | how small is small enough? |
            would you rename {fn}? | should the refactor be its own PR then?
        """),
        threads=_threads("5||; 1|0|; 2|1|; 3|3|; 0||; 7|2|; 4||; 6||"),
    ),
    _Topic(
        "testing", "software",
        open=_items("""
            how do I mock the {lib} client in pytest without patching everything? | our test suite takes {nn}
            minutes, where do I start? | property-based tests for the {fn} parser, worth it? | what's a good
            coverage target? {p} wants 90% | how should I test retry logic when time is involved? | integration
            tests against a real Postgres or sqlite in CI? | snapshot tests for the API responses, yes or no?
        """),
        short=_items("""
            Wrap {lib} in a tiny adapter you own and fake the adapter; don't mock the library itself. | Profile
            first: pytest --durations=20 tells you where the minutes go. | Yes, parsers are the best case for
            property-based tests. | Coverage targets are a floor, not a goal. 80% with meaningful asserts beats
            95% without. | Inject the clock and the sleep function, then tests can run instantly. | Test against
            the real database you run in production; sqlite hides too many differences. | Snapshots are fine for
            catching accidental changes, but review the diffs or they become rubber stamps.
        """),
        para=_items("""
            Slow suites usually have a few heavy hitters. Run with --durations to find them, then check the
            usual suspects: fixtures that rebuild the database per test instead of per session, real network
            calls that time out, and sleeps in retry code. Parallelising with xdist helps once tests are
            isolated, but fix the isolation first or you'll trade slowness for flakiness. | Property-based
            testing shines for parsers: generate valid inputs, render them, parse them back and check you get
            the same value. The framework shrinks failures to a minimal example, which is often a surprising
            edge case like an empty string, a trailing newline or a number with a leading zero. | For retry
            logic, don't sleep in tests. Pass the clock and the sleep function in as parameters, use a fake that
            records requested sleeps, and assert on the sequence of delays. That tests the backoff policy
            exactly and keeps the test instant.
        """),
        items=_items("""
            Share one database per session and roll back per test | Fail tests on unexpected network calls |
            Print the random seed on failure | Keep unit tests under a second | Quarantine flaky tests with a
            ticket
        """),
        follow=_items("""
            what would the adapter look like for {lib}? | durations says the top 5 are all db fixtures | how do
            I generate valid inputs for {fn}? | {p} says mocks are fine actually
        """),
        code=(
            _code("""
                ```python
                @given(st.text())
                def test_roundtrip(value: str) -> None:
                    assert parse(render(value)) == value
                ```
            """),
            _code("""
                ```python
                def test_backoff() -> None:
                    sleeps: list[float] = []
                    call_with_retry(flaky, sleep=sleeps.append, attempts=4)
                    assert sleeps == [0.5, 1.0, 2.0]
                ```
            """),
        ),
        threads=_threads("0||; 1|0|; 2|1|0; 3||; 4|2|1; 5||; 6||"),
    ),
    _Topic(
        "perf", "software",
        open=_items("""
            p95 latency on {endpoint} went from {ms} ms to double that after the release | should we add a cache
            in front of {svc}? | the dashboard loads in {n} seconds, users complain | how do I profile a slow
            Python endpoint in production? | CPU on {svc} is pegged at 100% since {weekday} | is it worth moving
            {svc} to async?
        """),
        short=_items("""
            Compare the traces before and after the release; the new span will stand out. | Cache only after you
            know what's slow, otherwise you cache the wrong thing. | A sampling profiler like py-spy can attach
            to the running process without restarting it. | Async helps when you wait on I/O a lot; it won't
            help CPU-bound work. | If it's pegged since {weekday}, look at what shipped or what traffic changed
            that day. | Check the browser waterfall first; it's often many sequential requests, not one slow
            one.
        """),
        para=_items("""
            Latency regressions after a release are easiest to find by diffing traces: take the slowest requests
            from before and after, and compare span by span. Typical causes are a new query inside a loop, a
            serializer that now includes a relation, or a synchronous call to another service that used to be
            cached. | Before adding a cache, decide what staleness is acceptable and how invalidation works. A
            cache with a short TTL in front of read-heavy endpoints is simple and safe; a cache that must be
            invalidated on every write is a source of bugs. Measure the hit rate from day one, or you won't know
            if it helps. | For a slow dashboard, check the waterfall in the browser first. Often it's not one
            slow request but twenty sequential ones, each waiting for the previous. Batching them into one
            endpoint, or at least firing them in parallel, can take a {n}-second load down to under one.
        """),
        items=_items("""
            Measure p50, p95 and p99 separately | Profile in production with sampling | Look for N+1 queries |
            Batch sequential requests | Set budgets per endpoint and alert on them
        """),
        follow=_items("""
            ok py-spy shows most time in json encoding | the waterfall is literally 20 requests in a row | what
            TTL would you use? | {p} wants to rewrite it in Go lol
        """),
        threads=_threads("0|0|; 1|1|; 5|2|; 2||; 4,2||; 3||"),
    ),
    _Topic(
        "frontend", "software",
        open=_items("""
            the settings page re-renders on every keystroke | dark mode for {proj}: css variables or a theme
            provider? | how do I make this table accessible for screen readers? | bundle size jumped by {nnn}kb
            after adding the date picker | form validation: on blur or on submit? | {p} wants infinite scroll on
            the activity feed, is that a good idea?
        """),
        short=_items("""
            Lift the input state down into the field component, or debounce the update to the parent. | CSS
            variables; a provider is only needed if components compute colours in JavaScript. | Use a real table
            element with th scope attributes and a caption. | Check the bundle analyzer; date pickers often pull
            in every locale. | Validate on blur, re-validate on change once a field has an error, and always on
            submit. | For a feed people browse, maybe; for lists people search, a 'load more' button is better.
        """),
        para=_items("""
            Re-rendering on every keystroke isn't a problem by itself; it becomes one when the whole page
            re-renders because the form state lives at the top. Keep field state local, memoize the expensive
            children, and only lift values up on submit or blur. The profiler in the dev tools shows which
            components render and why. | Accessible tables mostly need correct markup: a caption that says what
            the table is, header cells with scope, and no layout tricks that break the reading order. If rows
            are clickable, make the action a real button or link inside the row instead of a click handler on
            the row itself. | Infinite scroll is great for feeds people browse and bad for lists people search.
            It breaks the back button, makes the footer unreachable, and is hard to use with a keyboard. A 'load
            more' button keeps most of the benefit without those problems.
        """),
        items=_items("""
            Check colour contrast in both themes | Label every input | Test with the keyboard only | Lazy-load
            heavy widgets | Keep form state close to the fields
        """),
        follow=_items("""
            the analyzer shows 40 locales, wow | how do I only import the locales we need? | {p} says nobody
            uses screen readers on an admin tool | load more it is
        """),
        threads=_threads("0|0|; 1||; 2|1|; 3||; 4||; 5|2|"),
    ),
    _Topic(
        "sprint", "work",
        open=_items("""
            help me plan the next sprint, we have {n} engineers and a lot of carry-over | {p} wants to squeeze
            {svc} work into this sprint, how do I say no politely? | how should I estimate the {proj} onboarding
            revamp? | retro notes: deploys were painful, reviews were slow, morale is ok. can you turn that into
            actions? | what should the sprint goal be if half the team is out? | our velocity is all over the
            place | how do I handle tickets that keep rolling over?
        """),
        short=_items("""
            Start with the carry-over: either finish it first or explicitly drop it, don't just move it again. |
            Say yes to the goal and no to the timing: offer a concrete slot in the next sprint. | Estimate in
            ranges and name the biggest unknowns explicitly. | With half the team out, pick one goal that a
            small group can finish, and protect it. | Track how much of each sprint is unplanned work; that
            usually explains the swings. | Pick the smallest actions that fix the worst pain, and give each one
            an owner. | Split them or drop them; a ticket that rolls over twice is telling you something.
        """),
        para=_items("""
            For planning with carry-over, first ask why things rolled over: too big, blocked, or deprioritised
            mid-sprint. Split the big ones, escalate the blocked ones, and drop the deprioritised ones from the
            sprint entirely. Then fill the remaining capacity at about 70%, because interruptions are
            guaranteed. | Retro actions work when they are small and owned. From those notes I'd pick: one
            person to document the deploy steps and automate the worst one, a review rotation so every PR has a
            named reviewer within a day, and a check-in next retro on whether both happened. | Velocity swings
            usually come from inconsistent ticket sizes or unplanned work. Track how much of each sprint was
            unplanned; if it's 30% every time, plan for 70% and stop feeling behind.
        """),
        items=_items("""
            One sprint goal in one sentence | Capacity at about 70% | Named owner for every ticket | Split
            anything bigger than three days | Leave room for on-call and support
        """),
        follow=_items("""
            ok the carry-over is mostly the {svc} migration | {p} will be upset but fine | can you draft the
            sprint goal? | how do I track unplanned work without a new process?
        """),
        threads=_threads("0|0|; 1||; 2||; 5|1|; 3||; 4|2|; 6|0|"),
    ),
    _Topic(
        "meetings", "work",
        open=_items("""
            can you draft an agenda for my 1:1 with {p}? | I have {n} meetings back to back tomorrow, help me
            prep | summarize these notes from the {client} call: they want exports, SSO and faster support | how
            do I run a decent incident review without blame? | the weekly sync is a waste of time, how do I fix
            it? | {p} keeps interrupting in meetings, how do I handle it?
        """),
        short=_items("""
            For the 1:1: how they're doing, what's blocking them, feedback both ways, and one growth topic. |
            Write down the one decision you need from each meeting and skip the ones that don't need you. |
            Focus the incident review on how the system allowed the mistake, not on who made it. | Turn the
            weekly sync into a written update plus 15 minutes for questions. | Here's the gist: exports first,
            SSO needs scoping, and support wants faster first responses. | Talk to them one on one first; most
            people don't notice they do it.
        """),
        para=_items("""
            The {client} call boils down to three asks: a self-serve export of their data, single sign-on for
            their staff, and quicker first responses from support. The export is the cheapest to deliver and
            unblocks their reporting; SSO is bigger and worth scoping with {p}; for support, a shared channel
            with a response-time target might be enough for now. | A blameless incident review has a timeline,
            the contributing factors, what went well, and a short list of actions with owners. Ask 'what made
            this seem like the right thing to do at the time?' rather than 'why did you do that?' and you'll
            hear about the missing guardrails. | Recurring meetings decay. Every quarter, ask what the meeting
            is for and whether it still does that. If it's status, replace it with a written update. If it's
            decisions, keep it but send the options beforehand.
        """),
        items=_items("""
            Send the agenda a day before | End with owners and dates | Write decisions down in the ticket |
            Cancel when there's nothing to decide | Rotate the note-taker
        """),
        follow=_items("""
            {p} might be looking for a promotion, how do I bring that up? | ok cancel two of them then | can you
            turn that into a short email to {client}? | what if the incident was my fault?
        """),
        threads=_threads("0||; 1||; 4|0|; 2|1|; 3|2|; 5||"),
    ),
    _Topic(
        "hiring", "work",
        open=_items("""
            can you help me write interview questions for a backend role? | {p} did great in the take-home but
            struggled in the system design round | draft a job post for a senior frontend engineer | how do I
            give feedback to a candidate we're rejecting? | how many interview rounds is too many? | we got
            {nnn} applications for one role, how do I screen fast?
        """),
        short=_items("""
            Ask about trade-offs they've actually made; hypotheticals reward confident talkers. | One weak round
            after a strong take-home is worth a follow-up conversation, not an automatic no. | Four rounds
            including the screen is plenty for most roles. | Be specific and kind, and keep it to one or two
            points they can act on. | Screen on the two or three must-haves only, and use a short written
            question instead of a call. | Sure: lead with what they'll do in the first six months, then a short
            list of real requirements.
        """),
        para=_items("""
            For a backend interview, I like a debugging exercise over a whiteboard puzzle: give them a small
            service with a realistic bug and a failing test, and watch how they investigate. Follow up with a
            design discussion about something they built, and dig into what they'd do differently. | A good job
            post leads with what the person will actually do in their first six months, lists a short set of
            real requirements (not a wish list), and is honest about the team and the stack. Salary ranges in
            the post save everyone time.
        """),
        items=_items("""
            Use the same questions for every candidate | Write feedback before discussing | Have a clear bar for
            each round | Tell candidates the process upfront
        """),
        follow=_items("""
            what would the bug in the exercise be? | the take-home was really good though | ok draft the
            rejection email for me | {p} wants a fifth round with the CTO
        """),
        threads=_threads("0|0|; 1||; 5|1|; 3||; 2||; 4||"),
    ),
    _Topic(
        "roadmap", "work",
        open=_items("""
            {client} wants a custom report by end of month, is that realistic? | help me prioritize: SSO, audit
            logs, bulk import, or the mobile app | draft a quarterly update for leadership about {proj} | how do
            I say no to a big customer's feature request? | what should go on the {proj} roadmap for {month}? |
            {p} thinks we should rebuild {svc} from scratch
        """),
        short=_items("""
            Only if it's built from existing data; anything new in the pipeline will take longer. | Rank by
            revenue at risk and effort: audit logs and SSO usually unblock deals. | Lead with outcomes, then
            what slipped and why, then the next quarter's bets. | Say what you will do instead, and when you'll
            revisit. | Rewrites from scratch almost always take three times longer than planned. | For {month}
            I'd keep it to one big bet, one customer commitment and some maintenance.
        """),
        para=_items("""
            When prioritising enterprise features, look at the deals they block. SSO and audit logs tend to be
            checkboxes in security reviews, so missing them stops deals outright. Bulk import makes onboarding
            faster but rarely blocks a signature. The mobile app is a big investment that deserves its own
            business case. | A quarterly update for leadership should fit on one page: the two or three outcomes
            you achieved with numbers, what slipped and the reason in one line each, the risks you see, and what
            you're betting on next quarter. Leadership reads the first paragraph; make it count.
        """),
        items=_items("""
            Tie every item to a customer problem | Mark what's committed versus exploratory | Review the roadmap
            monthly | Show what you're not doing
        """),
        follow=_items("""
            {client} is our biggest account though | ok SSO first then | can you make the update shorter? | {p}
            will push back on that
        """),
        threads=_threads("0||; 1|0|; 2|1|; 3||; 5||; 4||"),
    ),
    _Topic(
        "writing", "work",
        open=_items("""
            can you make this email to {client} sound less defensive? | proofread my status update: we shipped
            the export fix, the migration is delayed, hiring is on track | help me write a short note to {p}
            thanking them for covering on-call | I need to announce a deprecation of the v1 API, draft
            something? | how do I write a design doc people will actually read?
        """),
        short=_items("""
            Drop the justifications and lead with what you'll do next; that reads as confident rather than
            defensive. | Looks good. I'd lead with the delay, since that's what people need to act on. | Here's
            a short one: thanks for jumping in on on-call last week, it made a real difference. | Put the
            decision and the open questions in the first page of the doc. | Sure, here's a draft: what's going
            away and when, what to use instead, and where to get help.
        """),
        para=_items("""
            For the deprecation notice: say what is going away and when, why (in one sentence), what to use
            instead with a link to a migration guide, and how to get help. Send it early, repeat it closer to
            the date, and include the list of affected endpoints so people can search their code. | Design docs
            get read when the first page answers: what problem, what we propose, what we considered and
            rejected, and what we need from the reader. Everything else goes in later sections for the people
            who care about details.
        """),
        items=_items("""
            Lead with the ask | One idea per paragraph | Cut the first sentence, it's usually throat-clearing |
            Use the reader's words, not internal jargon
        """),
        follow=_items("""
            shorter please | can it be a bit warmer? | ok and the subject line? | {p} will read this, keep it
            neutral
        """),
        threads=_threads("0||; 1||; 2||; 4|0|; 3|1|"),
    ),
    _Topic(
        "travel", "personal",
        open=_items("""
            planning a long weekend in {city}, what should I not miss? | is {n} days enough for {city} and
            {city2}? | what's the best way to get from the airport to the center in {city}? | packing list for a
            week of hiking? | train or fly from {city} to {city2}? | I need a small gift for my {rel}, we're
            visiting them in {city} | any tips for jet lag? flying to {city} next month | what's a good day trip
            from {city}?
        """),
        short=_items("""
            Three days is enough for the highlights of {city}; add a day if you want a slower pace. | If the
            train is under five hours, it's usually faster door to door than flying. | The airport train is
            usually the quickest and cheapest option; taxis get stuck in traffic. | Shift your sleep by an hour
            a day before you leave and get daylight when you arrive. | Something local and consumable travels
            well: good coffee, chocolate or a nice tea. | Pick a town an hour or so away by train; it's a nice
            change of pace from the city. | Layers, good boots, a rain shell and blister plasters; then remove a
            third of what you packed.
        """),
        para=_items("""
            For a long weekend in {city}, I'd split it into neighbourhoods rather than sights: one morning in
            the old centre before the crowds, an afternoon somewhere residential with markets and cafes, and one
            evening at a viewpoint at sunset. Book anything with timed entry ahead, and leave one half-day
            unplanned. | A week of hiking packing list: layers rather than one heavy jacket, broken-in boots,
            two pairs of merino socks per three days, a rain shell, a small first-aid kit with blister plasters,
            a headlamp, and a refillable bottle. Pack it all once at home and remove a third. | Between {city}
            and {city2}, compare the total door-to-door time: getting to the airport, security, the flight, and
            getting into town again. Trains win more often than people expect, and you can work on them.
        """),
        items=_items("""
            Download offline maps | Book timed-entry sights ahead | Carry a small amount of cash | Check public
            holidays for closures | Get travel insurance | Keep a copy of your passport
        """),
        follow=_items("""
            we're more into food than museums | the train is 6 hours though | what about with a kid? | my {rel}
            hates flying anyway | ok adding the viewpoint
        """),
        threads=_threads("0|0|; 0|2|; 2||; 6|1|; 1|2|; 4||; 3||; 5||"),
    ),
    _Topic(
        "cooking", "personal",
        open=_items("""
            what can I make with chickpeas, spinach and a sad lemon? | my {dish} came out bland, what did I do
            wrong? | how long do I rest a steak? | meal prep ideas for a busy week? | how do I keep my sourdough
            starter alive while I travel? | recipe for {dish} for {n} people? | can I freeze {dish}? | what's a
            quick dinner that isn't pasta again
        """),
        short=_items("""
            Chickpea and spinach stew with garlic, cumin and lemon zest at the end. 25 minutes. | Usually it's
            salt and acid: season in layers and finish with lemon or vinegar. | About half the cooking time,
            loosely covered. | Feed it, let it rise for an hour, then put it in the fridge; it'll be fine for
            two weeks. | Yes, most stews freeze well for about three months. | Something like a frittata or
            fried rice: ten minutes and whatever's in the fridge. | Cook components, not meals: a grain, a tray
            of veg, a protein and two sauces. | Sure: scale the main ingredients, but add salt and spices
            gradually and taste.
        """),
        para=_items("""
            Blandness is rarely about missing spices. Salt at each stage (onions, then the sauce, then the
            finished dish), and brighten it at the end with acid: lemon juice, vinegar or a spoon of yoghurt.
            Browning the aromatics properly before adding liquid also makes a big difference to {dish}. | For
            meal prep, cook components rather than full meals: a tray of roasted vegetables, a pot of grains, a
            protein, and two sauces. Mixing them differently each day stops it from feeling like the same lunch
            five times. | To scale {dish} for {n} people, multiply the main ingredients but not the salt and
            spices linearly; add about three quarters of the scaled amount and adjust at the end. Use a wider
            pan rather than a deeper one so things brown instead of steaming.
        """),
        items=_items("""
            Season in layers | Finish with acid | Use a wide pan | Rest meat before cutting | Toast spices in
            oil | Taste before serving
        """),
        follow=_items("""
            no yoghurt, is vinegar ok? | the kids won't eat anything spicy | ok the stew was great actually | my
            {rel} makes it with way more garlic | how long does it keep in the fridge?
        """),
        threads=_threads("0||; 1|0|; 2||; 6|1|; 3||; 7|2|; 4||; 5||"),
    ),
    _Topic(
        "fitness", "personal",
        open=_items("""
            I ran {n}k this morning, knees are a bit sore | what's a good beginner strength routine, 3 days a
            week? | how do I build up to a half marathon without getting injured? | is it bad to run on
            consecutive days? | how do I stay motivated to work out in winter? | should I stretch before or
            after running?
        """),
        short=_items("""
            Mild soreness is normal; sharp pain or swelling isn't. Take an easy day and see how it feels. |
            Squat, hinge, push, pull and carry, three sets each, three days a week. Keep it simple. | Increase
            weekly distance by about 10% and make every fourth week easier. | Consecutive days are fine if most
            runs are easy. | Dynamic mobility before, static stretching after, if at all. | Keep it easy and
            short, go in daylight, and plan it with someone so you can't skip it.
        """),
        para=_items("""
            For a first half marathon, give yourself twelve to sixteen weeks. Most runs should be easy enough to
            hold a conversation; one session a week can be faster. The long run grows gradually to around 18 km,
            and two weeks before race day you cut volume so your legs are fresh. | A beginner strength routine
            doesn't need variety. Pick one exercise per movement pattern, do three sets of eight to twelve reps,
            and add a little weight when the last set feels easy. Consistency over a few months beats any clever
            program.
        """),
        items=_items("""
            Mostly easy runs | One long run per week | Sleep counts as training | Deload every fourth week |
            Replace shoes every 600-800 km
        """),
        follow=_items("""
            ok easy day today then | what counts as easy pace? | my knee is fine now | {p} wants to run with me
            on {weekday}s
        """),
        threads=_threads("0||; 1|1|; 2|0|; 3||; 5||; 4||"),
    ),
    _Topic(
        "health", "personal",
        open=_items("""
            I keep waking up at 4am, any tips? | how much water should I actually drink? | I've had a headache
            for two days, probably screen time | what stretches help with a stiff neck from sitting? | how do I
            cut down on sugar without going crazy? | trying to get more sleep, what actually works?
        """),
        short=_items("""
            Keep the room cool and dark, and avoid checking the time when you wake up. | Drink when you're
            thirsty and a bit more when it's hot or you exercise. | If it lasts more than a few days or gets
            worse, see a doctor. | Chin tucks and gentle side bends, a few times a day. | A consistent wake-up
            time matters more than the bedtime. | Cut the sugar you don't notice first, like in drinks, and keep
            the treats you love.
        """),
        para=_items("""
            Early waking is often a mix of stress and light. Blackout curtains help, so does a fixed wake-up
            time even on weekends. If you do wake at 4am, don't look at your phone; get up for ten minutes if
            you can't fall back asleep, and avoid caffeine after lunch. | For screen-related headaches, check
            the basics: screen brightness close to the room's, the monitor at arm's length with the top at eye
            level, and a break every hour. If headaches persist for days, it's worth a check-up rather than
            guessing.
        """),
        items=_items("""
            Same wake-up time every day | Daylight in the morning | No caffeine after lunch | Screen breaks
            every hour | Walk after meals
        """),
        follow=_items("""
            ok trying the curtains | it's better today | what if I'm still tired? | my {rel} says magnesium
            helps?
        """),
        threads=_threads("0|0|; 1||; 2|1|; 3||; 5||; 4|0|"),
    ),
    _Topic(
        "family", "personal",
        open=_items("""
            {kid} has a school project about volcanoes, any simple experiment ideas? | my {rel} is turning 60,
            gift ideas? | how do I get {kid} to sleep before 9? | planning a birthday party for {kid}, {nn}
            kids, help | my {rel} {p} is visiting next week, what should we do in town? | {kid} doesn't want to
            do homework anymore | we're arguing about screen time for {kid}, what's reasonable?
        """),
        short=_items("""
            The baking soda and vinegar volcano is a classic for a reason; add dish soap for more foam. |
            Something experiential: a class, a trip, or a dinner somewhere special. | A wind-down routine at the
            same time every night, with no screens in the last hour. | Two hours, one activity, food, cake.
            Anything more is for you, not them. | Agree on rules together and write them down; it's the arguing
            that hurts, not the minutes. | Ask {p} what they'd like to see; a market, a walk and a good dinner
            are hard to beat. | Set a fixed time and place, and make the first step tiny.
        """),
        para=_items("""
            For a kids' party with {nn} guests, structure beats entertainment: arrival activity (colouring or a
            craft table), one main game, food, cake, and a calm activity before pickup. Two adults per ten kids,
            and keep the food simple. | Homework resistance is often about starting. Set a fixed time and place,
            break the task into a first step that takes two minutes, and sit nearby without doing it for them.
            Praise the effort, not the result.
        """),
        items=_items("""
            Same bedtime routine every night | Name the next step, not the whole task | Keep parties short | Ask
            teachers what's expected | Plan one thing the visitor will love
        """),
        follow=_items("""
            {kid} wants a dinosaur theme now | ok 2 hours it is | {p} loves markets, any good ones? | the
            volcano worked, kitchen is a mess
        """),
        threads=_threads("0||; 1||; 2||; 3|0|; 5||; 6|1|; 4||"),
    ),
    _Topic(
        "hobbies", "personal",
        open=_items("""
            I'm learning guitar, barre chords are killing me | best settings for night photography with a kit
            lens? | my tomato plants have yellow leaves | recommend a chess opening for beginners? | thinking of
            getting into bouldering, what shoes? | what should our book club read next? | how do I get better at
            sketching faces? | my bread keeps coming out dense
        """),
        short=_items("""
            Practise the F shape higher up the neck first, where it's easier, and move down over weeks. |
            Tripod, manual focus, ISO 800-1600, and exposures of 10-20 seconds. | Lower leaves yellowing is
            usually watering or nitrogen; check the soil first. | The Italian game: simple ideas, quick
            development, and lots of instructive positions. | Comfortable, flat rental shoes for the first
            month, then a beginner pair a half size down. | Depends on the group, but something short and easy
            to discuss works best for a book club. | Start with proportions: eyes halfway down the head, and
            lots of quick five-minute sketches. | Dense bread usually means underproofing; give the bulk ferment
            more time.
        """),
        para=_items("""
            Barre chords are mostly about thumb position and arm weight, not squeezing harder. Put the thumb
            behind the neck opposite the index finger and let the weight of your arm pull back. Practise the
            shape at the seventh fret, strum each string to find the dead one, and do it for five minutes a day.
            | For night photography with a kit lens: put the camera on a tripod, switch to manual, open the
            aperture all the way, focus manually on a distant light using live view zoom, and start around ISO
            1600 for 15 seconds. Adjust from there and use the timer so pressing the button doesn't shake the
            camera. | Dense bread usually means underproofing or not enough gluten development. Do a poke test:
            the dough should spring back slowly and leave a slight dent. Longer bulk fermentation at a warm room
            temperature helps more than more kneading.
        """),
        items=_items("""
            Five minutes a day beats an hour on weekends | Record yourself and listen back | Join a local group
            | Keep a practice log | Learn one thing at a time
        """),
        follow=_items("""
            ok the thumb thing helped | what about the moon? too bright? | {p} wants to join the book club |
            still dense, proofed for 4 hours | the leaves are only on the bottom
        """),
        threads=_threads("0|0|; 1|1|; 2||; 3||; 4||; 5||; 6||; 7|2|"),
    ),
    _Topic(
        "home", "personal",
        open=_items("""
            how do I fix a dripping tap? | should I pay off the car loan early or invest? | help me set up a
            monthly budget | the heating is making a weird noise | how do I get rid of mould in the bathroom? |
            thinking of repainting the living room, what colour goes with oak floors?
        """),
        short=_items("""
            Usually a worn washer or cartridge; turn off the water under the sink first. | If the loan rate is
            above what you'd reasonably earn, pay it off. | Start with three buckets: fixed costs, savings, and
            everything else. | Banging or gurgling usually means air in the system; bleed the radiators. | Clean
            it, then fix the cause: ventilation and a dehumidifier. | Warm whites or soft greys both work with
            oak; try samples in daylight and in the evening.
        """),
        para=_items("""
            A simple budget: list fixed costs (rent, utilities, insurance, loans), set a savings amount that
            leaves the month on day one, and give everything else a weekly limit. Review it after a month, since
            the first version is always wrong. | Mould in bathrooms comes back unless you deal with the
            moisture. Run the extractor fan during and for 20 minutes after showers, leave the door open, and
            wipe down the tiles. Clean existing patches with a mould spray and let it dry fully before
            repainting with an anti-mould paint.
        """),
        items=_items("""
            Bleed radiators before winter | Keep an emergency fund | Review subscriptions every quarter |
            Ventilate after showers | Label the fuse box
        """),
        follow=_items("""
            ok it was the washer | the fan is broken, of course | ok three buckets, that I can do | my {rel}
            says grey, I say white
        """),
        threads=_threads("0||; 1||; 2|0|; 3||; 4|1|; 5||"),
    ),
)
# fmt: on


FOLLOW_REPLY = _items("""
    Yes, exactly. | Yes, same approach there. | Good question. Start with the simplest version and measure. | It
    could be. The timing lines up, so it's worth checking. | Sure, that's a reasonable call. | Fair point. I'd
    still try the simple fix first, it's cheap to undo. | Probably, but confirm with a quick test before relying
    on it. | That works too, as long as it's consistent. | Hard to say without seeing it; paste it and I'll take
    a look. | Ha, fair. Let's keep it pragmatic. | Yes, and write it down somewhere the team will find it. | Not
    necessarily; it depends on how often it changes. | I'd say yes, with one caveat: keep an eye on it for a
    week. | Totally reasonable. Go for it.
""")
RELATED_INTRO = _items("""
    Related: | One more thing worth checking: | While we're on it: | Also worth knowing: | A second point:
""")

TOPICS_BY_DOMAIN: dict[str, tuple[_Topic, ...]] = {
    d: tuple(t for t in TOPICS if t.domain == d) for d in ("software", "work", "personal")
}


# ---------------------------------------------------------------- planted content
# Every template bank below is split by index parity between dev (even) and test (odd); splits "fresh" and
# "dev3" take test's half, split "dev2" dev's, but the fact-bearing banks of the fact and distractor specs from
# REPLACED_BANKS (corpus_fresh.FRESH, corpus_dev2.DEV2, corpus_dev3.DEV3) instead.
# Slots: "name": "pool" draws from an entity pool (with replacement), "name": "@pool" draws a
# planted-only value without replacement (each value is used once per corpus); "a+b" unpacks a pair.


@dataclass(frozen=True)
class _Spec:
    key: str
    kind: str  # single | paraphrase | temporal | multi | list | change | stable | distractor
    domain: str  # the kind of session it is planted in
    slots: tuple[tuple[str, str], ...] = ()
    state: tuple[str, ...] = ()  # statements (change: the first value's statements)
    ask: tuple[str, ...] = ()  # question wordings
    answer: str = ""
    keys: tuple[str, ...] = ()  # terms the evidence must contain (templates)
    unique: tuple[str, ...] = ()  # slots that identify the subject (no two instances share them)
    ns: str = ""  # uniqueness namespace shared by specs about the same subject
    speaker: str = "user"
    lead: tuple[str, ...] = ()  # user prompts before an assistant statement
    hops: tuple[tuple[str, ...], ...] = ()
    change: tuple[str, ...] = ()
    again: tuple[str, ...] = ()  # corroborations on later days
    decoy: tuple[str, ...] = ()  # paraphrase: the question's words in another sense, about the same entity
    values: tuple[str, ...] = ()  # candidate values of slot "v" (facts)
    category: str = ""  # fact category, or distractor kind
    subject: str = ""


# fmt: off
SINGLE_SPECS: tuple[_Spec, ...] = (
    _Spec(
        "pet", "single", "personal", (("p", "people"), ("pet", "pet_kinds"), ("name", "@pet_names")),
        state=_items("""
            {p} just adopted a {pet} and named it {name}, cutest thing ever | {p} came over with the new {pet}.
            {name} is its name and it already chewed my charger | guess what, {p} finally got a {pet}! it's
            called {name} | met {p}'s new {pet} today, {name}, very shy
        """),
        ask=_items("""
            What is the name of {p}'s {pet}? | What did {p} call the {pet} they adopted? | What's {p}'s {pet}
            named? | How is the {pet} that belongs to {p} called?
        """),
        answer="{name}", keys=("{p}", "{name}"), unique=("p",),
    ),
    _Spec(
        "hotel", "single", "personal", (("city", "cities"), ("hotel", "@hotels"), ("trip", "trip_kinds")),
        state=_items("""
            booked {hotel} in {city} for the {trip}, it's close to the old town | for the {trip} in {city} we're
            staying at {hotel}, non-refundable so no backing out | ok accommodation sorted: {hotel}, {city},
            three nights for the {trip} | we'll be at {hotel} while in {city} for the {trip}
        """),
        ask=_items("""
            Which hotel did the user book in {city}? | Where is the user staying during the trip to {city}? |
            What's the name of the user's accommodation in {city}? | At which hotel will the user sleep in
            {city}?
        """),
        answer="{hotel}", keys=("{city}", "{hotel}"), unique=("city",),
    ),
    _Spec(
        "flight", "single", "personal", (("city", "cities"), ("flight", "@flight"), ("t", "times")),
        state=_items("""
            flight to {city} is {flight}, leaves at {t} | just got the booking confirmation: {flight} to {city},
            departing {t} | I'm on {flight} to {city}, it departs {t} so an early start | noting it here: the
            {city} flight is {flight} at {t}
        """),
        ask=_items("""
            What flight number is the user taking to {city}? | Which flight does the user take to {city}? |
            What's the user's flight code for the {city} trip? | Which flight will get the user to {city}?
        """),
        answer="{flight}", keys=("{city}", "{flight}"), unique=("city",),
    ),
    _Spec(
        "ticket", "single", "software", (("svc", "services"), ("sym", "@symptoms"), ("ticket", "@ticket")),
        state=_items("""
            filed {ticket} for the {sym} in {svc} | the {sym} in {svc} is tracked as {ticket} now | I opened
            {ticket} about {svc}: {sym} | {ticket} is the ticket for the {sym} we saw in {svc}
        """),
        ask=_items("""
            Which ticket tracks the {sym} in {svc}? | What is the issue number for the {svc} {sym}? | Under
            which ticket was the {svc} {sym} reported? | What ticket did the user open for {sym} in {svc}?
        """),
        answer="{ticket}", keys=("{ticket}", "{svc}"),
    ),
    _Spec(
        "port", "single", "software", (("svc", "services"), ("port", "@port")),
        state=_items("""
            {svc} listens on port {port} in staging, not the default | fyi staging {svc} runs on port {port} |
            remember {svc} is on {port} in staging | the staging port for {svc} is {port}, I always forget
        """),
        ask=_items("""
            Which port does {svc} use in staging? | On what port is the staging {svc} reachable? | What port
            number does staging {svc} listen on? | In the staging environment, where does {svc} listen?
        """),
        answer="{port}", keys=("{svc}", "{port}"), unique=("svc",),
    ),
    _Spec(
        "book", "single", "personal", (("p", "people"), ("book", "@books")),
        state=_items("""
            {p} recommended {book}, said it changed how they think about work | {p} lent me {book}, apparently a
            must-read | adding {book} to my list, {p} won't stop talking about it | {p} swears by {book}, I'll
            start it this weekend
        """),
        ask=_items("""
            Which book did {p} recommend to the user? | What book is {p} enthusiastic about? | What title did
            {p} suggest the user read? | Which book did the user hear about from {p}?
        """),
        answer="{book}", keys=("{p}", "{book}"), unique=("p",),
    ),
    _Spec(
        "gift", "single", "personal", (("p", "people"), ("rel", "rels"), ("gift", "@gifts")),
        state=_items("""
            got my {rel} {p} {gift} for their birthday | birthday present for {p} sorted: {gift} | ordered
            {gift} for {p}'s birthday, hope it arrives in time | I think {gift} is the one for {p}'s birthday.
            bought it
        """),
        ask=_items("""
            What birthday present did the user buy for {p}? | What is the user giving {p} for their birthday? |
            What gift did the user get {p}? | Which present did the user pick for {p}'s birthday?
        """),
        answer="{gift}", keys=("{p}", "{gift}"), unique=("p",), ns="p-gift",
    ),
    _Spec(
        "teacher", "single", "personal",
        (("kid", "kids"), ("subj", "school_subjects"), ("title", "titles"), ("teacher", "@surnames")),
        state=_items("""
            {kid}'s new {subj} teacher is {title} {teacher}, seems strict but nice | met {title} {teacher} at
            pickup, they'll be teaching {kid} {subj} this term | {kid} has {title} {teacher} for {subj} now |
            parents' evening: {title} {teacher} teaches {kid} {subj} and says it's going well
        """),
        ask=_items("""
            Who teaches {kid} {subj}? | What is the name of {kid}'s {subj} teacher? | Which teacher does {kid}
            have for {subj}? | Who is in charge of {kid}'s {subj} class?
        """),
        answer="{title} {teacher}", keys=("{kid}", "{teacher}"), unique=("kid", "subj"),
    ),
    _Spec(
        "race_time", "single", "personal", (("race", "@races"), ("rt", "@run_time")),
        state=_items("""
            finished {race} in {rt}! legs are dead | official result from {race}: {rt} | {race} done, {rt} on my
            watch, new PB | my time at {race} was {rt}, not bad for the hills
        """),
        ask=_items("""
            What was the user's finishing time at {race}? | How long did it take the user to complete {race}? |
            What time did the user clock in {race}? | What result did the user get in {race}?
        """),
        answer="{rt}", keys=("{race}", "{rt}"),
    ),
    _Spec(
        "watering", "single", "personal", (("plant", "@plants"), ("every", "intervals")),
        state=_items("""
            the nursery said the {plant} only needs water every {every} | note to self: the {plant} gets watered
            every {every}, no more | apparently I was drowning the {plant}, every {every} is enough | {plant}:
            water every {every}, keep out of direct sun
        """),
        ask=_items("""
            How often should the user water the {plant}? | What's the watering schedule for the {plant}? | How
            frequently does the {plant} need water? | What is the right watering interval for the {plant}?
        """),
        answer="every {every}", keys=("{plant}", "{every}"),
    ),
    _Spec(
        "flag", "single", "software", (("feat+flag", "@feature_flags"),),
        state=_items("""
            the flag for {feat} is `{flag}`, default off | {feat} sits behind `{flag}` until QA signs off | if
            you need to toggle {feat}, it's `{flag}` | we gated {feat} with `{flag}`
        """),
        ask=_items("""
            What is the name of the flag that toggles {feat}? | Which feature flag controls {feat}? | What flag
            gates {feat}? | Which switch turns {feat} on or off?
        """),
        answer="{flag}", keys=("{flag}",),
    ),
    _Spec(
        "restaurant", "single", "personal", (("city", "cities"), ("rest", "@restaurants"), ("dish", "dishes")),
        state=_items("""
            dinner at {rest} in {city} last night, the {dish} was unreal | we ended up at {rest} in {city}. go
            for the {dish} | {rest} in {city}: best {dish} I've had in years | tried {rest} while in {city},
            highly recommend the {dish}
        """),
        ask=_items("""
            Which restaurant in {city} did the user rave about? | Where did the user have a great meal in
            {city}? | What's the name of the place the user ate at in {city}? | Which {city} restaurant did the
            user recommend?
        """),
        answer="{rest}", keys=("{city}", "{rest}"), unique=("city",), ns="city-restaurant",
    ),
    _Spec(
        "room", "single", "work", (("client", "clients"), ("room", "@rooms")),
        state=_items("""
            the {client} QBR is in {room} | booked {room} for the {client} quarterly review |
            {client} QBR: we're in {room} this time | heads up, the {client} quarterly review moved to {room}
        """),
        ask=_items("""
            Where is the quarterly review with {client} held? | Which room is the {client} QBR in? | In what
            meeting room will the user meet {client} for the quarterly review? | Which meeting space will host
            the {client} review?
        """),
        answer="{room}", keys=("{client}", "{room}"), unique=("client",),
    ),
    _Spec(
        "best_friend", "single", "personal", (("kid", "kids"), ("friend", "kids")),
        state=_items("""
            {kid}'s best friend is {friend} now, they're inseparable | {kid} and {friend} are best friends,
            apparently official since today | {friend} is {kid}'s best friend, they had a sleepover | {kid} says
            {friend} is the best friend ever
        """),
        ask=_items("""
            Who is {kid}'s best friend? | Which child is {kid} closest to? | Who does {kid} call their best
            friend? | What's the name of {kid}'s best friend?
        """),
        answer="{friend}", keys=("{kid}", "{friend}"), unique=("kid",),
    ),
    _Spec(
        "talk", "single", "work", (("p", "people"), ("talk", "@talks"), ("city", "cities")),
        state=_items("""
            {p}'s conference talk in {city} is about {talk} | {p} got accepted to speak in {city}, topic: {talk}
            | {p} is presenting on {talk} at the {city} conference | the talk {p} is giving in {city}: {talk}
        """),
        ask=_items("""
            What topic is {p} presenting on? | What is {p}'s conference talk about? | What will {p} speak about
            at the conference? | What subject did {p} pick for the talk?
        """),
        answer="{talk}", keys=("{p}", "{talk}"), unique=("p",),
    ),
    _Spec(
        "wedding", "single", "personal", (("p", "people"), ("city", "cities"), ("month", "months")),
        state=_items("""
            {p}'s wedding is in {city} in {month}, save the date came today | {p} is getting married in {city}
            in {month}! | save the date from {p}: {month}, in {city} | {p} and their fiance picked {city} for
            the wedding, {month}
        """),
        ask=_items("""
            Where is {p} getting married? | In which city is {p}'s wedding? | Where will {p}'s wedding take
            place? | Which city did {p} choose for the wedding?
        """),
        answer="{city}", keys=("{p}", "{city}"), unique=("p",), ns="p-city",
    ),
)
# fmt: on

# fmt: off
PARAPHRASE_SPECS: tuple[_Spec, ...] = (
    _Spec(
        "car", "paraphrase", "personal", (("p", "people"), ("car", "@cars")),
        state=_items("""
            {p} bought a new car, a {car}, and won't stop talking about it | {p} finally got a car: a {car},
            second-hand but spotless | {p} just bought a {car}. said the car was a bargain | {p}'s new car is a
            {car}
        """),
        ask=_items("""
            What vehicle did {p} purchase? | Which automobile did {p} acquire recently? | What model of vehicle
            does {p} own now? | What did {p} pick up as a new vehicle?
        """),
        decoy=_items("""
            {p} is reviewing every vehicle purchase request for the delivery fleet this quarter | {p} asked
            whether the automobile club membership is worth it | {p} wants to acquire a second monitor for the
            home office | {p} said the new model of the office coffee machine is awful
        """),
        answer="{car}", keys=("{p}", "{car}"), unique=("p",),
    ),
    _Spec(
        "sabbatical", "paraphrase", "personal", (("p", "people"), ("city", "cities")),
        state=_items("""
            {p} is taking a sabbatical and spending it in {city} | {p} starts a sabbatical next month, off to
            {city} | {p}'s sabbatical plan: six months in {city} | {p} told me about the sabbatical, they'll be
            in {city}
        """),
        ask=_items("""
            Where will {p} spend their career break? | In which city will {p} pass the extended leave from work?
            | Where is {p} heading for the long break from the job? | Which place did {p} choose for time off
            work?
        """),
        decoy=_items("""
            {p} asked me how the extended leave policy works for parents | {p} spent the whole long break
            between sessions on the phone | {p} is heading the working group on career development | {p} chose
            the venue for the team's time off event
        """),
        answer="{city}", keys=("{p}", "{city}"), unique=("p",), ns="p-city",
    ),
    _Spec(
        "cut_back", "paraphrase", "personal", (("p", "people"), ("food", "reduce_foods")),
        state=_items("""
            {p}'s doctor told them to cut back on {food} | {p} has to cut back on {food}, doctor's orders | the
            doctor wants {p} to go easy on {food} | {p}'s GP said to cut down on {food}
        """),
        ask=_items("""
            What did the physician advise {p} to reduce? | Which thing was {p} told by a medic to consume less
            of? | What did {p}'s physician recommend limiting? | What should {p} have less of, medically
            speaking?
        """),
        decoy=_items("""
            {p} wants to reduce the number of recurring meetings | {p} recommended limiting pull requests to 400
            lines | {p} asked the medic at the race about the route, not much else | {p} says we consume far
            less bandwidth since the CDN change
        """),
        answer="{food}", keys=("{p}", "{food}"), unique=("p",),
    ),
    _Spec(
        "allergy", "paraphrase", "personal", (("p", "people"), ("allergen", "@allergens")),
        state=_items("""
            {p} is allergic to {allergen}, keep that in mind for the party | careful, {p} has a {allergen}
            allergy | no {allergen} in anything for {p}, they're allergic | {p} can't have {allergen}, allergic
        """),
        ask=_items("""
            Which food gives {p} a bad reaction? | What must be kept out of {p}'s meals for medical reasons? |
            What is {p} intolerant of? | Which ingredient makes {p} ill?
        """),
        decoy=_items("""
            {p} had a bad reaction to the new org chart lol | {p} is intolerant of long meetings, as we all know
            | {p} brought food for everyone, the team meal was great | {p} was ill last week, back now
        """),
        answer="{allergen}", keys=("{p}", "{allergen}"), unique=("p",),
    ),
    _Spec(
        "laid_off", "paraphrase", "work", (("p", "people"), ("client", "clients")),
        state=_items("""
            {p} lost their job at {client}, rough week | {client} laid off {p} in the latest cuts | {p} was made
            redundant at {client} | {p} is out of work since {client} cut the whole team
        """),
        ask=_items("""
            Which employer dismissed {p}? | What company let {p} go? | Where was {p} employed before being
            fired? | Which firm terminated {p}'s position?
        """),
        decoy=_items("""
            {p} dismissed the idea of a rewrite in the meeting | {p} let go of the old dashboard project,
            finally | {p} fired off a long email about the position paper | {p} asked which firm does our
            payroll
        """),
        answer="{client}", keys=("{p}", "{client}"), unique=("p",), ns="p-job",
    ),
    _Spec(
        "slow", "paraphrase", "software", (("svc", "services"), ("cause", "@slow_causes")),
        state=_items("""
            {svc} is slow because of {cause} | found why {svc} is so slow: {cause} | the slowness in {svc} comes
            from {cause} | {svc} slow again. root cause: {cause}
        """),
        ask=_items("""
            What makes {svc} sluggish? | Why does {svc} respond with such lag? | What's behind the poor latency
            of {svc}? | What is causing {svc} to drag?
        """),
        decoy=_items("""
            {svc} alerts respond to the new thresholds now | the {svc} dashboard has a lag panel that nobody
            reads | the latency budget for {svc} is written down in the runbook | {svc} drags in a lot of
            dependencies, we should prune them
        """),
        answer="{cause}", keys=("{svc}", "{cause}"), unique=("svc",),
    ),
    _Spec(
        "contractor", "paraphrase", "work", (("proj", "projects"), ("p", "people")),
        state=_items("""
            we hired {p} as a contractor for the {proj} redesign | {p} is joining as a contractor to help with
            the {proj} redesign | signed {p} on a contract to do the {proj} redesign | {p} will contract with us
            on the {proj} redesign
        """),
        ask=_items("""
            Who was brought on as a freelancer for the {proj} makeover? | Which freelancer is working on
            {proj}'s new look? | Who did the team engage externally to revamp {proj}'s visuals? | Who is the
            outside help on refreshing how {proj} looks?
        """),
        decoy=_items("""
            the {proj} visuals for the pitch deck are done | we might engage an agency externally for the {proj}
            launch video | {proj} marketing wants a makeover of the landing page copy | refreshing the {proj}
            staging data takes an hour
        """),
        answer="{p}", keys=("{proj}", "{p}"), unique=("proj",),
    ),
    _Spec(
        "recommend", "paraphrase", "personal", (("p", "people"), ("rest", "@restaurants"), ("dish", "dishes")),
        state=_items("""
            {p} recommended {rest}, says the {dish} there is incredible | {p} says we have to try {rest},
            apparently the {dish} is amazing | {rest} is {p}'s favourite restaurant, must try the {dish} |
            according to {p}, {rest} does the best {dish} in town
        """),
        ask=_items("""
            Which eatery did {p} suggest? | What dining spot does {p} rate highly? | Where does {p} think the
            user should go to eat? | What place to dine did {p} advise?
        """),
        decoy=_items("""
            {p} suggested we rate the vendors on a scale of one to five | {p} advised against a late dinner
            before the offsite | {p} asked where to eat near the office, I had no idea | {p} rates the new
            canteen highly, I don't
        """),
        answer="{rest}", keys=("{p}", "{rest}"), unique=("p",),
    ),
    _Spec(
        "repair", "paraphrase", "personal", (("app+syn", "@appliances"), ("day", "weekdays")),
        state=_items("""
            the {app} is broken again, repair guy comes on {day} | {app} died, someone's coming to fix it {day}
            | booked a fix for the {app}, they come {day} morning | our {app} stopped working, the engineer
            visits on {day}
        """),
        ask=_items("""
            When is the technician visiting to repair the {syn}? | On what day will the {syn} be serviced? |
            When is the repair visit for the {syn} scheduled? | Which day does the repairperson come for the
            {syn}?
        """),
        decoy=_items("""
            the {syn} in the office kitchen is always full | I read a review of a smart {syn}, ridiculous price
            | a technician is visiting the office to look at the printer | the {syn} ad on the train is
            everywhere
        """),
        answer="{day}", keys=("{app}", "{day}"),
    ),
    _Spec(
        "lessons", "paraphrase", "personal", (("kid", "kids"), ("instr", "instruments"), ("teacher", "@surnames")),
        state=_items("""
            {kid} started {instr} lessons with {teacher} | {kid} has {instr} lessons now, with {teacher} |
            signed {kid} up for {instr} with {teacher} | {teacher} is giving {kid} {instr} lessons
        """),
        ask=_items("""
            Who is teaching {kid} music? | Who gives {kid} instruction on an instrument? | Who is {kid}'s music
            tutor? | Which instructor coaches {kid} musically?
        """),
        decoy=_items("""
            {kid} wants music on in the car all the time | {kid}'s football coach is very strict | {kid} got
            instructions for the science project, due Monday | the tutor at {kid}'s school retired
        """),
        answer="{teacher}", keys=("{kid}", "{teacher}"), unique=("kid",),
    ),
    _Spec(
        "honeymoon", "paraphrase", "personal", (("p", "people"), ("city", "cities")),
        state=_items("""
            {p} and their partner booked the honeymoon in {city} | {p}'s honeymoon is going to be {city} |
            honeymoon plans from {p}: two weeks in {city} | {p} is off to {city} for the honeymoon
        """),
        ask=_items("""
            Where are {p} and their spouse going after the wedding? | Which city will {p} visit as newlyweds? |
            Where is {p}'s post-wedding holiday? | What destination did {p} choose for the trip after getting
            married?
        """),
        decoy=_items("""
            {p} is making the playlist for a friend's wedding | {p} asked about destinations for the team
            offsite | {p}'s spouse is joining the summer party | {p} went to a colleague's wedding last weekend
        """),
        answer="{city}", keys=("{p}", "{city}"), unique=("p",), ns="p-city",
    ),
    _Spec(
        "bill", "paraphrase", "software", (("svc", "services"), ("driver", "@cost_drivers")),
        state=_items("""
            the {svc} bill went up because of {driver} | {svc} costs jumped this month, it's {driver} | found
            the reason the {svc} bill went up: {driver} | {svc} bill is way up, mostly {driver}
        """),
        ask=_items("""
            Why are {svc}'s expenses higher? | What increased spending on {svc}? | What is driving up what {svc}
            costs to run? | Why did {svc}'s invoice from the provider grow?
        """),
        decoy=_items("""
            the {svc} team's travel expenses are due on Friday | {svc} needs a higher rate limit from the
            partner API | the {svc} provider sent an invoice template we could reuse | {svc} is driving the
            growth dashboard now
        """),
        answer="{driver}", keys=("{svc}", "{driver}"), unique=("svc",),
    ),
    _Spec(
        "new_job", "paraphrase", "work", (("p", "people"), ("client", "clients")),
        state=_items("""
            {p} accepted an offer at {client} | {p} is joining {client} next month | {p} signed with {client},
            big move | {p} got the job at {client}!
        """),
        ask=_items("""
            Which company will {p} be working for? | What employer hired {p}? | Where is {p}'s new workplace? |
            Which firm is {p} moving to?
        """),
        decoy=_items("""
            {p} hired two interns for the summer | {p} is moving to the other side of town | {p}'s workplace
            survey results are in | {p} asked which company makes our badges
        """),
        answer="{client}", keys=("{p}", "{client}"), unique=("p",), ns="p-job",
    ),
)
# fmt: on

# fmt: off
TEMPORAL_SPECS: tuple[_Spec, ...] = (
    _Spec(
        "rollback", "temporal", "software", (("svc", "services"),),
        state=_items("""
            we rolled back the {svc} deploy this morning, error rate spiked | had to roll back {svc} today, the
            release broke checkout | {svc} deploy rolled back just now, investigating | rollback of {svc} done,
            prod is stable again
        """),
        ask=_items("""
            When was the {svc} deploy rolled back? | On what date did the team roll back {svc}? | When did the
            {svc} rollback happen? | What day did {svc} get rolled back?
        """),
        keys=("{svc}", "roll"), unique=("svc",),
    ),
    _Spec(
        "signed", "temporal", "work", (("client", "clients"),),
        state=_items("""
            {client} signed the contract today!! | contract with {client} is signed, finally | just got the
            signed contract back from {client} | {client} signed this morning, drinks on me
        """),
        ask=_items("""
            When did {client} sign the contract? | On which date was the {client} contract signed? | When was
            the deal with {client} signed? | What day did {client} sign?
        """),
        keys=("{client}", "sign"), unique=("client",),
    ),
    _Spec(
        "start", "temporal", "work", (("p", "people"), ("role", "roles")),
        state=_items("""
            {p} started today as our new {role} | first day for {p} today, our new {role} | welcomed {p} this
            morning, the {role} we hired | {p} joined the team today as {role}
        """),
        ask=_items("""
            When did {p} start as {role}? | On what date did {p} join as the new {role}? | When was {p}'s first
            day as {role}? | What day did {p} begin working as {role}?
        """),
        keys=("{p}", "{role}"), unique=("p",), ns="p-role",
    ),
    _Spec(
        "outage", "temporal", "software", (("svc", "services"), ("nn", "nn")),
        state=_items("""
            {svc} was down for {nn} minutes this afternoon | outage today: {svc} went down for about {nn}
            minutes | {svc} had an outage earlier, {nn} minutes | ugh, {svc} down for {nn} minutes today
        """),
        ask=_items("""
            When did {svc} have an outage? | On what date did {svc} go down? | When was the {svc} outage? | What
            day was {svc} unavailable?
        """),
        keys=("{svc}", "{nn} minutes"), unique=("svc",), ns="svc-outage",
    ),
    _Spec(
        "release", "temporal", "software", (("proj", "projects"), ("ver", "@release")),
        state=_items("""
            {proj} {ver} shipped today | we released {proj} {ver} this morning | {proj} {ver} is out! | {ver} of
            {proj} went live today
        """),
        ask=_items("""
            When was {proj} {ver} released? | On what date did {proj} {ver} ship? | When did version {ver} of
            {proj} go out? | What day did {proj} {ver} launch?
        """),
        keys=("{proj}", "{ver}"),
    ),
    _Spec(
        "race_day", "temporal", "personal", (("race", "@races"),),
        state=_items("""
            ran {race} today, what a day | {race} this morning, finished without walking | just crossed the line
            at {race} | did {race} today with {n} thousand other people
        """),
        ask=_items("""
            On what date did the user run {race}? | When did the user take part in {race}? | When was {race}
            that the user ran? | What day did the user do {race}?
        """),
        keys=("{race}",),
    ),
    _Spec(
        "appointment", "temporal", "personal", (("appt", "@appointments"),),
        state=_items("""
            got my {appt} done today | {appt} this morning, all fine | finally did the {appt} today | had the
            {appt} earlier, nothing to worry about
        """),
        ask=_items("""
            When did the user get the {appt}? | On what date was the user's {appt}? | When did the user have the
            {appt} done? | What day was the {appt}?
        """),
        keys=("{appt}",),
    ),
    _Spec(
        "kid_event", "temporal", "personal", (("kid", "kids"), ("kev", "kid_events")),
        state=_items("""
            {kid}'s {kev} was today, so proud | {kev} today for {kid}, they loved it | just back from {kid}'s
            {kev} | {kid} had the {kev} this afternoon
        """),
        ask=_items("""
            When was {kid}'s {kev}? | On what date did {kid} have the {kev}? | When did {kid}'s {kev} take
            place? | What day was the {kev} for {kid}?
        """),
        keys=("{kid}", "{kev}"), unique=("kid", "kev"),
    ),
    _Spec(
        "booked_flights", "temporal", "personal", (("city", "cities"),),
        state=_items("""
            booked the flights to {city} today | flights to {city} are booked! | just bought plane tickets to
            {city} | done: flights for {city} booked
        """),
        ask=_items("""
            When did the user book flights to {city}? | On what date were the {city} flights booked? | When did
            the user buy plane tickets to {city}? | What day did the user book the trip to {city}?
        """),
        keys=("{city}",), unique=("city",), ns="city-trip",
    ),
    _Spec(
        "submitted", "temporal", "personal", (("doc", "@docs"),),
        state=_items("""
            submitted the {doc} today, fingers crossed | {doc} is in! sent it this morning | finally filed the
            {doc} | sent off the {doc} today
        """),
        ask=_items("""
            When did the user submit the {doc}? | On what date was the {doc} sent? | When was the {doc} filed? |
            What day did the user send off the {doc}?
        """),
        keys=("{doc}",),
    ),
    _Spec(
        "last_day", "temporal", "work", (("p", "people"),),
        state=_items("""
            {p}'s last day was today, farewell lunch was lovely | said goodbye to {p} today, last day | today
            was {p}'s last day with us | {p} left today, last day at the company
        """),
        ask=_items("""
            When was {p}'s last day? | On what date did {p} leave the company? | When did {p} finish up at the
            company? | What day did {p} leave?
        """),
        keys=("{p}", "last day"), unique=("p",), ns="p-job",
    ),
    _Spec(
        "postmortem", "temporal", "software", (("svc", "services"),),
        state=_items("""
            held the postmortem for the {svc} incident today | {svc} postmortem done this afternoon, five
            actions | we did the {svc} postmortem this morning | postmortem for {svc} today, blameless and
            useful
        """),
        ask=_items("""
            When was the {svc} postmortem held? | On what date did the team review the {svc} incident? | When
            did the {svc} postmortem take place? | What day was the {svc} incident review?
        """),
        keys=("{svc}", "postmortem"), unique=("svc",),
    ),
)
# fmt: on

# fmt: off
MULTI_SPECS: tuple[_Spec, ...] = (
    _Spec(
        "codename_launch", "multi", "work", (("p", "people"), ("code", "@codenames"), ("launch", "@bday")),
        hops=(
            _items("""
                {p} is running the {code} initiative | {code} is {p}'s initiative now | {p} owns the {code}
                initiative | {p} got put in charge of {code}
            """),
            _items("""
                {code} launches on {launch} | launch date for {code}: {launch} | {code} goes live on {launch},
                fingers crossed | we locked {launch} as the {code} launch date
            """),
        ),
        ask=_items("""
            When does the initiative {p} runs launch? | What is the launch date of the initiative led by {p}? |
            On what date does {p}'s initiative go live? | When is the launch of the initiative {p} is in charge of?
        """),
        answer="{launch}", keys=("{launch}",), unique=("p",), ns="p-initiative",
    ),
    _Spec(
        "lead_blocker", "multi", "software", (("p", "people"), ("svc", "services"), ("blocker", "@blockers")),
        hops=(
            _items("""
                {p} is leading the {svc} rewrite | {p} took over the {svc} rewrite | the {svc} rewrite is {p}'s
                project now | {p} will drive the rewrite of {svc}
            """),
            _items("""
                the {svc} rewrite is blocked on {blocker} | no progress on the {svc} rewrite, waiting for
                {blocker} | {svc} rewrite stuck until we get {blocker} | blocker for the {svc} rewrite:
                {blocker}
            """),
        ),
        ask=_items("""
            What is the rewrite led by {p} waiting on? | What's blocking the rewrite {p} is leading? | Which
            dependency holds up the rewrite that {p} drives? | The rewrite {p} owns is stalled on what?
        """),
        answer="{blocker}", keys=("{blocker}",), unique=("svc",), ns="svc-rewrite",
    ),
    _Spec(
        "trip_restaurant", "multi", "personal", (("p", "people"), ("city", "cities"), ("rest", "@restaurants")),
        hops=(
            _items("""
                {p} is flying to {city} next week for a conference | {p} is off to {city} soon for work | {p}
                has a work trip to {city} coming up | {p} asked me for tips, they're travelling to {city}
            """),
            _items("""
                if you're ever in {city}, {rest} is the place to eat | best meal I had in {city} was at {rest} |
                {rest} in {city} is worth the trip alone | whenever I'm in {city} I go to {rest}
            """),
        ),
        ask=_items("""
            Which restaurant did the user praise in the city {p} is travelling to? | Where should {p} eat on the
            upcoming trip, going by the user's favourite spot there? | What restaurant does the user like in the
            city {p} is visiting? | Which place to eat does the user know in {p}'s travel destination?
        """),
        answer="{rest}", keys=("{rest}",), unique=("city",), ns="city-restaurant",
    ),
    _Spec(
        "ticket_fix", "multi", "software",
        (("svc", "services"), ("sym", "@symptoms"), ("ticket", "@ticket"), ("fix", "@fixes")),
        hops=(
            _items("""
                opened {ticket}: {sym} in {svc} | {ticket} is about the {sym} in {svc} | new bug {ticket}, {svc}
                has {sym} | logged the {sym} from {svc} as {ticket}
            """),
            _items("""
                {ticket} is fixed, it was {fix} | closed {ticket}: the fix was {fix} | fix for {ticket} merged:
                {fix} | {ticket} resolved with {fix}
            """),
        ),
        ask=_items("""
            How was the {sym} problem in {svc} fixed? | What resolved the {sym} in {svc}? | What was the fix for
            the {sym} seen in {svc}? | What change cured the {sym} in {svc}?
        """),
        answer="{fix}", keys=("{fix}",),
    ),
    _Spec(
        "team_offsite", "multi", "work", (("p", "people"), ("team", "teams"), ("city", "cities")),
        hops=(
            _items("""
                {p} moved to the {team} team | {p} is on the {team} team now | {p} transferred to {team} this
                week | the {team} team got {p} as a new member
            """),
            _items("""
                the {team} team's offsite is in {city} this year | {team} offsite: {city}, three days | {team}
                is doing their offsite in {city} | offsite for {team} will be in {city}
            """),
        ),
        ask=_items("""
            Where is the offsite of the team {p} joined? | In which city will the team that {p} moved to meet
            offsite? | Where does {p}'s new team hold its offsite? | What city is the offsite for {p}'s current
            team in?
        """),
        answer="{city}", keys=("{city}",), unique=("team",), ns="team-offsite",
    ),
    _Spec(
        "bday_wish", "multi", "personal", (("p", "people"), ("bday", "@bday"), ("gift", "@gifts")),
        hops=(
            _items("""
                {p}'s birthday is on {bday} | don't let me forget, {p} has a birthday on {bday} | {p} turns a
                year older on {bday} | {bday} is {p}'s birthday
            """),
            _items("""
                {p} mentioned wanting {gift} | {p} keeps hinting about {gift} | {p} said they'd love {gift} |
                idea for {p}: {gift}, they brought it up twice
            """),
        ),
        ask=_items("""
            What would the person whose birthday falls on {bday} like as a present? | What gift does the person
            born on {bday} want? | What has the friend with the {bday} birthday been hinting at? | What present
            would suit the person celebrating on {bday}?
        """),
        answer="{gift}", keys=("{gift}",), unique=("p",), ns="p-gift",
    ),
    _Spec(
        "plan_feature", "multi", "work", (("p", "people"), ("client", "clients"), ("plan+feature", "@plans")),
        hops=(
            _items("""
                {p} manages the {client} account | {p} is the account manager for {client} | {client} is {p}'s
                account | {p} looks after {client}
            """),
            _items("""
                {client} is on the {plan} plan | {client} upgraded to the {plan} plan | {client} pays for {plan}
                | the plan {client} has is {plan}
            """),
            _items("""
                the {plan} plan includes {feature} | {plan} comes with {feature} | with {plan} customers get
                {feature} | you get {feature} on the {plan} plan
            """),
        ),
        ask=_items("""
            Which feature comes with the plan of the customer that {p} manages? | What does the plan of {p}'s
            account include? | What benefit is included in the subscription of the customer {p} looks after? |
            Which perk does the account managed by {p} get from its plan?
        """),
        answer="{feature}", keys=("{feature}",), unique=("client",), ns="client-plan",
    ),
)
# fmt: on

# fmt: off
LIST_SPECS: tuple[_Spec, ...] = (
    _Spec(
        "evaluated", "list", "software", (("purpose+items", "@evals"), ("proj", "projects")),
        hops=(
            _items("""
                looked at {item} for {purpose} on {proj} today, {opinion} | spent the afternoon trying {item}
                for {purpose}, {opinion} | {item} for {purpose}: {opinion} | evaluated {item} as an option for
                {purpose}. verdict: {opinion}
            """),
        ),
        ask=_items("""
            Which tools did the user evaluate for {purpose}? | What options were tried out for {purpose}? |
            Which products did the user look at for {purpose}? | What candidates for {purpose} did the user
            test?
        """),
        answer="{items}",
    ),
)
# fmt: on
OPINIONS = _items("""
    promising but pricey | docs are great | setup was painful | fast but limited | solid, no surprises | too
    heavy for us | nice API | the pricing page scares me
""")

# fmt: off
CHANGE_SPECS: tuple[_Spec, ...] = (
    _Spec(
        "hosting", "change", "software", (("proj", "projects"),),
        category="decision", subject="{proj} hosting",
        values=_items("""Heroku | Fly.io | Render | Railway | Cloud Run | DigitalOcean"""),
        state=_items("""
            we decided to host {proj} on {v} | let's go with {v} for {proj} hosting | {proj} will run on {v},
            decision made | ok final call: {proj} deploys to {v}
        """),
        change=_items("""
            we switched {proj} from {old} to {v} | from now on {proj} deploys go to {v} instead of {old} |
            {proj} is off {old} as of today, everything runs on {v} | moved {proj} hosting from {old} over to
            {v}
        """),
        again=_items("""
            reminder, {proj} is hosted on {v} | as agreed, {proj} runs on {v} | {proj} on {v} still feels like
            the right call | {v} has been fine for {proj} so far
        """),
        ask=_items("""
            Where is {proj} hosted now? | Which platform does {proj} deploy to at this point? | What hosting
            provider does {proj} currently run on? | Where do {proj} deploys go these days?
        """),
        unique=("proj",),
    ),
    _Spec(
        "standup", "change", "work", (("team", "teams"),),
        category="domain_fact", subject="{team} standup time",
        values=_items("""9:15 | 9:30 | 9:45 | 10:00 | 10:15 | 10:30"""),
        state=_items("""
            the {team} standup is at {v} every morning | {team} team does standup at {v} | reminder that {team}
            standup starts {v} sharp | {team} standup: daily at {v}
        """),
        change=_items("""
            heads up, {team} standup moves from {old} to {v} starting tomorrow | {team} standup is now at {v},
            no longer {old} | we shifted the {team} standup to {v} (it was {old}) | from now on the {team}
            standup is at {v}, not {old}
        """),
        again=_items("""
            {team} standup at {v} as usual | see you at {v} for the {team} standup | the {v} {team} standup ran
            long again | {team} standup, {v}, don't be late
        """),
        ask=_items("""
            What time is the {team} team's standup now? | When does the {team} standup happen these days? | At
            what time does {team} hold its daily standup currently? | What's the current {team} standup time?
        """),
        unique=("team",),
    ),
    _Spec(
        "coffee", "change", "personal",
        category="preference", subject="coffee order",
        values=_items("""
            oat flat white | double espresso | cortado | iced americano | cappuccino | long black
        """),
        state=_items("""
            my usual is a {v}, in case you ever wonder | I prefer a {v} in the morning | I always order a {v} |
            {v} is my go-to coffee order
        """),
        change=_items("""
            I've switched from {old} to {v} | new habit: {v} instead of {old} | no more {old} for me, it's {v}
            now | from now on my order is a {v}, not {old}
        """),
        again=_items("""
            had my {v} and now I'm human | the cafe got my {v} wrong again | {v} number two today | nothing
            beats a {v} first thing
        """),
        ask=_items("""
            What is the user's usual coffee order now? | What does the user typically drink in the morning these
            days? | What's the user's current go-to coffee? | Which coffee drink does the user order at present?
        """),
    ),
    _Spec(
        "datastore", "change", "software", (("svc", "services"),),
        category="decision", subject="{svc} datastore",
        values=_items("""Postgres | MySQL | DynamoDB | MongoDB | SQLite | CockroachDB"""),
        state=_items("""
            we decided {svc} will keep its data in {v} | let's go with {v} as the datastore for {svc} | {svc}
            stores everything in {v} | decision on {svc}: {v} for persistence
        """),
        change=_items("""
            {svc} is moving from {old} to {v} | we switched {svc}'s storage from {old} to {v} | {svc} now writes
            to {v}, {old} is read-only until we delete it | migrated {svc} off {old}, it's on {v} now
        """),
        again=_items("""
            {svc} on {v} is holding up fine | as decided, {svc} persists to {v} | {v} is doing its job for {svc}
            | no regrets about {v} for {svc}
        """),
        ask=_items("""
            Which database backs {svc} now? | Where does {svc} store its data currently? | What datastore does
            {svc} use at this point? | Which storage engine is {svc} on now?
        """),
        unique=("svc",),
    ),
    _Spec(
        "owner", "change", "software", (("svc", "services"),),
        category="entity", subject="owner of {svc}",
        values=_items("""@people"""),
        state=_items("""
            {v} owns {svc} | {svc} belongs to {v}, ask {v} first | {v} is the owner of {svc} | talk to {v} about
            {svc}, they own it
        """),
        change=_items("""
            ownership of {svc} moved from {old} to {v} | {v} takes over {svc} from {old} | {old} handed {svc}
            over to {v} today | {svc} has a new owner: {v} (was {old})
        """),
        again=_items("""
            {v} confirmed they still own {svc} | pinged {v} since {svc} is theirs | as the owner of {svc}, {v}
            signed off | {v} is on top of {svc} as always
        """),
        ask=_items("""
            Who owns {svc} now? | Who is currently responsible for {svc}? | Which person is the owner of {svc}
            at present? | Who should be asked about {svc} these days?
        """),
        unique=("svc",), ns="svc-owner",
    ),
    _Spec(
        "rate_limit", "change", "software", (("client", "clients"),),
        category="constraint", subject="{client} API rate limit",
        values=_items("""
            100 requests per minute | 250 requests per minute | 500 requests per minute | 1,000 requests per
            minute | 20 requests per second | 50 requests per second
        """),
        state=_items("""
            {client} is capped at {v} on the public API | the rate limit for {client} is {v} | {client} gets
            {v}, not more | we limit {client} to {v}
        """),
        change=_items("""
            we raised {client}'s limit from {old} to {v} | {client}'s rate limit is now {v} instead of {old} |
            bumped {client} from {old} to {v} | {client} now gets {v} (used to be {old})
        """),
        again=_items("""
            {client} hit their {v} limit again | reminder: {client} is on {v} | {client} asked about the {v} cap
            | {v} is still enough for {client}
        """),
        ask=_items("""
            What is {client}'s current API rate limit? | How many requests can {client} make on the API now? |
            What throughput cap applies to {client} today? | What's the request limit for {client} at the
            moment?
        """),
        unique=("client",),
    ),
    _Spec(
        "diet", "change", "personal",
        category="preference", subject="diet",
        values=_items("""vegetarian | pescatarian | vegan | flexitarian"""),
        state=_items("""
            I'm {v} these days, keep that in mind for recipes | please always suggest {v} recipes, that's how I
            eat | I eat {v}, so no suggestions outside that | just so you know I'm {v}
        """),
        change=_items("""
            I've gone from {old} to {v} | update: I'm {v} now, not {old} anymore | switched from {old} to {v}
            this month | from now on assume I'm {v} (no longer {old})
        """),
        again=_items("""
            still {v}, still happy | remember I'm {v} when you suggest dinner | {v} week going well | {v}
            recipes only please
        """),
        ask=_items("""
            What diet does the user follow now? | How does the user eat these days? | What is the user's current
            dietary pattern? | Which eating style does the user stick to at present?
        """),
    ),
    _Spec(
        "lives_in", "change", "personal", (("rel", "rels"), ("p", "people")),
        category="entity", subject="where {rel} {p} lives",
        values=_items("""@cities"""),
        state=_items("""
            my {rel} {p} lives in {v} | {p}, my {rel}, is based in {v} | {p} (my {rel}) has been living in {v}
            for years | when we visit my {rel} {p} we go to {v}
        """),
        change=_items("""
            my {rel} {p} just moved from {old} to {v} | {p} relocated to {v}, no longer in {old} | {p} left
            {old}, lives in {v} now | big news: {p} moved to {v} from {old}
        """),
        again=_items("""
            {p} sent photos from {v} | visiting {p} in {v} soon | {p} loves living in {v} | called {p}, the
            weather in {v} is grim
        """),
        ask=_items("""
            Which city does the user's {rel} {p} live in now? | Where is {p} based these days? | What is {p}'s
            current home city? | Where does {p} live at the moment?
        """),
        unique=("p",), ns="p-city",
    ),
    _Spec(
        "sprint_length", "change", "work", (("team", "teams"),),
        category="decision", subject="{team} sprint length",
        values=_items("""one week | two weeks | three weeks"""),
        state=_items("""
            {team} sprints last {v} | sprint length for {team} is {v} | we decided {team} sprints will last {v}
            | in {team}, a sprint is {v}
        """),
        change=_items("""
            {team} sprints go from {old} to {v} starting next cycle | we changed {team}'s sprint length from
            {old} to {v} | {team} now does sprints of {v} (was {old}) | sprints in {team} are {v} now instead of
            {old}
        """),
        again=_items("""
            {team} sprint of {v} starts today | another {v} sprint for {team} | {v} sprints suit {team} well |
            {team} planning for the next {v}
        """),
        ask=_items("""
            How long are the {team} team's sprints now? | What sprint length does {team} use currently? | How
            many weeks is a {team} sprint at present? | What's the duration of a {team} sprint these days?
        """),
        unique=("team",),
    ),
    _Spec(
        "lib_version", "change", "software", (("lib", "libs"),),
        category="domain_fact", subject="{lib} version",
        values=_items("""@version"""),
        state=_items("""
            we're on {lib} {v} | {lib} is pinned at {v} in the lockfile | the project uses {lib} {v} | our {lib}
            version is {v}
        """),
        change=_items("""
            bumped {lib} from {old} to {v} | upgraded {lib} to {v} (was on {old}) | {lib} {v} is in, {old} is
            gone | we moved from {lib} {old} to {v}
        """),
        again=_items("""
            {lib} {v} in the lockfile, checked | still on {lib} {v} | no issues with {lib} {v} so far | {lib}
            {v} behaves
        """),
        ask=_items("""
            Which {lib} version is the project on now? | What version of {lib} is in use currently? | What's the
            current {lib} version? | Which release of {lib} does the project run at this point?
        """),
        unique=("lib",),
    ),
    _Spec(
        "answer_format", "change", "software",
        category="preference", subject="answer format",
        values=_items("""
            the short answer first | code before explanations | bullet points instead of paragraphs | examples
            in Python | TypeScript examples
        """),
        state=_items("""
            please always give me {v} | I prefer {v} when you explain things | for explanations, {v} please | I
            like {v}, keeps it quick
        """),
        change=_items("""
            actually, forget {old}; from now on I want {v} | I've changed my mind: {v} rather than {old} | going
            forward, {v} instead of {old} please | new preference: {v} (not {old})
        """),
        again=_items("""
            thanks for {v}, that's exactly what I like | {v} again please | remember, {v} | perfect, {v} as
            always
        """),
        ask=_items("""
            How does the user want explanations formatted now? | What answer style does the user prefer
            currently? | What format should answers to the user follow at this point? | Which way of presenting
            answers does the user ask for now?
        """),
    ),
    _Spec(
        "swim_day", "change", "personal", (("kid", "kids"),),
        category="entity", subject="{kid}'s swim lesson day",
        values=_items("""Monday | Tuesday | Wednesday | Thursday | Friday"""),
        state=_items("""
            {kid} has swim lessons on {v}s | swimming for {kid} is every {v} | {kid}'s swim class is on {v}
            after school | {v} is swim day for {kid}
        """),
        change=_items("""
            {kid}'s swim lessons moved from {old} to {v} | swim for {kid} is on {v} now, not {old} | the pool
            changed the schedule: {kid} swims on {v} instead of {old} | {kid} switched swim day from {old} to
            {v}
        """),
        again=_items("""
            {v} swim for {kid}, packed the bag | {kid} loved swimming this {v} | swim {v} again for {kid} |
            {kid} got a badge at {v} swim
        """),
        ask=_items("""
            On which day does {kid} have swimming now? | What day is {kid}'s swim lesson currently? | When
            during the week does {kid} swim these days? | Which weekday is {kid}'s swimming class now?
        """),
        unique=("kid",),
    ),
    _Spec(
        "friday_cutoff", "change", "software", (("proj", "projects"),),
        category="constraint", subject="{proj} Friday deploy cutoff",
        values=_items("""10am | noon | 2pm | 3pm | 4pm"""),
        state=_items("""
            never deploy {proj} after {v} on Fridays | rule for {proj}: no deploys past {v} on a Friday | the
            {proj} deploy cutoff on Fridays is {v} | please don't ship {proj} after {v} on Friday
        """),
        change=_items("""
            new rule: {proj}'s Friday cutoff moves from {old} to {v} | the Friday deploy cutoff for {proj} is
            now {v}, was {old} | we moved {proj}'s Friday freeze from {old} to {v} | from now on no {proj}
            deploys after {v} on Fridays (instead of {old})
        """),
        again=_items("""
            it's past {v} on a Friday, so no {proj} deploy | {proj} Friday cutoff at {v}, holding the release |
            {v} Friday rule for {proj} saved us again | reminder: {proj} freeze starts {v} today
        """),
        ask=_items("""
            What's the current Friday deploy cutoff for {proj}? | Until what time can {proj} be deployed on
            Fridays now? | When does the Friday deploy freeze start for {proj} these days? | What is {proj}'s
            Friday shipping deadline at present?
        """),
        unique=("proj",),
    ),
    _Spec(
        "ci", "change", "software", (("proj", "projects"),),
        category="decision", subject="{proj} CI",
        values=_items("""GitHub Actions | CircleCI | Buildkite | GitLab CI | Jenkins | Drone"""),
        state=_items("""
            {proj} CI runs on {v} | we decided on {v} for {proj}'s CI | let's go with {v} for {proj} builds |
            {proj} builds are on {v}
        """),
        change=_items("""
            we switched {proj} CI from {old} to {v} | {proj} builds moved from {old} to {v} | {old} is out,
            {proj} now builds on {v} | migrated {proj}'s pipelines from {old} to {v}
        """),
        again=_items("""
            {v} was slow for {proj} today | {proj} green on {v} | {v} queue for {proj} is long | the {v} config
            for {proj} needs cleanup
        """),
        ask=_items("""
            Which CI system does {proj} use now? | Where do {proj} builds run these days? | What CI service runs
            {proj}'s pipelines currently? | Which build platform is {proj} on at present?
        """),
        unique=("proj",),
    ),
    _Spec(
        "running_goal", "change", "personal",
        category="preference", subject="running goal",
        values=_items("""
            a sub-2-hour half marathon | a 50-minute 10K | a first marathon in the autumn | running 30 km a week
            | a 25-minute 5K
        """),
        state=_items("""
            my goal this year is {v} | I'm training for {v} | target for the year: {v} | what I want this year
            is {v}
        """),
        change=_items("""
            changed my running goal from {old} to {v} | new plan: {v} instead of {old} | dropping {old}, going
            for {v} | my goal is now {v}, not {old}
        """),
        again=_items("""
            long run done, {v} feels possible | still on track for {v} | {v} is going to hurt | training for {v}
            is going ok
        """),
        ask=_items("""
            What is the user's current running goal? | What is the user training towards now? | What running
            target has the user set at present? | What does the user aim to achieve in running now?
        """),
    ),
    _Spec(
        "deploy_failure", "change", "software", (("svc", "services"),),
        category="failure_pattern", subject="{svc} deploy failures",
        values=_items("""@deploy_causes"""),
        state=_items("""
            {svc} deploys keep failing because {v} | the {svc} deploy failed again: {v}, as usual | pattern with
            {svc} deploys: they fail when {v} | {svc} deploys break whenever {v}
        """),
        change=_items("""
            turns out the {svc} deploy failures have another cause: not that {old}, but that {v} | correction on
            {svc}: deploys fail because {v}, not because {old} | we were wrong about {svc}, it's not that {old},
            it's that {v} | new finding: {svc} deploys fail because {v} (we blamed {old} before)
        """),
        again=_items("""
            {svc} deploy red again, {v} | another failed {svc} deploy, {v} | {svc} deploy retry needed, {v}
            again | same {svc} deploy failure: {v}
        """),
        ask=_items("""
            Why do {svc} deploys keep failing, as far as the team now knows? | What is the current explanation
            for the failing {svc} deploys? | What is now believed to break {svc} deploys? | What causes the
            {svc} deploy failures, per the latest finding?
        """),
        unique=("svc",), ns="svc-deploy",
    ),
    _Spec(
        "role", "change", "work", (("p", "people"),),
        category="entity", subject="{p}'s role",
        values=_items("""@roles"""),
        state=_items("""
            {p} is our {v} | {p} works as the {v} | {p} is the {v} on the team | {p}'s role: {v}
        """),
        change=_items("""
            {p} moved from {old} to {v} | {p} is now {v}, no longer {old} | {p} switched roles, {old} to {v} |
            congrats to {p}, promoted from {old} to {v}
        """),
        again=_items("""
            {p} is a great {v} | as {v}, {p} ran the meeting | {p} doing {v} things again | {p} the {v} approved
            it
        """),
        ask=_items("""
            What is {p}'s role now? | What position does {p} hold currently? | What's {p}'s job on the team at
            present? | Which role does {p} have these days?
        """),
        unique=("p",), ns="p-role",
    ),
)
# fmt: on

# fmt: off
STABLE_SPECS: tuple[_Spec, ...] = (
    _Spec(
        "merge_style", "stable", "software", (("proj", "projects"),),
        category="preference", subject="{proj} merge strategy",
        values=_items("squash merges | rebase merges | merge commits"),
        state=_items("""
            for {proj} I prefer {v} | please always use {v} on {proj} | {proj} gets {v}, that's how I like it |
            my preference for {proj}: {v}, always
        """),
        again=_items("""
            {v} on {proj} as usual | used {v} for the {proj} PR, like always | {proj} history looks clean with
            {v} | reminder: {v} on {proj}
        """),
        ask=_items("""
            How does the user like changes merged on {proj}? | What merge strategy does the user want for {proj}?
            | Which way of merging does the user prefer on {proj}? | How should pull requests be merged on {proj}?
        """),
        answer="{v}", keys=("{proj}", "{v}"), unique=("proj",),
    ),
    _Spec(
        "alerts", "stable", "software", (("svc", "services"),),
        category="preference", subject="{svc} alert channel",
        values=_items("Slack messages | email digests | phone calls for outages only | a daily summary"),
        state=_items("""
            for {svc} alerts I prefer {v} | please always send {svc} alerts as {v} | {svc} alerts: {v}, nothing
            else | I want {svc} alerts as {v}
        """),
        again=_items("""
            got the {svc} alert as {v}, good | {v} for {svc} works well | {svc} alerts as {v} please, like before |
            {v} again for {svc}, thanks
        """),
        ask=_items("""
            How does the user want to be alerted about {svc}? | Which alert channel does the user prefer for {svc}? |
            How should {svc} alerts reach the user? | What form should alerts for {svc} take for the user?
        """),
        answer="{v}", keys=("{svc}", "{v}"), unique=("svc",),
    ),
    _Spec(
        "migration_window", "stable", "software", (("proj", "projects"),),
        category="constraint", subject="{proj} migration window",
        values=_items("""
            after 8pm | before 7am | on Sunday mornings | during the Tuesday maintenance window
        """),
        state=_items("""
            migrations on {proj} only run {v} | please always schedule {proj} migrations {v} | never run {proj}
            migrations outside the window, which is {v} | rule: {proj} schema changes go out {v}
        """),
        again=_items("""
            {proj} migration queued for {v}, as per the rule | holding the {proj} migration until {v} | as
            always, {proj} migrations {v} | the {proj} schema change waits for {v}
        """),
        ask=_items("""
            When are {proj} migrations allowed to run? | What time slot is reserved for {proj} schema changes? |
            When may the team apply {proj} database migrations? | What's the allowed window for {proj}
            migrations?
        """),
        answer="{v}", keys=("{proj}", "{v}"), unique=("proj",),
    ),
    _Spec(
        "indent", "stable", "software",
        category="preference", subject="indentation",
        values=_items("""4 spaces | 2 spaces | tabs"""),
        state=_items("""
            I prefer {v} for indentation | please always indent with {v} | {v} for indentation, never anything
            else | indent with {v} in my code please
        """),
        again=_items("""
            again, {v} for indentation please | you used the wrong indentation, {v} please | reminder: {v} for
            indents | {v}, always, for indentation
        """),
        ask=_items("""
            How does the user like code indented? | What indentation does the user want? | Which indentation
            style does the user ask for? | How should code be indented for the user?
        """),
        answer="{v}", keys=("{v}",),
    ),
    _Spec(
        "seat", "stable", "personal",
        category="preference", subject="flight seat",
        values=_items("""an aisle seat | a window seat"""),
        state=_items("""
            I always book {v} when I fly | please get me {v} on flights | {v} every time on planes, that's my
            rule | my rule for flights: {v}
        """),
        again=_items("""
            got {v} again, happy | no {v} left on this flight, annoying | remember {v} when you look at flights
            | {v} as usual please
        """),
        ask=_items("""
            Which seat does the user like when flying? | What seat does the user prefer on planes? | Where does
            the user like to sit on a flight? | What's the user's seating preference on flights?
        """),
        answer="{v}", keys=("{v}",),
    ),
    _Spec(
        "residency", "stable", "work", (("client", "clients"),),
        category="constraint", subject="{client} data residency",
        values=_items("""the EU | Canada | Australia | the UK | Switzerland"""),
        state=_items("""
            {client}'s data must stay in {v} | contractually, {client} data can never leave {v} | {client}
            requires all their data hosted in {v} | we must keep {client} data inside {v}
        """),
        again=_items("""
            double-checked: {client} data is only in {v} | {client} asked again about {v} hosting | the {v}
            requirement for {client} came up in the audit | {client} data, {v} only, as always
        """),
        ask=_items("""
            Where must {client}'s data be stored? | Which region is {client}'s data restricted to? | Where is
            {client}'s data required to reside? | In which jurisdiction must {client} data stay?
        """),
        answer="{v}", keys=("{client}", "{v}"), unique=("client",),
    ),
    _Spec(
        "kid_allergy", "stable", "personal", (("kid", "kids"),),
        category="constraint", subject="{kid}'s allergy",
        values=_items("""@allergens"""),
        state=_items("""
            {kid} is allergic to {v} | no {v} for {kid}, ever, allergy | {kid} has a {v} allergy, tell the
            school | keep {v} away from {kid}, they're allergic
        """),
        again=_items("""
            checked the party food for {v} because of {kid} | {kid}'s school knows about the {v} thing | label
            said may contain {v}, not for {kid} | {v}-free snacks for {kid} again
        """),
        ask=_items("""
            Which food does {kid} have to stay away from? | Which allergy does {kid} have? | What must {kid} avoid
            for allergy reasons? | Which food causes {kid}'s allergy?
        """),
        answer="{v}", keys=("{kid}", "{v}"), unique=("kid",),
    ),
    _Spec(
        "queue", "stable", "software", (("svc", "services"),),
        category="decision", subject="{svc} job queue",
        values=_items("""Celery | RQ | SQS | RabbitMQ | Kafka | Sidekiq"""),
        state=_items("""
            we decided to use {v} for {svc}'s job queue | let's go with {v} for the {svc} workers | {svc}
            background jobs will run on {v} | final decision: {v} powers the {svc} queue
        """),
        again=_items("""
            {v} is working fine for {svc} | scaled the {v} workers for {svc} | {svc} queue on {v} drained
            overnight | happy with {v} for {svc}
        """),
        ask=_items("""
            Which queue technology did the team choose for {svc}? | What runs the {svc} background jobs? | What
            did the team pick for {svc}'s job queue? | Which queueing system backs {svc}'s workers?
        """),
        answer="{v}", keys=("{svc}", "{v}"), unique=("svc",),
    ),
    _Spec(
        "api_versioning", "stable", "software",
        category="decision", subject="API versioning",
        values=_items("""URL path versioning | header-based versioning | date-based versioning"""),
        state=_items("""
            we decided on {v} for the public API | for the public API, let's go with {v} | API decision: {v} |
            we'll do {v} for the API from now on
        """),
        again=_items("""
            {v} for the API, as decided | docs updated to explain {v} | {v} made the API changelog simpler |
            sticking with {v} for the API
        """),
        ask=_items("""
            How will the public API be versioned? | What versioning scheme did the team choose for the API? |
            Which approach to API versions was decided? | How are public API versions expressed?
        """),
        answer="{v}", keys=("{v}",),
    ),
    _Spec(
        "contact", "stable", "work", (("client", "clients"), ("v", "people")),
        category="entity", subject="contact at {client}",
        state=_items("""
            our main contact at {client} is {v}, loop them in on everything | {v} is the person to talk to at
            {client} | for anything {client}-related, go through {v} | {client} assigned {v} as our point person
        """),
        again=_items("""
            {v} from {client} replied already | call with {v} from {client} went well | {v} at {client} wants an
            update | cc'd {v} at {client} as usual
        """),
        ask=_items("""
            Who is the user's main contact at {client}? | Who should the user talk to at {client}? | Which
            person is the point of contact at {client}? | Who represents {client} in dealings with the user?
        """),
        answer="{v}", keys=("{client}", "{v}"), unique=("client",),
    ),
    _Spec(
        "birthday", "stable", "personal", (("p", "people"), ("v", "@bday")),
        category="entity", subject="{p}'s birthday",
        state=_items("""
            {p}'s birthday is on {v} | don't forget, {p} has a birthday on {v} | {p} celebrates their birthday
            on {v} | {v} is {p}'s birthday
        """),
        again=_items("""
            {p}'s birthday on {v} is coming up | card for {p} before {v} | {v}: {p}'s birthday, dinner booked |
            reminder about {p} on {v}
        """),
        ask=_items("""
            When is {p}'s birthday? | On what date does {p} celebrate their birthday? | What is {p}'s date of
            birth (day and month)? | Which day is {p}'s birthday?
        """),
        answer="{v}", keys=("{p}", "{v}"), unique=("p",), ns="p-gift",
    ),
    _Spec(
        "their_pref", "stable", "work", (("p", "people"),),
        category="entity", subject="{p}'s working preference",
        values=_items("""
            async code reviews | morning meetings | Slack over email | written proposals before meetings |
            pairing on tricky bugs | cameras off in calls | short daily check-ins
        """),
        state=_items("""
            {p} told me they prefer {v} | {p} said they work best with {v} | apparently {p} much prefers {v} |
            {p} mentioned preferring {v}
        """),
        again=_items("""
            {p} asked for {v} again | went with {v} for {p}, as they like | {p} really does love {v} |
            remembered {p}'s thing about {v}
        """),
        ask=_items("""
            What working style does {p} prefer, according to the user? | What does {p} like when working
            together? | What did {p} say works best for them? | Which way of collaborating suits {p}?
        """),
        answer="{v}", keys=("{p}", "{v}"), unique=("p",), ns="p-pref",
    ),
    _Spec(
        "failing", "stable", "software", (("job", "@failing_jobs"), ("v", "@failure_causes")),
        category="failure_pattern", subject="{job} failures", speaker="assistant",
        lead=_items("""
            why does {job} keep failing? | {job} failed again... | any idea what's up with {job}? | {job} is red
            again
        """),
        state=_items("""
            {job} keeps failing because {v}. | Looking at the logs, it's the same pattern every time: {v}, and
            then {job} falls over. | {job} breaks because {v}; that's been the root cause each time. | The
            recurring failure in {job} comes down to this: {v}.
        """),
        again=_items("""
            {job} failed again, same thing: {v} | yep, {job} again, {v} | {job} down again because {v} | as
            usual {job} broke since {v}
        """),
        ask=_items("""
            Why does {job} keep failing? | What is the recurring cause of {job} failures? | What makes {job}
            break repeatedly? | What's the root cause behind {job} failing?
        """),
        answer="{v}", keys=("{v}",),
    ),
    _Spec(
        "flaky", "stable", "software", (("svc", "services"), ("fn", "fn"), ("v", "@flaky_causes")),
        category="failure_pattern", subject="flaky test_{fn} in {svc}",
        state=_items("""
            test_{fn} in {svc} keeps failing because {v} | the flaky test_{fn} in {svc}? {v}, every time |
            figured out why test_{fn} in {svc} is flaky: {v} | test_{fn} ({svc}) fails randomly because {v}
        """),
        again=_items("""
            test_{fn} in {svc} flaked again, {v} | same story with test_{fn} in {svc}: {v} | {svc} CI red
            because of test_{fn} again, {v} | test_{fn} again. {v}. we should fix it
        """),
        ask=_items("""
            Why is test_{fn} in {svc} flaky? | What makes test_{fn} in {svc} fail intermittently? | What's
            behind the random failures of test_{fn} in {svc}? | Why does {svc}'s test_{fn} fail now and then?
        """),
        answer="{v}", keys=("{fn}", "{v}"), unique=("svc", "fn"),
    ),
    _Spec(
        "timeout", "stable", "software", (("svc", "services"),),
        category="domain_fact", subject="{svc} upstream timeout", speaker="assistant",
        values=_items("""2 seconds | 5 seconds | 10 seconds | 30 seconds | 45 seconds"""),
        lead=_items("""
            what's the upstream timeout in {svc} again? | how long does {svc} wait on upstreams? | remind me of
            the {svc} timeout setting? | does {svc} time out upstream calls?
        """),
        state=_items("""
            The upstream timeout for {svc} is {v}. | {svc} gives up on upstream calls after {v}. | {svc} times
            out upstream requests at {v}. | Calls from {svc} to its upstreams are cut off at {v}.
        """),
        again=_items("""
            {svc} hit the {v} timeout again | the {v} upstream timeout in {svc} fired | {v} timeout in {svc}
            might be too short | saw {svc} give up after {v}
        """),
        ask=_items("""
            What is {svc}'s upstream timeout? | After how long does {svc} abandon upstream calls? | How long
            does {svc} wait for its upstreams? | What's the upstream timeout configured for {svc}?
        """),
        answer="{v}", keys=("{svc}", "{v}"), unique=("svc",),
    ),
    _Spec(
        "billing_cycle", "stable", "work", (("client", "clients"),),
        category="domain_fact", subject="{client} billing cycle",
        values=_items("""monthly | quarterly | annually | every six months"""),
        state=_items("""
            {client} is billed {v} | we invoice {client} {v} | {client} pays {v} | billing for {client} happens
            {v}
        """),
        again=_items("""
            sent {client}'s invoice, {v} as usual | {client} paid, {v} cycle | {v} invoice for {client} is out |
            {client} billing ({v}) went through
        """),
        ask=_items("""
            How often is {client} invoiced? | What is {client}'s billing cycle? | How frequently does {client}
            pay? | At what interval does {client} get billed?
        """),
        answer="{v}", keys=("{client}", "{v}"), unique=("client",), ns="client-billing",
    ),
    _Spec(
        "meeting_free", "stable", "work",
        category="constraint", subject="meeting-free morning",
        values=_items("""Monday | Tuesday | Wednesday | Thursday | Friday"""),
        state=_items("""
            please never book me meetings on {v} mornings | {v} mornings are meeting-free for me, always | no
            meetings on {v} mornings please, that's my focus time | I block {v} mornings, no meetings
        """),
        again=_items("""
            someone booked a {v} morning meeting, declined | {v} morning focus time was great | protecting {v}
            morning again | {v} morning: no meetings, as usual
        """),
        ask=_items("""
            Which morning does the user keep free of meetings? | On what weekday morning does the user refuse
            meetings? | Which morning is the user's meeting-free focus time? | When does the user block mornings
            for focus?
        """),
        answer="{v}", keys=("{v}",),
    ),
    _Spec(
        "holiday", "stable", "personal", (("hol", "holidays"), ("v", "cities")),
        category="decision", subject="where to spend {hol}",
        state=_items("""
            we decided to spend {hol} in {v} | {hol} plan is settled: {v} | let's go with {v} for {hol} | family
            vote done, {hol} in {v}
        """),
        again=_items("""
            {hol} in {v} is booked | can't wait for {hol} in {v} | packing list for {v} over {hol} | {v} for
            {hol}, confirmed with everyone
        """),
        ask=_items("""
            Where is the family spending {hol}? | Where will the user be for {hol}? | What destination was
            chosen for {hol}? | Which city did the family pick for {hol}?
        """),
        answer="{v}", keys=("{hol}", "{v}"), unique=("hol",),
    ),
    _Spec(
        "budget", "stable", "personal", (("event", "budget_events"),),
        category="constraint", subject="{event} budget",
        values=_items("""$1,500 | $3,000 | $800 | $2,500 | $5,000"""),
        state=_items("""
            the budget for the {event} is capped at {v} | we can't go over {v} for the {event} | hard limit of
            {v} on the {event} | {v} max for the {event}, no exceptions
        """),
        again=_items("""
            the {event} is still under {v} | careful, the {event} is close to {v} | {v} cap on the {event}
            holding | {event} spending vs the {v} cap looks fine
        """),
        ask=_items("""
            What is the spending limit for the {event}? | How much can be spent on the {event}? | What's the cap
            on the {event} budget? | What is the maximum budget for the {event}?
        """),
        answer="{v}", keys=("{event}", "{v}"), unique=("event",),
    ),
    _Spec(
        "sla", "stable", "work", (("proj", "projects"),),
        category="domain_fact", subject="{proj} uptime SLA",
        values=_items("""99.5% | 99.9% | 99.95%"""),
        state=_items("""
            {proj} has a {v} uptime SLA | the {proj} SLA is {v} uptime | we promise {v} uptime for {proj} |
            {proj} customers get a {v} availability SLA
        """),
        again=_items("""
            {proj} stayed above {v} this month | that outage nearly broke the {v} for {proj} | {v} SLA for
            {proj}, still fine | uptime report for {proj}: above {v}
        """),
        ask=_items("""
            What uptime does the {proj} SLA promise? | What availability is guaranteed for {proj}? | What's
            {proj}'s uptime commitment? | Which SLA percentage applies to {proj}?
        """),
        answer="{v}", keys=("{proj}", "{v}"), unique=("proj",),
    ),
)
# fmt: on

# fmt: off
DISTRACTOR_SPECS: tuple[_Spec, ...] = (
    _Spec(
        "hypothetical", "distractor", "software", (("svc", "services"), ("proj", "projects"), ("x", "alt_tech")),
        category="hypothetical",
        state=_items("""
            if we decided to use {x} for {svc}, we'd have to rewrite the workers | what if we moved {proj} to
            {x}? just thinking out loud | suppose we always squashed commits, would bisect still work? |
            hypothetically, if {svc} ran on {x}, would the costs go down? | imagine we never deployed on
            Mondays, would anything change? | in theory we could switch {proj} to {x}, but not now
        """),
    ),
    _Spec(
        "question", "distractor", "software", (("svc", "services"), ("proj", "projects"), ("x", "alt_tech")),
        category="question",
        state=_items("""
            should we always run the e2e suite before merging? | do you think we should switch {proj} to {x}? |
            should {svc} use {x}? not sure | would it be smarter to never deploy on Mondays? | is it worth
            moving {svc} to {x} at some point? | should I always write the tests first?
        """),
    ),
    _Spec(
        "temporary", "distractor", "software", (("svc", "services"), ("proj", "projects")),
        category="temporary",
        state=_items("""
            just for today, skip the linter on {svc} | for this one PR, ignore the coverage check | only this
            week: no standup, people are out | this time only, let's deploy {proj} on a Friday | for now, until
            lunch, don't touch {svc} | today only: merge without the second approval on {proj}
        """),
    ),
    _Spec(
        "rejected", "distractor", "software", (("svc", "services"), ("proj", "projects"), ("x", "alt_tech")),
        category="rejected",
        state=_items("""
            we considered {x} for {svc} but decided against it | {x} was on the table for {proj}, we said no |
            not going with {x} for {proj}, too expensive | we looked at {x} for {svc} and passed | {x} for
            {svc}? discussed it, rejected | ruled out {x} for {proj} after the spike
        """),
    ),
    _Spec(
        "personal_maybe", "distractor", "personal", (("city", "cities"),),
        category="hypothetical",
        state=_items("""
            if I ever went vegan I'd miss cheese too much | maybe one day we'll move to {city}, who knows | what
            if I tried running a marathon? lol no | thinking we might go to {city} someday, no plans | if I had
            more time I'd learn the cello | if trains were cheaper I'd never fly again
        """),
    ),
)
# fmt: on

# fmt: off
PLANT_PREAMBLE = ("", "", "", "oh btw, ", "unrelated, but ", "before I forget: ", "quick note: ", "also, ",
                  "side note: ", "ok so, ", "fyi ")
PLANT_TRAILER = ("", "", "", ". anyway", " lol", ", just so it's written down somewhere", ". more on that later",
                 " :)", " (noting it here)")
# fmt: on
PLANT_ACK = _items("""
    Noted. | Got it, I'll keep that in mind. | Thanks for the heads-up. | Okay, noted for later. | Understood. |
    Good to know! | Thanks, noted. | Oh nice. | Ah, okay. | Makes sense.
""")

# fmt: off
PLANT_POOLS: dict[str, Any] = {
    "pet_kinds": _words("dog cat puppy kitten rabbit parrot tortoise hamster"),
    "trip_kinds": _items("conference | wedding | long weekend | work trip | family visit | city break"),
    "school_subjects": _words("maths science English history art music PE French"),
    "titles": _words("Ms Mr Mrs"), "intervals": _items("3 days | 5 days | week | 10 days | two weeks"),
    "times": TIMES, "rels": RELS, "dishes": DISHES, "weekdays": WEEKDAYS[:5], "roles": ROLES,
    "months": MONTH_NAMES, "libs": LIBS,
    "reduce_foods": _items("salt | sugar | red meat | caffeine | alcohol | fried food | cheese | processed snacks"),
    "instruments": _words("piano violin cello drums trumpet flute ukulele clarinet"),
    "kid_events": _items("""school play | piano recital | football tournament | science fair | swimming gala |
                            art exhibition | spelling bee | chess tournament | ballet show | sports day"""),
    "holidays": _items("Easter | the summer holidays | Christmas | New Year | the autumn break | the spring break"),
    "budget_events": _items("""team offsite | kitchen renovation | summer trip | birthday party |
                               wedding anniversary dinner | office move"""),
    "alt_tech": _items("""Redis | Kubernetes | a serverless setup | Rust | GraphQL | Elixir | Nomad | Cassandra |
                          a service mesh | gRPC"""),
}
# fmt: on

# ---------------------------------------------------------------- probe candidates
# Present candidates besides entity names and planted values: noun phrases the noise templates use
# (often in the plural or capitalised, so the probe differs from the text in case or number).
NOUN_PHRASES = _items("""
    refresh token | connection pool | pull request | sourdough starter | half marathon | code review | load
    balancer | health check | job post | sprint goal | barre chord | night photography | tomato plant | book
    club | idempotency key | cursor pagination | replica lag | heap snapshot | visibility timeout | incident
    review | deprecation notice | design doc | jet lag | day trip | meal prep | strength routine | extractor fan
    | emergency fund | dripping tap | screen time | birthday party | offline map | flaky test | memory leak |
    stack trace | bundle size | date picker | screen reader | infinite scroll | system design | base image |
    canary | readiness check | signing key | access token | session cookie | retry logic | property-based test |
    sprint | retro | roadmap | quarterly update | agenda | take-home | volcano | chess opening | kit lens |
    radiator | monthly budget | car loan | anti-mould paint | oak floor | chickpea | spinach | steak | OpenAPI |
    JSONB | GraphQL | webhook | deadlock | tracemalloc | py-spy | dark theme | colour contrast | blackout
    curtain | wake-up time | caffeine | magnesium | dinosaur theme | homework | headlamp | rain shell | merino
    sock | airport train | viewpoint | travel insurance | public holiday
""")

ABSENT_CLEAN_CANDIDATES = _items("""
    beekeeping | origami | falconry | taxidermy | quilting | parkour | lacrosse | curling | bobsleigh |
    kitesurfing | snowboarding | scuba diving | birdwatching | stargazing | geocaching | calligraphy |
    embroidery | crochet | knitting | macrame | glassblowing | blacksmithing | ventriloquism | juggling |
    unicycle | trampoline | karaoke | flamenco | harpsichord | bagpipes | accordion | banjo | saxophone |
    xylophone | tuba | kazoo | mandolin | harmonica | Zanzibar | Madagascar | Patagonia | Tasmania | Greenland |
    Mongolia | Kyrgyzstan | Bhutan | Uzbekistan | Fiji | Tahiti | Svalbard | Yosemite | Serengeti | Kilimanjaro
    | Saskatchewan | Manitoba | Nebraska | Wyoming | Montana | Alaska | Sardinia | Corsica | Crete | Malta |
    Cyprus | Gibraltar | Andorra | Liechtenstein | Luxembourg | Monaco | Timbuktu | Kathmandu | Ulaanbaatar |
    Samarkand | Havana | Caracas | Montevideo | sauerkraut | kimchi | haggis | goulash | borscht | tamales |
    empanadas | baklava | tiramisu | cannoli | kombucha | sushi | fondue | raclette | poutine | gumbo | nougat |
    sorbet | gelato | eclairs | meringue | custard | brisket | kebab | shawarma | gyoza | okonomiyaki | tempura
    | udon | samosa | biryani | paneer | halloumi | mozzarella | camembert | gorgonzola | prosciutto | chorizo |
    oysters | lobster | mussels | scallops | calamari | venison | quail | plumber | electrician | pharmacist |
    veterinarian | paramedic | architect | librarian | barista | bartender | hairdresser | locksmith | tailor |
    surgeon | pediatrician | optometrist | sommelier | firefighter | lifeguard | zookeeper | astronaut |
    geologist | archaeologist | meteorologist | undertaker | chimney sweep | Peloton | Lululemon | Nespresso |
    KitchenAid | Roomba | Duolingo | Spotify | Netflix | Pinterest | Etsy | Kindle | PlayStation | Nintendo |
    Fitbit | GoPro | Crocs | Adidas | Rolex | Vespa | Ducati | cricket | rugby | volleyball | softball |
    handball | badminton | pickleball | water polo | triathlon | wrestling | judo | karate | taekwondo |
    gymnastics | canoeing | surfing | skiing | golf | bowling | snooker | darts | biathlon | luge | sumo |
    axolotl | chinchilla | hedgehog | ferret | iguana | gecko | tarantula | alpaca | llama | flamingo | penguin
    | walrus | narwhal | platypus | koala | wombat | meerkat | sloth | armadillo | porcupine | ostrich | peacock
    | toucan | giraffe | rhinoceros | hippopotamus | astrology | tarot | numerology | crossword | sudoku |
    jigsaw | escape room | haunted house | mini golf | go-karts | paintball | laser tag | bingo | poker |
    mahjong | backgammon | dominoes | bonfire | fireworks | carnival | rodeo | circus | planetarium | aquarium |
    lighthouse keeper | sailboat | submarine | zeppelin | hovercraft | monorail | gondola | rickshaw | tractor |
    bulldozer | snowmobile
""")

# hand-made near misses: one word occurs in the corpus, the phrase never does (checked per corpus)
ABSENT_NEAR_CANDIDATES = _items("""
    jazz festival | author | database sharding | banana pancakes | lemon meringue | chess olympiad | guitar
    amplifier | pizza dough | coffee roastery | water polo | table tennis | password manager | token bucket |
    cookie banner | session replay | cache stampede | webhook marketplace | sprint retrospective | meeting
    minutes | interview panel | roadmap workshop | customer churn | airport lounge | train strike | hotel spa |
    recipe blog | steak tartare | lemon sorbet | knee surgery | volcano eruption | guitar pedal | chess clock |
    tomato soup | cookbook | passwordless | guitarist | chessboard | breadcrumbs | coffeehouse | budgeting |
    queue jumping | index fund | endpoint security | worker union | email newsletter | calendar app | trip
    insurance | hiking club | running club | sleep tracker | headache clinic | birthday cake | homework club |
    bread machine | lemon tart | garlic festival | spinach smoothie | chickpea flour | strength coach | budget
    airline | heating engineer | mould allergy | floor lamp | bathroom tiles | coffee subscription | water park
    | sourdough pizza | book fair | chess club | photography course | guitar tuner | shoe shop | loan shark |
    tap dancing | party bus | cooking show | fitness tracker | marathon runner | doctor appointment app |
    meeting room booking | salary negotiation | code golf | review bomb | test cricket | performance review |
    frontend bootcamp | design sprint | hiring freeze | writing retreat | travel blog | family tree | hobby
    horse | home insurance | kitchen garden | city marathon | weekend market | morning yoga | evening class |
    night market | winter coat | summer camp | spring cleaning | autumn leaves | dog park | cat cafe | data
    breach | cloud storage | server rack | mobile game | search party | platform shoes | payments bank | growth
    hormone | identity theft | commerce degree
""")
NEAR_PLACE_SUFFIXES = (
    "aquarium",
    "opera house",
    "botanical garden",
    "tram museum",
    "zoo",
    "film festival",
    "marathon",
    "flea market",
)
NEAR_PROJECT_SUFFIXES = ("hackathon", "podcast", "newsletter", "mascot", "merch")


# ---------------------------------------------------------------- text helpers (how labels are checked)

_WORD = re.compile(r"[a-z0-9]+")
STOPWORDS = frozenset(
    _words("""a an and the of in on at to for with by from or is are was be it its this that my our your their his
              her i we you they me us them do does did not no as if so but than then there here about into over
              after before up down out off""")
)


def normalize(text: str) -> str:
    """Whitespace collapsed and case-folded, as labels and evidence are compared."""
    return " ".join(text.split()).casefold()


_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


def find_mentions(text: str, needle: str) -> list[int]:
    """Start offsets of whole-word occurrences of needle in text, a plural s/es allowed after it.

    Word characters are ASCII letters and digits; compare normalized text with a normalized
    needle for case-insensitive matching.  (A plain scan: regexes with a look-behind are slow.)
    """
    hits = []
    size = len(needle)
    i = text.find(needle)
    while i >= 0:
        if i == 0 or text[i - 1] not in _ALNUM:
            j = i + size
            end_ok = j >= len(text) or text[j] not in _ALNUM
            if not end_ok and text[j] == "s":
                end_ok = j + 1 >= len(text) or text[j + 1] not in _ALNUM
            if not end_ok and text.startswith("es", j):
                end_ok = j + 2 >= len(text) or text[j + 2] not in _ALNUM
            if end_ok:
                hits.append(i)
        i = text.find(needle, i + 1)
    return hits


def mentions(normalized_text: str, topic: str) -> bool:
    """Whole-word, case-insensitive occurrence of topic (a plural s/es allowed), as membench checks."""
    return bool(find_mentions(normalized_text, normalize(topic)))


def content_words(topic: str) -> list[str]:
    return [w for w in _WORD.findall(topic.casefold()) if w not in STOPWORDS]


def stem(word: str) -> str:
    """Light suffix stripping (plural, -ing, -ed), only to decide whether words are related."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


class Vocabulary:
    """The words of a corpus, their stems and their proper prefixes of >= 4 letters."""

    def __init__(self, words: Any) -> None:
        self.words = set(words)
        self.stems = {stem(w) for w in self.words}
        self.prefixes = {w[:k] for w in self.words for k in range(4, len(w))}

    def _prefix_related(self, word: str) -> bool:
        return len(word) >= 4 and (word in self.prefixes or any(word[:k] in self.words for k in range(4, len(word))))

    def shares_word(self, topic: str) -> bool:
        """Some content word of topic occurs in the corpus, or starts with / begins a corpus word (author, auth)."""
        return any(w in self.words or self._prefix_related(w) for w in content_words(topic))

    def unrelated(self, topic: str) -> bool:
        """No content word of topic, nor its stem, nor a prefix relation, occurs in the corpus."""
        words = content_words(topic)
        return bool(words) and not any(
            w in self.words or stem(w) in self.stems or self._prefix_related(w) for w in words
        )


def _half(seq: list[Any] | tuple[Any, ...], split: str) -> list[Any]:
    return list(seq[PARITY[split] :: 2])


def template_text(key: str) -> str:
    """The template behind a key from meta["templates"] ("spec.bank.index", "spec.fresh_bank.index", ...)."""
    spec_key, bank, index = key.rsplit(".", 2)
    spec = SPECS_BY_KEY[spec_key]
    split = next((s for s, prefix in BANK_PREFIX.items() if bank.startswith(prefix)), None)
    if split is not None:
        templates = REPLACED_BANKS[split][spec_key][bank.removeprefix(BANK_PREFIX[split])]
    elif bank.startswith("hop"):
        templates = spec.hops[int(bank[3:])]
    else:
        templates = getattr(spec, bank)
    return str(templates[int(index)])


ALL_SPECS: tuple[_Spec, ...] = (
    SINGLE_SPECS
    + PARAPHRASE_SPECS
    + TEMPORAL_SPECS
    + MULTI_SPECS
    + LIST_SPECS
    + CHANGE_SPECS
    + STABLE_SPECS
    + DISTRACTOR_SPECS
)
SPECS_BY_KEY: dict[str, _Spec] = {s.key: s for s in ALL_SPECS}
# banks whose entries are split between dev and test (checked by the tests)
SPLIT_BANKS = ("state", "ask", "lead", "change", "again", "decoy", "hop0", "hop1", "hop2")


# ---------------------------------------------------------------- the generator


class _Slots(dict[str, Any]):
    """Template slots drawn on first use, so a template only pays for the slots it names."""

    __slots__ = ("pools", "rnd")

    def __init__(self, pools: dict[str, Any], rnd: Callable[[], float]) -> None:
        super().__init__()
        self.pools = pools
        self.rnd = rnd

    def __missing__(self, key: str) -> Any:
        pool = self.pools[key]
        value = pool[int(self.rnd() * len(pool))]
        if key[-1] == "2" and self.get(key[:-1]) == value:  # city2 != city, svc2 != svc
            value = pool[(pool.index(value) + 1) % len(pool)]
        self[key] = value
        return value


class _Session:
    __slots__ = ("domain", "turns")

    def __init__(self, domain: str, turns: list[Any]) -> None:
        self.domain = domain
        self.turns = turns


class _Builder:
    def __init__(
        self,
        seed: int,
        days: int,
        chunks_per_day: int | tuple[int, int],
        start: date,
        split: str,
        tz: str,
    ) -> None:
        if split not in SPLITS:
            raise ValueError(f"split must be one of {SPLITS}, not {split!r}")
        if days < 1:
            raise ValueError("days must be >= 1")
        lo, hi = (chunks_per_day, chunks_per_day) if isinstance(chunks_per_day, int) else chunks_per_day
        if not 0 <= lo <= hi:
            raise ValueError(f"bad chunks_per_day: {chunks_per_day!r}")
        self.seed, self.days, self.lo, self.hi = seed, days, lo, hi
        self.start, self.split = start, split
        self.zone = ZoneInfo(tz)
        self.half = PARITY[split]
        # splits "fresh", "dev2" and "dev3": banks replaced by new wordings, by spec key and bank name
        self.replaced: dict[str, dict[str, tuple[str, ...]]] = REPLACED_BANKS.get(split, {})
        self.bank_prefix = BANK_PREFIX.get(split, "")
        self.prefix = f"{ID_PREFIX[split]}{seed}"
        base = f"memtree-corpus/{GENERATOR_VERSION}/{seed}/{split}"
        self.nrng = random.Random(base + "/noise")
        self.trng = random.Random(base + "/time")
        self.prng = random.Random(base + "/plant")
        self.pools = {name: _half(pool, split) for name, pool in SPLIT_POOLS.items()}
        self.noise_pools: dict[str, list[Any]] = dict(NOISE_POOLS)
        people, cities, services = self.pools["people"], self.pools["cities"], self.pools["services"]
        self.noise_pools.update(
            p=people,
            p2=people,
            kid=self.pools["kids"],
            city=cities,
            city2=cities,
            client=self.pools["clients"],
            proj=self.pools["projects"],
            svc=services,
            svc2=services,
            team=self.pools["teams"],
        )
        self.plant_pools: dict[str, list[Any]] = {**self.noise_pools, **PLANT_POOLS, **self.pools}
        self.recent: list[str] = []  # recent user openers, for re-asked questions

    # ------------------------------------------------------------ schedule and noise

    def day_counts(self) -> list[int]:
        rnd = self.nrng.random
        mean = (self.lo + self.hi) / 2
        weights: list[float] = []
        quiet_until = -1
        for d in range(self.days):
            if d > quiet_until + 7 and d > 3 and rnd() < 1 / 60:
                quiet_until = d + 3 + int(rnd() * 5)  # a quiet stretch of 4-8 days, every ~2 months
            weekday = (self.start + timedelta(days=d)).weekday()
            r = rnd()
            if d <= quiet_until:
                w = 0.0
            elif weekday >= 5:
                w = 0.0 if r < 0.6 else 0.25 + 0.3 * rnd()
            elif r < 0.08:
                w = 0.0
            elif r > 0.92:
                w = 2.2 + 0.8 * rnd()  # a very busy day
            else:
                w = 0.6 + 0.8 * rnd()
            spread = self.lo + (self.hi - self.lo) * rnd() if self.hi > self.lo else mean * (0.7 + 0.6 * rnd())
            weights.append(w * spread)
        total = sum(weights)
        if total <= 0:
            weights[0], total = 1.0, 1.0
        scale = self.days * mean / total
        counts = [int(w * scale + rnd()) if w else 0 for w in weights]
        if max(counts) > MAX_CHUNKS_PER_DAY:
            raise ValueError(f"more than {MAX_CHUNKS_PER_DAY} chunks on one day; lower chunks_per_day")
        return counts

    def noise(self) -> list[list[_Session]]:
        rnd = self.nrng.random
        out: list[list[_Session]] = []
        for d, n in enumerate(self.day_counts()):
            weekend = (self.start + timedelta(days=d)).weekday() >= 5
            sessions: list[_Session] = []
            while n > 0:
                size = 2 + int(rnd() * rnd() * 29)
                if n - size < 2:
                    size = n
                r = rnd()
                if weekend:
                    domain = "personal" if r < 0.85 else "software" if r < 0.95 else "work"
                else:
                    domain = "software" if r < 0.5 else "work" if r < 0.75 else "personal"
                sessions.append(_Session(domain, self.session(size, domain)))
                n -= size
            out.append(sessions)
        return out

    def session(self, size: int, domain: str) -> list[Any]:
        rnd = self.nrng.random
        topics = TOPICS_BY_DOMAIN[domain]
        turns: list[Any] = []
        add = turns.append
        slots = self._slots()
        if rnd() < 0.3:
            add(("user", _pick(GREET_USER, rnd)))
            add(("assistant", _pick(GREET_ASSIST, rnd)))
        if rnd() < 0.1:
            add(("user", _pick(SMALLTALK_USER, rnd).format_map(slots)))
            add(("assistant", _pick(SMALLTALK_ASSIST, rnd)))
        while len(turns) < size:
            topic = topics[int(rnd() * len(topics))]
            if rnd() < 0.5:
                slots = self._slots()
            which = int(rnd() * len(topic.open))
            thread = topic.threads[which]
            r = rnd()
            if r < 0.04 and self.recent:
                opener = _pick(REPEAT_PREFIX, rnd) + _pick(self.recent, rnd)
            else:
                opener = topic.open[which].format_map(slots)
                if r > 0.9:
                    self.recent.append(opener)
                    if len(self.recent) > 40:
                        del self.recent[:20]
            add(("user", opener))
            add(("assistant", self.reply(topic, thread, slots)))
            for _ in range(int(rnd() * 4)):
                r = rnd()
                if r < 0.5:
                    add(("user", _pick(topic.follow, rnd).format_map(slots)))
                    answer = _pick(FOLLOW_REPLY, rnd)
                    if thread[1] and rnd() < 0.35:
                        answer += " " + topic.para[_pick(thread[1], rnd)].format_map(slots)
                    add(("assistant", answer))
                elif r < 0.72:
                    ack = _pick(ACK_USER, rnd)
                    add(("user", ack))
                    if rnd() < 0.1:
                        add(("user", ack))  # sent twice
                    if rnd() < 0.6:
                        add(("assistant", _pick(ACK_ASSIST, rnd)))
                elif r < 0.8:
                    add(("user", _pick(SMALLTALK_USER, rnd).format_map(slots)))
                    add(("assistant", _pick(SMALLTALK_ASSIST, rnd)))
                elif r < 0.85:
                    add(("user", _pick(REPEAT_PREFIX, rnd) + opener))
                    short = topic.short[_pick(thread[0], rnd)].format_map(slots)
                    add(("assistant", _pick(ASSIST_REPEAT_PREFIX, rnd) + short))
                else:
                    break
            if rnd() < 0.15:
                add(("user", _pick(CLOSE_USER, rnd)))
                add(("assistant", _pick(CLOSE_ASSIST, rnd)))
        del turns[size:]
        return turns

    def _slots(self) -> _Slots:
        return _Slots(self.noise_pools, self.nrng.random)

    def reply(self, topic: _Topic, thread: tuple[tuple[int, ...], ...], slots: _Slots) -> str:
        """An answer to the opener: a short reply, often a matching paragraph, sometimes a long explanation."""
        rng = self.nrng
        rnd = rng.random
        shorts, paras, codes = thread
        short = topic.short[_pick(shorts, rnd)].format_map(slots)
        r = rnd()
        if r < 0.35 or (r < 0.55 and not paras):
            return short
        parts = [short]
        if paras:
            parts.append(topic.para[_pick(paras, rnd)].format_map(slots))
        if r < 0.72:
            return "\n\n".join(parts)
        others = [p for i, p in enumerate(topic.para) if i not in paras]
        for para in rng.sample(others, min(len(others), 2 + int(rnd() * 2))):
            parts.append(_pick(RELATED_INTRO, rnd) + " " + para.format_map(slots))
        if topic.items and rnd() < 0.7:
            items = rng.sample(topic.items, min(len(topic.items), 3 + int(rnd() * 3)))
            if rnd() < 0.5:
                body = "\n".join(f"- {item}" for item in items)
            else:
                body = "\n".join(f"{i}. {item}" for i, item in enumerate(items, 1))
            parts.append(_pick(LIST_INTRO, rnd) + "\n" + body)
        if codes:
            parts.append(topic.code[_pick(codes, rnd)].format_map(slots))
        parts.append(_pick(CLOSING_OFFER, rnd))
        return "\n\n".join(parts)

    # ------------------------------------------------------------ assembly

    def offset(self, day: date) -> str:
        raw = datetime(day.year, day.month, day.day, 12, tzinfo=self.zone).strftime("%z")
        return f"{raw[:3]}:{raw[3:]}"

    def assemble(self, days: list[list[_Session]]) -> list[dict[str, Any]]:
        rnd = self.trng.random
        chunks: list[dict[str, Any]] = []
        add = chunks.append
        prefix = self.prefix
        n = 0
        s_n = 0
        for d, sessions in enumerate(days):
            if not sessions:
                continue
            day = self.start + timedelta(days=d)
            day_s = day.isoformat()
            off = self.offset(day)
            total = sum(len(s.turns) for s in sessions)
            begin = 7 * 3600 + rnd() * 5400
            avail = 23.5 * 3600 - begin
            mean_gap = min(150.0, avail * 0.55 / total)
            gaps = [max(1.0, mean_gap * (0.3 + 1.4 * rnd())) for _ in range(total)]
            spare = max(0.0, avail - sum(gaps))
            between = [rnd() + 0.05 for _ in range(len(sessions) + 1)]
            unit = spare / sum(between)
            t = begin + between[0] * unit
            g = 0
            for i, session in enumerate(sessions):
                sid = f"{prefix}-s{s_n:05d}"
                s_n += 1
                for turn in session.turns:
                    sec = int(t)
                    h, rest = divmod(sec, 3600)
                    m, s = divmod(rest, 60)
                    cid = f"{prefix}-{n:06d}"
                    n += 1
                    add(
                        {
                            "id": cid,
                            "timestamp": f"{day_s}T{h:02d}:{m:02d}:{s:02d}{off}",
                            "speaker": turn[0],
                            "text": turn[1],
                            "session": sid,
                        }
                    )
                    if len(turn) == 3:
                        turn[2]["id"] = cid
                    t += gaps[g]
                    g += 1
                t += between[i + 1] * unit
        return chunks

    def asked_at(self) -> str:
        end = self.start + timedelta(days=self.days)
        return f"{end.isoformat()}T09:00:00{self.offset(end)}"


def _pick(seq: Sequence[T], rnd: Callable[[], float]) -> T:
    return seq[int(rnd() * len(seq))]


# ---------------------------------------------------------------- planting


# values taken without replacement whose mentions make good "rare" present probes
RARE_POOLS = _words(
    "hotels restaurants books pet_names cars races plants surnames appointments docs evals gifts rooms codenames"
)


class _Planter:
    def __init__(self, builder: _Builder, days: list[list[_Session]]) -> None:
        self.b = builder
        self.days = days
        self.rng = builder.prng
        self.rnd = builder.prng.random
        self.active = [d for d, sessions in enumerate(days) if sessions]
        self.bags: dict[str, list[Any]] = {}
        self.used: set[tuple[Any, ...]] = set()
        self.questions: list[dict[str, Any]] = []
        self.facts: list[dict[str, Any]] = []
        self.distractors: list[dict[str, Any]] = []
        self.markers: list[dict[str, Any]] = []
        self.rare: list[str] = []  # planted-only values, candidates for rarely mentioned present probes

    # ------------------------------------------------------------ values

    def bag(self, name: str) -> list[Any]:
        if name in self.bags:
            return self.bags[name]
        rng = self.rng
        if name == "ticket":
            tag = self.b.pools["projects"][0][:3].upper()
            bag: list[Any] = [f"{tag}-{n}" for n in rng.sample(range(1000, 10000), 3000)]
        elif name == "port":
            bag = [str(n) for n in rng.sample(range(3001, 9990), 3000)]
        elif name == "flight":
            codes = ("TP", "LH", "AF", "KL", "BA", "IB", "AZ", "SK", "AY", "OS", "LX", "EI")
            bag = [f"{codes[k % len(codes)]}{n}" for k, n in enumerate(rng.sample(range(100, 3000), 2000))]
        elif name == "run_time":
            bag = [f"{m}:{s:02d}" for m in range(19, 60) for s in range(3, 60, 7)]
            bag += [f"1:{m:02d}:{s:02d}" for m in range(40, 60) for s in range(5, 60, 11)]
        elif name == "bday":
            bag = [f"{MONTH_NAMES[m]} {d}" for m in range(12) for d in range(1, 29)]
        elif name == "release":
            bag = [f"{a}.{b}" for a in range(2, 9) for b in range(10, 40)]
        else:
            bag = list(self.b.plant_pools[name])
        if name not in ("ticket", "port", "flight"):
            rng.shuffle(bag)
        self.bags[name] = bag
        return bag

    def take(self, name: str) -> Any:
        bag = self.bag(name)
        if not bag:
            return None
        value = bag.pop()
        if name in RARE_POOLS:
            if name == "evals":
                self.rare.extend(value[1])
            else:
                self.rare.append(value)
        return value

    def instance(self, spec: _Spec) -> _Slots | None:
        """Slot values for one use of spec, or None when its unique values have run out."""
        ns = spec.ns or spec.key
        for _ in range(25):
            vals = _Slots(self.b.plant_pools, self.rnd)
            seen: dict[str, list[Any]] = {}
            clash = False
            for slot, pool in spec.slots:
                if pool.startswith("@"):
                    continue
                value = _pick(self.b.plant_pools[pool], self.rnd)
                clash = clash or value in seen.setdefault(pool, [])
                seen[pool].append(value)
                vals[slot] = value
            key = (ns, *(vals[s] for s in spec.unique))
            # a fact about one fixed subject ("the user's diet") is planted once
            once = bool(spec.unique) or (
                spec.kind in ("change", "stable") and not any(pool.startswith("@") for _, pool in spec.slots)
            )
            if clash or (once and key in self.used):
                continue
            for slot, pool in spec.slots:
                if not pool.startswith("@"):
                    continue
                value = self.take(pool[1:])
                if value is None:
                    return None
                if "+" in slot:
                    first, second = slot.split("+")
                    vals[first], vals[second] = value
                else:
                    vals[slot] = value
            if once:
                self.used.add(key)
            return vals
        return None

    def fact_values(self, spec: _Spec, vals: dict[str, Any], n: int) -> list[str] | None:
        if spec.values == ("@version",):
            major, minor = 1 + int(self.rnd() * 6), 10 + int(self.rnd() * 20)
            out = []
            for _ in range(n):
                out.append(f"{major}.{minor}")
                minor += 1 + int(self.rnd() * 4)
            return out
        if len(spec.values) == 1 and spec.values[0].startswith("@"):
            name = spec.values[0][1:]
            if name in RARE_POOLS or name in ("allergens", "deploy_causes"):
                picked = [self.take(name) for _ in range(n)]
                return None if None in picked else picked
            avoid = set(vals.values())
            candidates = [v for v in self.b.plant_pools[name] if v not in avoid]
        else:
            candidates = list(spec.values)
        if len(candidates) < n:
            return None
        return self.rng.sample(candidates, n)

    # ------------------------------------------------------------ days and placement

    def any_day(self) -> int:
        return _pick(self.active, self.rnd)

    def distinct_days(self, k: int) -> list[int] | None:
        if len(self.active) < k:
            return None
        return sorted(self.rng.sample(self.active, k))

    def change_days(self, k: int) -> list[int] | None:
        act = self.active
        if len(act) < k:
            return None
        idx = [int(self.rnd() * max(1, int(len(act) * 0.5)))]
        for _ in range(k - 1):
            lo = idx[-1] + 1
            while lo < len(act) - 1 and act[lo] - act[idx[-1]] < 5:
                lo += 1
            if lo >= len(act):
                return None
            hi = lo + int((len(act) - 1 - lo) * 0.6)
            idx.append(lo + int(self.rnd() * (hi - lo + 1)))
        return [act[i] for i in idx]

    def later_day(self, after: int, before: int | None = None) -> int | None:
        options = [d for d in self.active if d > after and (before is None or d < before)]
        return _pick(options, self.rnd) if options else None

    def put(self, day: int, domain: str, turns: list[Any]) -> None:
        sessions = self.days[day]
        same = [s for s in sessions if s.domain == domain]
        session = _pick(same if same and self.rnd() < 0.8 else sessions, self.rnd)
        tl = session.turns
        spots = [i for i in range(1, len(tl) + 1) if tl[i - 1][0] == "assistant"] or list(range(len(tl) + 1))
        at = _pick(spots, self.rnd)
        tl[at:at] = turns

    def render(self, spec: _Spec, bank: str, vals: dict[str, Any]) -> tuple[str, str]:
        replaced = self.b.replaced.get(spec.key, {}).get(bank)
        if replaced:
            index = int(self.rnd() * len(replaced))
            return replaced[index].format_map(vals), f"{spec.key}.{self.b.bank_prefix}{bank}.{index}"
        templates = spec.hops[int(bank[3:])] if bank.startswith("hop") else getattr(spec, bank)
        index = self.b.half + 2 * int(self.rnd() * ((len(templates) - self.b.half + 1) // 2))
        return templates[index].format_map(vals), f"{spec.key}.{bank}.{index}"

    def state(
        self, spec: _Spec, bank: str, vals: dict[str, Any], day: int, speaker: str | None = None
    ) -> dict[str, Any]:
        speaker = speaker or spec.speaker
        text, key = self.render(spec, bank, vals)
        # the slot values as this chunk says them, so an evaluation can check what a fact from it holds
        slots = {name: value for name, value in vals.items() if isinstance(value, str)}
        marker: dict[str, Any] = {"id": None, "day": day, "template": key, "slots": slots}
        self.markers.append(marker)
        if speaker == "assistant":
            lead, _ = self.render(spec, "lead", vals)
            turns: list[Any] = [("user", lead), ["assistant", text, marker]]
        else:
            trailer = _pick(PLANT_TRAILER, self.rnd)
            if text[-1] in "!?." and trailer[:1] in (",", "."):
                trailer = ""
            preamble = _pick(PLANT_PREAMBLE, self.rnd)
            if preamble and self.rnd() < 0.4:
                preamble = preamble.capitalize()  # the template may start with a name or an identifier
            text = preamble + text + trailer
            turns = [["user", text, marker]]
            if self.rnd() < 0.5:
                turns.append(("assistant", _pick(PLANT_ACK, self.rnd)))
        self.put(day, spec.domain, turns)
        return marker

    def question(
        self,
        category: str,
        spec: _Spec,
        vals: dict[str, Any],
        answer: str | None,
        evidence: list[dict[str, Any]],
        keys: list[str],
    ) -> None:
        text, key = self.render(spec, "ask", vals)
        self.questions.append(
            {
                "category": category,
                "question": text,
                "answer": answer,
                "evidence": evidence,
                "keys": keys,
                "template": key,
                "decoys": [],
            }
        )

    def fact(
        self,
        spec: _Spec,
        vals: dict[str, Any],
        value: str,
        stated: list[dict[str, Any]],
        superseded_by: str | None = None,
        superseded_at: int | None = None,
    ) -> None:
        self.facts.append(
            {
                "category": spec.category,
                "subject": spec.subject.format_map(vals),
                "value": value,
                "stated": stated,
                "superseded_by": superseded_by,
                "superseded_at": superseded_at,
            }
        )

    # ------------------------------------------------------------ kinds

    def simple(self, spec: _Spec, category: str) -> bool:
        vals = self.instance(spec)
        if vals is None:
            return False
        marker = self.state(spec, "state", vals, self.any_day())
        answer = None if category == "temporal" else spec.answer.format_map(vals)
        self.question(category, spec, vals, answer, [marker], [k.format_map(vals) for k in spec.keys])
        if spec.decoy:  # chunks that share the question's words but do not answer it
            for _ in range(1 + int(self.rnd() * 2)):
                self.questions[-1]["decoys"].append(self.state(spec, "decoy", vals, self.any_day()))
        return True

    def multi(self, spec: _Spec) -> bool:
        days = self.distinct_days(len(spec.hops))
        if days is None:
            return False
        vals = self.instance(spec)
        if vals is None:
            return False
        markers = [self.state(spec, f"hop{i}", vals, day) for i, day in enumerate(days)]
        self.question(
            "multi-hop", spec, vals, spec.answer.format_map(vals), markers, [k.format_map(vals) for k in spec.keys]
        )
        return True

    def listing(self, spec: _Spec) -> bool:
        k = 2 + int(self.rnd() * 2)
        days = self.distinct_days(k)
        if days is None:
            return False
        vals = self.instance(spec)
        if vals is None:
            return False
        chosen = self.rng.sample(list(vals["items"]), k)
        markers = []
        for item, day in zip(chosen, days, strict=True):
            vals["item"], vals["opinion"] = item, _pick(OPINIONS, self.rnd)
            markers.append(self.state(spec, "hop0", vals, day))
        answer = ", ".join(chosen[:-1]) + " and " + chosen[-1]
        self.question("multi-hop", spec, vals, answer, markers, chosen)
        return True

    def change(self, spec: _Spec) -> bool:
        n = 3 if self.rnd() < 0.2 else 2
        days = self.change_days(n)
        if days is None:
            return False
        vals = self.instance(spec)
        if vals is None:
            return False
        values = self.fact_values(spec, vals, n)
        if values is None:
            return False
        stated: list[list[dict[str, Any]]] = []
        for i, (value, day) in enumerate(zip(values, days, strict=True)):
            vals["v"] = value
            if i:
                vals["old"] = values[i - 1]
            stated.append([self.state(spec, "change" if i else "state", vals, day)])
            if i < n - 1 and self.rnd() < 0.3:
                again = self.later_day(day, days[i + 1])
                if again is not None:
                    stated[-1].append(self.state(spec, "again", vals, again, speaker="user"))
        for i, value in enumerate(values):
            last = i == n - 1
            self.fact(spec, vals, value, stated[i], None if last else values[i + 1], None if last else days[i + 1])
        keys = [values[-1], *(str(vals[s]) for s in spec.unique)]
        self.question("update", spec, vals, values[-1], [stated[-1][0]], keys)
        return True

    def stable(self, spec: _Spec, ask: bool) -> bool:
        vals = self.instance(spec)
        if vals is None:
            return False
        if "v" not in vals:
            values = self.fact_values(spec, vals, 1)
            if values is None:
                return False
            vals["v"] = values[0]
        day = self.any_day()
        stated = [self.state(spec, "state", vals, day)]
        corroborated = self.rnd() < 0.3
        if corroborated:
            for _ in range(1 + int(self.rnd() * 2)):
                again = self.later_day(stated[-1]["day"])
                if again is not None:
                    stated.append(self.state(spec, "again", vals, again, speaker="user"))
        self.fact(spec, vals, str(vals["v"]), stated)
        if ask and len(stated) == 1:
            self.question(
                "single-hop", spec, vals, spec.answer.format_map(vals), stated, [k.format_map(vals) for k in spec.keys]
            )
            return True
        return False

    def distractor(self, spec: _Spec) -> None:
        vals = self.instance(spec)
        if vals is None:
            return
        marker = self.state(spec, "state", vals, self.any_day())
        self.distractors.append({"marker": marker, "kind": spec.category})

    # ------------------------------------------------------------ all of it

    def run(self) -> None:
        if not self.active:
            return
        scale = self.b.days / 90
        want = {c: round(n * scale) for c, n in QUESTIONS_PER_90_DAYS.items()}
        self._rotate(CHANGE_SPECS, want["update"], self.change)
        # stable facts: about half of those stated once are asked about (single-hop)
        asked = 0
        stable_target = round(STABLE_FACTS_PER_90_DAYS * scale)
        specs = list(STABLE_SPECS)
        placed = 0
        while specs and placed < stable_target:
            self.rng.shuffle(specs)
            for spec in list(specs):
                if placed >= stable_target:
                    break
                before = len(self.facts)
                asked += self.stable(spec, ask=asked < want["single-hop"] // 2 and self.rnd() < 0.7)
                if len(self.facts) == before:
                    specs.remove(spec)
                else:
                    placed += 1
        self._rotate(SINGLE_SPECS, want["single-hop"] - asked, lambda s: self.simple(s, "single-hop"))
        self._rotate(PARAPHRASE_SPECS, want["paraphrase"], lambda s: self.simple(s, "paraphrase"))
        self._rotate(TEMPORAL_SPECS, want["temporal"], lambda s: self.simple(s, "temporal"))
        multi_specs = (*MULTI_SPECS, *LIST_SPECS)
        self._rotate(multi_specs, want["multi-hop"], lambda s: self.listing(s) if s.kind == "list" else self.multi(s))
        for _ in range(round(DISTRACTORS_PER_90_DAYS * scale)):
            self.distractor(_pick(DISTRACTOR_SPECS, self.rnd))

    def _rotate(self, specs: tuple[_Spec, ...], target: int, plant_one: Any) -> None:
        """Plant target items, cycling through specs in shuffled rounds; drop specs that run dry."""
        live = list(specs)
        done = 0
        while live and done < target:
            self.rng.shuffle(live)
            for spec in list(live):
                if done >= target:
                    break
                if plant_one(spec):
                    done += 1
                else:
                    live.remove(spec)


# ---------------------------------------------------------------- probes


def _present_candidates(builder: _Builder, rare: list[str]) -> tuple[list[str], list[str], list[str]]:
    def bare(value: str) -> str:
        for article in ("the ", "a ", "an "):
            if value.startswith(article):
                return value[len(article) :]
        return value

    rare_topics = [bare(v) for v in rare]
    entities: list[str] = []
    for name in ("people", "kids", "cities", "clients", "projects", "services"):
        entities += builder.pools[name]
    entities += LIBS + DISHES
    return rare_topics, entities, list(NOUN_PHRASES)


class TextIndex:
    """Chunks as membench reads them ("speaker: text", normalized), with a word -> chunks index."""

    def __init__(self, chunks: list[dict[str, Any]]) -> None:
        self.lines = [normalize(f"{c['speaker']}: {c['text']}") for c in chunks]
        self.raw = [c["text"] for c in chunks]
        postings: dict[str, list[int]] = {}
        for i, line in enumerate(self.lines):
            for word in set(_WORD.findall(line)):
                if word in postings:
                    postings[word].append(i)
                else:
                    postings[word] = [i]
        self.postings = postings
        self.vocab = Vocabulary(postings)

    def chunks_mentioning(self, topic: str) -> list[int]:
        needle = normalize(topic)
        words = _WORD.findall(needle)
        if not words:
            return []
        last = words[-1]
        candidates = set(self.postings.get(last, ()))
        candidates.update(self.postings.get(last + "s", ()), self.postings.get(last + "es", ()))
        for word in words[:-1]:
            if not candidates:
                break
            candidates.intersection_update(self.postings.get(word, ()))
        return sorted(i for i in candidates if find_mentions(self.lines[i], needle))

    def absent(self, topic: str) -> bool:
        """Mentioned nowhere, not even across two "speaker: text" lines joined (which needs a speaker word)."""
        words = _WORD.findall(normalize(topic))
        return not self.chunks_mentioning(topic) and not {"user", "assistant"} & set(words)


def build_probes(
    builder: _Builder, chunks: list[dict[str, Any]], rare: list[str]
) -> tuple[list[Probe], dict[str, int], list[str]]:
    """Probes checked against the chunks: (probes, chunks mentioning each present topic, present variants)."""
    rng = random.Random(f"memtree-corpus/{GENERATOR_VERSION}/{builder.seed}/{builder.split}/probes")
    index = TextIndex(chunks)
    vocab = index.vocab

    def ok_shape(topic: str) -> bool:
        return 1 <= len(topic.split()) <= 3 and bool(content_words(topic))

    taken: set[str] = set()

    def sample(candidates: list[str], n: int) -> list[str]:
        pool = [c for c in dict.fromkeys(candidates) if c.casefold() not in taken]
        chosen = rng.sample(pool, min(n, len(pool)))
        taken.update(c.casefold() for c in chosen)
        return chosen

    # present: rare planted values (1-2 chunks), noun phrases, entity names (some lower-cased)
    rare_topics, entities, phrases = _present_candidates(builder, rare)
    counts = {
        t: len(index.chunks_mentioning(t)) for t in dict.fromkeys(rare_topics + entities + phrases) if ok_shape(t)
    }
    n = PROBES_PER_LABEL
    present = sample([t for t in rare_topics if counts.get(t, 0) in (1, 2)], n // 4)
    present += sample([t for t in phrases if counts.get(t, 0) > 0], n // 3)
    entity_ok = [t for t in entities if counts.get(t, 0) > 0]
    present += sample([e.lower() if rng.random() < 0.35 else e for e in entity_ok], n - len(present))
    if len(present) < n:
        present += sample([t for t in counts if counts[t] > 0], n - len(present))
    mention_counts = {t: len(index.chunks_mentioning(t)) for t in present}
    variants = [t for t in present if not any(_exact(index.raw[i], t) for i in index.chunks_mentioning(t))]

    # absent: never mentioned; clean shares nothing with the corpus, near shares a word
    other = ("dev", "test")[1 - builder.half]
    clean_candidates = list(ABSENT_CLEAN_CANDIDATES)
    clean_candidates += _half(PEOPLE, other) + _half(KIDS, other) + _half(CITIES, other)
    clean = sample([t for t in clean_candidates if ok_shape(t) and vocab.unrelated(t) and index.absent(t)], n)

    def near(t: str) -> bool:
        return ok_shape(t) and vocab.shares_word(t) and index.absent(t)

    near_generated = [f"{c} {s}" for c in builder.pools["cities"] for s in NEAR_PLACE_SUFFIXES]
    near_generated += [f"{p} {s}" for p in builder.pools["projects"] for s in NEAR_PROJECT_SUFFIXES]
    near_generated += [f"{p} {s}" for p in builder.pools["people"][:20] for s in _half(SURNAMES, other)[:6]]
    near_list = sample([t for t in ABSENT_NEAR_CANDIDATES if near(t)], (n * 5) // 8)
    near_list += sample([t for t in near_generated if near(t)], n - len(near_list))
    probes = [Probe(t, "present") for t in present]
    probes += [Probe(t, "absent_clean") for t in clean] + [Probe(t, "absent_near") for t in near_list]
    return probes, mention_counts, variants


def _exact(raw: str, topic: str) -> bool:
    """topic occurs with exactly this case and number as a whole word."""
    size = len(topic)
    return any(i + size >= len(raw) or raw[i + size] not in _ALNUM for i in find_mentions(raw, topic))


# ---------------------------------------------------------------- entry point


def generate(
    seed: int,
    *,
    days: int = 90,
    chunks_per_day: int | tuple[int, int] = (20, 60),
    start: date = date(2025, 1, 6),
    split: str = "dev",
    tz: str = "UTC",
    plant: bool = True,
) -> Corpus:
    """A deterministic corpus for (seed, split, ...): see the module docstring."""
    builder = _Builder(seed, days, chunks_per_day, start, split, tz)
    day_sessions = builder.noise()
    planter = None
    if plant:
        planter = _Planter(builder, day_sessions)
        planter.run()
    chunks = builder.assemble(day_sessions)
    meta: dict[str, Any] = {
        "generator": f"memtree-corpus/{GENERATOR_VERSION}",
        "seed": seed,
        "split": split,
        "days": days,
        "chunks_per_day": list(chunks_per_day) if isinstance(chunks_per_day, tuple) else chunks_per_day,
        "start": start.isoformat(),
        "tz": tz,
        "plant": plant,
    }
    corpus = Corpus(chunks=chunks, meta=meta)
    if planter is not None:
        _finish(builder, planter, corpus)
    meta["stats"] = stats(corpus)
    return corpus


def _finish(builder: _Builder, planter: _Planter, corpus: Corpus) -> None:
    def day_of(marker: dict[str, Any]) -> date:
        return builder.start + timedelta(days=marker["day"])

    asked_at = builder.asked_at()
    keys: dict[str, list[str]] = {}
    question_templates: dict[str, str] = {}
    decoys: dict[str, list[str]] = {}
    for i, q in enumerate(planter.questions):
        qid = f"{builder.prefix}-q{i:04d}"
        evidence = tuple(m["id"] for m in q["evidence"])
        answer = q["answer"] if q["answer"] is not None else day_of(q["evidence"][0]).isoformat()
        corpus.questions.append(Question(qid, q["question"], answer, q["category"], evidence, asked_at))
        keys[qid] = q["keys"]
        question_templates[qid] = q["template"]
        if q["decoys"]:
            decoys[qid] = [m["id"] for m in q["decoys"]]
    for f in planter.facts:
        superseded_on = builder.start + timedelta(days=f["superseded_at"]) if f["superseded_at"] is not None else None
        corpus.facts.append(
            PlantedFact(
                f["category"],
                f["subject"],
                f["value"],
                tuple(m["id"] for m in f["stated"]),
                day_of(f["stated"][0]),
                superseded_on,
                f["superseded_by"],
            )
        )
    probes, mention_counts, variants = build_probes(builder, corpus.chunks, planter.rare)
    corpus.probes.extend(probes)
    corpus.meta.update(
        asked_at=asked_at,
        question_keys=keys,
        templates={
            "questions": question_templates,
            "chunks": {m["id"]: m["template"] for m in planter.markers},
            "slots": {m["id"]: m["slots"] for m in planter.markers},
        },
        distractors=[{"chunk": d["marker"]["id"], "kind": d["kind"]} for d in planter.distractors],
        decoys=decoys,
        probe_mentions=mention_counts,
        present_variants=variants,
    )


def stats(corpus: Corpus) -> dict[str, Any]:
    chars = sum(len(c["text"]) for c in corpus.chunks)
    by_day: dict[str, int] = {}
    for c in corpus.chunks:
        by_day[c["timestamp"][:10]] = by_day.get(c["timestamp"][:10], 0) + 1

    def tally(values: list[str], names: tuple[str, ...]) -> dict[str, int]:
        return {name: values.count(name) for name in names}

    return {
        "chunks": len(corpus.chunks),
        "sessions": len({c["session"] for c in corpus.chunks}),
        "active_days": len(by_day),
        "max_chunks_per_day": max(by_day.values(), default=0),
        "chars": chars,
        "approx_tokens": chars // 4,
        "long_chunks_200_tokens": sum(len(c["text"]) >= 800 for c in corpus.chunks),
        "questions": tally([q.category for q in corpus.questions], CATEGORIES),
        "probes": tally([p.label for p in corpus.probes], PROBE_LABELS),
        "facts": tally([f.category for f in corpus.facts], FACT_CATEGORIES),
        "planted_changes": sum(f.superseded_on is not None for f in corpus.facts),
        "distractors": len(corpus.meta.get("distractors", [])),
    }


# ---------------------------------------------------------------- files and CLI


def _jsonable(value: Any) -> Any:
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def write(corpus: Corpus, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "chunks.jsonl", "w", encoding="utf-8") as fh:
        for chunk in corpus.chunks:
            fh.write(json.dumps(chunk, ensure_ascii=False) + "\n")
    for name, records in (("questions", corpus.questions), ("probes", corpus.probes), ("facts", corpus.facts)):
        payload = [_jsonable(asdict(r)) for r in records]
        (out / f"{name}.json").write_text(json.dumps(payload, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    (out / "meta.json").write_text(json.dumps(corpus.meta, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def _chunks_per_day(value: str) -> int | tuple[int, int]:
    if "," in value:
        lo, hi = value.split(",", 1)
        return int(lo), int(hi)
    return int(value)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--days", type=int, default=90)
    parser.add_argument("--chunks-per-day", type=_chunks_per_day, default=(20, 60), help="N or LO,HI (default 20,60)")
    parser.add_argument("--start", type=date.fromisoformat, default=date(2025, 1, 6))
    parser.add_argument("--split", choices=SPLITS, default="dev")
    parser.add_argument("--tz", default="UTC")
    parser.add_argument("--no-plant", action="store_true", help="noise only: no questions, probes or facts (fastest)")
    parser.add_argument(
        "--out", type=Path, help="write chunks.jsonl, questions.json, probes.json, facts.json, meta.json"
    )
    args = parser.parse_args(argv)
    began = time.perf_counter()
    corpus = generate(
        args.seed,
        days=args.days,
        chunks_per_day=args.chunks_per_day,
        start=args.start,
        split=args.split,
        tz=args.tz,
        plant=not args.no_plant,
    )
    took = time.perf_counter() - began
    if args.out:
        write(corpus, args.out)
    st = corpus.meta["stats"]
    print(json.dumps(st, indent=1), file=sys.stderr)
    print(f"generated {st['chunks']} chunks in {took:.2f}s ({st['chunks'] / took:,.0f} chunks/s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
