"""A resource's create, read, update and delete routes, registered from its service functions.

Most resources answer these four routes in the same way:

POST   <path>             ok(service.create_x(actor=actor, data=<body>))
GET    <path>/{<id>}      ok(service.get_x(actor=actor, <id>=...))
PUT    <path>/{<id>}      ok(service.update_x(actor=actor, <id>=..., data=<body>))
DELETE <path>/{<id>}      ok(service.delete_x(actor=actor, <id>=...)), or the resource's toast

Each route is named as the service function it calls (its operation id and summary) unless given
a name of its own. A route that does more than this stays written out in its router.
"""
from __future__ import annotations

import dataclasses
import inspect
from dataclasses import dataclass
from typing import Any, Callable, Optional

from fastapi import APIRouter
from pydantic import BaseModel

from app.api.deps import CurrentActor, answers, ok, ok_message
from app.api.schemas import Message, path_id, rendered, sent

Service = Callable[..., Any]


@dataclass(frozen=True)
class Resource:
    """The routes of one resource: POST `path`, and GET, PUT and DELETE `path/{id_param}`."""
    router: APIRouter
    path: str
    id_param: str  # the path parameter naming one item ("class_id")
    out: Any  # the response model of create, read and update
    body: Optional[type[BaseModel]] = None  # the body of create and update
    data_of: Callable[[BaseModel], dict[str, Any]] = sent  # what the service gets as `data`
    service_id: Optional[str] = None  # the service's keyword for the id, when it is not id_param
    # A typed service: it takes `form=form_of(body)` (rather than `data`) and the id as a number
    # (schemas.path_id), and its answer is rendered from its dataclass (schemas.rendered).
    form_of: Optional[Callable[[Any], Any]] = None
    # A service that takes the id as a number while its body still goes to it as `data`.
    numbered: bool = False

    def create(self, service: Service, *, name: Optional[str] = None) -> None:
        self._route("POST", service, name, self.out, item=False, write=True)

    def get(self, service: Service, *, name: Optional[str] = None) -> None:
        self._route("GET", service, name, self.out, item=True, write=False)

    def update(self, service: Service, *, name: Optional[str] = None) -> None:
        self._route("PUT", service, name, self.out, item=True, write=True)

    def delete(self, service: Service, *, name: Optional[str] = None, out: Any = Message,
               message: Optional[str] = None) -> None:
        """`message`: the toast the route answers, for a service that answers nothing."""
        self._route("DELETE", service, name, out, item=True, write=False, message=message)

    def _route(self, method: str, service: Service, name: Optional[str], out: Any, *, item: bool, write: bool,
               message: Optional[str] = None) -> None:
        parameters = [inspect.Parameter("actor", inspect.Parameter.KEYWORD_ONLY, annotation=CurrentActor)]
        if item:
            parameters.append(inspect.Parameter(self.id_param, inspect.Parameter.KEYWORD_ONLY, annotation=str))
        if write:
            parameters.append(inspect.Parameter("body", inspect.Parameter.KEYWORD_ONLY, annotation=self.body))

        def endpoint(actor: Any, **sent_in: Any) -> dict[str, Any]:
            arguments: dict[str, Any] = {}
            typed = self.form_of is not None
            if item:
                sent_id = sent_in[self.id_param]
                arguments[self.service_id or self.id_param] = path_id(sent_id) if typed or self.numbered else sent_id
            if write:
                if self.form_of is not None:
                    arguments["form"] = self.form_of(sent_in["body"])
                else:
                    arguments["data"] = self.data_of(sent_in["body"])
            result = service(actor=actor, **arguments)
            if message is not None:
                return ok_message(message)
            # a service's typed value is rendered, whatever its arguments
            return ok(rendered(result) if typed or dataclasses.is_dataclass(result) else result)

        # FastAPI reads the parameters from the signature: the path's own id name and the body's model.
        endpoint.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
        endpoint.__name__ = endpoint.__qualname__ = name or service.__name__  # as logs and tracebacks show it
        path = f"{self.path}/{{{self.id_param}}}" if item else self.path
        self.router.add_api_route(path, endpoint, methods=[method], name=endpoint.__name__, **answers(out))
