"""Generators of secrets (true positives), benign look-alikes and adversarial inputs for the
redaction tests.

Nothing in this file is a secret or has a secret's full shape: every key is assembled at run time
from random characters, and PEM headers are put together from parts, so secret scanners run over
the repository find nothing to report.
"""

from __future__ import annotations

import base64
import json
import math
import random
import string
import uuid
from collections.abc import Callable
from dataclasses import dataclass

ALNUM = string.ascii_letters + string.digits
URLSAFE = ALNUM + "-_"
BASE64 = ALNUM + "+/"
UPPER_ALNUM = string.ascii_uppercase + string.digits
OPENAI_MARKER = "T3BlbkFJ"  # base64 of "OpenAI"; a keyword, not a secret


@dataclass(frozen=True)
class Sample:
    text: str  # what goes into a document
    secret: str  # the part of `text` that must not survive redaction


Generator = Callable[[random.Random], Sample]


def entropy(value: str) -> float:
    return -sum(n / len(value) * math.log2(n / len(value)) for n in map(value.count, set(value)))


def pick(rng: random.Random, alphabet: str, size: int) -> str:
    return "".join(rng.choices(alphabet, k=size))


def with_digit(rng: random.Random, value: str) -> str:
    position = rng.randrange(len(value))
    return value[:position] + rng.choice(string.digits) + value[position + 1 :]


def pem(label: str, kind: str) -> str:
    """A PEM armour line, e.g. pem("BEGIN", "RSA ")."""
    return f"-----{label} {kind}PRIVATE KEY" + ("" if "PGP" not in kind else " BLOCK") + "-----"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


# --- true positives, one generator per rule -------------------------------------------------


def openai(rng: random.Random) -> Sample:
    if rng.random() < 0.25:
        key = "sk-" + pick(rng, ALNUM, 20) + OPENAI_MARKER + pick(rng, ALNUM, 20)
    else:
        kind = rng.choice(["proj", "svcacct", "admin"])
        head, tail = rng.choice([74, 58]), rng.choice([74, 58])
        key = f"sk-{kind}-" + pick(rng, URLSAFE, head) + OPENAI_MARKER + pick(rng, URLSAFE, tail)
    return Sample(key, key)


def openai_broad(rng: random.Random) -> Sample:
    kind = rng.choice(["", "proj-", "svcacct-", "admin-"])
    key = "sk-" + kind + with_digit(rng, pick(rng, URLSAFE, rng.randint(32, 64)))
    return Sample(key, key)


def anthropic(rng: random.Random) -> Sample:
    key = "sk-ant-" + rng.choice(["api03", "admin01"]) + "-" + pick(rng, URLSAFE, 93) + "AA"
    return Sample(key, key)


def anthropic_broad(rng: random.Random) -> Sample:
    kind = rng.choice(["oat01", "sid01", "ort01", pick(rng, string.ascii_lowercase, 3) + "9"])
    key = f"sk-ant-{kind}-" + pick(rng, URLSAFE, rng.randint(20, 100))
    return Sample(key, key)


def aws_access_key_id(rng: random.Random) -> Sample:
    prefix = rng.choice(["AKIA", "ASIA", "ABIA", "ACCA", "A3T" + rng.choice(UPPER_ALNUM)])
    key = prefix + pick(rng, string.ascii_uppercase + "234567", 16)
    return Sample(key, key)


def aws_secret_key(rng: random.Random) -> Sample:
    value = pick(rng, ALNUM + "/+", 40)
    template = rng.choice(
        [
            'aws_secret_access_key = "{}"',
            "AWS_SECRET_ACCESS_KEY='{}'",
            '"aws_secret_key": "{}"',
            'aws secret key: "{}"',
            'AwsSecretKey="{}"',
            "aws_access_key: '{}'",
        ]
    )
    return Sample(template.format(value), value)


def github(rng: random.Random) -> Sample:
    key = rng.choice(["ghp", "gho", "ghu", "ghs", "ghr"]) + "_" + pick(rng, ALNUM, 36)
    return Sample(key, key)


def github_fine_grained(rng: random.Random) -> Sample:
    key = "github_pat_" + pick(rng, ALNUM, 22) + "_" + pick(rng, ALNUM, 59)
    return Sample(key, key)


def slack_token(rng: random.Random) -> Sample:
    numbers = "-".join(pick(rng, string.digits, rng.randint(10, 13)) for _ in range(rng.randint(1, 3)))
    key = "xox" + rng.choice("abposr") + "-" + numbers + "-" + pick(rng, ALNUM, rng.randint(24, 32))
    return Sample(key, key)


def slack_webhook(rng: random.Random) -> Sample:
    url = (
        "https://hooks.slack.com/services/T"
        + pick(rng, UPPER_ALNUM, rng.randint(8, 10))
        + "/B"
        + pick(rng, UPPER_ALNUM, rng.randint(8, 10))
        + "/"
        + pick(rng, ALNUM, 24)
    )
    return Sample(url, url)


def private_key(rng: random.Random) -> Sample:
    kind = rng.choice(["RSA ", "EC ", "DSA ", "OPENSSH ", "", "ENCRYPTED ", "PGP "])
    lines = [pick(rng, BASE64, 64) for _ in range(rng.randint(6, 25))]
    lines.append(pick(rng, BASE64, rng.randint(4, 60)) + "==")
    block = "\n".join([pem("BEGIN", kind), *lines, pem("END", kind)])
    return Sample(block, block)


def jwt(rng: random.Random) -> Sample:
    while True:
        header: dict[str, str] = {"alg": rng.choice(["HS256", "RS256", "ES256", "none"]), "typ": "JWT"}
        if rng.random() < 0.5:
            header["kid"] = pick(rng, ALNUM, rng.randint(4, 16))
        encoded = b64url(json.dumps(header, separators=(",", ":")).encode())
        # the rule's header class is alphanumeric (as gitleaks'), to stay linear; see redact.py
        if "-" not in encoded and "_" not in encoded:
            break
    claims = {
        "sub": pick(rng, string.digits, rng.randint(4, 12)),
        "name": rng.choice(["Ada", "Linus", "Grace", "Ken"]),
        "iat": rng.randint(1_500_000_000, 1_800_000_000),
        "scope": rng.choice(["read", "read write", "admin"]),
    }
    payload = b64url(json.dumps(claims).encode())
    signature = "" if header["alg"] == "none" else b64url(rng.randbytes(rng.choice([32, 64, 256])))
    token = f"{encoded}.{payload}.{signature}"
    return Sample(token, token)


def gcp_api_key(rng: random.Random) -> Sample:
    key = "AIza" + pick(rng, URLSAFE, 35)
    return Sample(key, key)


def huggingface(rng: random.Random) -> Sample:
    key = "hf_" + pick(rng, string.ascii_letters, 34)
    return Sample(key, key)


def stripe(rng: random.Random) -> Sample:
    key = "_".join([rng.choice(["sk", "rk"]), rng.choice(["test", "live", "prod"]), ""])
    key += pick(rng, ALNUM, rng.randint(24, 99))
    return Sample(key, key)


def url_credentials(rng: random.Random) -> Sample:
    scheme = rng.choice(["https", "http", "postgres", "postgresql", "mysql", "redis", "amqp", "mongodb+srv"])
    user = rng.choice(["alice", "app", "deploy", "svc_reader", "root"])
    password = pick(rng, ALNUM + "!$%^*-_.~+=", rng.randint(10, 32))
    host = rng.choice(["db.internal", "10.0.3.7:5432", "cache.example.com", "localhost"])
    return Sample(f"{scheme}://{user}:{password}@{host}/{rng.choice(['app', 'q', ''])}", password)


def generic_assignment(rng: random.Random) -> Sample:
    while True:
        value = with_digit(rng, pick(rng, ALNUM + "!#%*+-_.~^", rng.randint(16, 48)))
        if entropy(value) >= 3.6:  # the rule's contract: random-looking values, not words
            break
    template = rng.choice(
        [
            'DB_PASSWORD="{}"',
            "API_KEY: {}",
            "token => '{}'",
            "export GITHUB_TOKEN={}",
            '"client_secret": "{}"',
            "password = {}",
            "Authorization: Bearer {}",
            "auth_token: '{}'",
            "PGPASSWORD={}",
            '"apiKey": "{}"',
            "credentials={}",
        ]
    )
    return Sample(template.format(value), value)


HEX = "0123456789abcdef"


def gitlab(rng: random.Random) -> Sample:
    kind = rng.choice(["glpat", "glpat", "gldt", "glrt", "glptt", "glsoat", "glcbt", "glft"])
    key = f"{kind}-" + pick(rng, URLSAFE, rng.choice([20, 20, 27, 40]))
    if rng.random() < 0.3:  # GitLab 17's routable form
        key += f".0{rng.randint(1, 9)}." + pick(rng, string.ascii_lowercase + string.digits, 9)
    return Sample(key, key)


def npm(rng: random.Random) -> Sample:
    key = "npm_" + pick(rng, ALNUM, 36)
    return Sample(key, key)


def mailgun(rng: random.Random) -> Sample:
    key = "key-" + pick(rng, HEX, 32)
    return Sample(key, key)


def discord_webhook(rng: random.Random) -> Sample:
    host = rng.choice(["discord.com", "discordapp.com", "ptb.discord.com", "canary.discord.com"])
    url = f"https://{host}/api/webhooks/" + pick(rng, string.digits, rng.randint(17, 19)) + "/" + pick(rng, URLSAFE, 68)
    return Sample(url, url)


def sentry_dsn(rng: random.Random) -> Sample:
    key = pick(rng, HEX, 32)
    if rng.random() < 0.3:  # an old DSN, with the secret key too
        key += ":" + pick(rng, HEX, 32)
    host = rng.choice([f"o{rng.randint(1, 999999)}.ingest.sentry.io", "sentry.example.com", "errors.internal:9000"])
    return Sample(f"https://{key}@{host}/{rng.randint(1, 9999)}", key)


def azure_key(rng: random.Random) -> Sample:
    if rng.random() < 0.6:
        key = base64.b64encode(rng.randbytes(64)).decode()
        account = f"AccountName=acct{rng.randint(1, 99)}"
        text = f"DefaultEndpointsProtocol=https;{account};AccountKey={key};EndpointSuffix=core.windows.net"
    else:
        key = base64.b64encode(rng.randbytes(32)).decode()
        endpoint = f"Endpoint=sb://ns{rng.randint(1, 99)}.servicebus.windows.net/"
        text = f"{endpoint};SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={key}"
    return Sample(text, key)


def url_signature(rng: random.Random) -> Sample:
    if rng.random() < 0.6:  # an Azure SAS URL; the signature is URL-encoded base64
        sig = base64.b64encode(rng.randbytes(32)).decode().replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
        text = (
            f"https://acct.blob.core.windows.net/backups/db.bak?sv=2022-11-02&ss=b&srt=o&sp=r"
            f"&se=2026-05-01T00:00:00Z&spr=https&sig={sig}"
        )
    else:  # an S3 presigned URL
        sig = pick(rng, HEX, 64)
        text = (
            "https://bucket.s3.amazonaws.com/report.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256"
            f"&X-Amz-Date=20260501T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature={sig}"
        )
    return Sample(text, sig)


IBAN_LENGTHS = {"DE": 22, "GB": 22, "FR": 27, "NL": 18, "ES": 24, "IT": 27, "BE": 16, "CH": 21, "NO": 15, "PL": 28}


def iban(rng: random.Random) -> Sample:
    country = rng.choice(sorted(IBAN_LENGTHS))
    size = IBAN_LENGTHS[country] - 4
    bank = pick(rng, string.ascii_uppercase, 4) if country in ("GB", "NL") else pick(rng, string.digits, 4)
    bban = bank + pick(rng, string.digits, size - 4)
    number = int("".join(str(int(char, 36)) for char in bban + country + "00"))
    value = f"{country}{98 - number % 97:02d}{bban}"
    if rng.random() < 0.5:
        value = " ".join(value[i : i + 4] for i in range(0, len(value), 4))
    return Sample(value, value)


def luhn_complete(prefix: str, length: int, rng: random.Random) -> str:
    body = prefix + pick(rng, string.digits, length - len(prefix) - 1)
    total = sum(
        (d * 2 - 9 if d * 2 > 9 else d * 2) if i % 2 == 0 else d for i, d in enumerate(map(int, reversed(body)))
    )
    return body + str(-total % 10)


def card_number(rng: random.Random) -> Sample:
    prefix, length = rng.choice(
        [("4", 16), ("51", 16), ("55", 16), ("2221", 16), ("2720", 16), ("34", 15), ("37", 15), ("6011", 16),
         ("65", 16), ("3530", 16), ("62", 19), ("36", 14)]
    )  # fmt: skip
    number = luhn_complete(prefix, length, rng)
    separator = rng.choice(["", " ", "-"])
    if separator and length == 16:
        number = separator.join(number[i : i + 4] for i in range(0, 16, 4))
    elif separator and length in (14, 15):
        number = separator.join([number[:4], number[4:10], number[10:]])
    return Sample(number, number)


def short_password(rng: random.Random) -> str:
    """4 to 10 characters holding a digit or a symbol (a word with a final "!" or "?" reads as prose):
    too short and too plain for generic-assignment (whose 3.5 bits per character no value under 12
    characters reaches)."""
    while True:
        word = rng.choice(["hunter", "dragon", "Summer", "monkey", "tr0ub", "P@ss", "qwerty", "letmein", "admin"])
        value = (word + pick(rng, string.digits + "!#%*", rng.randint(1, 4)))[: rng.randint(4, 10)]
        if not value.rstrip("!?").isalpha():
            return value


def password_assignment(rng: random.Random) -> Sample:
    value = short_password(rng)
    template = rng.choice(
        [
            "DB_PASSWORD={}",
            "password: {}",
            '"password": "{}"',
            "PGPASSWORD={}",
            "MYSQL_ROOT_PASSWORD: '{}'",
            "spring.datasource.password={}",
            "passphrase = {}",
            "Server=db.internal;Database=app;User Id=sa;Password={};",
            "Driver={{PostgreSQL}};Server=db;Uid=app;Pwd={};",
            "jdbc:mysql://db:3306/app?user=app&password={}",
            "--password={}",
        ]
    )
    return Sample(template.format(value), value)


def password_stated(rng: random.Random) -> Sample:
    if rng.random() < 0.2:
        value = pick(rng, string.digits, rng.randint(4, 8))
        template = rng.choice(["my PIN is {}", "the PIN for the door is {}", "SIM pin code is {}"])
    elif rng.random() < 0.25:
        value = " ".join(rng.sample(["correct", "horse", "battery", "staple", "purple", "monkey"], 3))
        template = rng.choice(["the wifi passphrase is '{}'", 'set the root password to "{}"', "my password is “{}”"])
    else:  # a bare word is a password when it holds a digit or a symbol ("is wrong" states none)
        value = short_password(rng)[:9] + rng.choice(string.digits + "#$%&*+=@")
        template = rng.choice(
            [
                "my password is {}",
                "the password for the staging db is {}",
                "Password for alice@example.com is now {}",
                "I changed the password to {}",
                "the admin password was changed to {}",
                "our vpn passcode is {}",
                "the password's {}",
                "password for prod: {}",
            ]
        )
    return Sample(template.format(value), value)


TRUE_POSITIVES: dict[str, Generator] = {
    "private-key": private_key,
    "openai": openai,
    "anthropic": anthropic,
    "github-fine-grained": github_fine_grained,
    "github": github,
    "gcp-api-key": gcp_api_key,
    "aws-access-key-id": aws_access_key_id,
    "aws-secret-key": aws_secret_key,
    "slack-webhook": slack_webhook,
    "slack-token": slack_token,
    "stripe": stripe,
    "huggingface": huggingface,
    "jwt": jwt,
    "gitlab": gitlab,
    "npm": npm,
    "mailgun": mailgun,
    "discord-webhook": discord_webhook,
    "sentry-dsn": sentry_dsn,
    "azure-key": azure_key,
    "url-signature": url_signature,
    "iban": iban,
    "anthropic-broad": anthropic_broad,
    "openai-broad": openai_broad,
    "url-credentials": url_credentials,
    "generic-assignment": generic_assignment,
    "password-assignment": password_assignment,
    "password-stated": password_stated,
    "card-number": card_number,
}

# Where a secret sits in a document; {} is the sample's text. The JSON context puts "\n" escapes
# right next to it, as in a tool output or an API transcript pasted into a conversation.
CONTEXTS: dict[str, Callable[[str], str]] = {
    "prose": lambda s: f"I pasted {s} into the config, then restarted the service.",
    "prose-end": lambda s: f"the value you asked for is {s}",
    "json": lambda s: json.dumps({"role": "tool", "content": f"output:\n{s}\nexit 0"}),
    "json-value": lambda s: json.dumps({"id": 7, "value": s}),
    "fence": lambda s: f"Run this:\n```bash\n{s}\n```\nand tell me what happens.",
    "fence-code": lambda s: f'```python\nclient = connect("{s}")\n```',
    "url": lambda s: f"open https://example.com/v1/check?value={s} in the browser",
}

# --- benign look-alikes ----------------------------------------------------------------------

WORDS = [
    "We use sk-learn (scikit-learn) for the baseline model.",
    "The risk-assessment and task-management modules were merged.",
    "Ask-me-anything sessions, disk-usage reports and desk-booking tools.",
    "pip install scikit-learn; import sklearn; from sk-learn import nothing",
    "Run the sk-learn-compatible-estimator-wrapper-class-generator tests first.",
    "The tokenizer splits text into tokens; the token budget is 4096.",
    "Authentication uses OAuth; the author of the auth module is away.",
    "Keep the password manager open; credentials rotate every 90 days.",
    "The secret santa draw is on Friday.",
    "Secrets must never be committed; use the vault and the secrets manager.",
    "Use eyeglasses.eyewear-catalogue for the demo page.",
    "AKIA is the prefix of long-term AWS access key ids; ASIA marks temporary ones.",
    "Slack tokens start with xoxb- or xoxp-; webhooks live under hooks.slack.com.",
    "PEM files start with a BEGIN line; never paste private keys into chat.",
    "hf_hub_download fetches model files; sk_test_ keys are for Stripe's test mode.",
    "ghp_ prefixes mark classic GitHub tokens; github_pat_ marks fine-grained ones.",
]

DOC_PLACEHOLDERS = [
    "API_KEY=<your-key>",
    "password: changeme",
    "token=${TOKEN}",
    "export OPENAI_API_KEY=sk-...",
    "OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "export GITHUB_TOKEN=ghp_" + "x" * 36,
    "GITHUB_TOKEN=ghp_" + "X" * 36,
    "STRIPE_KEY=sk_test_" + "X" * 24,
    "HF_TOKEN=hf_" + "x" * 34,
    "GOOGLE_API_KEY=AIza" + "X" * 35,
    "SLACK_BOT_TOKEN=xoxb-" + "0" * 10 + "-" + "0" * 12 + "-" + "x" * 24,
    "https://hooks.slack.com/services/T00000000/B00000000/" + "X" * 24,
    "postgres://user:password@localhost:5432/app",
    "https://user:${PASSWORD}@example.com/",
    "redis://:<password>@cache:6379/0",
    "mysql://root:****@db/prod",
    "DB_PASSWORD=${DB_PASSWORD:-postgres}",
    "secret_key: {{ vault_secret_key }}",
    "api_key = os.environ['API_KEY']",
    "token: process.env.GITHUB_TOKEN,",
    "password=$(cat /run/secrets/db_password)",
    "AUTH_TOKEN=%AUTH_TOKEN%",
    "password: <password>",
    "client_secret: xxxxxxxxxxxxxxxx",
    "Authorization: Bearer <token>",
    "Authorization: Bearer $TOKEN",
    "aws_secret_access_key = <secret>",
    "ANTHROPIC_API_KEY=sk-ant-...",
]

CODE = [
    'tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")',
    "const token = req.headers.authorization;",
    "if password == confirm_password:\n    login(user)",
    "auth = HTTPBasicAuth(user, pw)",
    'headers = {"Authorization": f"Bearer {token}"}',
    'secret_key = os.environ["SECRET_KEY"]',
    "password_hash = bcrypt.hashpw(password.encode(), bcrypt.gensalt())",
    "response = client.chat(max_tokens=1024, temperature=0)",
    "token_count: 4096\nauth: true\nsecret_santa_date: 2024-12-24",
    "self.api_key = api_key\nself.secret = settings.SECRET_KEY",
    "password = getpass.getpass()",
    "tokens = tokenizer.encode(text)",
    "auth_header = request.headers.get('Authorization')",
    "credentials = service_account.Credentials.from_service_account_file(path)",
    "def verify_token(token: str) -> bool:\n    return hmac.compare_digest(token, expected)",
    "for token in tokens:\n    print(token)",
    "git clone git@github.com:org/repo.git && cd repo",
    "ssh://git@github.com/org/repo.git",
    "curl http://localhost:8080/health && curl https://example.com/@user",
    "SELECT id, author, created_at FROM posts WHERE author_id = 42;",
    "api_key_env_var: OPENAI_API_KEY",
    "password_min_length=12; password_max_age_days=90",
]

PROSE = [
    "Yesterday we moved the compaction job to run after midnight.",
    "The weekly summary now cites the daily files it rests on.",
    "Grace asked whether the cache survives a crash; it does, writes are atomic.",
    "We agreed to keep ROOT.md under two thousand tokens.",
    "The meeting moved to Thursday at 14:00 because of the release.",
    "Latency dropped from 340 ms to 120 ms after the index change.",
    "Ken will review the pull request about the slug function.",
    "Remember to rotate the credentials in the staging project next week.",
    "The user prefers short answers and metric units.",
    "Version 2.3.1 fixed the time zone bug reported on 2024-03-31.",
]


def benign_corpus(rng: random.Random, per_kind: int = 60) -> list[tuple[str, str]]:
    """(kind, text) pairs that contain no secret: every redaction of them is a false positive."""
    samples: list[tuple[str, str]] = []

    def add(kind: str, make: Callable[[], str]) -> None:
        samples.extend((kind, make()) for _ in range(per_kind))

    def hexstr(size: int) -> str:
        return pick(rng, "0123456789abcdef", size)

    add("uuid", lambda: f"chunk {uuid.UUID(int=rng.getrandbits(128), version=4)} was summarized")
    add("git-sha", lambda: f"commit {hexstr(40)}\nMerge {hexstr(7)} into main (see {hexstr(12)})")
    add("sha256", lambda: f"sha256:{hexstr(64)}  vault/raw/2024/05/01/x.json")
    add("sha256-quoted", lambda: f'{{"content_hash": "{hexstr(64)}", "input_hash": "{hexstr(64)}"}}')
    add("base64-image", lambda: "![plot](data:image/png;base64," + png_base64(rng) + ")")
    add("base64-wrapped", lambda: "\n".join(wrap(png_base64(rng), 76)))
    add("integrity", lambda: "integrity: sha512-" + base64.b64encode(rng.randbytes(64)).decode())
    add("ulid", lambda: "id: 01" + pick(rng, "0123456789ABCDEFGHJKMNPQRSTVWXYZ", 24))
    add("words", lambda: rng.choice(WORDS))
    add("placeholder", lambda: rng.choice(DOC_PLACEHOLDERS))
    add("code", lambda: rng.choice(CODE))
    add("prose", lambda: " ".join(rng.sample(PROSE, 3)))
    add("mixed", lambda: "\n".join([rng.choice(PROSE), rng.choice(CODE), rng.choice(WORDS)]))
    add("password-talk", lambda: rng.choice(PASSWORD_TALK))
    add("numbers", lambda: numbers(rng))
    add("sha256-upper", lambda: f"SHA256 {hexstr(64).upper()} checked; md5 {hexstr(32).upper()}")
    # Harder cases, where a broad rule is expected to over-redact now and then: ids and hashes
    # under names that contain a keyword, and "sk-<ticket>" branch names.
    add("labelled-ids", lambda: rng.choice(labelled_ids(rng)))
    add("branches", lambda: f"git checkout -b sk-{rng.randint(1, 9999)}-" + "-".join(rng.sample(BRANCH_WORDS, 5)))
    # AWS's documentation key pair, which gitleaks allowlists; assembled so it is not a literal here
    samples.append(("aws-doc", "aws_access_key_id = " + "AKIA" + "IOSFODNN7" + "EXAMPLE"))
    example_secret = "/".join(["wJalrXUtnFEMI", "K7MDENG", "bPxRfiCYEXAMPLEKEY"])
    samples.append(("aws-doc", f'aws_secret_access_key = "{example_secret}"'))
    return samples


# Prose about passwords, PINs and keys that states none (issue 31's "in words" rule must stay quiet).
PASSWORD_TALK = [
    "The password is wrong, so the login fails with a 401.",
    "Your password is too short: use at least 12 characters.",
    "The password is stored hashed with bcrypt (cost 12), never in plain text.",
    "Set the password to expire after 90 days.",
    "The PIN is 4 digits long and locks after 3 attempts.",
    "The password was rotated on 2024-03-01 after the incident.",
    "Password reset is broken on Safari 17.",
    "the password for the staging db is in 1Password, under Infra.",
    "My password is the same one as last year; I will change it.",
    "The password hash is sha256:9f86d081 in the old schema, bcrypt in the new one.",
    "Passwords are checked against the breach list on every change.",
    "The pwd command prints /home/alice/project here.",
    "PWD=/home/alice/project OLDPWD=/home/alice",
    "The pin on the board is GPIO17; pin 13 drives the LED.",
    "The passphrase is required when the key is loaded.",
    "The password field is #login-password in the form.",
    "password: str, password_confirm: str, pin: int | None = None",
    "def login(user: str, password: Optional[str] = None) -> bool: ...",
    "if password is None: password = getpass()",
    "The wifi password is on the fridge.",
    "Keep passwords in the vault; the password manager syncs them.",
    "We pinned numpy to 1.26.4 and pinning torch is next.",
    "mapping, shipping and dropping rows are the three steps.",
    "passwords: bcrypt? or argon2id, which the OWASP sheet prefers",
    "Password: nope! Use the SSO button instead.",
]


def numbers(rng: random.Random) -> str:
    """Long numbers that are not card numbers: timestamps, ids, phones, ISBNs, amounts, counts."""
    return rng.choice(
        [
            f"created_at_ms={rng.randint(1_500_000_000_000, 1_800_000_000_000)}",
            f"ts_ns: {rng.randint(1_500_000_000, 1_800_000_000) * 10**9 + rng.randint(0, 10**9 - 1)}",
            f"tweet {rng.randint(10**18, 2 * 10**18)} and discord user {rng.randint(10**17, 10**18 - 1)}",
            f"call +44 20 {rng.randint(1000, 9999)} {rng.randint(1000, 9999)}"
            f" or +1-415-{rng.randint(200, 999)}-{rng.randint(1000, 9999)}",
            f"ISBN 978-{rng.randint(0, 1)}-{rng.randint(100, 999)}-{rng.randint(10000, 99999)}-{rng.randint(0, 9)}",
            f"total: {rng.randint(1, 999)},{rng.randint(100, 999)},{rng.randint(100, 999)}.{rng.randint(10, 99)} EUR",
            f"years {' '.join(str(rng.randint(1990, 2030)) for _ in range(4))} and {rng.randint(1990, 2030)}",
            f"account {rng.randint(10**11, 10**12 - 1)} in region eu-west-1",
            f"{rng.randint(10**9, 10**12)} bytes in {rng.randint(1, 999)} files",
            f"host 10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(0, 255)}:{rng.randint(1024, 65535)}",
            f"u64 max is 18446744073709551615; i64 max {2**63 - 1}; pi 3.14159265358979323846",
            f"order #{rng.randint(10**7, 10**10)} shipped,"
            f" invoice INV-{rng.randint(2020, 2030)}-{rng.randint(10**5, 10**6)}",
        ]
    )


BRANCH_WORDS = ["fix", "login", "redirect", "loop", "on", "safari", "add", "retry", "to", "upload", "docs"]


def labelled_ids(rng: random.Random) -> list[str]:
    ulid = "01" + pick(rng, "0123456789ABCDEFGHJKMNPQRSTVWXYZ", 24)
    return [
        f"token_id: {uuid.UUID(int=rng.getrandbits(128), version=4)}",
        f"auth_request_id={ulid}",
        f"secret_sha256: {pick(rng, '0123456789abcdef', 64)}",
        f"password_reset_count={rng.randint(0, 99)}",
        f"credential_version: v{rng.randint(1, 9)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}",
        f"tokens_used: {rng.randint(10, 10**9)}",
        f"auth_expires_at: 2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T10:00:00Z",
        f"password_policy=min{rng.randint(8, 16)}_upper_digit_symbol",
        f'"credential_type": "service_account_v{rng.randint(1, 3)}"',
        f"ftp://anonymous:guest@ftp{rng.randint(1, 9)}.example.org/pub",
    ]


def png_base64(rng: random.Random) -> str:
    return base64.b64encode(b"\x89PNG\r\n\x1a\n" + rng.randbytes(rng.randint(200, 1500))).decode()


def wrap(text: str, width: int) -> list[str]:
    return [text[i : i + width] for i in range(0, len(text), width)]


# --- adversarial inputs (docs/RELIABILITY.md S6) ---------------------------------------------------


def repeat(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def adversarial_shapes(size: int, seed: int = 6) -> dict[str, str]:
    """Inputs that make a backtracking pattern super-linear, `size` characters each."""
    rng = random.Random(seed)
    begin = pem("BEGIN", "RSA ")
    return {
        "random-printable": pick(rng, string.printable, size),
        "a": "a" * size,
        "a-": repeat("a-", size),
        "a.": repeat("a.", size),
        "a:": repeat("a:", size),
        "token": repeat("token", size),
        "sk-": repeat("sk-", size),
        "ghp_": repeat("ghp_", size),
        "AKIA-": repeat("AKIA-", size),
        "aws secret key": repeat("aws secret key ", size),
        "xoxb-1-": "xoxb-" + repeat("1-", size - 5),
        "xoxb-digits": "xoxb-" + "1" * (size - 5),
        "begin-rsa": repeat(begin, size),
        "begin-then-end": begin + repeat("-----END ", size - len(begin)),
        "begin-no-key": repeat("-----BEGIN ", size),
        "ey": repeat("ey", size),
        "ey-": repeat("ey-", size),
        "ey-run": "ey" + pick(rng, ALNUM, size - 2),
        "ey-parts": repeat("ey" + "A" * 17 + ".", size),
        "scheme-b-colon": "a://" + "b" * (size - 5) + ":",
        "scheme-runs": repeat("a://b:", size),
        "token=": repeat("token=", size),
        "token= value": repeat("token= ", size),
        "password-spaces": "password" + " " * (size - 9) + "=",
        "sk-ant-": repeat("sk-ant-", size),
        "placeholders": repeat("[REDACTED:openai:0123abcd]", size),
        "hooks": repeat("https://hooks.slack.com/services/T", size),
        # the rules added for issue 31
        "glpat-": repeat("glpat-", size),
        "glpat-dots": "glpat-" + repeat("a1b2c3d4e5f6g7h8i9j0.", size - 6),
        "npm_": repeat("npm_", size),
        "key-": repeat("key-", size),
        "key-hex": repeat("key-0123456789abcdef", size),
        "webhooks": repeat("https://discord.com/api/webhooks/1", size),
        "hex-userinfo": repeat("://" + "a1" * 16 + ":", size),
        "AccountKey=": repeat("AccountKey=", size),
        "sig=": repeat("&sig=", size),
        "password is": repeat("password is ", size),
        "password for": repeat("the password for a b c d ", size),
        "password for colons": repeat("password for a:b:c:d:e:f:g:h:i:j:k:l:m ", size),
        "password quote": 'password="' + "a" * (size - 10),
        "password curly": "the password is \u201c" + "a1" * ((size - 17) // 2),
        "password value": repeat("password: a1", size),
        "pin": repeat("pin ", size),
        "p": "p" * size,
        "digits": "4" * size,
        "card-groups": repeat("4111 ", size),
        "card-dashes": repeat("5500-", size),
        "iban-groups": "DE89" + repeat(" 3704", size - 4),
        "iban-run": "DE89" + "0" * (size - 4),
        "iban-prefixes": repeat("GB82", size),
    }
