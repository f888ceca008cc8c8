"""What the recommendations screens show: a model's long- and short-term recommendations as rows
(saved, being edited, or new), and the headline of a refused upload."""
from __future__ import annotations

import dataclasses

from app.domain import recommendations as rules
from app.domain.errors import INVALID_FORM
from app.domain.recommendations import Kind
from app.services import recommendations as service
from app.ui.display import percent_1dp, price_2_to_6dp, text as _text
from app.ui.toolkit.rows import field_errors


EDIT_FIELDS = ("code", "action", "comment", "price", "yield")


@dataclasses.dataclass(frozen=True)
class RecRow:
    """A recommendation as its row shows it, with what the row's inputs hold while it is edited
    (e_<field>) and each input's error (err_<field>)."""

    key: str = ""  # "r<id>" for saved rows, "n<k>" for new ones
    id: int = 0
    asset_id: int = 0
    code: str = ""
    name: str = ""
    action: str = ""
    comment: str = ""
    price: str = ""
    yld: str = ""  # yield ("yield" is a keyword)
    price_text: str = ""  # $1,234.50
    yield_text: str = ""  # 4.5%
    in_model: bool = False
    is_new: bool = False
    editing: bool = False
    tried: bool = False  # a save was attempted: errors show, and then live
    e_code: str = ""
    e_action: str = ""
    e_comment: str = ""
    e_price: str = ""
    e_yield: str = ""
    err_code: str = ""
    err_action: str = ""
    err_comment: str = ""
    err_price: str = ""
    err_yield: str = ""


def with_errors(row: RecRow, errors: dict[str, str]) -> RecRow:
    """The row showing `errors` (by edit field) under its inputs, and no other."""
    shown = field_errors(errors, EDIT_FIELDS)
    return dataclasses.replace(row, err_code=shown["code"], err_action=shown["action"], err_comment=shown["comment"],
                               err_price=shown["price"], err_yield=shown["yield"])


def with_asset(row: RecRow, asset_id: int, code: str, name: str) -> RecRow:
    """A new row naming the asset found or picked (its input showing the asset's own code)."""
    return dataclasses.replace(row, asset_id=asset_id, code=code, name=name, e_code=code, err_code="")


def at_rest(row: RecRow, editing: bool = False) -> RecRow:
    """The row's inputs holding its saved values, no errors shown (editing it, or not)."""
    return with_errors(dataclasses.replace(row, editing=editing, tried=False, e_code=row.code, e_action=row.action,
                                            e_comment=row.comment, e_price=row.price, e_yield=row.yld), {})


def rec_row(rec: service.LongTermView | service.ShortTermView) -> RecRow:
    named = rec.asset if isinstance(rec, service.LongTermView) else rec
    price, yld = ("", "") if isinstance(rec, service.LongTermView) else (_text(rec.price), _text(rec.yield_))
    return at_rest(RecRow(key=f"r{rec.id}", id=rec.id, asset_id=rec.asset_id, code=named.code, name=named.name,
                           action=rec.action, comment=_text(rec.comment), price=price, yld=yld,
                           price_text=price_2_to_6dp(price), yield_text=percent_1dp(yld),
                           in_model=isinstance(rec, service.ShortTermView) and rec.model_asset))


def new_rec_row(kind: Kind, key: str) -> RecRow:
    action = "buy" if kind is Kind.LONG_TERM else "BUY"  # a new row starts as buy (spec 000 s4)
    return at_rest(RecRow(key=key, action=action, is_new=True), editing=True)


def upload_headline(errors: dict[str, str]) -> str:
    """The toast for a refused row: the specification's own text where it has one."""
    if errors.get("comment") == rules.COMMENT_REQUIRED:
        return rules.COMMENT_REQUIRED
    if "code" in errors and len(errors) == 1:
        return errors["code"]
    return INVALID_FORM
