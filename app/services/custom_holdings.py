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

from dataclasses import dataclass, field
from decimal import Decimal

from sqlalchemy import func
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from app.db.engine import session_scope
from app.db.tables import AssetClass, CustomHolding, Portfolio, PortfolioException
from app.db.types import stored_id, utcnow
from app.domain import validators as v
from app.domain.custom_holdings import (  # the form and its check, for the screens too
    FEE_LIMIT, FIELDS, NAME_MAX, NAME_UNIQUE, CustomHoldingForm, CustomHoldingValues, clean, failure_message,
)
from app.domain.errors import ValidationError, not_found
from app.domain.money import plain, to_cents
from app.domain.permissions import Actor
from app.domain.wire import wire
from app.services.tenancy import asset_classes_of, load_portfolio, load_portfolio_row

__all__ = ["FEE_LIMIT", "FIELDS", "NAME_MAX", "NAME_UNIQUE", "CustomHoldingForm", "clean", "failure_message"]

NOT_FOUND = not_found("Custom holding")
CREATED = "Custom holding is created"
UPDATED = "Custom holding is updated"
DELETED = "Custom holding is deleted"


# ---- the answers ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class CustomHoldingView:
    """A custom holding as the screens and GET /custom-holdings/{id} read it: its class's title and
    kind ('cash' for the system cash class, else 'asset'), the fee in percent as entered (no trailing
    zeros), the value in dollars to the cent."""
    id: int
    investment_id: int
    name: str
    class_id: int
    class_title: str = field(metadata=wire("classTitle"))
    class_type: str
    fee: Decimal | None
    value: Decimal


@dataclass(frozen=True)
class CustomHoldingSaved(CustomHoldingView):
    """A created or updated holding, with the toast that says so."""
    message: str


@dataclass(frozen=True)
class CustomHoldingDeleted:
    id: int
    message: str


@dataclass(frozen=True)
class HoldingChecked:
    """A form that passed every check (a failing one raises its ValidationError)."""
    valid: bool = True


@dataclass(frozen=True)
class ClassOption:
    """A class a custom holding of the portfolio may take."""
    id: int
    title: str
    is_cash: bool


# ---- checking -------------------------------------------------------------------------------------
def _raise(errors: v.FieldErrors) -> None:
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


def _check(s: Session, portfolio: Portfolio, form: CustomHoldingForm,
           exclude_id: int | None) -> tuple[CustomHoldingValues, AssetClass]:
    values, errors = clean(form)
    klass = _usable_class(s, portfolio, values.class_id)
    if "class_id" not in errors and klass is None:
        errors.check("class_id", v.REQUIRED_SELECT.format(label="class"))
    if "name" not in errors and _name_taken(s, stored_id(portfolio), values.name, exclude_id):
        errors.check("name", NAME_UNIQUE)
    _raise(errors)
    assert klass is not None  # no error: the class was found
    return values, klass


def _load_holding(s: Session, actor: Actor, holding_id: int, *, for_edit: bool) -> tuple[CustomHolding, Portfolio]:
    row, portfolio = load_portfolio_row(s, actor, CustomHolding, holding_id, NOT_FOUND, for_edit=for_edit,
                                        lock=for_edit)
    return row, portfolio


def _sent_text(value: Decimal | None) -> str | None:
    return None if value is None else format(value, "f")


def _merged(row: CustomHolding, form: CustomHoldingForm) -> CustomHoldingForm:
    """The saved holding with the fields the form sent (the others keep their current values)."""
    sent = form.sent
    return CustomHoldingForm(
        name=form.name if "name" in sent else row.name,
        class_id=form.class_id if "class_id" in sent else row.class_id,
        fee=form.fee if "fee" in sent else _sent_text(row.fee),
        value=form.value if "value" in sent else _sent_text(row.value))


def public(row: CustomHolding, klass: AssetClass | None) -> CustomHoldingView:
    return CustomHoldingView(
        id=stored_id(row), investment_id=row.investment_id, name=row.name, class_id=row.class_id,
        class_title=klass.title if klass else "", class_type="cash" if klass and klass.is_cash else "asset",
        fee=None if row.fee is None else plain(Decimal(row.fee)), value=to_cents(row.value))


def _saved(view: CustomHoldingView, message: str) -> CustomHoldingSaved:
    return CustomHoldingSaved(**vars(view), message=message)


def _unique_violation() -> ValidationError:
    return ValidationError(NAME_UNIQUE, {"name": NAME_UNIQUE})


# ---- use cases ----------------------------------------------------------------------------------
def validate(*, actor: Actor, form: CustomHoldingForm) -> HoldingChecked:
    """Checks a custom holding (new, of form.portfolio_id, or the saved one form.holding_id names)
    without saving it; a ValidationError with per-field texts when it does not pass."""
    with session_scope() as s:
        if form.holding_id is not None:
            _row, portfolio = _load_holding(s, actor, form.holding_id, for_edit=True)
        else:
            portfolio = load_portfolio(s, actor, form.portfolio_id, for_edit=True)
        _check(s, portfolio, form, form.holding_id)
        return HoldingChecked()


def create(*, actor: Actor, form: CustomHoldingForm) -> CustomHoldingSaved:
    """A new custom holding of form.portfolio_id."""
    try:
        with session_scope() as s:
            portfolio = load_portfolio(s, actor, form.portfolio_id, for_edit=True, lock=True)
            values, klass = _check(s, portfolio, form, None)
            now = utcnow()
            row = CustomHolding(investment_id=stored_id(portfolio), name=values.name, class_id=stored_id(klass),
                                fee=values.fee, value=to_cents(values.value or 0), created_at=now, updated_at=now)
            s.add(row)
            s.flush()
            return _saved(public(row, klass), CREATED)
    except IntegrityError:  # a concurrent writer took the name first
        raise _unique_violation() from None


def update(*, actor: Actor, holding_id: int, form: CustomHoldingForm) -> CustomHoldingSaved:
    """Replaces name, class, fee and value (fields the form did not send keep their current values)."""
    try:
        with session_scope() as s:
            row, portfolio = _load_holding(s, actor, holding_id, for_edit=True)
            values, klass = _check(s, portfolio, _merged(row, form), row.id)
            row.name, row.class_id, row.fee = values.name, stored_id(klass), values.fee
            row.value = to_cents(values.value or 0)
            row.updated_at = utcnow()
            s.add(row)
            s.flush()
            return _saved(public(row, klass), UPDATED)
    except IntegrityError:
        raise _unique_violation() from None


def delete(*, actor: Actor, holding_id: int) -> CustomHoldingDeleted:
    """Deletes the holding and the portfolio exceptions that name it."""
    with session_scope() as s:
        row, _portfolio = _load_holding(s, actor, holding_id, for_edit=True)
        for exception in s.exec(select(PortfolioException).where(PortfolioException.custom_holding_id == row.id)).all():
            s.delete(exception)
        s.flush()
        s.delete(row)
        return CustomHoldingDeleted(id=stored_id(row), message=DELETED)


def get(*, actor: Actor, holding_id: int) -> CustomHoldingView:
    with session_scope() as s:
        row, _portfolio = _load_holding(s, actor, holding_id, for_edit=False)
        return public(row, s.get(AssetClass, row.class_id))


def list_for_portfolio(*, actor: Actor, portfolio_id: int) -> list[CustomHoldingView]:
    """GET /api/investments/{id}/custom-holdings: the portfolio's custom holdings by name."""
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, portfolio_id)
        rows = s.exec(select(CustomHolding, AssetClass).join(AssetClass, col(AssetClass.id) == CustomHolding.class_id)
                      .where(CustomHolding.investment_id == portfolio.id)
                      .order_by(func.lower(CustomHolding.name), col(CustomHolding.id))).all()
        return [public(row, klass) for row, klass in rows]


def class_options(*, actor: Actor, portfolio_id: int) -> list[ClassOption]:
    """The classes a custom holding of the portfolio may take (cash first, then by order and title)."""
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, portfolio_id)
        rows = s.exec(select(AssetClass).where(asset_classes_of(portfolio.firm_id))
                      .order_by(col(AssetClass.is_cash).desc(), col(AssetClass.idx), func.lower(AssetClass.title),
                                col(AssetClass.id))).all()
        return [ClassOption(id=stored_id(c), title=c.title, is_cash=bool(c.is_cash)) for c in rows]
