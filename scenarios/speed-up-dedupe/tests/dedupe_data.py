"""Deterministic customer exports for the speed-up-dedupe tests.

* `background(seed, n_entities, first_id)` builds a large export whose true
  clusters are known by construction (every duplicate is linked directly to its
  entity's primary record, and `check_no_cross_links` proves that no rule of the
  original script links records of different entities).
* `CASES` are small hand-written exports exercising one rule each; their
  expected clusters come from running the original script's own `cluster()`.
"""
import os
import random
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(__file__))
import original_dedupe as orig  # noqa: E402  (the unmodified script, kept with the tests)

FIRST = ["Anna", "Ben", "Chloé", "David", "Élise", "Farid", "Greta", "Hugo", "Ines", "Jonas",
         "Karin", "Luis", "Maja", "Nils", "Olga", "Pablo", "Quinn", "Rosa", "Sven", "Tanja",
         "Ugo", "Vera", "Wim", "Xenia", "Yusuf", "Zoë", "Åsa", "Björn", "Łucja", "Søren",
         "Mónica", "René", "Çağla", "Dương", "Ivo", "Lena", "Marek", "Noor", "Oskar", "Priya"]
SYL = ["ka", "lo", "mi", "ra", "ven", "dor", "sel", "tha", "bri", "gun", "fel", "mar", "tor",
       "lin", "ess", "qua", "zor", "pel", "nik", "dra", "ost", "ume", "bax", "cyr"]
DOMAINS = ["gmail.com", "outlook.com", "example.org", "mail.test", "yahoo.co.uk", "posteo.de"]
LETTERS = "ABCDEFGHJKLMNPRSTUWXYZ"


def ascii_fold(s):
    import unicodedata
    s = unicodedata.normalize("NFKD", s)
    return "".join(c for c in s if not unicodedata.combining(c) and c.isascii()).lower() or "x"


def within_one(a, b):
    """Levenshtein distance <= 1, in linear time."""
    if a == b:
        return True
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la > lb:
        a, b, la, lb = b, a, lb, la
    i = 0
    while i < la and a[i] == b[i]:
        i += 1
    if la == lb:
        return a[i + 1:] == b[i + 1:]
    return a[i:] == b[i + 1:]


def postcode_pool(rng, n):
    pool = set()
    while len(pool) < n:
        pool.add(f"{rng.choice(LETTERS)}{rng.choice(LETTERS)}{rng.randint(1, 99)} "
                 f"{rng.randint(0, 9)}{rng.choice(LETTERS)}{rng.choice(LETTERS)}")
    return sorted(pool)


def fmt_postcode(rng, pc):
    style = rng.random()
    if style < 0.6:
        return pc
    if style < 0.75:
        return pc.replace(" ", "")
    if style < 0.9:
        return pc.lower()
    return " " + pc.replace(" ", "  ") + " "


def fmt_phone(rng, tail9, country="44"):
    """Different spellings of the same number (same last nine digits)."""
    a, b, c = tail9[:4], tail9[4:7], tail9[7:]
    style = rng.randrange(6)
    return [
        f"+{country} {a} {b}{c}",
        f"0{a} {b} {c}",
        f"00{country} {a}-{b}-{c}",
        f"(0{a}) {b}{c}",
        f"+{country}{tail9}",
        f"0{tail9}",
    ][style]


def email_variant(rng, email):
    local, domain = email.split("@")
    style = rng.randrange(5)
    if style == 0:
        return email.upper()
    if style == 1:
        return f"{local}+{rng.choice(['news', 'shop', 'x1'])}@{domain}"
    if style == 2 and domain == "gmail.com":
        return f"{local.replace('.', '')[:2]}.{local.replace('.', '')[2:]}@googlemail.com"
    if style == 3:
        return f"  {local.capitalize()}@{domain.upper()} "
    return email


def name_variant(rng, first, last, pc_norm):
    """A spelling of the name whose normalised form is within one edit."""
    base = orig.norm_name(f"{first} {last}")
    for _ in range(20):
        style = rng.randrange(6)
        if style == 0:
            cand = f"{last}, {first}"
        elif style == 1:
            cand = f"{rng.choice(['Dr.', 'Mrs', 'Mr.', 'Prof'])} {first} {last}"
        elif style == 2:
            cand = f"{ascii_fold(first).capitalize()} {last.upper()}"
        elif style == 3:
            pos = rng.randrange(1, len(last))
            cand = f"{first} {last[:pos]}{rng.choice('aeiouy')}{last[pos + 1:]}"
        elif style == 4:
            pos = rng.randrange(1, len(last))
            cand = f"{first} {last[:pos]}{last[pos + 1:]}"
        else:
            cand = f"  {first}   {last} "
        if within_one(orig.norm_name(cand), base):
            return cand
    return f"{first} {last}"


def stamp(rng):
    if rng.random() < 0.03:
        return ""
    return (f"20{rng.randint(19, 24)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            f"T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}")


def entity_rows(seed, eid, attempt, pool, switchboards):
    """All rows of entity `eid` (without ids), primary record first."""
    rng = random.Random(f"{seed}/{eid}/{attempt}")
    first = rng.choice(FIRST)
    last = "".join(rng.choice(SYL) for _ in range(rng.randint(2, 4))).capitalize()
    postcode = rng.choice(pool)
    pc_norm = orig.norm_postcode(postcode)
    domain = rng.choice(DOMAINS)
    roll = rng.random()
    if roll < 0.06:
        email = f"{rng.choice(['info', 'sales', 'office', 'contact'])}@{ascii_fold(last)}-ltd.test"
        shared_email = True
    else:
        email = f"{ascii_fold(first)}.{ascii_fold(last)}{eid}@{domain}"
        shared_email = False
    switch = switchboards.get(eid)
    tail = switch if switch else f"7{eid:08d}"
    has_phone = rng.random() < 0.85
    primary = {
        "name": f"{first} {last}",
        "email": email if rng.random() < 0.9 else "",
        "phone": fmt_phone(rng, tail) if (has_phone or switch) else "",
        "postcode": fmt_postcode(rng, postcode) if rng.random() < 0.93 else "",
        "updated_at": stamp(rng),
    }
    rows = [primary]
    n_dups = rng.choices([0, 1, 2, 3, 4], [62, 22, 9, 5, 2])[0]
    modes = []
    if primary["email"] and not shared_email:
        modes.append("email")
    if primary["phone"] and not switch:
        modes.append("phone")
    if primary["postcode"]:
        modes.append("name")
    if not modes:
        n_dups = 0
    for k in range(n_dups):
        mode = rng.choice(modes)
        dup = {
            "name": "",
            "email": "",
            "phone": "",
            "postcode": "",
            "updated_at": stamp(rng),
        }
        if mode == "email":
            dup["email"] = email_variant(rng, primary["email"])
        elif mode == "phone":
            dup["phone"] = fmt_phone(rng, tail, rng.choice(["44", "44", "49"]))
        else:
            dup["postcode"] = fmt_postcode(rng, postcode)
            dup["name"] = name_variant(rng, first, last, pc_norm)
        # other attributes: blank, kept, or a brand-new value that links nowhere
        if mode != "name":
            if rng.random() < 0.6:
                dup["name"] = name_variant(rng, first, last, pc_norm)
            if rng.random() < 0.5:
                dup["postcode"] = fmt_postcode(rng, postcode)
        if mode != "email" and rng.random() < 0.3:
            dup["email"] = f"{ascii_fold(first)}{eid}.{k}@fresh-{k}.test"
        if mode != "phone" and rng.random() < 0.3:
            dup["phone"] = fmt_phone(rng, f"8{eid:05d}{k:03d}")
        rows.append(dup)
    return rows


def check_no_cross_links(rows, labels):
    """Return the set of labels involved in a link between different labels."""
    bad = set()
    by_email = defaultdict(set)
    by_phone = defaultdict(set)
    phone_rows = defaultdict(int)
    blocks = defaultdict(list)
    for r, lab in zip(rows, labels):
        e = orig.norm_email(r["email"])
        if e:
            by_email[e].add(lab)
        p = orig.norm_phone(r["phone"])
        if p:
            by_phone[p].add(lab)
            phone_rows[p] += 1
        pc = orig.norm_postcode(r["postcode"])
        n = orig.norm_name(r["name"])
        if pc and n:
            blocks[pc].append((n, lab))
    for e, labs in by_email.items():
        if len(labs) > 1:
            bad |= labs
    for p, labs in by_phone.items():
        if len(labs) > 1 and phone_rows[p] <= orig.SWITCHBOARD_LIMIT:
            bad |= labs
    for members in blocks.values():
        for i in range(len(members)):
            ni, li = members[i]
            for j in range(i + 1, len(members)):
                nj, lj = members[j]
                if li != lj and within_one(ni, nj):
                    bad |= {li, lj}
    return bad


def background(seed=20240611, n_entities=45000, first_id=100000):
    """Return (rows, clusters) where clusters are lists of row indexes."""
    rng = random.Random(seed)
    pool = postcode_pool(rng, n_entities // 6)
    switchboards = {}
    eids = list(range(n_entities))
    rng.shuffle(eids)
    pos = 0
    for sb in range(n_entities // 400):
        size = rng.randint(6, 9)
        for eid in eids[pos:pos + size]:
            switchboards[eid] = f"2{sb:08d}"
        pos += size
    attempts = [0] * n_entities
    per_entity = [entity_rows(seed, e, 0, pool, switchboards) for e in range(n_entities)]
    for _ in range(50):
        rows, labels = [], []
        for e, rs in enumerate(per_entity):
            rows.extend(rs)
            labels.extend([e] * len(rs))
        bad = check_no_cross_links(rows, labels)
        if not bad:
            break
        for e in sorted(bad):
            attempts[e] += 1
            per_entity[e] = entity_rows(seed, e, attempts[e], pool, switchboards)
    else:
        raise AssertionError("could not build a clash-free background")
    # shuffle record order and assign ids (ids not in entity order either)
    order = list(range(len(rows)))
    rng.shuffle(order)
    ids = rng.sample(range(first_id, first_id + 3 * len(rows)), len(rows))
    out_rows = []
    new_index = {}
    for new_i, old_i in enumerate(order):
        r = dict(rows[old_i])
        r["id"] = str(ids[new_i])
        out_rows.append(r)
        new_index[old_i] = new_i
    clusters = defaultdict(list)
    for old_i, lab in enumerate(labels):
        clusters[lab].append(new_index[old_i])
    return out_rows, list(clusters.values())


def _r(i, name="", email="", phone="", postcode="", updated_at="2024-01-01T00:00:00"):
    return {"id": str(i), "name": name, "email": email, "phone": phone, "postcode": postcode,
            "updated_at": updated_at}


CASES = {
    "email": [
        _r(900001, "Eve Adams", " John.Smith+news@GoogleMail.com"),
        _r(900002, "E. Adams", "johnsmith@gmail.com"),
        _r(900003, "Ed Adams", "j.o.h.n.s.m.i.t.h@gmail.com "),
        _r(900004, "Kim Lee", "k.lee@case-mail.test"),
        _r(900005, "Kim Lee", "klee@case-mail.test"),
        _r(900006, "Kim Lee", "K.LEE+promo@Case-Mail.test"),
        _r(900007, "Shop One", "info@case-shop.test"),
        _r(900008, "Shop Two", "INFO@case-shop.test"),
        _r(900009, "Bad Addr", "a@b@case-mail.test"),
        _r(900010, "Bad Addr 2", "a@b@case-mail.test"),
        _r(900011, "No Local", "+tag@case-mail.test"),
        _r(900012, "No Local 2", "@case-mail.test"),
        _r(900013, "Plus Only", "p+1@case-mail.test"),
        _r(900014, "Plus Only", "p+2@case-mail.test"),
    ],
    "phone": [
        _r(910001, "Ann Ash", phone="+44 20 5946 0011"),
        _r(910002, "A. Ash", phone="020 5946 0011"),
        _r(910003, "Ann A.", phone="0044 (0)20-5946-0011"),
        _r(910004, "Tiny", phone="12345"),
        _r(910005, "Tiny 2", phone="1-2-3-4-5"),
        _r(910006, "Wide", phone="０２０ ５９４６ ００２２"),
        _r(910007, "Narrow", phone="020 5946 0022"),
        _r(910008, "Wide 2", phone="０２０５９４６００２２"),
    ] + [
        _r(910100 + k, f"Caller {k}", phone=f"+49 (0) 30 5555 {k % 2}000") for k in range(2)
    ] + [
        _r(910200 + k, f"Desk {k}", phone="030 6666 7777") for k in range(5)
    ] + [
        _r(910300 + k, f"Board {k}", phone="030 6666 8888") for k in range(6)
    ],
    "name": [
        _r(920001, "Dr. José Álvarez", postcode="ZZ1 1AA"),
        _r(920002, "Jose Alvarez", postcode="zz11aa"),
        _r(920003, "Alvarez, Jose", postcode=" ZZ1  1AA"),
        _r(920004, "Jose Alvares", postcode="ZZ1 1AA"),
        _r(920005, "Josa Alvares", postcode="ZZ1 1AA"),
        _r(920006, "Jose Alvarez", postcode="ZZ2 2BB"),
        _r(920007, "Joseph Alvarado", postcode="ZZ2 2BB"),
        _r(920008, "", postcode="ZZ3 3CC"),
        _r(920009, "", postcode="ZZ3 3CC"),
        _r(920010, "Mr", postcode="ZZ3 3CC"),
        _r(920011, "Mrs", postcode="ZZ3 3CC"),
        _r(920012, "Li Wei", postcode="ZZ4 4DD"),
        _r(920013, "Wei Li", postcode="ZZ4 4DD"),
        _r(920014, "Li Wu", postcode="ZZ4 4DD"),
        _r(920015, "Anna Berg", postcode=""),
        _r(920016, "Anna Berg", postcode=""),
        _r(920017, "Ωmega Ψ", postcode="ZZ5 5EE"),
        _r(920018, "ωmega ψ", postcode="ZZ5 5EE"),
        _r(920019, "Ｆｕｌｌ Ｗｉｄｔｈ", postcode="ZZ6 6FF"),
        _r(920020, "Full Width", postcode="ZZ6 6FF"),
        _r(920021, "O'Neil-Smyth", postcode="ZZ7 7GG"),
        _r(920022, "O Neil Smyth", postcode="ZZ7 7GG"),
        _r(920023, "Oneil Smyth", postcode="ZZ7 7GG"),
    ],
    "chain": [
        _r(930001, "Chain Start", email="chain.a@case-chain.test", updated_at="2023-05-01T10:00:00"),
        _r(930002, "Someone", email="CHAIN.A@case-chain.test", phone="+44 7555 123456"),
        _r(930003, "Chain Link", phone="07555 123456", postcode="ZY9 9ZZ"),
        _r(930004, "Chain Lynk", postcode="zy9 9zz"),
        _r(930005, "Chain Lynx", postcode="ZY99ZZ", email="other@case-chain.test"),
        _r(930006, "Unrelated", email="nobody@case-chain.test", phone="07555 654321"),
    ],
    "merge": [
        _r(940010, "Old Name", "OLD@case-merge.test", "07000 111222", "ZX1 1XZ", "2022-01-01T00:00:00"),
        _r(940003, "", "old@case-merge.test", "", " zx1 1xz ", "2024-03-01T12:00:00"),
        _r(940007, " New Name ", "", "  +44 7000 111222 ", "", "2024-03-01T12:00:00"),
        _r(940001, "Blank Stamp", "old+x@case-merge.test", "", "", ""),
        _r(940020, "Solo", "", "", "", "2021-06-06T06:06:06"),
        _r(940021, "", "", "", "", ""),
    ],
    "csv": [
        _r(950001, 'Smith, "Jr." John', "jr@case-csv.test", postcode="ZW1 1WZ"),
        _r(950002, "John Smith Jr", "JR@case-csv.test"),
        _r(950003, "Multi\nLine Name", "ml@case-csv.test"),
        _r(950004, "Ünïcödé Näme", "uni@case-csv.test", "", "zw2 2wz"),
        _r(950005, "Unicode Name", "", "", "ZW2 2WZ", "2025-01-01T00:00:00"),
    ],
}


def check_cases_isolated(bg_rows):
    rows, labels = list(bg_rows), ["bg"] * len(bg_rows)
    for name, rs in CASES.items():
        rows.extend(rs)
        labels.extend([name] * len(rs))
    return check_no_cross_links(rows, labels)
