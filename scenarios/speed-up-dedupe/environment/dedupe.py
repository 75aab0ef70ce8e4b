#!/usr/bin/env python3
"""Merge duplicate customer records from the CRM export.

usage: python3 dedupe.py INPUT.csv OUTPUT.csv

Two records describe the same customer when any of these holds:
  * their normalised e-mail addresses are equal (shared mailboxes such as
    info@ never match),
  * their normalised phone numbers are equal, unless that number is used by
    more than SWITCHBOARD_LIMIT records (a company switchboard),
  * they have the same normalised postcode and their normalised names differ
    by at most one edit (insertion, deletion or substitution of a character).
"Same customer" is transitive: records are grouped into clusters, and each
cluster is written as one merged record.
"""
import csv
import sys
import unicodedata
from collections import Counter, defaultdict

FIELDS = ["id", "name", "email", "phone", "postcode", "updated_at"]
OUT_FIELDS = FIELDS + ["source_ids", "record_count"]
SHARED_MAILBOXES = {"info", "sales", "admin", "office", "contact", "noreply", "support"}
DOMAIN_ALIASES = {"googlemail.com": "gmail.com"}
TITLES = {"mr", "mrs", "ms", "miss", "dr", "prof"}
SWITCHBOARD_LIMIT = 5


def norm_email(raw):
    email = raw.strip().lower()
    if email.count("@") != 1:
        return ""
    local, domain = email.split("@")
    domain = DOMAIN_ALIASES.get(domain, domain)
    local = local.split("+", 1)[0]
    if domain == "gmail.com":
        local = local.replace(".", "")
    if not local or not domain or local in SHARED_MAILBOXES:
        return ""
    return local + "@" + domain


def norm_phone(raw):
    digits = "".join(ch for ch in raw if ch.isdigit())
    if digits.startswith("00"):
        digits = digits[2:]
    if len(digits) < 7:
        return ""
    return digits[-9:]


def norm_name(raw):
    text = unicodedata.normalize("NFKD", raw)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
    words = "".join(ch if ch.isalnum() else " " for ch in text).split()
    return " ".join(sorted(w for w in words if w not in TITLES))


def norm_postcode(raw):
    return "".join(raw.split()).upper()


def levenshtein(a, b):
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def same_customer(r1, r2, phone_counts):
    e1, e2 = norm_email(r1["email"]), norm_email(r2["email"])
    if e1 and e1 == e2:
        return True
    p1, p2 = norm_phone(r1["phone"]), norm_phone(r2["phone"])
    if p1 and p1 == p2 and phone_counts[p1] <= SWITCHBOARD_LIMIT:
        return True
    pc1, pc2 = norm_postcode(r1["postcode"]), norm_postcode(r2["postcode"])
    if pc1 and pc1 == pc2:
        n1, n2 = norm_name(r1["name"]), norm_name(r2["name"])
        if n1 and n2 and levenshtein(n1, n2) <= 1:
            return True
    return False


def read_rows(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return [{k: (row.get(k) or "") for k in FIELDS} for row in csv.DictReader(fh)]


def cluster(rows):
    """Return the clusters as lists of row indexes."""
    phone_counts = Counter(norm_phone(r["phone"]) for r in rows)
    parent = list(range(len(rows)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(len(rows)):
        for j in range(i + 1, len(rows)):
            if same_customer(rows[i], rows[j], phone_counts):
                ri, rj = find(i), find(j)
                if ri != rj:
                    parent[max(ri, rj)] = min(ri, rj)
    groups = defaultdict(list)
    for i in range(len(rows)):
        groups[find(i)].append(i)
    return list(groups.values())


def merge(records):
    """Merge the records of one cluster into one output row."""
    newest_first = sorted(records, key=lambda r: (r["updated_at"], -int(r["id"])), reverse=True)

    def pick(field):
        for r in newest_first:
            if r[field].strip():
                return r[field].strip()
        return ""

    ids = sorted(int(r["id"]) for r in records)
    return {
        "id": str(ids[0]),
        "name": pick("name"),
        "email": pick("email").lower(),
        "phone": pick("phone"),
        "postcode": norm_postcode(pick("postcode")),
        "updated_at": max(r["updated_at"] for r in records),
        "source_ids": ";".join(str(i) for i in ids),
        "record_count": str(len(records)),
    }


def write_rows(path, merged):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=OUT_FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(merged)


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    rows = read_rows(argv[1])
    merged = [merge([rows[i] for i in group]) for group in cluster(rows)]
    merged.sort(key=lambda r: int(r["id"]))
    write_rows(argv[2], merged)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
