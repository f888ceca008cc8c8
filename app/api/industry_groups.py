"""Industry groups (spec 002 s7: get, getMainList, create, update, delete, reorder).

GET    /api/industry-groups            every group in order, with assets_count (result.rows, result.totals[0].count)
GET    /api/industry-groups/main-list  [{id, title, color}] in order, for pickers
GET    /api/industry-groups/{id}       one group
POST   /api/industry-groups            {title, color?}
PUT    /api/industry-groups/{id}       {title?, color?, idx?}
DELETE /api/industry-groups/{id}       409 'The industry group {title} has linked assets.' (errors.helper) while assets link to it
PUT    /api/industry-groups-reorder    [{id, idx}, ...] naming every group once; one transaction

The bodies are read here into the service's typed form (rules.read_form, rules.read_order); the
answers are the service's values (IndustryGroupView, IndustryGroupOption) rendered as payloads.
"""
from __future__ import annotations

from typing import Annotated, Any, Optional, Union

from fastapi import APIRouter, Body as BodyParam
from pydantic import BeforeValidator, Field

from app.api.deps import CurrentActor, answers, listing, ok, ok_message
from app.api.payloads import IndustryGroupOption, IndustryGroupOut, ReorderOut
from app.api.schemas import Body, Lenient, Message, Page, Sent, SentText, path_id, rendered
from app.domain import industry_groups as rules
from app.services import industry_groups

router = APIRouter(tags=["industry groups"])


class IndustryGroupBody(Body):
    title: SentText = None
    color: SentText = None
    idx: Sent(Union[int, float, str]) = None


class OrderItem(Body):
    id: Optional[Union[int, float, str]] = None
    idx: Optional[Union[int, float, str]] = Field(None, description="the group's new position")


def _list_or_none(value: Any) -> Any:
    """Not a list: the service answers with its own text (send every group once)."""
    return value if isinstance(value, list) else None


OrderList = Annotated[Optional[list[Lenient(OrderItem)]], BeforeValidator(_list_or_none),
                      BodyParam(description="[{id, idx}, ...] naming every group once")]


def _form(body: IndustryGroupBody, *, position: bool = True) -> rules.IndustryGroupForm:
    data = body.model_dump(exclude=None if position else {"idx"})
    return rules.read_form(data)


@router.get("/industry-groups", **answers(Page[IndustryGroupOut]))
def list_industry_groups(actor: CurrentActor):
    return listing(rendered(industry_groups.list_industry_groups(actor=actor)))


@router.get("/industry-groups/main-list", **answers(list[IndustryGroupOption]))
def main_list(actor: CurrentActor):
    return ok(rendered(industry_groups.main_list(actor=actor)))


@router.get("/industry-groups/{group_id}", **answers(IndustryGroupOut))
def get_industry_group(*, actor: CurrentActor, group_id: str):
    return ok(rendered(industry_groups.get_industry_group(actor=actor, group_id=path_id(group_id))))


@router.post("/industry-groups", **answers(IndustryGroupOut))
def create_industry_group(actor: CurrentActor, body: IndustryGroupBody):
    form = _form(body, position=False)  # a new group goes last
    return ok(rendered(industry_groups.create_industry_group(actor=actor, form=form)))


@router.put("/industry-groups/{group_id}", **answers(IndustryGroupOut))
def update_industry_group(*, actor: CurrentActor, group_id: str, body: IndustryGroupBody):
    return ok(rendered(industry_groups.update_industry_group(actor=actor, group_id=path_id(group_id),
                                                             form=_form(body))))


@router.delete("/industry-groups/{group_id}", **answers(Message))
def delete_industry_group(*, actor: CurrentActor, group_id: str):
    industry_groups.delete_industry_group(actor=actor, group_id=path_id(group_id))
    return ok_message(industry_groups.DELETED)


@router.put("/industry-groups-reorder", **answers(ReorderOut))
def reorder_industry_groups(actor: CurrentActor,
                            body: OrderList = None):
    sent = [item.model_dump() if item is not None else None for item in body] if body is not None else None
    rows = industry_groups.reorder_industry_groups(actor=actor, items=rules.read_order(sent))
    return ok_message(industry_groups.REORDERED, rows=rendered(rows))
