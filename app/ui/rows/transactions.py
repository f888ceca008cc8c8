"""What the transaction screens show: the cash list's rows, the asset panel's positions and their
transactions, and a saved transaction as the form dialog's inputs, built from the services' read
models (app.services.transactions)."""
from __future__ import annotations

import dataclasses
from decimal import Decimal
from typing import Iterable

from app.domain.transactions import Status
from app.services.transactions import AssetPosition, AssetTransactionView, CashTransactionView
from app.ui.display import NA, close_price, day, input_day, money, sign_of, whole_units
from app.ui.toolkit.rows import Detail

DASH = "\u2014"


def ledger_status_color(status: str) -> str:
    return {Status.EXECUTED.value: "green", Status.PENDING.value: "amber", Status.PENDING_APPROVAL.value: "blue",
            Status.PROCESSING.value: "gray", Status.PROCESSING_ERROR.value: "red"}.get(status, "gray")


@dataclasses.dataclass
class LedgerRow:
    """What a cash and an asset transaction's row share: its day, amount and description, its status
    badge, and whether the user may edit or delete it."""

    id: int = 0
    date: str = ""
    amount: str = ""
    description: str = ""
    status: str = ""
    status_label: str = ""
    status_color: str = "gray"
    can_edit: bool = False
    can_delete: bool = False


@dataclasses.dataclass
class CashRow(LedgerRow):
    settlement: str = ""
    klass: str = ""
    asset: str = ""
    negative: bool = False      # the amount is below zero
    counted: bool = True
    is_opening: bool = False
    form: str = ""
    linked_id: int = 0          # its asset transaction (a listed asset's), 0 for none or a deposit's


@dataclasses.dataclass
class TxRow(LedgerRow):
    type_label: str = ""
    quantity: str = ""
    negative: bool = False      # the quantity is below zero
    price: str = ""
    fee: str = ""
    stop_loss: str = ""         # 'Stop loss' for a transaction a stop-loss recommendation generated


@dataclasses.dataclass
class PanelRow:
    asset_id: int = 0
    code: str = ""
    name: str = ""
    quantity: str = ""
    remaining: str = ""
    price: str = ""
    cost: str = ""
    value: str = ""
    realised: str = ""
    realised_sign: str = ""
    unrealised: str = ""
    unrealised_sign: str = ""
    bought_price: str = ""
    last_trade: str = ""
    count: int = 0
    pending_count: int = 0
    expanded: bool = False
    loaded: bool = False
    transactions: list[TxRow] = dataclasses.field(default_factory=list)


def input_text(value: object) -> str:
    """A figure or a text of the service's, as a form's input holds it (a number as its digits)."""
    if value is None:
        return ""
    return format(value, "f") if isinstance(value, Decimal) else str(value)


@dataclasses.dataclass
class TransactionInputs:
    """The form dialog's inputs as typed, each its text (days YYYY-MM-DD): an asset form's (FORM_FIELDS
    of its type), the cash form's (CASH_KEYS) or the opening balance's (price and trade_at)."""

    code: str = ""
    type: str = ""              # the cash form's withdrawal | credit | income
    trade_at: str = ""
    quantity: str = ""
    price: str = ""
    fee: str = ""
    gst: str = ""
    settlement_at: str = ""
    status: str = ""
    contract_note: str = ""
    order_id: str = ""
    limit_price: str = ""
    amount: str = ""
    franking_credits: str = ""
    ex_date: str = ""
    ratio: str = ""
    description: str = ""

    def of(self, keys: Iterable[str]) -> dict[str, str]:
        """The inputs named, as the domain's rules read a form sent."""
        return {key: getattr(self, key) for key in keys}


def asset_inputs(r: AssetTransactionView) -> TransactionInputs:
    """An asset transaction as the asset form's inputs."""
    return TransactionInputs(
        code=input_text(r.code), trade_at=input_day(r.trade_at), quantity=input_text(r.quantity),
        price="" if r.form == "capital_return" and r.amount else input_text(r.price),  # a per-unit return is stored as its amount
        fee=input_text(r.fee), gst=input_text(r.gst), settlement_at=input_day(r.settlement_at), status=r.status,
        contract_note=input_text(r.contract_note), order_id=input_text(r.order_id), limit_price=input_text(r.limit_price),
        description=input_text(r.description), amount=input_text(r.amount), franking_credits=input_text(r.franking_credits),
        ex_date=input_day(r.ex_date), ratio=input_text(r.ratio),
    )


def cash_inputs(r: CashTransactionView) -> TransactionInputs:
    """A cash transaction as the cash form's inputs."""
    return TransactionInputs(type=r.form or "", price=input_text(r.price), trade_at=input_day(r.trade_at),
                             settlement_at=input_day(r.settlement_at), status=r.status,
                             description=input_text(r.description))


def tx_row(r: AssetTransactionView, can_act: bool) -> TxRow:
    """An asset transaction as an expanded panel row shows it."""
    form, trade = r.form, r.form in ("purchase", "sell")
    reconstruction = form == "reconstruction"
    return TxRow(
        id=r.id, date=day(r.trade_at), type_label=r.type_label, status=r.status,
        status_label=r.status_label or "", status_color=ledger_status_color(r.status),
        quantity=f"Ratio {r.ratio or ''}" if reconstruction else whole_units(r.display_quantity),
        negative=r.display_quantity is not None and r.display_quantity < 0,
        price=close_price(r.price) if r.price and (trade or form == "capital_return") else "",
        amount="" if reconstruction else money(r.value if trade else r.amount),
        fee=money(r.fee) if trade else "", description=input_text(r.description),
        can_edit=can_act and r.can_edit, can_delete=can_act and r.can_delete,
        stop_loss=r.stop_loss_label or "",
    )


def cash_row(r: CashTransactionView) -> CashRow:
    linked = r.linked_transaction
    asset = linked.asset if linked is not None else None
    deposit = linked.deposit if linked is not None else None
    if deposit is not None:
        detail = " ".join(x for x in (deposit.provider_name, deposit.deal_id) if x)
    else:
        detail = asset.code if asset is not None else ""
    return CashRow(
        id=r.id, date=day(r.trade_at), settlement=day(r.settlement_at), klass=r.cash_class, asset=detail,
        description=input_text(r.description), amount=money(r.amount), negative=r.amount < 0, status=r.status,
        status_label=r.status_label, status_color=ledger_status_color(r.status), counted=r.counted,
        is_opening=r.type == "opening_balance", form=r.form or "",
        linked_id=linked.id if linked is not None and asset is not None else 0,
        can_edit=r.can_edit, can_delete=r.can_delete,
    )


def panel_row(r: AssetPosition) -> PanelRow:
    return PanelRow(
        asset_id=r.asset_id, code=r.code or "", name=r.name or "", quantity=whole_units(r.quantity),
        remaining=whole_units(r.remaining_quantity), price=close_price(r.price), cost=money(r.cost),
        value=money(r.value, NA), realised=money(r.realised_gain_loss, NA),
        realised_sign=sign_of(r.realised_gain_loss), unrealised=money(r.unrealised_gain_loss, NA),
        unrealised_sign=sign_of(r.unrealised_gain_loss),
        bought_price=close_price(r.bought_price) if r.bought_price else NA,
        last_trade=day(r.last_trade_at), count=r.transactions_count, pending_count=r.pending_count,
    )


def asset_summary(r: AssetTransactionView) -> list[Detail]:
    """What the form does not show: the cost base of a purchase, the proceeds of a sell, the
    order management outcome, the transaction it replaced."""
    pairs: list[tuple[str, str]] = []
    if r.form == "purchase":
        pairs += [("Cost base", money(r.cost)),
                  ("Unit cost", close_price(r.unit_cost) if r.unit_cost else "")]
    elif r.form == "sell":
        pairs.append(("Proceeds", money(r.amount)))
    elif r.form == "capital_return" and r.quantity:
        pairs.append(("Units held on the date", whole_units(r.quantity)))
    if r.om_status:
        pairs.append(("Order management", r.om_status.capitalize()))
    if r.replaces_id:
        pairs.append(("Replaces", f"Transaction {r.replaces_id}"))
    return [Detail(label=k, value=v) for k, v in pairs if v]


def cash_detail(r: CashTransactionView) -> list[Detail]:
    """A cash transaction as its detail modal lists it, with the transaction it comes from."""
    linked, payload = r.linked_transaction, r.payload
    asset = linked.asset if linked is not None else None
    pairs = [
        ("Class", r.cash_class), ("Amount", money(r.amount)), ("Date", day(r.trade_at)),
        ("Settlement date", day(r.settlement_at)), ("Status", r.status_label),
        ("In the totals", "Yes" if r.counted else "No (not executed)"),
    ]
    if linked is not None:
        pairs.append(("Transaction", linked.type_label))
        if asset is not None:
            pairs.append(("Asset", f"{asset.code} {DASH} {asset.name}"))
        if linked.deposit is not None:
            deposit = linked.deposit
            pairs.append(("Deposit", " ".join(x for x in (deposit.product_type, deposit.provider_name,
                                                           deposit.deal_id) if x)))
        if linked.quantity:
            pairs.append(("Quantity", whole_units(linked.quantity)))
        if linked.price and asset is not None:
            pairs.append(("Price", close_price(linked.price)))
        if linked.om_status:
            pairs.append(("Order management", linked.om_status.capitalize()))
    if payload.ex_date:
        pairs.append(("Ex date", day(payload.ex_date)))
    if payload.franking_credits:
        pairs.append(("Franking credits", money(payload.franking_credits)))
    pairs.append(("Description", input_text(r.description)))
    return [Detail(label=k, value=v or DASH) for k, v in pairs]
