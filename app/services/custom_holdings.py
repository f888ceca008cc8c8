"""Custom holdings of a portfolio (spec 002 s3/s4/s5/s6; service: validate, create, update, delete).

A custom holding is something the product does not trade (a property, an unlisted fund ...): a
name, an asset class, an optional fee (percent) and a value (dollars). Its name is unique within
the portfolio, compared trimmed and without regard to case; a clash is a ValidationError whose
fields mark the name ('Name should be unique.'), so the form marks that field invalid.

Anyone who may see the portfolio reads its custom holdings; writes are for staff (superuser,
administrator, adviser of the portfolio's firm) - clients get 403. The class must be the cash class,
a shared class or one of the portfolio firm's own classes. Each write is one database transaction
that locks the portfolio row, so two writers cannot both pass the uniqueness check."""
from __future__ import annotations

from typing import Any, Mapping

from sqlalchemy import func
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from app.db.engine import session_scope
from app.db.tables import AssetClass, CustomHolding, Portfolio, PortfolioException
from app.db.types import utcnow
from app.domain import validators as v
from app.domain.errors import INVALID_FORM, ValidationError, not_found
from app.domain.money import number_json, to_cents
from app.domain.permissions import Actor
from app.services.tenancy import as_id, asset_classes_of, load_portfolio, load_portfolio_row

NOT_FOUND = not_found("Custom holding")
CREATED = "Custom holding is created"
UPDATED = "Custom holding is updated"
DELETED = "Custom holding is deleted"
NAME_UNIQUE = v.UNIQUE.format(label="Name")  # 'Name should be unique.'
NAME_MAX = 200
FEE_LIMIT = 100
FIELDS = ("name", "class_id", "fee", "value")


# ---- cleaning -----------------------------------------------------------------------------------
def clean(data: Mapping[str, Any]) -> tuple[dict[str, Any], v.FieldErrors]:
    """Values from a form or request body and the per-field errors (spec 002 s5 texts)."""
    errors = v.FieldErrors()
    name = data.get("name")
    name = name.strip() if isinstance(name, str) else ("" if name is None else str(name).strip())
    errors.check("name", v.required(name, "name"), v.max_length(name, NAME_MAX))

    class_id = as_id(data.get("class_id"))
    errors.check("class_id", v.required_select(class_id, "class"))

    value = data.get("value")
    errors.check("value", v.required(value, "value"), v.float_(value), v.positive(value), v.two_decimals(value))

    fee = data.get("fee")
    errors.check("fee", v.float_(fee), v.positive(fee), v.two_decimals(fee), v.less_than(fee, FEE_LIMIT))

    values: dict[str, Any] = {"name": name, "class_id": class_id}
    values["value"] = None if "value" in errors else v.parse_decimal(value)
    values["fee"] = None if "fee" in errors else v.parse_decimal(fee)
    return values, errors


def failure_message(errors: Mapping[str, str]) -> str:
    """A refusal's text: the name's clash alone says so, anything else asks for valid data."""
    return NAME_UNIQUE if dict(errors) == {"name": NAME_UNIQUE} else INVALID_FORM


def _raise(errors: Mapping[str, str]) -> None:
    if errors:
        raise ValidationError(failure_message(errors), dict(errors))


def _usable_class(s: Session, portfolio: Portfolio, class_id: int | None) -> AssetClass | None:
    if class_id is None:
        return None
    return s.exec(select(AssetClass).where(
        AssetClass.id == class_id, asset_classes_of(portfolio.firm_id))).first()


def _name_taken(s: Session, portfolio_id: int, name: str, exclude_id: int | None) -> bool:
    statement = select(CustomHolding.id).where(CustomHolding.investment_id == portfolio_id,
                                               func.lower(func.trim(CustomHolding.name)) == name.lower())
    if exclude_id is not None:
        statement = statement.where(CustomHolding.id != exclude_id)
    return s.exec(statement).first() is not None


def _check(s: Session, portfolio: Portfolio, data: Mapping[str, Any], exclude_id: int | None) -> tuple[dict[str, Any], AssetClass]:
    values, errors = clean(data)
    klass = _usable_class(s, portfolio, values["class_id"])
    if "class_id" not in errors and klass is None:
        errors.check("class_id", v.REQUIRED_SELECT.format(label="class"))
    if "name" not in errors and _name_taken(s, portfolio.id, values["name"], exclude_id):
        errors.check("name", NAME_UNIQUE)
    _raise(errors)
    return values, klass  # type: ignore[return-value]


def _load_holding(s: Session, actor: Actor, holding_id: Any, *, for_edit: bool) -> tuple[CustomHolding, Portfolio]:
    return load_portfolio_row(s, actor, CustomHolding, holding_id, NOT_FOUND, for_edit=for_edit, lock=for_edit)


def public(row: CustomHolding, klass: AssetClass | None) -> dict[str, Any]:
    return {
        "id": row.id, "investment_id": row.investment_id, "name": row.name, "class_id": row.class_id,
        "classTitle": klass.title if klass else "", "class_type": ("cash" if klass and klass.is_cash else "asset"),
        "fee": number_json(row.fee),
        "value": format(to_cents(row.value), "f"),
    }


def _unique_violation(exc: IntegrityError) -> ValidationError:
    return ValidationError(NAME_UNIQUE, {"name": NAME_UNIQUE})


# ---- use cases ----------------------------------------------------------------------------------
def validate(*, actor: Actor, data: Mapping[str, Any]) -> dict[str, Any]:
    """Checks a custom holding (new, or the one named by `id`) without saving it:
    {'valid': True} or a ValidationError with per-field texts."""
    with session_scope() as s:
        holding_id = as_id(data.get("id"))
        if holding_id is not None:
            row, portfolio = _load_holding(s, actor, holding_id, for_edit=True)
        else:
            portfolio = load_portfolio(s, actor, data.get("investment_id"), for_edit=True)
        _check(s, portfolio, data, holding_id)
        return {"valid": True}


def create(*, actor: Actor, data: Mapping[str, Any]) -> dict[str, Any]:
    try:
        with session_scope() as s:
            portfolio = load_portfolio(s, actor, data.get("investment_id"), for_edit=True, lock=True)
            values, klass = _check(s, portfolio, data, None)
            now = utcnow()
            row = CustomHolding(investment_id=portfolio.id, name=values["name"], class_id=klass.id,
                                fee=values["fee"], value=to_cents(values["value"]), created_at=now, updated_at=now)
            s.add(row)
            s.flush()
            return {**public(row, klass), "message": CREATED}
    except IntegrityError as exc:  # a concurrent writer took the name first
        raise _unique_violation(exc) from None


def update(*, actor: Actor, holding_id: Any, data: Mapping[str, Any]) -> dict[str, Any]:
    """Replaces name, class, fee and value (fields not sent keep their current values)."""
    try:
        with session_scope() as s:
            row, portfolio = _load_holding(s, actor, holding_id, for_edit=True)
            merged = {"name": row.name, "class_id": row.class_id, "fee": row.fee, "value": row.value}
            merged.update({k: data[k] for k in FIELDS if k in data})
            values, klass = _check(s, portfolio, merged, row.id)
            row.name, row.class_id, row.fee = values["name"], klass.id, values["fee"]
            row.value = to_cents(values["value"])
            row.updated_at = utcnow()
            s.add(row)
            s.flush()
            return {**public(row, klass), "message": UPDATED}
    except IntegrityError as exc:
        raise _unique_violation(exc) from None


def delete(*, actor: Actor, holding_id: Any) -> dict[str, Any]:
    """Deletes the holding and the portfolio exceptions that name it."""
    with session_scope() as s:
        row, _portfolio = _load_holding(s, actor, holding_id, for_edit=True)
        for exception in s.exec(select(PortfolioException).where(PortfolioException.custom_holding_id == row.id)).all():
            s.delete(exception)
        s.flush()
        s.delete(row)
        return {"id": row.id, "message": DELETED}


def get(*, actor: Actor, holding_id: Any) -> dict[str, Any]:
    with session_scope() as s:
        row, _portfolio = _load_holding(s, actor, holding_id, for_edit=False)
        return public(row, s.get(AssetClass, row.class_id))


def list_for_portfolio(*, actor: Actor, portfolio_id: Any) -> list[dict[str, Any]]:
    """GET /api/investments/{id}/custom-holdings: the portfolio's custom holdings by name."""
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, portfolio_id)
        rows = s.exec(select(CustomHolding, AssetClass).join(AssetClass, AssetClass.id == CustomHolding.class_id)
                      .where(CustomHolding.investment_id == portfolio.id)
                      .order_by(func.lower(CustomHolding.name), CustomHolding.id)).all()
        return [public(row, klass) for row, klass in rows]


def class_options(*, actor: Actor, portfolio_id: Any) -> list[dict[str, Any]]:
    """The classes a custom holding of the portfolio may take (cash first, then by order and title)."""
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, portfolio_id)
        rows = s.exec(select(AssetClass).where(asset_classes_of(portfolio.firm_id))
                      .order_by(col(AssetClass.is_cash).desc(), AssetClass.idx, func.lower(AssetClass.title), AssetClass.id)).all()
        return [{"id": c.id, "title": c.title, "is_cash": bool(c.is_cash)} for c in rows]
