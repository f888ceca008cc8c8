"""Transaction upload (spec 002 s7: POST /api/transactions/upload with investment_id and file).

A CSV file or an .xlsx workbook (columns: app.domain.transaction_rules.parse_upload) adds asset
and cash transactions to one portfolio: every line, or none. The whole file is read and checked
first - each line's fields, its asset code (usable by the portfolio's firm) and, for sells, the
units held at that point: the portfolio's executed history plus the earlier lines of the same file,
in file order - and only a file without a single wrong line is written, in one database
transaction with the portfolio row locked. Otherwise nothing is written and the failure says
'Transactions are not uploaded due to line(s): 3, 7', with each line's reasons in the error's
fields ({"3": "code: unknown asset code XYZ", ...}).

Staff only (a client is refused before anything is read); another firm's portfolio is not found."""
from __future__ import annotations

import json
from dataclasses import dataclass

from app.db.engine import session_scope
from app.db.tables import CashTransaction
from app.db.types import stored_id, utcnow
from app.domain import transaction_rules as rules
from app.domain.errors import ValidationError
from app.domain.permissions import Actor, require_staff
from app.domain.uploads import (  # noqa: F401  (the upload screen's and API's limits)
    MAX_UPLOAD_BYTES, SELECT_FILE, LineError, checked_upload,
)
from app.domain.transactions import Kind
from app.services.tenancy import find_assets_by_codes, load_portfolio
from app.services.transactions import add_asset_in_session, units_book


@dataclass(frozen=True)
class UploadedTransactions:
    """A file uploaded: its notice ('File uploaded'), how many lines were added, of them how many
    asset and how many cash transactions."""
    notice: str
    count: int
    asset_transactions: int
    cash_transactions: int


def upload_transactions(*, actor: Actor, investment_id: int | None, content_type: str | None, data: bytes | None,
                        ) -> UploadedTransactions:
    """Add every transaction of the file to the portfolio (None: the form named none, not found),
    or none.

    Checks, in order: staff; the portfolio (404 for another firm's); the file type ('Invalid file
    type!'); a file is there; the file can be read (its header names date and type); every line."""
    require_staff(actor)  # clients are refused before anything is read
    with session_scope() as s:
        load_portfolio(s, actor, investment_id, for_edit=True)
    lines, errors = checked_upload(content_type, data, rules.parse_upload)

    asset_count = cash_count = 0
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, investment_id, for_edit=True, lock=True)
        codes = {line.code for line in lines if line.code}
        found = find_assets_by_codes(s, actor, codes, firm_id=portfolio.firm_id)
        book = units_book(s, portfolio)
        errors = list(errors)
        now = utcnow()
        for line in lines:  # file order: each sell sees the units of the lines before it
            if line.kind is not None:
                asset = found.get(line.code or "")
                if asset is None:
                    errors.append(LineError(line.line, "code: " + rules.UNKNOWN_ASSET.format(code=line.code)))
                    continue
                try:  # checked before anything of the line is written
                    add_asset_in_session(s, actor, portfolio, dict(line.values), book, asset)
                except ValidationError as exc:
                    field = "quantity" if line.kind is Kind.PARCEL else ("ratio" if line.kind is Kind.RECONSTRUCTION else "type")
                    errors.append(LineError(line.line, f"{field}: {exc.message.strip()}"))
                    continue
                asset_count += 1
            else:
                values = line.values
                s.add(CashTransaction(
                    investment_id=stored_id(portfolio), type=values["cash_type"].value, action=values["action"].value,
                    status=values["status"], price=values["price"], trade_at=values["trade_at"],
                    settlement_at=values["settlement_at"],
                    payload=json.dumps({"description": values["description"]}) if values["description"] else None,
                    created_by=actor.id, created_at=now, updated_at=now,
                ))
                cash_count += 1
        if errors:  # nothing is kept: leaving the session with an error rolls every line back
            raise rules.upload_failure(errors)
    return UploadedTransactions(notice=rules.FILE_UPLOADED, count=asset_count + cash_count,
                                asset_transactions=asset_count, cash_transactions=cash_count)
