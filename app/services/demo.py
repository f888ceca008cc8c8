"""Demo data: a few firms with administrators, advisers and clients, all with known passwords
(listed in the README). Loaded once; a second run finds the marker account and does nothing."""
from __future__ import annotations

from dataclasses import asdict, dataclass
from decimal import Decimal
from typing import Mapping

from sqlalchemy import or_
from sqlmodel import col, select

from app.db.engine import session_scope
from app.db.tables import Firm, User
from app.db.types import stored_id, utcnow
from app.domain.roles import Role, UserStatus
from app.services.security import hash_password
from app.services.tenancy import people_of_firm

DEMO_PASSWORD = "Demo1234"
MARKER_EMAIL = "superuser@example.com"

@dataclass(frozen=True)
class FirmDetails:
    """A demo firm's columns as first saved (the others keep the table's defaults)."""
    name: str
    abn: str | None = None
    car: str | None = None
    phone: str | None = None
    email: str | None = None
    website: str | None = None
    licensee_name: str | None = None
    licensee_abn: str | None = None
    licensee_afsl: str | None = None
    licensee_phone: str | None = None
    licensee_email: str | None = None
    licensee_website: str | None = None
    licensee_fsg_link: str | None = None
    licensee_privacy_policy_link: str | None = None
    fee: Decimal | None = None
    max_fee: Decimal | None = None
    min_fee: Decimal | None = None
    ausiex_code: str | None = None


@dataclass(frozen=True)
class DemoFirm:
    """A demo firm: its key (the e-mail domain's first part), its details and its people as
    (role, first name, last name, e-mail); a client's adviser is the firm's advisers in turn."""
    key: str
    firm: FirmDetails
    people: tuple[tuple[str, str, str, str], ...]


FIRMS = (
    DemoFirm(
        key="harbour",
        firm=FirmDetails(name="Harbour Wealth Partners", abn="53004085616", car="1234567", phone="0292501234",
                         email="info@harbourwealth.com.au", website="https://harbourwealth.com.au",
                         licensee_name="Harbour Licensee Services Pty Ltd", licensee_abn="12345678901", licensee_afsl="456789",
                         licensee_phone="0292509999", licensee_email="compliance@harbourlicensee.com.au",
                         licensee_website="https://harbourlicensee.com.au", licensee_fsg_link="https://harbourlicensee.com.au/fsg",
                         licensee_privacy_policy_link="https://harbourlicensee.com.au/privacy",
                         fee=Decimal("0.11"), max_fee=Decimal("250.00"), min_fee=Decimal("19.95"), ausiex_code="HWP001"),
        people=(
            ("administrator", "Olivia", "Bennett", "admin@harbour.example.com"),
            ("adviser", "James", "Nguyen", "adviser@harbour.example.com"),
            ("adviser", "Charlotte", "Walsh", "charlotte.walsh@harbour.example.com"),
            ("client", "Liam", "O'Connor", "client@harbour.example.com"),
            ("client", "Amelia", "Fraser", "amelia.fraser@harbour.example.com"),
            ("client", "Noah", "Papadopoulos", "noah.papadopoulos@harbour.example.com"),
            ("client", "Isla", "McKenzie", "isla.mckenzie@harbour.example.com"),
        ),
    ),
    DemoFirm(
        key="southerncross",
        firm=FirmDetails(name="Southern Cross Advisory", abn="98765432109", car="7654321", phone="0396001234",
                         email="hello@southerncrossadvisory.com.au", website="https://southerncrossadvisory.com.au",
                         licensee_name="Southern Cross Licensee Pty Ltd", licensee_afsl="987654",
                         fee=Decimal("0.095"), max_fee=Decimal("300.00"), min_fee=Decimal("15.00"), ausiex_code="SCA204"),
        people=(
            ("administrator", "Mia", "Thompson", "admin@southerncross.example.com"),
            ("adviser", "William", "Chen", "adviser@southerncross.example.com"),
            ("client", "Grace", "Kowalski", "client@southerncross.example.com"),
            ("client", "Oliver", "Singh", "oliver.singh@southerncross.example.com"),
            ("client", "Chloe", "Anderson", "chloe.anderson@southerncross.example.com"),
        ),
    ),
    DemoFirm(
        key="outback",
        firm=FirmDetails(name="Outback Financial Planning", abn="11222333444", phone="0889001234",
                         email="office@outbackfp.com.au", website="https://outbackfp.com.au", car="3344556",
                         licensee_name="Top End Licensee Group Pty Ltd", licensee_afsl="334455",
                         licensee_website="https://topendlicensee.com.au"),
        people=(
            ("administrator", "Jack", "Robinson", "admin@outback.example.com"),
            ("adviser", "Sophie", "Taylor", "adviser@outback.example.com"),
            ("client", "Harper", "Wilson", "client@outback.example.com"),
        ),
    ),
)


def _load_demo_people() -> bool:
    """The demo people and their firms, once (after the industry groups and the asset universe);
    True when they were loaded now."""
    from app.services.demo_industry_groups import load_demo_industry_groups

    load_demo_industry_groups()  # its own marker: runs for new and existing demo databases
    from app.services.demo_assets import load_demo_assets

    load_demo_assets()  # its own marker too (the universe's last code): after the industry groups it links to
    with session_scope() as s:
        if s.exec(select(User.id).where(User.email == MARKER_EMAIL)).first() is not None:
            return False
        password_hash = hash_password(DEMO_PASSWORD)
        now = utcnow()

        def person(role: str, first: str, last: str, email: str, firm_id: int | None, adviser_id: int | None = None) -> User:
            user = User(email=email, first_name=first, last_name=last, role=role, status=UserStatus.ACTIVE.value,
                        firm_id=firm_id, adviser_id=adviser_id, password_hash=password_hash, activated_at=now)
            s.add(user)
            s.flush()
            return user

        person(Role.SUPERUSER.value, "Sam", "Superuser", MARKER_EMAIL, None)
        for spec in FIRMS:
            firm = Firm(**asdict(spec.firm))
            s.add(firm)
            s.flush()
            advisers: list[User] = []
            for i, (role, first, last, email) in enumerate(spec.people):
                adviser_id = stored_id(advisers[i % len(advisers)]) if role == Role.CLIENT.value and advisers else None
                user = person(role, first, last, email, firm.id, adviser_id)
                if role == Role.ADVISER.value:
                    advisers.append(user)
        return True


# ---- each demo firm's client documents: logo, licensee, record of advice layout and template ------------
_DISCLAIMER = ("This record of advice is personal advice about your portfolio, based on the information you gave "
               "us. Past performance is not a reliable indicator of future performance. Read the product disclosure "
               "statements before acting, and contact your adviser if anything here is unclear.")


@dataclass(frozen=True)
class FirmDocuments:
    """A demo firm's logo (its colour and initials), its record of advice layout, colour and footer,
    the share of a sell taken from the HIN for the tax estimate, and its comments by asset code."""
    logo_colour: tuple[int, int, int]
    initials: str
    layout: str
    colour: str
    footer: str
    hin: Decimal
    comments: Mapping[str, str]


DOCUMENTS = {  # by firm name
    "Harbour Wealth Partners": FirmDocuments(
        logo_colour=(31, 78, 121), initials="HW", layout="default", colour="#1F4E79",
        footer="Harbour Wealth Partners - confidential", hin=Decimal(40),
        comments={"BHP": "Oldest parcels (bought 2016) are sold first; their gain is discounted.",
                  "CBA": "Sold from the parcel bought in 2019."}),
    "Southern Cross Advisory": FirmDocuments(
        logo_colour=(122, 31, 92), initials="SC", layout="detailed", colour="#7A1F5C",
        footer="Southern Cross Advisory - private", hin=Decimal(100),
        comments={"WBC": "Held in the pension account: the gain is exempt."}),
    "Outback Financial Planning": FirmDocuments(
        logo_colour=(154, 74, 18), initials="OF", layout="compact", colour="#9A4A12",
        footer="Outback Financial Planning", hin=Decimal(25),
        comments={"IVV": "Units bought in 2021 are sold first."}),
}


def _picture(colour: tuple[int, int, int], text: str, size: tuple[int, int], signature: bool = False) -> bytes:
    """A small PNG drawn here (the demo data needs no file in the repository): a logo's initials on
    the firm's colour, or a signature's stroke."""
    import io

    from PIL import Image, ImageDraw

    image = Image.new("RGB", size, (255, 255, 255) if signature else colour)
    draw = ImageDraw.Draw(image)
    if signature:
        w, h = size
        points = [(8 + i * (w - 16) / 40, h / 2 + (h / 4) * ((-1) ** i) * (0.4 + (i % 5) / 8)) for i in range(41)]
        draw.line(points, fill=colour, width=3)
    else:
        draw.rectangle([4, 4, size[0] - 5, size[1] - 5], outline=(255, 255, 255), width=2)
        draw.text((size[0] // 2, size[1] // 2), text, fill=(255, 255, 255), anchor="mm", font_size=size[1] // 2)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


# Each demo adviser's authorised representative number (printed under their name on client documents).
DEMO_AR_NUMBERS = {"adviser@harbour.example.com": "1001234", "charlotte.walsh@harbour.example.com": "1001235",
                   "adviser@southerncross.example.com": "1002345", "adviser@outback.example.com": "1003456"}


def load_demo_documents() -> None:
    """Each demo firm's logo, its record of advice layout, colour, disclaimer, footer and template,
    and its advisers' signatures; only what is not set yet (an administrator's choices stay)."""
    from app.domain.firm_documents import AssetComment, comments_json
    from app.services import files

    with session_scope() as s:
        for spec in FIRMS:
            firm = s.exec(select(Firm).where(Firm.name == spec.firm.name, col(Firm.deleted_at).is_(None))).first()
            docs = DOCUMENTS.get(spec.firm.name)
            if firm is None or docs is None:
                continue
            if not firm.logo:
                firm.logo = files.save_image("image/png", _picture(docs.logo_colour, docs.initials, (240, 96)))
            firm.car = firm.car or spec.firm.car
            firm.licensee_name = firm.licensee_name or spec.firm.licensee_name
            firm.licensee_afsl = firm.licensee_afsl or spec.firm.licensee_afsl
            if firm.rofa_layout is None:
                firm.rofa_layout, firm.rofa_colour = docs.layout, docs.colour
                firm.rofa_disclaimer, firm.rofa_footer = _DISCLAIMER, docs.footer
                firm.cgt_hin_percent = docs.hin
                firm.cgt_asset_comments = comments_json(tuple(AssetComment(code, text)
                                                              for code, text in docs.comments.items()))
            s.add(firm)
            for adviser in s.exec(select(User).where(people_of_firm(firm.id), User.role == Role.ADVISER.value,
                                                     or_(col(User.signature).is_(None), col(User.ar_number).is_(None)))).all():
                if not adviser.signature:
                    adviser.signature = files.save_image("image/png", _picture((20, 40, 90), "", (280, 80),
                                                                               signature=True))
                adviser.ar_number = adviser.ar_number or DEMO_AR_NUMBERS.get(adviser.email)
                s.add(adviser)


def load_demo_data() -> bool:
    """All the demo data. The parts that need the demo people (and the asset universe) run after
    _load_demo_people has committed; each keeps its own marker, so it also runs for an existing demo
    database. True when the demo people were loaded now."""
    loaded = _load_demo_people()
    load_demo_documents()  # logos, licensees, record of advice templates and signatures: only what is missing
    from app.services.demo_models import load_demo_models

    load_demo_models()  # skips quietly while there are no assets
    from app.services.demo_portfolios import load_demo_portfolios
    load_demo_portfolios()  # after the models they follow; its own marker (the portfolio names)
    from app.services.demo_advice import load_demo_advice

    load_demo_advice()  # recommendations and the advice chain, after the demo portfolios; its own markers
    return loaded
